/* k_read_w1.cu - the ceiling's read kernels of 4-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(read, CE_READ, 1)
CE_TABLE(read, 1) = CE_PH(read, 1);
