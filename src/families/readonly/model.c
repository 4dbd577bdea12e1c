/*
 * model.c - the readonly family's sector model (sector_family.h): float a[N]
 * (array 0) and, for the gathers, uint32_t c[N] (array 1), the address rules
 * of readonly.cu's kernels, and its ncu recipe.
 *
 * Every kernel launches whole blocks over its items (N, or N/4 float4) and
 * clamps the index instead of branching (ro_clamp): a thread past the end
 * loads the last item again, so every lane of every launched warp is active
 * and the tail's extra requests, sectors and L1 hits are counted as the GPU
 * counts them.  The gathers load c[i] first, then a[c[i]]: two instructions.
 *
 * The recipe: first the DRAM fetch granularity (strided at stride 32, one
 * isolated 4 B load per 128 B line, at N = 1e8 so that the wrapped index never
 * fits in L2) under each cudaLimitMaxL2FetchGranularity, each a row of
 * l2_fetch.tsv; then the strided kernels, both element sizes per run, at each
 * stride, and the other four in one run, all pooled into one measured table
 * (ncu's counts only, as data/reference/h100/sectors_readonly.tsv).  Those
 * run at N = 1e8, the size of the bundled H100 logs; there the random gather,
 * counted by sf_count_loads (every lane once, about 9 s of CPU at N = 1e8, where
 * the walk would take minutes), is predicted too; the recipe does not
 * compare these runs itself: a run at N <= 1e7 compares as every family does
 * (sector_compare --family readonly --runs RUNS --ncu EXT).  The metrics are
 * the load path's five (SF_MSET_LOADS), the columns of that table.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_family.h"
#include "patterns.h"
#include "sector_perm.h"
#include "variants.h"

#include <stddef.h>
#include <stdio.h>

extern const struct fam_model fam_model_readonly;

#define RO_ID(ID, NAME, ABOUT, CFG, CFGD, RULE) ID,
enum { READONLY_VARIANTS(RO_ID) RO_NVARIANTS };
#undef RO_ID

/* ------------------------------------------------------------ generators */

static int ro_vec4(unsigned v) { return v == RO_FLOAT4 || v == RO_STRIDED_FLOAT4; }
static int ro_gather(unsigned v) { return v == RO_NONDIVERGING || v == RO_RANDOM_ACCESS; }

/* The item thread t loads from a (or c, for the gathers' first load):
 * ro_clamp, then the strided variants' (S * i) % items, S reduced first so
 * that the product stays below 2^56. */
static uint64_t ro_item(const sf_ctx *c, uint64_t t)
{
    const uint64_t i = t < c->items ? t : c->items - 1;
    const unsigned v = c->v->param;
    if (v == RO_STRIDED || v == RO_STRIDED_FLOAT4)
        return (c->cfg % c->items) * i % c->items;
    return i;
}

/* random_access's permutation (sector_perm.h), kept per thread for the
 * (N, seed) of the last call: its tables take 65536 hashes to fill.  Its
 * values are computed RO_PERM_WARPS warps at a time (sf_perm_many is
 * fastest over long calls) and kept for the warps after: the count and the
 * walk ask for the warps in order (a walked block's neighbour before it
 * recomputes from there). */
enum { RO_PERM_WARPS = 128 };
static _Thread_local sf_perm ro_perm_cache;
static _Thread_local int ro_perm_ready;
static _Thread_local uint64_t ro_perm_w0, ro_perm_x[32 * RO_PERM_WARPS];

