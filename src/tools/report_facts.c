/*
 * report_facts - the numbers and the sentences of scripts/report.sh.
 *
 *   report_facts readonly RO.tsv [PROFILE.tsv] [device options]
 *   report_facts sweep SWEEP.txt [device options] [--latency CYCLES]
 *   report_facts ladder LEVELS.tsv [device options]
 *
 * Every interpretation in the report is computed here from the measured
 * tables, never typed in: the report shows what this GPU did, so a sentence
 * must change when the numbers do.  Output (stdout) is one TSV table - a
 * header row and one row per item, values already formatted for display -
 * and interpretation sentences as "# note<TAB>sentence" lines, which the
 * report prints as paragraphs under the table.
 *
 * Device options (from `warplog info` of a log; each has a fallback in the
 * table's own "#" metadata where the producer writes one):
 *   --sm-count N        SMs
 *   --clock-mhz F       SM clock used to turn cycles into time
 *   --peak-gbps F       DRAM peak bandwidth
 *   --max-warps-per-sm W  the most resident warps of one SM
 *
 * Little's law (src/lib/littles.h): bytes that must be in flight to sustain
 * a bandwidth B when each load takes L cycles of a clock f are B x L / f;
 * resident warps hold warps_per_sm x bytes_per_warp per SM.
 *
 * Exit status: 0 ok, 1 unreadable or malformed table, 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "littles.h"
#include "sweep.h"

static const char usage_text[] =
    "usage: report_facts readonly RO.tsv [PROFILE.tsv] [device options]\n"
    "       report_facts sweep SWEEP.txt [device options] [--latency CYCLES]\n"
    "       report_facts ladder LEVELS.tsv [device options]\n"
    "  Tables and computed interpretations for scripts/report.sh: a TSV table on\n"
    "  stdout, then '# note<TAB>sentence' lines.\n"
    "  readonly  RO.tsv is the stdout of ./readonly N 0 WPB, PROFILE.tsv that of\n"
    "            ./readonly_profile: time, bandwidth, % of peak, latency per kernel,\n"
    "            instrumentation overhead, and Little's law for the coalesced kernels\n"
    "  sweep     an occupancy sweep (docs/postprocessors.md): each point against the\n"
    "            Little's-law bound at its own latency\n"
    "  ladder    the level table of bin/plot_ladder: ratios between levels and what\n"
    "            the DRAM latency asks of occupancy\n"
    "device options:\n"
    "  --sm-count N      SMs [the table's metadata]\n"
    "  --clock-mhz F     SM clock in MHz [the table's metadata]\n"
    "  --peak-gbps F     DRAM peak in GB/s [the table's metadata]\n"
    "  --max-warps-per-sm W  resident warps an SM can hold (max threads / 32)\n"
    "  --latency C       sweep: unloaded latency in cycles (e.g. the ladder's DRAM\n"
    "                    plateau) [the lowest p50 of the sweep]\n"
    "  -h, --help        this text\n";

/* ------------------------------------------------------------ TSV table */

#define MAXCOLS 64

typedef struct table {
    char **meta_key, **meta_val;
    size_t nmeta;
    char *cols[MAXCOLS];
    size_t ncols;
    char ***rows; /* rows[i][j], ncols fields each */
    size_t nrows;
} table;

static char *xstrdup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (!d) { fprintf(stderr, "report_facts: out of memory\n"); exit(1); }
    return strcpy(d, s);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) { fprintf(stderr, "report_facts: out of memory\n"); exit(1); }
    return p;
}

/* Split line at tabs into at most max fields (the line is modified). */
static size_t split_tabs(char *line, char **f, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (n < max) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = 0;
        p = t + 1;
    }
    return n;
}

