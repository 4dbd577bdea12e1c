/*
 * sector_families.c - the model of sector_families.h.
 *
 * How it is computed, and why this way:
 *
 * - Every variant is a generator: gen(ctx, warp, k, &access) gives the k-th
 *   global-memory instruction of a warp (op, array, bytes per lane, each
 *   active lane's byte offset), or 0 past its last instruction.  The
 *   kernels' index rules live there, one small function each, exactly as
 *   the families' headers state them; everything else is shared.
 *
 * - The engine walks the blocks in order and, inside a block, instruction k
 *   of warps 0..WPB-1 before instruction k+1 (the order warps of one block
 *   issue independent loads in).  Per request it sorts the active lanes'
 *   offsets (32 at most), so sectors, lines and distinct bytes are exact.
 *   Lanes are naturally aligned (4, 8, 16 B), so each lane lies in one
 *   sector and one line.
 *
 * - L1: one small hash set of sectors per block (the current one and the
 *   previous block's).  A block's footprint in these kernels is a few KiB,
 *   far below the SM's L1, so capacity never evicts inside a block; across
 *   blocks the model keeps nothing (blocks land on different SMs), except
 *   that it counts the sectors the previous block touched again: those are
 *   the hits_max / *_min brackets.
 *
 * - L2: a fully associative LRU of l2_bytes in 128 B lines, walked line by
 *   line with O(1) updates (doubly linked list over dense line numbers),
 *   each line with a valid and a dirty mask of its four sectors.  It is the
 *   readonly model's A3/A4 (granule, capacity in lines) applied to the
 *   exact order of requests, with stores added (write-validate: no fetch).
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_families.h"
#include "err.h"
#include "patterns.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SF_VALID = 1, SF_STORED = 2 };

typedef struct sf_access {
    unsigned char op, array, bytes;
    uint32_t active;
    uint64_t off[32];
} sf_access;

typedef struct sf_ctx {
    const sf_variant *v;
    const sf_params *p;
    uint64_t n, cfg, items;
    uint64_t grid_threads;   /* grid-stride loops */
    uint64_t vec_items;      /* vector copies: M = N / V */
    unsigned rem;            /* N mod V */
    uint32_t half;           /* ro_perm_half_bits(N) */
    uint64_t ld, lead, halo; /* stencil layout, in elements */
    unsigned radius;
    uint64_t array_bytes[2];
} sf_ctx;

void sf_params_default(sf_params *p)
{
    memset(p, 0, sizeof *p);
    p->n = SF_N_DEFAULT;
    p->wpb = 4;
    p->cfg = 1;
    p->seed = SF_SEED_DEFAULT;
    p->sms = 132;
    p->blocks_per_sm = 16;
    p->n0 = 32;
    p->n1 = 1;
    p->radius = 1;
    p->granule_bytes = 64;
    p->l2_bytes = 25ull * 1024 * 1024;
}

/* ------------------------------------------------------------ generators */

static inline void acc_begin(sf_access *a, int op, int array, unsigned bytes)
{
    a->op = (unsigned char)op;
    a->array = (unsigned char)array;
    a->bytes = (unsigned char)bytes;
    a->active = 0;
}

static inline void acc_lane(sf_access *a, unsigned l, uint64_t off)
{
    a->active |= 1u << l;
    a->off[l] = off;
}

/* Lanes of warp w whose thread t < items: off = scale * f(t), via a macro so
 * that each rule reads as the kernel does. */
#define FOR_LANES(c, w, t, l)                                                     \
    for (unsigned l = 0; l < 32; l++)                                             \
        for (uint64_t t = 32 * (w) + l, once_ = 1; once_ && t < (c)->items; once_ = 0)

/* copy: stride (out[t] = in[t*S]), stride_store (out[t*S] = in[t]),
 * stride16 (int4: out4[t] = in4[t*S]). */
static int g_copy_stride(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    if (k > 1)
        return 0;
    const unsigned e = c->v->param == 1 ? 16 : 4; /* param 1: stride16, 2: stride_store */
    const int scatter_store = c->v->param == 2;
    acc_begin(a, k ? SF_ST : SF_LD, k ? 1 : 0, e);
    FOR_LANES(c, w, t, l)
    {
        uint64_t strided = t * c->cfg, plain = t;
        uint64_t idx = (k == 0) != scatter_store ? strided : plain;
        acc_lane(a, l, e * idx);
    }
    return 1;
}

/* copy: batch, batch_unrolled (LDG k, STG k alternate), batch_restrict
 * (param 1: the B loads, then the B stores); lane l of warp w touches
 * element (32w + l) * B + j. */
static int g_copy_batch(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const uint64_t B = c->cfg;
    if (k >= 2 * B)
        return 0;
    int st;
    uint64_t j;
    if (c->v->param) {
        st = k >= B;
        j = k % B;
    } else {
        st = k & 1;
        j = k / 2;
    }
    acc_begin(a, st ? SF_ST : SF_LD, st, 4);
    FOR_LANES(c, w, t, l)
        acc_lane(a, l, 4 * (t * B + j));
    return 1;
}

/* copy: int4, thread t copies int4 elements t*(B/4) + j. */
static int g_copy_int4(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const uint64_t V = c->cfg / 4;
    if (k >= 2 * V)
        return 0;
    const int st = k & 1;
    const uint64_t j = k / 2;
    acc_begin(a, st ? SF_ST : SF_LD, st, 16);
    FOR_LANES(c, w, t, l)
        acc_lane(a, l, 16 * (t * V + j));
    return 1;
}

/* copy: grid_scalar / grid_vector2 / grid_vector4 (param = V): for (i = t;
 * i < N/V; i += grid) copy vector i; then threads t < N mod V copy element
 * V*(N/V) + t. */
static int g_copy_grid(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const unsigned V = c->v->param;
    const uint64_t M = c->vec_items, G = c->grid_threads, base = 32 * w;
    const uint64_t iters = base < M ? (M - base + G - 1) / G : 0;
    if (k < 2 * iters) {
        const uint64_t j = k / 2;
        const int st = k & 1;
        acc_begin(a, st ? SF_ST : SF_LD, st, 4 * V);
        for (unsigned l = 0; l < 32; l++) {
            uint64_t e = base + l + j * G;
            if (e < M)
                acc_lane(a, l, (uint64_t)4 * V * e);
        }
        return 1;
    }
    if (w == 0 && c->rem && k < 2 * iters + 2) {
        const int st = (int)(k - 2 * iters);
        acc_begin(a, st ? SF_ST : SF_LD, st, 4);
        for (unsigned l = 0; l < c->rem; l++)
            acc_lane(a, l, 4 * ((uint64_t)V * M + l));
        return 1;
    }
    return 0;
}

/* copy: vector2 / vector4 (param = V): thread t < N/V copies vector t; thread
 * N/V (the remainder thread) copies the N mod V elements left, one scalar
 * LDG/STG each. */
static int g_copy_vector(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const unsigned V = c->v->param;
    const uint64_t M = c->vec_items, base = 32 * w;
    if (k < 2) {
        const int st = k & 1;
        acc_begin(a, st ? SF_ST : SF_LD, st, 4 * V);
        for (unsigned l = 0; l < 32 && base + l < M; l++)
            acc_lane(a, l, (uint64_t)4 * V * (base + l));
        return 1;
    }
    if (c->rem && M / 32 == w && k < 2 + 2 * (uint64_t)c->rem) {
        const unsigned i = (k - 2) / 2;
        const int st = (k - 2) & 1;
        acc_begin(a, st ? SF_ST : SF_LD, st, 4);
        acc_lane(a, (unsigned)(M % 32), 4 * ((uint64_t)V * M + i));
        return 1;
    }
    return 0;
}

/* patterns: the load patterns (one LDG of a, 4 B); param selects the rule. */
enum { P_COALESCED, P_PERMUTED, P_OFFSET, P_BROADCAST, P_RANDOM, P_SPREAD, P_STRADDLE, P_REREAD };

static int g_load_pattern(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    static const unsigned spread_base[4] = { 0, 32, 64, 120 };
    if (k > 0)
        return 0;
    acc_begin(a, SF_LD, 0, 4);
    FOR_LANES(c, w, t, l)
    {
        uint64_t word;
        switch (c->v->param) {
        case P_PERMUTED: word = (t & ~(uint64_t)31) | ((7 * l + 3) & 31); break;
        case P_OFFSET: word = t + c->cfg; break;
        case P_BROADCAST: word = 32 * w; break;
        case P_RANDOM: word = ro_perm(t, c->n, c->half, c->p->seed); break;
        case P_SPREAD: word = 128 * w + spread_base[l / 8] + l % 8; break;
        case P_STRADDLE: word = 128 * w + 24 + l; break;
        case P_REREAD: word = 128 * (w / 2) + (w % 2 ? 0 : 24) + l; break;
        default: word = t; break;
        }
        acc_lane(a, l, 4 * word);
    }
    return 1;
}

