/*
 * report - the report's model, tables, findings and chart plan, in C
 * (scripts/report.sh only runs what this decides).
 *
 *   report plan OUTDIR                 the charts to draw, one job per line
 *                                      (and the folders they write into)
 *   report render OUTDIR [LABEL=DIR...] index.html and index.md
 *   report expected DIR [--families L] the result files DIR lacks, with the
 *                                      command that makes each
 *   report gpus DIR                    the results folders in DIR: DIR itself,
 *                                      or each of its folders that is one
 *   report chart-bandwidth OUT.svg SUMMARY...   bandwidth against WPB
 *   report chart-ladders OUT.svg LABEL=TSV...   several GPUs' ladders
 *
 * OUTDIR is a report folder: OUTDIR/data/<gpu>/ holds one results folder per
 * GPU in the layout of docs/naming.md (src/lib/results.h finds every file by
 * its name), charts go to OUTDIR/charts/<gpu>/, tables computed by a job to
 * OUTDIR/tables/<gpu>/.  `plan` prints, per job,
 *
 *   OUTPUT<TAB>STDOUT<TAB>WHAT<TAB>ARGV0<TAB>ARGV1...
 *
 * (STDOUT "-" when the job's stdout is not kept); the runner runs each
 * command and writes the jobs that failed to OUTDIR/logs/failures.tsv
 * (columns output, error).  `render` reads the results, the charts that
 * exist and that file, computes every table and sentence (src/lib/
 * report_facts.h) and writes OUTDIR/index.html and OUTDIR/index.md from one
 * model (src/lib/report_doc.h).  The LABEL=DIR arguments say where each
 * GPU's results came from, for the commands of the "missing" notes.
 *
 * Families are found from the summaries present; the few that need more
 * (sweeps, sector tables, their own findings) have one entry in FAMILIES
 * below.
 *
 * Options: --mode gpu|reference|data, --note TEXT (the top of the report),
 * --families LIST (the families the results should have: the programs this
 * checkout builds).  Exit status: 0 ok, 1 runtime failure, 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "gp.h"
#include "names.h"
#include "plateau.h"
#include "report_doc.h"
#include "report_facts.h"
#include "results.h"
#include "stats.h"
#include "sweep.h"
#include "tsv.h"
#include "warplog.h"

#define PROG "report"
#define MAX_GPUS 8
#define MAX_FAMILIES 16
#define MAX_WPB 16

/* ------------------------------------------------------------ families */

/*
 * What a family needs beyond the generic section (its summaries per WPB and
 * the bandwidth-against-WPB chart).  One entry per family that needs more.
 */
typedef struct family_info {
    const char *name;
    const char *about;                     /* one paragraph for its section */
    const char *const *sweep_variants;     /* occupancy sweeps a reference set has */
    unsigned sweep_wpb;
    int has_sectors;                       /* a sectors_<exp>.tsv is expected */
    /* variants that are one coalesced stream, so that every byte a warp asks
     * for is a byte in flight: Little's law is worded for them */
    const char *const *littles_variants;
} family_info;

static const char *const READONLY_SWEEPS[] = {"baseline", "float4", "nondiverging", "random_access", NULL};
static const char *const READONLY_LITTLES[] = {"baseline", "float4", NULL};

static const family_info FAMILIES[] = {
    {"readonly",
     "Each kernel reads N elements once (./readonly N 0 WPB: no shared-memory limit on occupancy) "
     "and is validated against a CPU reference. kernel_ms is the clean twin's median time (no "
     "probes), GB/s the bytes it asks for over that time; the latency columns are the per-warp "
     "latency of the timed load in the instrumented kernel (SM cycles); instr_ms and overhead are "
     "the instrumented kernel's time and its cost against the twin.",
     READONLY_SWEEPS, 4, 1, READONLY_LITTLES},
};

static const family_info *family_of(const char *exp)
{
    for (size_t i = 0; i < sizeof FAMILIES / sizeof FAMILIES[0]; i++)
        if (!strcmp(FAMILIES[i].name, exp)) return &FAMILIES[i];
    return NULL;
}

static int in_list(const char *const *list, const char *s)
{
    for (; list && *list; list++)
        if (!strcmp(*list, s)) return 1;
    return 0;
}

/* ------------------------------------------------------------ small helpers */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, PROG ": ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void *xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s);
    if (!p) die("out of memory");
    return p;
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "n/a" for NAN, else fmt. */
static const char *num(char *buf, size_t len, const char *fmt, double v)
{
    if (!isfinite(v)) snprintf(buf, len, "n/a");
    else snprintf(buf, len, fmt, v);
    return buf;
}

/* ------------------------------------------------------------ the GPUs */

typedef struct gpu {
    res_gpu r;
    const char *label;
    const char *source;        /* where the results came from (for commands) */
    rf_device dev;
    char name[96];
    char clock_src[200];
    char date[16];
    char driver[64];
    double mem_clock_MHz, bus_bits, nominal_MHz;
    warplog_header hdr;        /* of the first log found */
    int have_hdr;
} gpu;

typedef struct ctx {
    const char *outdir;
    gpu g[MAX_GPUS];
    int ng;
    char families[MAX_FAMILIES][64]; /* found in the results, or --families */
    size_t nfam;
    tsv_table failures;
    int have_failures;
} ctx;

static int read_header(const char *path, warplog_header *h)
{
    char err[256];
    warplog_reader *r = warplog_reader_open(path, err, sizeof err);
    if (!r) return -1;
    *h = *warplog_reader_header(r);
    warplog_reader_close(r);
    return 0;
}

/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, L2 51200 KiB)" -> name and SMs. */
static void parse_device_meta(const char *v, char *name, size_t len, double *sms)
{
    if (!v) return;
    const char *p = strstr(v, " (");
    snprintf(name, len, "%.*s", p ? (int)(p - v) : (int)strlen(v), v);
    const char *s = p ? strstr(p, " SMs") : NULL;
    if (s) {
        const char *d = s;
        while (d > p && d[-1] >= '0' && d[-1] <= '9') d--;
        if (d < s) *sms = strtod(d, NULL);
    }
}

/* The value of a "key<TAB>value" row of device.tsv as a number. */
static double kv_num(const tsv_table *t, const char *key)
{
    long r = tsv_find(t, "key", key, 0);
    return r < 0 ? NAN : tsv_num(t, (size_t)r, "value");
}

/* nvidia_smi.csv: "name, driver_version, ..." then one row; the field of col. */
static int smi_field(const char *path, const char *col, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char hdr[2048], row[2048];
    int rc = -1;
    if (fgets(hdr, sizeof hdr, f) && fgets(row, sizeof row, f)) {
        char *hs = NULL, *rs = NULL;
        char *h = strtok_r(hdr, ",\n", &hs), *v = strtok_r(row, ",\n", &rs);
        while (h && v) {
            while (*h == ' ') h++;
            while (*v == ' ') v++;
            if (!strcmp(h, col)) { snprintf(out, len, "%s", v); rc = 0; break; }
            h = strtok_r(NULL, ",\n", &hs);
            v = strtok_r(NULL, ",\n", &rs);
        }
    }
    fclose(f);
    return rc;
}

/* The device facts, from the best source present: device.tsv, a log's
 * header, a summary's metadata, the ladder's metadata. */
static void device_facts(gpu *G)
{
    rf_device_unknown(&G->dev);
    G->mem_clock_MHz = G->bus_bits = G->nominal_MHz = NAN;
    snprintf(G->name, sizeof G->name, "%s", G->label);
    char err[512];
    const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, res_timeline_dir(&G->r));
    if (!f) f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, NULL);
    if (f && read_header(f->path, &G->hdr) == 0) {
        G->have_hdr = 1;
        const warplog_header *h = &G->hdr;
        snprintf(G->name, sizeof G->name, "%s", h->device_name);
        G->dev.sm_count = h->sm_count;
        G->dev.peak_GBps = h->peak_dram_GBps;
        G->dev.l2_bytes = h->l2_bytes;
        G->dev.max_warps_per_sm = h->max_threads_per_sm / 32.0;
        G->mem_clock_MHz = h->mem_clock_khz / 1000.0;
        G->bus_bits = h->bus_width_bits;
        G->nominal_MHz = h->sm_clock_nominal_khz / 1000.0;
        snprintf(G->date, sizeof G->date, "%.10s", h->date);
        if (h->sm_clock_measured_MHz > 0) {
            G->dev.sm_clock_MHz = h->sm_clock_measured_MHz;
            snprintf(G->clock_src, sizeof G->clock_src, "measured by the run of %s", f->rel);
        }
    }
    const res_file *dv = res_find(&G->r, NAMES_FIXED, NULL, NULL, NULL, 0, "");
    for (; dv; dv = res_next(&G->r, dv, NAMES_FIXED, NULL, NULL, NULL, 0, ""))
        if (!strcmp(dv->base, "device.tsv")) break;
    tsv_table t;
    if (dv && tsv_read(dv->path, &t, err, sizeof err) == 0) {
        long r = tsv_find(&t, "key", "device_name", 0);
        if (r >= 0) snprintf(G->name, sizeof G->name, "%s", tsv_get(&t, (size_t)r, "value"));
        G->dev.sm_count = kv_num(&t, "sm_count");
        G->dev.peak_GBps = kv_num(&t, "peak_dram_GBps");
        G->dev.l2_bytes = kv_num(&t, "l2_bytes");
        G->dev.max_warps_per_sm = kv_num(&t, "max_threads_per_sm") / 32;
        G->mem_clock_MHz = kv_num(&t, "mem_clock_khz") / 1000;
        G->bus_bits = kv_num(&t, "bus_width_bits");
        G->nominal_MHz = kv_num(&t, "sm_clock_nominal_khz") / 1000;
        tsv_free(&t);
    }
    /* the measured clock: the log's, else the summaries' sm_clock_MHz, else
     * the ladder's */
    if (!(G->dev.sm_clock_MHz > 0)) {
        double v[256];
        size_t n = 0;
        for (const res_file *s = res_find(&G->r, NAMES_SUMMARY, NULL, NULL, NULL, 0, ""); s;
             s = res_next(&G->r, s, NAMES_SUMMARY, NULL, NULL, NULL, 0, "")) {
            if (tsv_read(s->path, &t, err, sizeof err) != 0) continue;
            for (size_t r = 0; r < t.nrow && n < 256; r++) {
                const double c = tsv_num(&t, r, "sm_clock_MHz");
                if (c > 0) v[n++] = c;
            }
            if (!isfinite(G->dev.peak_GBps)) G->dev.peak_GBps = tsv_meta_lead_num(&t, "peak_dram_GBps");
            if (!isfinite(G->nominal_MHz)) G->nominal_MHz = tsv_meta_num(&t, "sm_clock_nominal_MHz");
            if (!G->have_hdr && !dv) parse_device_meta(tsv_meta(&t, "device"), G->name, sizeof G->name, &G->dev.sm_count);
            tsv_free(&t);
        }
        if (n) {
            G->dev.sm_clock_MHz = stats_median_inplace(v, n);
            snprintf(G->clock_src, sizeof G->clock_src, "measured: median over the summaries' sm_clock_MHz");
        }
    }
    const res_file *lad = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, "");
    if (!(G->dev.sm_clock_MHz > 0) && lad && tsv_read(lad->path, &t, err, sizeof err) == 0) {
        const double c = tsv_meta_num(&t, "sm_clock_measured_MHz");
        if (c > 0) {
            G->dev.sm_clock_MHz = c;
            snprintf(G->clock_src, sizeof G->clock_src, "measured by the latency ladder");
        }
        tsv_free(&t);
    }
    if (!(G->dev.sm_clock_MHz > 0) && G->nominal_MHz > 0) {
        G->dev.sm_clock_MHz = G->nominal_MHz;
        snprintf(G->clock_src, sizeof G->clock_src, "nominal (not measured)");
    }
    for (const res_file *s = res_find(&G->r, NAMES_FIXED, NULL, NULL, NULL, 0, ""); s;
         s = res_next(&G->r, s, NAMES_FIXED, NULL, NULL, NULL, 0, ""))
        if (!strcmp(s->base, "nvidia_smi.csv")) smi_field(s->path, "driver_version", G->driver, sizeof G->driver);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* OUTDIR/data/<label>/ for every folder that holds results, sorted. */