/* Reads "# key<TAB>value" metadata, a header row and rows; 0 or -1 (message printed). */
static int table_read(const char *path, table *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "report_facts: cannot open %s\n", path); return -1; }
    char line[8192];
    size_t lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (len == 0) continue;
        if (line[0] == '#') {
            char *p = line + 1;
            while (*p == ' ') p++;
            char *tab = strchr(p, '\t');
            if (!tab) continue;
            *tab = 0;
            t->meta_key = xrealloc(t->meta_key, (t->nmeta + 1) * sizeof *t->meta_key);
            t->meta_val = xrealloc(t->meta_val, (t->nmeta + 1) * sizeof *t->meta_val);
            t->meta_key[t->nmeta] = xstrdup(p);
            t->meta_val[t->nmeta++] = xstrdup(tab + 1);
            continue;
        }
        char *fields[MAXCOLS];
        size_t n = split_tabs(line, fields, MAXCOLS);
        if (t->ncols == 0) {
            for (size_t i = 0; i < n; i++) t->cols[i] = xstrdup(fields[i]);
            t->ncols = n;
            continue;
        }
        if (n != t->ncols) {
            fprintf(stderr, "report_facts: %s line %zu: %zu fields, the header has %zu\n", path,
                    lineno, n, t->ncols);
            fclose(f);
            return -1;
        }
        t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof *t->rows);
        char **r = xrealloc(NULL, n * sizeof *r);
        for (size_t i = 0; i < n; i++) r[i] = xstrdup(fields[i]);
        t->rows[t->nrows++] = r;
    }
    fclose(f);
    if (t->ncols == 0) { fprintf(stderr, "report_facts: %s has no header row\n", path); return -1; }
    return 0;
}

static int table_col(const table *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (strcmp(t->cols[i], name) == 0) return (int)i;
    return -1;
}

/* The leading number of a metadata value ("3352.3 (memory clock ...)" -> 3352.3); NAN if none. */
static double table_meta_num(const table *t, const char *key)
{
    for (size_t i = t->nmeta; i-- > 0;)
        if (strcmp(t->meta_key[i], key) == 0) {
            char *end;
            double v = strtod(t->meta_val[i], &end);
            return end == t->meta_val[i] ? NAN : v;
        }
    return NAN;
}

static const char *table_meta(const table *t, const char *key)
{
    for (size_t i = t->nmeta; i-- > 0;)
        if (strcmp(t->meta_key[i], key) == 0) return t->meta_val[i];
    return NULL;
}

static double num(const char *s)
{
    if (!s || !*s || strcmp(s, "-") == 0) return NAN;
    char *end;
    double v = strtod(s, &end);
    return *end ? NAN : v;
}

static double cell(const table *t, size_t row, const char *col)
{
    int c = table_col(t, col);
    return c < 0 ? NAN : num(t->rows[row][c]);
}

static const char *cell_str(const table *t, size_t row, const char *col)
{
    int c = table_col(t, col);
    return c < 0 ? "" : t->rows[row][c];
}

/* ------------------------------------------------------------ formatting */

/* Decimal SI bytes: 8192 -> "8.2 KB", 1320600 -> "1.32 MB". */
static const char *fmt_bytes(double b, char *buf, size_t len)
{
    static const char *unit[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (fabs(b) >= 1000 && u < 4) { b /= 1000; u++; }
    if (u == 0) snprintf(buf, len, "%.0f B", b);
    else snprintf(buf, len, fabs(b) < 10 ? "%.2f %s" : fabs(b) < 100 ? "%.1f %s" : "%.0f %s", b,
                  unit[u]);
    /* one decimal for KB per SM reads better than two: 10.0 KB, 8.2 KB */
    if (u == 1 && fabs(b) < 10) snprintf(buf, len, "%.1f %s", b, unit[u]);
    return buf;
}

static const char *fmt_num(double v, const char *fmt, char *buf, size_t len)
{
    if (isnan(v)) snprintf(buf, len, "n/a");
    else snprintf(buf, len, fmt, v);
    return buf;
}

/* Binary sizes for the ladder's working sets: 220416 -> "215 KiB". */
static const char *fmt_size(double b, char *buf, size_t len)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) { b /= 1024; u++; }
    snprintf(buf, len, b < 10 && u ? "%.1f %s" : "%.0f %s", b, unit[u]);
    return buf;
}

typedef struct device {
    double sm_count, clock_MHz, peak_GBps;
    double max_warps_per_sm; /* NAN when unknown */
} device;

/* ", more than the N an SM can hold..." when the device's limit is known and exceeded. */
static const char *over_limit(double warps, device d, char *buf, size_t len)
{
    if (d.max_warps_per_sm > 0 && warps > d.max_warps_per_sm)
        snprintf(buf, len, ", more than the %.0f an SM can hold", d.max_warps_per_sm);
    else
        buf[0] = 0;
    return buf;
}

