/* report_summary.c - a family's summaries: one table per N and WPB, the
 * GPUs side by side, their findings, and bandwidth against WPB
 * (report_cmd.h: rc_sec_family). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "report_cmd.h"
#include "report_glance.h"
#include "sweep.h"

/* One summary table, read. */
typedef struct summary {
    tsv_table t;
    int ok;
} summary;

/* The columns a family's table shows, when any GPU has them. */
typedef struct showcol {
    const char *col, *head, *fmt; /* fmt NULL: the text as it is */
} showcol;

/* The columns that carry the point, in words; the rest (mean and p95
 * latency, the instrumented kernel's time) are in the TSV, linked under
 * each table. */
static const showcol SHOW[] = {
    {"warps_per_block", "warps per block", "%.0f"},
    {"blocks_per_sm", "blocks per SM", "%.0f"},
    {"kernel_ms", "time (ms)", "%.4f"},
    {"gflops", "GFLOP/s", "%.1f"},
    {"bw_GBps", "GB/s", "%.1f"},
    {"pct_peak", "% of peak", "%.1f"},
    {"lat_p50_cycles", "median latency (cycles)", "%.0f"},
    {"overhead_pct", "probe overhead %", "%+.2f"},
    {"sample", "recorded: 1 block in K", NULL},
    {"valid", "valid", NULL},
};
#define NSHOW (sizeof SHOW / sizeof SHOW[0])

/* A column worth showing: present, and not all zero (the uninstrumented
 * runs wrote latencies of 0). */
static int col_useful(const tsv_table *t, const char *col)
{
    if (tsv_col(t, col) < 0) return 0;
    for (size_t r = 0; r < t->nrow; r++) {
        const char *v = tsv_get(t, r, col);
        const double x = tsv_parse_num(v);
        if (isnan(x) ? strcmp(v, "-") && strcmp(v, "nan") : x != 0) return 1;
    }
    return 0;
}

/* 1 when every row's valid column says ok (or the table has none). */
static int all_valid(const tsv_table *t)
{
    for (size_t r = 0; tsv_col(t, "valid") >= 0 && r < t->nrow; r++)
        if (strcmp(tsv_get(t, r, "valid"), "ok")) return 0;
    return 1;
}

/* A row that is no kernel of the family's (cudaMemcpy's): it runs no
 * blocks of ours, so it has no blocks per SM, latency or probes. */
static int not_a_kernel(const tsv_table *t, size_t r)
{
    return tsv_col(t, "blocks_per_sm") >= 0 && tsv_num(t, r, "blocks_per_sm") == 0;
}

/* The bytes a warp of exp's variant asks for in its timed load, from any of
 * its logs' headers; NAN when none is there. */
static double bytes_per_warp(const rc_gpu *G, const char *exp, const char *variant)
{
    const res_file *f = res_find(&G->r, NAMES_LOG, exp, variant, NULL, 0, NULL);
    warplog_header h;
    if (!f || rc_read_header(f->path, &h) != 0 || !h.bytes_per_warp_load) return NAN;
    return h.bytes_per_warp_load;
}

/* The slot figures of exp's variant from its occupancy sweep at WPB wpb, at
 * the point with the row's blocks per SM, when that sweep recorded every
 * block (inflight.h); k is left as it is otherwise. */
static void slot_figures(const rc_gpu *G, const char *exp, rf_kernel *k)
{
    if (!(k->wpb > 0) || !(k->blocks_per_sm > 0)) return;
    const res_file *f = res_find(&G->r, NAMES_SWEEP, exp, k->kernel, NULL, (unsigned)k->wpb, "");
    sweep sw;
    char err[512];
    if (!f || sweep_read(f->path, &sw, err, sizeof err) != 0) return;
    for (size_t q = 0; q < sw.npoints && sweep_has_column(&sw, "slot_period_cycles"); q++) {
        const sweep_point *x = &sw.points[q];
        if (x->blocks_per_sm != k->blocks_per_sm) continue;
        k->slot_period_cycles = x->slot_period_cycles;
        k->slot_rest_cycles = x->slot_rest_cycles;
        k->closure_inflight_err_pct = x->closure_inflight_err_pct;
    }
    sweep_free(&sw);
}

