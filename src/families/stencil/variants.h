/*
 * variants.h - the stencil family's one list of variants, in the order of
 * ./stencil --list-kernels.  Included by stencil.cu (the enum and the
 * engine's table) and by model.c (the sector model's table), each defining
 *
 *   X(ID, NAME, ABOUT, RULE)
 *
 * ID: the kernels' enum, also the model's generator parameter; NAME:
 * --kernel NAME (CUDA kernel stencil_NAME); ABOUT: --list-kernels; RULE: its
 * addresses, in one line (idx: the point's element in the padded layout).
 */
#ifndef STENCIL_VARIANTS_H
#define STENCIL_VARIANTS_H

#define STENCIL_VARIANTS(X)                                                                      \
    X(ST_COPY, "deriv_copy", "out[idx] = in[idx]: the stencil's copy, without arithmetic",       \
      "out[idx] = in[idx]")                                                                      \
    X(ST_DERIV0, "deriv0", "staggered first derivative along i0 (contiguous), radius --radius", \
      "loads in[idx+k-1], in[idx-k] for k = 1..R, then out[idx]")                                \
    X(ST_DERIV1, "deriv1", "the same along i1 (stride: the leading dimension)",                  \
      "loads in[idx+(k-1)*ld], in[idx-k*ld] for k = 1..R, then out[idx]")                        \
    X(ST_DERIV0_HALO, "deriv0_halo", "deriv0, R = 1; the probe times the halo load alone (L1 hits)", \
      "loads in[idx], then in[idx-1], then out[idx]")

#define ST_ID_(ID, NAME, ABOUT, RULE) ID,
enum { STENCIL_VARIANTS(ST_ID_) ST_NVARIANTS };
#undef ST_ID_

#endif
