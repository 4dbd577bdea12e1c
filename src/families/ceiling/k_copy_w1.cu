/* k_copy_w1.cu - the ceiling's copy kernels of 4-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(copy, CE_COPY, 1)
CE_TABLE(copy, 1) = CE_PH(copy, 1);
