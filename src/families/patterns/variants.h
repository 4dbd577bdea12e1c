/*
 * variants.h - the patterns family's one list of variants, in the order of
 * ./patterns --list-kernels.  Included by patterns.cu (the engine's table and
 * its kernels) and by model.c (the sector model's table), each defining:
 *
 *   L(NAME, PT, ABOUT, CFG, CFG_DEFAULT, RULE)  a load pattern: three variants,
 *       NAME_ca, NAME_cg, NAME_nc (ld.global.ca, .cg, .nc)
 *   W(NAME, PT, ABOUT, CFG, CFG_DEFAULT, RULE)  a write pattern
 *   S(NAME, PT, F, ABOUT, RULE)                 a struct of F floats (four of
 *       them for each F: PATTERNS_STRUCTS)
 *
 * PT: what the variant does (the enum below, shared by kernels and model);
 * ABOUT: --list-kernels; CFG: what its configuration list means (sf_cfg);
 * CFG_DEFAULT: the model's default list; RULE: its addresses, in one line.
 * A row of L or W is two lines: what the variant is (NAME, PT, ABOUT), then
 * its configurations and addresses (CFG, CFG_DEFAULT, RULE).
 */
#ifndef PATTERNS_VARIANTS_H
#define PATTERNS_VARIANTS_H

enum {  /* what each variant does */
    PT_COALESCED, PT_PERMUTED, PT_OFFSET, PT_BROADCAST, PT_RANDOM, PT_SPREAD, PT_STRADDLE, PT_REREAD,
    PT_NLOAD,
    PT_W_COALESCED = PT_NLOAD, PT_W_SCATTER192, PT_W_RANGE64, PT_W_OFFSET, PT_W_STRIDED,
    PT_AOS_ONE, PT_AOS_ALL, PT_SOA_ONE, PT_SOA_ALL, PT_AOS_VEC
};

#define PATTERNS_STRIDES "1-8,16,32,64,128"
#define PATTERNS_OFFSETS "0-32"

/* The four struct variants of F floats: one field or ALL of them ("both
 * fields", "every field"), as an array of structs and as a struct of arrays
 * (patterns.cu's PA_STRUCT4 makes their kernels). */