/* The first file fn is called with. */
typedef struct first_arg {
    char base[256];
} first_arg;

static void take_first(const char *base, void *arg)
{
    first_arg *f = arg;
    if (!*f->base) snprintf(f->base, sizeof f->base, "%s", base);
}

/* The summary a family's set would start with, for a "missing" note. */
void rc_first_summary(const rc_gpu *G, const char *exp, char *buf, size_t len)
{
    const struct fam_report *fi = rc_family(exp);
    int quick = 0;
    const char *n = rc_set_n(&G->r, &quick);
    if (fi && fi->expected) {
        first_arg f = {""};
        fi->expected(quick, take_first, &f);
        snprintf(buf, len, "%s", f.base);
        return;
    }
    names_summary(buf, len, exp, res_main_n(&G->r, exp) ? res_main_n(&G->r, exp) : n, 4);
}

/* Every N of exp's top-level summaries on any GPU, sorted. */
static size_t family_ns(const rc_ctx *c, const char *exp, char (*out)[64], size_t max)
{
    size_t n = 0;
    for (int i = 0; i < c->ng; i++)
        for (const res_file *f = res_find(&c->g[i].r, NAMES_SUMMARY, exp, NULL, NULL, 0, ""); f;
             f = res_next(&c->g[i].r, f, NAMES_SUMMARY, exp, NULL, NULL, 0, "")) {
            size_t k = 0;
            while (k < n && strcmp(out[k], f->n)) k++;
            if (k == n && n < max) snprintf(out[n++], 64, "%s", f->n);
        }
    qsort(out, n, sizeof *out, rc_cmp_n);
    return n;
}

/* 1 when the rows of t hold different warps_per_block (variants that fix
 * their own block, as the tiling's). */
static int rows_differ_wpb(const tsv_table *t)
{
    double w = NAN;
    for (size_t r = 0; r < t->nrow; r++) {
        const double x = tsv_num(t, r, "warps_per_block");
        if (!isfinite(x)) continue;
        if (isfinite(w) && x != w) return 1;
        w = x;
    }
    return 0;
}

/* Rows with flops > 0: any (1), all (2), none (0). */
static int compute_rows(const tsv_table *t)
{
    size_t k = 0;
    for (size_t r = 0; r < t->nrow; r++) k += tsv_num(t, r, "flops") > 0;
    return !k ? 0 : k == t->nrow ? 2 : 1;
}

/* What a summary's ms and latency columns measure, from its own columns: a
 * table with instr_ms times the clean twin in kernel_ms and says in `sample`
 * which block in K recorded; one without was written before the clean twin
 * and before sampling: kernel_ms is the instrumented kernel and every block
 * recorded (warplog version 1). */
typedef struct measured {
    int clean;             /* kernel_ms is the clean twin's */
    double kmin, kmax;     /* 1 block in K, over the rows (1 = every block) */
} measured;

static measured measured_of(const tsv_table *t)
{
    measured m = {tsv_col(t, "instr_ms") >= 0, NAN, NAN};
    if (tsv_col(t, "sample") < 0) {
        if (!m.clean) m.kmin = m.kmax = 1;
        return m;
    }
    for (size_t r = 0; r < t->nrow; r++) {
        const double k = tsv_num(t, r, "sample");
        if (!isfinite(k) || k < 1) continue;
        if (!(k >= m.kmin)) m.kmin = k;
        if (!(k <= m.kmax)) m.kmax = k;
    }
    return m;
}

static void sampling_words(const measured *m, char *buf, size_t len)
{
    if (!isfinite(m->kmin)) snprintf(buf, len, "does not say which blocks record");
    else if (m->kmax == 1) snprintf(buf, len, "records every block");
    else if (m->kmin == m->kmax) snprintf(buf, len, "records one block in %.0f", m->kmin);
    else snprintf(buf, len, "records one block in %.0f to %.0f (column \"recorded: 1 block in K\")", m->kmin, m->kmax);
}

