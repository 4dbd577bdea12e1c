/* k_triad_w2.cu - the ceiling's triad (a[i] = b[i] + s c[i]) kernels of 8-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(triad, CE_TRIAD, 2)
CE_TABLE(triad, 2) = CE_PH(triad, 2);
