/* k_dot_w2.cu - the ceiling's dot-product kernels of 8-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(dot, CE_DOT, 2)
CE_TABLE(dot, 2) = CE_PH(dot, 2);
