/*
 * model_check.c - drawing random configurations, judging them strictly and
 * counting (contract: model_check.h).
 *
 * Why the strict rule differs from sector_compare's `agree`: a bracket
 * (B2's neighbouring blocks, the random gather's statistical reuse, partly
 * written sectors) can be so wide that a measurement inside it says little;
 * on cases nobody picked such a row must not count as the model being right
 * (issue 25), so it is classed wide_bound.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "sector_family.h"
#include "stats.h"

static const char *const CLASS_NAMES[MC_NCLASSES] = {
    "agree", "not_measured", "grid", "l1", "hits", "l2", "dram", "wide_bound",
};

const char *mc_class_name(mc_class c)
{
    return c >= 0 && c < MC_NCLASSES ? CLASS_NAMES[c] : "?";
}

/* FNV-1a of a name: each family draws from its own stream. */
static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

uint64_t mc_rng_of(uint64_t seed, const char *family, uint64_t id)
{
    uint64_t s = seed ^ fnv1a(family);
    s += 0xD1B54A32D192ED03ull * (id + 1);
    (void)sf_rand_next(&s);   /* one step: nearby ids start far apart */
    return s;
}

/* ------------------------------------------------------------ draw */

/* The variants to draw, in the model's order: all, or those named. */
static size_t pick_variants(const struct fam_model *m, const char *only, const sf_variant **out,
                            char *err, size_t errlen)
{
    size_t n = 0;
    if (!only) {
        for (size_t i = 0; i < m->nvariants; i++) out[n++] = &m->variants[i];
        return n;
    }
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", only);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const sf_variant *v = sf_find(m->name, t);
        if (!v) {
            set_err(err, errlen, "%s has no modelled variant '%s'", m->name, t);
            return 0;
        }
        out[n++] = v;
    }
    return n;
}

static void draw_head(FILE *f, const struct fam_model *m, uint64_t seed, unsigned k, const char *only,
                      const char *meta)
{
    if (meta && *meta) fputs(meta, f);
    fprintf(f, "# model_check draw: random configurations of the sector model (docs/model_check.md)\n"
               "# family\t%s\n# seed\t%llu\n# configurations\t%u\n# variants\t%s\n"
               "# ranges\tN %llu..%llu (log-uniform, not rounded); WPB 1..%u; offsets 0..%u; "
               "strides 1..%u; batches 1..%u (those the kernels have); stencil N0 %u..%u, "
               "N1 1..%u, radius 1..%u, each pad on or off\n"
               "# rerun\tone line alone: ./%s_profile LINE (bin/model_check draw %s --seed %llu "
               "--random %u gives the same lines)\n",
            m->name, (unsigned long long)seed, k, only ? only : "all, in turn",
            SF_DRAW_N_MIN, SF_DRAW_N_MAX, SF_DRAW_WPB_MAX, SF_DRAW_OFFSET_MAX, SF_DRAW_STRIDE_MAX,
            SF_DRAW_BATCH_MAX, SF_DRAW_N0_MIN, SF_DRAW_N0_MAX, SF_DRAW_N1_MAX, SF_DRAW_RADIUS_MAX,
            m->name, m->name, (unsigned long long)seed, k);
}

int mc_draw(const struct fam_model *m, uint64_t seed, unsigned k, const char *only, FILE *batch,
            FILE *draws, char *err, size_t errlen)
{
    return mc_draw_meta(m, seed, k, only, NULL, batch, draws, err, errlen);
}

