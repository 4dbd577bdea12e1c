/* k_triad_w4.cu - the ceiling's triad (a[i] = b[i] + s c[i]) kernels of 16-byte accesses: every
 * unroll and hint (kernels.cuh) */
#include "kernels.cuh"

CE_OPW(triad, CE_TRIAD, 4)
CE_TABLE(triad, 4) = CE_PH(triad, 4);
