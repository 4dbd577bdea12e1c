/* k_read_w2.cu - the ceiling's read kernels of 8-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(read, CE_READ, 2)
CE_TABLE(read, 2) = CE_PH(read, 2);