#define PATTERNS_STRUCTS(S, F, ALL)                                                               \
    S(aos##F##_one, PT_AOS_ONE, F, "array of structs of " #F " floats: field 0 only",             \
      "items N/" #F ": a[t*" #F "]")                                                              \
    S(aos##F##_all, PT_AOS_ALL, F, "array of structs of " #F " floats: " ALL,                     \
      "items N/" #F ": a[t*" #F " + k], k = 0.." #F "-1")                                         \
    S(soa##F##_one, PT_SOA_ONE, F, "struct of " #F " arrays: field 0 only", "items N/" #F ": a[t]") \
    S(soa##F##_all, PT_SOA_ALL, F, "struct of " #F " arrays: " ALL,                               \
      "items N/" #F ": a[k*items + t], k = 0.." #F "-1")

#define PATTERNS_VARIANTS(L, W, S)                                                                \
    L(coalesced, PT_COALESCED, "a[t], aligned and coalesced",                                     \
      SF_CFG_NONE, NULL, "items N: a[t]")                                                         \
    L(permuted, PT_PERMUTED, "the warp's 32 words of one line, not in lane order",                \
      SF_CFG_NONE, NULL, "items N: a[(t & ~31) | ((7l+3) & 31)]")                                 \
    L(offset, PT_OFFSET, "a[t + off], misaligned by --offset elements",                           \
      SF_CFG_OFFSET, PATTERNS_OFFSETS, "items N-32: a[t + off]")                                  \
    L(broadcast, PT_BROADCAST, "one address for all 32 lanes of a warp",                          \
      SF_CFG_NONE, NULL, "items N: a[32w]")                                                       \
    L(random, PT_RANDOM, "32 random addresses per warp",                                          \
      SF_CFG_NONE, NULL, "items N: a[ro_perm(t)]")                                                \
    L(spread, PT_SPREAD, "128 bytes in four pieces over 512 (seed 002, scenario 5)",              \
      SF_CFG_NONE, NULL, "items N/4: a[128w + {0,32,64,120}[l/8] + l%8]")                         \
    L(straddle, PT_STRADDLE, "bytes 96..223 of a 512-byte window: two lines (scenario 3)",        \
      SF_CFG_NONE, NULL, "items N/4: a[128w + 24 + l]")                                           \
    L(reread, PT_REREAD, "odd warps re-read lines even warps loaded (scenario 4)",                \
      SF_CFG_NONE, NULL, "items N/4: a[128(w/2) + (w odd ? 0 : 24) + l]")                         \
    W(write_coalesced, PT_W_COALESCED, "out[t] = v: aligned consecutive stores",                  \
      SF_CFG_NONE, NULL, "items N: out[t]")                                                       \
    W(write_scatter192, PT_W_SCATTER192, "stores scattered over 192 bytes: 1- and 2-segment pieces", \
      SF_CFG_NONE, NULL, "items N/2: out[64w + {0-7, 16-31, 40-47}[l]] (bytes 0-31, 64-127, 160-191)") \
    W(write_range64, PT_W_RANGE64, "two lanes per word: one 64-byte range per warp",              \
      SF_CFG_NONE, NULL, "items 2N: out[16w + l/2]")                                              \
    W(write_offset, PT_W_OFFSET, "out[t + off]: misaligned stores (--offset)",                    \
      SF_CFG_OFFSET, PATTERNS_OFFSETS, "items N-32: out[t + off]")                                \
    W(write_strided, PT_W_STRIDED, "out[t * S]: strided stores (--stride)",                       \
      SF_CFG_STRIDE, PATTERNS_STRIDES, "items N/S: out[t*S]")                                     \
    PATTERNS_STRUCTS(S, 2, "both fields")                                                         \
    PATTERNS_STRUCTS(S, 4, "every field")                                                         \
    PATTERNS_STRUCTS(S, 8, "every field")                                                         \
    S(aos_vec2, PT_AOS_VEC, 2, "the struct of 2 floats loaded as one float2 (LDG.E.64)",          \
      "items N/2: float2 a2[t] (LDG.E.64)")                                                       \
    S(aos_vec4, PT_AOS_VEC, 4, "the struct of 4 floats loaded as one float4 (LDG.E.128)",         \
      "items N/4: float4 a4[t] (LDG.E.128)")

/* The threads that work in pattern PT at N elements; PAR is its offset (the
 * offset patterns), stride (write_strided) or F (the structs), else unused.
 * The one count of the kernels (patterns.cu) and of the sector model
 * (model.c): whole windows only where a warp reads a fixed window (spread,
 * straddle: 128 words; write_scatter192: 64; write_range64: 16), and every
 * offset up to 32 gets the same threads, N - 32 (N - off beyond). */
static inline unsigned long long patterns_items(int pt, unsigned long long par, unsigned long long n)
{
    switch (pt) {
    case PT_PERMUTED: return n & ~31ull;
    case PT_OFFSET: case PT_W_OFFSET: {
        const unsigned long long m = par > 32 ? par : 32;
        return n > m ? n - m : 0;
    }
    case PT_SPREAD: case PT_STRADDLE: return n / 128 * 32;
    case PT_REREAD: return n / 4;   /* pairs of warps share a window: N/256 windows */
    case PT_W_SCATTER192: return n / 64 * 32;
    case PT_W_RANGE64: return n / 16 * 32;
    case PT_W_STRIDED:
    case PT_AOS_ONE: case PT_AOS_ALL: case PT_SOA_ONE: case PT_SOA_ALL: case PT_AOS_VEC:
        return par ? n / par : 0;
    default: return n;
    }
}

#endif