/* Bytes one warp's load instruction asks for, by kernel name: 32 lanes x the
 * element size.  0 when the kernel's loads are not one coalesced stream. */
static double kernel_bytes_per_warp(const char *kernel)
{
    if (strcmp(kernel, "baseline") == 0) return 32 * 4;
    if (strcmp(kernel, "float4") == 0) return 32 * 16;
    return 0;
}

/* ------------------------------------------------------------ readonly */

static int cmd_readonly(const char *ro_path, const char *prof_path, device d)
{
    table ro, pr;
    int have_pr = 0;
    if (table_read(ro_path, &ro) != 0) return 1;
    if (prof_path) {
        if (table_read(prof_path, &pr) != 0) return 1;
        have_pr = 1;
    }
    if (table_col(&ro, "kernel") < 0 || table_col(&ro, "kernel_ms") < 0) {
        fprintf(stderr, "report_facts: %s has no kernel and kernel_ms columns\n", ro_path);
        return 1;
    }
    if (isnan(d.peak_GBps)) d.peak_GBps = table_meta_num(&ro, "peak_dram_GBps");
    if (isnan(d.clock_MHz)) d.clock_MHz = table_meta_num(&ro, "sm_clock_nominal_MHz");
    if (isnan(d.sm_count)) {
        /* "# device  NAME (sm_90, 132 SMs, L2 51200 KiB)" */
        const char *dev = table_meta(&ro, "device");
        const char *p = dev ? strstr(dev, " SMs") : NULL;
        if (p) {
            while (p > dev && (p[-1] >= '0' && p[-1] <= '9')) p--;
            d.sm_count = atof(p);
        }
    }

    printf("kernel\tms\tGB/s\t%% of peak\tmean latency (cycles)\tp50 (cycles)\tp95 (cycles)");
    if (have_pr) printf("\tuninstrumented ms\toverhead %%");
    printf("\n");
    double ovh_min = INFINITY, ovh_max = -INFINITY;
    const char *ovh_min_k = "", *ovh_max_k = "";
    double best_pct = -1;
    size_t best = 0;
    char b1[64], b2[64], b3[64], b4[64], b5[64], b6[64];
    for (size_t i = 0; i < ro.nrows; i++) {
        const char *k = cell_str(&ro, i, "kernel");
        double ms = cell(&ro, i, "kernel_ms"), bw = cell(&ro, i, "bw_GBps");
        double pct = cell(&ro, i, "pct_peak");
        if (isnan(pct) && !isnan(bw)) pct = 100 * bw / d.peak_GBps;
        if (!isnan(pct) && pct > best_pct) { best_pct = pct; best = i; }
        printf("%s\t%s\t%s\t%s\t%s\t%s\t%s", k, fmt_num(ms, "%.4f", b1, sizeof b1),
               fmt_num(bw, "%.1f", b2, sizeof b2), fmt_num(pct, "%.1f", b3, sizeof b3),
               fmt_num(cell(&ro, i, "lat_mean_cycles"), "%.0f", b4, sizeof b4),
               fmt_num(cell(&ro, i, "lat_p50_cycles"), "%.0f", b5, sizeof b5),
               fmt_num(cell(&ro, i, "lat_p95_cycles"), "%.0f", b6, sizeof b6));
        if (have_pr) {
            double pms = NAN;
            for (size_t j = 0; j < pr.nrows; j++)
                if (strcmp(cell_str(&pr, j, "kernel"), k) == 0) pms = cell(&pr, j, "kernel_ms");
            double ovh = 100 * (ms - pms) / pms;
            printf("\t%s\t%s", fmt_num(pms, "%.4f", b1, sizeof b1),
                   fmt_num(ovh, "%+.1f", b2, sizeof b2));
            if (!isnan(ovh)) {
                if (ovh < ovh_min) { ovh_min = ovh; ovh_min_k = k; }
                if (ovh > ovh_max) { ovh_max = ovh; ovh_max_k = k; }
            }
        }
        printf("\n");
    }

    double wpb = ro.nrows ? cell(&ro, 0, "warps_per_block") : NAN;
    if (ro.nrows && best_pct >= 0)
        printf("# note\tFastest kernel at %.0f warps per block: %s, %.1f GB/s = %.1f%% of the "
               "%.0f GB/s DRAM peak.\n", wpb, cell_str(&ro, best, "kernel"),
               cell(&ro, best, "bw_GBps"), best_pct, d.peak_GBps);

    /* Little's law for the coalesced kernels: what the median latency asks
     * to be in flight, against what the resident warps can hold. */
    for (size_t i = 0; i < ro.nrows; i++) {
        const char *k = cell_str(&ro, i, "kernel");
        double bpw = kernel_bytes_per_warp(k);
        double p50 = cell(&ro, i, "lat_p50_cycles");
        double bps = cell(&ro, i, "blocks_per_sm"), w = cell(&ro, i, "warps_per_block");
        double clk = cell(&ro, i, "sm_clock_MHz");
        if (!(clk > 0)) clk = d.clock_MHz;
        double pct = cell(&ro, i, "pct_peak");
        if (isnan(pct)) pct = 100 * cell(&ro, i, "bw_GBps") / d.peak_GBps;
        if (bpw == 0 || !(p50 > 0) || !(clk > 0) || !(d.sm_count > 0) || !(d.peak_GBps > 0))
            continue;
        double need_B = littles_bytes_in_flight(d.peak_GBps, p50, clk);
        double warps_per_sm = bps * w;
        double held_B = warps_per_sm * bpw; /* per SM */
        double bound = littles_bound_GBps(d.peak_GBps, d.sm_count, warps_per_sm, bpw, clk, p50);
        double bw = cell(&ro, i, "bw_GBps");
        printf("# note\t%s reaches %.0f%% of peak at %.0f warps per block; at the measured "
               "%.0f-cycle median latency Little's law needs %.0f GB/s x %.0f cycles / %.2f GHz = "
               "%s in flight across the GPU (%s per SM), while %.0f resident warps x %.0f B hold "
               "%s per SM",
               k, pct, w, p50, d.peak_GBps, p50, clk / 1000, fmt_bytes(need_B, b1, sizeof b1),
               fmt_bytes(need_B / d.sm_count, b2, sizeof b2), warps_per_sm, bpw,
               fmt_bytes(held_B, b3, sizeof b3));
        double unb = littles_unbounded_GBps(d.sm_count, warps_per_sm, bpw, clk, p50);
        if (!isnan(unb) && unb >= d.peak_GBps && !isnan(bw))
            printf(": enough to reach the peak (the bound is %.0f GB/s before the peak caps it), "
                   "and the kernel achieves %.0f%% of the peak.\n", unb, pct);
        else if (!isnan(bound) && !isnan(bw))
            printf(": the bound at this occupancy is %.0f GB/s, and the kernel achieves %.0f%% "
                   "of it%s.\n", bound, 100 * bw / bound,
                   bw < 0.7 * bound ? " (far below: time between blocks and the tail, "
                                      "not latency alone, limit it)"
                                    : " (latency-bound: more bytes in flight per warp or more "
                                      "warps would help)");
        else
            printf(".\n");
    }
    if (have_pr && isfinite(ovh_min))
        printf("# note\tInstrumentation overhead at %.0f warps per block: from %+.1f%% (%s) to "
               "%+.1f%% (%s) of the uninstrumented kernel time.\n",
               wpb, ovh_min, ovh_min_k, ovh_max, ovh_max_k);
    return 0;
}

