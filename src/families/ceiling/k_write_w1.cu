/* k_write_w1.cu - the ceiling's write kernels of 4-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(write, CE_WRITE, 1)
CE_TABLE(write, 1) = CE_PH(write, 1);