static void load_gpus(ctx *c, int nsrc, char **src)
{
    char data[4096];
    snprintf(data, sizeof data, "%s/data", c->outdir);
    DIR *d = opendir(data);
    if (!d) die("cannot read %s: %s", data, strerror(errno));
    char *names[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        if (e->d_name[0] == '.') continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", data, e->d_name);
        if (is_dir(p) && res_is_gpu_dir(p)) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    if (n > MAX_GPUS) die("%d GPU folders in %s: at most %d", n, data, MAX_GPUS);
    for (int i = 0; i < n; i++) {
        gpu *G = &c->g[c->ng++];
        char p[4400], err[512];
        snprintf(p, sizeof p, "%s/%s", data, names[i]);
        if (res_scan(p, names[i], &G->r, err, sizeof err) != 0) die("%s", err);
        G->label = G->r.label;
        G->source = NULL;
        for (int k = 0; k < nsrc; k++) {
            const size_t l = strlen(names[i]);
            if (!strncmp(src[k], names[i], l) && src[k][l] == '=') G->source = src[k] + l + 1;
        }
        device_facts(G);
        free(names[i]);
    }
}

/* Families: those found in any GPU's results, then any of --families. */
static void find_families(ctx *c, const char *list)
{
    for (int i = 0; i < c->ng; i++) {
        char f[MAX_FAMILIES][64];
        const size_t n = res_families(&c->g[i].r, f, MAX_FAMILIES);
        for (size_t k = 0; k < n; k++) {
            size_t j = 0;
            while (j < c->nfam && strcmp(c->families[j], f[k])) j++;
            if (j == c->nfam && c->nfam < MAX_FAMILIES) snprintf(c->families[c->nfam++], 64, "%.63s", f[k]);
        }
    }
    if (list && *list) {
        char *dup = strdup(list), *save = NULL;
        if (!dup) die("out of memory");
        for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            size_t j = 0;
            while (j < c->nfam && strcmp(c->families[j], t)) j++;
            if (j == c->nfam && c->nfam < MAX_FAMILIES && names_valid_exp(t))
                snprintf(c->families[c->nfam++], 64, "%s", t);
        }
        free(dup);
    }
}

/* ------------------------------------------------------------ chart names */

/* charts/<label>/<name>.svg, relative to OUTDIR */
static void chart_rel(char *buf, size_t len, const gpu *G, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void chart_rel(char *buf, size_t len, const gpu *G, const char *fmt, ...)
{
    char name[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    snprintf(buf, len, "charts/%s/%s.svg", G->label, name);
}

static void warps_chart(char *buf, size_t len, const gpu *G, const res_file *log)
{
    chart_rel(buf, len, G, "warps_%.*s", (int)(strlen(log->base) - 4), log->base);
}

static void sweep_chart(char *buf, size_t len, const gpu *G, const res_file *sw)
{
    /* sweep_readonly_float4_4.tsv -> throughput_readonly_float4_4 */
    chart_rel(buf, len, G, "throughput_%.*s", (int)(strlen(sw->base) - 10), sw->base + 6);
}

static void compare_rel(char *buf, size_t len, const gpu *G, const char *exp)
{
    snprintf(buf, len, "tables/%s/sectors_%s_compare.tsv", G->label, exp);
}

/* A sector table that holds the model's prediction already (an `agree`
 * column, or sector_compare's `verdict`), or only ncu's counts (then
 * sector_compare makes the comparison). */
static int sectors_need_compare(const char *path)
{
    tsv_table t;
    char err[512];
    if (tsv_read(path, &t, err, sizeof err) != 0) return 0;
    const int need = tsv_col(&t, "agree") < 0 && tsv_col(&t, "verdict") < 0 && tsv_col(&t, "l1_sectors") >= 0;
    tsv_free(&t);
    return need;
}

/* The WPB the latency distribution is drawn at: 4 if there, else the
 * smallest. */
static unsigned dist_wpb(const gpu *G, const char *dir, const char *exp)
{
    unsigned best = 0;
    for (const res_file *f = res_find(&G->r, NAMES_LOG, exp, NULL, NULL, 0, dir); f;
         f = res_next(&G->r, f, NAMES_LOG, exp, NULL, NULL, 0, dir)) {
        if (f->wpb == 4) return 4;
        if (!best || f->wpb < best) best = f->wpb;
    }
    return best;
}

/* The experiments that have logs in dir, in order. */
static size_t log_exps(const gpu *G, const char *dir, char (*out)[64], size_t max)
{
    size_t n = 0;
    for (const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, dir); f;
         f = res_next(&G->r, f, NAMES_LOG, NULL, NULL, NULL, 0, dir)) {
        size_t j = 0;
        while (j < n && strcmp(out[j], f->exp)) j++;
        if (j == n && n < max) snprintf(out[n++], 64, "%s", f->exp);
    }
    return n;
}

/* ------------------------------------------------------------ plan */

static void job(const char *outdir, const char *output, const char *out_stdout, const char *what,
                int argc, ...)
{
    printf("%s/%s\t%s%s%s\t%s", outdir, output, out_stdout ? outdir : "", out_stdout ? "/" : "",
           out_stdout ? out_stdout : "-", what);
    va_list ap;
    va_start(ap, argc);
    for (int i = 0; i < argc; i++) printf("\t%s", va_arg(ap, const char *));
    va_end(ap);
    printf("\n");
}

/* A job whose argv ends with a list. */
static void job_list(const char *outdir, const char *output, const char *what, const char *const *head,
                     int nhead, const char *const *list, size_t nlist, const char *const *tail, int ntail)
{
    printf("%s/%s\t-\t%s", outdir, output, what);
    for (int i = 0; i < nhead; i++) printf("\t%s", head[i]);
    for (size_t i = 0; i < nlist; i++) printf("\t%s", list[i]);
    for (int i = 0; i < ntail; i++) printf("\t%s", tail[i]);
    printf("\n");
}

static void mkdirs(const char *outdir, const char *sub, const char *label)
{
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", outdir, sub);
    if (mkdir(p, 0777) != 0 && errno != EEXIST) die("cannot create %s: %s", p, strerror(errno));
    if (!label) return;
    snprintf(p, sizeof p, "%s/%s/%s", outdir, sub, label);
    if (mkdir(p, 0777) != 0 && errno != EEXIST) die("cannot create %s: %s", p, strerror(errno));
}

static int cmd_plan(ctx *c)
{
    char out[1024], abs[2048], what[512], tab[1024];
    /* the folders every job writes into */
    mkdirs(c->outdir, "charts", NULL);
    mkdirs(c->outdir, "tables", NULL);
    for (int i = 0; i < c->ng; i++) {
        mkdirs(c->outdir, "charts", c->g[i].label);
        mkdirs(c->outdir, "tables", c->g[i].label);
    }
    /* the model walks of sector_compare are the longest jobs: first */
    for (int i = 0; i < c->ng; i++) {
        gpu *G = &c->g[i];
        for (const res_file *s = res_find(&G->r, NAMES_SECTORS, NULL, NULL, NULL, 0, ""); s;
             s = res_next(&G->r, s, NAMES_SECTORS, NULL, NULL, NULL, 0, "")) {
            if (!sectors_need_compare(s->path)) continue;
            char svg[1024];
            chart_rel(svg, sizeof svg, G, "sectors_%s", s->exp);
            compare_rel(tab, sizeof tab, G, s->exp);
            snprintf(abs, sizeof abs, "%s/%s", c->outdir, svg);
            snprintf(what, sizeof what, "%s: sector model against ncu (%s)", G->label, s->base);
            job(c->outdir, tab, tab, what, 4, "bin/sector_compare", s->path, "--chart", abs);
        }
    }
    for (int i = 0; i < c->ng; i++) {
        gpu *G = &c->g[i];
        const char *tl = res_timeline_dir(&G->r);
        /* per-warp timelines */
        for (const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, tl); tl && f;
             f = res_next(&G->r, f, NAMES_LOG, NULL, NULL, NULL, 0, tl)) {
            warps_chart(out, sizeof out, G, f);
            snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
            snprintf(what, sizeof what, "%s: timeline %s", G->label, f->rel);
            job(c->outdir, out, NULL, what, 3, "bin/plot_warps", f->path, abs);
        }
        /* latency distributions, one chart per experiment */
        char exps[MAX_FAMILIES][64];
        const size_t ne = tl ? log_exps(G, tl, exps, MAX_FAMILIES) : 0;
        for (size_t e = 0; e < ne; e++) {
            const unsigned w = dist_wpb(G, tl, exps[e]);
            const char *logs[64];
            size_t nl = 0;
            for (const res_file *f = res_find(&G->r, NAMES_LOG, exps[e], NULL, NULL, w, tl); f && nl < 64;
                 f = res_next(&G->r, f, NAMES_LOG, exps[e], NULL, NULL, w, tl))
                logs[nl++] = f->path;
            chart_rel(out, sizeof out, G, "latency_cdf_%s_%u", exps[e], w);
            snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
            snprintf(what, sizeof what, "%s: latency distributions of %s at WPB %u", G->label, exps[e], w);
            const char *head[] = {"bin/plot_latency"};
            const char *tail[] = {abs};
            job_list(c->outdir, out, what, head, 1, logs, nl, tail, 1);
        }
        /* bandwidth against WPB, per family */
        for (size_t fa = 0; fa < c->nfam; fa++) {
            const char *n = res_main_n(&G->r, c->families[fa]);
            if (!n) continue;
            const char *sums[MAX_WPB];
            size_t ns = 0;
            for (const res_file *f = res_find(&G->r, NAMES_SUMMARY, c->families[fa], NULL, n, 0, ""); f && ns < MAX_WPB;
                 f = res_next(&G->r, f, NAMES_SUMMARY, c->families[fa], NULL, n, 0, ""))
                sums[ns++] = f->path;
            chart_rel(out, sizeof out, G, "bandwidth_%s", c->families[fa]);
            snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
            snprintf(what, sizeof what, "%s: %s bandwidth against warps per block", G->label, c->families[fa]);
            const char *head[] = {"bin/report", "chart-bandwidth", abs};
            job_list(c->outdir, out, what, head, 3, sums, ns, NULL, 0);
        }
        /* ladders */
        for (const res_file *f = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_LADDER, NULL, NULL, NULL, 0, "")) {
            chart_rel(out, sizeof out, G, "ladder_%.2s", f->base + 8);
            snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
            snprintf(what, sizeof what, "%s: latency ladder %s", G->label, f->base);
            job(c->outdir, out, NULL, what, 3, "bin/plot_ladder", f->path, abs);
        }
        /* occupancy sweeps */
        const res_file *ca = NULL;
        for (const res_file *f = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_LADDER, NULL, NULL, NULL, 0, ""))
            if (!strcmp(f->base, "latency_ca.tsv")) ca = f;
        for (const res_file *f = res_find(&G->r, NAMES_SWEEP, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_SWEEP, NULL, NULL, NULL, 0, "")) {
            sweep_chart(out, sizeof out, G, f);
            snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
            snprintf(what, sizeof what, "%s: occupancy sweep %s", G->label, f->base);
            if (ca) job(c->outdir, out, NULL, what, 5, "bin/plot_throughput", f->path, abs, "--ladder", ca->path);
            else job(c->outdir, out, NULL, what, 3, "bin/plot_throughput", f->path, abs);
        }
    }
    /* several GPUs: their cached ladders on one chart */
    const char *lads[MAX_GPUS];
    char specs[MAX_GPUS][4200];
    size_t nl = 0;
    for (int i = 0; i < c->ng; i++)
        for (const res_file *f = res_find(&c->g[i].r, NAMES_LADDER, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&c->g[i].r, f, NAMES_LADDER, NULL, NULL, NULL, 0, ""))
            if (!strcmp(f->base, "latency_ca.tsv")) {
                snprintf(specs[nl], sizeof specs[nl], "%s=%s", c->g[i].label, f->path);
                lads[nl] = specs[nl];
                nl++;
            }
    if (nl > 1) {
        snprintf(abs, sizeof abs, "%s/charts/ladder_all.svg", c->outdir);
        const char *head[] = {"bin/report", "chart-ladders", abs};
        job_list(c->outdir, "charts/ladder_all.svg", "all GPUs: cached latency ladders", head, 3, lads, nl, NULL, 0);
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* ------------------------------------------------------------ render helpers */

/* The error a job left for output rel (OUTDIR/rel), or NULL. */
static const char *failure_of(const ctx *c, const char *rel)
{
    if (!c->have_failures) return NULL;
    char abs[2048];
    snprintf(abs, sizeof abs, "%s/%s", c->outdir, rel);
    long r = tsv_find(&c->failures, "output", abs, 0);
    return r < 0 ? NULL : tsv_get(&c->failures, (size_t)r, "error");
}

/* A chart: its figure when drawn, its failure when not. 1 when shown. */
static int figure(report_doc *d, rd_section *s, const ctx *c, const char *rel, const char *caption)
{
    char abs[2048];
    snprintf(abs, sizeof abs, "%s/%s", c->outdir, rel);
    if (exists(abs)) {
        rd_figure(d, s, rel, caption);
        return 1;
    }
    const char *e = failure_of(c, rel);
    char what[1200];
    snprintf(what, sizeof what, "chart %s", rel);
    rd_failed(d, s, what, e ? e : "it was not drawn (run scripts/report.sh, which draws the charts first)");
    return 0;
}

/* "h100: " when several GPUs are shown. */
static const char *pfx(const ctx *c, const gpu *G, char *buf, size_t len)
{
    if (c->ng > 1) snprintf(buf, len, "%s: ", G->label);
    else buf[0] = 0;
    return buf;
}

/* Where a GPU's results came from, for the commands of missing notes. */
static const char *src_dir(const gpu *G) { return G->source ? G->source : G->r.dir; }

static void missing(report_doc *d, rd_section *s, const ctx *c, const gpu *G, const char *base,
                    const char *why)
{
    char cmd[2048], what[1024], p[64];
    if (names_command(cmd, sizeof cmd, src_dir(G), base) != 0) cmd[0] = 0;
    snprintf(what, sizeof what, "%s%s%s%s", pfx(c, G, p, sizeof p), base, why ? " " : "", why ? why : "");
    rd_missing(d, s, what, *cmd ? cmd : NULL);
}

/* The file's path relative to OUTDIR (for links), or its full path. */
static const char *rel_to_out(const ctx *c, const char *path)
{
    const size_t l = strlen(c->outdir);
    return !strncmp(path, c->outdir, l) && path[l] == '/' ? path + l + 1 : path;
}

/* ------------------------------------------------------------ sections */

static void sec_device(report_doc *d, const ctx *c)
{
    rd_section *s = rd_section_add(d, "device", "Device");
    rd_table *t = rd_table_new((size_t)c->ng + 1);
    char b[256];
    rd_table_set(t, 0, 0, "fact");
    for (int i = 0; i < c->ng; i++) rd_table_set(t, 0, (size_t)i + 1, "%s", c->g[i].label);
    static const char *const rows[] = {"name", "SMs", "SM clock (MHz)", "memory clock (MHz)",
                                       "memory bus (bits)", "DRAM peak (GB/s)", "L2 (bytes)",
                                       "resident warps per SM (max)", "driver", "measured on"};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        rd_table_set(t, r + 1, 0, "%s", rows[r]);
        for (int i = 0; i < c->ng; i++) {
            const gpu *G = &c->g[i];
            const size_t col = (size_t)i + 1;
            switch (r) {
            case 0: rd_table_set(t, r + 1, col, "%s", G->name); break;
            case 1: rd_table_set(t, r + 1, col, "%s", num(b, sizeof b, "%.0f", G->dev.sm_count)); break;
            case 2: rd_table_set(t, r + 1, col, "%s (%s)", num(b, sizeof b, "%.0f", G->dev.sm_clock_MHz),
                                 *G->clock_src ? G->clock_src : "unknown"); break;
            case 3: rd_table_set(t, r + 1, col, "%s", num(b, sizeof b, "%.0f", G->mem_clock_MHz)); break;
            case 4: rd_table_set(t, r + 1, col, "%s", num(b, sizeof b, "%.0f", G->bus_bits)); break;
            case 5:
                if (isfinite(G->mem_clock_MHz) && isfinite(G->bus_bits))
                    rd_table_set(t, r + 1, col, "%.1f = %.0f MHz x %.0f bits / 8 x 2", G->dev.peak_GBps,
                                 G->mem_clock_MHz, G->bus_bits);
                else rd_table_set(t, r + 1, col, "%s", num(b, sizeof b, "%.1f", G->dev.peak_GBps));
                break;
            case 6: rd_table_set(t, r + 1, col, "%s", num(b, sizeof b, "%.0f", G->dev.l2_bytes)); break;
            case 7: rd_table_set(t, r + 1, col, "%s", num(b, sizeof b, "%.0f", G->dev.max_warps_per_sm)); break;
            case 8: rd_table_set(t, r + 1, col, "%s", *G->driver ? G->driver : "n/a"); break;
            case 9: rd_table_set(t, r + 1, col, "%s", *G->date ? G->date : "n/a"); break;
            }
        }
    }
    rd_table_add(d, s, t);
    for (int i = 0; i < c->ng; i++) {
        char note[1024], p[64];
        if (rf_device_note(&c->g[i].dev, note, sizeof note) == 0)
            rd_finding(d, s, "%s%s", pfx(c, &c->g[i], p, sizeof p), note);
    }
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        int have_dev = 0, have_smi = 0;
        for (const res_file *f = res_find(&G->r, NAMES_FIXED, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_FIXED, NULL, NULL, NULL, 0, "")) {
            have_dev |= !strcmp(f->base, "device.tsv");
            have_smi |= !strcmp(f->base, "nvidia_smi.csv");
        }
        if (!have_dev) missing(d, s, c, G, "device.tsv", "(the facts above come from a log header and the summaries)");
        if (!have_smi) missing(d, s, c, G, "nvidia_smi.csv", NULL);
    }
}