/* Lanes 32 w .. 32 w + 31 of random_access's a[c[i]]: ro_perm of their items. */
static const uint64_t *ro_perm_warp(const sf_ctx *c, uint64_t w)
{
    if (!ro_perm_ready || ro_perm_cache.n != c->n || ro_perm_cache.seed != c->p->seed) {
        sf_perm_init(&ro_perm_cache, c->n, c->p->seed);
        ro_perm_ready = 1;
        ro_perm_w0 = UINT64_MAX;
    }
    if (ro_perm_w0 == UINT64_MAX || w < ro_perm_w0 || w - ro_perm_w0 >= RO_PERM_WARPS) {
        for (unsigned t = 0; t < 32 * RO_PERM_WARPS; t++)
            ro_perm_x[t] = ro_item(c, 32 * w + t);
        sf_perm_many(&ro_perm_cache, ro_perm_x, 32 * RO_PERM_WARPS);
        ro_perm_w0 = w;
    }
    return &ro_perm_x[32 * (w - ro_perm_w0)];
}

/* One load per thread (two for the gathers: c[i], then a[c[i]]); every lane
 * of a launched warp loads (the simulator asks only for launched warps).
 * random_access's a[c[i]] is a[ro_perm(i)]. */
static int g_readonly(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const unsigned v = c->v->param;
    if (k >= (ro_gather(v) ? 2u : 1u))
        return 0;
    const unsigned e = ro_vec4(v) ? 16 : 4;
    sf_acc_begin(a, SF_LD, ro_gather(v) && k == 0 ? 1 : 0, e);
    if (k == 1 && v == RO_RANDOM_ACCESS) {
        const uint64_t *x = ro_perm_warp(c, w);
        for (unsigned l = 0; l < 32; l++)
            sf_acc_lane(a, l, (uint64_t)e * x[l]);
        return 1;
    }
    for (unsigned l = 0; l < 32; l++)
        sf_acc_lane(a, l, (uint64_t)e * ro_item(c, 32 * w + l));
    return 1;
}

/* ------------------------------------------------------------ the table */

#define RO_MODEL(ID, NAME, ABOUT, CFG, CFGD, RULE) \
    { &fam_model_readonly, NAME, CFG, CFGD, RULE, g_readonly, SF_PATH_CA, ID },

static const sf_variant READONLY_MODEL[] = { READONLY_VARIANTS(RO_MODEL) };

static int readonly_setup(sf_ctx *c, const sf_variant *v, const sf_params *p, sf_prediction *out,
                          char *err, size_t errlen)
{
    (void)err, (void)errlen;
    c->items = ro_vec4(v->param) ? p->n / 4 : p->n;
    c->half = ro_perm_half_bits(p->n);
    /* c[] exists only for the gathers: no L2 lines for it otherwise */
    c->array_bytes[1] = ro_gather(v->param) ? 4 * p->n : 0;
    /* random loads through L1: cross-block reuse in an SM's L1 is statistical */
    out->hit_tol_frac = v->param == RO_RANDOM_ACCESS ? 0.005 : 0;
    return 0;
}

/* ------------------------------------------------------------ counting */

/*
 * The walk's numbers without the walk (fam_model.count).  random_access, a
 * gather through a random permutation whose blocks are all different, goes
 * to sf_count_loads (sector_family.h): its blocks each in O(its lanes), on
 * every core, the L2 as times over chunks of their touches.  The other four read element e(t) = (s t) mod M
 * of one array (nondiverging: of c, then the same element of a), with s = 1
 * or the stride reduced mod M, M the items, t clamped to M - 1.
 *
 * The L1 side, by runs of blocks.  A block whose threads are all below M and
 * whose elements do not wrap is e_b + s u (u < threads per block), and the
 * next one, when it neither wraps nor starts a new sweep, is the same moved
 * by s x 32 WPB elements: a whole number of 128 B lines in each array.  Such
 * a run is counted by sf_count_blocks (two blocks walked); the blocks where
 * a sweep wraps or the clamp begins are walked one by one.
 *
 * The DRAM, loads only (no writes, none partial).  An L2 line is fetched
 * granule by granule as its sectors first miss, and kept until cap = L2
 * bytes / 128 other lines have been touched since its last touch (LRU).
 *   - Inside one sweep a line's elements are consecutive threads: at most
 *     two neighbouring blocks (the clamped threads: the last block, with
 *     thread M - 1), between whose touches fewer than 4 x 32 WPB other lines
 *     come; with cap above that no line leaves in the middle of such an
 *     episode, so each episode fetches each granule it touches once.
 *   - When every line the launch touches fits (cap or fewer), nothing is ever
 *     evicted: the DRAM is the distinct granules touched, those of the
 *     multiples of g = gcd(s, M) below M (all of them are read).
 *   - Else, a line met again in a later sweep was left at least at the end
 *     of one sweep and met again in the next: between the two touches come
 *     the rest of the first sweep (elements above the line) and the start of
 *     the next (below it), at least LB distinct lines, less those of the
 *     two blocks around the touches (whose order inside a block differs from
 *     the threads').  When no two sweeps in a row share a line (the stride
 *     a multiple of a line and each sweep's residue in another line of it),
 *     a whole sweep of other lines lies between too and LB grows by the
 *     shortest sweep.  When LB >= cap every such touch misses, and the DRAM
 *     is each sweep's own granules, summed over the s sweeps.
 *   - Otherwise (a small L2, or sweeps shorter than it) the walk predicts.
 */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        const uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Distinct granules of gq elements among r, r + s, ..., r + s (n - 1), n >= 1:
 * each element its own when s >= gq, else every granule from the first to
 * the last (a step shorter than a granule skips none). */
