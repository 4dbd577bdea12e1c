/*
 * sector_measured.c - sector_measured.h: readonly's measured table judged by
 * the families' model, and its chart of sectors and time against stride.
 * Messages go to stderr as bin/sector_compare's, the one program that calls
 * this.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_measured.h"
#include "gp.h"
#include "sector_families.h"
#include "sector_family.h"
#include "sector_table.h"
#include "tsv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROG "sector_compare"

/* One row: its launch, the model's prediction (when it has one), ncu's counts. */
typedef struct mrow {
    const sf_variant *v;
    uint64_t stride;
    int predicted;
    sf_prediction pr;
    sf_measured m;
    char why[512];          /* why there is no prediction */
} mrow;

/* The model's parameters: the options, else the table's metadata, else the
 * defaults; 0, or 1 after a sentence. */
static int base_params(const tsv_table *t, const char *path, const smt_opts *o, sf_params *p,
                       char *device, size_t dlen)
{
    sf_params_default(p);
    const double n = o->n ? (double)o->n : tsv_meta_num(t, "n");
    const double w = o->wpb ? (double)o->wpb : tsv_meta_num(t, "wpb");
    const double g = o->granule ? (double)o->granule : tsv_meta_num(t, "dram_granularity_bytes");
    const double l2 = o->l2_bytes ? (double)o->l2_bytes : tsv_meta_num(t, "l2_bytes");
    const double seed = tsv_meta_num(t, "seed");
    if (!isnan(n)) {
        if (!(n >= 1 && n <= (double)SF_MAX_N && n == floor(n))) {
            fprintf(stderr, "%s: %s: n %s is not 1..%llu (the model keeps a few bytes per 128 B "
                    "line)\n", PROG, path, o->n ? "given" : tsv_meta(t, "n"),
                    (unsigned long long)SF_MAX_N);
            return 1;
        }
        p->n = (uint64_t)n;
    }
    if (!isnan(w)) {
        if (!(w >= 1 && w <= 32 && w == floor(w))) {
            fprintf(stderr, "%s: %s: wpb %.0f is not 1..32\n", PROG, path, w);
            return 1;
        }
        p->wpb = (unsigned)w;
    }
    if (!isnan(g)) {
        if (g != 32 && g != 64 && g != 128) {
            fprintf(stderr, "%s: %s: dram_granularity_bytes %.0f is not 32, 64 or 128\n", PROG,
                    path, g);
            return 1;
        }
        p->granule_bytes = (unsigned)g;
    }
    if (!isnan(l2)) {
        if (!(l2 >= 128 && l2 <= 1099511627776.0 && l2 == floor(l2))) {
            fprintf(stderr, "%s: %s: l2_bytes %.0f is out of range\n", PROG, path, l2);
            return 1;
        }
        p->l2_bytes = (uint64_t)l2;
    }
    if (o->have_seed)
        p->seed = o->seed;
    else if (!isnan(seed) && seed >= 0 && seed < 1.8e19 && seed == floor(seed))
        p->seed = (uint64_t)seed;
    p->walk = o->walk;
    const char *d = tsv_meta(t, "device");
    snprintf(device, dlen, "%s", d && *d ? d : "-");
    return 0;
}

/* Row r: its variant and stride, ncu's counts, the prediction; 0, or 1
 * after a sentence (an unknown pattern, a wrong element size, no stride). */