/* One summary table, read. */
typedef struct summary {
    tsv_table t;
    int ok;
} summary;

/* The columns a family's table shows, when any GPU has them. */
typedef struct showcol {
    const char *col, *head, *fmt; /* fmt NULL: the text as it is */
} showcol;

static const showcol SHOW[] = {
    {"blocks_per_sm", "blocks/SM", "%.0f"},
    {"kernel_ms", "ms", "%.4f"},
    {"bw_GBps", "GB/s", "%.1f"},
    {"pct_peak", "% of peak", "%.1f"},
    {"lat_mean_cycles", "mean latency (cycles)", "%.0f"},
    {"lat_p50_cycles", "p50 (cycles)", "%.0f"},
    {"lat_p95_cycles", "p95 (cycles)", "%.0f"},
    {"instr_ms", "instrumented ms", "%.4f"},
    {"overhead_pct", "overhead %", "%+.2f"},
    {"sample", "1 block in", NULL},
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

/* "kernel" or "kernel (config)" of row r. */
static void row_key(const tsv_table *t, size_t r, char *buf, size_t len)
{
    const char *k = tsv_get(t, r, "kernel"), *cf = tsv_get(t, r, "config");
    if (cf && *cf && strcmp(cf, "-")) snprintf(buf, len, "%s (%s)", k ? k : "?", cf);
    else snprintf(buf, len, "%s", k ? k : "?");
}

/* Tables side by side: rows keyed by column 0, one group of columns per
 * table, "-" where a table has no such row. */
static rd_table *join(const rd_table *const *parts, const char *const *labels, int n)
{
    size_t ncol = 1, nkey = 0;
    for (int i = 0; i < n; i++) if (parts[i]) ncol += parts[i]->ncol - 1;
    rd_table *t = rd_table_new(ncol);
    if (!t) return NULL;
    const char *head = NULL;
    for (int i = 0; i < n && !head; i++) if (parts[i]) head = rd_table_get(parts[i], 0, 0);
    rd_table_set(t, 0, 0, "%s", head ? head : "");
    /* keys in order of first appearance */
    const char **keys = xcalloc(512, sizeof *keys);
    for (int i = 0; i < n; i++)
        for (size_t r = 1; parts[i] && r <= parts[i]->nrow; r++) {
            const char *k = rd_table_get(parts[i], r, 0);
            size_t j = 0;
            while (j < nkey && strcmp(keys[j], k)) j++;
            if (j == nkey && nkey < 512) keys[nkey++] = k;
        }
    for (size_t j = 0; j < nkey; j++) rd_table_set(t, j + 1, 0, "%s", keys[j]);
    size_t col = 1;
    for (int i = 0; i < n; i++) {
        if (!parts[i]) continue;
        const rd_table *p = parts[i];
        if (n > 1) rd_table_group(t, labels[i], p->ncol - 1);
        for (size_t cc = 1; cc < p->ncol; cc++) rd_table_set(t, 0, col + cc - 1, "%s", rd_table_get(p, 0, cc));
        for (size_t j = 0; j < nkey; j++) {
            size_t r = 1;
            while (r <= p->nrow && strcmp(rd_table_get(p, r, 0), keys[j])) r++;
            for (size_t cc = 1; cc < p->ncol; cc++)
                rd_table_set(t, j + 1, col + cc - 1, "%s", r <= p->nrow ? rd_table_get(p, r, cc) : "-");
        }
        col += p->ncol - 1;
    }
    free(keys);
    return t;
}

/* The bytes a warp of exp's variant asks for in its timed load, from any of
 * its logs' headers; NAN when none is there. */
static double bytes_per_warp(const gpu *G, const char *exp, const char *variant)
{
    const res_file *f = res_find(&G->r, NAMES_LOG, exp, variant, NULL, 0, NULL);
    warplog_header h;
    if (!f || read_header(f->path, &h) != 0 || !h.bytes_per_warp_load) return NAN;
    return h.bytes_per_warp_load;
}

static void fill_kernel(const tsv_table *t, size_t r, rf_kernel *k)
{
    memset(k, 0, sizeof *k);
    k->kernel = tsv_get(t, r, "kernel");
    k->config = tsv_get(t, r, "config");
    if (!k->kernel) k->kernel = "?";
    if (!k->config) k->config = "";
    k->wpb = tsv_num(t, r, "warps_per_block");
    k->blocks_per_sm = tsv_num(t, r, "blocks_per_sm");
    k->kernel_ms = tsv_num(t, r, "kernel_ms");
    k->bw_GBps = tsv_num(t, r, "bw_GBps");
    k->pct_peak = tsv_num(t, r, "pct_peak");
    k->sm_clock_MHz = tsv_num(t, r, "sm_clock_MHz");
    k->lat_mean_cycles = tsv_num(t, r, "lat_mean_cycles");
    k->lat_p50_cycles = tsv_num(t, r, "lat_p50_cycles");
    k->lat_p95_cycles = tsv_num(t, r, "lat_p95_cycles");
    k->instr_ms = tsv_num(t, r, "instr_ms");
    k->overhead_pct = tsv_num(t, r, "overhead_pct");
    k->bytes_per_warp = NAN;
}

static void sec_family(report_doc *d, const ctx *c, const char *exp)
{
    const family_info *fi = family_of(exp);
    char id[96], title[256], b[256], p[64];
    snprintf(id, sizeof id, "family-%s", exp);
    /* the N shown: the largest of any GPU */
    const char *n = NULL;
    double nv = 0;
    for (int i = 0; i < c->ng; i++) {
        const char *m = res_main_n(&c->g[i].r, exp);
        if (m && res_n_value(m) > nv) { nv = res_n_value(m); n = m; }
    }
    snprintf(title, sizeof title, "%s: summaries%s%s", exp, n ? " at N = " : "", n ? n : "");
    rd_section *s = rd_section_add(d, id, title);
    rd_para(d, s, "%s", fi ? fi->about
                           : "One row per variant (and configuration) of the family, from its summary "
                             "tables (./FAMILY N 0 WPB --table FILE): kernel_ms is the clean twin's median "
                             "time, GB/s the bytes it moves over that time, the latency columns the "
                             "instrumented kernel's per-warp latency (SM cycles).");
    if (!n) {
        for (int i = 0; i < c->ng; i++) {
            char base[256];
            names_summary(base, sizeof base, exp, "1e8", 4);
            missing(d, s, c, &c->g[i], base, NULL);
        }
        return;
    }
    /* every WPB of any GPU */
    unsigned wpbs[MAX_WPB];
    size_t nw = 0;
    for (int i = 0; i < c->ng; i++) {
        unsigned w[MAX_WPB];
        const size_t k = res_wpbs(&c->g[i].r, exp, res_main_n(&c->g[i].r, exp), w, MAX_WPB);
        for (size_t j = 0; j < k; j++) {
            size_t q = 0;
            while (q < nw && wpbs[q] != w[j]) q++;
            if (q == nw && nw < MAX_WPB) wpbs[nw++] = w[j];
        }
    }
    for (size_t a = 1; a < nw; a++)
        for (size_t q = a; q > 0 && wpbs[q - 1] > wpbs[q]; q--) { unsigned t = wpbs[q]; wpbs[q] = wpbs[q - 1]; wpbs[q - 1] = t; }

    int old_format = 0;
    for (size_t wi = 0; wi < nw; wi++) {
        const unsigned w = wpbs[wi];
        summary sm[MAX_GPUS];
        memset(sm, 0, sizeof sm);
        int useful[NSHOW] = {0};
        for (int i = 0; i < c->ng; i++) {
            const res_file *f = res_find(&c->g[i].r, NAMES_SUMMARY, exp, NULL, res_main_n(&c->g[i].r, exp), w, "");
            char err[512];
            if (!f) continue;
            if (tsv_read(f->path, &sm[i].t, err, sizeof err) != 0) {
                char what[1024];
                snprintf(what, sizeof what, "%s%s", pfx(c, &c->g[i], p, sizeof p), f->base);
                rd_failed(d, s, what, err);
                continue;
            }
            sm[i].ok = 1;
            for (size_t k = 0; k < NSHOW; k++) useful[k] |= col_useful(&sm[i].t, SHOW[k].col);
            if (tsv_col(&sm[i].t, "instr_ms") < 0) old_format = 1;
        }
        rd_heading(d, s, "%u warps per block", w);
        rd_table *parts[MAX_GPUS] = {0};
        const char *labels[MAX_GPUS];
        for (int i = 0; i < c->ng; i++) {
            labels[i] = c->g[i].label;
            size_t ncol = 1;
            for (size_t k = 0; k < NSHOW; k++) ncol += useful[k];
            parts[i] = rd_table_new(ncol);
            rd_table_set(parts[i], 0, 0, "kernel");
            size_t col = 1;
            for (size_t k = 0; k < NSHOW; k++)
                if (useful[k]) rd_table_set(parts[i], 0, col++, "%s", SHOW[k].head);
            if (!sm[i].ok) continue;
            const tsv_table *t = &sm[i].t;
            for (size_t r = 0; r < t->nrow; r++) {
                char key[256];
                row_key(t, r, key, sizeof key);
                rd_table_set(parts[i], r + 1, 0, "%s", key);
                col = 1;
                for (size_t k = 0; k < NSHOW; k++) {
                    if (!useful[k]) continue;
                    const char *v = tsv_get(t, r, SHOW[k].col);
                    if (!v) rd_table_set(parts[i], r + 1, col, "n/a");
                    else if (!SHOW[k].fmt) rd_table_set(parts[i], r + 1, col, "%s", v);
                    else rd_table_set(parts[i], r + 1, col, "%s", num(b, sizeof b, SHOW[k].fmt, tsv_parse_num(v)));
                    col++;
                }
            }
        }
        rd_table *joined = join((const rd_table *const *)parts, labels, c->ng);
        for (int i = 0; i < c->ng; i++) rd_table_free(parts[i]);
        rd_table_add(d, s, joined);
        /* findings of this WPB */
        for (int i = 0; i < c->ng; i++) {
            if (!sm[i].ok) {
                char base[256];
                names_summary(base, sizeof base, exp, res_main_n(&c->g[i].r, exp) ? res_main_n(&c->g[i].r, exp) : n, w);
                missing(d, s, c, &c->g[i], base, NULL);
                continue;
            }
            const tsv_table *t = &sm[i].t;
            rf_kernel *k = xcalloc(t->nrow, sizeof *k);
            for (size_t r = 0; r < t->nrow; r++) {
                fill_kernel(t, r, &k[r]);
                if (fi && in_list(fi->littles_variants, k[r].kernel))
                    k[r].bytes_per_warp = bytes_per_warp(&c->g[i], exp, k[r].kernel);
            }
            char note[2048];
            pfx(c, &c->g[i], p, sizeof p);
            if (rf_fastest_note(k, t->nrow, &c->g[i].dev, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            for (size_t r = 0; r < t->nrow; r++)
                if (rf_littles_note(&k[r], &c->g[i].dev, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            if (rf_overhead_note(k, t->nrow, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            free(k);
        }
        for (int i = 0; i < c->ng; i++) if (sm[i].ok) tsv_free(&sm[i].t);
    }
    if (old_format)
        rd_para(d, s, "A summary without the instr_ms column was written before the engine timed a "
                      "clean twin: its kernel_ms is the instrumented kernel's time (its log's probes "
                      "included).");
    /* across WPB */
    rd_heading(d, s, "Bandwidth against warps per block");
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        const char *gn = res_main_n(&G->r, exp);
        if (!gn) continue;
        char rel[1024], cap[256];
        chart_rel(rel, sizeof rel, G, "bandwidth_%s", exp);
        snprintf(cap, sizeof cap, "%s%s: GB/s against warps per block (N = %s)", pfx(c, G, p, sizeof p), exp, gn);
        figure(d, s, c, rel, cap);
    }
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        const char *gn = res_main_n(&G->r, exp);
        if (!gn) continue;
        unsigned w[MAX_WPB];
        const size_t k = res_wpbs(&G->r, exp, gn, w, MAX_WPB);
        /* variants in the order of the first table */
        tsv_table t0[MAX_WPB];
        int ok[MAX_WPB] = {0};
        for (size_t j = 0; j < k; j++) {
            char err[512];
            const res_file *f = res_find(&G->r, NAMES_SUMMARY, exp, NULL, gn, w[j], "");
            ok[j] = f && tsv_read(f->path, &t0[j], err, sizeof err) == 0;
        }
        char all[4096] = "";
        size_t used = 0;
        for (size_t r = 0; k && ok[0] && r < t0[0].nrow; r++) {
            char key[256];
            row_key(&t0[0], r, key, sizeof key);
            double bw[MAX_WPB];
            for (size_t j = 0; j < k; j++) {
                bw[j] = NAN;
                for (size_t q = 0; ok[j] && q < t0[j].nrow; q++) {
                    char kk[256];
                    row_key(&t0[j], q, kk, sizeof kk);
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
        if (used) rd_finding(d, s, "%sBandwidth by warps per block: %s.", pfx(c, G, p, sizeof p), all);
    }
    rd_links_start(d, s, "Tables:");
    for (int i = 0; i < c->ng; i++)
        for (const res_file *f = res_find(&c->g[i].r, NAMES_SUMMARY, exp, NULL, NULL, 0, NULL); f;
             f = res_next(&c->g[i].r, f, NAMES_SUMMARY, exp, NULL, NULL, 0, NULL)) {
            char text[512];
            snprintf(text, sizeof text, "%s/%s", c->g[i].label, f->rel);
            rd_link(d, s, rel_to_out(c, f->path), text);
        }
}

/* A table as it is: every column, every row. */
static rd_table *plain_table(const tsv_table *t)
{
    rd_table *r = rd_table_new(t->ncol);
    for (size_t k = 0; r && k < t->ncol; k++) rd_table_set(r, 0, k, "%s", t->col[k]);
    for (size_t row = 0; r && row < t->nrow; row++)
        for (size_t k = 0; k < t->ncol; k++) rd_table_set(r, row + 1, k, "%s", t->cell[row * t->ncol + k]);
    return r;
}

static const res_file *fixed(const gpu *G, const char *base)
{
    for (const res_file *f = res_find(&G->r, NAMES_FIXED, NULL, NULL, NULL, 0, ""); f;
         f = res_next(&G->r, f, NAMES_FIXED, NULL, NULL, NULL, 0, ""))
        if (!strcmp(f->base, base)) return f;
    return NULL;
}

static void sec_overhead(report_doc *d, const ctx *c)
{
    rd_section *s = rd_section_add(d, "overhead", "What the probes cost");
    rd_para(d, s, "overhead.tsv: the clean twin against the instrumented kernel, timed interleaved launch "
                  "by launch, for every variant and WPB (the sample column says one block in how many "
                  "recorded). sampling.tsv: the latency percentiles with every block recorded (sample 1) "
                  "against sparser sampling, at 4 warps per block.");
    char p[64], err[512];
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        static const char *const files[] = {"overhead.tsv", "sampling.tsv"};
        for (int k = 0; k < 2; k++) {
            const res_file *f = fixed(G, files[k]);
            if (!f) { missing(d, s, c, G, files[k], NULL); continue; }
            tsv_table t;
            if (tsv_read(f->path, &t, err, sizeof err) != 0) {
                rd_failed(d, s, f->base, err);
                continue;
            }
            rd_heading(d, s, "%s%s", pfx(c, G, p, sizeof p), f->base);
            rd_table_add(d, s, plain_table(&t));
            if (k == 0 && tsv_col(&t, "overhead_pct") >= 0) {
                size_t lo = t.nrow, hi = t.nrow;
                for (size_t r = 0; r < t.nrow; r++) {
                    const double v = tsv_num(&t, r, "overhead_pct");
                    if (!isfinite(v)) continue;
                    if (lo == t.nrow || v < tsv_num(&t, lo, "overhead_pct")) lo = r;
                    if (hi == t.nrow || v > tsv_num(&t, hi, "overhead_pct")) hi = r;
                }
                if (lo < t.nrow)
                    rd_finding(d, s, "%sThe probes cost from %+.2f%% (%s at %s warps per block) to %+.2f%% "
                                     "(%s at %s) of the clean twin's time.", p,
                               tsv_num(&t, lo, "overhead_pct"), tsv_get(&t, lo, "variant"),
                               tsv_get(&t, lo, "wpb"), tsv_num(&t, hi, "overhead_pct"),
                               tsv_get(&t, hi, "variant"), tsv_get(&t, hi, "wpb"));
            }
            rd_links_start(d, s, NULL);
            rd_link(d, s, rel_to_out(c, f->path), f->base);
            tsv_free(&t);
        }
    }
}

/* Latency statistics of every log of a timeline folder. */
typedef struct logstat {
    const res_file *f;
    lat_summary s;
    warplog_header h;
    int ok;
    char err[256];
} logstat;

static logstat *timeline_stats(const gpu *G, const char *dir, size_t *n)
{
    size_t k = 0;
    for (const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, dir); f;
         f = res_next(&G->r, f, NAMES_LOG, NULL, NULL, NULL, 0, dir)) k++;
    logstat *ls = xcalloc(k, sizeof *ls);
    k = 0;
    for (const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, dir); f;
         f = res_next(&G->r, f, NAMES_LOG, NULL, NULL, NULL, 0, dir)) {
        logstat *l = &ls[k++];
        l->f = f;
        lat_stats *st = lat_stats_new();
        if (!st) die("out of memory");
        if (lat_stats_read_log(st, f->path, &l->h, l->err, sizeof l->err) == 0 &&
            lat_stats_summary(st, LAT_STATS_ALL, &l->s) == 0)
            l->ok = 1;
        lat_stats_free(st);
    }
    *n = k;
    return ls;
}

static void sec_timelines(report_doc *d, const ctx *c, logstat **stats, size_t *nstats)
{
    rd_section *s = rd_section_add(d, "timelines", "Per-warp timelines");
    rd_para(d, s, "One horizontal line per warp, from its load's start to its end, in cycles since the "
                  "first warp on the same SM started; colour by SM, the first warp of each block in black "
                  "(bin/plot_warps, docs/postprocessors.md). Steps in the left edge are blocks retiring and "
                  "new ones starting; lines growing longer up the staircase mean the memory system is "
                  "queueing. Every block is recorded in these small runs.");
    char p[64], rel[1024], cap[512];
    /* the WPBs of any GPU's timeline logs */
    unsigned w[MAX_WPB];
    size_t nw = 0;
    for (int i = 0; i < c->ng; i++) {
        const char *tl = res_timeline_dir(&c->g[i].r);
        for (const res_file *f = res_find(&c->g[i].r, NAMES_LOG, NULL, NULL, NULL, 0, tl); tl && f;
             f = res_next(&c->g[i].r, f, NAMES_LOG, NULL, NULL, NULL, 0, tl)) {
            size_t q = 0;
            while (q < nw && w[q] != f->wpb) q++;
            if (q == nw && nw < MAX_WPB) w[nw++] = f->wpb;
        }
    }
    for (size_t a = 1; a < nw; a++)
        for (size_t q = a; q > 0 && w[q - 1] > w[q]; q--) { unsigned t = w[q]; w[q] = w[q - 1]; w[q - 1] = t; }
    for (size_t wi = 0; wi < nw; wi++) {
        rd_heading(d, s, "%u warps per block", w[wi]);
        for (int i = 0; i < c->ng; i++) {
            const gpu *G = &c->g[i];
            const char *tl = res_timeline_dir(&G->r);
            if (!tl) continue;
            rd_figures_start(d, s);
            for (const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, w[wi], tl); f;
                 f = res_next(&G->r, f, NAMES_LOG, NULL, NULL, NULL, w[wi], tl)) {
                warps_chart(rel, sizeof rel, G, f);
                snprintf(cap, sizeof cap, "%s%s %s%s%s, %u warps per block", pfx(c, G, p, sizeof p), f->exp,
                         f->variant, *f->label ? "-" : "", f->label, f->wpb);
                figure(d, s, c, rel, cap);
            }
        }
    }
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        const char *tl = res_timeline_dir(&G->r);
        if (!tl) {
            char base[64];
            names_logdir(base, sizeof base, "1e6");
            missing(d, s, c, G, base, "(per-warp logs of every block, for the timelines)");
            continue;
        }
        logstat *ls = stats[i];
        const size_t nl = nstats[i];
        rf_latpoint *pt = xcalloc(nl, sizeof *pt);
        char variants[64][128];
        size_t nv = 0;
        for (size_t k = 0; k < nl; k++) {
            if (!ls[k].ok) {
                rd_failed(d, s, ls[k].f->rel, ls[k].err);
                continue;
            }
            char v[128];
            snprintf(v, sizeof v, "%s%s%s", ls[k].f->variant, *ls[k].f->label ? "-" : "", ls[k].f->label);
            size_t q = 0;
            while (q < nv && strcmp(variants[q], v)) q++;
            if (q == nv && nv < 64) snprintf(variants[nv++], 128, "%s", v);
            pt[k].variant = variants[q < nv ? q : 0];
            pt[k].wpb = ls[k].f->wpb;
            pt[k].p50_cycles = (double)ls[k].s.p50_cycles;
        }
        for (size_t k = 0; k < nl; k++) if (!pt[k].variant) pt[k].variant = "";
        char all[4096] = "";
        size_t used = 0;
        for (size_t q = 0; q < nv; q++) {
            char one[512];
            if (rf_timeline_growth(pt, nl, variants[q], one, sizeof one) != 0) continue;
            const int m = snprintf(all + used, sizeof all - used, "%s%s", used ? "; " : "", one);
            if (m > 0 && (size_t)m < sizeof all - used) used += (size_t)m;
        }
        if (used) rd_finding(d, s, "%s%s.", pfx(c, G, p, sizeof p), all);
        free(pt);
    }
}

static void sec_latency(report_doc *d, const ctx *c, logstat **stats, size_t *nstats)
{
    rd_section *s = rd_section_add(d, "latency", "Latency distribution");
    rd_para(d, s, "Cumulative distribution of the per-warp load latency of each kernel of the timeline "
                  "runs (bin/plot_latency): a curve to the right is slower; a steep curve means every "
                  "warp saw about the same latency. The table gives the percentiles (src/lib/stats.h, "
                  "the same as bin/latency_stats).");
    char p[64], rel[1024], cap[512], b1[32], b2[32], b3[32], b4[32], b5[32];
    rd_figures_start(d, s);
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        const char *tl = res_timeline_dir(&G->r);
        char exps[MAX_FAMILIES][64];
        const size_t ne = tl ? log_exps(G, tl, exps, MAX_FAMILIES) : 0;
        for (size_t e = 0; e < ne; e++) {
            const unsigned w = dist_wpb(G, tl, exps[e]);
            chart_rel(rel, sizeof rel, G, "latency_cdf_%s_%u", exps[e], w);
            snprintf(cap, sizeof cap, "%s%s: latency CDF, %u warps per block", pfx(c, G, p, sizeof p), exps[e], w);
            figure(d, s, c, rel, cap);
        }
    }
    /* the table at the distribution's WPB, per experiment, GPUs side by side */
    rd_table *parts[MAX_GPUS] = {0};
    const char *labels[MAX_GPUS];
    int any = 0;
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        labels[i] = G->label;
        const char *tl = res_timeline_dir(&G->r);
        if (!tl) continue;
        parts[i] = rd_table_new(7);
        static const char *const head[] = {"kernel, warps per block", "warps", "mean (cycles)", "p5", "p50", "p95", "p99"};
        for (size_t k = 0; k < 7; k++) rd_table_set(parts[i], 0, k, "%s", head[k]);
        size_t row = 1;
        for (size_t k = 0; k < nstats[i]; k++) {
            const logstat *l = &stats[i][k];
            if (!l->ok || l->f->wpb != dist_wpb(G, tl, l->f->exp)) continue;
            rd_table_set(parts[i], row, 0, "%s %s%s%s, %u", l->f->exp, l->f->variant, *l->f->label ? "-" : "",
                         l->f->label, l->f->wpb);
            rd_table_set(parts[i], row, 1, "%llu", (unsigned long long)l->s.count);
            rd_table_set(parts[i], row, 2, "%s", num(b1, sizeof b1, "%.0f", l->s.mean_cycles));
            rd_table_set(parts[i], row, 3, "%s", num(b2, sizeof b2, "%.0f", l->s.p5_cycles));
            rd_table_set(parts[i], row, 4, "%s", num(b3, sizeof b3, "%.0f", l->s.p50_cycles));
            rd_table_set(parts[i], row, 5, "%s", num(b4, sizeof b4, "%.0f", l->s.p95_cycles));
            rd_table_set(parts[i], row, 6, "%s", num(b5, sizeof b5, "%.0f", l->s.p99_cycles));
            row++;
            any = 1;
        }
    }
    if (any) {
        rd_table_add(d, s, join((const rd_table *const *)parts, labels, c->ng));
    }
    for (int i = 0; i < c->ng; i++) {
        rd_table_free(parts[i]);
        const gpu *G = &c->g[i];
        const char *tl = res_timeline_dir(&G->r);
        if (!tl) continue;
        rf_latpoint pt[64];
        size_t np = 0;
        double n_elems = NAN, elem = NAN;
        for (size_t k = 0; k < nstats[i] && np < 64; k++) {
            const logstat *l = &stats[i][k];
            if (!l->ok || l->f->wpb != dist_wpb(G, tl, l->f->exp) || *l->f->label) continue;
            pt[np].variant = l->f->variant;
            pt[np].wpb = l->f->wpb;
            pt[np++].p50_cycles = l->s.p50_cycles;
            if (!strcmp(l->f->variant, "baseline")) { n_elems = (double)l->h.n_elems; elem = l->h.elem_bytes; }
        }
        char note[2048], l2[512];
        const char *ref = np ? pt[0].variant : "";
        for (size_t k = 0; k < np; k++) if (!strcmp(pt[k].variant, "baseline")) ref = "baseline";
        if (rf_relative_p50(pt, np, ref, note, sizeof note) == 0) {
            if (rf_l2_note(n_elems, elem, G->dev.l2_bytes, l2, sizeof l2) == 0)
                rd_finding(d, s, "%s%s %s", pfx(c, G, p, sizeof p), note, l2);
            else
                rd_finding(d, s, "%s%s", pfx(c, G, p, sizeof p), note);
        }
    }
    /* the summaries' N: latency_stats_<N>_wpb<W>.tsv */
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        const res_file *f = res_find(&G->r, NAMES_LATENCY_STATS, NULL, NULL, NULL, 0, "");
        if (!f) {
            const char *n = res_main_n(&G->r, "readonly");
            char base[256];
            names_latency_stats(base, sizeof base, n ? n : "1e8", 4);
            missing(d, s, c, G, base, "(the latency statistics of the summaries' logs)");
            continue;
        }
        for (; f; f = res_next(&G->r, f, NAMES_LATENCY_STATS, NULL, NULL, NULL, 0, "")) {
            tsv_table t;
            char err[512];
            if (tsv_read(f->path, &t, err, sizeof err) != 0) { rd_failed(d, s, f->rel, err); continue; }
            rd_heading(d, s, "%sN = %s, %u warps per block (%s)", pfx(c, G, p, sizeof p), f->n, f->wpb, f->base);
            rd_table *r = rd_table_new(7);
            static const char *const cols[] = {"kernel", "count", "mean_cycles", "p5_cycles", "p50_cycles", "p95_cycles", "p99_cycles"};
            static const char *const head[] = {"kernel", "warps", "mean (cycles)", "p5", "p50", "p95", "p99"};
            for (size_t k = 0; k < 7; k++) rd_table_set(r, 0, k, "%s", head[k]);
            size_t row = 1;
            for (size_t q = 0; q < t.nrow; q++) {
                const char *sm = tsv_get(&t, q, "sm");
                if (sm && strcmp(sm, "all")) continue;
                rd_table_set(r, row, 0, "%s", tsv_get(&t, q, "kernel") ? tsv_get(&t, q, "kernel") : "?");
                for (size_t k = 1; k < 7; k++)
                    rd_table_set(r, row, k, "%s", num(b1, sizeof b1, "%.0f", tsv_num(&t, q, cols[k])));
                row++;
            }
            rd_table_add(d, s, r);
            rd_links_start(d, s, NULL);
            rd_link(d, s, rel_to_out(c, f->path), f->base);
            tsv_free(&t);
        }
    }
}

