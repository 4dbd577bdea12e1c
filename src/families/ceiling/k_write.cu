/* k_write.cu - the ceiling's write kernels (a[i] = s): every width,
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OP(write, CE_WRITE)
CE_TABLE(write) = CE_PW(write);
