/*
 * sector_readonly.c - sector_readonly.h: the readonly family's comparison,
 * its measured table (scripts/ncu_profile.sh) against sector_model.h's
 * predictions, and the join that makes that table from a profiled run.
 * Messages go to stderr as bin/sector_compare's, the one program that
 * calls these.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_readonly.h"
#include "sector_families.h"
#include "gp.h"
#include "sector_table.h"
#include "tsv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "sector_compare"

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

/* The measured table from fp (named path in messages; not closed): its
 * metadata in m, at most MAX_ROWS rows; 0, or -1 with a sentence in err. */
static int read_table(FILE *fp, const char *path, row *rows, int *nrows, meta *m, char *err,
                      size_t errlen)
{
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
                return -1;
            }
            have_header = 1;
            continue;
        }
        if (*nrows >= MAX_ROWS) {
            snprintf(err, errlen, "%s: more than %d rows", path, MAX_ROWS);
            return -1;
        }
        row *r = &rows[*nrows];
        memset(r, 0, sizeof *r);
        uint64_t e, s;
        if (c_pat >= nf || c_elem >= nf || c_stride >= nf || parse_u64(f[c_elem], &e) ||
            parse_u64(f[c_stride], &s)) {
            snprintf(err, errlen, "%s:%d: cannot read pattern, elem_bytes and stride", path,
                     lineno);
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
    if (ferror(fp)) {
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
static void print_gathers(FILE *out, const row *rows, int nrows, int markdown)
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
        fprintf(out, "\nGathers: coalesced (nondiverging) vs divergent (random_access)\n\n");
        fprintf(out, "| Quantity | Coalesced | Divergent | Divergent / coalesced |\n");
        fprintf(out, "|---|---:|---:|---:|\n");
        for (int i = 0; i < 5; i++) {
            double sc = i == 4 ? 1e-3 : 1; /* time in us */
            fprintf(out, "| %s | ", q[i].name);
            if (i == 4 && !isnan(q[i].c)) fprintf(out, "%.1f", q[i].c * sc); else num(out, q[i].c);
            fprintf(out, " | ");
            if (i == 4 && !isnan(q[i].d)) fprintf(out, "%.1f", q[i].d * sc); else num(out, q[i].d);
            double r = ratio(q[i].d, q[i].c);
            if (isnan(r))
                fprintf(out, " | NA |\n");
            else
                fprintf(out, " | %.2fx |\n", r);
        }
        return;
    }
    fprintf(out, "\n# gathers: coalesced = nondiverging, divergent = random_access\n");
    fprintf(out, "quantity\tcoalesced\tdivergent\tratio\n");
    for (int i = 0; i < 5; i++) {
        fprintf(out, "%s\t", q[i].tsv);
        num(out, q[i].c);
        fprintf(out, "\t");
        num(out, q[i].d);
        double r = ratio(q[i].d, q[i].c);
        if (isnan(r))
            fprintf(out, "\tNA\n");
        else
            fprintf(out, "\t%.4f\n", r);
    }
}

/* Draw sectors and time against stride through the shared gnuplot job
 * (src/lib/gp.h): out plus out's stem .gp and .dat beside it, written
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


static void legacy_generic(FILE *out, const row *rows, int nrows, const meta *m, int markdown)
{
    if (markdown) {
        fprintf(out, "readonly%s%s: N = %llu floats, DRAM granularity %llu B\n\n",
                m->device[0] ? ", " : "", m->device, (unsigned long long)m->n,
                (unsigned long long)m->granule);
        sct_md_header(out);
    } else {
        fprintf(out, "# sector_compare --generic\n# family\treadonly\n# device\t%s\n# n\t%llu\n"
                "# dram_granularity_bytes\t%llu\n# l2_bytes\t%llu\n# wpb\t%llu\n",
                m->device[0] ? m->device : "-", (unsigned long long)m->n,
                (unsigned long long)m->granule, (unsigned long long)m->l2_bytes,
                (unsigned long long)m->wpb);
        sct_header(out);
    }
    for (int i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        sct_row g;
        sct_init(&g);
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
        g.p[SCT_REQ] = r->pred.l1_requests;
        g.p[SCT_SEC] = r->pred.l1_sectors;
        g.p[SCT_L2REQ] = r->pred.lines;   /* L1 never hits (A1): one request per line */
        g.p[SCT_L2SEC] = r->pred.l2_sectors;
        g.p[SCT_DRAM] = r->pred.dram_sectors;
        g.m[SCT_REQ] = r->l1_requests;
        g.m[SCT_SEC] = r->l1_sectors;
        g.m[SCT_L2SEC] = r->l2_sectors;
        g.m[SCT_DRAM] = r->dram_sectors;
        g.m[SCT_TIME] = r->time_ns;
        sct_derive(&g, r->pred.bytes_used);
        g.agree = r->ok ? "yes" : "no";
        if (!r->l1_ok)
            strcat(mismatch, "l1_sectors");
        if (!r->dram_ok)
            strcat(mismatch, mismatch[0] ? ",dram_sectors" : "dram_sectors");
        g.mismatch = mismatch[0] ? mismatch : "-";
        g.note = "readonly rule: L1 sectors exact, DRAM within 5 %; L2 shown, not judged";
        sct_put(out, &g, markdown);
    }
}