/* Where the GPUs' tables of one WPB measure different things, a sentence
 * that says so (0), else -1. */
static int unlike_note(const rc_ctx *c, const measured *m, const int *ok, char *buf, size_t len)
{
    int first = -1, timing = 0, sampling = 0;
    for (int i = 0; i < c->ng; i++) {
        if (!ok[i]) continue;
        if (first < 0) { first = i; continue; }
        timing |= m[i].clean != m[first].clean;
        sampling |= !(m[i].kmin == m[first].kmin && m[i].kmax == m[first].kmax);
    }
    if (first < 0 || (!timing && !sampling)) return -1;
    size_t u = (size_t)snprintf(buf, len, "Not like for like: ");
    int k = 0;
    for (int i = 0; i < c->ng && u < len; i++) {
        if (!ok[i]) continue;
        char w[96];
        sampling_words(&m[i], w, sizeof w);
        u += (size_t)snprintf(buf + u, len - u, "%s%s times %s (ms, GB/s) and %s", k++ ? "; " : "",
                              c->g[i].label, m[i].clean ? "the clean twin" : "the instrumented kernel", w);
    }
    if (u < len)
        snprintf(buf + u, len - u, ".%s%s",
                 sampling ? " The latencies depend on how many blocks record (sampling.tsv shows by how much), "
                            "so they are not measured alike." : "",
                 timing ? " The instrumented kernel's time includes its probes; the column \"time of\" says which "
                          "kernel each row timed." : "");
    return 0;
}

/* The section's title: the family (a name of at most 63 characters, as
 * rc_ctx holds it) and the N of its summaries. */
static void family_title(const char *exp, char (*ns)[64], size_t nn, char *title, size_t len)
{
    if (nn == 1) snprintf(title, len, "%.63s: summaries at N = %.63s", exp, ns[0]);
    else if (nn > 1 && nn <= 4) {
        size_t u = (size_t)snprintf(title, len, "%.63s: summaries at N = ", exp);
        for (size_t k = 0; k < nn && u < len; k++)
            u += (size_t)snprintf(title + u, len - u, "%s%.63s", k ? ", " : "", ns[k]);
    } else if (nn > 4) snprintf(title, len, "%.63s: summaries at %zu sizes, N = %.63s to %.63s", exp, nn, ns[0], ns[nn - 1]);
    else snprintf(title, len, "%.63s: summaries", exp);
}

/* Every WPB of any GPU's summaries of exp at N, ascending. */
static size_t family_wpbs(const rc_ctx *c, const char *exp, const char *n, unsigned *wpbs)
{
    size_t nw = 0;
    for (int i = 0; i < c->ng; i++) {
        unsigned w[RC_MAX_WPB];
        const size_t k = res_wpbs(&c->g[i].r, exp, n, w, RC_MAX_WPB);
        for (size_t j = 0; j < k; j++) {
            size_t q = 0;
            while (q < nw && wpbs[q] != w[j]) q++;
            if (q == nw && nw < RC_MAX_WPB) wpbs[nw++] = w[j];
        }
    }
    for (size_t a = 1; a < nw; a++)
        for (size_t q = a; q > 0 && wpbs[q - 1] > wpbs[q]; q--) { unsigned t = wpbs[q]; wpbs[q] = wpbs[q - 1]; wpbs[q - 1] = t; }
    return nw;
}

/* The GPUs' summaries of one N and WPB, and what the table shows of them. */
typedef struct wpb_tables {
    summary sm[RC_MAX_GPUS];
    measured ms[RC_MAX_GPUS];
    int okv[RC_MAX_GPUS];
    int useful[NSHOW];
    int differ;            /* the rows hold different warps per block */
    int mixed_timing;      /* the GPUs time different kernels */
} wpb_tables;

/* Read the GPUs' summaries of exp at (n, w); a table that cannot be read is
 * named as failed.  Sets *old_format when one lacks instr_ms. */