int mc_draw_meta(const struct fam_model *m, uint64_t seed, unsigned k, const char *only, const char *meta,
                 FILE *batch, FILE *draws, char *err, size_t errlen)
{
    if (!m->draw) {
        set_err(err, errlen, "%s has no random draws (its model has no draw hook)", m->name);
        return -1;
    }
    const sf_variant *vs[256];
    if (m->nvariants > 256) {
        set_err(err, errlen, "%s: more than 256 variants", m->name);
        return -1;
    }
    err[0] = 0;
    const size_t nv = pick_variants(m, only, vs, err, errlen);
    if (nv == 0) {
        if (!err[0]) set_err(err, errlen, "%s has no modelled variant to draw", m->name);
        return -1;
    }
    draw_head(batch, m, seed, k, only, meta);
    draw_head(draws, m, seed, k, only, meta);
    fprintf(draws, "id\tfamily\tvariant\tn\twarps_per_block\targs\n");
    for (unsigned i = 0; i < k; i++) {
        const sf_variant *v = vs[i % nv];
        uint64_t rng = mc_rng_of(seed, m->name, i);
        sf_draw d;
        char why[256] = "";
        int tries = 0;
        for (;; tries++) {
            memset(&d, 0, sizeof d);
            if (tries == 64 || m->draw(v, &rng, &d, why, sizeof why) != 0) {
                set_err(err, errlen, "%s %s: configuration %u: %s", m->name, v->name, i,
                        why[0] ? why : "64 draws in a row refused by the model");
                return -1;
            }
            if (sf_check(v, &d.p, why, sizeof why) == 0) break;
        }
        const uint64_t n = m->shape == SF_SHAPE_2D ? d.p.n0 * d.p.n1 : d.p.n;
        fprintf(batch, "%s  # id=%u variant=%s\n", d.args, i, v->name);
        fprintf(draws, "%u\t%s\t%s\t%llu\t%u\t%s\n", i, m->name, v->name, (unsigned long long)n, d.p.wpb,
                d.args);
    }
    return 0;
}

/* ------------------------------------------------------------ judge */

/* Does the comma-separated list contain name? */
int mc_in_list(const char *list, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *c = strchr(p, ',');
        const size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == n && !strncmp(p, name, n)) return 1;
        p = c ? c + 1 : NULL;
    }
    return 0;
}

mc_class mc_classify(const char *agree, const char *mismatch, const char *wide)
{
    const char *mm = mismatch ? mismatch : "-";
    if (strstr(mm, "not measured")) return MC_NOT_MEASURED;
    if (!agree || strcmp(agree, "yes")) {
        if (mc_in_list(mm, "blocks")) return MC_GRID;
        if (mc_in_list(mm, "l1_requests") || mc_in_list(mm, "l1_sectors")) return MC_L1;
        if (mc_in_list(mm, "l1_hits")) return MC_HITS;
        if (mc_in_list(mm, "l2_requests") || mc_in_list(mm, "l2_sectors")) return MC_L2;
        if (mc_in_list(mm, "dram_sectors")) return MC_DRAM;
        return MC_NOT_MEASURED;   /* "no" with no quantity named: requests or sectors absent */
    }
    if (wide && strcmp(wide, "-") && *wide) return MC_WIDE;
    return MC_AGREE;
}

/* The columns of cmp the judged table carries over, in this order. */
static const char *const CARRY[] = {
    "l1_requests_pred", "l1_requests_meas", "l1_sectors_pred", "l1_sectors_meas", "l1_hits_pred",
    "l1_hits_max_pred", "l1_hits_meas", "l2_requests_min_pred", "l2_requests_pred", "l2_requests_meas",
    "l2_sectors_min_pred", "l2_sectors_pred", "l2_sectors_meas", "dram_sectors_pred", "dram_sectors_meas",
    "blocks_pred", "blocks_meas",
};
#define NCARRY (sizeof CARRY / sizeof CARRY[0])

static const char *const NEED[] = {
    "family", "variant", "config", "op", "agree", "mismatch", "n", "warps_per_block", "judged", "wide",
};

static void judged_header(FILE *out)
{
    fputs("id\tfamily\tvariant\tconfig\top\tn\twarps_per_block\tagree\tclass\tmismatch\twide\tjudged\t"
          "not_judged", out);
    for (size_t i = 0; i < NCARRY; i++) fprintf(out, "\t%s", CARRY[i]);
    fputs("\targs\n", out);
}

/* "-" for a field that is absent or empty. */
static const char *or_dash(const char *s) { return s && *s ? s : "-"; }

