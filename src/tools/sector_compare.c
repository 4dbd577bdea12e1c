/*
 * sector_compare - predicted sectors next to the ones Nsight Compute
 * measured, row by row, with a verdict for each.
 *
 *   sector_compare MEASURED.tsv [--markdown] [--strict] [--chart OUT.svg]
 *                  [--n N] [--dram-granularity B] [--l2-bytes B]
 *                  [--reuse lru|all|none] [--wpb W] [--seed S]
 *
 * MEASURED.tsv is what scripts/ncu_profile.sh writes: "#" metadata lines
 * ("# n<TAB>100000000", "# wpb<TAB>4", "# dram_granularity_bytes<TAB>64")
 * then a header naming at least pattern, elem_bytes, stride, l1_sectors,
 * l2_sectors, dram_sectors (l1_requests and time_ns are used when present).
 * Options override the metadata.
 *
 * A row agrees when its L1 sectors equal the prediction (every kernel's is
 * exact, random_access's too: the model enumerates its permutation) and its
 * DRAM sectors are within 5 %.  L2 sectors are shown, not judged.  After the
 * main table comes the gather comparison (random_access / nondiverging).
 * Exit status: 0, or with --strict 1 when any row disagrees; 1 on a runtime
 * failure (unreadable file, gnuplot failed); 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include "gp.h"
#include "sector_model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void usage(FILE *f)
{
    fprintf(f,
        "usage: sector_compare MEASURED.tsv [options]\n"
        "  Predicted vs measured sectors for each row of a scripts/ncu_profile.sh table.\n"
        "  --markdown              a Markdown table instead of TSV\n"
        "  --strict                exit 1 when any row disagrees\n"
        "  --chart OUT.svg         draw sectors and time vs stride with gnuplot\n"
        "                          (writes OUT.gp and OUT.dat beside it)\n"
        "  --n N                   floats in the array (default: '# n' of the file, else 1e8)\n"
        "  --dram-granularity B    32, 64 or 128 (default: '# dram_granularity_bytes', else %u)\n"
        "  --l2-bytes B            effective L2 capacity of the LRU model (default: '# l2_bytes',\n"
        "                          else %llu, one of the H100's two partitions)\n"
        "  --reuse lru|all|none    L2 reuse assumption (default lru)\n"
        "  --wpb W                 warps per block of the run (default: '# wpb', else 4)\n"
        "  --seed S                random_access's permutation seed (default: '# seed', else %llu)\n"
        "  -h, --help              this text\n"
        "Agreement: L1 sectors equal, DRAM sectors within 5 %%.  After the main table, the\n"
        "gathers side by side (random_access / nondiverging) when both rows are present.\n",
        SM_GRANULE_DEFAULT, (unsigned long long)SM_L2_EFFECTIVE_BYTES_H100,
        (unsigned long long)SM_SEED_DEFAULT);
}

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
        printf("\nGathers: coalesced (nondiverging) vs divergent (random_access)\n\n");
        printf("| Quantity | Coalesced | Divergent | Divergent / coalesced |\n");
        printf("|---|---:|---:|---:|\n");
        for (int i = 0; i < 5; i++) {
            double sc = i == 4 ? 1e-3 : 1; /* time in us */
            printf("| %s | ", q[i].name);
            if (i == 4 && !isnan(q[i].c)) printf("%.1f", q[i].c * sc); else num(stdout, q[i].c);
            printf(" | ");
            if (i == 4 && !isnan(q[i].d)) printf("%.1f", q[i].d * sc); else num(stdout, q[i].d);
            double r = ratio(q[i].d, q[i].c);
            if (isnan(r))
                printf(" | NA |\n");
            else
                printf(" | %.2fx |\n", r);
        }
        return;
    }
    printf("\n# gathers: coalesced = nondiverging, divergent = random_access\n");
    printf("quantity\tcoalesced\tdivergent\tratio\n");
    for (int i = 0; i < 5; i++) {
        printf("%s\t", q[i].tsv);
        num(stdout, q[i].c);
        printf("\t");
        num(stdout, q[i].d);
        double r = ratio(q[i].d, q[i].c);
        if (isnan(r))
            printf("\tNA\n");
        else
            printf("\t%.4f\n", r);
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

int main(int argc, char **argv)
{
    const char *path = NULL, *chart = NULL;
    int markdown = 0, strict = 0;
    meta m = { 0 };
    uint64_t opt_n = 0, opt_g = 0, opt_l2 = 0, opt_wpb = 0, opt_seed = 0;
    int have_opt_seed = 0;
    sm_reuse reuse = SM_REUSE_LRU;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--markdown")) {
            markdown = 1;
        } else if (!strcmp(a, "--strict")) {
            strict = 1;
        } else if (!strcmp(a, "--chart") || !strcmp(a, "--n") ||
                   !strcmp(a, "--dram-granularity") || !strcmp(a, "--l2-bytes") ||
                   !strcmp(a, "--reuse") || !strcmp(a, "--wpb") || !strcmp(a, "--seed")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "sector_compare: %s needs a value\n", a);
                usage(stderr);
                return 2;
            }
            const char *v = argv[++i];
            uint64_t x = 0;
            if (!strcmp(a, "--chart")) {
                chart = v;
                continue;
            }
            if (!strcmp(a, "--reuse")) {
                if (sm_reuse_from_name(v, &reuse)) {
                    fprintf(stderr, "sector_compare: --reuse must be lru, all or none\n");
                    return 2;
                }
                continue;
            }
            if (!strcmp(a, "--seed")) {
                if (parse_u64(v, &opt_seed)) {
                    fprintf(stderr, "sector_compare: --seed: '%s' is not a non-negative integer\n", v);
                    return 2;
                }
                have_opt_seed = 1;
                continue;
            }
            if (parse_u64(v, &x) || x == 0) {
                fprintf(stderr, "sector_compare: %s: '%s' is not a positive integer\n", a, v);
                return 2;
            }
            if (!strcmp(a, "--n")) opt_n = x;
            else if (!strcmp(a, "--dram-granularity")) opt_g = x;
            else if (!strcmp(a, "--l2-bytes")) opt_l2 = x;
            else opt_wpb = x;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sector_compare: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "sector_compare: more than one input file\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "sector_compare: no MEASURED.tsv given\n");
        usage(stderr);
        return 2;
    }
    if (opt_g && !sm_granule_ok((unsigned)opt_g)) {
        fprintf(stderr, "sector_compare: --dram-granularity must be 32, 64 or 128\n");
        return 2;
    }

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
    if (!sm_granule_ok((unsigned)m.granule)) {
        fprintf(stderr, "sector_compare: %s: dram_granularity_bytes %llu is not 32, 64 or 128\n",
                path, (unsigned long long)m.granule);
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

    if (markdown) {
        printf("Predicted vs measured sectors%s%s: N = %llu floats, DRAM granularity %llu B, "
               "L2 %llu B, reuse %s\n\n", m.device[0] ? ", " : "", m.device,
               (unsigned long long)m.n, (unsigned long long)m.granule,
               (unsigned long long)m.l2_bytes, sm_reuse_name(reuse));
        printf("| Pattern | Elem | Stride | L1 sectors pred | L1 sectors meas | L2 sectors meas "
               "(err) | DRAM sectors pred | DRAM sectors meas | DRAM err | Time | Verdict |\n");
        printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (int i = 0; i < nrows; i++) {
            const row *r = &rows[i];
            printf("| %s | %u B | %llu | %.0f | ", r->pattern, r->elem_bytes,
                   (unsigned long long)r->stride, r->pred.l1_sectors);
            num(stdout, r->l1_sectors);
            printf(" | ");
            num(stdout, r->l2_sectors);
            printf(" (");
            pct(stdout, r->l2_err);
            printf(" %%) | %.0f | ", r->pred.dram_sectors);
            num(stdout, r->dram_sectors);
            printf(" | ");
            pct(stdout, r->dram_err);
            printf(" %% | ");
            if (isnan(r->time_ns))
                printf("NA");
            else
                printf("%.1f us", r->time_ns / 1e3);
            printf(" | %s%s%s |\n", r->ok ? "agree" : "DISAGREE",
                   r->l1_ok ? "" : " (L1)", r->dram_ok ? "" : " (DRAM)");
        }
        printf("\n%d of %d rows disagree.\n", disagree, nrows);
    } else {
        printf("# sector_compare %s\n", path);
        printf("# n\t%llu\n# dram_granularity_bytes\t%llu\n# l2_bytes\t%llu\n# reuse\t%s\n"
               "# wpb\t%llu\n# seed\t%llu\n", (unsigned long long)m.n, (unsigned long long)m.granule,
               (unsigned long long)m.l2_bytes, sm_reuse_name(reuse), (unsigned long long)m.wpb,
               (unsigned long long)m.seed);
        printf("pattern\telem_bytes\tstride\tl1_requests_pred\tl1_requests_meas"
               "\tl1_sectors_pred\tl1_sectors_meas\tl1_ok\tl2_sectors_pred\tl2_sectors_meas"
               "\tl2_err_pct\tdram_sectors_pred\tdram_sectors_meas\tdram_err_pct\tdram_ok"
               "\ttime_ns\tverdict\n");
        for (int i = 0; i < nrows; i++) {
            const row *r = &rows[i];
            printf("%s\t%u\t%llu\t%.0f\t", r->pattern, r->elem_bytes,
                   (unsigned long long)r->stride, r->pred.l1_requests);
            num(stdout, r->l1_requests);
            printf("\t%.0f\t", r->pred.l1_sectors);
            num(stdout, r->l1_sectors);
            printf("\t%d\t%.0f\t", r->l1_ok, r->pred.l2_sectors);
            num(stdout, r->l2_sectors);
            printf("\t");
            pct(stdout, r->l2_err);
            printf("\t%.0f\t", r->pred.dram_sectors);
            num(stdout, r->dram_sectors);
            printf("\t");
            pct(stdout, r->dram_err);
            printf("\t%d\t", r->dram_ok);
            num(stdout, r->time_ns);
            printf("\t%s\n", r->ok ? "agree" : "DISAGREE");
        }
    }
    print_gathers(rows, nrows, markdown);
    if (disagree)
        fprintf(stderr, "sector_compare: %d of %d rows disagree with the model\n", disagree, nrows);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "sector_compare: cannot write the output\n");
        return 1;
    }
    if (chart && write_chart(chart, rows, nrows, &m) != 0)
        return 1;
    return strict && disagree ? 1 : 0;
}
