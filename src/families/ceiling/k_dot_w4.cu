/* k_dot_w4.cu - the ceiling's dot-product kernels of 16-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(dot, CE_DOT, 4)
CE_TABLE(dot, 4) = CE_PH(dot, 4);
