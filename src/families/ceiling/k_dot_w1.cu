/* k_dot_w1.cu - the ceiling's dot-product kernels of 4-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(dot, CE_DOT, 1)
CE_TABLE(dot, 1) = CE_PH(dot, 1);