/* "stride=4", "batch=8 x", "offset=3": the value of key, or -1. */
/* ------------------------------------------------------------ the comparison */

/* The model's configuration: the options, else the table's metadata, else
 * the defaults; 0, or 1 after a sentence. */
static int ro_config(const char *path, meta *m, sm_config *cfg, uint64_t opt_n, uint64_t opt_g,
                     uint64_t opt_l2, uint64_t opt_wpb, int have_opt_seed, uint64_t opt_seed,
                     sm_reuse reuse)
{
    sm_config_default(cfg);
    cfg->reuse = reuse;
    m->n = opt_n ? opt_n : m->have_n ? m->n : cfg->n_floats;
    m->granule = opt_g ? opt_g : m->have_granule ? m->granule : cfg->granule_bytes;
    m->l2_bytes = opt_l2 ? opt_l2 : m->have_l2 ? m->l2_bytes : cfg->l2_bytes;
    m->wpb = opt_wpb ? opt_wpb : m->have_wpb ? m->wpb : 4;
    if (!sm_granule_ok((unsigned)m->granule) || m->granule != (unsigned)m->granule) {
        fprintf(stderr, "sector_compare: %s: dram_granularity_bytes %llu is not 32, 64 or 128\n",
                path, (unsigned long long)m->granule);
        return 1;
    }
    if (m->wpb < 1 || m->wpb > 32) {
        fprintf(stderr, "sector_compare: %s: wpb %llu is not 1..32\n", path,
                (unsigned long long)m->wpb);
        return 1;
    }
    /* N comes from the file: the model walks every thread and keeps a table
     * per DRAM granule, so N is bounded by what fits in 256 MB (SF_MAX_N, as
     * for the families) */
    if (m->n > SF_MAX_N) {
        fprintf(stderr, "sector_compare: %s: n %llu is more than %llu, the most the model's "
                "tables hold in 256 MB\n", path, (unsigned long long)m->n,
                (unsigned long long)SF_MAX_N);
        return 1;
    }
    if (m->n < 4 || m->l2_bytes == 0 || m->l2_bytes > (1ull << 40)) {
        fprintf(stderr, "sector_compare: %s: n %llu or l2_bytes %llu is out of range\n", path,
                (unsigned long long)m->n, (unsigned long long)m->l2_bytes);
        return 1;
    }
    cfg->n_floats = m->n;
    cfg->granule_bytes = (unsigned)m->granule;
    cfg->l2_bytes = m->l2_bytes;
    cfg->threads_per_block = (unsigned)(32 * m->wpb);
    m->seed = have_opt_seed ? opt_seed : m->have_seed ? m->seed : SM_SEED_DEFAULT;
    cfg->seed = m->seed;
    return 0;
}

/* Each row against the model: l1_ok, dram_ok, ok; the number that
 * disagree, or -1 after a sentence. */
