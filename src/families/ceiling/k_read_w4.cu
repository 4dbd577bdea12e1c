/* k_read_w4.cu - the ceiling's read kernels of 16-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(read, CE_READ, 4)
CE_TABLE(read, 4) = CE_PH(read, 4);