/* ------------------------------------------------------------ sweep */

static int cmd_sweep(const char *path, device d, double latency)
{
    sweep s;
    char err[512];
    if (sweep_read(path, &s, err, sizeof err) != 0) {
        fprintf(stderr, "report_facts: %s\n", err);
        return 1;
    }
    if (isnan(d.sm_count)) d.sm_count = sweep_meta_num(&s, "sm_count");
    if (isnan(d.peak_GBps)) d.peak_GBps = sweep_meta_num(&s, "peak_dram_GBps");
    double clk = sweep_meta_num(&s, "sm_clock_measured_MHz");
    if (!(clk > 0)) clk = d.clock_MHz;
    if (!(clk > 0)) clk = sweep_meta_num(&s, "sm_clock_nominal_khz") / 1000;
    double bpw = sweep_meta_num(&s, "bytes_per_warp_load");
    const char *kernel = sweep_meta_get(&s, "kernel");
    if (!kernel) kernel = "sweep";
    int latency_given = !isnan(latency);
    if (isnan(latency)) {
        for (size_t i = 0; i < s.npoints; i++) {
            double l = s.points[i].lat_p50_cycles;
            if (isnan(l)) l = s.points[i].lat_mean_cycles;
            if (l > 0 && (isnan(latency) || l < latency)) latency = l;
        }
    }

    printf("warps per SM\toccupancy %%\tGB/s\t%% of peak\tmean latency (cycles)\t"
           "bound at that latency (GB/s)\tmeasured / bound %%\n");
    char b1[64], b2[96], b3[64], b4[64], b5[64], b6[64], b7[64];
    size_t best = 0;
    int nbound = 0, ntight = 0;
    double tight_max_w = NAN;
    for (size_t i = 0; i < s.npoints; i++) {
        const sweep_point *p = &s.points[i];
        double bound = littles_bound_GBps(d.peak_GBps, d.sm_count, p->warps_per_sm, bpw, clk,
                                          p->lat_mean_cycles);
        double ratio = 100 * p->bw_GBps / bound;
        if (!isnan(p->bw_GBps) && (isnan(s.points[best].bw_GBps) || p->bw_GBps > s.points[best].bw_GBps))
            best = i;
        if (!isnan(ratio)) {
            nbound++;
            if (ratio >= 80) { ntight++; tight_max_w = p->warps_per_sm; }
        }
        printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", fmt_num(p->warps_per_sm, "%.0f", b1, sizeof b1),
               fmt_num(p->occupancy_pct, "%.1f", b2, sizeof b2),
               fmt_num(p->bw_GBps, "%.1f", b3, sizeof b3),
               fmt_num(100 * p->bw_GBps / d.peak_GBps, "%.1f", b4, sizeof b4),
               fmt_num(p->lat_mean_cycles, "%.0f", b5, sizeof b5),
               fmt_num(bound, "%.0f", b6, sizeof b6), fmt_num(ratio, "%.0f", b7, sizeof b7));
    }
    if (s.npoints) {
        const sweep_point *b = &s.points[best];
        printf("# note\t%s: the highest bandwidth is %.1f GB/s (%.1f%% of the %.0f GB/s peak) at "
               "%.0f warps per SM (%.0f%% occupancy), with a mean warp latency of %.0f cycles.\n",
               kernel, b->bw_GBps, 100 * b->bw_GBps / d.peak_GBps, d.peak_GBps, b->warps_per_sm,
               b->occupancy_pct, b->lat_mean_cycles);
    }
    if (latency > 0 && bpw > 0) {
        double w_full = littles_warps_per_sm_for(1.0, d.peak_GBps, d.sm_count, bpw, clk, latency);
        if (isnan(d.max_warps_per_sm))
            d.max_warps_per_sm = sweep_meta_num(&s, "max_threads_per_sm") / 32;
        printf("# note\tAt the %s latency of %.0f cycles and %.0f B per warp, Little's "
               "law reaches the peak only with %.0f warps per SM (%s in flight per SM)%s.\n",
               latency_given ? "unloaded" : "sweep's least-loaded", latency, bpw, ceil(w_full),
               fmt_bytes(littles_bytes_in_flight(d.peak_GBps, latency, clk) / d.sm_count, b1,
                         sizeof b1),
               over_limit(ceil(w_full), d, b2, sizeof b2));
    }
    if (nbound)
        printf("# note\t%d of %d points are within 80%% of the bound at their own latency "
               "(latency-bound)%s%s.\n", ntight, nbound,
               ntight ? "; the largest of them has " : "",
               ntight ? fmt_num(tight_max_w, "%.0f warps per SM", b1, sizeof b1) : "");
    sweep_free(&s);
    return 0;
}