static int ladder_levels(const char *path, plateau_level *lv, int *n, char *err, size_t errlen)
{
    plateau_series se;
    if (plateau_read_tsv(path, &se, err, errlen) != 0) return -1;
    *n = plateau_find(se.pts, se.n, NULL, lv, PLATEAU_MAX_LEVELS, err, errlen);
    if (*n >= 0) plateau_label(lv, *n, plateau_series_l1_bypassed(&se));
    plateau_series_free(&se);
    return *n < 0 ? -1 : 0;
}

static void sec_ladder(report_doc *d, const ctx *c)
{
    rd_section *s = rd_section_add(d, "ladder", "Latency ladder: L1, L2, DRAM");
    rd_para(d, s, "One thread chases pointers through a working set of growing size (./latency, "
                  "docs/latency.md); each plateau is a level of the memory hierarchy, found by "
                  "src/lib/plateau.h (bin/plot_ladder). ca: loads cached in L1; cg: L1 bypassed.");
    char p[64], rel[1024], cap[512], b1[32], b2[32];
    static const char *const kinds[] = {"ca", "cg"};
    for (int k = 0; k < 2; k++) {
        char base[32];
        snprintf(base, sizeof base, "latency_%s.tsv", kinds[k]);
        rd_heading(d, s, k == 0 ? "L1 cached (ld.global.ca)" : "L1 bypassed (ld.global.cg)");
        rd_figures_start(d, s);
        for (int i = 0; i < c->ng; i++) {
            const gpu *G = &c->g[i];
            const res_file *f = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, "");
            while (f && strcmp(f->base, base)) f = res_next(&G->r, f, NAMES_LADDER, NULL, NULL, NULL, 0, "");
            if (!f) continue;
            chart_rel(rel, sizeof rel, G, "ladder_%s", kinds[k]);
            snprintf(cap, sizeof cap, "%slatency ladder, %s", pfx(c, G, p, sizeof p), kinds[k]);
            figure(d, s, c, rel, cap);
        }
        rd_table *parts[MAX_GPUS] = {0};
        const char *labels[MAX_GPUS];
        int any = 0;
        char notes[MAX_GPUS][2][2048];
        memset(notes, 0, sizeof notes);
        for (int i = 0; i < c->ng; i++) {
            const gpu *G = &c->g[i];
            labels[i] = G->label;
            const res_file *f = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, "");
            while (f && strcmp(f->base, base)) f = res_next(&G->r, f, NAMES_LADDER, NULL, NULL, NULL, 0, "");
            if (!f) { missing(d, s, c, G, base, NULL); continue; }
            plateau_level lv[PLATEAU_MAX_LEVELS];
            int n = 0;
            char err[512];
            if (ladder_levels(f->path, lv, &n, err, sizeof err) != 0) { rd_failed(d, s, f->rel, err); continue; }
            parts[i] = rd_table_new(6);
            static const char *const head[] = {"level", "from", "to", "cycles", "ns", "x first level"};
            for (size_t q = 0; q < 6; q++) rd_table_set(parts[i], 0, q, "%s", head[q]);
            for (int q = 0; q < n; q++) {
                rd_table_set(parts[i], (size_t)q + 1, 0, "%s", lv[q].name);
                rd_table_set(parts[i], (size_t)q + 1, 1, "%s", rf_fmt_size(lv[q].from_bytes, b1, sizeof b1));
                rd_table_set(parts[i], (size_t)q + 1, 2, "%s", rf_fmt_size(lv[q].to_bytes, b2, sizeof b2));
                rd_table_set(parts[i], (size_t)q + 1, 3, "%.1f", lv[q].cycles);
                rd_table_set(parts[i], (size_t)q + 1, 4, "%.1f", lv[q].ns);
                rd_table_set(parts[i], (size_t)q + 1, 5, "%.1f", lv[q].cycles / lv[0].cycles);
            }
            any = 1;
            rf_ladder_levels_note(lv, n, notes[i][0], sizeof notes[i][0]);
            rf_ladder_occupancy_note(lv, n, &G->dev, notes[i][1], sizeof notes[i][1]);
        }
        if (any) rd_table_add(d, s, join((const rd_table *const *)parts, labels, c->ng));
        for (int i = 0; i < c->ng; i++) {
            rd_table_free(parts[i]);
            for (int q = 0; q < 2; q++)
                if (*notes[i][q]) rd_finding(d, s, "%s%s", pfx(c, &c->g[i], p, sizeof p), notes[i][q]);
        }
    }
    if (c->ng > 1) {
        rd_heading(d, s, "All GPUs, L1 cached");
        snprintf(rel, sizeof rel, "charts/ladder_all.svg");
        char abs[2048];
        snprintf(abs, sizeof abs, "%s/%s", c->outdir, rel);
        if (exists(abs) || failure_of(c, rel)) {
            rd_figures_start(d, s);
            figure(d, s, c, rel, "cached latency ladders of every GPU");
        }
    }
}

