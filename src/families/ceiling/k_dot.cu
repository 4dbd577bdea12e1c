/* k_dot.cu - the ceiling's dot kernels (sum += b[i] c[i]): every width,
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OP(dot, CE_DOT)
CE_TABLE(dot) = CE_PW(dot);
