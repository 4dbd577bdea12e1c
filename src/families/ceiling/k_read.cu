/* k_read.cu - the ceiling's read kernels (the reduction sum += b[i]): every width,
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OP(read, CE_READ)
CE_TABLE(read) = CE_PW(read);
