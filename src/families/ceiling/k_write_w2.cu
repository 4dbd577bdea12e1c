/* k_write_w2.cu - the ceiling's write kernels of 8-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(write, CE_WRITE, 2)
CE_TABLE(write, 2) = CE_PH(write, 2);
