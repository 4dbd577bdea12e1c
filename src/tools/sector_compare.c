/*
 * sector_compare - what the sector model predicts next to what Nsight Compute
 * measured, row by row, with a verdict for each.
 *
 *   sector_compare MEASURED.tsv [--generic] [--markdown] [--strict] [--chart OUT.svg]
 *                  [--n N] [--dram-granularity B] [--l2-bytes B] [--reuse lru|all|none]
 *                  [--wpb W] [--seed S] [--out FILE]
 *       the readonly family: MEASURED.tsv is the table scripts/ncu_profile.sh
 *       writes for it ("#" metadata, then pattern, elem_bytes, stride,
 *       l1_sectors, l2_sectors, dram_sectors, and l1_requests, time_ns when
 *       present).  A row agrees when its L1 sectors equal the prediction and its
 *       DRAM sectors are within 5 %.  --generic prints the same verdicts in the
 *       families' table (below).
 *
 *   sector_compare --family copy|patterns|stencil --runs RUNS.tsv --ncu NCU.tsv
 *                  [--dram-granularity B] [--l2-bytes B] [--seed S]
 *                  [--n0 N0 --n1 N1 --radius R --lead-pad --pad-leading-dim]
 *                  [--markdown] [--strict] [--out FILE]
 *       RUNS.tsv is the engine's table of the profiled run (./F_profile ...
 *       --table RUNS.tsv: columns kernel, config, n, warps_per_block, one row
 *       per variant and configuration in launch order); NCU.tsv is
 *       bin/ncu_extract's table of the ncu log (kernel, id, one column per
 *       metric).  The k-th launch of kernel F_V pairs with the k-th row of V.
 *       Output: one row per variant, configuration and op (ld, st), the
 *       predicted and measured quantities side by side (columns *_pred,
 *       *_meas), agree (yes/no), mismatch (the quantities outside the model's
 *       bounds), the lab's figure (lab, lab_source, lab_vs_model) and a note.
 *       Judging: sector_families.h, sf_judge.
 *
 * Exit status: 0; with --strict 1 when any row disagrees; 1 on a runtime
 * failure (unreadable file, gnuplot failed, a write failed); 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "gp.h"
#include "outfile.h"
#include "sector_families.h"
#include "sector_family.h"
#include "sector_model.h"
#include "tsv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "sector_compare"

/* Where the table goes: stdout, or --out FILE through outfile (whole). */
static FILE *OUT;

/* readonly_mode's status when --strict and a row disagrees: the table is
 * whole and kept, the exit status is 1 */
#define RC_STRICT_DISAGREE 3
#define DRAM_TOL 0.05
#define L1_EXPECTED_TOL 1e-4
#define MAX_ROWS 1024
#define MAX_COLS 64

typedef struct row {
    char pattern[64];
    unsigned elem_bytes;
    uint64_t stride;
    double l1_requests, l1_sectors, l2_sectors, dram_sectors, time_ns; /* NAN = absent */
    sm_prediction pred;
    int l1_ok, dram_ok, ok;
    double l2_err, dram_err;
} row;

static int parse_num(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    double d;
    if (parse_num(s, &d) || d < 0 || d > 1.8e19 || d != floor(d))
        return -1;
    *out = (uint64_t)d;
    return 0;
}

/* Split a TSV line in place. */
static int split_tab(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line;;) {
        if (n < max)
            f[n] = p;
        n++;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = 0;
        p = t + 1;
    }
    return n;
}

static double field_num(char **f, int nf, int col)
{
    double v;
    if (col < 0 || col >= nf || parse_num(f[col], &v))
        return NAN;
    return v;
}

typedef struct meta {
    uint64_t n, wpb, granule, l2_bytes, seed;
    int have_n, have_wpb, have_granule, have_l2, have_seed;
    char device[128];
} meta;

static int read_table(const char *path, row *rows, int *nrows, meta *m, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    char line[4096];
    char *f[MAX_COLS];
    int c_pat = -1, c_elem = -1, c_stride = -1, c_req = -1, c_l1 = -1, c_l2 = -1, c_dram = -1,
        c_time = -1, have_header = 0, lineno = 0;
    *nrows = 0;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == '#') {
            char *k = line + 1;
            while (*k == ' ')
                k++;
            char *tab = strchr(k, '\t');
            if (!tab)
                continue;
            *tab = 0;
            const char *v = tab + 1;
            uint64_t x;
            if (!strcmp(k, "n") && !parse_u64(v, &x))
                m->n = x, m->have_n = 1;
            else if (!strcmp(k, "wpb") && !parse_u64(v, &x))
                m->wpb = x, m->have_wpb = 1;
            else if (!strcmp(k, "dram_granularity_bytes") && !parse_u64(v, &x))
                m->granule = x, m->have_granule = 1;
            else if (!strcmp(k, "l2_bytes") && !parse_u64(v, &x))
                m->l2_bytes = x, m->have_l2 = 1;
            else if (!strcmp(k, "seed") && !parse_u64(v, &x))
                m->seed = x, m->have_seed = 1;
            else if (!strcmp(k, "device"))
                snprintf(m->device, sizeof m->device, "%s", v);
            continue;
        }
        if (line[0] == 0)
            continue;
        int nf = split_tab(line, f, MAX_COLS);
        if (nf > MAX_COLS)
            nf = MAX_COLS;
        if (!have_header) {
            for (int i = 0; i < nf; i++) {
                if (!strcmp(f[i], "pattern")) c_pat = i;
                else if (!strcmp(f[i], "elem_bytes")) c_elem = i;
                else if (!strcmp(f[i], "stride")) c_stride = i;
                else if (!strcmp(f[i], "l1_requests")) c_req = i;
                else if (!strcmp(f[i], "l1_sectors")) c_l1 = i;
                else if (!strcmp(f[i], "l2_sectors")) c_l2 = i;
                else if (!strcmp(f[i], "dram_sectors")) c_dram = i;
                else if (!strcmp(f[i], "time_ns")) c_time = i;
            }
            if (c_pat < 0 || c_elem < 0 || c_stride < 0 || c_l1 < 0 || c_l2 < 0 || c_dram < 0) {
                snprintf(err, errlen, "%s:%d: the header lacks one of pattern, elem_bytes, "
                         "stride, l1_sectors, l2_sectors, dram_sectors", path, lineno);
                fclose(fp);
                return -1;
            }
            have_header = 1;
            continue;
        }
        if (*nrows >= MAX_ROWS) {
            snprintf(err, errlen, "%s: more than %d rows", path, MAX_ROWS);
            fclose(fp);
            return -1;
        }
        row *r = &rows[*nrows];
        memset(r, 0, sizeof *r);
        uint64_t e, s;
        if (c_pat >= nf || c_elem >= nf || c_stride >= nf || parse_u64(f[c_elem], &e) ||
            parse_u64(f[c_stride], &s)) {
            snprintf(err, errlen, "%s:%d: cannot read pattern, elem_bytes and stride", path,
                     lineno);
            fclose(fp);
            return -1;
        }
        snprintf(r->pattern, sizeof r->pattern, "%s", f[c_pat]);
        r->elem_bytes = (unsigned)e;
        r->stride = s;
        r->l1_requests = field_num(f, nf, c_req);
        r->l1_sectors = field_num(f, nf, c_l1);
        r->l2_sectors = field_num(f, nf, c_l2);
        r->dram_sectors = field_num(f, nf, c_dram);
        r->time_ns = field_num(f, nf, c_time);
        (*nrows)++;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        snprintf(err, errlen, "cannot read %s", path);
        return -1;
    }
    if (!have_header) {
        snprintf(err, errlen, "%s has no header row", path);
        return -1;
    }
    return 0;
}

static double rel_err(double meas, double pred)
{
    if (isnan(meas))
        return NAN;
    if (pred == 0)
        return meas == 0 ? 0 : INFINITY;
    return (meas - pred) / pred;
}

static void num(FILE *f, double v)
{
    if (isnan(v))
        fprintf(f, "NA");
    else
        fprintf(f, "%.0f", v);
}

static void pct(FILE *f, double v)
{
    if (isnan(v))
        fprintf(f, "NA");
    else
        fprintf(f, "%+.2f", 100 * v);
}

/* x / y, NAN when either is absent or y is 0. */
static double ratio(double x, double y)
{
    return (isnan(x) || isnan(y) || y == 0) ? NAN : x / y;
}

/*
 * The gathers side by side, as the original study put them ("about 5x the
 * bytes, about 20x the time"): coalesced (nondiverging) and divergent
 * (random_access) L1 sectors, DRAM bytes and time, and divergent/coalesced.
 * Printed only when both rows are in the table.
 */