static int read_row(const tsv_table *t, size_t r, const char *path, const sf_params *base,
                    mrow *x)
{
    memset(x, 0, sizeof *x);
    const char *pat = tsv_get(t, r, "pattern");
    x->v = sf_find("readonly", pat);
    if (!x->v) {
        fprintf(stderr, "%s: %s: row %zu: unknown pattern '%s'\n", PROG, path, r + 1, pat);
        return 1;
    }
    const unsigned elem = strstr(pat, "float4") ? 16 : 4;
    const double e = tsv_num(t, r, "elem_bytes"), s = tsv_num(t, r, "stride");
    if (tsv_col(t, "elem_bytes") >= 0 && e != elem) {
        fprintf(stderr, "%s: %s: %s reads %u B elements, the row says %s\n", PROG, path, pat,
                elem, tsv_get(t, r, "elem_bytes"));
        return 1;
    }
    if (x->v->cfg == SF_CFG_STRIDE && !(s >= 1 && s <= 1e18 && s == floor(s))) {
        fprintf(stderr, "%s: %s: row %zu (%s): stride '%s' is not a whole number from 1\n", PROG,
                path, r + 1, pat, tsv_get(t, r, "stride"));
        return 1;
    }
    x->stride = x->v->cfg == SF_CFG_STRIDE ? (uint64_t)s : 1;
    sf_measured_clear(&x->m);
    x->m.v[SFM_REQUESTS][SF_LD] = tsv_num(t, r, "l1_requests");
    x->m.v[SFM_SECTORS][SF_LD] = tsv_num(t, r, "l1_sectors");
    x->m.v[SFM_L2_SECTORS][SF_LD] = tsv_num(t, r, "l2_sectors");
    x->m.v[SFM_DRAM][SF_LD] = tsv_num(t, r, "dram_sectors");
    x->m.v[SFM_TIME][0] = tsv_num(t, r, "time_ns");
    sf_params p = *base;
    p.cfg = x->stride;
    x->predicted = sf_predict(x->v, &p, &x->pr, x->why, sizeof x->why) == 0;
    return 0;
}

/* One row of the families' table; returns 1 when it disagrees. */
static int put_row(FILE *out, const mrow *x, const sf_params *p, int markdown)
{
    sct_row g;
    char config[48], note[1024];
    sct_init(&g);
    g.n = (double)p->n;
    g.wpb = p->wpb;
    snprintf(config, sizeof config, x->v->cfg == SF_CFG_STRIDE ? "stride=%llu" : "-",
             (unsigned long long)x->stride);
    g.family = "readonly";
    g.variant = x->v->name;
    g.config = config;
    g.op = "ld";
    if (!x->predicted) {
        sf_prediction none;
        memset(&none, 0, sizeof none);
        sct_fill(&g, &none, &x->m, SF_LD);
        for (int q = 0; q < SCT_N; q++)
            g.p[q] = NAN;
        /* the error and the utilizations need the model's counts and bytes */
        g.m[SCT_DRAMERR] = g.m[SCT_L1U] = g.m[SCT_L2U] = g.m[SCT_DRAMU] = NAN;
        snprintf(note, sizeof note, "not predicted: %s", x->why);
        g.agree = "-";
        g.note = note;
        sct_put(out, &g, markdown);
        return 0;
    }
    sf_verdict vd;
    sf_judge(&x->pr, SF_LD, &x->m, &vd);
    sct_fill(&g, &x->pr, &x->m, SF_LD);
    g.agree = vd.agree ? "yes" : "no";
    g.mismatch = vd.mismatch;
    g.judged = vd.judged_list;
    g.wide = vd.wide_list;
    g.note = vd.note[0] ? vd.note : "-";
    sct_put(out, &g, markdown);
    return !vd.agree;
}

static void num(FILE *f, double v)
{
    if (isnan(v))
        fputs("NA", f);
    else
        fprintf(f, "%.0f", v);
}

/* The chart's two gnuplot data blocks (index 0: 4 B, index 1: 16 B): stride,
 * L1 predicted and measured, L2 measured, DRAM predicted and measured, time. */
