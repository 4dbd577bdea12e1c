/*
 * variants.h - the readonly family's one list of variants, in the order of
 * ./readonly --list-kernels.  Included by readonly.cu (the kernels' enum and
 * the engine's table) and by model.c (the sector model's table), each
 * defining X:
 *
 *   X(ID, NAME, ABOUT, CFG, CFG_DEFAULT, RULE)
 *
 * ID: the enum both use (the model's generator reads it as sf_variant.param);
 * NAME: --kernel NAME (CUDA kernel readonly_NAME); ABOUT: --list-kernels;
 * CFG: what its configuration list means (sf_cfg; the kernels take one
 * --stride); CFG_DEFAULT: the model's default list; RULE: its addresses, in
 * one line.  Every variant launches whole blocks over its items and a thread
 * past the last item loads the last item again (ro_clamp): i = min(t, items-1).
 */
#ifndef READONLY_VARIANTS_H
#define READONLY_VARIANTS_H

#define READONLY_STRIDES "1,2,4,8,16,32,64,128"

#define READONLY_VARIANTS(X)                                                                      \
    X(RO_BASELINE, "baseline",                                                                    \
      "float a[i]: one coalesced 4-byte load per thread (128 B per warp)", SF_CFG_NONE, NULL,     \
      "items N: a[i]")                                                                            \
    X(RO_FLOAT4, "float4",                                                                        \
      "float4 a4[i]: one 16-byte load per thread, N/4 threads (512 B per warp)", SF_CFG_NONE,     \
      NULL, "items N/4: float4 a4[i] (LDG.E.128)")                                                \
    X(RO_NONDIVERGING, "nondiverging", "a[c[i]] with c[i] = i: two dependent coalesced loads",    \
      SF_CFG_NONE, NULL, "items N: c[i], then a[c[i]], c[i] = i")                                 \
    X(RO_RANDOM_ACCESS, "random_access",                                                          \
      "a[c[i]] with c a random permutation: a diverging gather", SF_CFG_NONE, NULL,               \
      "items N: c[i], then a[c[i]], c[i] = ro_perm(i)")                                           \
    X(RO_STRIDED, "strided", "a[(stride * i) % N]: sectors per request grow with --stride",       \
      SF_CFG_STRIDE, READONLY_STRIDES, "items N: a[(S*i) % N]")                                   \
    X(RO_STRIDED_FLOAT4, "strided_float4", "float4 a4[(stride * i) % (N/4)]", SF_CFG_STRIDE,      \
      READONLY_STRIDES, "items N/4: float4 a4[(S*i) % (N/4)]")

#endif
