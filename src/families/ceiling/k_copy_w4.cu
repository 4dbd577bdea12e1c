/* k_copy_w4.cu - the ceiling's copy kernels of 16-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(copy, CE_COPY, 4)
CE_TABLE(copy, 4) = CE_PH(copy, 4);
