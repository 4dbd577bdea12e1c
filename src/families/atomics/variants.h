/*
 * variants.h - the atomics family's one list of variants, included by the
 * kernels (atomics.cu) and by the model (atomics_model.c), so that the two
 * can never disagree on a name, an order or an address pattern.
 *
 * Every thread of the grid does one 32-bit atomicAdd of 1 to global memory;
 * the patterns differ only in which word each thread adds to.  Thread t is
 * lane l = t % 32 of global warp w = t / 32, and adds to word
 *
 *     w * WARP_WORDS + l * LANE_WORDS            (of a 256-byte aligned array)
 *
 * ATOMICS_PATTERNS(X): X(ENUM, name, WARP_WORDS, LANE_WORDS, what the warp does)
 *   same_address   0     0   every lane of every warp on one word: the most
 *                            contended counter there is
 *   warp_address   8     0   the 32 lanes of a warp on one word, each warp on
 *                            a word of its own 32-byte sector (8 words apart:
 *                            warps never share a sector, so only the lanes of
 *                            one warp contend)
 *   lane_spread    32    1   every lane its own word, consecutive: a warp
 *                            covers one 128-byte line (4 sectors), no contention
 *   line_spread    1024  32  every lane its own 128-byte line: 32 lines (32
 *                            sectors) per warp instruction, no contention
 *
 * ATOMICS_VARIANTS(X): X(ENUM, ID, PATTERN, RET, about)
 * ID is the variant's name as an identifier: #ID is what --kernel takes, and
 * atomics_##ID the kernel's name (atomics.cu makes the kernels and their
 * table from this list).
 * Each pattern comes in two forms, one ATOMICS_FORMS entry.  RET = 0: the returned value is unused, so
 * the compiler emits a reduction (on sm_90, REDG.E.ADD.STRONG.GPU): fire and
 * forget, the throughput form; it has no probe kernel (no value ends a timed
 * region).  RET = 1: the returned old value is used, so it is an atomic
 * (ATOMG.E.ADD.STRONG.GPU), and its return ends the timed region: the
 * latency form.
 */
#ifndef WARPLAT_ATOMICS_VARIANTS_H
#define WARPLAT_ATOMICS_VARIANTS_H

#define ATOMICS_PATTERNS(X)                                                          \
    X(AT_SAME_ADDRESS, "same_address", 0u, 0u, "every lane of every warp adds to one word") \
    X(AT_WARP_ADDRESS, "warp_address", 8u, 0u,                                       \
      "the 32 lanes of a warp add to one word; each warp its own 32 B sector")      \
    X(AT_LANE_SPREAD, "lane_spread", 32u, 1u,                                        \
      "each lane its own word, consecutive: a warp covers one 128 B line")          \
    X(AT_LINE_SPREAD, "line_spread", 1024u, 32u,                                     \
      "each lane its own 128 B line: 32 lines per warp instruction")

/* The two forms of pattern P (named ID): the enums P_RED and P_ATOM, the
 * names ID_red and ID_atom, and one about each: WHAT, then the form. */
#define ATOMICS_FORMS(X, P, ID, WHAT, RED, ATOM)            \
    X(P##_RED, ID##_red, P, 0, WHAT "; " RED ": throughput") \
    X(P##_ATOM, ID##_atom, P, 1, WHAT "; " ATOM ": latency")

#define ATOMICS_VARIANTS(X)                                                                      \
    ATOMICS_FORMS(X, AT_SAME_ADDRESS, same_address, "every lane of every warp adds to one word", \
                  "result unused (RED)", "result used (ATOMG)")                                  \
    ATOMICS_FORMS(X, AT_WARP_ADDRESS, warp_address,                                              \
                  "a warp's 32 lanes add to one word, one 32 B sector per warp", "RED", "ATOMG") \
    ATOMICS_FORMS(X, AT_LANE_SPREAD, lane_spread,                                                \
                  "each lane its own word, a warp on one 128 B line", "RED", "ATOMG")            \
    ATOMICS_FORMS(X, AT_LINE_SPREAD, line_spread,                                                \
                  "each lane its own 128 B line, 32 lines per warp", "RED", "ATOMG")

#define ATOMICS_X_ENUM(E, ...) E,
enum atomics_pattern { ATOMICS_PATTERNS(ATOMICS_X_ENUM) AT_NPATTERNS };
enum atomics_variant { ATOMICS_VARIANTS(ATOMICS_X_ENUM) AT_NVARIANTS };

/* The X-macros' columns, as functions (static inline: no unused-variable
 * warnings where a file needs only some of them; __host__ __device__ under
 * nvcc, so the kernels use the same ones). */
#ifdef __CUDACC__
#define ATOMICS_HD __host__ __device__
#else
#define ATOMICS_HD
#endif
#define ATOMICS_X_CASE_WW(E, name, ww, lw, about) case E: return ww;
#define ATOMICS_X_CASE_LW(E, name, ww, lw, about) case E: return lw;
#define ATOMICS_X_CASE_PNAME(E, name, ww, lw, about) case E: return name;
#define ATOMICS_X_CASE_PABOUT(E, name, ww, lw, about) case E: return about;
#define ATOMICS_X_CASE_VPAT(E, id, pat, ret, about) case E: return pat;
#define ATOMICS_X_CASE_VRET(E, id, pat, ret, about) case E: return ret;
#define ATOMICS_X_CASE_VNAME(E, id, pat, ret, about) case E: return #id;

/* Words between the first lanes of neighbouring warps, and between lanes. */
static inline ATOMICS_HD unsigned atomics_warp_words(int p)
{
    switch (p) { ATOMICS_PATTERNS(ATOMICS_X_CASE_WW) default: return 0; }
}
static inline ATOMICS_HD unsigned atomics_lane_words(int p)
{
    switch (p) { ATOMICS_PATTERNS(ATOMICS_X_CASE_LW) default: return 0; }
}
static inline const char *atomics_pattern_name(int p)
{
    switch (p) { ATOMICS_PATTERNS(ATOMICS_X_CASE_PNAME) default: return "?"; }
}
static inline const char *atomics_pattern_about(int p)
{
    switch (p) { ATOMICS_PATTERNS(ATOMICS_X_CASE_PABOUT) default: return "?"; }
}
/* A variant's pattern; whether it uses the returned value (ATOM) or not (RED). */
static inline ATOMICS_HD int atomics_variant_pattern(int v)
{
    switch (v) { ATOMICS_VARIANTS(ATOMICS_X_CASE_VPAT) default: return -1; }
}
static inline ATOMICS_HD int atomics_variant_ret(int v)
{
    switch (v) { ATOMICS_VARIANTS(ATOMICS_X_CASE_VRET) default: return -1; }
}
static inline const char *atomics_variant_name(int v)
{
    switch (v) { ATOMICS_VARIANTS(ATOMICS_X_CASE_VNAME) default: return "?"; }
}

#endif