static void read_wpb_tables(report_doc *d, rd_section *s, const rc_ctx *c, const char *exp, const char *n,
                            unsigned w, wpb_tables *x, int *old_format)
{
    char p[64];
    memset(x, 0, sizeof *x);
    int compute_any = 0, compute_all = 1, any_ok = 0;
    for (int i = 0; i < c->ng; i++) {
        const res_file *f = res_find(&c->g[i].r, NAMES_SUMMARY, exp, NULL, n, w, "");
        char err[512];
        if (!f) continue;
        if (tsv_read(f->path, &x->sm[i].t, err, sizeof err) != 0) {
            char what[1024];
            snprintf(what, sizeof what, "%s%s", rc_pfx(c, &c->g[i], p, sizeof p), f->base);
            rd_failed(d, s, what, err);
            continue;
        }
        x->sm[i].ok = x->okv[i] = any_ok = 1;
        x->ms[i] = measured_of(&x->sm[i].t);
        for (size_t k = 0; k < NSHOW; k++)
            x->useful[k] |= !strcmp(SHOW[k].col, "valid") ? !all_valid(&x->sm[i].t) : col_useful(&x->sm[i].t, SHOW[k].col);
        if (tsv_col(&x->sm[i].t, "instr_ms") < 0) *old_format = 1;
        x->differ |= rows_differ_wpb(&x->sm[i].t);
        const int cr = compute_rows(&x->sm[i].t);
        compute_any |= cr > 0;
        compute_all &= cr == 2;
    }
    if (!any_ok) compute_all = 0;
    /* the columns: warps per block when the rows differ; GFLOP/s for
     * compute kernels, whose GB/s means nothing */
    for (size_t k = 0; k < NSHOW; k++) {
        if (!strcmp(SHOW[k].col, "warps_per_block")) x->useful[k] = x->differ;
        if (!strcmp(SHOW[k].col, "gflops")) x->useful[k] = compute_any;
        if (compute_all && (!strcmp(SHOW[k].col, "bw_GBps") || !strcmp(SHOW[k].col, "pct_peak"))) x->useful[k] = 0;
    }
    for (int i = 0; i < c->ng; i++)
        for (int j = 0; j < c->ng; j++)
            x->mixed_timing |= x->okv[i] && x->okv[j] && x->ms[i].clean != x->ms[j].clean;
}

/* GPU i's part of the joined table (NULL without its summary). */
static rd_table *wpb_part(const wpb_tables *x, int i)
{
    char b[256];
    size_t ncol = 1 + (size_t)x->mixed_timing;
    for (size_t k = 0; k < NSHOW; k++) ncol += x->useful[k];
    if (!x->sm[i].ok) return NULL;
    rd_table *part = rd_table_new(ncol);
    rd_table_set(part, 0, 0, "kernel");
    size_t col = 1;
    for (size_t k = 0; k < NSHOW; k++) {
        if (x->useful[k]) rd_table_set(part, 0, col++, "%s", SHOW[k].head);
        /* where the GPUs time different kernels, which one, beside its ms */
        if (x->mixed_timing && !strcmp(SHOW[k].col, "kernel_ms")) rd_table_set(part, 0, col++, "time of");
    }
    const tsv_table *t = &x->sm[i].t;
    for (size_t r = 0; r < t->nrow; r++) {
        char key[256];
        rc_row_key(t, r, key, sizeof key);
        rd_table_set(part, r + 1, 0, "%s", key);
        col = 1;
        for (size_t k = 0; k < NSHOW; k++) {
            if (x->useful[k]) {
                const char *v = tsv_get(t, r, SHOW[k].col);
                const int per_kernel = strcmp(SHOW[k].col, "kernel_ms") && strcmp(SHOW[k].col, "bw_GBps") &&
                                       strcmp(SHOW[k].col, "pct_peak") && strcmp(SHOW[k].col, "gflops") &&
                                       strcmp(SHOW[k].col, "valid");
                if (per_kernel && not_a_kernel(t, r)) rd_table_set(part, r + 1, col, "-");
                else if (!v && !strcmp(SHOW[k].col, "sample") && x->ms[i].kmax == 1)
                    rd_table_set(part, r + 1, col, "1 (all)");
                else if (!v) rd_table_set(part, r + 1, col, "n/a");
                else if (!SHOW[k].fmt) rd_table_set(part, r + 1, col, "%s", v);
                else rd_table_set(part, r + 1, col, "%s", rc_num(b, sizeof b, SHOW[k].fmt, tsv_parse_num(v)));
                col++;
            }
            if (x->mixed_timing && !strcmp(SHOW[k].col, "kernel_ms"))
                rd_table_set(part, r + 1, col++, "%s", x->ms[i].clean ? "clean twin" : "instrumented");
        }
    }
    return part;
}