static void sec_sweeps(report_doc *d, const ctx *c)
{
    rd_section *s = rd_section_add(d, "sweeps", "Occupancy sweeps: throughput against Little's law");
    rd_para(d, s, "Bandwidth against resident warps per SM (the clean twin), with the Little's-law bound "
                  "(bytes in flight / latency) and the DRAM peak (bin/plot_throughput, docs/occupancy.md). "
                  "In the table, the bound is Little's law at each point's own mean latency "
                  "(src/lib/littles.h), and a point near 100%% of it is latency-bound; a point far below "
                  "is limited by something else.");
    char p[64], rel[1024], cap[512], b[8][32];
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        pfx(c, G, p, sizeof p);
        double dram = NAN, dram_ns = NAN;
        const res_file *ca = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, "");
        while (ca && strcmp(ca->base, "latency_ca.tsv")) ca = res_next(&G->r, ca, NAMES_LADDER, NULL, NULL, NULL, 0, "");
        char err[512];
        if (ca && plateau_dram_latency_from_tsv(ca->path, &dram, &dram_ns, err, sizeof err) != 0) dram = NAN;
        for (const res_file *f = res_find(&G->r, NAMES_SWEEP, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_SWEEP, NULL, NULL, NULL, 0, "")) {
            rd_heading(d, s, "%s%s %s, %u warps per block", p, f->exp, f->variant, f->wpb);
            sweep_chart(rel, sizeof rel, G, f);
            snprintf(cap, sizeof cap, "%s%s %s, %u warps per block", p, f->exp, f->variant, f->wpb);
            rd_figures_start(d, s);
            figure(d, s, c, rel, cap);
            sweep sw;
            if (sweep_read(f->path, &sw, err, sizeof err) != 0) { rd_failed(d, s, f->rel, err); continue; }
            rf_device dev = G->dev;
            if (!isfinite(dev.peak_GBps)) dev.peak_GBps = sweep_meta_num(&sw, "peak_dram_GBps");
            if (!isfinite(dev.sm_count)) dev.sm_count = sweep_meta_num(&sw, "sm_count");
            const double mc = sweep_meta_num(&sw, "sm_clock_measured_MHz");
            if (mc > 0) dev.sm_clock_MHz = mc;
            const double bpw = sweep_meta_num(&sw, "bytes_per_warp_load");
            rf_sweep_point *pt = xcalloc(sw.npoints, sizeof *pt);
            for (size_t q = 0; q < sw.npoints; q++) {
                pt[q].warps_per_sm = sw.points[q].warps_per_sm;
                pt[q].occupancy_pct = sw.points[q].occupancy_pct;
                pt[q].bw_GBps = sw.points[q].bw_GBps;
                pt[q].lat_mean_cycles = sw.points[q].lat_mean_cycles;
                pt[q].sm_clock_MHz = NAN;
            }
            rf_sweep_bounds(pt, sw.npoints, bpw, &dev);
            rd_table *t = rd_table_new(7);
            static const char *const head[] = {"warps/SM", "occupancy %", "GB/s", "% of peak",
                                               "mean latency (cycles)", "bound at own latency (GB/s)", "% of bound"};
            for (size_t k = 0; k < 7; k++) rd_table_set(t, 0, k, "%s", head[k]);
            for (size_t q = 0; q < sw.npoints; q++) {
                rd_table_set(t, q + 1, 0, "%s", num(b[0], 32, "%.0f", pt[q].warps_per_sm));
                rd_table_set(t, q + 1, 1, "%s", num(b[1], 32, "%.1f", pt[q].occupancy_pct));
                rd_table_set(t, q + 1, 2, "%s", num(b[2], 32, "%.1f", pt[q].bw_GBps));
                rd_table_set(t, q + 1, 3, "%s", num(b[3], 32, "%.1f", 100 * pt[q].bw_GBps / dev.peak_GBps));
                rd_table_set(t, q + 1, 4, "%s", num(b[4], 32, "%.0f", pt[q].lat_mean_cycles));
                rd_table_set(t, q + 1, 5, "%s", num(b[5], 32, "%.0f", pt[q].bound_GBps));
                rd_table_set(t, q + 1, 6, "%s", num(b[6], 32, "%.0f", pt[q].of_bound_pct));
            }
            rd_table_add(d, s, t);
            char note[2048], kname[256];
            snprintf(kname, sizeof kname, "%s", f->variant);
            if (rf_sweep_best_note(kname, pt, sw.npoints, &dev, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            double lat = dram;
            int given = isfinite(dram);
            if (!given)
                for (size_t q = 0; q < sw.npoints; q++)
                    if (sw.points[q].lat_p50_cycles > 0 && !(lat <= sw.points[q].lat_p50_cycles)) lat = sw.points[q].lat_p50_cycles;
            if (rf_sweep_need_note(lat, given, bpw, &dev, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            if (rf_sweep_bound_note(pt, sw.npoints, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            rd_links_start(d, s, "data:");
            rd_link(d, s, rel_to_out(c, f->path), f->base);
            free(pt);
            sweep_free(&sw);
        }
        for (size_t fa = 0; fa < c->nfam; fa++) {
            const family_info *fi = family_of(c->families[fa]);
            if (!fi) continue;
            for (const char *const *v = fi->sweep_variants; v && *v; v++) {
                if (res_find(&G->r, NAMES_SWEEP, fi->name, *v, NULL, fi->sweep_wpb, "")) continue;
                char base[256];
                names_sweep(base, sizeof base, fi->name, *v, fi->sweep_wpb);
                missing(d, s, c, G, base, NULL);
            }
        }
    }
}

/* The blocks of a file that holds several tables separated by blank lines
 * (sector_compare: the main table, then "# gathers"). */
static int read_blocks(const char *path, tsv_table *blocks, int max, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) { snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno)); return -1; }
    char *text = NULL;
    size_t len = 0, cap = 0;
    char buf[8192];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) {
        if (len + k + 1 > cap) {
            cap = (len + k + 1) * 2;
            char *t = realloc(text, cap);
            if (!t) { free(text); fclose(f); snprintf(err, errlen, "out of memory"); return -1; }
            text = t;
        }
        memcpy(text + len, buf, k);
        len += k;
    }
    fclose(f);
    if (!text) { snprintf(err, errlen, "%s is empty", path); return -1; }
    text[len] = 0;
    int n = 0;
    char *p = text;
    while (p && *p && n < max) {
        char *end = strstr(p, "\n\n");
        if (end) *end = 0;
        while (*p == '\n') p++;
        if (*p) {
            FILE *m = fmemopen(p, strlen(p), "r");
            if (!m || tsv_parse(m, path, &blocks[n], err, errlen) != 0) {
                if (m) fclose(m);
                for (int i = 0; i < n; i++) tsv_free(&blocks[i]);
                free(text);
                return -1;
            }
            fclose(m);
            n++;
        }
        p = end ? end + 2 : NULL;
    }
    free(text);
    return n;
}