/* The quantities measured but not judged in row r: l1_hits, dram_sectors. */
static void not_judged(const tsv_table *cmp, size_t r, const char *judged, char *out, size_t len)
{
    out[0] = 0;
    if (!isnan(tsv_num(cmp, r, "l1_hits_meas")) && !mc_in_list(judged, "l1_hits"))
        snprintf(out, len, "l1_hits");
    if (!isnan(tsv_num(cmp, r, "dram_sectors_meas")) && !mc_in_list(judged, "dram_sectors"))
        snprintf(out + strlen(out), len - strlen(out), "%sdram_sectors", out[0] ? "," : "");
    if (!out[0]) snprintf(out, len, "-");
}

/* 1 when cmp's rows a and b have the same column col (both absent: the same). */
static int same_col(const tsv_table *cmp, size_t a, size_t b, const char *col)
{
    return !strcmp(or_dash(tsv_get(cmp, a, col)), or_dash(tsv_get(cmp, b, col)));
}

/* The draw of cmp's row r: from *cursor on, the first of its variant, n and
 * WPB; -1 when none (the cursor stays).  A draw's rows come together, one per
 * op: row r starts the next draw of the same variant, n and WPB when its
 * config differs from row r - 1's (two stencil probes of one size and WPB but
 * another radius or pad), or when a row before it of this draw already had
 * its op (the same configuration drawn twice). */
long mc_join_draw(const tsv_table *cmp, size_t r, const tsv_table *draws, size_t *cursor)
{
    if (!draws) return -1;
    const char *v = tsv_get(cmp, r, "variant");
    const double n = tsv_num(cmp, r, "n"), w = tsv_num(cmp, r, "warps_per_block");
    size_t start = *cursor;
    if (r > 0 && same_col(cmp, r - 1, r, "variant") && same_col(cmp, r - 1, r, "n") &&
        same_col(cmp, r - 1, r, "warps_per_block")) {
        int next = !same_col(cmp, r - 1, r, "config");
        for (size_t k = r; !next && k-- > 0;) {
            if (!same_col(cmp, k, r, "variant") || !same_col(cmp, k, r, "n") ||
                !same_col(cmp, k, r, "warps_per_block") || !same_col(cmp, k, r, "config"))
                break;
            next = same_col(cmp, k, r, "op");
        }
        if (next) start = *cursor + 1;
    }
    for (size_t d = start; d < draws->nrow; d++) {
        if (strcmp(or_dash(tsv_get(draws, d, "variant")), v)) continue;
        if (!isnan(n) && tsv_num(draws, d, "n") != n) continue;
        if (!isnan(w) && tsv_num(draws, d, "warps_per_block") != w) continue;
        *cursor = d;
        return (long)d;
    }
    return -1;
}

static void judged_row(FILE *out, const tsv_table *cmp, size_t r, const tsv_table *draws, long d)
{
    const char *agree = tsv_get(cmp, r, "agree"), *mm = tsv_get(cmp, r, "mismatch");
    const char *wide = tsv_get(cmp, r, "wide"), *judged = tsv_get(cmp, r, "judged");
    const mc_class c = mc_classify(agree, mm, wide);
    char nj[64];
    not_judged(cmp, r, judged, nj, sizeof nj);
    fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s",
            d >= 0 ? tsv_get(draws, (size_t)d, "id") : "-", tsv_get(cmp, r, "family"),
            tsv_get(cmp, r, "variant"), or_dash(tsv_get(cmp, r, "config")), tsv_get(cmp, r, "op"),
            or_dash(tsv_get(cmp, r, "n")), or_dash(tsv_get(cmp, r, "warps_per_block")),
            c == MC_AGREE ? "yes" : "no", mc_class_name(c), or_dash(mm), or_dash(wide), or_dash(judged), nj);
    for (size_t i = 0; i < NCARRY; i++) fprintf(out, "\t%s", or_dash(tsv_get(cmp, r, CARRY[i])));
    fprintf(out, "\t%s\n", d >= 0 ? or_dash(tsv_get(draws, (size_t)d, "args")) : "-");
}