static uint64_t ap_granules(uint64_t r, uint64_t s, uint64_t n, uint64_t gq)
{
    return s >= gq ? n : (r + s * (n - 1)) / gq - r / gq + 1;
}

/* The DRAM sectors of a launch of M items at step s (see above): 0 and *dram,
 * or 1 when the closed form does not hold. */
static int ro_dram(const sf_ctx *c, uint64_t M, uint64_t s, uint64_t eb, unsigned arrays,
                   double *dram)
{
    const sf_params *p = c->p;
    const int64_t q = (int64_t)(128 / eb), tpb = 32 * (int64_t)p->wpb;
    const uint64_t gq = p->granule_bytes / eb, gsect = p->granule_bytes / 32;
    const int64_t cap = (int64_t)(p->l2_bytes / 128);
    if (cap < 4 * tpb + 64)
        return 1;
    const uint64_t g = gcd64(s, M);
    const uint64_t lines = (uint64_t)arrays * (g >= (uint64_t)q ? M / g : (M - g) / (uint64_t)q + 1);
    if (lines <= (uint64_t)cap || s == 1) {   /* all fit, or one sweep */
        const uint64_t gran = g >= gq ? M / g : (M - g) / gq + 1;
        *dram = (double)(gsect * arrays * gran);
        return 0;
    }
    const int64_t S = (int64_t)s, m = (int64_t)M;
    int64_t lb = (S < q ? (m - S) / q - (S - 1) / q : (m - S - q + 1) / S - 1) - 2 * tpb;
    if (arrays != 1 || s > (uint64_t)m / 64)
        return 1;
    uint64_t gran = 0, i0 = 0, shortest = M, rho_prev = 0;
    int alternate = S >= q && S % q == 0;
    for (uint64_t k = 0; k < s; k++) {   /* sweep k: threads i0 .. i1 - 1, from element r */
        const uint64_t i1 = k + 1 < s ? ((k + 1) * M + s - 1) / s : M, r = s * i0 - k * M;
        gran += ap_granules(r, s, i1 - i0, gq);
        if (i1 - i0 < shortest) shortest = i1 - i0;
        /* with q | s sweep k's lines are r / q mod s / q: two sweeps of other
         * classes share none */
        if (k > 0 && r / (uint64_t)q == rho_prev) alternate = 0;
        rho_prev = r / (uint64_t)q;
        i0 = i1;
    }
    /* no two sweeps in a row share a line: between two touches of a line
     * lies a whole sweep of another class too, one line per element */
    if (alternate)
        lb += (int64_t)shortest;
    if (lb < cap)
        return 1;
    *dram = (double)(gsect * gran);
    return 0;
}

