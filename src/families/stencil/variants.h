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

/* The layout of variant ID (in and out alike), the one rule of the kernels
 * (stencil.cu) and the sector model (model.c): R (deriv0_halo: always 1),
 * H halo rows (deriv1: R, else 0), ld = N0 + 2R (rounded up to 32 floats
 * with pad_ld), lead (with lead_pad: the smallest that puts point (0, 0) at a
 * multiple of 32 floats), and the array's size in floats. */
typedef struct stencil_layout {
    unsigned long long n0, n1, ld, lead, size;
    unsigned R, H;
    int lead_pad, pad_ld;
} stencil_layout;

static inline stencil_layout stencil_layout_of(int id, unsigned long long n0, unsigned long long n1,
                                               unsigned radius, int lead_pad, int pad_ld)
{
    stencil_layout L;
    L.n0 = n0;
    L.n1 = n1;
    L.R = id == ST_DERIV0_HALO ? 1 : radius;
    L.H = id == ST_DERIV1 ? L.R : 0;
    L.lead_pad = lead_pad;
    L.pad_ld = pad_ld;
    L.ld = n0 + 2 * L.R;
    if (pad_ld) L.ld = (L.ld + 31) / 32 * 32;
    const unsigned long long first = L.H * L.ld + L.R;   /* index of (0,0) with lead 0 */
    L.lead = lead_pad ? (32 - first % 32) % 32 : 0;
    L.size = L.lead + (n1 + 2 * L.H) * L.ld;
    return L;
}

#endif