static void print_gathers(const row *rows, int nrows, int markdown)
{
    const row *co = NULL, *dv = NULL;
    for (int i = 0; i < nrows; i++) {
        if (!strcmp(rows[i].pattern, "nondiverging"))
            co = &rows[i];
        else if (!strcmp(rows[i].pattern, "random_access"))
            dv = &rows[i];
    }
    if (!co || !dv)
        return;
    struct {
        const char *name, *tsv;
        double c, d;
    } q[5] = {
        { "L1 sectors, predicted", "l1_sectors_pred", co->pred.l1_sectors, dv->pred.l1_sectors },
        { "L1 sectors, measured", "l1_sectors_meas", co->l1_sectors, dv->l1_sectors },
        { "DRAM bytes, predicted", "dram_bytes_pred",
          co->pred.dram_sectors * SM_SECTOR_BYTES, dv->pred.dram_sectors * SM_SECTOR_BYTES },
        { "DRAM bytes, measured", "dram_bytes_meas",
          co->dram_sectors * SM_SECTOR_BYTES, dv->dram_sectors * SM_SECTOR_BYTES },
        { "Time (us), measured", "time_ns_meas", co->time_ns, dv->time_ns },
    };
    if (markdown) {
        fprintf(OUT, "\nGathers: coalesced (nondiverging) vs divergent (random_access)\n\n");
        fprintf(OUT, "| Quantity | Coalesced | Divergent | Divergent / coalesced |\n");
        fprintf(OUT, "|---|---:|---:|---:|\n");
        for (int i = 0; i < 5; i++) {
            double sc = i == 4 ? 1e-3 : 1; /* time in us */
            fprintf(OUT, "| %s | ", q[i].name);
            if (i == 4 && !isnan(q[i].c)) fprintf(OUT, "%.1f", q[i].c * sc); else num(OUT, q[i].c);
            fprintf(OUT, " | ");
            if (i == 4 && !isnan(q[i].d)) fprintf(OUT, "%.1f", q[i].d * sc); else num(OUT, q[i].d);
            double r = ratio(q[i].d, q[i].c);
            if (isnan(r))
                fprintf(OUT, " | NA |\n");
            else
                fprintf(OUT, " | %.2fx |\n", r);
        }
        return;
    }
    fprintf(OUT, "\n# gathers: coalesced = nondiverging, divergent = random_access\n");
    fprintf(OUT, "quantity\tcoalesced\tdivergent\tratio\n");
    for (int i = 0; i < 5; i++) {
        fprintf(OUT, "%s\t", q[i].tsv);
        num(OUT, q[i].c);
        fprintf(OUT, "\t");
        num(OUT, q[i].d);
        double r = ratio(q[i].d, q[i].c);
        if (isnan(r))
            fprintf(OUT, "\tNA\n");
        else
            fprintf(OUT, "\t%.4f\n", r);
    }
}

/* Draw sectors and time against stride through the shared gnuplot job
 * (src/lib/gp.h): OUT plus OUT's stem .gp and .dat beside it, written
 * atomically, the script re-runnable with `gnuplot -c NAME.gp`. */
static int write_chart(const char *out, const row *rows, int nrows, const meta *m)
{
    char err[512];
    int counts[2] = { 0, 0 };
    const char *pats[2] = { "strided", "strided_float4" };
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < nrows; i++)
            counts[b] += !strcmp(rows[i].pattern, pats[b]);
    if (counts[0] + counts[1] == 0) {
        fprintf(stderr, "sector_compare: no strided rows to chart\n");
        return -1;
    }
    gp_job *job = gp_job_new(out, 900, 900, err, sizeof err);
    if (!job) {
        fprintf(stderr, "sector_compare: %s\n", err);
        return -1;
    }
    FILE *f = gp_job_add_data(job, ".dat", "dat", "w", err, sizeof err);
    if (!f) {
        fprintf(stderr, "sector_compare: %s\n", err);
        gp_job_abort(job);
        return -1;
    }
    /* Two gnuplot data blocks (index 0: 4 B, index 1: 16 B elements). */
    for (int b = 0; b < 2; b++) {
        fprintf(f, "# %s: stride l1_pred l1_meas l2_meas dram_pred dram_meas time_us\n", pats[b]);
        for (int i = 0; i < nrows; i++) {
            if (strcmp(rows[i].pattern, pats[b]))
                continue;
            fprintf(f, "%llu\t%.0f\t", (unsigned long long)rows[i].stride,
                    rows[i].pred.l1_sectors);
            num(f, rows[i].l1_sectors);
            fputc('\t', f);
            num(f, rows[i].l2_sectors);
            fprintf(f, "\t%.0f\t", rows[i].pred.dram_sectors);
            num(f, rows[i].dram_sectors);
            if (isnan(rows[i].time_ns))
                fprintf(f, "\tNA\n");
            else
                fprintf(f, "\t%.3f\n", rows[i].time_ns / 1e3);
        }
        fprintf(f, "\n\n");
    }
    FILE *s = gp_job_script(job, err, sizeof err);
    if (!s) {
        fprintf(stderr, "sector_compare: %s\n", err);
        gp_job_abort(job);
        return -1;
    }
    char title[512];
    snprintf(title, sizeof title, "Sectors moved vs stride%s%s (N = %llu floats, DRAM granule %llu B)",
             m->device[0] ? " on " : "", m->device, (unsigned long long)m->n,
             (unsigned long long)m->granule);
    fprintf(s,
        "# sectors and time vs stride: predicted by the model (lines), measured by ncu (points)\n"
        "set datafile missing 'NA'\n"
        "set datafile separator '\\t'\n"
        "set logscale x 2\n"
        "set format x '%%g'\n"
        "set grid\n"
        "set key outside right top\n"
        /* the same margins for both panels, so that their stride axes line
         * up whatever the width of each panel's key */
        "set lmargin at screen 0.11\n"
        "set rmargin at screen 0.70\n"
        "set multiplot layout 2,1 title ");
    gp_put_str(s, title);
    fprintf(s, "\n"
        "set logscale y 10\n"
        "set ylabel 'sectors (32 B)'\n"
        "set xlabel 'stride (elements)'\n"
        "plot dat index 0 using 1:2 with lines lc 1 title 'L1 4 B predicted', \\\n"
        "     '' index 0 using 1:3 with points pt 7 lc 1 title 'L1 4 B measured', \\\n"
        "     '' index 0 using 1:5 with lines lc 2 title 'DRAM 4 B predicted', \\\n"
        "     '' index 0 using 1:6 with points pt 7 lc 2 title 'DRAM 4 B measured', \\\n"
        "     '' index 1 using 1:2 with lines dt 2 lc 3 title 'L1 16 B predicted', \\\n"
        "     '' index 1 using 1:3 with points pt 5 lc 3 title 'L1 16 B measured', \\\n"
        "     '' index 1 using 1:5 with lines dt 2 lc 4 title 'DRAM 16 B predicted', \\\n"
        "     '' index 1 using 1:6 with points pt 5 lc 4 title 'DRAM 16 B measured'\n"
        "unset logscale y\n"
        "set ylabel 'kernel time (us)'\n"
        "set yrange [0:*]\n"
        "plot dat index 0 using 1:7 with linespoints pt 7 lc 1 title 'time 4 B', \\\n"
        "     '' index 1 using 1:7 with linespoints pt 5 lc 3 title 'time 16 B'\n"
        "unset multiplot\n");
    if (gp_job_finish(job, err, sizeof err) != 0) {
        fprintf(stderr, "sector_compare: %s\n", err);
        return -1;
    }
    return 0;
}


/* ------------------------------------------------------------ the families' table */

enum {
    GQ_REQ, GQ_INSTR, GQ_SEC, GQ_SPR, GQ_WF, GQ_DWF, GQ_HITS, GQ_HITS_MAX, GQ_HITPCT, GQ_L2REQ,
    GQ_L2REQ_MIN, GQ_L2SEC, GQ_L2SEC_MIN, GQ_DRAM, GQ_DRAMERR, GQ_L1U, GQ_L2U, GQ_DRAMU,
    GQ_BLOCKS, GQ_TIME, GQ_N
};

/* One row of the table; NAN = not predicted / not measured. */
typedef struct gen {
    const char *family, *variant, *config, *op;
    double p[GQ_N], m[GQ_N];
    const char *agree, *mismatch, *lab, *lab_source, *lab_vs_model, *note;
} gen;