static int ro_judge(const char *path, row *rows, int nrows, const sm_config *cfg)
{
    char err[512];
    int disagree = 0;
    for (int i = 0; i < nrows; i++) {
        row *r = &rows[i];
        sm_kernel k;
        if (sm_kernel_from_name(r->pattern, &k)) {
            fprintf(stderr, "sector_compare: %s: unknown pattern '%s'\n", path, r->pattern);
            return -1;
        }
        if (sm_kernel_elem_bytes(k) != r->elem_bytes) {
            fprintf(stderr, "sector_compare: %s: %s reads %u B elements, the row says %u\n",
                    path, r->pattern, sm_kernel_elem_bytes(k), r->elem_bytes);
            return -1;
        }
        sm_config c = *cfg;
        c.stride = r->stride ? r->stride : 1;
        if (sm_predict(k, &c, &r->pred, err, sizeof err)) {
            fprintf(stderr, "sector_compare: %s\n", err);
            return -1;
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
    return disagree;
}

static void ro_markdown(FILE *out, const row *rows, int nrows, const meta *m, sm_reuse reuse,
                        int disagree)
{
    fprintf(out, "Predicted vs measured sectors%s%s: N = %llu floats, DRAM granularity %llu B, "
           "L2 %llu B, reuse %s\n\n", m->device[0] ? ", " : "", m->device,
           (unsigned long long)m->n, (unsigned long long)m->granule,
           (unsigned long long)m->l2_bytes, sm_reuse_name(reuse));
    fprintf(out, "| Pattern | Elem | Stride | L1 sectors pred | L1 sectors meas | L2 sectors meas "
           "(err) | DRAM sectors pred | DRAM sectors meas | DRAM err | Time | Verdict |\n");
    fprintf(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (int i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        fprintf(out, "| %s | %u B | %llu | %.0f | ", r->pattern, r->elem_bytes,
               (unsigned long long)r->stride, r->pred.l1_sectors);
        num(out, r->l1_sectors);
        fprintf(out, " | ");
        num(out, r->l2_sectors);
        fprintf(out, " (");
        pct(out, r->l2_err);
        fprintf(out, " %%) | %.0f | ", r->pred.dram_sectors);
        num(out, r->dram_sectors);
        fprintf(out, " | ");
        pct(out, r->dram_err);
        fprintf(out, " %% | ");
        if (isnan(r->time_ns))
            fprintf(out, "NA");
        else
            fprintf(out, "%.1f us", r->time_ns / 1e3);
        fprintf(out, " | %s%s%s |\n", r->ok ? "agree" : "DISAGREE",
               r->l1_ok ? "" : " (L1)", r->dram_ok ? "" : " (DRAM)");
    }
    fprintf(out, "\n%d of %d rows disagree.\n", disagree, nrows);
}

static void ro_tsv(FILE *out, const char *path, const row *rows, int nrows, const meta *m,
                   sm_reuse reuse)
{
    fprintf(out, "# sector_compare %s\n", path);
    fprintf(out, "# n\t%llu\n# dram_granularity_bytes\t%llu\n# l2_bytes\t%llu\n# reuse\t%s\n"
           "# wpb\t%llu\n# seed\t%llu\n", (unsigned long long)m->n, (unsigned long long)m->granule,
           (unsigned long long)m->l2_bytes, sm_reuse_name(reuse), (unsigned long long)m->wpb,
           (unsigned long long)m->seed);
    fprintf(out, "pattern\telem_bytes\tstride\tl1_requests_pred\tl1_requests_meas"
           "\tl1_sectors_pred\tl1_sectors_meas\tl1_ok\tl2_sectors_pred\tl2_sectors_meas"
           "\tl2_err_pct\tdram_sectors_pred\tdram_sectors_meas\tdram_err_pct\tdram_ok"
           "\ttime_ns\tverdict\n");
    for (int i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        fprintf(out, "%s\t%u\t%llu\t%.0f\t", r->pattern, r->elem_bytes,
               (unsigned long long)r->stride, r->pred.l1_requests);
        num(out, r->l1_requests);
        fprintf(out, "\t%.0f\t", r->pred.l1_sectors);
        num(out, r->l1_sectors);
        fprintf(out, "\t%d\t%.0f\t", r->l1_ok, r->pred.l2_sectors);
        num(out, r->l2_sectors);
        fprintf(out, "\t");
        pct(out, r->l2_err);
        fprintf(out, "\t%.0f\t", r->pred.dram_sectors);
        num(out, r->dram_sectors);
        fprintf(out, "\t");
        pct(out, r->dram_err);
        fprintf(out, "\t%d\t", r->dram_ok);
        num(out, r->time_ns);
        fprintf(out, "\t%s\n", r->ok ? "agree" : "DISAGREE");
    }
}

int sro_compare(FILE *out, const char *path, int markdown, int strict, int generic,
                const char *chart, uint64_t opt_n, uint64_t opt_g, uint64_t opt_l2,
                uint64_t opt_wpb, int have_opt_seed, uint64_t opt_seed, sm_reuse reuse)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "sector_compare: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    int rc = sro_compare_stream(out, in, path, markdown, strict, generic, chart, opt_n, opt_g,
                                opt_l2, opt_wpb, have_opt_seed, opt_seed, reuse);
    fclose(in);
    return rc;
}

int sro_compare_stream(FILE *out, FILE *in, const char *path, int markdown, int strict,
                       int generic, const char *chart, uint64_t opt_n, uint64_t opt_g,
                       uint64_t opt_l2, uint64_t opt_wpb, int have_opt_seed, uint64_t opt_seed,
                       sm_reuse reuse)
{
    meta m;
    memset(&m, 0, sizeof m);
    static row rows[MAX_ROWS];
    int nrows = 0;
    char err[512];
    if (read_table(in, path, rows, &nrows, &m, err, sizeof err)) {
        fprintf(stderr, "sector_compare: %s\n", err);
        return 1;
    }
    sm_config cfg;
    if (ro_config(path, &m, &cfg, opt_n, opt_g, opt_l2, opt_wpb, have_opt_seed, opt_seed, reuse))
        return 1;
    const int disagree = ro_judge(path, rows, nrows, &cfg);
    if (disagree < 0)
        return 1;
    if (generic) {
        legacy_generic(out, rows, nrows, &m, markdown);
        if (markdown)
            fprintf(out, "\n%d of %d rows disagree.\n", disagree, nrows);
    } else {
        if (markdown)
            ro_markdown(out, rows, nrows, &m, reuse, disagree);
        else
            ro_tsv(out, path, rows, nrows, &m, reuse);
        print_gathers(out, rows, nrows, markdown);
    }
    if (disagree)
        fprintf(stderr, "sector_compare: %d of %d rows disagree with the model\n", disagree, nrows);
    if (chart && write_chart(chart, rows, nrows, &m) != 0)
        return 1;
    return strict && disagree ? SECTOR_RC_DISAGREE : 0;
}

/* ------------------------------------------------------------ readonly from a run */

/* The readonly family's measured table (the input of the readonly mode above)
 * or its L2 fetch-granularity row, from the engine's table of the profiled
 * run and bin/ncu_extract's table: the k-th row of pattern P pairs with the
 * k-th launch of readonly_P. */
int sro_join_tables(FILE *out, const tsv_table *runs, const tsv_table *ncu, const char *runs_path,
                    const char *ncu_path, unsigned granule, int l2row, const char *limit)
{
    static const char *const order[] = { "strided", "strided_float4", "baseline", "float4",
                                         "nondiverging", "random_access" };
    static const char *const mname[5] = {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
        "dram__sectors_read.sum", "gpu__time_duration.sum" };
    int printed = 0;
    if (tsv_col(runs, "kernel") < 0 || tsv_col(runs, "n") < 0 || tsv_col(ncu, "kernel") < 0) {
        fprintf(stderr, "%s: %s needs kernel and n, %s kernel (the engine's table and "
                "bin/ncu_extract's)\n", PROG, runs_path, ncu_path);
        return 1;
    }
    const char *device = tsv_meta(runs, "device");
    if (l2row)
        fprintf(out, "# sector_compare --family readonly --l2-fetch-row: one isolated 4 B load per "
                "128 B line\n# device\t%s\n# l2_fetch_limit_bytes 0 = the driver's default; "
                "granule_bytes = 32 * dram_sectors / l2_sectors, rounded to 32, 64 or 128\n"
                "l2_fetch_limit_bytes\tn\tstride\tl2_sectors\tdram_sectors\tdram_per_l2"
                "\tgranule_bytes\n", device ? device : "-");
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++)
        for (size_t r = 0; r < runs->nrow; r++) {
            const char *pat = tsv_get(runs, r, "kernel");
            sm_kernel k;
            if (sm_kernel_from_name(pat, &k)) {
                fprintf(stderr, "%s: %s: row %zu: unknown readonly kernel '%s'\n", PROG, runs_path,
                        r + 1, pat);
                return 1;
            }
            if (strcmp(pat, order[o]))
                continue;
            if (l2row && strcmp(pat, "strided"))
                continue;
            size_t kth = 0, seen = 0;
            for (size_t j = 0; j < r; j++)
                kth += !strcmp(tsv_get(runs, j, "kernel"), pat);
            char want[64], have[256];
            snprintf(want, sizeof want, "readonly_%s", pat);
            long hit = -1;
            for (size_t j = 0; j < ncu->nrow && hit < 0; j++) {
                sct_base_name(tsv_get(ncu, j, "kernel"), have, sizeof have);
                if (!strcmp(have, want) && seen++ == kth)
                    hit = (long)j;
            }
            double v[5];
            for (int i = 0; i < 5; i++) {
                const int c = tsv_col(ncu, mname[i]);
                v[i] = hit >= 0 && c >= 0 ? tsv_parse_num(ncu->cell[(size_t)hit * ncu->ncol + c]) : NAN;
            }
            if (hit < 0)
                fprintf(stderr, "%s: %s has no launch %zu of %s: its row is NA\n", PROG, ncu_path,
                        kth + 1, want);
            uint64_t stride = 1;
            const char *cfg = tsv_get(runs, r, "config");
            if (strstr(pat, "strided") && sct_config_value(cfg, "stride", &stride)) {
                fprintf(stderr, "%s: %s: row %zu (%s): no stride=S in the config '%s'\n", PROG,
                        runs_path, r + 1, pat, cfg ? cfg : "");
                return 1;
            }
            const char *n = tsv_get(runs, r, "n");
            if (!printed && !l2row) {
                fprintf(out, "# sector_compare --family readonly --measured: sectors measured by "
                        "Nsight Compute (compare: bin/sector_compare FILE)\n# device\t%s\n# n\t%s\n"
                        "# wpb\t%s\n# dram_granularity_bytes\t%u\npattern\telem_bytes\tstride"
                        "\tl1_requests\tl1_sectors\tl2_sectors\tdram_sectors\ttime_ns\n",
                        device ? device : "-", n, tsv_get(runs, r, "warps_per_block")
                        ? tsv_get(runs, r, "warps_per_block") : "4", granule);
            }
            printed++;
            if (l2row) {
                const double ratio = v[2] > 0 ? v[3] / v[2] : NAN;
                const unsigned g = isnan(ratio) ? 0 : ratio > 3 ? 128 : ratio > 1.5 ? 64 : 32;
                fprintf(out, "%s\t%s\t%llu\t", limit, n, (unsigned long long)stride);
                num(out, v[2]);
                fputc('\t', out);
                num(out, v[3]);
                if (isnan(ratio))
                    fputs("\tNA\tNA\n", out);
                else
                    fprintf(out, "\t%.4f\t%u\n", ratio, g);
                continue;
            }
            fprintf(out, "%s\t%u\t%llu", pat, sm_kernel_elem_bytes(k), (unsigned long long)stride);
            for (int i = 0; i < 5; i++) {
                fputc('\t', out);
                num(out, v[i]);
            }
            fputc('\n', out);
        }
    if (!printed) {
        fprintf(stderr, "%s: %s has no readonly row%s\n", PROG, runs_path,
                l2row ? " of strided" : "");
        return 1;
    }
    return 0;
}

int sro_join(FILE *out, const char *runs_path, const char *ncu_path, unsigned granule, int l2row,
             const char *limit)
{
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
    int rc = sro_join_tables(out, &runs, &ncu, runs_path, ncu_path, granule, l2row, limit);
    tsv_free(&runs);
    tsv_free(&ncu);
    return rc;
}