/* ------------------------------------------------------------ ladder */

static int cmd_ladder(const char *path, device d)
{
    table t;
    if (table_read(path, &t) != 0) return 1;
    int cl = table_col(&t, "level"), cf = table_col(&t, "from_bytes"),
        ct = table_col(&t, "to_bytes"), cc = table_col(&t, "cycles"), cn = table_col(&t, "ns");
    if (cl < 0 || cf < 0 || ct < 0 || cc < 0 || cn < 0) {
        fprintf(stderr, "report_facts: %s is not a plot_ladder level table\n", path);
        return 1;
    }
    char b1[64], b2[64], b3[96];
    printf("level\tfrom\tto\tcycles\tns\tx first level\n");
    double first = t.nrows ? num(t.rows[0][cc]) : NAN;
    for (size_t i = 0; i < t.nrows; i++) {
        double c = num(t.rows[i][cc]);
        printf("%s\t%s\t%s\t%.1f\t%.1f\t%.1f\n", t.rows[i][cl],
               fmt_size(num(t.rows[i][cf]), b1, sizeof b1),
               fmt_size(num(t.rows[i][ct]), b2, sizeof b2), c, num(t.rows[i][cn]), c / first);
    }
    if (t.nrows < 2) {
        printf("# note\tFewer than two plateaus were found: read the chart.\n");
        return 0;
    }
    printf("# note\t");
    for (size_t i = 0; i < t.nrows; i++)
        printf("%s%s %.0f cycles (%.0f ns, up to %s)", i ? (i + 1 == t.nrows ? " and " : ", ") : "",
               t.rows[i][cl], num(t.rows[i][cc]), num(t.rows[i][cn]),
               fmt_size(num(t.rows[i][ct]), b1, sizeof b1));
    size_t last = t.nrows - 1;
    double dram = num(t.rows[last][cc]), dram_ns = num(t.rows[last][cn]);
    printf(": a dependent load from %s takes %.1fx as long as from %s.\n", t.rows[last][cl],
           dram / first, t.rows[0][cl]);
    double clk = dram_ns > 0 ? dram * 1000 / dram_ns : d.clock_MHz; /* the ladder's own clock */
    if (d.peak_GBps > 0 && d.sm_count > 0 && clk > 0) {
        double need = littles_bytes_in_flight(d.peak_GBps, dram, clk);
        double w128 = littles_warps_per_sm_for(1.0, d.peak_GBps, d.sm_count, 128, clk, dram);
        double w512 = littles_warps_per_sm_for(1.0, d.peak_GBps, d.sm_count, 512, clk, dram);
        printf("# note\tAt the unloaded %s latency of %.0f cycles, streaming at the %.0f GB/s peak "
               "needs %s in flight across the GPU (%s per SM): %.0f warps per SM each waiting on "
               "a 128 B load (4 B per lane)%s, or %.0f with 512 B (float4) loads.\n",
               t.rows[last][cl], dram, d.peak_GBps, fmt_bytes(need, b1, sizeof b1),
               fmt_bytes(need / d.sm_count, b2, sizeof b2), ceil(w128),
               over_limit(ceil(w128), d, b3, sizeof b3), ceil(w512));
    }
    return 0;
}