static void chart_data(FILE *f, const mrow *rows, size_t n)
{
    static const char *const pats[2] = { "strided", "strided_float4" };
    for (int b = 0; b < 2; b++) {
        fprintf(f, "# %s: stride l1_pred l1_meas l2_meas dram_pred dram_meas time_us\n", pats[b]);
        for (size_t i = 0; i < n; i++) {
            const mrow *x = &rows[i];
            if (strcmp(x->v->name, pats[b]))
                continue;
            fprintf(f, "%llu\t", (unsigned long long)x->stride);
            num(f, x->predicted ? x->pr.op[SF_LD].sectors : NAN);
            fputc('\t', f);
            num(f, x->m.v[SFM_SECTORS][SF_LD]);
            fputc('\t', f);
            num(f, x->m.v[SFM_L2_SECTORS][SF_LD]);
            fputc('\t', f);
            num(f, x->predicted ? x->pr.dram_read_sectors : NAN);
            fputc('\t', f);
            num(f, x->m.v[SFM_DRAM][SF_LD]);
            const double t = x->m.v[SFM_TIME][0];
            if (isnan(t))
                fputs("\tNA\n", f);
            else
                fprintf(f, "\t%.3f\n", t / 1e3);
        }
        fputs("\n\n", f);
    }
}

static const char CHART_PLOT[] =
    "set logscale y 10\n"
    "set ylabel 'sectors (32 B)'\n"
    "set xlabel 'stride (elements)'\n"
    /* at small strides up to four series meet at one point (L1 and DRAM,
     * predicted and measured): predictions are large open markers, one
     * size per level, the measurements small filled ones and crosses
     * inside them; a predicted line ends on its own marker where the
     * model predicts no further */
    "plot dat index 0 using 1:2 with linespoints pt 6 ps 2.4 lc 1 title 'L1 4 B predicted', \\\n"
    "     '' index 0 using 1:3 with points pt 7 ps 0.9 lc 1 title 'L1 4 B measured', \\\n"
    "     '' index 0 using 1:5 with linespoints pt 6 ps 1.6 lc 2 title 'DRAM 4 B predicted', \\\n"
    "     '' index 0 using 1:6 with points pt 1 ps 1.4 lw 2 lc 2 title 'DRAM 4 B measured', \\\n"
    "     '' index 1 using 1:2 with linespoints dt 2 pt 4 ps 2.4 lc 3 title 'L1 16 B predicted', \\\n"
    "     '' index 1 using 1:3 with points pt 5 ps 0.9 lc 3 title 'L1 16 B measured', \\\n"
    "     '' index 1 using 1:5 with linespoints dt 2 pt 4 ps 1.6 lc 4 title 'DRAM 16 B predicted', \\\n"
    "     '' index 1 using 1:6 with points pt 2 ps 1.4 lw 2 lc 4 title 'DRAM 16 B measured'\n"
    "unset logscale y\n"
    "set ylabel 'kernel time (us)'\n"
    "set yrange [0:*]\n"
    "plot dat index 0 using 1:7 with linespoints pt 7 lc 1 title 'time 4 B', \\\n"
    "     '' index 1 using 1:7 with linespoints pt 5 lc 3 title 'time 16 B'\n"
    "unset multiplot\n";

/* Sectors and time against stride through the shared gnuplot job (gp.h):
 * out, and out's stem .gp and .dat beside it, the script re-runnable with
 * `gnuplot -c NAME.gp`; 0, or -1 after a sentence. */
static int write_chart(const char *out, const mrow *rows, size_t n, const sf_params *p,
                       const char *device)
{
    char err[512];
    size_t strided = 0;
    for (size_t i = 0; i < n; i++)
        strided += rows[i].v->cfg == SF_CFG_STRIDE;
    if (!strided) {
        fprintf(stderr, "%s: no strided rows to chart\n", PROG);
        return -1;
    }
    gp_job *job = gp_job_new(out, 900, 900, err, sizeof err);
    FILE *f = job ? gp_job_add_data(job, ".dat", "dat", "w", err, sizeof err) : NULL;
    if (f)
        chart_data(f, rows, n);
    FILE *s = f ? gp_job_script(job, err, sizeof err) : NULL;
    if (!s) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        if (job)
            gp_job_abort(job);
        return -1;
    }
    char title[512];
    snprintf(title, sizeof title, "Sectors moved vs stride%s%s (N = %llu floats, DRAM granule %u B)",
             strcmp(device, "-") ? " on " : "", strcmp(device, "-") ? device : "",
             (unsigned long long)p->n, p->granule_bytes);
    /* the same margins for both panels, so that their stride axes line up
     * whatever the width of each panel's key */
    fprintf(s, "# sectors and time vs stride: predicted by the model (lines), measured by ncu "
            "(points)\nset datafile missing 'NA'\nset datafile separator '\\t'\n"
            "set logscale x 2\nset format x '%%g'\nset grid\nset key outside right top\n"
            "set lmargin at screen 0.11\nset rmargin at screen 0.70\nset multiplot layout 2,1 title ");
    gp_put_str(s, title);
    fprintf(s, "\n%s", CHART_PLOT);
    if (gp_job_finish(job, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return -1;
    }
    return 0;
}