static void sec_sectors(report_doc *d, const ctx *c)
{
    rd_section *s = rd_section_add(d, "sectors", "What the hardware moves: sectors");
    rd_para(d, s, "L1 requests and sectors, L2 and DRAM sectors per access pattern, measured with Nsight "
                  "Compute against the sector model (bin/sector_model, docs/sectors.md). A row agrees when "
                  "its L1 sectors equal the prediction and its DRAM sectors are within 5%%.");
    char p[64], rel[1024], cap[512], err[512], b[32];
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        pfx(c, G, p, sizeof p);
        for (const res_file *f = res_find(&G->r, NAMES_SECTORS, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_SECTORS, NULL, NULL, NULL, 0, "")) {
            rd_heading(d, s, "%s%s: measured against the model", p, f->exp);
            tsv_table blocks[4];
            int nb;
            const int cmp = sectors_need_compare(f->path);
            char tab[1024], abs[2048];
            if (cmp) {
                compare_rel(tab, sizeof tab, G, f->exp);
                snprintf(abs, sizeof abs, "%s/%s", c->outdir, tab);
                if (!exists(abs)) {
                    const char *e = failure_of(c, tab);
                    rd_failed(d, s, "sector comparison", e ? e : "bin/sector_compare was not run");
                    continue;
                }
                nb = read_blocks(abs, blocks, 4, err, sizeof err);
            } else {
                nb = read_blocks(f->path, blocks, 4, err, sizeof err);
            }
            if (nb < 1) { rd_failed(d, s, f->rel, err); continue; }
            const tsv_table *t = &blocks[0];
            if (cmp) {
                /* sector_compare's columns, shown as the model against ncu */
                rd_table *r = rd_table_new(12);
                static const char *const head[] = {"pattern", "elem (B)", "stride", "L1 requests pred / meas",
                                                   "L1 sectors pred", "L1 sectors meas", "L2 sectors meas",
                                                   "DRAM sectors pred", "DRAM sectors meas", "DRAM err %",
                                                   "time (us)", "verdict"};
                for (size_t k = 0; k < 12; k++) rd_table_set(r, 0, k, "%s", head[k]);
                for (size_t q = 0; q < t->nrow; q++) {
#define G_(col) (tsv_get(t, q, col) ? tsv_get(t, q, col) : "n/a")
                    rd_table_set(r, q + 1, 0, "%s", G_("pattern"));
                    rd_table_set(r, q + 1, 1, "%s", G_("elem_bytes"));
                    rd_table_set(r, q + 1, 2, "%s", G_("stride"));
                    rd_table_set(r, q + 1, 3, "%s / %s", G_("l1_requests_pred"), G_("l1_requests_meas"));
                    rd_table_set(r, q + 1, 4, "%s", G_("l1_sectors_pred"));
                    rd_table_set(r, q + 1, 5, "%s", G_("l1_sectors_meas"));
                    rd_table_set(r, q + 1, 6, "%s", G_("l2_sectors_meas"));
                    rd_table_set(r, q + 1, 7, "%s", G_("dram_sectors_pred"));
                    rd_table_set(r, q + 1, 8, "%s", G_("dram_sectors_meas"));
                    rd_table_set(r, q + 1, 9, "%s", G_("dram_err_pct"));
                    rd_table_set(r, q + 1, 10, "%s", num(b, sizeof b, "%.1f", tsv_num(t, q, "time_ns") / 1000));
                    rd_table_set(r, q + 1, 11, "%s", G_("verdict"));
#undef G_
                }
                rd_table_add(d, s, r);
            } else {
                rd_table_add(d, s, plain_table(t));
            }
            rf_sectors cnt;
            char note[2048];
            if (rf_sectors_count(t, &cnt) == 0 && rf_sectors_note(&cnt, note, sizeof note) == 0)
                rd_finding(d, s, "%s%s", p, note);
            for (int k = 1; k < nb; k++) {
                const char *why = blocks[k].ncomment ? blocks[k].comment[0] : "";
                rd_para(d, s, "%s%s", p, *why ? why : "more of the comparison:");
                rd_table_add(d, s, plain_table(&blocks[k]));
            }
            for (int k = 0; k < nb; k++) tsv_free(&blocks[k]);
            if (cmp) {
                chart_rel(rel, sizeof rel, G, "sectors_%s", f->exp);
                snprintf(cap, sizeof cap, "%s%s: sectors and time against stride", p, f->exp);
                rd_figures_start(d, s);
                figure(d, s, c, rel, cap);
            }
            rd_links_start(d, s, "data:");
            rd_link(d, s, rel_to_out(c, f->path), f->base);
            if (cmp) rd_link(d, s, tab, "the comparison (bin/sector_compare)");
        }
        for (size_t fa = 0; fa < c->nfam; fa++) {
            const family_info *fi = family_of(c->families[fa]);
            if (!fi || !fi->has_sectors || res_find(&G->r, NAMES_SECTORS, fi->name, NULL, NULL, 0, "")) continue;
            char base[256];
            names_sectors(base, sizeof base, fi->name);
            missing(d, s, c, G, base, "(needs Nsight Compute)");
        }
        int any = 0;
        for (const res_file *f = res_find(&G->r, NAMES_SASS, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_SASS, NULL, NULL, NULL, 0, "")) {
            if (!any) { snprintf(cap, sizeof cap, "%sSASS of the kernels:", p); rd_links_start(d, s, cap); any = 1; }
            rd_link(d, s, rel_to_out(c, f->path), f->base);
        }
    }
}