/* The findings of GPU i's table: the fastest kernel, Little's law for the
 * variants that are one coalesced stream, the probes' overhead. */
/* 1 when (n, w) is the table the first screen quotes for exp on G: its
 * main N, at 4 warps per block where it has that, else its first WPB. */
static int is_headline_table(const rc_gpu *G, const char *exp, const char *n, unsigned w)
{
    const char *gn = res_main_n(&G->r, exp);
    if (!gn || strcmp(gn, n)) return 0;
    unsigned ws[RC_MAX_WPB];
    const size_t k = res_wpbs(&G->r, exp, gn, ws, RC_MAX_WPB);
    for (size_t j = 0; j < k; j++)
        if (ws[j] == 4) return w == 4;
    return k > 0 && ws[0] == w;
}

/* The fastest row (by GFLOP/s where the rows compute, else GB/s) to the
 * first screen, with its finding; and the Little's-law note of the fastest
 * variant the family lists (else the first such note) as what explains it. */
static void glance_register(const rc_ctx *c, int i, const char *exp, const rf_kernel *k, size_t n,
                            const char *fastest_note, char (*littles)[2048], const int *has_littles)
{
    long best = -1;
    int compute = 0;
    for (size_t r = 0; r < n; r++) compute |= k[r].flops > 0 && isfinite(k[r].gflops);
    for (size_t r = 0; r < n; r++) {
        const double v = compute ? k[r].gflops : k[r].bw_GBps;
        if (isfinite(v) && (best < 0 || v > (compute ? k[best].gflops : k[best].bw_GBps))) best = (long)r;
    }
    if (best < 0) return;
    const rf_kernel *b = &k[best];
    rc_glance_headline(c, i, exp, b->kernel, b->config, b->wpb, b->bw_GBps, b->pct_peak, compute ? b->gflops : NAN,
                       fastest_note);
    char id[96];
    snprintf(id, sizeof id, "family-%s", exp);
    if (has_littles[best]) rc_glance_why(c, i, exp, littles[best], id);
    for (size_t r = 0; r < n; r++)
        if (has_littles[r]) rc_glance_why(c, i, exp, littles[r], id);
}