/* A draw no row of cmp joined: its run was skipped, failed or not profiled. */
static void missing_row(FILE *out, const tsv_table *draws, size_t d)
{
    fprintf(out, "%s\t%s\t%s\t-\t-\t%s\t%s\tno\t%s\tnot measured\t-\t-\t-", tsv_get(draws, d, "id"),
            tsv_get(draws, d, "family"), tsv_get(draws, d, "variant"), tsv_get(draws, d, "n"),
            tsv_get(draws, d, "warps_per_block"), mc_class_name(MC_NOT_MEASURED));
    for (size_t i = 0; i < NCARRY; i++) fputs("\t-", out);
    fprintf(out, "\t%s\n", or_dash(tsv_get(draws, d, "args")));
}

int mc_judge(const tsv_table *cmp, const tsv_table *draws, FILE *out, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof NEED / sizeof NEED[0]; i++)
        if (tsv_col(cmp, NEED[i]) < 0) {
            set_err(err, errlen, "%s has no column %s (is it bin/sector_compare --family's table?)",
                    cmp->name, NEED[i]);
            return -1;
        }
    static const char *const DNEED[] = {"id", "family", "variant", "n", "warps_per_block", "args"};
    for (size_t i = 0; draws && i < sizeof DNEED / sizeof DNEED[0]; i++)
        if (tsv_col(draws, DNEED[i]) < 0) {
            set_err(err, errlen, "%s has no column %s (is it bin/model_check draw's table?)", draws->name,
                    DNEED[i]);
            return -1;
        }
    unsigned char *joined = draws ? calloc(draws->nrow + 1, 1) : NULL;
    if (draws && !joined) {
        set_err(err, errlen, "out of memory");
        return -1;
    }
    judged_header(out);
    size_t cursor = 0;
    for (size_t r = 0; r < cmp->nrow; r++) {
        const long d = mc_join_draw(cmp, r, draws, &cursor);
        if (d >= 0) joined[d] = 1;
        judged_row(out, cmp, r, draws, d);
    }
    for (size_t d = 0; draws && d < draws->nrow; d++)
        if (joined[d] != 1) missing_row(out, draws, d);
    free(joined);
    return 0;
}

/* ------------------------------------------------------------ counts */

int mc_count(const tsv_table *t, mc_counts *c, char *err, size_t errlen)
{
    if (tsv_col(t, "class") < 0 || tsv_col(t, "not_judged") < 0) {
        set_err(err, errlen, "%s has no column class or not_judged (is it a model_check table?)", t->name);
        return -1;
    }
    for (size_t r = 0; r < t->nrow; r++) {
        const char *cls = tsv_get(t, r, "class");
        int k = -1;
        for (int i = 0; i < MC_NCLASSES; i++)
            if (!strcmp(cls, CLASS_NAMES[i])) k = i;
        if (k < 0) {
            set_err(err, errlen, "%s: row %zu: unknown class '%s'", t->name, r + 1, cls);
            return -1;
        }
        c->rows++;
        c->cls[k]++;
        c->agree += k == MC_AGREE;
        const char *nj = tsv_get(t, r, "not_judged"), *wide = tsv_get(t, r, "wide");
        c->not_judged_dram += mc_in_list(nj, "dram_sectors");
        c->not_judged_hits += mc_in_list(nj, "l1_hits");
        c->wide += wide && strcmp(wide, "-") && *wide;
    }
    return 0;
}

void mc_summary_header(FILE *out)
{
    fputs("family\trows\tagree\tagree_pct", out);
    for (int i = 1; i < MC_NCLASSES; i++) fprintf(out, "\t%s", CLASS_NAMES[i]);
    fputs("\tdram_not_judged\thits_not_judged\n", out);
}

void mc_summary_row(FILE *out, const char *family, const mc_counts *c)
{
    fprintf(out, "%s\t%lu\t%lu\t%.1f", family, c->rows, c->agree,
            c->rows ? 100.0 * (double)c->agree / (double)c->rows : 0.0);
    for (int i = 1; i < MC_NCLASSES; i++) fprintf(out, "\t%lu", c->cls[i]);
    fprintf(out, "\t%lu\t%lu\n", c->not_judged_dram, c->not_judged_hits);
}