/* name, whether it has a _pred and a _meas column, printf format */
static const struct gcol { int q; const char *pred, *meas, *fmt; } GCOLS[] = {
    { GQ_REQ, "l1_requests_pred", "l1_requests_meas", "%.0f" },
    { GQ_INSTR, NULL, "instructions_meas", "%.0f" },
    { GQ_SEC, "l1_sectors_pred", "l1_sectors_meas", "%.0f" },
    { GQ_SPR, "sectors_per_request_pred", "sectors_per_request_meas", "%.4f" },
    { GQ_WF, "wavefronts_pred", "wavefronts_meas", "%.0f" },
    { GQ_DWF, NULL, "data_wavefronts_meas", "%.0f" },
    { GQ_HITS, "l1_hits_pred", NULL, "%.0f" },
    { GQ_HITS_MAX, "l1_hits_max_pred", NULL, "%.0f" },
    { GQ_HITS, NULL, "l1_hits_meas", "%.0f" },
    { GQ_HITPCT, "l1_hit_pct_pred", "l1_hit_pct_meas", "%.2f" },
    { GQ_L2REQ, "l2_requests_pred", NULL, "%.0f" },
    { GQ_L2REQ_MIN, "l2_requests_min_pred", NULL, "%.0f" },
    { GQ_L2REQ, NULL, "l2_requests_meas", "%.0f" },
    { GQ_L2SEC, "l2_sectors_pred", NULL, "%.0f" },
    { GQ_L2SEC_MIN, "l2_sectors_min_pred", NULL, "%.0f" },
    { GQ_L2SEC, NULL, "l2_sectors_meas", "%.0f" },
    { GQ_DRAM, "dram_sectors_pred", "dram_sectors_meas", "%.0f" },
    { GQ_DRAMERR, NULL, "dram_err_pct", "%+.2f" },
    { GQ_L1U, "l1_util_pct_pred", "l1_util_pct_meas", "%.2f" },
    { GQ_L2U, "l2_util_pct_pred", "l2_util_pct_meas", "%.2f" },
    { GQ_DRAMU, "dram_util_pct_pred", "dram_util_pct_meas", "%.2f" },
    { GQ_BLOCKS, "blocks_pred", "blocks_meas", "%.0f" },
    { GQ_TIME, NULL, "time_ns", "%.0f" },
};
#define NGCOLS (sizeof GCOLS / sizeof GCOLS[0])

static void gen_init(gen *g)
{
    memset(g, 0, sizeof *g);
    for (int i = 0; i < GQ_N; i++)
        g->p[i] = g->m[i] = NAN;
    g->agree = "no";
    g->mismatch = g->lab = g->lab_source = g->lab_vs_model = g->note = "-";
}

static double ratio_pct(double num_, double den)
{
    return isnan(num_) || isnan(den) || den <= 0 ? NAN : 100 * num_ / den;
}

/* Derived columns: sectors per request, hit rate, utilizations, DRAM error. */
static void gen_derive(gen *g, double bytes)
{
    for (int s = 0; s < 2; s++) {
        double *v = s ? g->m : g->p;
        v[GQ_SPR] = isnan(v[GQ_SEC]) || isnan(v[GQ_REQ]) || v[GQ_REQ] <= 0 ? NAN
                                                                           : v[GQ_SEC] / v[GQ_REQ];
        v[GQ_HITPCT] = ratio_pct(v[GQ_HITS], v[GQ_SEC]);
        /* bytes asked are the program's, known exactly from the addresses */
        v[GQ_L1U] = ratio_pct(bytes, 32 * v[GQ_SEC]);
        v[GQ_L2U] = ratio_pct(bytes, 32 * v[GQ_L2SEC]);
        v[GQ_DRAMU] = ratio_pct(bytes, 32 * v[GQ_DRAM]);
    }
    g->m[GQ_DRAMERR] = isnan(g->m[GQ_DRAM]) || isnan(g->p[GQ_DRAM]) || g->p[GQ_DRAM] == 0
                           ? NAN : 100 * (g->m[GQ_DRAM] - g->p[GQ_DRAM]) / g->p[GQ_DRAM];
}

static void gen_header(void)
{
    fputs("family\tvariant\tconfig\top", OUT);
    for (size_t i = 0; i < NGCOLS; i++) {
        if (GCOLS[i].pred)
            fprintf(OUT, "\t%s", GCOLS[i].pred);
        if (GCOLS[i].meas)
            fprintf(OUT, "\t%s", GCOLS[i].meas);
    }
    fputs("\tagree\tmismatch\tlab\tlab_source\tlab_vs_model\tnote\n", OUT);
}

static void put_v(double v, const char *fmt)
{
    if (isnan(v))
        fputs("NA", OUT);
    else
        fprintf(OUT, fmt, v);
}

/* A text field with tabs and newlines made blanks (one row per line). */
static void put_text(const char *s)
{
    if (!s || !*s) {
        fputs("-", OUT);
        return;
    }
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, OUT);
}

static void gen_tsv(const gen *g)
{
    fprintf(OUT, "%s\t%s\t%s\t%s", g->family, g->variant, g->config, g->op);
    for (size_t i = 0; i < NGCOLS; i++) {
        if (GCOLS[i].pred) {
            fputc('\t', OUT);
            put_v(g->p[GCOLS[i].q], GCOLS[i].fmt);
        }
        if (GCOLS[i].meas) {
            fputc('\t', OUT);
            put_v(g->m[GCOLS[i].q], GCOLS[i].fmt);
        }
    }
    const char *t[6] = { g->agree, g->mismatch, g->lab, g->lab_source, g->lab_vs_model, g->note };
    for (int i = 0; i < 6; i++) {
        fputc('\t', OUT);
        put_text(t[i]);
    }
    fputc('\n', OUT);
}

static void md_header(void)
{
    fputs("| Variant | Config | Op | Requests | Sectors | Wavefronts | L1 hits | L2 requests "
          "| L2 sectors | DRAM sectors | L1 util | Lab | Agree |\n"
          "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n", OUT);
}

/* "pred / meas" with an optional lower or upper bound of the prediction. */
static void md_pair(double pred, double lo, double hi, double meas, const char *fmt)
{
    fputs(" | ", OUT);
    if (isnan(lo)) {
        put_v(pred, fmt);
    } else {
        put_v(lo, fmt);
        if (!isnan(hi) && hi != lo) {
            fputs("..", OUT);
            put_v(hi, fmt);
        }
    }
    fputs(" / ", OUT);
    put_v(meas, fmt);
}

static void gen_md(const gen *g)
{
    fprintf(OUT, "| %s | %s | %s", g->variant, g->config, g->op);
    md_pair(g->p[GQ_REQ], NAN, NAN, g->m[GQ_REQ], "%.0f");
    md_pair(g->p[GQ_SEC], NAN, NAN, g->m[GQ_SEC], "%.0f");
    md_pair(g->p[GQ_WF], NAN, NAN, g->m[GQ_WF], "%.0f");
    md_pair(g->p[GQ_HITS], g->p[GQ_HITS], g->p[GQ_HITS_MAX], g->m[GQ_HITS], "%.0f");
    md_pair(g->p[GQ_L2REQ], g->p[GQ_L2REQ_MIN], g->p[GQ_L2REQ], g->m[GQ_L2REQ], "%.0f");
    md_pair(g->p[GQ_L2SEC], g->p[GQ_L2SEC_MIN], g->p[GQ_L2SEC], g->m[GQ_L2SEC], "%.0f");
    md_pair(g->p[GQ_DRAM], NAN, NAN, g->m[GQ_DRAM], "%.0f");
    md_pair(g->p[GQ_L1U], NAN, NAN, g->m[GQ_L1U], "%.1f");
    fputs(" | ", OUT);
    if (strcmp(g->lab, "-"))
        fprintf(OUT, "%s: %s", g->lab, g->lab_vs_model);
    else
        fputs("-", OUT);
    if (!strcmp(g->agree, "yes"))
        fputs(" | yes |\n", OUT);
    else
        fprintf(OUT, " | **no** (%s) |\n", g->mismatch);
}

static void gen_put(const gen *g, int markdown)
{
    if (markdown)
        gen_md(g);
    else
        gen_tsv(g);
}

/* The readonly rows in the families' table (--generic). */
static void legacy_generic(const row *rows, int nrows, const meta *m, int markdown)
{
    if (markdown) {
        fprintf(OUT, "readonly%s%s: N = %llu floats, DRAM granularity %llu B\n\n",
                m->device[0] ? ", " : "", m->device, (unsigned long long)m->n,
                (unsigned long long)m->granule);
        md_header();
    } else {
        fprintf(OUT, "# sector_compare --generic\n# family\treadonly\n# device\t%s\n# n\t%llu\n"
                "# dram_granularity_bytes\t%llu\n# l2_bytes\t%llu\n# wpb\t%llu\n",
                m->device[0] ? m->device : "-", (unsigned long long)m->n,
                (unsigned long long)m->granule, (unsigned long long)m->l2_bytes,
                (unsigned long long)m->wpb);
        gen_header();
    }
    for (int i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        gen g;
        gen_init(&g);
        char config[48], mismatch[64] = "";
        const int strided = strstr(r->pattern, "strided") != NULL;
        if (strided)
            snprintf(config, sizeof config, "stride=%llu", (unsigned long long)r->stride);
        else
            snprintf(config, sizeof config, "-");
        g.family = "readonly";
        g.variant = r->pattern;
        g.config = config;
        g.op = "ld";
        g.p[GQ_REQ] = r->pred.l1_requests;
        g.p[GQ_SEC] = r->pred.l1_sectors;
        g.p[GQ_L2REQ] = r->pred.lines;   /* L1 never hits (A1): one request per line */
        g.p[GQ_L2SEC] = r->pred.l2_sectors;
        g.p[GQ_DRAM] = r->pred.dram_sectors;
        g.m[GQ_REQ] = r->l1_requests;
        g.m[GQ_SEC] = r->l1_sectors;
        g.m[GQ_L2SEC] = r->l2_sectors;
        g.m[GQ_DRAM] = r->dram_sectors;
        g.m[GQ_TIME] = r->time_ns;
        gen_derive(&g, r->pred.bytes_used);
        g.agree = r->ok ? "yes" : "no";
        if (!r->l1_ok)
            strcat(mismatch, "l1_sectors");
        if (!r->dram_ok)
            strcat(mismatch, mismatch[0] ? ",dram_sectors" : "dram_sectors");
        g.mismatch = mismatch[0] ? mismatch : "-";
        g.note = "readonly rule: L1 sectors exact, DRAM within 5 %; L2 shown, not judged";
        gen_put(&g, markdown);
    }
}