static void wpb_findings(report_doc *d, rd_section *s, const rc_ctx *c, int i, const char *exp,
                         const tsv_table *t, int headline)
{
    const struct fam_report *fi = rc_family(exp);
    char note[2048], p[64];
    rf_kernel *k = rc_xcalloc(t->nrow, sizeof *k);
    for (size_t r = 0; r < t->nrow; r++) {
        rf_kernel_read(t, r, &k[r]);
        if (fi && rc_in_list(fi->littles_variants, k[r].kernel)) {
            k[r].bytes_per_warp = bytes_per_warp(&c->g[i], exp, k[r].kernel);
            slot_figures(&c->g[i], exp, &k[r]);
        }
    }
    rc_pfx(c, &c->g[i], p, sizeof p);
    char fastest[2048] = "";
    if (rf_fastest_note(k, t->nrow, &c->g[i].dev, note, sizeof note) == 0) {
        rd_finding(d, s, "%s%s", p, note);
        snprintf(fastest, sizeof fastest, "%s", note);
    }
    char (*littles)[2048] = rc_xcalloc(t->nrow ? t->nrow : 1, sizeof *littles);
    int *has = rc_xcalloc(t->nrow ? t->nrow : 1, sizeof *has);
    for (size_t r = 0; r < t->nrow; r++)
        if (rf_littles_note(&k[r], &c->g[i].dev, littles[r], sizeof littles[r]) == 0) {
            rd_finding(d, s, "%s%s", p, littles[r]);
            has[r] = 1;
        }
    if (headline && *fastest) glance_register(c, i, exp, k, t->nrow, fastest, littles, has);
    if (rf_overhead_note(k, t->nrow, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
    free(littles);
    free(has);
    free(k);
}

/* One table: the summaries of exp at (n, w), the GPUs side by side. */
static void wpb_table(report_doc *d, rd_section *s, const rc_ctx *c, const char *exp, const char *n, int several_n,
                      unsigned w, const int *have, int *old_format)
{
    wpb_tables *x = rc_xcalloc(1, sizeof *x);
    read_wpb_tables(d, s, c, exp, n, w, x, old_format);
    if (x->differ)
        rd_heading(d, s, "%s%s%seach variant at its own warps per block (the file's WPB is %u)",
                   several_n ? "N = " : "", several_n ? n : "", several_n ? ", " : "", w);
    else if (several_n) rd_heading(d, s, "N = %s, %u warps per block", n, w);
    else rd_heading(d, s, "%u warps per block", w);
    char unlike[1024];
    const int mixed = unlike_note(c, x->ms, x->okv, unlike, sizeof unlike) == 0;
    if (mixed) rd_finding(d, s, "%s", unlike);
    /* one table per GPU, each with its findings and its full TSV: side by
     * side, the GPUs' halves did not fit a page */
    for (int i = 0; i < c->ng; i++) {
        if (!x->sm[i].ok) {
            if (!have[i]) continue; /* said once above */
            char base[256];
            names_summary(base, sizeof base, exp, n, w);
            rc_missing(d, s, c, &c->g[i], base, NULL);
            continue;
        }
        if (c->ng > 1) rd_para(d, s, "%s (%s):", c->g[i].label, c->g[i].name);
        rd_table_add(d, s, wpb_part(x, i));
        const res_file *f = res_find(&c->g[i].r, NAMES_SUMMARY, exp, NULL, n, w, "");
        if (f) {
            rd_links_start(d, s, "every column (mean and p95 latency, the instrumented time):");
            rd_link(d, s, rc_rel_to_out(c, f->path), f->base);
        }
        wpb_findings(d, s, c, i, exp, &x->sm[i].t, is_headline_table(&c->g[i], exp, n, w));
    }
    for (int i = 0; i < c->ng; i++) if (x->sm[i].ok) tsv_free(&x->sm[i].t);
    free(x);
}

/* GPU G's bandwidth of each variant against WPB, at its main N, in one
 * finding. */
static void bw_by_wpb(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const char *exp)
{
    char p[64];
    const char *gn = res_main_n(&G->r, exp);
    if (!gn) return;
    unsigned w[RC_MAX_WPB];
    const size_t k = res_wpbs(&G->r, exp, gn, w, RC_MAX_WPB);
    /* variants in the order of the first table */
    tsv_table t0[RC_MAX_WPB];
    int ok[RC_MAX_WPB] = {0};
    for (size_t j = 0; j < k; j++) {
        char err[512];
        const res_file *f = res_find(&G->r, NAMES_SUMMARY, exp, NULL, gn, w[j], "");
        ok[j] = f && tsv_read(f->path, &t0[j], err, sizeof err) == 0;
    }
    char all[4096] = "";
    size_t used = 0;
    for (size_t r = 0; k && ok[0] && r < t0[0].nrow; r++) {
        char key[256];
        rc_row_key(&t0[0], r, key, sizeof key);
        double bw[RC_MAX_WPB];
        for (size_t j = 0; j < k; j++) {
            bw[j] = NAN;
            for (size_t q = 0; ok[j] && q < t0[j].nrow; q++) {
                char kk[256];
                rc_row_key(&t0[j], q, kk, sizeof kk);
                if (!strcmp(kk, key)) bw[j] = tsv_num(&t0[j], q, "bw_GBps");
            }
        }
        char one[512];
        if (rf_bw_series(key, w, bw, k, one, sizeof one) == 0) {
            const int m = snprintf(all + used, sizeof all - used, "%s%s", used ? "; " : "", one);
            if (m > 0 && (size_t)m < sizeof all - used) used += (size_t)m;
        }
    }
    for (size_t j = 0; j < k; j++) if (ok[j]) tsv_free(&t0[j]);
    if (used) rd_finding(d, s, "%sBandwidth by warps per block: %s.", rc_pfx(c, G, p, sizeof p), all);
}

/* Across WPB: only where a GPU has summaries at several WPBs of one N. */
static void across_wpb(report_doc *d, rd_section *s, const rc_ctx *c, const char *exp)
{
    char p[64];
    int several = 0;
    for (int i = 0; i < c->ng; i++) {
        unsigned w[RC_MAX_WPB];
        const char *gn = res_main_n(&c->g[i].r, exp);
        several |= gn && res_wpbs(&c->g[i].r, exp, gn, w, RC_MAX_WPB) >= 2;
    }
    if (!several) return;
    rd_heading(d, s, "Bandwidth against warps per block");
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        const char *gn = res_main_n(&G->r, exp);
        if (!gn) continue;
        char rel[1024], cap[256];
        rc_chart_rel(rel, sizeof rel, G, "bandwidth_%s", exp);
        snprintf(cap, sizeof cap, "%s%s: GB/s against warps per block (N = %s)", rc_pfx(c, G, p, sizeof p), exp, gn);
        rc_figure(d, s, c, rel, cap);
    }
    for (int i = 0; i < c->ng; i++) bw_by_wpb(d, s, c, &c->g[i], exp);
}

void rc_sec_family(report_doc *d, const rc_ctx *c, const char *exp)
{
    char id[96], title[512];
    snprintf(id, sizeof id, "family-%s", exp);
    char ns[64][64];
    const size_t nn = family_ns(c, exp, ns, 64);
    family_title(exp, ns, nn, title, sizeof title);
    rd_section *s = rd_section_add(d, id, title);
    const char *about = rc_family_text(exp)->about;
    rd_para(d, s, "%s", about ? about
                              : "One row per variant (and configuration) of the family, from its summary "
                                "tables (./FAMILY N 0 WPB --table FILE): kernel_ms is the clean twin's median "
                                "time, GB/s the bytes it moves over that time, the latency columns the "
                                "instrumented kernel's per-warp latency (SM cycles).");
    /* a GPU without any summary of the family: one note, the first file */
    int have[RC_MAX_GPUS] = {0};
    for (int i = 0; i < c->ng; i++) {
        have[i] = res_find(&c->g[i].r, NAMES_SUMMARY, exp, NULL, NULL, 0, "") != NULL;
        if (have[i]) continue;
        char base[256];
        rc_first_summary(&c->g[i], exp, base, sizeof base);
        rc_missing(d, s, c, &c->g[i], base, NULL);
    }
    if (!nn) return;
    int old_format = 0;
    for (size_t ni = 0; ni < nn; ni++) {
        unsigned wpbs[RC_MAX_WPB];
        const size_t nw = family_wpbs(c, exp, ns[ni], wpbs);
        for (size_t wi = 0; wi < nw; wi++) wpb_table(d, s, c, exp, ns[ni], nn > 1, wpbs[wi], have, &old_format);
    }
    if (old_format)
        rd_para(d, s, "A summary without the instr_ms column was written before the engine timed a "
                      "clean twin: its kernel_ms is the instrumented kernel's time (its log's probes "
                      "included).");
    across_wpb(d, s, c, exp);
    rd_links_start(d, s, "Tables:");
    for (int i = 0; i < c->ng; i++)
        for (const res_file *f = res_find(&c->g[i].r, NAMES_SUMMARY, exp, NULL, NULL, 0, NULL); f;
             f = res_next(&c->g[i].r, f, NAMES_SUMMARY, exp, NULL, NULL, 0, NULL)) {
            char text[512];
            snprintf(text, sizeof text, "%s/%s", c->g[i].label, f->rel);
            rd_link(d, s, rc_rel_to_out(c, f->path), text);
        }
}
