/* k_copy_w2.cu - the ceiling's copy kernels of 8-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(copy, CE_COPY, 2)
CE_TABLE(copy, 2) = CE_PH(copy, 2);
