/* k_copy.cu - the ceiling's copy kernels (a[i] = b[i]): every width,
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OP(copy, CE_COPY)
CE_TABLE(copy) = CE_PW(copy);