/* patterns: the write patterns (one STG of out, 4 B). */
enum { W_COALESCED, W_SCATTER192, W_RANGE64, W_OFFSET, W_STRIDED };

static int g_write_pattern(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    if (k > 0)
        return 0;
    acc_begin(a, SF_ST, 1, 4);
    FOR_LANES(c, w, t, l)
    {
        uint64_t word;
        switch (c->v->param) {
        case W_SCATTER192: /* bytes 0-31, 64-127, 160-191 of a 256 B window */
            word = 64 * w + (l < 8 ? l : l < 24 ? 16 + (l - 8) : 40 + (l - 24));
            break;
        case W_RANGE64: word = 16 * w + l / 2; break;
        case W_OFFSET: word = t + c->cfg; break;
        case W_STRIDED: word = t * c->cfg; break;
        default: word = t; break;
        }
        acc_lane(a, l, 4 * word);
    }
    return 1;
}

/* patterns: AoS / SoA of F floats (param: F in the low nibble, the form in
 * the high one). */
enum { S_AOS_ONE, S_AOS_ALL, S_SOA_ONE, S_SOA_ALL, S_AOS_VEC };

static int g_struct(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const unsigned F = c->v->param & 15, form = c->v->param >> 4;
    const unsigned nk = form == S_AOS_ALL || form == S_SOA_ALL ? F : 1;
    if (k >= nk)
        return 0;
    acc_begin(a, SF_LD, 0, form == S_AOS_VEC ? 4 * F : 4);
    FOR_LANES(c, w, t, l)
    {
        uint64_t off;
        switch (form) {
        case S_AOS_ONE: off = 4 * (t * F); break;
        case S_AOS_ALL: off = 4 * (t * F + k); break;
        case S_SOA_ONE: off = 4 * t; break;
        case S_SOA_ALL: off = 4 * (k * c->items + t); break;
        default: off = (uint64_t)4 * F * t; break;
        }
        acc_lane(a, l, off);
    }
    return 1;
}

/* stencil: deriv_copy, deriv0, deriv1, deriv0_halo (param 0..3). */
enum { D_COPY, D_DERIV0, D_DERIV1, D_HALO };

static int g_stencil(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const unsigned kind = c->v->param, R = kind == D_HALO ? 1 : c->radius;
    const unsigned nloads = kind == D_COPY ? 1 : 2 * R;
    if (k > nloads)
        return 0;
    const int st = k == nloads;
    acc_begin(a, st ? SF_ST : SF_LD, st, 4);
    FOR_LANES(c, w, t, l)
    {
        const uint64_t i0 = t % c->p->n0, i1 = t / c->p->n0;
        const uint64_t idx = c->lead + (i1 + c->halo) * c->ld + (i0 + c->radius);
        uint64_t e = idx;
        if (!st && kind != D_COPY) {
            const uint64_t kk = k / 2 + 1, step = kind == D_DERIV1 ? c->ld : 1;
            e = k % 2 == 0 ? idx + (kk - 1) * step : idx - kk * step;
        }
        acc_lane(a, l, 4 * e);
    }
    return 1;
}

/* ------------------------------------------------------------ the table */

#define STRIDES "1-8,16,32,64,128"
#define BATCHES "1,2,4,8"
#define OFFSETS "0-32"

#define LOADP(base, p, rule, cfgk, cfgd)                                                      \
    { SF_PATTERNS, base "_ca", cfgk, cfgd, rule " (ld.global.ca)", g_load_pattern, SF_PATH_CA, p }, \
    { SF_PATTERNS, base "_cg", cfgk, cfgd, rule " (ld.global.cg: L2 only)", g_load_pattern,       \
      SF_PATH_CG, p },                                                                          \
    { SF_PATTERNS, base "_nc", cfgk, cfgd, rule " (ld.global.nc: read-only path)", g_load_pattern, \
      SF_PATH_NC, p }