static void head(FILE *out, const char *path, const sf_params *p, const char *device, int markdown)
{
    if (markdown) {
        fprintf(out, "readonly%s%s: predicted / measured per launch, N = %llu, WPB %u, DRAM "
                "granularity %u B, L2 %llu B\n\n", strcmp(device, "-") ? ", " : "",
                strcmp(device, "-") ? device : "", (unsigned long long)p->n, p->wpb,
                p->granule_bytes, (unsigned long long)p->l2_bytes);
        sct_md_header(out);
        return;
    }
    const char *base = strrchr(path, '/');
    fprintf(out, "# sector_compare %s: readonly's measured table against the families' model\n"
            "# family\treadonly\n# device\t%s\n# n\t%llu\n# wpb\t%u\n# dram_granularity_bytes\t%u\n"
            "# l2_bytes\t%llu\n# seed\t%llu\n# model\tdocs/sectors.md; agree = every judged quantity "
            "inside the model's bounds (sector_families.h, sf_judge); - = not predicted\n",
            base ? base + 1 : path, device, (unsigned long long)p->n, p->wpb, p->granule_bytes,
            (unsigned long long)p->l2_bytes, (unsigned long long)p->seed);
    sct_header(out);
}

int smt_compare(FILE *out, FILE *in, const char *path, const smt_opts *o)
{
    char err[512], device[256];
    tsv_table t;
    if (tsv_parse(in, path, &t, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    static const char *const need[] = { "pattern", "stride", "l1_sectors", "l2_sectors",
                                        "dram_sectors" };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (tsv_col(&t, need[i]) < 0) {
            fprintf(stderr, "%s: %s: the header lacks %s (pattern, stride, l1_sectors, "
                    "l2_sectors, dram_sectors: readonly's measured table)\n", PROG, path, need[i]);
            tsv_free(&t);
            return 1;
        }
    sf_params p;
    mrow *rows = calloc(t.nrow ? t.nrow : 1, sizeof *rows);
    int rc = 1;
    if (!rows) {
        fprintf(stderr, "%s: out of memory for %zu rows\n", PROG, t.nrow);
        goto done;
    }
    if (base_params(&t, path, o, &p, device, sizeof device))
        goto done;
    for (size_t r = 0; r < t.nrow; r++)
        if (read_row(&t, r, path, &p, &rows[r]))
            goto done;
    head(out, path, &p, device, o->markdown);
    size_t disagree = 0, none = 0;
    for (size_t r = 0; r < t.nrow; r++) {
        disagree += (size_t)put_row(out, &rows[r], &p, o->markdown);
        none += !rows[r].predicted;
    }
    if (o->markdown)
        fprintf(out, "\n%zu of %zu rows disagree; %zu not predicted.\n", disagree, t.nrow, none);
    for (size_t r = 0; r < t.nrow && none; r++)
        if (!rows[r].predicted) {
            fprintf(stderr, "%s: %zu of %zu rows not predicted (%s: %s)\n", PROG, none, t.nrow,
                    rows[r].v->name, rows[r].why);
            break;
        }
    if (disagree)
        fprintf(stderr, "%s: %zu of %zu rows disagree with the model\n", PROG, disagree, t.nrow);
    rc = o->strict && disagree ? SECTOR_RC_DISAGREE : 0;
    if (o->chart && write_chart(o->chart, rows, t.nrow, &p, device) != 0)
        rc = 1;
done:
    free(rows);
    tsv_free(&t);
    return rc;
}