/* ------------------------------------------------------------ main */

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "report_facts: %s%s\n(report_facts --help for usage)\n", msg, arg);
    return 2;
}

int main(int argc, char **argv)
{
    device d = {NAN, NAN, NAN, NAN};
    double latency = NAN;
    const char *pos[3] = {0};
    int np = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        double *dst = strcmp(a, "--sm-count") == 0    ? &d.sm_count
                      : strcmp(a, "--clock-mhz") == 0 ? &d.clock_MHz
                      : strcmp(a, "--peak-gbps") == 0 ? &d.peak_GBps
                      : strcmp(a, "--latency") == 0   ? &latency
                      : strcmp(a, "--max-warps-per-sm") == 0 ? &d.max_warps_per_sm
                                                      : NULL;
        if (dst) {
            if (i + 1 >= argc) return usage_error(a, " needs a value");
            double v = num(argv[++i]);
            if (!(v > 0)) return usage_error("not a number > 0: ", argv[i]);
            *dst = v;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option ", a);
        } else {
            if (np == 3) return usage_error("too many arguments from ", a);
            pos[np++] = a;
        }
    }
    if (np == 0) return usage_error("a command is needed: readonly, sweep or ladder", "");
    if (strcmp(pos[0], "readonly") == 0 && (np == 2 || np == 3))
        return cmd_readonly(pos[1], np == 3 ? pos[2] : NULL, d);
    if (strcmp(pos[0], "sweep") == 0 && np == 2) return cmd_sweep(pos[1], d, latency);
    if (strcmp(pos[0], "ladder") == 0 && np == 2) return cmd_ladder(pos[1], d);
    return usage_error("unknown command or wrong number of arguments: ", pos[0]);
}