#define STRUCTS(F)                                                                              \
    { SF_PATTERNS, "aos" #F "_one", SF_CFG_NONE, NULL, "items N/" #F ": a[t*" #F "]", g_struct,   \
      SF_PATH_CA, (S_AOS_ONE << 4) | F },                                                       \
    { SF_PATTERNS, "aos" #F "_all", SF_CFG_NONE, NULL,                                           \
      "items N/" #F ": a[t*" #F " + k], k = 0.." #F "-1", g_struct, SF_PATH_CA, (S_AOS_ALL << 4) | F }, \
    { SF_PATTERNS, "soa" #F "_one", SF_CFG_NONE, NULL, "items N/" #F ": a[t]", g_struct,          \
      SF_PATH_CA, (S_SOA_ONE << 4) | F },                                                       \
    { SF_PATTERNS, "soa" #F "_all", SF_CFG_NONE, NULL,                                           \
      "items N/" #F ": a[k*items + t], k = 0.." #F "-1", g_struct, SF_PATH_CA, (S_SOA_ALL << 4) | F }

const sf_variant sf_variants[] = {
    /* copy: int32 in and out of N elements */
    { SF_COPY, "stride", SF_CFG_STRIDE, STRIDES, "items N/S: out[t] = in[t*S]", g_copy_stride, 0, 0 },
    { SF_COPY, "stride_store", SF_CFG_STRIDE, STRIDES, "items N/S: out[t*S] = in[t]", g_copy_stride,
      0, 2 },
    { SF_COPY, "stride16", SF_CFG_STRIDE, STRIDES, "int4, items (N/4)/S: out4[t] = in4[t*S]",
      g_copy_stride, 0, 1 },
    { SF_COPY, "batch", SF_CFG_BATCH, BATCHES,
      "items N/B: element t*B+k, k = 0..B-1, LDG k then STG k (rolled loop)", g_copy_batch, 0, 0 },
    { SF_COPY, "batch_unrolled", SF_CFG_BATCH, BATCHES,
      "items N/B: element t*B+k, LDG k then STG k (unrolled)", g_copy_batch, 0, 0 },
    { SF_COPY, "batch_restrict", SF_CFG_BATCH, BATCHES,
      "items N/B: element t*B+k, the B LDGs, then the B STGs", g_copy_batch, 0, 1 },
    { SF_COPY, "int4", SF_CFG_BATCH, "4,8",
      "items N/B: int4 elements t*(B/4)+j, LDG.E.128/STG.E.128", g_copy_int4, 0, 0 },
    { SF_COPY, "grid_scalar", SF_CFG_NONE, NULL, "grid-stride loop over N elements", g_copy_grid,
      0, 1 },
    { SF_COPY, "grid_vector2", SF_CFG_NONE, NULL,
      "grid-stride loop over N/2 int2, then N mod 2 scalars by the first threads", g_copy_grid, 0, 2 },
    { SF_COPY, "grid_vector4", SF_CFG_NONE, NULL,
      "grid-stride loop over N/4 int4, then N mod 4 scalars by the first threads", g_copy_grid, 0, 4 },
    { SF_COPY, "vector2", SF_CFG_NONE, NULL, "one int2 per thread, plus the remainder thread",
      g_copy_vector, 0, 2 },
    { SF_COPY, "vector4", SF_CFG_NONE, NULL, "one int4 per thread, plus the remainder thread",
      g_copy_vector, 0, 4 },
    /* patterns: float a[N], out[N] */
    LOADP("coalesced", P_COALESCED, "items N: a[t]", SF_CFG_NONE, NULL),
    LOADP("permuted", P_PERMUTED, "items N: a[(t & ~31) | ((7l+3) & 31)]", SF_CFG_NONE, NULL),
    LOADP("offset", P_OFFSET, "items N-32: a[t + off]", SF_CFG_OFFSET, OFFSETS),
    LOADP("broadcast", P_BROADCAST, "items N: a[32w]", SF_CFG_NONE, NULL),
    LOADP("random", P_RANDOM, "items N: a[ro_perm(t)]", SF_CFG_NONE, NULL),
    LOADP("spread", P_SPREAD, "items N/4: a[128w + {0,32,64,120}[l/8] + l%8]", SF_CFG_NONE, NULL),
    LOADP("straddle", P_STRADDLE, "items N/4: a[128w + 24 + l]", SF_CFG_NONE, NULL),
    LOADP("reread", P_REREAD, "items N/4: a[128(w/2) + (w odd ? 0 : 24) + l]", SF_CFG_NONE, NULL),
    { SF_PATTERNS, "write_coalesced", SF_CFG_NONE, NULL, "items N: out[t]", g_write_pattern, 0,
      W_COALESCED },
    { SF_PATTERNS, "write_scatter192", SF_CFG_NONE, NULL,
      "items N/2: out[64w + {0-7, 16-31, 40-47}[l]] (bytes 0-31, 64-127, 160-191)",
      g_write_pattern, 0, W_SCATTER192 },
    { SF_PATTERNS, "write_range64", SF_CFG_NONE, NULL, "items 2N: out[16w + l/2]", g_write_pattern,
      0, W_RANGE64 },
    { SF_PATTERNS, "write_offset", SF_CFG_OFFSET, OFFSETS, "items N-32: out[t + off]",
      g_write_pattern, 0, W_OFFSET },
    { SF_PATTERNS, "write_strided", SF_CFG_STRIDE, STRIDES, "items N/S: out[t*S]", g_write_pattern,
      0, W_STRIDED },
    STRUCTS(2),
    STRUCTS(4),
    STRUCTS(8),
    { SF_PATTERNS, "aos_vec2", SF_CFG_NONE, NULL, "items N/2: float2 a2[t] (LDG.E.64)", g_struct,
      SF_PATH_CA, (S_AOS_VEC << 4) | 2 },
    { SF_PATTERNS, "aos_vec4", SF_CFG_NONE, NULL, "items N/4: float4 a4[t] (LDG.E.128)", g_struct,
      SF_PATH_CA, (S_AOS_VEC << 4) | 4 },
    /* stencil: in and out with halos (layout in sector_families.c) */
    { SF_STENCIL, "deriv_copy", SF_CFG_NONE, NULL, "out[idx] = in[idx]", g_stencil, 0, D_COPY },
    { SF_STENCIL, "deriv0", SF_CFG_NONE, NULL,
      "loads in[idx+k-1], in[idx-k] for k = 1..R, then out[idx]", g_stencil, 0, D_DERIV0 },
    { SF_STENCIL, "deriv1", SF_CFG_NONE, NULL,
      "loads in[idx+(k-1)*ld], in[idx-k*ld] for k = 1..R, then out[idx]", g_stencil, 0, D_DERIV1 },
    { SF_STENCIL, "deriv0_halo", SF_CFG_NONE, NULL, "loads in[idx], then in[idx-1], then out[idx]",
      g_stencil, 0, D_HALO },
};
const size_t sf_nvariants = sizeof sf_variants / sizeof sf_variants[0];

static const char *const family_names[SF_NFAMILIES] = { "copy", "patterns", "stencil" };

const char *sf_family_name(sf_family f)
{
    return (unsigned)f < SF_NFAMILIES ? family_names[f] : "?";
}

int sf_family_from_name(const char *name, sf_family *f)
{
    for (int i = 0; i < SF_NFAMILIES; i++)
        if (name && !strcmp(name, family_names[i])) {
            *f = (sf_family)i;
            return 0;
        }
    return -1;
}

const char *sf_cfg_name(sf_cfg c)
{
    switch (c) {
    case SF_CFG_STRIDE: return "stride";
    case SF_CFG_BATCH: return "batch";
    case SF_CFG_OFFSET: return "offset";
    default: return "";
    }
}

const sf_variant *sf_find(sf_family f, const char *variant)
{
    for (size_t i = 0; i < sf_nvariants; i++)
        if (sf_variants[i].family == f && variant && !strcmp(sf_variants[i].name, variant))
            return &sf_variants[i];
    return NULL;
}

/* ------------------------------------------------------------ L1: sector sets */

typedef struct sset {
    uint64_t *key;
    uint32_t *gen;
    uint8_t *flag;
    size_t cap, count;
    uint32_t g;
} sset;

static int sset_init(sset *s, size_t cap)
{
    memset(s, 0, sizeof *s);
    s->cap = cap;
    s->key = malloc(cap * sizeof *s->key);
    s->gen = calloc(cap, sizeof *s->gen);
    s->flag = malloc(cap);
    s->g = 1;
    return s->key && s->gen && s->flag ? 0 : -1;
}

static void sset_free(sset *s)
{
    free(s->key);
    free(s->gen);
    free(s->flag);
    memset(s, 0, sizeof *s);
}

static void sset_clear(sset *s)
{
    s->count = 0;
    if (++s->g == 0) { /* generation wrapped: forget every entry for real */
        memset(s->gen, 0, s->cap * sizeof *s->gen);
        s->g = 1;
    }
}

static inline size_t slot_of(uint64_t k, size_t cap)
{
    k *= 0x9e3779b97f4a7c15ull;
    return (size_t)(k >> 32) & (cap - 1);
}

/* The flags of sector k, or NULL when the set does not hold it. */
static uint8_t *sset_find(const sset *s, uint64_t k)
{
    for (size_t i = slot_of(k, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->gen[i] != s->g)
            return NULL;
        if (s->key[i] == k)
            return &s->flag[i];
    }
}

static int sset_grow(sset *s)
{
    sset n;
    if (sset_init(&n, s->cap * 2))
        return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->gen[i] == s->g) {
            size_t j = slot_of(s->key[i], n.cap);
            while (n.gen[j] == n.g)
                j = (j + 1) & (n.cap - 1);
            n.gen[j] = n.g;
            n.key[j] = s->key[i];
            n.flag[j] = s->flag[i];
            n.count++;
        }
    sset_free(s);
    *s = n;
    return 0;
}

/* Add flags f to sector k (inserting it).  0, or -1 out of memory. */
static int sset_add(sset *s, uint64_t k, uint8_t f)
{
    uint8_t *x = sset_find(s, k);
    if (x) {
        *x |= f;
        return 0;
    }
    if (2 * (s->count + 1) > s->cap && sset_grow(s))
        return -1;
    size_t i = slot_of(k, s->cap);
    while (s->gen[i] == s->g)
        i = (i + 1) & (s->cap - 1);
    s->gen[i] = s->g;
    s->key[i] = k;
    s->flag[i] = f;
    s->count++;
    return 0;
}

/* ------------------------------------------------------------ L2: LRU of lines */

#define NIL UINT32_MAX

typedef struct l2sim {
    uint32_t *prev, *next;
    uint8_t *vd;       /* low nibble: valid sectors; high nibble: dirty sectors */
    uint32_t *bytes;   /* per sector (4 per line): the bytes written, one bit each */
    uint8_t *res;
    uint32_t head, tail;
    uint64_t count, cap;
    unsigned gsect;    /* sectors per granule */
    double dram_read, dram_write, dram_partial;
} l2sim;

static int l2_init(l2sim *m, uint64_t lines, uint64_t cap_lines, unsigned granule)
{
    memset(m, 0, sizeof *m);
    m->prev = malloc(lines * sizeof *m->prev);
    m->next = malloc(lines * sizeof *m->next);
    m->vd = calloc(lines, 1);
    m->bytes = calloc(4 * lines, sizeof *m->bytes);
    m->res = calloc(lines, 1);
    m->head = m->tail = NIL;
    m->cap = cap_lines ? cap_lines : 1;
    m->gsect = granule / 32;
    return m->prev && m->next && m->vd && m->bytes && m->res ? 0 : -1;
}

static void l2_free(l2sim *m)
{
    free(m->prev);
    free(m->next);
    free(m->vd);
    free(m->bytes);
    free(m->res);
}

static void l2_unlink(l2sim *m, uint32_t x)
{
    if (m->prev[x] != NIL) m->next[m->prev[x]] = m->next[x]; else m->head = m->next[x];
    if (m->next[x] != NIL) m->prev[m->next[x]] = m->prev[x]; else m->tail = m->prev[x];
}

static void l2_push_front(l2sim *m, uint32_t x)
{
    m->prev[x] = NIL;
    m->next[x] = m->head;
    if (m->head != NIL) m->prev[m->head] = x; else m->tail = x;
    m->head = x;
}

/* Make line x resident and most recently used. */
static void l2_touch(l2sim *m, uint32_t x)
{
    if (m->res[x]) {
        if (m->head != x) {
            l2_unlink(m, x);
            l2_push_front(m, x);
        }
        return;
    }
    if (m->count >= m->cap) {
        uint32_t v = m->tail;
        l2_unlink(m, v);
        m->dram_write += __builtin_popcount(m->vd[v] >> 4);
        for (unsigned k = 0; k < 4; k++) {
            m->dram_partial += (m->vd[v] >> 4 >> k & 1) && m->bytes[4 * (size_t)v + k] != UINT32_MAX;
            m->bytes[4 * (size_t)v + k] = 0;
        }
        m->res[v] = 0;
        m->vd[v] = 0;
        m->count--;
    }
    m->res[x] = 1;
    m->vd[x] = 0;
    l2_push_front(m, x);
    m->count++;
}

static void l2_read(l2sim *m, uint64_t sector)
{
    const uint32_t x = (uint32_t)(sector >> 2);
    const unsigned s = sector & 3;
    l2_touch(m, x);
    if (!(m->vd[x] & (1u << s))) {
        const unsigned first = s & ~(m->gsect - 1);
        m->vd[x] |= (uint8_t)(((1u << m->gsect) - 1) << first);
        m->dram_read += m->gsect;
    }
}

/* A write of the bytes in mask (bit i = byte i of the sector). */
static void l2_write(l2sim *m, uint64_t sector, uint32_t mask)
{
    const uint32_t x = (uint32_t)(sector >> 2);
    l2_touch(m, x);
    m->vd[x] |= (uint8_t)(0x10u << (sector & 3));
    m->bytes[sector] |= mask;
}

/* ------------------------------------------------------------ the engine */

typedef struct sim {
    sf_ctx c;
    sset cur, prev;
    sset wave;          /* lines this block has asked of L2 (loads) or written (stores) */
    l2sim l2;
    uint64_t line_base[2];
    int cg;
    sf_prediction *out;
} sim;

static void sort_u64(uint64_t *v, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        uint64_t x = v[i];
        unsigned j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

static int do_request(sim *S, const sf_access *a, char *err, size_t errlen)
{
    uint64_t off[32], sec[32];
    uint32_t smask[32];
    unsigned n = 0;
    for (unsigned l = 0; l < 32; l++)
        if (a->active & (1u << l)) {
            if (a->off[l] % a->bytes || a->off[l] + a->bytes > S->c.array_bytes[a->array]) {
                set_err(err, errlen, "internal: %s lane %u at byte %llu is misaligned or outside "
                        "its array", S->c.v->name, l, (unsigned long long)a->off[l]);
                return -1;
            }
            off[n++] = a->off[l];
        }
    sort_u64(off, n);
    unsigned nu = 0, ns = 0, nl = 0;
    for (unsigned i = 0; i < n; i++) {
        if (i > 0 && off[i] == off[i - 1])
            continue;
        nu++;
        const uint64_t s = (S->line_base[a->array] << 2) + off[i] / 32;
        const uint32_t bits = (a->bytes >= 32 ? UINT32_MAX : ((1u << a->bytes) - 1)) << (off[i] % 32);
        if (ns == 0 || sec[ns - 1] != s) {
            if (ns == 0 || (sec[ns - 1] >> 2) != (s >> 2))
                nl++;
            smask[ns] = 0;
            sec[ns++] = s;
        }
        smask[ns - 1] |= bits;
    }
    sf_counts *k = &S->out->op[a->op];
    k->requests += 1;
    k->sectors += ns;
    k->lines += nl;
    k->wavefronts += (nl + 3) / 4;
    k->bytes += (double)nu * a->bytes;

    if (a->op == SF_ST) {
        for (unsigned i = 0; i < ns; i++) {
            uint8_t *f = sset_find(&S->cur, sec[i]);
            if (f) {
                k->hits += 1;
                k->hits_max += 1;
            } else {
                if (sset_find(&S->prev, sec[i]))
                    k->hits_max += 1;
                if (sset_add(&S->cur, sec[i], SF_STORED))
                    goto oom;
            }
            l2_write(&S->l2, sec[i], smask[i]);
        }
        /* write-through: every sector goes on to L2, one request per line */
        k->l2_requests += nl;
        k->l2_requests_min += nl;
        for (unsigned i = 0; i < ns; i++) {
            const uint64_t skey = (1ull << 63) | sec[i];   /* sectors and lines share the set */
            if (!sset_find(&S->wave, skey)) {
                k->l2_sectors_merged += 1;
                if (sset_add(&S->wave, skey, 1)) goto oom;
            }
            if (i > 0 && (sec[i] >> 2) == (sec[i - 1] >> 2)) continue;
            if (!sset_find(&S->wave, sec[i] >> 2)) {
                k->l2_requests_merged += 1;
                if (sset_add(&S->wave, sec[i] >> 2, 1)) goto oom;
            }
        }
        k->l2_sectors += ns;
        k->l2_sectors_min += ns;
        return 0;
    }
    uint64_t line = UINT64_MAX;
    int line_any = 0, line_sure = 0;
    for (unsigned i = 0; i <= ns; i++) {
        if (i == ns || (sec[i] >> 2) != line) { /* close the previous line */
            k->l2_requests += line_any;
            k->l2_requests_min += line_sure;
            if (line_any && line != UINT64_MAX) {
                if (S->cg) {
                    k->l2_requests_merged += 1;   /* no L1 between: nothing merges */
                } else if (!sset_find(&S->wave, line)) {
                    k->l2_requests_merged += 1;
                    if (sset_add(&S->wave, line, 1)) goto oom;
                }
            }
            if (i == ns)
                break;
            line = sec[i] >> 2;
            line_any = line_sure = 0;
        }
        int hit = 0, maybe = 0;
        if (!S->cg) {
            uint8_t *f = sset_find(&S->cur, sec[i]);
            if (f && (*f & SF_VALID)) {
                hit = 1;
            } else {
                uint8_t *p = sset_find(&S->prev, sec[i]);
                maybe = p && (*p & SF_VALID);
                if (sset_add(&S->cur, sec[i], SF_VALID))
                    goto oom;
            }
        }
        if (hit) {
            k->hits += 1;
            k->hits_max += 1;
            continue;
        }
        k->hits_max += maybe;
        k->l2_sectors += 1;
        k->l2_sectors_min += !maybe;
        line_any = 1;
        line_sure |= !maybe;
        l2_read(&S->l2, sec[i]);
    }
    return 0;
oom:
    set_err(err, errlen, "out of memory for the L1 sector sets");
    return -1;
}

static int check_params(const sf_variant *v, const sf_params *p, char *err, size_t errlen)
{
    if (!v || !p) {
        set_err(err, errlen, "no variant or no parameters");
        return -1;
    }
    if (p->granule_bytes != 32 && p->granule_bytes != 64 && p->granule_bytes != 128) {
        set_err(err, errlen, "DRAM granularity %u B is not 32, 64 or 128", p->granule_bytes);
        return -1;
    }
    if (p->wpb < 1 || p->wpb > 32) {
        set_err(err, errlen, "warps per block %u is not 1..32", p->wpb);
        return -1;
    }
    if (p->l2_bytes < 128) {
        set_err(err, errlen, "L2 size %llu B is below one line", (unsigned long long)p->l2_bytes);
        return -1;
    }
    if (v->family == SF_STENCIL) {
        if (p->n0 < 1 || p->n1 < 1 || p->n0 > SF_MAX_N || p->n1 > SF_MAX_N ||
            p->n0 * p->n1 > SF_MAX_N) {
            set_err(err, errlen, "stencil %llu x %llu points: each and their product must be "
                    "1..%llu", (unsigned long long)p->n0, (unsigned long long)p->n1,
                    (unsigned long long)SF_MAX_N);
            return -1;
        }
        if (p->radius < 1 || p->radius > 4) {
            set_err(err, errlen, "stencil radius %u is not 1..4", p->radius);
            return -1;
        }
        return 0;
    }
    if (p->n < 1 || p->n > SF_MAX_N) {
        set_err(err, errlen, "N = %llu is outside 1..%llu (the model keeps a few bytes per "
                "128 B line)", (unsigned long long)p->n, (unsigned long long)SF_MAX_N);
        return -1;
    }
    switch (v->cfg) {
    case SF_CFG_STRIDE:
        if (p->cfg < 1 || p->cfg > p->n) {
            set_err(err, errlen, "%s: stride %llu is not 1..N", v->name, (unsigned long long)p->cfg);
            return -1;
        }
        break;
    case SF_CFG_BATCH:
        if (p->cfg < 1 || p->cfg > 1024 || p->cfg > p->n ||
            (v->gen == g_copy_int4 && p->cfg % 4)) {
            set_err(err, errlen, "%s: batch %llu is not %s", v->name, (unsigned long long)p->cfg,
                    v->gen == g_copy_int4 ? "a multiple of 4 in 4..min(N, 1024)"
                                          : "1..min(N, 1024)");
            return -1;
        }
        break;
    case SF_CFG_OFFSET:
        if (p->cfg > 32) {
            set_err(err, errlen, "%s: offset %llu is not 0..32", v->name,
                    (unsigned long long)p->cfg);
            return -1;
        }
        break;
    default:
        break;
    }
    return 0;
}

/* Items, layout and array sizes; 0 or -1 with err. */
static int setup_ctx(sf_ctx *c, const sf_variant *v, const sf_params *p, sf_prediction *out,
                     char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    c->p = p;
    c->n = p->n;
    c->cfg = v->cfg == SF_CFG_NONE ? 0 : p->cfg;
    const uint64_t N = p->n;
    uint64_t threads = 0;
    c->array_bytes[0] = c->array_bytes[1] = 4 * N;
    if (v->cfg != SF_CFG_NONE)
        snprintf(out->config, sizeof out->config, "%s=%llu", sf_cfg_name(v->cfg),
                 (unsigned long long)p->cfg);
    else
        snprintf(out->config, sizeof out->config, "-");
    if (v->gen == g_copy_stride) {
        c->items = v->param == 1 ? (N / 4) / p->cfg : N / p->cfg;
    } else if (v->gen == g_copy_batch || v->gen == g_copy_int4) {
        c->items = N / p->cfg;
    } else if (v->gen == g_copy_grid || v->gen == g_copy_vector) {
        c->vec_items = N / v->param;
        c->rem = (unsigned)(N % v->param);
        c->items = N;
        if (v->gen == g_copy_grid) {
            uint64_t gb = p->grid_blocks ? p->grid_blocks : (uint64_t)p->sms * p->blocks_per_sm;
            if (gb == 0) {
                set_err(err, errlen, "%s: the grid has no block (give SMs and blocks per SM)",
                        v->name);
                return -1;
            }
            c->grid_threads = gb * 32 * p->wpb;
            threads = c->grid_threads;
        } else {
            threads = c->vec_items + (c->rem ? 1 : 0);
        }
    } else if (v->gen == g_load_pattern) {
        switch (v->param) {
        case P_OFFSET: c->items = N > 32 ? N - 32 : 0; break;
        case P_SPREAD: case P_STRADDLE: case P_REREAD: c->items = N / 4; break;
        default: c->items = N; break;
        }
        c->half = ro_perm_half_bits(N);
    } else if (v->gen == g_write_pattern) {
        switch (v->param) {
        case W_SCATTER192: c->items = N / 2; break;
        case W_RANGE64: c->items = 2 * N; break;
        case W_OFFSET: c->items = N > 32 ? N - 32 : 0; break;
        case W_STRIDED: c->items = N / p->cfg; break;
        default: c->items = N; break;
        }
    } else if (v->gen == g_struct) {
        c->items = N / (v->param & 15);
    } else if (v->gen == g_stencil) {
        const unsigned R = p->radius;
        c->radius = R;
        c->halo = v->param == D_DERIV1 ? R : 0;
        c->ld = p->n0 + 2 * R;
        if (p->pad_ld)
            c->ld = (c->ld + 31) / 32 * 32;
        c->lead = p->lead_pad ? (32 - (c->halo * c->ld + R) % 32) % 32 : 0;
        c->items = p->n0 * p->n1;
        c->array_bytes[0] = c->array_bytes[1] = 4 * (c->lead + (p->n1 + 2 * c->halo) * c->ld);
        snprintf(out->config, sizeof out->config, "n0=%llu,n1=%llu,r=%u,lead=%llu,ld=%llu",
                 (unsigned long long)p->n0, (unsigned long long)p->n1, R,
                 (unsigned long long)c->lead, (unsigned long long)c->ld);
    }
    if (threads == 0)
        threads = c->items;
    if (c->items == 0) {
        set_err(err, errlen, "%s %s: no thread has work (N = %llu)", sf_family_name(v->family),
                v->name, (unsigned long long)N);
        return -1;
    }
    const uint64_t tpb = 32ull * p->wpb;
    out->items = c->items;
    out->blocks = v->gen == g_copy_grid ? threads / tpb : (threads + tpb - 1) / tpb;
    out->warps = out->blocks * p->wpb;
    return 0;
}

int sf_check(const sf_variant *v, const sf_params *p, char *err, size_t errlen)
{
    sf_ctx c;
    sf_prediction pr;
    if (check_params(v, p, err, errlen))
        return -1;
    memset(&pr, 0, sizeof pr);
    return setup_ctx(&c, v, p, &pr, err, errlen);
}

int sf_predict(const sf_variant *v, const sf_params *p, sf_prediction *out, char *err,
               size_t errlen)
{
    if (!out || check_params(v, p, err, errlen))
        return -1;
    memset(out, 0, sizeof *out);
    sim S;
    memset(&S, 0, sizeof S);
    S.out = out;
    if (setup_ctx(&S.c, v, p, out, err, errlen))
        return -1;
    S.cg = v->path == SF_PATH_CG;
    const uint64_t lines0 = (S.c.array_bytes[0] + 127) / 128;
    const uint64_t lines1 = (S.c.array_bytes[1] + 127) / 128;
    S.line_base[0] = 0;
    S.line_base[1] = lines0;
    if (sset_init(&S.cur, 1024) || sset_init(&S.prev, 1024) || sset_init(&S.wave, 256) ||
        l2_init(&S.l2, lines0 + lines1, p->l2_bytes / 128, p->granule_bytes)) {
        sset_free(&S.cur);
        sset_free(&S.prev);
        sset_free(&S.wave);
        l2_free(&S.l2);
        set_err(err, errlen, "out of memory for the model of %llu lines",
                (unsigned long long)(lines0 + lines1));
        return -1;
    }
    int rc = 0;
    sf_access a;
    for (uint64_t b = 0; b < out->blocks && rc == 0; b++) {
        sset t = S.prev;
        S.prev = S.cur;
        S.cur = t;
        sset_clear(&S.cur);
        sset_clear(&S.wave);
        for (unsigned k = 0; rc == 0; k++) {
            int any = 0;
            for (unsigned wi = 0; wi < p->wpb && rc == 0; wi++) {
                if (!v->gen(&S.c, b * p->wpb + wi, k, &a))
                    continue;
                any = 1;
                if (a.active)
                    rc = do_request(&S, &a, err, errlen);
            }
            if (!any)
                break;
        }
    }
    out->dram_read_sectors = S.l2.dram_read;
    out->dram_write_sectors = S.l2.dram_write;
    out->dram_partial_sectors = S.l2.dram_partial;
    out->has_load = out->op[SF_LD].requests > 0;
    out->has_store = out->op[SF_ST].requests > 0;
    out->hit_tol_frac = v->gen == g_load_pattern && v->param == P_RANDOM && !S.cg ? 0.005 : 0;
    sset_free(&S.cur);
    sset_free(&S.prev);
    sset_free(&S.wave);
    l2_free(&S.l2);
    return rc;
}

/* ------------------------------------------------------------ lab figures */

static const char *const qnames[SFQ_NQUANTITIES] = {
    "sectors/request", "wavefronts/request", "L2 requests/request", "DRAM sectors/request",
    "sectors", "L1 hits", "L1 hit rate %", "L2 requests", "L1 bus utilization %",
    "DRAM bus utilization %", "elements/request",
};

const char *sf_quantity_name(sf_quantity q)
{
    return (unsigned)q < SFQ_NQUANTITIES ? qnames[q] : "?";
}

double sf_quantity_value(const sf_prediction *pr, sf_op op, sf_quantity q)
{
    const sf_counts *k = &pr->op[op];
    const double dram = op == SF_LD ? pr->dram_read_sectors : pr->dram_write_sectors;
    const double r = k->requests;
    switch (q) {
    case SFQ_SECTORS_PER_REQ: return r > 0 ? k->sectors / r : NAN;
    case SFQ_WAVEFRONTS_PER_REQ: return r > 0 ? k->wavefronts / r : NAN;
    case SFQ_L2_REQ_PER_REQ: return r > 0 ? k->l2_requests / r : NAN;
    case SFQ_DRAM_PER_REQ: return r > 0 ? dram / r : NAN;
    case SFQ_SECTORS: return k->sectors;
    case SFQ_HITS: return k->hits;
    case SFQ_HIT_PCT: return k->sectors > 0 ? 100 * k->hits / k->sectors : NAN;
    case SFQ_L2_REQ: return k->l2_requests;
    case SFQ_L1_UTIL_PCT: return k->sectors > 0 ? 100 * k->bytes / (32 * k->sectors) : NAN;
    case SFQ_DRAM_UTIL_PCT: return dram > 0 ? 100 * k->bytes / (32 * dram) : NAN;
    case SFQ_ELEMS_PER_REQ: return r > 0 ? k->bytes / 4 / r : NAN;
    default: return NAN;
    }
}

#define ANY SF_LAB_ANY_CFG
#define MIS SF_LAB_MISALIGNED
#define COPY(var, cfg, op, q, v, what, h) { SF_COPY, var, cfg, 0, 0, -1, -1, op, q, v, "000", what, h }
#define COPY4(var, q, v, what) { SF_COPY, var, ANY, 0, 0, -1, -1, SF_LD, q, v, "004", what, NULL }, \
                               { SF_COPY, var, ANY, 0, 0, -1, -1, SF_ST, q, v, "004", what, NULL }
#define STEN(var, n0, n1, lp, pl, op, q, v, what, h) \
    { SF_STENCIL, var, ANY, n0, n1, lp, pl, op, q, v, "000", what, h }
#define PAT(var, cfg, op, q, v, src, what, h) { SF_PATTERNS, var, cfg, 0, 0, -1, -1, op, q, v, src, what, h }

static const char H_SECTORED[] =
    "the H100 L1 moves 32 B sectors, not 128 B lines: the figure is bytes asked / sectors moved";
static const char H_MERGE[] =
    "model: warp 1's misses (sectors 5-7 of line 1, sector 8 of line 2) are 2 L2 requests "
    "after warp 0's 2; ncu would show 3 if L1 merged warp 1's miss on line 1 into warp 0's "
    "outstanding one.  The lab's n0=64 case has the same sectors and states 4";

const sf_lab sf_labs[] = {
    /* 000: copy with strides, 4 B loads, per request (one warp) */
    COPY("stride", 1, SF_LD, SFQ_SECTORS_PER_REQ, 4, "stride 1: 4 sectors/request", NULL),
    COPY("stride", 1, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 1, "stride 1: 1 wavefront", NULL),
    COPY("stride", 2, SF_LD, SFQ_SECTORS_PER_REQ, 8, "stride 2: 8 sectors/request", NULL),
    COPY("stride", 2, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 1, "stride 2: wavefronts unchanged (1)", NULL),
    COPY("stride", 2, SF_LD, SFQ_L2_REQ_PER_REQ, 2, "stride 2: 2 L2 requests", NULL),
    COPY("stride", 4, SF_LD, SFQ_SECTORS_PER_REQ, 16, "stride 4: 16 sectors", NULL),
    COPY("stride", 4, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 1, "stride 4: in 1 wavefront", NULL),
    COPY("stride", 4, SF_LD, SFQ_L2_REQ_PER_REQ, 4, "stride 4: 4 L2 requests", NULL),
    COPY("stride", 5, SF_LD, SFQ_SECTORS_PER_REQ, 20, "stride 5: 20 sectors", NULL),
    COPY("stride", 5, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 2, "stride 5: in 2 wavefronts", NULL),
    COPY("stride", 8, SF_LD, SFQ_SECTORS_PER_REQ, 32, "stride 8: 32 sectors", NULL),
    COPY("stride", 8, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 2, "stride 8: in 2 wavefronts", NULL),
    COPY("stride", 16, SF_LD, SFQ_SECTORS_PER_REQ, 32, "stride 16: 32 sectors", NULL),
    COPY("stride", 16, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 4, "stride 16: in 4 wavefronts", NULL),
    COPY("stride", 16, SF_LD, SFQ_DRAM_PER_REQ, 64, "stride 16: 2 DRAM sectors per thread (64 B granule)",
         NULL),
    COPY("stride", 32, SF_LD, SFQ_L2_REQ_PER_REQ, 32, "stride 32: 32 L2 requests", NULL),
    COPY("stride", 32, SF_LD, SFQ_DRAM_PER_REQ, 64, "stride >= 16: DRAM sectors flat (2 per thread)", NULL),
    COPY("stride", 64, SF_LD, SFQ_L2_REQ_PER_REQ, 32, "stride >= 32: 32 L2 requests", NULL),
    COPY("stride", 64, SF_LD, SFQ_DRAM_PER_REQ, 64, "stride >= 16: DRAM sectors flat (2 per thread)", NULL),
    COPY("stride", 128, SF_LD, SFQ_L2_REQ_PER_REQ, 32, "stride >= 32: 32 L2 requests", NULL),
    COPY("stride", 128, SF_LD, SFQ_DRAM_PER_REQ, 64, "stride >= 16: DRAM sectors flat (2 per thread)", NULL),
    /* 004: vector loads issue half / a quarter of the instructions */
    COPY4("grid_scalar", SFQ_ELEMS_PER_REQ, 32, "LDG.E/STG.E: 32 elements per instruction"),
    COPY4("grid_vector2", SFQ_ELEMS_PER_REQ, 64, "LD.E.64: half the instructions"),
    COPY4("grid_vector4", SFQ_ELEMS_PER_REQ, 128, "LD.E.128: a quarter of the instructions"),
    COPY4("vector2", SFQ_ELEMS_PER_REQ, 64, "LD.E.64: half the instructions"),
    COPY4("vector4", SFQ_ELEMS_PER_REQ, 128, "LD.E.128: a quarter of the instructions"),
    /* 000: finite differences, R = 1 (totals of the launch) */
    STEN("deriv_copy", 64, 1, 0, -1, SF_LD, SFQ_SECTORS, 10, "n0=64: 10 sectors where 8 are needed", NULL),
    STEN("deriv_copy", 64, 1, 0, -1, SF_LD, SFQ_L2_REQ, 4, "n0=64: 4 L2 requests", NULL),
    STEN("deriv_copy", 64, 1, 1, -1, SF_LD, SFQ_SECTORS, 8, "n0=64 lead pad: 8 sectors", NULL),
    STEN("deriv_copy", 1024, 1, 0, -1, SF_LD, SFQ_SECTORS, 160, "n0=1024: 25 % more than 128", NULL),
    STEN("deriv_copy", 32, 2, 0, 0, SF_LD, SFQ_SECTORS, 10, "n0=32,n1=2: 10 sectors", NULL),
    STEN("deriv_copy", 32, 2, 0, 0, SF_LD, SFQ_HITS, 1, "n0=32,n1=2: 1 hit", NULL),
    STEN("deriv_copy", 32, 2, 0, 0, SF_LD, SFQ_L2_REQ, 3, "n0=32,n1=2: 3 L2 requests", H_MERGE),
    STEN("deriv_copy", 32, 2, 1, 0, SF_LD, SFQ_SECTORS, 9, "lead pad: 4 + 5 = 9 sectors", NULL),
    STEN("deriv_copy", 32, 2, 1, 0, SF_LD, SFQ_L2_REQ, 3, "lead pad: 1 + 2 L2 requests", NULL),
    STEN("deriv_copy", 32, 2, 1, 1, SF_LD, SFQ_SECTORS, 8, "lead and leading-dim pad: ideal", NULL),
    STEN("deriv_copy", 32, 5, 1, 0, SF_LD, SFQ_SECTORS, 23, "lead pad: 4 + 3*5 + 4 = 23", NULL),
    STEN("deriv0", 32, 1, 0, 0, SF_LD, SFQ_SECTORS, 9, "misaligned: 5 + 4 sectors", NULL),
    STEN("deriv0", 32, 1, 0, 0, SF_LD, SFQ_HIT_PCT, 44.4, "misaligned: hit rate 4/9", NULL),
    STEN("deriv0", 32, 1, 0, 0, SF_ST, SFQ_SECTORS, 5, "misaligned: 5 sectors stored", NULL),
    STEN("deriv0", 32, 1, 1, 1, SF_LD, SFQ_SECTORS, 9, "aligned: 4 + 5 sectors", NULL),
    STEN("deriv0", 32, 1, 1, 1, SF_LD, SFQ_HIT_PCT, 44.4, "aligned: hit rate 4/9", NULL),
    STEN("deriv0", 32, 1, 1, 1, SF_ST, SFQ_SECTORS, 4, "aligned: 4 sectors stored", NULL),
    /* 001: bus utilization, cached (L1) and uncached (L2 only) loads */
    PAT("coalesced_ca", ANY, SF_LD, SFQ_L1_UTIL_PCT, 100, "001", "aligned, coalesced, cached: 100 %", NULL),
    PAT("coalesced_cg", ANY, SF_LD, SFQ_L1_UTIL_PCT, 100, "001", "aligned, coalesced, uncached: 100 %", NULL),
    PAT("permuted_ca", ANY, SF_LD, SFQ_L1_UTIL_PCT, 100, "001", "aligned, not consecutive, cached: 100 %", NULL),
    PAT("permuted_cg", ANY, SF_LD, SFQ_L1_UTIL_PCT, 100, "001", "aligned, not consecutive, uncached: 100 %", NULL),
    PAT("offset_ca", MIS, SF_LD, SFQ_L1_UTIL_PCT, 50, "001", "consecutive, misaligned, cached: 50 %",
        H_SECTORED),
    PAT("offset_cg", MIS, SF_LD, SFQ_L1_UTIL_PCT, 80, "001", "consecutive, misaligned, uncached: 80 %",
        "an offset that is a multiple of 8 floats starts on a sector: 4 sectors, 100 %"),
    PAT("broadcast_ca", ANY, SF_LD, SFQ_L1_UTIL_PCT, 3.125, "001", "one address, cached: 3.125 %",
        H_SECTORED),
    PAT("broadcast_cg", ANY, SF_LD, SFQ_L1_UTIL_PCT, 12.5, "001", "one address, uncached: 12.5 %", NULL),
    PAT("random_ca", ANY, SF_LD, SFQ_L1_UTIL_PCT, 0.02, "001", "32 random addresses, cached: 0.02 %",
        "32 words in 32 sectors: 128 B asked / 1024 B moved = 12.5 %"),
    PAT("random_cg", ANY, SF_LD, SFQ_L1_UTIL_PCT, 3.9, "001", "32 random addresses, uncached: 3.9 %",
        "32 words in 32 sectors: 128 B asked / 1024 B moved = 12.5 %"),
    /* 001: write transactions (segments = sectors; transactions = L2 requests) */
    PAT("write_coalesced", ANY, SF_ST, SFQ_L2_REQ_PER_REQ, 1, "001", "one 4-segment transaction", NULL),
    PAT("write_coalesced", ANY, SF_ST, SFQ_SECTORS_PER_REQ, 4, "001", "4 segments", NULL),
    PAT("write_scatter192", ANY, SF_ST, SFQ_L2_REQ_PER_REQ, 3, "001",
        "scattered over 192 B: 2 one-segment + 1 two-segment transactions",
        "L1 sends one write request per 128 B line with a sector mask: 2 requests"),
    PAT("write_scatter192", ANY, SF_ST, SFQ_SECTORS_PER_REQ, 4, "001", "4 segments in all", NULL),
    PAT("write_range64", ANY, SF_ST, SFQ_L2_REQ_PER_REQ, 1, "001", "64 B range: one 2-segment transaction",
        NULL),
    PAT("write_range64", ANY, SF_ST, SFQ_SECTORS_PER_REQ, 2, "001", "2 segments", NULL),
    /* 002: the five coalescing scenarios (128 B bus: a "cycle" is one line) */
    PAT("permuted_*", ANY, SF_LD, SFQ_L1_UTIL_PCT, 100, "002", "scenario 1: 100 %", NULL),
    PAT("permuted_*", ANY, SF_LD, SFQ_L2_REQ_PER_REQ, 1, "002", "scenario 1: 1 cycle", NULL),
    PAT("broadcast_*", ANY, SF_LD, SFQ_L1_UTIL_PCT, 3.125, "002", "scenario 2: 3.125 %", H_SECTORED),
    PAT("broadcast_*", ANY, SF_LD, SFQ_L2_REQ_PER_REQ, 1, "002", "scenario 2: 1 cycle", NULL),
    PAT("straddle_*", ANY, SF_LD, SFQ_L1_UTIL_PCT, 50, "002", "scenario 3 (bytes 96-223): 50 %",
        "bytes 96-223 are exactly 4 sectors: 100 %"),
    PAT("straddle_*", ANY, SF_LD, SFQ_L2_REQ_PER_REQ, 2, "002", "scenario 3: 2 cycles", NULL),
    PAT("reread_*", ANY, SF_LD, SFQ_DRAM_UTIL_PCT, 100, "002", "scenario 4: 100 % overall (L2 reuse)",
        NULL),
    PAT("spread_*", ANY, SF_LD, SFQ_L1_UTIL_PCT, 4, "002", "scenario 5 (spread over 512 B): 4 %",
        "4 sectors hold exactly the 128 B asked: 100 %"),
    PAT("spread_*", ANY, SF_LD, SFQ_L2_REQ_PER_REQ, 4, "002", "scenario 5: 4 cycles", NULL),
};
const size_t sf_nlabs = sizeof sf_labs / sizeof sf_labs[0];

int sf_lab_matches(const sf_lab *e, const sf_variant *v, const sf_params *p, sf_op op)
{
    if (e->family != v->family || e->op != op)
        return 0;
    const size_t L = strlen(e->variant);
    if (L && e->variant[L - 1] == '*') {
        if (strncmp(e->variant, v->name, L - 1))
            return 0;
    } else if (strcmp(e->variant, v->name)) {
        return 0;
    }
    if (e->cfg == SF_LAB_MISALIGNED) {
        if (v->cfg == SF_CFG_NONE || p->cfg % 32 == 0)
            return 0;
    } else if (e->cfg >= 0) {
        if (v->cfg == SF_CFG_NONE || p->cfg != (uint64_t)e->cfg)
            return 0;
    }
    if (e->family == SF_STENCIL) {
        if (p->n0 != e->n0 || p->n1 != e->n1 || p->radius != 1)
            return 0;
        if (e->lead_pad >= 0 && (!!p->lead_pad) != e->lead_pad)
            return 0;
        if (e->pad_ld >= 0 && (!!p->pad_ld) != e->pad_ld)
            return 0;
    }
    /* DRAM figures are for the H100's default 64 B granule (lab 000) */
    if ((e->q == SFQ_DRAM_PER_REQ || e->q == SFQ_DRAM_UTIL_PCT) && p->granule_bytes != 64)
        return 0;
    return 1;
}

int sf_lab_agrees(const sf_lab *e, double model)
{
    if (isnan(model))
        return 0;
    /* percentages are quoted to 0.1 (44.4 for 4/9) */
    const double tol = e->q == SFQ_HIT_PCT || e->q == SFQ_L1_UTIL_PCT ||
                       e->q == SFQ_DRAM_UTIL_PCT ? 0.05 : 1e-9;
    return fabs(model - e->value) <= tol;
}

/* Append to buf (always terminated, truncated when full). */
static void cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strnlen(buf, len);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

void sf_lab_params(const sf_lab *e, const sf_variant *v, const sf_params *base, sf_params *out)
{
    if (base)
        *out = *base;
    else
        sf_params_default(out);
    if (v->cfg != SF_CFG_NONE && !base)
        out->cfg = e->cfg >= 0 ? (uint64_t)e->cfg : 1;
    if (v->family == SF_STENCIL) {
        out->n0 = e->n0;
        out->n1 = e->n1;
        out->radius = 1;
        if (e->lead_pad >= 0)
            out->lead_pad = e->lead_pad;
        if (e->pad_ld >= 0)
            out->pad_ld = e->pad_ld;
        return;
    }
    out->n = 1 << 16;
    if (v->family == SF_COPY && v->cfg == SF_CFG_STRIDE)
        out->n = 32 * 8 * out->cfg;
    if (v->gen == g_load_pattern && v->param == P_RANDOM)
        out->n = 1 << 20;
    out->grid_blocks = 0;
}

int sf_lab_row(const sf_variant *v, const sf_params *p, sf_op op, char *lab, size_t lablen,
               char *src, size_t srclen, char *verdict, size_t vlen, char *why, size_t whylen)
{
    int n = 0, differ = 0, have = 0;
    sf_prediction pr;
    lab[0] = src[0] = verdict[0] = why[0] = 0;
    for (size_t i = 0; i < sf_nlabs; i++) {
        const sf_lab *e = &sf_labs[i];
        if (!sf_lab_matches(e, v, p, op))
            continue;
        if (!have) {
            sf_params lp;
            sf_lab_params(e, v, p, &lp);
            if (sf_predict(v, &lp, &pr, why, whylen)) {
                snprintf(lab, lablen, "-");
                snprintf(src, srclen, "-");
                snprintf(verdict, vlen, "-");
                return -1;
            }
            have = 1;
        }
        const double m = sf_quantity_value(&pr, op, e->q);
        cat(lab, lablen, "%s%s %.4g [%s]", n ? "; " : "", sf_quantity_name(e->q), e->value,
            e->source);
        if (!strstr(src, e->source))
            cat(src, srclen, "%s%s", src[0] ? "," : "", e->source);
        if (!sf_lab_agrees(e, m)) {
            cat(verdict, vlen, "%s%s lab %.4g [%s], model %.4g", differ ? "; " : "differs: ",
                sf_quantity_name(e->q), e->value, e->source, m);
            if (e->h100 && !strstr(why, e->h100))
                cat(why, whylen, "%s%s", why[0] ? "; " : "", e->h100);
            differ++;
        }
        n++;
    }
    if (n == 0) {
        snprintf(lab, lablen, "-");
        snprintf(src, srclen, "-");
        snprintf(verdict, vlen, "-");
    } else if (!differ) {
        snprintf(verdict, vlen, "agrees");
    }
    return n;
}

/* ------------------------------------------------------------ ncu metrics */

#define FAM3 ((1u << SF_COPY) | (1u << SF_PATTERNS) | (1u << SF_STENCIL))
#define ALL4 (FAM3 | SF_READONLY_BIT)

const sf_metric sf_metrics[] = {
    { "gpu__time_duration.sum", SFM_TIME, -1, ALL4, 1, 1 },
    { "launch__grid_size", SFM_GRID, -1, FAM3, 1, 1 },
    { "launch__block_size", SFM_BLOCK, -1, FAM3, 1, 1 },
    { "smsp__inst_executed_op_global_ld.sum", SFM_INSTRUCTIONS, SF_LD, FAM3, 0, 0 },
    { "smsp__inst_executed_op_global_st.sum", SFM_INSTRUCTIONS, SF_ST, FAM3, 0, 0 },
    { "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", SFM_REQUESTS, SF_LD, ALL4, 0, 1 },
    { "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", SFM_REQUESTS, SF_ST, FAM3, 0, 0 },
    { "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", SFM_SECTORS, SF_LD, ALL4, 0, 1 },
    { "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", SFM_SECTORS, SF_ST, FAM3, 0, 0 },
    { "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum", SFM_WAVEFRONTS, SF_LD, FAM3, 0, 0 },
    { "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_st.sum", SFM_WAVEFRONTS, SF_ST, FAM3, 0, 0 },
    { "l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum", SFM_DATA_WAVEFRONTS, SF_LD, FAM3, 0, 0 },
    { "l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_write.sum", SFM_DATA_WAVEFRONTS, SF_ST, FAM3, 0, 0 },
    { "l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum", SFM_DATA_WAVEFRONTS, SF_LD, FAM3, 0, 0 },
    { "l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_write.sum", SFM_DATA_WAVEFRONTS, SF_ST, FAM3, 0, 0 },
    { "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", SFM_HITS, SF_LD, FAM3, 0, 0 },
    { "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum", SFM_HITS, SF_ST, FAM3, 0, 0 },
    { "lts__t_requests_srcunit_tex_op_read.sum", SFM_L2_REQUESTS, SF_LD, FAM3, 0, 0 },
    { "lts__t_requests_srcunit_tex_op_write.sum", SFM_L2_REQUESTS, SF_ST, FAM3, 0, 0 },
    { "lts__t_sectors_srcunit_tex_op_read.sum", SFM_L2_SECTORS, SF_LD, ALL4, 0, 1 },
    { "lts__t_sectors_srcunit_tex_op_write.sum", SFM_L2_SECTORS, SF_ST, FAM3, 0, 0 },
    { "dram__sectors_read.sum", SFM_DRAM, SF_LD, ALL4, 0, 1 },
    { "dram__sectors_write.sum", SFM_DRAM, SF_ST, FAM3, 0, 0 },
};
const size_t sf_nmetrics = sizeof sf_metrics / sizeof sf_metrics[0];

/* ------------------------------------------------------------ judging */

void sf_measured_clear(sf_measured *m)
{
    for (int i = 0; i < SFM_NMEASURES; i++)
        m->v[i][0] = m->v[i][1] = NAN;
}

static const char *const measure_cols[SFM_NMEASURES] = {
    "time_ns", "blocks", "block_threads", "instructions", "l1_requests", "l1_sectors",
    "wavefronts", "data_wavefronts", "l1_hits", "l2_requests", "l2_sectors", "dram_sectors",
};

const char *sf_measure_column(sf_measure m)
{
    return (unsigned)m < SFM_NMEASURES ? measure_cols[m] : "?";
}

static void judge_range(sf_verdict *o, sf_measure q, double meas, double lo, double hi)
{
    if (isnan(meas))
        return;
    o->judged[q] = 1;
    o->ok[q] = meas >= lo - 1e-9 && meas <= hi + 1e-9;
}

void sf_judge(const sf_prediction *pr, sf_op op, const sf_measured *m, sf_verdict *o)
{
    memset(o, 0, sizeof *o);
    const sf_counts *k = &pr->op[op];
    /* L1 hits and L2 traffic: within 0.1% of the sectors (a 256 KB L1 shared by
     * 64 warps evicts a line now and then), more for the random gather */
    const double tol = (pr->hit_tol_frac > 0.001 ? pr->hit_tol_frac : 0.001) * k->sectors;
    const double dram = op == SF_LD ? pr->dram_read_sectors : pr->dram_write_sectors;
    judge_range(o, SFM_REQUESTS, m->v[SFM_REQUESTS][op], k->requests, k->requests);
    judge_range(o, SFM_SECTORS, m->v[SFM_SECTORS][op], k->sectors, k->sectors);
    /* wavefronts: shown, not judged.  Lab 000's rule (a wavefront serves up to
     * four 128-byte lines) fits its figures, not the H100's counter, which
     * takes more wavefronts per request as soon as a request spans three or
     * more lines (data/reference/h100/sectors_copy.tsv) */
    if (!isnan(m->v[SFM_WAVEFRONTS][op]) && fabs(m->v[SFM_WAVEFRONTS][op] - k->wavefronts) > 0.5)
        cat(o->note, sizeof o->note, "%swavefronts not judged: %.2f per request measured, %.2f by "
            "lab 000's rule", o->note[0] ? "; " : "", m->v[SFM_WAVEFRONTS][op] / k->requests,
            k->wavefronts / k->requests);
    if (op == SF_LD) {
        judge_range(o, SFM_HITS, m->v[SFM_HITS][op], k->hits - tol, k->hits_max + tol);
    } else if (!isnan(m->v[SFM_HITS][op]) && m->v[SFM_HITS][op] != k->hits) {
        cat(o->note, sizeof o->note, "%sstore hits not judged: %.0f measured (the H100 counts a "
            "store to a line an earlier store allocated as a hit for every sector)",
            o->note[0] ? "; " : "", m->v[SFM_HITS][op]);
    }
    const double l2lo = k->l2_requests_merged < k->l2_requests_min ? k->l2_requests_merged
                                                                   : k->l2_requests_min;
    judge_range(o, SFM_L2_REQUESTS, m->v[SFM_L2_REQUESTS][op], l2lo - tol, k->l2_requests + tol);
    if (!isnan(m->v[SFM_L2_REQUESTS][op]) && k->l2_requests_merged < k->l2_requests_min)
        cat(o->note, sizeof o->note, "%sL2 requests %.0f if every miss to a line a warp of the "
            "block had just asked for joins that request, %.0f if none does",
            o->note[0] ? "; " : "", k->l2_requests_merged, k->l2_requests);
    const double s2lo = op == SF_ST && k->l2_sectors_merged < k->l2_sectors_min ? k->l2_sectors_merged
                                                                               : k->l2_sectors_min;
    judge_range(o, SFM_L2_SECTORS, m->v[SFM_L2_SECTORS][op], s2lo - tol, k->l2_sectors + tol);
    judge_range(o, SFM_GRID, m->v[SFM_GRID][0], (double)pr->blocks, (double)pr->blocks);
    const double md = m->v[SFM_DRAM][op];
    if (!isnan(md)) {
        if (op == SF_ST)
            cat(o->note, sizeof o->note, "%sDRAM writes not judged: the L2 is write-back and "
                "writes a dirty line when it evicts it, after the kernel for those still in it",
                o->note[0] ? "; " : "");
        else if (dram < SF_DRAM_MIN_SECTORS)
            cat(o->note, sizeof o->note, "%sDRAM not judged below %.0f sectors: instruction and "
                "parameter fetches (about 100 sectors) dominate", o->note[0] ? "; " : "",
                SF_DRAM_MIN_SECTORS);
        else
            judge_range(o, SFM_DRAM, md, dram * (1 - SF_DRAM_TOL),
                        (dram + pr->dram_partial_sectors) * (1 + SF_DRAM_TOL));
    }
    if (pr->dram_partial_sectors > 0)
        cat(o->note, sizeof o->note, "%s%.0f sectors written back only partly written: an L2 "
            "that reads them from DRAM first adds as many DRAM reads", o->note[0] ? "; " : "",
            pr->dram_partial_sectors);
    if (k->hits_max > k->hits)
        cat(o->note, sizeof o->note, "%sL1 hits %.0f inside blocks, up to %.0f if neighbouring "
            "blocks ran on one SM (L2 requests and sectors bounded alike)", o->note[0] ? "; " : "",
            k->hits, k->hits_max);
    if (pr->hit_tol_frac > 0.001)
        cat(o->note, sizeof o->note, "%shits and L2 judged within %.1f %% of the sectors: random "
            "blocks also reuse each other's sectors in an SM's L1", o->note[0] ? "; " : "",
            100 * pr->hit_tol_frac);
    if (op == SF_ST && k->hits > 0)
        cat(o->note, sizeof o->note, "%sstore hits assume L1 write-allocate (sectors a store "
            "wrote are found by the next store)", o->note[0] ? "; " : "");
    static const sf_measure need[] = { SFM_REQUESTS, SFM_SECTORS, SFM_WAVEFRONTS, SFM_HITS,
                                       SFM_L2_REQUESTS, SFM_L2_SECTORS };
    char miss[160] = "";
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (isnan(m->v[need[i]][op]))
            cat(miss, sizeof miss, "%s%s", miss[0] ? ", " : "", measure_cols[need[i]]);
    if (miss[0])
        cat(o->note, sizeof o->note, "%snot measured: %s", o->note[0] ? "; " : "", miss);
    o->agree = o->judged[SFM_REQUESTS] && o->judged[SFM_SECTORS];
    for (int q = 0; q < SFM_NMEASURES; q++)
        if (o->judged[q] && !o->ok[q]) {
            o->agree = 0;
            cat(o->mismatch, sizeof o->mismatch, "%s%s", o->mismatch[0] ? "," : "",
                measure_cols[q]);
        }
    if (!o->judged[SFM_REQUESTS] || !o->judged[SFM_SECTORS])
        cat(o->mismatch, sizeof o->mismatch, "%snot measured", o->mismatch[0] ? "," : "");
    if (!o->mismatch[0])
        snprintf(o->mismatch, sizeof o->mismatch, "-");
}