static int readonly_count(const sf_ctx *c, sf_blocks *B, sf_prediction *out, char *err,
                          size_t errlen)
{
    const unsigned v = c->v->param;
    if (v == RO_RANDOM_ACCESS)   /* loads only, through L1: the fast walk */
        return B ? sf_count_loads(B, err, errlen) : 0;
    const uint64_t M = c->items, eb = ro_vec4(v) ? 16 : 4;
    const uint64_t s = v == RO_STRIDED || v == RO_STRIDED_FLOAT4 ? c->cfg % M : 1;
    double dram;
    if (s == 0 || ro_dram(c, M, s, eb, ro_gather(v) ? 2 : 1, &dram))
        return 1;
    if (!B)
        return 0;
    const uint64_t tpb = 32ull * c->p->wpb, nb = (M + tpb - 1) / tpb;
    const uint64_t step = s * tpb % M;
    /* e: the first element of block b; a run [r0, b) of blocks each the one
     * before it moved by s tpb elements */
    uint64_t r0 = 0, e = 0, e_prev = 0;
    int reg_prev = 0;
    for (uint64_t b = 0; b < nb; b++) {
        const int reg = (b + 1) * tpb <= M && e + s * (tpb - 1) < M;
        const int joins = b > r0 && reg && reg_prev && e == e_prev + s * tpb;
        if (b > r0 && !joins) {
            if (sf_count_blocks(B, r0, b - r0, err, errlen))
                return -1;
            r0 = b;
        }
        reg_prev = reg;
        e_prev = e;
        e += step;
        if (e >= M)
            e -= M;
    }
    if (sf_count_blocks(B, r0, nb - r0, err, errlen))
        return -1;
    out->dram_read_sectors = dram;
    return 0;
}

/* ------------------------------------------------------------ ncu recipe */

#define GRAN(lim, row, quick)                                                                  \
    { "gran_" lim, "1e8 0 {WPB} --kernel strided --stride 32", "^readonly_strided$", row,     \
      "--family readonly --l2-fetch-row " #row, SF_NCU_L2_FETCH, quick }
#define STRIDED(s, quick)                                                                      \
    { "strided_" #s, "{N} 0 {WPB} --kernel strided,strided_float4 --stride " #s,               \
      "^readonly_(strided|strided_float4)$", -1, "--family readonly --measured", SF_NCU_POOL, quick }

static const sf_ncu_run READONLY_NCU[] = {
    GRAN("default", 0, 1),
    GRAN("32", 32, 0),
    GRAN("64", 64, 0),
    GRAN("128", 128, 0),
    STRIDED(1, 1),
    STRIDED(2, 0),
    STRIDED(4, 0),
    STRIDED(8, 0),
    STRIDED(16, 0),
    STRIDED(32, 1),
    STRIDED(64, 0),
    STRIDED(128, 0),
    { "other", "{N} 0 {WPB} --kernel baseline,float4,nondiverging,random_access",
      "^readonly_(baseline|float4|nondiverging|random_access)$", -1,
      "--family readonly --measured", SF_NCU_POOL, 1 },
};

/* One random configuration of the readonly variant v (bin/model_check): N
 * and WPB from the documented ranges, a stride 1..257 for the strided ones. */
static int readonly_draw(const sf_variant *v, uint64_t *rng, sf_draw *out, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sf_draw_begin(out, rng);
    if (v->cfg == SF_CFG_STRIDE) out->p.cfg = sf_rand_range(rng, 1, SF_DRAW_STRIDE_MAX);
    sf_draw_line(out, v, v->cfg == SF_CFG_STRIDE ? "--stride" : NULL);
    return 0;
}

const struct fam_model fam_model_readonly = {
    "readonly", SF_ROWS(READONLY_MODEL), SF_SHAPE_N, SF_N_DEFAULT, NULL, readonly_setup, NULL,
    NULL, 0, SF_MSET_LOADS, "1e8", SF_ROWS(READONLY_NCU), readonly_draw, readonly_count,
};