/* ------------------------------------------------------------ expected files */

/* Call fn for every file a complete results folder has (docs/naming.md, as
 * scripts/reference.sh writes it). */
static void expected(const res_gpu *r, char (*fams)[64], size_t nfam,
                     void (*fn)(const char *base, void *arg), void *arg)
{
    static const unsigned WPBS[] = {2, 4, 8, 16, 32};
    char b[256];
    fn("device.tsv", arg);
    fn("nvidia_smi.csv", arg);
    for (size_t fa = 0; fa < nfam; fa++) {
        const char *n = res_main_n(r, fams[fa]);
        if (!n) n = "1e8";
        for (size_t w = 0; w < sizeof WPBS / sizeof WPBS[0]; w++) {
            names_summary(b, sizeof b, fams[fa], n, WPBS[w]);
            fn(b, arg);
        }
        names_sass(b, sizeof b, fams[fa]);
        fn(b, arg);
        const family_info *fi = family_of(fams[fa]);
        for (const char *const *v = fi ? fi->sweep_variants : NULL; v && *v; v++) {
            names_sweep(b, sizeof b, fams[fa], *v, fi->sweep_wpb);
            fn(b, arg);
        }
        if (fi && fi->has_sectors) {
            names_sectors(b, sizeof b, fams[fa]);
            fn(b, arg);
        }
    }
    const char *n = res_main_n(r, "readonly");
    names_latency_stats(b, sizeof b, n ? n : "1e8", 4);
    fn(b, arg);
    fn("overhead.tsv", arg);
    fn("sampling.tsv", arg);
    names_logdir(b, sizeof b, "1e6");
    fn(b, arg);
    fn("latency_ca.tsv", arg);
    fn("latency_cg.tsv", arg);
}

typedef struct miss_ctx {
    const res_gpu *r;
    const char *dir;       /* for the commands */
    void (*out)(const char *base, const char *cmd, void *arg);
    void *arg;
    size_t n;
} miss_ctx;

static void check_one(const char *base, void *arg)
{
    miss_ctx *m = arg;
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", m->r->dir, base);
    if (exists(p)) return;
    char cmd[2048];
    if (names_command(cmd, sizeof cmd, m->dir, base) != 0) snprintf(cmd, sizeof cmd, "scripts/reference.sh %s", m->dir);
    m->out(base, cmd, m->arg);
    m->n++;
}

static void print_missing(const char *base, const char *cmd, void *arg)
{
    (void)arg;
    printf("%s\t%s\n", base, cmd);
}

typedef struct doc_arg {
    report_doc *d;
    rd_section *s;
    rd_table *t;
    size_t row;
} doc_arg;

static void table_missing(const char *base, const char *cmd, void *arg)
{
    doc_arg *a = arg;
    a->row++;
    rd_table_set(a->t, a->row, 0, "%s", base);
    rd_table_set(a->t, a->row, 1, "%s", cmd);
}

static void sec_files(report_doc *d, const ctx *c)
{
    rd_section *s = rd_section_add(d, "files", "Files: what is missing, what else is there");
    rd_para(d, s, "Every file a complete results folder has (docs/naming.md, written by "
                  "scripts/reference.sh), and for each one missing here the command that makes it. "
                  "Files outside the naming contract (an older layout, under legacy/) are linked as "
                  "they are.");
    char p[64];
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        doc_arg a = {d, s, rd_table_new(2), 0};
        rd_table_set(a.t, 0, 0, "missing file");
        rd_table_set(a.t, 0, 1, "made by");
        miss_ctx m = {&G->r, src_dir(G), table_missing, &a, 0};
        expected(&G->r, (char (*)[64])c->families, c->nfam, check_one, &m);
        rd_heading(d, s, "%s%s", pfx(c, G, p, sizeof p), G->name);
        if (m.n) {
            rd_para(d, s, "%zu expected file(s) missing:", m.n);
            rd_table_add(d, s, a.t);
        } else {
            rd_table_free(a.t);
            rd_para(d, s, "Every expected file is there.");
        }
        int any = 0;
        for (size_t k = 0; k < G->r.nfile; k++) {
            const res_file *f = &G->r.file[k];
            if (f->kind != NAMES_LEGACY && f->kind != NAMES_UNKNOWN) continue;
            if (!any) { rd_links_start(d, s, "Other files:"); any = 1; }
            rd_link(d, s, rel_to_out(c, f->path), f->rel);
        }
    }
}

static int cmd_expected(const char *dir, const char *families)
{
    res_gpu r;
    char err[512];
    if (res_scan(dir, "", &r, err, sizeof err) != 0) die("%s", err);
    ctx c;
    memset(&c, 0, sizeof c);
    c.ng = 0;
    char fams[MAX_FAMILIES][64];
    size_t nf = res_families(&r, fams, MAX_FAMILIES);
    if (families && *families) {
        char *dup = strdup(families), *save = NULL;
        for (char *t = strtok_r(dup, ",", &save); t && nf < MAX_FAMILIES; t = strtok_r(NULL, ",", &save)) {
            size_t j = 0;
            while (j < nf && strcmp(fams[j], t)) j++;
            if (j == nf && names_valid_exp(t)) snprintf(fams[nf++], 64, "%s", t);
        }
        free(dup);
    }
    miss_ctx m = {&r, dir, print_missing, NULL, 0};
    printf("file\tcommand\n");
    expected(&r, fams, nf, check_one, &m);
    res_free(&r);
    return fflush(stdout) == 0 ? 0 : 1;
}

/* The results folders of dir: itself, or its sub-folders that are, sorted. */
static int cmd_gpus(const char *dir)
{
    if (!is_dir(dir)) die("%s is not a folder", dir);
    if (res_is_gpu_dir(dir)) { printf("%s\n", dir); return fflush(stdout) == 0 ? 0 : 1; }
    DIR *d = opendir(dir);
    if (!d) die("cannot read %s: %s", dir, strerror(errno));
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        if (e->d_name[0] == '.') continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (!is_dir(p) || !res_is_gpu_dir(p)) continue;
        if (!(names[n++] = strdup(p))) die("out of memory");
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) { printf("%s\n", names[i]); free(names[i]); }
    return fflush(stdout) == 0 ? 0 : 1;
}

/* ------------------------------------------------------------ render */

static int write_atomic(const char *path, const report_doc *d, int (*w)(const report_doc *, FILE *))
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) { fprintf(stderr, PROG ": cannot write %s: %s\n", tmp, strerror(errno)); return -1; }
    int rc = w(d, f);
    if (fclose(f) != 0) rc = -1;
    if (rc != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, PROG ": cannot write %s\n", path);
        remove(tmp);
        return -1;
    }
    return 0;
}

static int cmd_render(ctx *c, const char *mode, const char *note)
{
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/logs/failures.tsv", c->outdir);
    if (exists(path)) {
        if (tsv_read(path, &c->failures, err, sizeof err) != 0) die("%s", err);
        c->have_failures = 1;
    }
    char title[256], desc[2048] = "";
    size_t used = 0;
    for (int i = 0; i < c->ng; i++) {
        const int m = snprintf(desc + used, sizeof desc - used, "%s%s%s%s", i ? " and " : "", c->g[i].name,
                               *c->g[i].date ? ", measured " : "", c->g[i].date);
        if (m > 0 && (size_t)m < sizeof desc - used) used += (size_t)m;
    }
    if (!strcmp(mode, "gpu")) snprintf(title, sizeof title, "warplat report: %s", c->ng ? c->g[0].name : "");
    else if (!strcmp(mode, "reference")) snprintf(title, sizeof title, "warplat report: bundled reference results");
    else snprintf(title, sizeof title, "warplat report");
    report_doc *d = rd_new(title);
    if (!d) die("out of memory");
    if (!strcmp(mode, "reference"))
        rd_set_top_note(d, "%s%sthis report shows the bundled reference results of %s.", note ? note : "",
                        note && *note ? ": " : "", desc);
    else if (!strcmp(mode, "gpu"))
        rd_set_top_note(d, "This report shows the study run on this machine's %s%s%s.", desc, note && *note ? ", " : "",
                        note ? note : "");
    else
        rd_set_top_note(d, "This report shows the results in %s: %s.", note && *note ? note : "the data folder", desc);
    rd_set_footer(d, "Made by scripts/report.sh and bin/report (docs/report.md). Every chart is drawn by "
                     "gnuplot from the .gp script and data beside it: edit the script and run gnuplot -c "
                     "NAME.gp in its folder to redraw. The tables behind the report are in data/, the logs "
                     "of each step in logs/.");
    logstat *stats[MAX_GPUS];
    size_t nstats[MAX_GPUS];
    for (int i = 0; i < c->ng; i++) {
        const char *tl = res_timeline_dir(&c->g[i].r);
        stats[i] = tl ? timeline_stats(&c->g[i], tl, &nstats[i]) : NULL;
        if (!tl) nstats[i] = 0;
    }
    sec_device(d, c);
    for (size_t f = 0; f < c->nfam; f++) sec_family(d, c, c->families[f]);
    sec_overhead(d, c);
    sec_timelines(d, c, stats, nstats);
    sec_latency(d, c, stats, nstats);
    sec_ladder(d, c);
    sec_sweeps(d, c);
    sec_sectors(d, c);
    sec_files(d, c);
    for (int i = 0; i < c->ng; i++) free(stats[i]);
    char html[4200], md[4200];
    snprintf(html, sizeof html, "%s/index.html", c->outdir);
    snprintf(md, sizeof md, "%s/index.md", c->outdir);
    if (d->oom) die("out of memory while building the report");
    const int rc = write_atomic(html, d, rd_write_html) == 0 && write_atomic(md, d, rd_write_markdown) == 0 ? 0 : 1;
    rd_free(d);
    return rc;
}