/* ---------------------------------------------------------------- repeat */

static const char *const REPEAT_Q[] = {"l1_requests", "l1_sectors", "l1_hits", "l2_requests",
                                       "l2_sectors", "dram_sectors"};
#define REPEAT_NQ (sizeof REPEAT_Q / sizeof REPEAT_Q[0])

/* The runs' rows must be the same launches, row for row. */
int mc_same_rows(const tsv_table *runs, int nruns, char *err, size_t errlen)
{
    static const char *const KEY[] = {"variant", "config", "op", "n", "warps_per_block"};
    for (int i = 0; i < nruns; i++) {
        if (runs[i].nrow != runs[0].nrow) {
            snprintf(err, errlen, "run %d has %zu rows, run 1 has %zu: not the same batch", i + 1,
                     runs[i].nrow, runs[0].nrow);
            return -1;
        }
        for (size_t k = 0; k < sizeof KEY / sizeof KEY[0]; k++) {
            if (tsv_col(&runs[i], KEY[k]) < 0) {
                snprintf(err, errlen, "run %d has no column '%s'", i + 1, KEY[k]);
                return -1;
            }
            for (size_t r = 0; r < runs[0].nrow; r++)
                if (strcmp(tsv_get(&runs[i], r, KEY[k]), tsv_get(&runs[0], r, KEY[k]))) {
                    snprintf(err, errlen, "row %zu: %s is '%s' in run %d, '%s' in run 1: not the same batch",
                             r + 1, KEY[k], tsv_get(&runs[i], r, KEY[k]), i + 1, tsv_get(&runs[0], r, KEY[k]));
                    return -1;
                }
        }
    }
    return 0;
}

/* Row r's spread of quantity q over the runs, in percent of the largest;
 * NAN when a run did not measure it or every run measured 0. */
double mc_row_spread(const tsv_table *runs, int nruns, size_t r, const char *col)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < nruns; i++) {
        const double v = tsv_num(&runs[i], r, col);
        if (isnan(v)) return NAN;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    return hi > 0 ? 100 * (hi - lo) / hi : NAN;
}