/* "stride=4", "batch=8 x", "offset=3": the value of key, or -1. */
static int config_value(const char *config, const char *key, uint64_t *out)
{
    const size_t kl = strlen(key);
    for (const char *p = config; p && *p; p++) {
        if ((p == config || strchr(" ,;\t", p[-1])) && !strncmp(p, key, kl) && p[kl] == '=') {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(p + kl + 1, &end, 10);
            if (errno || end == p + kl + 1 || (*end && !strchr(" ,;\t", *end)))
                return -1;
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, L2 51200 KiB)" -> 132, or 0. */
static unsigned device_sms(const char *device)
{
    const char *p = device ? strstr(device, " SMs") : NULL;
    if (!p)
        return 0;
    const char *q = p;
    while (q > device && q[-1] >= '0' && q[-1] <= '9')
        q--;
    return q < p ? (unsigned)strtoul(q, NULL, 10) : 0;
}

/* A kernel name as ncu printed it, without a signature: "copy_stride(int*, ...)". */
static void base_name(const char *k, char *out, size_t len)
{
    size_t n = strcspn(k, "(");
    while (n > 0 && k[n - 1] == ' ')
        n--;
    snprintf(out, len, "%.*s", (int)n, k);
}

/* The last component of a path (tables name their inputs without the folder,
 * so that a table does not change with where it was made). */
static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

typedef struct fam_opts {
    const struct fam_model *m;   /* the family's model (sector_family.h) */
    const char *runs, *ncu;
    sf_params base;
    int given_sms, given_bps;
    int markdown, strict;
} fam_opts;

/* The two tables of a comparison: the run's rows and ncu's launches. */
typedef struct fam_run {
    const fam_opts *o;
    tsv_table runs, ncu;
    int col[SFM_NMEASURES][2];   /* the column of NCU.tsv of each measure and op, or -1 */
    char absent[1024];           /* the family's metrics NCU.tsv lacks */
    unsigned sms;                /* from --sms or the run's device */
} fam_run;

/* Which column of NCU.tsv holds each of the family's measures. */
static void ncu_columns(fam_run *f)
{
    for (int q = 0; q < SFM_NMEASURES; q++)
        f->col[q][0] = f->col[q][1] = -1;
    f->absent[0] = 0;
    for (size_t i = 0; i < sf_nmetrics; i++) {
        const sf_metric *m = &sf_metrics[i];
        if (!(m->sets & f->o->m->metrics))
            continue;
        const int c = tsv_col(&f->ncu, m->name), op = m->op < 0 ? 0 : m->op;
        if (c >= 0 && f->col[m->m][op] < 0)
            f->col[m->m][op] = c;
        else if (c < 0 && m->m != SFM_DATA_WAVEFRONTS) {
            size_t u = strlen(f->absent);
            snprintf(f->absent + u, sizeof f->absent - u, "%s%s", u ? "," : "", m->name);
        }
    }
}

static void family_head(const fam_run *f)
{
    const fam_opts *o = f->o;
    const char *device = tsv_meta(&f->runs, "device");
    const char *fam = o->m->name;
    if (o->markdown) {
        fprintf(OUT, "%s%s%s: predicted / measured per launch, DRAM granularity %u B, L2 %llu B\n\n",
                fam, device ? ", " : "", device ? device : "", o->base.granule_bytes,
                (unsigned long long)o->base.l2_bytes);
        md_header();
        return;
    }
    fprintf(OUT, "# sector_compare --family %s\n# family\t%s\n# device\t%s\n# runs_table\t%s\n"
            "# ncu_table\t%s\n# dram_granularity_bytes\t%u\n# l2_bytes\t%llu\n# seed\t%llu\n", fam, fam,
            device ? device : "-", base_of(o->runs), base_of(o->ncu), o->base.granule_bytes,
            (unsigned long long)o->base.l2_bytes, (unsigned long long)o->base.seed);
    if (f->absent[0])
        fprintf(OUT, "# metrics_missing\t%s\n", f->absent);
    fprintf(OUT, "# model\tdocs/sectors.md; agree = every judged quantity inside the model's "
            "bounds (sector_families.h, sf_judge)\n");
    gen_header();
}

/* How row r pairs with a launch. */
typedef struct pairing {
    char want[128];   /* the clean kernel's name */
    size_t kth;       /* its launch the row pairs with (0-based) */
    long hit;         /* that launch's row of NCU.tsv, or -1 */
    int failed;       /* the row's validation failed: no clean launch */
} pairing;

/* The k-th row of v pairs with the k-th launch of FAMILY_V (or of the row's
 * kernel_fn: a configuration may have a kernel of its own, copy_batch_unrolled_b4);
 * a row whose validation failed had no clean launch (the engine skips it). */
static void pair_launch(const fam_run *f, size_t r, const char *vname, pairing *pa)
{
    const tsv_table *runs = &f->runs, *ncu = &f->ncu;
    char have[256];
    const char *valid = tsv_get(runs, r, "valid");
    pa->failed = valid && !strcmp(valid, "FAIL");
    const char *fn = tsv_get(runs, r, "kernel_fn");
    const int own = fn && *fn && strcmp(fn, "-") != 0;
    if (own) snprintf(pa->want, sizeof pa->want, "%s", fn);
    else snprintf(pa->want, sizeof pa->want, "%s_%s", f->o->m->name, vname);
    size_t k = 0, rows_v = 0, launches_v = 0;
    for (size_t j = 0; j < runs->nrow; j++) {
        const char *vj = tsv_get(runs, j, "valid");
        const char *fj = tsv_get(runs, j, "kernel_fn");
        const int same = own ? fj && !strcmp(fj, fn) : !strcmp(tsv_get(runs, j, "kernel"), vname);
        if (!same || (vj && !strcmp(vj, "FAIL"))) continue;
        k += j < r;
        rows_v++;
    }
    for (size_t j = 0; j < ncu->nrow; j++) {
        base_name(tsv_get(ncu, j, "kernel"), have, sizeof have);
        launches_v += !strcmp(have, pa->want);
    }
    /* twice as many launches as rows: the validation launched the clean
     * kernel too (check, then clean, per configuration): take the second */
    const int twice = rows_v > 0 && launches_v == 2 * rows_v;
    if (twice && k == 0)
        fprintf(stderr, "%s: %s has 2 launches of %s per row of %s: pairing each row with "
                "the second (the validation ran the clean kernel first)\n", PROG,
                base_of(f->o->ncu), pa->want, base_of(f->o->runs));
    pa->kth = twice ? 2 * k + 1 : k;
    pa->hit = -1;
    size_t seen = 0;
    for (size_t j = 0; j < ncu->nrow && pa->hit < 0 && !pa->failed; j++) {
        base_name(tsv_get(ncu, j, "kernel"), have, sizeof have);
        if (!strcmp(have, pa->want) && seen++ == pa->kth)
            pa->hit = (long)j;
    }
}

/* The model's parameters of row r (its n, warps per block, configuration,
 * the grid measured); 0, or -1 with a sentence on stderr. */
static int row_params(const fam_run *f, size_t r, const sf_variant *v, const sf_measured *meas,
                      sf_params *p)
{
    const fam_opts *o = f->o;
    const tsv_table *runs = &f->runs;
    const char *config = tsv_get(runs, r, "config");
    *p = o->base;
    if (o->m->shape != SF_SHAPE_2D) {
        double n = tsv_num(runs, r, "n");
        if (!isnan(n)) {
            if (n < 1 || n > (double)SF_MAX_N || n != floor(n)) {
                fprintf(stderr, "%s: %s: row %zu: n = %s is not 1..%llu\n", PROG, o->runs,
                        r + 1, tsv_get(runs, r, "n"), (unsigned long long)SF_MAX_N);
                return -1;
            }
            p->n = (uint64_t)n;
        }
    }
    double w = tsv_num(runs, r, "warps_per_block");
    if (!isnan(w)) {
        if (w < 1 || w > 32 || w != floor(w)) {
            fprintf(stderr, "%s: %s: row %zu: warps_per_block %s is not 1..32\n", PROG, o->runs,
                    r + 1, tsv_get(runs, r, "warps_per_block"));
            return -1;
        }
        p->wpb = (unsigned)w;
    }
    if (v->cfg != SF_CFG_NONE && config_value(config, sf_cfg_name(v->cfg), &p->cfg)) {
        fprintf(stderr, "%s: %s: row %zu (%s): no %s=VALUE in the config '%s'\n", PROG,
                o->runs, r + 1, v->name, sf_cfg_name(v->cfg), config ? config : "");
        return -1;
    }
    if (f->sms)
        p->sms = f->sms;
    double bps = tsv_num(runs, r, "blocks_per_sm");
    if (!o->given_bps && !isnan(bps) && bps >= 1 && bps <= 64 && bps == floor(bps))
        p->blocks_per_sm = (unsigned)bps;
    const double grid = meas->v[SFM_GRID][0];
    if (!isnan(grid) && grid >= 1 && grid == floor(grid))
        p->grid_blocks = (uint64_t)grid; /* grid-stride copies only */
    return 0;
}

/* Append a sentence to a note. */
static void note_add(char *note, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note_add(char *note, size_t len, const char *fmt, ...)
{
    size_t u = strlen(note);
    if (u + 3 >= len)
        return;
    if (u) {
        snprintf(note + u, len - u, "; ");
        u += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + u, len - u, fmt, ap);
    va_end(ap);
}

/* The predicted and measured quantities of one op, side by side. */
static void fill_gen(gen *g, const sf_prediction *pr, const sf_measured *meas, int op)
{
    const sf_counts *c = &pr->op[op];
    g->p[GQ_REQ] = c->requests;
    g->p[GQ_SEC] = c->sectors;
    g->p[GQ_WF] = c->wavefronts;
    g->p[GQ_HITS] = c->hits;
    g->p[GQ_HITS_MAX] = c->hits_max;
    g->p[GQ_L2REQ] = c->l2_requests;
    g->p[GQ_L2REQ_MIN] = c->l2_requests_min;
    g->p[GQ_L2SEC] = c->l2_sectors;
    g->p[GQ_L2SEC_MIN] = c->l2_sectors_min;
    g->p[GQ_DRAM] = op == SF_LD ? pr->dram_read_sectors : pr->dram_write_sectors;
    g->p[GQ_BLOCKS] = (double)pr->blocks;
    g->m[GQ_REQ] = meas->v[SFM_REQUESTS][op];
    g->m[GQ_INSTR] = meas->v[SFM_INSTRUCTIONS][op];
    g->m[GQ_SEC] = meas->v[SFM_SECTORS][op];
    g->m[GQ_WF] = meas->v[SFM_WAVEFRONTS][op];
    g->m[GQ_DWF] = meas->v[SFM_DATA_WAVEFRONTS][op];
    g->m[GQ_HITS] = meas->v[SFM_HITS][op];
    g->m[GQ_L2REQ] = meas->v[SFM_L2_REQUESTS][op];
    g->m[GQ_L2SEC] = meas->v[SFM_L2_SECTORS][op];
    g->m[GQ_DRAM] = meas->v[SFM_DRAM][op];
    g->m[GQ_BLOCKS] = meas->v[SFM_GRID][0];
    g->m[GQ_TIME] = meas->v[SFM_TIME][0];
    gen_derive(g, c->bytes);
}

/* One row of the table: op of the row's launch, judged; returns 1 when it
 * disagrees. */
static int op_row(const fam_run *f, const sf_variant *v, const sf_params *p,
                  const sf_prediction *pr, const sf_measured *meas, int op, const pairing *pa)
{
    sf_verdict vd;
    sf_judge(pr, (sf_op)op, meas, &vd);
    char lab[512], src[32], lv[512], why[1024], note[2048];
    if (sf_lab_row(v, p, (sf_op)op, lab, sizeof lab, src, sizeof src, lv, sizeof lv, why,
                   sizeof why) < 0)
        fprintf(stderr, "%s: %s: the lab's figure: %s\n", PROG, v->name, why);
    snprintf(note, sizeof note, "%s", vd.note);
    if (pa->hit < 0 && !pa->failed)
        note_add(note, sizeof note, "no launch of %s in %s (launch %zu)", pa->want,
                 base_of(f->o->ncu), pa->kth + 1);
    if (why[0] && strcmp(lv, "agrees"))
        note_add(note, sizeof note, "H100 vs lab: %s", why);
    if (pa->failed)
        note_add(note, sizeof note, "the run's validation FAILED: no clean launch to measure");
    if (op == SF_ST && !pr->has_load && meas->v[SFM_DRAM][SF_LD] > SF_DRAM_MIN_SECTORS)
        note_add(note, sizeof note, "DRAM reads %.0f sectors although the kernel only stores "
                 "(partial sectors filled from DRAM?); the model predicts none",
                 meas->v[SFM_DRAM][SF_LD]);
    gen g;
    gen_init(&g);
    g.family = f->o->m->name;
    g.variant = v->name;
    g.config = pr->config;
    g.op = op ? "st" : "ld";
    fill_gen(&g, pr, meas, op);
    g.agree = vd.agree ? "yes" : "no";
    g.mismatch = vd.mismatch;
    g.lab = lab;
    g.lab_source = src;
    g.lab_vs_model = lv;
    g.note = note[0] ? note : "-";
    gen_put(&g, f->o->markdown);
    return !vd.agree;
}

/* Launches no row claimed: the run and the profile do not match. */
static void warn_unclaimed(const fam_run *f)
{
    const tsv_table *runs = &f->runs, *ncu = &f->ncu;
    const char *fam = f->o->m->name;
    const size_t fl = strlen(fam);
    for (size_t j = 0; j < ncu->nrow; j++) {
        char have[256];
        base_name(tsv_get(ncu, j, "kernel"), have, sizeof have);
        if (strncmp(have, fam, fl) || have[fl] != '_')
            continue;
        size_t before = 0, rows_of = 0, all = 0;
        for (size_t i = 0; i < ncu->nrow; i++) {
            char h2[256];
            base_name(tsv_get(ncu, i, "kernel"), h2, sizeof h2);
            before += i < j && !strcmp(h2, have);
            all += !strcmp(h2, have);
        }
        for (size_t i = 0; i < runs->nrow; i++) {
            const char *vi = tsv_get(runs, i, "valid");
            rows_of += !strcmp(tsv_get(runs, i, "kernel"), have + fl + 1) && !(vi && !strcmp(vi, "FAIL"));
        }
        if (before == rows_of && all != 2 * rows_of) /* the first launch beyond the rows: once */
            fprintf(stderr, "%s: %s has more launches of %s than %s has rows of %s: the extra "
                    "ones are left out\n", PROG, base_of(f->o->ncu), have, base_of(f->o->runs),
                    have + fl + 1);
    }
}

/* Every row of the run: its model, its launch, a row per op; 0, or -1 after
 * a sentence on stderr.  Counts the rows and those that disagree. */
static int family_rows(const fam_run *f, int *nrows, int *disagree)
{
    char err[512];
    for (size_t r = 0; r < f->runs.nrow; r++) {
        const char *vname = tsv_get(&f->runs, r, "kernel");
        const sf_variant *v = sf_find(f->o->m->name, vname);
        if (!v) {
            fprintf(stderr, "%s: %s: %s has no model (no kernel of its own?): row %zu left out\n",
                    PROG, f->o->runs, vname, r + 1);
            continue;
        }
        pairing pa;
        pair_launch(f, r, vname, &pa);
        sf_measured meas;
        sf_measured_clear(&meas);
        if (pa.hit >= 0)
            for (int q = 0; q < SFM_NMEASURES; q++)
                for (int op = 0; op < 2; op++)
                    if (f->col[q][op] >= 0)
                        meas.v[q][op] = tsv_parse_num(f->ncu.cell[(size_t)pa.hit * f->ncu.ncol + f->col[q][op]]);
        sf_params p;
        if (row_params(f, r, v, &meas, &p))
            return -1;
        sf_prediction pr;
        if (sf_predict(v, &p, &pr, err, sizeof err)) {
            fprintf(stderr, "%s: %s %s (row %zu): %s\n", PROG, f->o->m->name, vname, r + 1, err);
            return -1;
        }
        for (int op = 0; op < 2; op++) {
            const int predicted = op == SF_LD ? pr.has_load : pr.has_store;
            if (!predicted && !(meas.v[SFM_REQUESTS][op] > 0))
                continue;
            *disagree += op_row(f, v, &p, &pr, &meas, op, &pa);
            (*nrows)++;
        }
    }
    return 0;
}

static int family_mode(const fam_opts *o)
{
    char err[512];
    static fam_run f;
    memset(&f, 0, sizeof f);
    f.o = o;
    if (tsv_read(o->runs, &f.runs, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    if (tsv_read(o->ncu, &f.ncu, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        tsv_free(&f.runs);
        return 1;
    }
    int rc = 1, nrows = 0, disagree = 0;
    if (tsv_col(&f.runs, "kernel") < 0 || tsv_col(&f.runs, "config") < 0) {
        fprintf(stderr, "%s: %s: the header lacks kernel or config (is it the engine's --table?)\n",
                PROG, o->runs);
        goto done;
    }
    if (tsv_col(&f.ncu, "kernel") < 0) {
        fprintf(stderr, "%s: %s: the header lacks kernel (is it bin/ncu_extract's table?)\n", PROG,
                o->ncu);
        goto done;
    }
    ncu_columns(&f);
    f.sms = o->given_sms ? o->base.sms : device_sms(tsv_meta(&f.runs, "device"));
    family_head(&f);
    if (family_rows(&f, &nrows, &disagree))
        goto done;
    warn_unclaimed(&f);
    if (o->markdown)
        fprintf(OUT, "\n%d of %d rows disagree.\n", disagree, nrows);
    if (disagree)
        fprintf(stderr, "%s: %d of %d rows disagree with the model\n", PROG, disagree, nrows);
    rc = o->strict && disagree ? RC_STRICT_DISAGREE : 0;
    if (nrows == 0) {
        fprintf(stderr, "%s: %s: no row of %s has a model\n", PROG, o->runs, o->m->name);
        rc = 1;
    }
done:
    tsv_free(&f.runs);
    tsv_free(&f.ncu);
    return rc;
}

/* ------------------------------------------------------------ readonly */

static int readonly_mode(const char *path, int markdown, int strict, int generic,
                         const char *chart, uint64_t opt_n, uint64_t opt_g, uint64_t opt_l2,
                         uint64_t opt_wpb, int have_opt_seed, uint64_t opt_seed, sm_reuse reuse)
{
    meta m;
    memset(&m, 0, sizeof m);
    static row rows[MAX_ROWS];
    int nrows = 0;
    char err[512];
    if (read_table(path, rows, &nrows, &m, err, sizeof err)) {
        fprintf(stderr, "sector_compare: %s\n", err);
        return 1;
    }
    sm_config cfg;
    sm_config_default(&cfg);
    cfg.reuse = reuse;
    m.n = opt_n ? opt_n : m.have_n ? m.n : cfg.n_floats;
    m.granule = opt_g ? opt_g : m.have_granule ? m.granule : cfg.granule_bytes;
    m.l2_bytes = opt_l2 ? opt_l2 : m.have_l2 ? m.l2_bytes : cfg.l2_bytes;
    m.wpb = opt_wpb ? opt_wpb : m.have_wpb ? m.wpb : 4;
    if (!sm_granule_ok((unsigned)m.granule) || m.granule != (unsigned)m.granule) {
        fprintf(stderr, "sector_compare: %s: dram_granularity_bytes %llu is not 32, 64 or 128\n",
                path, (unsigned long long)m.granule);
        return 1;
    }
    if (m.wpb < 1 || m.wpb > 32) {
        fprintf(stderr, "sector_compare: %s: wpb %llu is not 1..32\n", path,
                (unsigned long long)m.wpb);
        return 1;
    }
    /* N comes from the file: the model walks every thread and keeps a table
     * per DRAM granule, so N is bounded by what fits in 256 MB (SF_MAX_N, as
     * for the families) */
    if (m.n > SF_MAX_N) {
        fprintf(stderr, "sector_compare: %s: n %llu is more than %llu, the most the model's "
                "tables hold in 256 MB\n", path, (unsigned long long)m.n,
                (unsigned long long)SF_MAX_N);
        return 1;
    }
    if (m.n < 4 || m.l2_bytes == 0 || m.l2_bytes > (1ull << 40)) {
        fprintf(stderr, "sector_compare: %s: n %llu or l2_bytes %llu is out of range\n", path,
                (unsigned long long)m.n, (unsigned long long)m.l2_bytes);
        return 1;
    }
    cfg.n_floats = m.n;
    cfg.granule_bytes = (unsigned)m.granule;
    cfg.l2_bytes = m.l2_bytes;
    cfg.threads_per_block = (unsigned)(32 * m.wpb);
    m.seed = have_opt_seed ? opt_seed : m.have_seed ? m.seed : SM_SEED_DEFAULT;
    cfg.seed = m.seed;

    int disagree = 0;
    for (int i = 0; i < nrows; i++) {
        row *r = &rows[i];
        sm_kernel k;
        if (sm_kernel_from_name(r->pattern, &k)) {
            fprintf(stderr, "sector_compare: %s: unknown pattern '%s'\n", path, r->pattern);
            return 1;
        }
        if (sm_kernel_elem_bytes(k) != r->elem_bytes) {
            fprintf(stderr, "sector_compare: %s: %s reads %u B elements, the row says %u\n",
                    path, r->pattern, sm_kernel_elem_bytes(k), r->elem_bytes);
            return 1;
        }
        sm_config c = cfg;
        c.stride = r->stride ? r->stride : 1;
        if (sm_predict(k, &c, &r->pred, err, sizeof err)) {
            fprintf(stderr, "sector_compare: %s\n", err);
            return 1;
        }
        if (isnan(r->l1_sectors))
            r->l1_ok = 0;
        else if (r->pred.exact)
            r->l1_ok = r->l1_sectors == r->pred.l1_sectors;
        else /* an expected value (no kernel predicts one now; kept for safety) */
            r->l1_ok = fabs(rel_err(r->l1_sectors, r->pred.l1_sectors)) <= L1_EXPECTED_TOL;
        r->dram_err = rel_err(r->dram_sectors, r->pred.dram_sectors);
        r->dram_ok = !isnan(r->dram_err) && fabs(r->dram_err) <= DRAM_TOL;
        r->l2_err = rel_err(r->l2_sectors, r->pred.l2_sectors);
        r->ok = r->l1_ok && r->dram_ok;
        disagree += !r->ok;
    }

    if (generic) {
        legacy_generic(rows, nrows, &m, markdown);
        if (markdown)
            fprintf(OUT, "\n%d of %d rows disagree.\n", disagree, nrows);
    } else {
        if (markdown) {
            fprintf(OUT, "Predicted vs measured sectors%s%s: N = %llu floats, DRAM granularity %llu B, "
                   "L2 %llu B, reuse %s\n\n", m.device[0] ? ", " : "", m.device,
                   (unsigned long long)m.n, (unsigned long long)m.granule,
                   (unsigned long long)m.l2_bytes, sm_reuse_name(reuse));
            fprintf(OUT, "| Pattern | Elem | Stride | L1 sectors pred | L1 sectors meas | L2 sectors meas "
                   "(err) | DRAM sectors pred | DRAM sectors meas | DRAM err | Time | Verdict |\n");
            fprintf(OUT, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
            for (int i = 0; i < nrows; i++) {
                const row *r = &rows[i];
                fprintf(OUT, "| %s | %u B | %llu | %.0f | ", r->pattern, r->elem_bytes,
                       (unsigned long long)r->stride, r->pred.l1_sectors);
                num(OUT, r->l1_sectors);
                fprintf(OUT, " | ");
                num(OUT, r->l2_sectors);
                fprintf(OUT, " (");
                pct(OUT, r->l2_err);
                fprintf(OUT, " %%) | %.0f | ", r->pred.dram_sectors);
                num(OUT, r->dram_sectors);
                fprintf(OUT, " | ");
                pct(OUT, r->dram_err);
                fprintf(OUT, " %% | ");
                if (isnan(r->time_ns))
                    fprintf(OUT, "NA");
                else
                    fprintf(OUT, "%.1f us", r->time_ns / 1e3);
                fprintf(OUT, " | %s%s%s |\n", r->ok ? "agree" : "DISAGREE",
                       r->l1_ok ? "" : " (L1)", r->dram_ok ? "" : " (DRAM)");
            }
            fprintf(OUT, "\n%d of %d rows disagree.\n", disagree, nrows);
        } else {
            fprintf(OUT, "# sector_compare %s\n", path);
            fprintf(OUT, "# n\t%llu\n# dram_granularity_bytes\t%llu\n# l2_bytes\t%llu\n# reuse\t%s\n"
                   "# wpb\t%llu\n# seed\t%llu\n", (unsigned long long)m.n, (unsigned long long)m.granule,
                   (unsigned long long)m.l2_bytes, sm_reuse_name(reuse), (unsigned long long)m.wpb,
                   (unsigned long long)m.seed);
            fprintf(OUT, "pattern\telem_bytes\tstride\tl1_requests_pred\tl1_requests_meas"
                   "\tl1_sectors_pred\tl1_sectors_meas\tl1_ok\tl2_sectors_pred\tl2_sectors_meas"
                   "\tl2_err_pct\tdram_sectors_pred\tdram_sectors_meas\tdram_err_pct\tdram_ok"
                   "\ttime_ns\tverdict\n");
            for (int i = 0; i < nrows; i++) {
                const row *r = &rows[i];
                fprintf(OUT, "%s\t%u\t%llu\t%.0f\t", r->pattern, r->elem_bytes,
                       (unsigned long long)r->stride, r->pred.l1_requests);
                num(OUT, r->l1_requests);
                fprintf(OUT, "\t%.0f\t", r->pred.l1_sectors);
                num(OUT, r->l1_sectors);
                fprintf(OUT, "\t%d\t%.0f\t", r->l1_ok, r->pred.l2_sectors);
                num(OUT, r->l2_sectors);
                fprintf(OUT, "\t");
                pct(OUT, r->l2_err);
                fprintf(OUT, "\t%.0f\t", r->pred.dram_sectors);
                num(OUT, r->dram_sectors);
                fprintf(OUT, "\t");
                pct(OUT, r->dram_err);
                fprintf(OUT, "\t%d\t", r->dram_ok);
                num(OUT, r->time_ns);
                fprintf(OUT, "\t%s\n", r->ok ? "agree" : "DISAGREE");
            }
        }
        print_gathers(rows, nrows, markdown);
    }
    if (disagree)
        fprintf(stderr, "sector_compare: %d of %d rows disagree with the model\n", disagree, nrows);
    if (chart && write_chart(chart, rows, nrows, &m) != 0)
        return 1;
    return strict && disagree ? RC_STRICT_DISAGREE : 0;
}


/* ------------------------------------------------------------ readonly from a run */

/* The readonly family's measured table (the input of the readonly mode above)
 * or its L2 fetch-granularity row, from the engine's table of the profiled
 * run and bin/ncu_extract's table: the k-th row of pattern P pairs with the
 * k-th launch of readonly_P. */
static int readonly_join(const char *runs_path, const char *ncu_path, unsigned granule, int l2row,
                         const char *limit)
{
    static const char *const order[] = { "strided", "strided_float4", "baseline", "float4",
                                         "nondiverging", "random_access" };
    static const char *const mname[5] = {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
        "dram__sectors_read.sum", "gpu__time_duration.sum" };
    char err[512];
    tsv_table runs, ncu;
    if (tsv_read(runs_path, &runs, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    if (tsv_read(ncu_path, &ncu, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        tsv_free(&runs);
        return 1;
    }
    int rc = 1, printed = 0;
    if (tsv_col(&runs, "kernel") < 0 || tsv_col(&runs, "n") < 0 || tsv_col(&ncu, "kernel") < 0) {
        fprintf(stderr, "%s: %s needs kernel and n, %s kernel (the engine's table and "
                "bin/ncu_extract's)\n", PROG, runs_path, ncu_path);
        goto done;
    }
    const char *device = tsv_meta(&runs, "device");
    if (l2row)
        fprintf(OUT, "# sector_compare --family readonly --l2-fetch-row: one isolated 4 B load per "
                "128 B line\n# device\t%s\n# l2_fetch_limit_bytes 0 = the driver's default; "
                "granule_bytes = 32 * dram_sectors / l2_sectors, rounded to 32, 64 or 128\n"
                "l2_fetch_limit_bytes\tn\tstride\tl2_sectors\tdram_sectors\tdram_per_l2"
                "\tgranule_bytes\n", device ? device : "-");
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++)
        for (size_t r = 0; r < runs.nrow; r++) {
            const char *pat = tsv_get(&runs, r, "kernel");
            sm_kernel k;
            if (sm_kernel_from_name(pat, &k)) {
                fprintf(stderr, "%s: %s: row %zu: unknown readonly kernel '%s'\n", PROG, runs_path,
                        r + 1, pat);
                goto done;
            }
            if (strcmp(pat, order[o]))
                continue;
            if (l2row && strcmp(pat, "strided"))
                continue;
            size_t kth = 0, seen = 0;
            for (size_t j = 0; j < r; j++)
                kth += !strcmp(tsv_get(&runs, j, "kernel"), pat);
            char want[64], have[256];
            snprintf(want, sizeof want, "readonly_%s", pat);
            long hit = -1;
            for (size_t j = 0; j < ncu.nrow && hit < 0; j++) {
                base_name(tsv_get(&ncu, j, "kernel"), have, sizeof have);
                if (!strcmp(have, want) && seen++ == kth)
                    hit = (long)j;
            }
            double v[5];
            for (int i = 0; i < 5; i++) {
                const int c = tsv_col(&ncu, mname[i]);
                v[i] = hit >= 0 && c >= 0 ? tsv_parse_num(ncu.cell[(size_t)hit * ncu.ncol + c]) : NAN;
            }
            if (hit < 0)
                fprintf(stderr, "%s: %s has no launch %zu of %s: its row is NA\n", PROG, ncu_path,
                        kth + 1, want);
            uint64_t stride = 1;
            const char *cfg = tsv_get(&runs, r, "config");
            if (strstr(pat, "strided") && config_value(cfg, "stride", &stride)) {
                fprintf(stderr, "%s: %s: row %zu (%s): no stride=S in the config '%s'\n", PROG,
                        runs_path, r + 1, pat, cfg ? cfg : "");
                goto done;
            }
            const char *n = tsv_get(&runs, r, "n");
            if (!printed && !l2row) {
                fprintf(OUT, "# sector_compare --family readonly --measured: sectors measured by "
                        "Nsight Compute (compare: bin/sector_compare FILE)\n# device\t%s\n# n\t%s\n"
                        "# wpb\t%s\n# dram_granularity_bytes\t%u\npattern\telem_bytes\tstride"
                        "\tl1_requests\tl1_sectors\tl2_sectors\tdram_sectors\ttime_ns\n",
                        device ? device : "-", n, tsv_get(&runs, r, "warps_per_block")
                        ? tsv_get(&runs, r, "warps_per_block") : "4", granule);
            }
            printed++;
            if (l2row) {
                const double ratio = v[2] > 0 ? v[3] / v[2] : NAN;
                const unsigned g = isnan(ratio) ? 0 : ratio > 3 ? 128 : ratio > 1.5 ? 64 : 32;
                fprintf(OUT, "%s\t%s\t%llu\t", limit, n, (unsigned long long)stride);
                num(OUT, v[2]);
                fputc('\t', OUT);
                num(OUT, v[3]);
                if (isnan(ratio))
                    fputs("\tNA\tNA\n", OUT);
                else
                    fprintf(OUT, "\t%.4f\t%u\n", ratio, g);
                continue;
            }
            fprintf(OUT, "%s\t%u\t%llu", pat, sm_kernel_elem_bytes(k), (unsigned long long)stride);
            for (int i = 0; i < 5; i++) {
                fputc('\t', OUT);
                num(OUT, v[i]);
            }
            fputc('\n', OUT);
        }
    if (!printed) {
        fprintf(stderr, "%s: %s has no readonly row%s\n", PROG, runs_path,
                l2row ? " of strided" : "");
        goto done;
    }
    rc = 0;
done:
    tsv_free(&runs);
    tsv_free(&ncu);
    return rc;
}

/* ------------------------------------------------------------ main */

static outfile out_file;
static const char *out_path;

/* Finish the output: flush, and for --out commit it through outfile (keep)
 * or remove it.  On a failure nothing is left behind. */
static int out_close(int keep)
{
    if (!out_path) return outfile_check_stdout(PROG);
    OUT = stdout;
    if (!keep) {
        outfile_abort(&out_file);
        return 0;
    }
    char err[4400];
    if (outfile_commit(&out_file, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    return 0;
}

static void usage(FILE *f, const cli_opt *t)
{
    fprintf(f,
        "usage: sector_compare MEASURED.tsv [options]                 the readonly family\n"
        "       sector_compare --family F --runs RUNS.tsv --ncu NCU.tsv [options]\n"
        "  Predicted vs measured sectors (docs/sectors.md), one row per pattern, or per\n"
        "  variant, configuration and op, with a verdict.\n\n");
    cli_print_options(f, t);
    fprintf(f,
        "readonly: agreement is L1 sectors equal and DRAM sectors within 5 %%; the gathers\n"
        "(random_access / nondiverging) follow when both rows are present.  Families:\n"
        "requests, sectors and wavefronts exact, hits and L2 inside the model's bounds, DRAM\n"
        "reads within 5 %%.  Exit: 0; 1 failure (or --strict and a row disagrees); 2 usage.\n");
}

int main(int argc, char **argv)
{
    OUT = stdout;
    const char *chart = NULL, *family = NULL, *runs = NULL, *ncu = NULL, *l2row = NULL;
    int measured = 0;
    int markdown = 0, strict = 0, generic = 0, lead_pad = 0, pad_ld = 0, reuse_i = 0;
    int given_n = 0, given_g = 0, given_l2 = 0, given_wpb = 0, given_seed = 0, given_sms = 0;
    int given_bps = 0, given_stencil = 0, given_reuse = 0;
    uint64_t opt_n = 0, opt_g = 64, opt_l2 = SM_L2_EFFECTIVE_BYTES_H100, opt_wpb = 4;
    uint64_t opt_seed = SM_SEED_DEFAULT, n0 = 32, n1 = 1, radius = 1, sms = 132, bps = 16;
    static const char *const reuse_names[] = { "lru", "all", "none", NULL };
    const cli_opt opts[] = {
        {"--markdown", 0, CLI_FLAG, 0, 0, 0, 0, &markdown, 0, "a Markdown table instead of TSV", 0, 0},
        {"--strict", 0, CLI_FLAG, 0, 0, 0, 0, &strict, 0, "exit 1 when any row disagrees", 0, 0},
        {"--out", 'o', CLI_STRING, 0, 0, 0, 0, &out_path, "FILE",
         "write the table to FILE (through FILE.tmp) instead of stdout", 0, 0},
        {"--chart", 0, CLI_STRING, 0, 0, 0, 0, &chart, "OUT.svg",
         "readonly: sectors and time vs stride with gnuplot (.svg, .png or .pdf;\n"
         "writes OUT.gp and OUT.dat beside it)", 0, 0},
        {"--generic", 0, CLI_FLAG, 0, 0, 0, 0, &generic, 0,
         "readonly: the families' table (pred/meas columns, agree) instead", 0, 0},
        {"--n", 0, CLI_COUNT, 0, 1ull << 40, 0, 0, &opt_n, "N",
         "readonly: floats in the array (default: '# n' of the file, else 1e8)", 0, &given_n},
        {"--dram-granularity", 0, CLI_U64, 32, 128, 0, 0, &opt_g, "B",
         "32, 64 or 128 (readonly default: '# dram_granularity_bytes'; else 64)", 0, &given_g},
        {"--l2-bytes", 0, CLI_COUNT, 0, 1ull << 40, 0, 0, &opt_l2, "B",
         "capacity of the LRU L2 model (default 26214400, one H100 partition)", 0, &given_l2},
        {"--reuse", 0, CLI_CHOICE, 0, 0, 0, 0, &reuse_i, "lru|all|none",
         "readonly: the L2 reuse assumption (default lru)", reuse_names, &given_reuse},
        {"--wpb", 0, CLI_U64, 1, 32, 0, 0, &opt_wpb, "W",
         "readonly: warps per block of the run (default: '# wpb', else 4)", 0, &given_wpb},
        {"--seed", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &opt_seed, "S",
         "the random permutation's seed (default: '# seed', else 12345)", 0, &given_seed},
        {"--family", 0, CLI_STRING, 0, 0, 0, 0, &family, "F",
         "copy, patterns or stencil; readonly with --measured or --l2-fetch-row", 0, 0},
        {"--measured", 0, CLI_FLAG, 0, 0, 0, 0, &measured, 0,
         "--family readonly: write its measured table (the input of MEASURED.tsv)", 0, 0},
        {"--l2-fetch-row", 0, CLI_STRING, 0, 0, 0, 0, &l2row, "LIMIT",
         "--family readonly: the L2 fetch-granularity row of a strided run made\n"
         "under cudaLimitMaxL2FetchGranularity LIMIT (0: the default)", 0, 0},
        {"--runs", 0, CLI_STRING, 0, 0, 0, 0, &runs, "RUNS.tsv",
         "the engine's table of the profiled run (--table)", 0, 0},
        {"--ncu", 0, CLI_STRING, 0, 0, 0, 0, &ncu, "NCU.tsv", "bin/ncu_extract's table of its ncu log",
         0, 0},
        {"--n0", 0, CLI_COUNT, 0, SF_MAX_N, 0, 0, &n0, "N0", "stencil: points along i0 (32)", 0,
         &given_stencil},
        {"--n1", 0, CLI_COUNT, 0, SF_MAX_N, 0, 0, &n1, "N1", "stencil: points along i1 (1)", 0,
         &given_stencil},
        {"--radius", 0, CLI_U64, 1, 4, 0, 0, &radius, "R", "stencil: radius 1..4 (1)", 0,
         &given_stencil},
        {"--lead-pad", 0, CLI_FLAG, 0, 0, 0, 0, &lead_pad, 0, "stencil: the run used --lead-pad", 0,
         &given_stencil},
        {"--pad-leading-dim", 0, CLI_FLAG, 0, 0, 0, 0, &pad_ld, 0,
         "stencil: the run used --pad-leading-dim", 0, &given_stencil},
        {"--sms", 0, CLI_U64, 1, 1024, 0, 0, &sms, "SMS",
         "grid-stride copies: SMs (default: the run's '# device' line)", 0, &given_sms},
        {"--blocks-per-sm", 0, CLI_U64, 1, 64, 0, 0, &bps, "BPS",
         "grid-stride copies: resident blocks (default: the run's blocks_per_sm)", 0, &given_bps},
        CLI_END,
    };
    const cli_opt *optv[1] = { opts };
    cli_parse_result r;
    int rc = cli_parse(PROG, argc, argv, optv, 1, 1, &r);
    if (rc)
        return rc;
    if (r.help) {
        usage(stdout, opts);
        return outfile_check_stdout(PROG);
    }
    if (opt_g != 32 && opt_g != 64 && opt_g != 128)
        return cli_usage_error(PROG, "--dram-granularity must be 32, 64 or 128 (got %llu)",
                               (unsigned long long)opt_g);
    if (chart && !gp_format_for(chart))
        return cli_usage_error(PROG, "--chart: '%s' must end in .svg, .png or .pdf", chart);
    if (out_path && !*out_path)
        return cli_usage_error(PROG, "--out needs a file name");
    fam_opts fo;
    memset(&fo, 0, sizeof fo);
    const int ro_join = family && !strcmp(family, "readonly");
    if (ro_join) {
        if (!runs || !ncu || r.npos)
            return cli_usage_error(PROG, "--family readonly takes --runs and --ncu (and "
                                   "--measured or --l2-fetch-row); a measured table is "
                                   "compared as sector_compare MEASURED.tsv");
        if (measured == !!l2row)
            return cli_usage_error(PROG, "--family readonly needs one of --measured and "
                                   "--l2-fetch-row LIMIT");
        if (l2row && strcmp(l2row, "0") && strcmp(l2row, "32") && strcmp(l2row, "64") &&
            strcmp(l2row, "128"))
            return cli_usage_error(PROG, "--l2-fetch-row must be 0, 32, 64 or 128 (got '%s')", l2row);
    } else if (measured || l2row) {
        return cli_usage_error(PROG, "--measured and --l2-fetch-row go with --family readonly");
    }
    if (family && !ro_join) {
        char names[256];
        fo.m = sf_model(family);
        if (!fo.m || !fo.m->nvariants)
            return cli_usage_error(PROG, "--family: unknown family '%s' (%s; readonly takes "
                                   "MEASURED.tsv)", family, sf_family_list(names, sizeof names));
        if (r.npos)
            return cli_usage_error(PROG, "--family takes --runs and --ncu, not '%s'", r.pos[0]);
        if (!runs || !ncu)
            return cli_usage_error(PROG, "--family needs --runs RUNS.tsv and --ncu NCU.tsv");
        if (chart || generic || given_reuse || given_n || given_wpb)
            return cli_usage_error(PROG, "--chart, --generic, --reuse, --n and --wpb are the "
                                   "readonly table's (a family's run gives N and WPB)");
        if (given_stencil && fo.m->shape != SF_SHAPE_2D)
            return cli_usage_error(PROG, "--n0, --n1, --radius and the pads are the stencil's");
    } else if (!ro_join) {
        if (runs || ncu)
            return cli_usage_error(PROG, "--runs and --ncu go with --family");
        if (given_stencil || given_sms || given_bps)
            return cli_usage_error(PROG, "the stencil and grid options go with --family");
        if (!r.npos)
            return cli_usage_error(PROG, "no MEASURED.tsv given");
    }
    if (out_path) {
        char err[4400];
        OUT = outfile_open(&out_file, out_path, "w", err, sizeof err);
        if (!OUT) {
            fprintf(stderr, "%s: %s\n", PROG, err);
            return 1;
        }
    }
    if (ro_join) {
        rc = readonly_join(runs, ncu, (unsigned)opt_g, l2row != NULL, l2row);
        int wr = out_close(rc == 0);
        return wr ? 1 : rc;
    }
    if (family) {
        sf_params_default(&fo.base);
        fo.base.granule_bytes = (unsigned)opt_g;
        fo.base.l2_bytes = opt_l2;
        fo.base.seed = opt_seed;
        fo.base.n0 = n0;
        fo.base.n1 = n1;
        fo.base.radius = (unsigned)radius;
        fo.base.lead_pad = lead_pad;
        fo.base.pad_ld = pad_ld;
        fo.base.sms = (unsigned)sms;
        fo.base.blocks_per_sm = (unsigned)bps;
        fo.given_sms = given_sms;
        fo.given_bps = given_bps;
        fo.runs = runs;
        fo.ncu = ncu;
        fo.markdown = markdown;
        fo.strict = strict;
        rc = family_mode(&fo);
        int wr = out_close(rc == 0 || rc == RC_STRICT_DISAGREE);
        return wr ? 1 : rc == RC_STRICT_DISAGREE ? 1 : rc;
    }
    rc = readonly_mode(r.pos[0], markdown, strict, generic, chart, given_n ? opt_n : 0,
                       given_g ? opt_g : 0, given_l2 ? opt_l2 : 0, given_wpb ? opt_wpb : 0,
                       given_seed, opt_seed, (sm_reuse)reuse_i);
    /* a disagreement under --strict keeps the table (it is whole); a failure
     * to read or compute keeps nothing */
    int wr = out_close(rc == 0 || rc == RC_STRICT_DISAGREE);
    return wr ? 1 : rc == RC_STRICT_DISAGREE ? 1 : rc;
}
