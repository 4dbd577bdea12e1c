/* k_triad_w1.cu - the ceiling's triad (a[i] = b[i] + s c[i]) kernels of 4-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(triad, CE_TRIAD, 1)
CE_TABLE(triad, 1) = CE_PH(triad, 1);