int mc_repeat(const tsv_table *runs, int nruns, FILE *out, char *err, size_t errlen)
{
    if (nruns < 2) {
        snprintf(err, errlen, "repeat needs two or more runs of one batch");
        return -1;
    }
    if (mc_same_rows(runs, nruns, err, errlen) != 0) return -1;
    const size_t n = runs[0].nrow;
    double *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    fprintf(out, "op\tquantity\trows\tvarying\tover_1pct\tover_5pct\tmedian_spread_pct\tmax_spread_pct\n");
    static const char *const OPS[] = {"ld", "st"};
    for (size_t o = 0; o < 2; o++)
        for (size_t q = 0; q < REPEAT_NQ; q++) {
            char col[64];
            snprintf(col, sizeof col, "%s_meas", REPEAT_Q[q]);
            if (tsv_col(&runs[0], col) < 0) continue;
            size_t m = 0, varying = 0, over1 = 0, over5 = 0;
            for (size_t r = 0; r < n; r++) {
                if (strcmp(tsv_get(&runs[0], r, "op"), OPS[o])) continue;
                const double d = mc_row_spread(runs, nruns, r, col);
                if (isnan(d)) continue;
                s[m++] = d;
                varying += d > 0;
                over1 += d > 1;
                over5 += d > 5;
            }
            if (!m) continue;
            const double med = stats_median_inplace(s, m);   /* sorts s */
            fprintf(out, "%s\t%s\t%zu\t%zu\t%zu\t%zu\t%.2f\t%.2f\n", OPS[o], REPEAT_Q[q], m, varying, over1,
                    over5, med, s[m - 1]);
        }
    /* the rows that no point prediction inside a bound of SF_BOUND_MAX_FRAC
     * can agree with in every run: a quantity run 1 judged (its `judged`
     * column) spread wider than that */
    if (tsv_col(&runs[0], "judged") >= 0) {
        size_t m = 0, over = 0, over1 = 0;
        for (size_t r = 0; r < n; r++) {
            char list[256];
            snprintf(list, sizeof list, "%s", tsv_get(&runs[0], r, "judged"));
            double worst = -1;
            int beyond = 0;
            /* sf_judge's measurement allowance, each side */
            const double sec = tsv_col(&runs[0], "l1_sectors_meas") >= 0 ? tsv_num(&runs[0], r, "l1_sectors_meas")
                                                                        : NAN;
            const double allow = isnan(sec) ? 0 : 2 * SF_MEAS_TOL_FRAC * sec;
            char *save = NULL;
            for (char *q = strtok_r(list, ",", &save); q; q = strtok_r(NULL, ",", &save)) {
                char col[64];
                snprintf(col, sizeof col, "%s_meas", q);
                const double d = tsv_col(&runs[0], col) >= 0 ? mc_row_spread(runs, nruns, r, col) : NAN;
                if (isnan(d)) continue;
                worst = d > worst ? d : worst;
                double hi = 0;
                for (int i = 0; i < nruns; i++) hi = fmax(hi, tsv_num(&runs[i], r, col));
                beyond |= d > 100 * SF_BOUND_MAX_FRAC && d / 100 * hi > SF_BOUND_MAX_FRAC * hi + allow;
            }
            if (worst < 0) continue;
            s[m++] = worst;
            over += beyond;
            over1 += worst > 1;
        }
        if (m) {
            size_t varying = 0;
            for (size_t i = 0; i < m; i++) varying += s[i] > 0;
            const double med = stats_median_inplace(s, m);   /* sorts s */
            fprintf(out, "all\tany_judged\t%zu\t%zu\t%zu\t%zu\t%.2f\t%.2f\n", m, varying, over1, over, med,
                    s[m - 1]);
        }
    }
    free(s);
    return 0;
}

/* ---------------------------------------------------------------- seeds */

const char *const MC_MODEL_PATHS[] = {
    "src/lib/sector_*", "src/sector", "src/families/*/model.c", "src/families/*/variants.h",
    "src/families/atomics/atomics_model.*", "src/families/atomics/atomics_check.c", NULL,
};

int mc_commit_seeds(const char *hash, uint64_t seed[2], char *err, size_t errlen)
{
    if (!hash || strlen(hash) < 16) {
        snprintf(err, errlen, "'%s' is not a commit hash (16 hex digits at least)", hash ? hash : "");
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        seed[k] = 0;
        for (int i = 0; i < 8; i++) {
            const char ch = hash[8 * k + i];
            const int v = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                        : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
            if (v < 0) {
                snprintf(err, errlen, "'%s' is not a commit hash (a character not hex)", hash);
                return -1;
            }
            seed[k] = seed[k] * 16 + (uint64_t)v;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- fixed batches */

int mc_batch_of_draws(const tsv_table *draws, FILE *batch, char *err, size_t errlen)
{
    static const char *const DCOLS[] = {"id", "family", "variant", "n", "warps_per_block", "args"};
    for (size_t i = 0; i < sizeof DCOLS / sizeof DCOLS[0]; i++)
        if (tsv_col(draws, DCOLS[i]) < 0) {
            snprintf(err, errlen, "%s has no column %s (is it a draws' table?)", draws->name, DCOLS[i]);
            return -1;
        }
    fprintf(batch, "# model_check batch: the fixed configurations of %s\n", draws->name);
    for (size_t r = 0; r < draws->nrow; r++) {
        const char *args = tsv_get(draws, r, "args");
        if (!*args || strchr(args, '#')) {
            snprintf(err, errlen, "%s: row %zu: no args, or a '#' in them", draws->name, r + 1);
            return -1;
        }
        fprintf(batch, "%s  # id=%s variant=%s\n", args, tsv_get(draws, r, "id"), tsv_get(draws, r, "variant"));
    }
    return 0;
}
