/* k_triad.cu - the ceiling's triad kernels (a[i] = b[i] + s c[i]): every width,
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OP(triad, CE_TRIAD)
CE_TABLE(triad) = CE_PW(triad);