/* ------------------------------------------------------------ charts */

/* Bandwidth against WPB: one line per variant, from summaries of one N. */
static int cmd_chart_bandwidth(const char *out, int n, char **files)
{
    char err[512];
    tsv_table t[MAX_WPB];
    if (n > MAX_WPB) return cli_usage_error(PROG, "at most %d summaries", MAX_WPB);
    double peak = NAN;
    char dev[128] = "", exp[64] = "";
    for (int i = 0; i < n; i++) {
        if (tsv_read(files[i], &t[i], err, sizeof err) != 0) die("%s", err);
        if (tsv_col(&t[i], "bw_GBps") < 0 || tsv_col(&t[i], "warps_per_block") < 0)
            die("%s has no bw_GBps and warps_per_block columns", files[i]);
        if (!isfinite(peak)) peak = tsv_meta_lead_num(&t[i], "peak_dram_GBps");
        double sms = NAN;
        if (!*dev) parse_device_meta(tsv_meta(&t[i], "device"), dev, sizeof dev, &sms);
        char e[64], v[64], l[64], nn[64];
        unsigned w;
        const char *base = strrchr(files[i], '/');
        if (!*exp && names_parse(base ? base + 1 : files[i], e, v, l, nn, sizeof e, &w) == NAMES_SUMMARY)
            snprintf(exp, sizeof exp, "%s", e);
    }
    /* variants in order of first appearance */
    char keys[64][256];
    size_t nk = 0;
    for (int i = 0; i < n; i++)
        for (size_t r = 0; r < t[i].nrow; r++) {
            char k[256];
            row_key(&t[i], r, k, sizeof k);
            size_t j = 0;
            while (j < nk && strcmp(keys[j], k)) j++;
            if (j == nk && nk < 64) snprintf(keys[nk++], 256, "%s", k);
        }
    gp_job *job = gp_job_new(out, 900, 560, err, sizeof err);
    if (!job) die("%s", err);
    FILE *dat = gp_job_add_data(job, ".dat", "dat", "w", err, sizeof err);
    if (!dat) { gp_job_abort(job); die("%s", err); }
    for (size_t k = 0; k < nk; k++) {
        fprintf(dat, "# %s\n", keys[k]);
        /* ascending WPB */
        double ws[MAX_WPB], bw[MAX_WPB];
        size_t m = 0;
        for (int i = 0; i < n; i++)
            for (size_t r = 0; r < t[i].nrow; r++) {
                char kk[256];
                row_key(&t[i], r, kk, sizeof kk);
                if (strcmp(kk, keys[k]) || m >= MAX_WPB) continue;
                ws[m] = tsv_num(&t[i], r, "warps_per_block");
                bw[m++] = tsv_num(&t[i], r, "bw_GBps");
            }
        for (size_t a = 1; a < m; a++)
            for (size_t q = a; q > 0 && ws[q - 1] > ws[q]; q--) {
                double x = ws[q]; ws[q] = ws[q - 1]; ws[q - 1] = x;
                x = bw[q]; bw[q] = bw[q - 1]; bw[q - 1] = x;
            }
        for (size_t q = 0; q < m; q++)
            if (isfinite(ws[q]) && isfinite(bw[q])) fprintf(dat, "%g\t%.1f\n", ws[q], bw[q]);
        fprintf(dat, "\n\n");
    }
    FILE *gp = gp_job_script(job, err, sizeof err);
    if (!gp) { gp_job_abort(job); die("%s", err); }
    fprintf(gp, "set title ");
    char title[512];
    snprintf(title, sizeof title, "%s: bandwidth against warps per block%s%s", *exp ? exp : "summaries",
             *dev ? ", " : "", dev);
    gp_put_str(gp, title);
    fprintf(gp, "\nset xlabel 'warps per block'\nset ylabel 'GB/s'\nset logscale x 2\n"
                "set xtics (1, 2, 4, 8, 16, 32)\nset grid\nset key outside right top\nset yrange [0:*]\n");
    if (isfinite(peak)) fprintf(gp, "set arrow from graph 0, first %.1f to graph 1, first %.1f nohead dt 2 lc rgb '#555555'\n"
                                    "set label 'DRAM peak %.0f GB/s' at graph 0.02, first %.1f offset 0, 0.6\n"
                                    "set yrange [0:%.1f]\n", peak, peak, peak, peak, peak * 1.08);
    fprintf(gp, "plot ");
    for (size_t k = 0; k < nk; k++) {
        fprintf(gp, "%sdat index %zu using 1:2 with linespoints pt 7 lw 2 title ", k ? ", \\\n     " : "", k);
        gp_put_str(gp, keys[k]);
    }
    fprintf(gp, "\n");
    for (int i = 0; i < n; i++) tsv_free(&t[i]);
    if (gp_job_finish(job, err, sizeof err) != 0) die("%s", err);
    return 0;
}

/* Several GPUs' L1-cached ladders on one chart. */
static int cmd_chart_ladders(const char *out, int n, char **specs)
{
    char err[512];
    gp_job *job = gp_job_new(out, 960, 600, err, sizeof err);
    if (!job) die("%s", err);
    FILE *dat = gp_job_add_data(job, ".dat", "dat", "w", err, sizeof err);
    if (!dat) { gp_job_abort(job); die("%s", err); }
    char titles[MAX_GPUS][256];
    if (n > MAX_GPUS) { gp_job_abort(job); return cli_usage_error(PROG, "at most %d ladders", MAX_GPUS); }
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(specs[i], '=');
        if (!eq) { gp_job_abort(job); return cli_usage_error(PROG, "'%s' is not LABEL=TSV", specs[i]); }
        plateau_series se;
        if (plateau_read_tsv(eq + 1, &se, err, sizeof err) != 0) { gp_job_abort(job); die("%s", err); }
        snprintf(titles[i], sizeof titles[i], "%.*s%s%s%s", (int)(eq - specs[i]), specs[i],
                 *se.device_name ? " (" : "", se.device_name, *se.device_name ? ")" : "");
        fprintf(dat, "# %s\n", titles[i]);
        for (size_t k = 0; k < se.n; k++) fprintf(dat, "%.0f\t%.3f\n", se.pts[k].bytes, se.pts[k].cycles);
        fprintf(dat, "\n\n");
        plateau_series_free(&se);
    }
    FILE *gp = gp_job_script(job, err, sizeof err);
    if (!gp) { gp_job_abort(job); die("%s", err); }
    fprintf(gp, "set title 'Pointer-chase latency, L1 cached (chase_ca)'\n"
                "set xlabel 'working set (bytes)'\nset ylabel 'latency per dependent load (cycles)'\n"
                "set logscale x 2\nset format x '2^%%L'\nset grid xtics ytics lc rgb '#dddddd'\n"
                "set key top left\nplot ");
    for (int i = 0; i < n; i++) {
        fprintf(gp, "%sdat index %d using 1:2 with linespoints pt 7 ps 0.5 lw 1.5 title ", i ? ", \\\n     " : "", i);
        gp_put_str(gp, titles[i]);
    }
    fprintf(gp, "\n");
    if (gp_job_finish(job, err, sizeof err) != 0) die("%s", err);
    return 0;
}

/* ------------------------------------------------------------ main */

static void usage(FILE *f)
{
    fputs("usage: report plan OUTDIR [--families LIST]\n"
          "       report render OUTDIR [LABEL=DIR...] [--mode gpu|reference|data] [--note TEXT]\n"
          "                            [--families LIST]\n"
          "       report expected DIR [--families LIST]\n"
          "       report gpus DIR\n"
          "       report chart-bandwidth OUT.svg SUMMARY...\n"
          "       report chart-ladders OUT.svg LABEL=TSV...\n"
          "\n"
          "The report of scripts/report.sh (docs/report.md): OUTDIR/data/<gpu>/ holds one\n"
          "results folder per GPU (docs/naming.md).\n"
          "  plan       the charts and comparisons to run, one job per line:\n"
          "             OUTPUT<TAB>STDOUT<TAB>WHAT<TAB>ARGV...  (STDOUT '-': not kept)\n"
          "  render     OUTDIR/index.html and index.md, from the results, the charts drawn\n"
          "             and OUTDIR/logs/failures.tsv (output, error: the jobs that failed);\n"
          "             LABEL=DIR says where a GPU's results came from\n"
          "  expected   the files a complete results folder has that DIR lacks, with the\n"
          "             command that makes each (TSV: file, command)\n"
          "  gpus       the results folders in DIR (DIR itself, or its sub-folders), one a line\n"
          "  chart-bandwidth  GB/s against warps per block, one line per variant\n"
          "  chart-ladders    several GPUs' latency ladders on one chart\n"
          "\n"
          "Exit status: 0 ok, 1 runtime failure, 2 usage error.\n",
          f);
}

int main(int argc, char **argv)
{
    const char *mode = "reference", *note = NULL, *families = NULL;
    static const char *const modes[] = {"gpu", "reference", "data", NULL};
    int mode_i = 1;
    const cli_opt opts[] = {
        {"--mode", 0, CLI_CHOICE, 0, 0, 0, 0, &mode_i, "MODE", "gpu, reference or data", modes, 0},
        {"--note", 0, CLI_STRING, 0, 0, 0, 0, &note, "TEXT", "the top of the report", 0, 0},
        {"--families", 0, CLI_STRING, 0, 0, 0, 0, &families, "LIST", "families the results should have", 0, 0},
        CLI_END};
    const cli_opt *const tables[] = {opts};
    cli_parse_result r;
    const int prc = cli_parse(PROG, argc, argv, tables, 1, 16, &r);
    if (prc != 0) return prc;
    if (r.help) { usage(stdout); return 0; }
    if (r.npos < 2) {
        if (r.npos == 0) return cli_usage_error(PROG, "a command is needed: plan, render, expected, chart-bandwidth or chart-ladders");
        return cli_usage_error(PROG, "%s needs %s", r.pos[0], strncmp(r.pos[0], "chart", 5) ? "a folder" : "OUT.svg and its inputs");
    }
    mode = modes[mode_i];
    const char *cmd = r.pos[0];
    if (!strcmp(cmd, "chart-bandwidth")) {
        if (r.npos < 3) return cli_usage_error(PROG, "chart-bandwidth needs OUT.svg and at least one SUMMARY");
        return cmd_chart_bandwidth(r.pos[1], r.npos - 2, r.pos + 2);
    }
    if (!strcmp(cmd, "chart-ladders")) {
        if (r.npos < 3) return cli_usage_error(PROG, "chart-ladders needs OUT.svg and at least one LABEL=TSV");
        return cmd_chart_ladders(r.pos[1], r.npos - 2, r.pos + 2);
    }
    if (!strcmp(cmd, "gpus")) {
        if (r.npos != 2) return cli_usage_error(PROG, "gpus takes one folder");
        return cmd_gpus(r.pos[1]);
    }
    if (!strcmp(cmd, "expected")) {
        if (r.npos != 2) return cli_usage_error(PROG, "expected takes one folder");
        if (!is_dir(r.pos[1])) die("%s is not a folder", r.pos[1]);
        return cmd_expected(r.pos[1], families);
    }
    if (strcmp(cmd, "plan") && strcmp(cmd, "render"))
        return cli_usage_error(PROG, "unknown command '%s'", cmd);
    static ctx c;
    c.outdir = r.pos[1];
    if (!is_dir(c.outdir)) die("%s is not a folder", c.outdir);
    if (!strcmp(cmd, "plan") && r.npos != 2) return cli_usage_error(PROG, "plan takes one folder");
    for (int i = 2; i < r.npos; i++)
        if (!strchr(r.pos[i], '=')) return cli_usage_error(PROG, "'%s' is not LABEL=DIR", r.pos[i]);
    load_gpus(&c, r.npos - 2, r.pos + 2);
    if (c.ng == 0) die("no results in %s/data/ (one folder per GPU, docs/naming.md)", c.outdir);
    find_families(&c, families);
    const int rc = !strcmp(cmd, "plan") ? cmd_plan(&c) : cmd_render(&c, mode, note);
    for (int i = 0; i < c.ng; i++) res_free(&c.g[i].r);
    if (c.have_failures) tsv_free(&c.failures);
    return rc;
}
