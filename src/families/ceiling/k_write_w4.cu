/* k_write_w4.cu - the ceiling's write kernels of 16-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(write, CE_WRITE, 4)
CE_TABLE(write, 4) = CE_PH(write, 4);
