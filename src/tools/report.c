/*
 * report - the report's model, tables, findings and chart plan, in C
 * (scripts/report.sh only runs what this decides).
 *
 *   report plan OUTDIR                 the charts to draw, one job per line
 *                                      (and the folders they write into)
 *   report render OUTDIR [LABEL=DIR...] index.html and index.md
 *   report expected DIR [--families L] the result files DIR lacks, with the
 *                                      command that makes each
 *   report kernel OUTDIR               the report of your own kernel's log
 *                                      (scripts/report.sh --log: report_kernel.h)
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
#include "outfile.h"
#include "plateau.h"
#include "report_doc.h"
#include "report_facts.h"
#include "report_families.h"
#include "report_kernel.h"
#include "report_run.h"
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
typedef struct ctx ctx;
/* fn(base, arg) for every file a family's own script writes (quick: the
 * set was measured with --quick, readonly's N is 1e7) */
typedef void (*expect_fn)(int quick, void (*fn)(const char *base, void *arg), void *arg);
typedef void (*section_fn)(report_doc *d, const ctx *c, const char *exp);

typedef struct family_info {
    const char *name;
    const char *about;                     /* one paragraph for its section */
    const char *const *sweep_variants;     /* occupancy sweeps a reference set has */
    unsigned sweep_wpb;
    int has_sectors;                       /* a sectors_<exp>.tsv is expected */
    /* variants that are one coalesced stream, so that every byte a warp asks
     * for is a byte in flight: Little's law is worded for them */
    const char *const *littles_variants;
    int all_wpbs;                          /* summaries at WPB 2..32 (reference.sh) */
    int no_sass;                           /* no probe kernels: no sass_<exp>.txt */
    int no_summaries;                      /* writes no <exp>_<N>_wpb<W>.tsv */
    expect_fn expected;                    /* its script's files (names_family_script) */
    section_fn section;                    /* its own section, after its summaries */
} family_info;

static const char *const READONLY_SWEEPS[] = {"baseline", "float4", "nondiverging", "random_access", NULL};
static const char *const READONLY_LITTLES[] = {"baseline", "float4", NULL};

static void expect_ceiling(int quick, void (*fn)(const char *, void *), void *arg);
static void expect_stencil(int quick, void (*fn)(const char *, void *), void *arg);
static void expect_tiling(int quick, void (*fn)(const char *, void *), void *arg);
static void sec_ceiling(report_doc *d, const ctx *c, const char *exp);
static void sec_copy(report_doc *d, const ctx *c, const char *exp);
static void sec_patterns(report_doc *d, const ctx *c, const char *exp);
static void sec_stencil(report_doc *d, const ctx *c, const char *exp);
static void sec_tiling(report_doc *d, const ctx *c, const char *exp);

static const family_info FAMILIES[] = {
    {"ceiling", NULL, NULL, 0, 0, NULL, 0, 1, 1, expect_ceiling, sec_ceiling},
    {"copy",
     "Copies of N int32 (./copy N 0 4): strided loads and stores, batches of B elements per "
     "thread (rolled, unrolled, __restrict__, int4), vector widths, and cudaMemcpy beside them. "
     "GB/s counts the bytes read plus the bytes written over the clean twin's time.",
     NULL, 0, 1, NULL, 0, 0, 0, NULL, sec_copy},
    {"patterns",
     "The load patterns of lectures 001 and 002 in three paths (_ca cached in L1, _cg L2 only, _nc "
     "the read-only path), the write patterns and AoS against SoA (./patterns N 0 4). GB/s counts "
     "the bytes the threads ask for over the clean twin's time.",
     NULL, 0, 1, NULL, 0, 0, 0, NULL, sec_patterns},
    {"readonly",
     "Each kernel reads N elements once (./readonly N 0 WPB: no shared-memory limit on occupancy) "
     "and is validated against a CPU reference. kernel_ms is the clean twin's median time (no "
     "probes), GB/s the bytes it asks for over that time; the latency columns are the per-warp "
     "latency of the timed load in the instrumented kernel (SM cycles); instr_ms and overhead are "
     "the instrumented kernel's time and its cost against the twin.",
     READONLY_SWEEPS, 4, 1, READONLY_LITTLES, 1, 0, 0, NULL, NULL},
    {"stencil",
     "Finite differences of lab 000 (scripts/stencil.sh): deriv_copy, deriv0 (along the contiguous "
     "N0), deriv1 (along N1) and deriv0_halo (whose probe times the halo load alone), each in four "
     "layouts: lead=1 pads the front so that the first updated element starts a 128 B line, padld=1 "
     "rounds the leading dimension up to 32 floats. One table per size N0xN1 of the sweep.",
     NULL, 0, 1, NULL, 0, 0, 0, expect_stencil, sec_stencil},
    {"tiling",
     "Matrix multiply of DSIZE x DSIZE floats, naive against shared-memory tiles of 8, 16 and 32 "
     "(scripts/tiling.sh). Each variant fixes its own block (T x T threads), so warps per block is "
     "a column, not the file's WPB; GFLOP/s is the measure, GB/s (the matrices' bytes over the "
     "time) is not.",
     NULL, 0, 0, NULL, 0, 0, 0, expect_tiling, sec_tiling},
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
    rfm_ceiling ceiling[16];   /* ceiling.tsv's rows (nceiling 0: none) */
    int nceiling;
    double dram_ns, dram_cycles; /* the ladder's DRAM plateau (latency_ca.tsv); NAN */
    plateau_level lv[PLATEAU_MAX_LEVELS]; /* the cached ladder's levels */
    int nlv;
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

static int ladder_levels(const char *path, plateau_level *lv, int *n, char *err, size_t errlen);
static const res_file *fixed(const gpu *G, const char *base);
static const char *set_n(const res_gpu *r, int *quick);

/* The achievable ceiling (ceiling.tsv) and the ladder's levels. */
static void ceiling_facts(gpu *G)
{
    char err[512];
    G->nceiling = 0;
    G->dram_ns = G->dram_cycles = NAN;
    G->nlv = 0;
    const res_file *f = fixed(G, "ceiling.tsv");
    tsv_table t;
    if (f && tsv_read(f->path, &t, err, sizeof err) == 0) {
        const int n = rfm_ceiling_read(&t, G->ceiling, 16);
        G->nceiling = n > 0 ? n : 0;
        tsv_free(&t);
    }
    const res_file *ca = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, "");
    while (ca && strcmp(ca->base, "latency_ca.tsv")) ca = res_next(&G->r, ca, NAMES_LADDER, NULL, NULL, NULL, 0, "");
    if (ca && plateau_dram_latency_from_tsv(ca->path, &G->dram_cycles, &G->dram_ns, err, sizeof err) != 0)
        G->dram_cycles = G->dram_ns = NAN;
    if (ca && ladder_levels(ca->path, G->lv, &G->nlv, err, sizeof err) != 0) G->nlv = 0;
}

/* The ceiling of operation op on this GPU, NAN without ceiling.tsv. */
static double ceiling_of(const gpu *G, const char *op)
{
    return rfm_ceiling_of(G->ceiling, (size_t)G->nceiling, op);
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
        ceiling_facts(G);
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

/* The families' own charts: bin/report chart-family OUT KIND DIR [N]. */
typedef struct family_chart {
    const char *kind;      /* chart-family's KIND, and the chart's name */
    const char *exp;       /* the summaries it needs */
    const char *what;      /* for the progress lines */
    int per_n;             /* one chart per N: the largest N with an ncu table, else the largest */
} family_chart;

static const family_chart FAMILY_CHARTS[] = {
    {"copy_stride", "copy", "copy: bandwidth against stride", 0},
    {"copy_sectors", NULL, "copy: sectors per request against stride", 0},
    {"copy_batch", "copy", "copy: bandwidth against batch", 0},
    {"copy_vector", "copy", "copy: bandwidth against vector width", 0},
    {"patterns_offset", "patterns", "patterns: bandwidth and L1 utilization against offset", 0},
    {"stencil_sweep", "stencil", "stencil: bandwidth and over-fetch against N0", 0},
    {"tiling", "tiling", "tiling: time and DRAM bytes against tile size", 1},
};

/* The tiling's N shown: the largest DSIZE with an Nsight Compute table,
 * else the largest. */
static const char *tiling_n(const gpu *G)
{
    const char *best = NULL;
    double bv = 0;
    for (const res_file *f = res_find(&G->r, NAMES_SUMMARY, "tiling", NULL, NULL, 0, ""); f;
         f = res_next(&G->r, f, NAMES_SUMMARY, "tiling", NULL, NULL, 0, "")) {
        const double v = res_n_value(f->n) + (res_find(&G->r, NAMES_NCU_TABLE, "tiling", NULL, f->n, 0, "") ? 1e30 : 0);
        if (!best || v > bv) { bv = v; best = f->n; }
    }
    return best;
}

/* 1 when G has what the chart needs; n gets its N (or ""). */
static int family_chart_n(const gpu *G, const family_chart *fc, char *n, size_t len)
{
    n[0] = 0;
    if (!fc->exp) return res_find(&G->r, NAMES_SECTORS, "copy", NULL, NULL, 0, "") != NULL;
    if (fc->per_n) {
        const char *t = tiling_n(G);
        if (t) snprintf(n, len, "%s", t);
        return t != NULL;
    }
    return res_find(&G->r, NAMES_SUMMARY, fc->exp, NULL, NULL, 0, "") != NULL;
}

static void family_chart_rel(char *buf, size_t len, const gpu *G, const family_chart *fc, const char *n)
{
    if (*n) chart_rel(buf, len, G, "%s_%s", fc->kind, n);
    else chart_rel(buf, len, G, "%s", fc->kind);
}

static const family_chart *chart_of(const char *kind)
{
    for (size_t k = 0; k < sizeof FAMILY_CHARTS / sizeof FAMILY_CHARTS[0]; k++)
        if (!strcmp(FAMILY_CHARTS[k].kind, kind)) return &FAMILY_CHARTS[k];
    return NULL;
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
        /* bandwidth against WPB, per family with summaries at several WPBs */
        char ceil_read[32] = "";
        if (isfinite(ceiling_of(G, "read"))) snprintf(ceil_read, sizeof ceil_read, "%.1f", ceiling_of(G, "read"));
        for (size_t fa = 0; fa < c->nfam; fa++) {
            const char *n = res_main_n(&G->r, c->families[fa]);
            unsigned wl[MAX_WPB];
            if (!n || res_wpbs(&G->r, c->families[fa], n, wl, MAX_WPB) < 2) continue;
            const char *sums[MAX_WPB];
            size_t ns = 0;
            for (const res_file *f = res_find(&G->r, NAMES_SUMMARY, c->families[fa], NULL, n, 0, ""); f && ns < MAX_WPB;
                 f = res_next(&G->r, f, NAMES_SUMMARY, c->families[fa], NULL, n, 0, ""))
                sums[ns++] = f->path;
            chart_rel(out, sizeof out, G, "bandwidth_%s", c->families[fa]);
            snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
            snprintf(what, sizeof what, "%s: %s bandwidth against warps per block", G->label, c->families[fa]);
            const char *head[] = {"bin/report", "chart-bandwidth", abs, "--ceiling", ceil_read};
            job_list(c->outdir, out, what, head, *ceil_read ? 5 : 3, sums, ns, NULL, 0);
        }
        /* the families' own charts */
        for (size_t k = 0; k < sizeof FAMILY_CHARTS / sizeof FAMILY_CHARTS[0]; k++) {
            const family_chart *fc = &FAMILY_CHARTS[k];
            char n[64] = "";
            if (!family_chart_n(G, fc, n, sizeof n)) continue;
            family_chart_rel(out, sizeof out, G, fc, n);
            snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
            snprintf(what, sizeof what, "%s: %s%s%s", G->label, fc->what, *n ? " at N = " : "", n);
            if (*n) job(c->outdir, out, NULL, what, 6, "bin/report", "chart-family", abs, fc->kind, G->r.dir, n);
            else job(c->outdir, out, NULL, what, 5, "bin/report", "chart-family", abs, fc->kind, G->r.dir);
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
            /* with the achievable read ceiling beside the peak, where the set has one */
            if (ca && *ceil_read)
                job(c->outdir, out, NULL, what, 7, "bin/plot_throughput", f->path, abs, "--ladder", ca->path,
                    "--ceiling", ceil_read);
            else if (ca) job(c->outdir, out, NULL, what, 5, "bin/plot_throughput", f->path, abs, "--ladder", ca->path);
            else if (*ceil_read) job(c->outdir, out, NULL, what, 5, "bin/plot_throughput", f->path, abs, "--ceiling", ceil_read);
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
    return outfile_check_stdout(PROG);
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
    char b[256], b2[64];
    rd_table_set(t, 0, 0, "fact");
    for (int i = 0; i < c->ng; i++) rd_table_set(t, 0, (size_t)i + 1, "%s", c->g[i].label);
    static const char *const rows[] = {"name", "SMs", "SM clock (MHz)", "memory clock (MHz)",
                                       "memory bus (bits)", "DRAM peak (GB/s)", "L2 (bytes)",
                                       "resident warps per SM (max)", "achievable read (ceiling.tsv)", "driver",
                                       "measured on"};
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
            case 8: {
                int q = 0;
                while (q < G->nceiling && strcmp(G->ceiling[q].op, "read")) q++;
                if (q < G->nceiling)
                    rd_table_set(t, r + 1, col, "%s GB/s, %s%% of the theoretical peak",
                                 num(b, sizeof b, "%.1f", G->ceiling[q].bw_GBps),
                                 num(b2, sizeof b2, "%.1f", G->ceiling[q].pct_theoretical));
                else rd_table_set(t, r + 1, col, "n/a: no ceiling.tsv");
                break;
            }
            case 9: rd_table_set(t, r + 1, col, "%s", *G->driver ? G->driver : "n/a"); break;
            case 10: rd_table_set(t, r + 1, col, "%s", *G->date ? G->date : "n/a"); break;
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
    {"warps_per_block", "warps/block", "%.0f"},
    {"blocks_per_sm", "blocks/SM", "%.0f"},
    {"kernel_ms", "ms", "%.4f"},
    {"gflops", "GFLOP/s", "%.1f"},
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
    k->flops = tsv_num(t, r, "flops");
    k->gflops = tsv_num(t, r, "gflops");
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
static void first_summary(const gpu *G, const char *exp, char *buf, size_t len)
{
    const family_info *fi = family_of(exp);
    int quick = 0;
    const char *n = set_n(&G->r, &quick);
    if (fi && fi->expected) {
        first_arg f = {""};
        fi->expected(quick, take_first, &f);
        snprintf(buf, len, "%s", f.base);
        return;
    }
    names_summary(buf, len, exp, res_main_n(&G->r, exp) ? res_main_n(&G->r, exp) : n, 4);
}

/* Sizes in a natural order: by their leading number, then by name. */
static int cmp_n(const void *a, const void *b)
{
    const char *x = a, *y = b;
    const double u = strtod(x, NULL), v = strtod(y, NULL);
    if (u != v) return u < v ? -1 : 1;
    return strcmp(x, y);
}

/* Every N of exp's top-level summaries on any GPU, sorted. */
static size_t family_ns(const ctx *c, const char *exp, char (*out)[64], size_t max)
{
    size_t n = 0;
    for (int i = 0; i < c->ng; i++)
        for (const res_file *f = res_find(&c->g[i].r, NAMES_SUMMARY, exp, NULL, NULL, 0, ""); f;
             f = res_next(&c->g[i].r, f, NAMES_SUMMARY, exp, NULL, NULL, 0, "")) {
            size_t k = 0;
            while (k < n && strcmp(out[k], f->n)) k++;
            if (k == n && n < max) snprintf(out[n++], 64, "%s", f->n);
        }
    qsort(out, n, sizeof *out, cmp_n);
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
    else snprintf(buf, len, "records one block in %.0f to %.0f (column \"1 block in\")", m->kmin, m->kmax);
}

/* Where the GPUs' tables of one WPB measure different things, a sentence
 * that says so (0), else -1. */
static int unlike_note(const ctx *c, const measured *m, const int *ok, char *buf, size_t len)
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
                 timing ? " The instrumented kernel's time includes its probes; the column \"ms times\" says which "
                          "kernel each row timed." : "");
    return 0;
}

static void sec_family(report_doc *d, const ctx *c, const char *exp)
{
    const family_info *fi = family_of(exp);
    char id[96], title[512], b[256], p[64];
    snprintf(id, sizeof id, "family-%s", exp);
    char ns[64][64];
    const size_t nn = family_ns(c, exp, ns, 64);
    if (nn == 1) snprintf(title, sizeof title, "%s: summaries at N = %s", exp, ns[0]);
    else if (nn > 1 && nn <= 4) {
        size_t u = (size_t)snprintf(title, sizeof title, "%s: summaries at N = ", exp);
        for (size_t k = 0; k < nn && u < sizeof title; k++)
            u += (size_t)snprintf(title + u, sizeof title - u, "%s%s", k ? ", " : "", ns[k]);
    } else if (nn > 4) snprintf(title, sizeof title, "%s: summaries at %zu sizes, N = %s to %s", exp, nn, ns[0], ns[nn - 1]);
    else snprintf(title, sizeof title, "%s: summaries", exp);
    rd_section *s = rd_section_add(d, id, title);
    rd_para(d, s, "%s", fi && fi->about ? fi->about
                           : "One row per variant (and configuration) of the family, from its summary "
                             "tables (./FAMILY N 0 WPB --table FILE): kernel_ms is the clean twin's median "
                             "time, GB/s the bytes it moves over that time, the latency columns the "
                             "instrumented kernel's per-warp latency (SM cycles).");
    /* a GPU without any summary of the family: one note, the first file */
    int have[MAX_GPUS] = {0};
    for (int i = 0; i < c->ng; i++) {
        have[i] = res_find(&c->g[i].r, NAMES_SUMMARY, exp, NULL, NULL, 0, "") != NULL;
        if (have[i]) continue;
        char base[256];
        first_summary(&c->g[i], exp, base, sizeof base);
        missing(d, s, c, &c->g[i], base, NULL);
    }
    if (!nn) return;

    int old_format = 0;
    for (size_t ni = 0; ni < nn; ni++) {
        const char *n = ns[ni];
        /* every WPB of any GPU at this N */
        unsigned wpbs[MAX_WPB];
        size_t nw = 0;
        for (int i = 0; i < c->ng; i++) {
            unsigned w[MAX_WPB];
            const size_t k = res_wpbs(&c->g[i].r, exp, n, w, MAX_WPB);
            for (size_t j = 0; j < k; j++) {
                size_t q = 0;
                while (q < nw && wpbs[q] != w[j]) q++;
                if (q == nw && nw < MAX_WPB) wpbs[nw++] = w[j];
            }
        }
        for (size_t a = 1; a < nw; a++)
            for (size_t q = a; q > 0 && wpbs[q - 1] > wpbs[q]; q--) { unsigned t = wpbs[q]; wpbs[q] = wpbs[q - 1]; wpbs[q - 1] = t; }

        for (size_t wi = 0; wi < nw; wi++) {
            const unsigned w = wpbs[wi];
            summary sm[MAX_GPUS];
            measured ms[MAX_GPUS];
            int okv[MAX_GPUS] = {0};
            memset(sm, 0, sizeof sm);
            int useful[NSHOW] = {0}, differ = 0, compute_any = 0, compute_all = 1, any_ok = 0;
            for (int i = 0; i < c->ng; i++) {
                const res_file *f = res_find(&c->g[i].r, NAMES_SUMMARY, exp, NULL, n, w, "");
                char err[512];
                if (!f) continue;
                if (tsv_read(f->path, &sm[i].t, err, sizeof err) != 0) {
                    char what[1024];
                    snprintf(what, sizeof what, "%s%s", pfx(c, &c->g[i], p, sizeof p), f->base);
                    rd_failed(d, s, what, err);
                    continue;
                }
                sm[i].ok = okv[i] = any_ok = 1;
                ms[i] = measured_of(&sm[i].t);
                for (size_t k = 0; k < NSHOW; k++) useful[k] |= col_useful(&sm[i].t, SHOW[k].col);
                if (tsv_col(&sm[i].t, "instr_ms") < 0) old_format = 1;
                differ |= rows_differ_wpb(&sm[i].t);
                const int cr = compute_rows(&sm[i].t);
                compute_any |= cr > 0;
                compute_all &= cr == 2;
            }
            if (!any_ok) compute_all = 0;
            /* the columns: warps per block when the rows differ; GFLOP/s for
             * compute kernels, whose GB/s means nothing */
            for (size_t k = 0; k < NSHOW; k++) {
                if (!strcmp(SHOW[k].col, "warps_per_block")) useful[k] = differ;
                if (!strcmp(SHOW[k].col, "gflops")) useful[k] = compute_any;
                if (compute_all && (!strcmp(SHOW[k].col, "bw_GBps") || !strcmp(SHOW[k].col, "pct_peak"))) useful[k] = 0;
            }
            if (differ)
                rd_heading(d, s, "%s%s%seach variant at its own warps per block (the file's WPB is %u)",
                           nn > 1 ? "N = " : "", nn > 1 ? n : "", nn > 1 ? ", " : "", w);
            else if (nn > 1) rd_heading(d, s, "N = %s, %u warps per block", n, w);
            else rd_heading(d, s, "%u warps per block", w);
            char unlike[1024];
            const int mixed = unlike_note(c, ms, okv, unlike, sizeof unlike) == 0;
            int mixed_timing = 0;
            for (int i = 0; i < c->ng; i++)
                for (int j = 0; j < c->ng; j++) mixed_timing |= okv[i] && okv[j] && ms[i].clean != ms[j].clean;
            rd_table *parts[MAX_GPUS] = {0};
            const char *labels[MAX_GPUS];
            for (int i = 0; i < c->ng; i++) {
                labels[i] = c->g[i].label;
                size_t ncol = 1 + (size_t)mixed_timing;
                for (size_t k = 0; k < NSHOW; k++) ncol += useful[k];
                parts[i] = rd_table_new(ncol);
                rd_table_set(parts[i], 0, 0, "kernel");
                size_t col = 1;
                for (size_t k = 0; k < NSHOW; k++) {
                    if (useful[k]) rd_table_set(parts[i], 0, col++, "%s", SHOW[k].head);
                    /* where the GPUs time different kernels, which one, beside its ms */
                    if (mixed_timing && !strcmp(SHOW[k].col, "kernel_ms")) rd_table_set(parts[i], 0, col++, "ms times");
                }
                if (!sm[i].ok) continue;
                const tsv_table *t = &sm[i].t;
                for (size_t r = 0; r < t->nrow; r++) {
                    char key[256];
                    row_key(t, r, key, sizeof key);
                    rd_table_set(parts[i], r + 1, 0, "%s", key);
                    col = 1;
                    for (size_t k = 0; k < NSHOW; k++) {
                        if (useful[k]) {
                            const char *v = tsv_get(t, r, SHOW[k].col);
                            if (!v && !strcmp(SHOW[k].col, "sample") && ms[i].kmax == 1)
                                rd_table_set(parts[i], r + 1, col, "1 (all)");
                            else if (!v) rd_table_set(parts[i], r + 1, col, "n/a");
                            else if (!SHOW[k].fmt) rd_table_set(parts[i], r + 1, col, "%s", v);
                            else rd_table_set(parts[i], r + 1, col, "%s", num(b, sizeof b, SHOW[k].fmt, tsv_parse_num(v)));
                            col++;
                        }
                        if (mixed_timing && !strcmp(SHOW[k].col, "kernel_ms"))
                            rd_table_set(parts[i], r + 1, col++, "%s", ms[i].clean ? "clean twin" : "instrumented");
                    }
                }
            }
            /* a GPU without this table gets no empty column group */
            for (int i = 0; i < c->ng; i++)
                if (!sm[i].ok) { rd_table_free(parts[i]); parts[i] = NULL; }
            rd_table *joined = join((const rd_table *const *)parts, labels, c->ng);
            for (int i = 0; i < c->ng; i++) rd_table_free(parts[i]);
            rd_table_add(d, s, joined);
            if (mixed) rd_finding(d, s, "%s", unlike);
            /* findings of this table */
            for (int i = 0; i < c->ng; i++) {
                if (!sm[i].ok) {
                    if (!have[i]) continue; /* said once above */
                    char base[256];
                    names_summary(base, sizeof base, exp, n, w);
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
    }
    if (old_format)
        rd_para(d, s, "A summary without the instr_ms column was written before the engine timed a "
                      "clean twin: its kernel_ms is the instrumented kernel's time (its log's probes "
                      "included).");
    /* across WPB: only where a GPU has summaries at several WPBs of one N */
    int several = 0;
    for (int i = 0; i < c->ng; i++) {
        unsigned w[MAX_WPB];
        const char *gn = res_main_n(&c->g[i].r, exp);
        several |= gn && res_wpbs(&c->g[i].r, exp, gn, w, MAX_WPB) >= 2;
    }
    if (several) {
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
    }
    for (int i = 0; i < c->ng && several; i++) {
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

/* A sector table (bin/sector_compare --generic, 40-odd columns) as the page
 * shows it: the sectors at each level, predicted against measured, and the
 * verdict; the raw table stays in its file, linked below it.  NULL when t is
 * not such a table. */
static rd_table *sector_digest(const tsv_table *t)
{
    static const char *const need[] = {"variant", "op", "l1_sectors_pred", "l1_sectors_meas",
                                       "dram_sectors_pred", "dram_sectors_meas", "agree", NULL};
    for (int k = 0; need[k]; k++)
        if (tsv_col(t, need[k]) < 0) return NULL;
    static const char *const head[] = {"variant", "config", "op", "L1 sectors pred / meas",
                                       "L2 sectors pred / meas", "DRAM sectors pred / meas", "DRAM err %",
                                       "agree"};
    rd_table *r = rd_table_new(8);
    for (size_t k = 0; r && k < 8; k++) rd_table_set(r, 0, k, "%s", head[k]);
    for (size_t q = 0; r && q < t->nrow; q++) {
#define G_(col) (tsv_get(t, q, col) ? tsv_get(t, q, col) : "n/a")
        rd_table_set(r, q + 1, 0, "%s", G_("variant"));
        rd_table_set(r, q + 1, 1, "%s", G_("config"));
        rd_table_set(r, q + 1, 2, "%s", G_("op"));
        rd_table_set(r, q + 1, 3, "%s / %s", G_("l1_sectors_pred"), G_("l1_sectors_meas"));
        rd_table_set(r, q + 1, 4, "%s / %s", G_("l2_sectors_pred"), G_("l2_sectors_meas"));
        rd_table_set(r, q + 1, 5, "%s / %s", G_("dram_sectors_pred"), G_("dram_sectors_meas"));
        rd_table_set(r, q + 1, 6, "%s", G_("dram_err_pct"));
        rd_table_set(r, q + 1, 7, "%s", G_("agree"));
#undef G_
    }
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
                rd_table *dg = sector_digest(t);
                if (dg) {
                    rd_para(d, s, "%sThe sectors at each level, predicted / measured; requests, wavefronts, "
                                  "hits, utilizations and the labs' figures (%zu columns in all) are in %s, "
                                  "linked below.", p, t->ncol, f->base);
                    rd_table_add(d, s, dg);
                } else {
                    rd_table_add(d, s, plain_table(t));
                }
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

/* The files the families' own scripts write (scripts/<family>.sh; each
 * function mirrors its script, and tests/cli/report_families.sh runs the
 * scripts with stand-ins and compares). */
static void expect_ceiling(int quick, void (*fn)(const char *, void *), void *arg)
{
    (void)quick;
    fn("ceiling.tsv", arg);
}

static void expect_stencil(int quick, void (*fn)(const char *, void *), void *arg)
{
    /* step 1: every variant, four layouts, 1024 x 97656; step 2: N0 = 32 ...
     * 8192, N1 = TOTAL / N0 (TOTAL 1e8, 1e7 with --quick) */
    char b[256], n[64];
    names_summary(b, sizeof b, "stencil", "1024x97656", 4);
    fn(b, arg);
    const unsigned long total = quick ? 10000000ul : 100000000ul;
    for (unsigned long n0 = 32; n0 <= 8192; n0 *= 2) {
        snprintf(n, sizeof n, "%lux%lu", n0, total / n0);
        if (!strcmp(n, "1024x97656")) continue;
        names_summary(b, sizeof b, "stencil", n, 4);
        fn(b, arg);
    }
}

static void expect_tiling(int quick, void (*fn)(const char *, void *), void *arg)
{
    /* DSIZE 8192 (2048 with --quick) and 1024; Nsight Compute at DSIZE */
    char b[256];
    const char *dsize = quick ? "2048" : "8192";
    names_summary(b, sizeof b, "tiling", dsize, 4);
    fn(b, arg);
    names_summary(b, sizeof b, "tiling", "1024", 4);
    fn(b, arg);
    names_ncu_table(b, sizeof b, "tiling", dsize);
    fn(b, arg);
}

/* The N of the set: readonly's (scripts/reference.sh runs every family at
 * it), and whether the set was measured with --quick (N = 1e7). */
static const char *set_n(const res_gpu *r, int *quick)
{
    const char *n = res_main_n(r, "readonly");
    if (quick) *quick = n && !strcmp(n, "1e7");
    return n ? n : "1e8";
}

/* Call fn for every file a complete results folder has (docs/naming.md, as
 * scripts/reference.sh writes it). */
static void expected(const res_gpu *r, char (*fams)[64], size_t nfam,
                     void (*fn)(const char *base, void *arg), void *arg)
{
    static const unsigned WPBS[] = {2, 4, 8, 16, 32};
    char b[256];
    int quick = 0;
    const char *setn = set_n(r, &quick);
    fn("device.tsv", arg);
    fn("nvidia_smi.csv", arg);
    for (size_t fa = 0; fa < nfam; fa++) {
        const family_info *fi = family_of(fams[fa]);
        if (fi && fi->expected) {
            fi->expected(quick, fn, arg);
        } else if (!fi || !fi->no_summaries) {
            const char *n = res_main_n(r, fams[fa]);
            if (!n) n = setn;
            for (size_t w = 0; w < sizeof WPBS / sizeof WPBS[0]; w++) {
                if (!(fi && fi->all_wpbs) && WPBS[w] != 4) continue;
                names_summary(b, sizeof b, fams[fa], n, WPBS[w]);
                fn(b, arg);
            }
        }
        if (!(fi && fi->no_sass)) {
            names_sass(b, sizeof b, fams[fa]);
            fn(b, arg);
        }
        for (const char *const *v = fi ? fi->sweep_variants : NULL; v && *v; v++) {
            if (quick && strcmp(*v, "baseline")) continue; /* --quick: one sweep */
            names_sweep(b, sizeof b, fams[fa], *v, fi->sweep_wpb);
            fn(b, arg);
        }
        if (fi && fi->has_sectors) {
            names_sectors(b, sizeof b, fams[fa]);
            fn(b, arg);
        }
    }
    names_latency_stats(b, sizeof b, setn, 4);
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
    return outfile_check_stdout(PROG);
}

/* The results folders of dir: itself, or its sub-folders that are, sorted. */
static int cmd_gpus(const char *dir)
{
    if (!is_dir(dir)) die("%s is not a folder", dir);
    if (res_is_gpu_dir(dir)) { printf("%s\n", dir); return outfile_check_stdout(PROG); }
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
    return outfile_check_stdout(PROG);
}

/* ------------------------------------------------------------ render */

static int write_atomic(const char *path, const report_doc *d, int (*w)(const report_doc *, FILE *))
{
    outfile o;
    char err[4400];
    FILE *f = outfile_open(&o, path, "w", err, sizeof err);
    if (!f) { fprintf(stderr, PROG ": %s\n", err); return -1; }
    if (w(d, f) != 0) {
        outfile_abort(&o);
        fprintf(stderr, PROG ": cannot write %s\n", path);
        return -1;
    }
    if (outfile_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return -1;
    }
    return 0;
}

/* The report of your own kernel (make report REPORT_ARGS="--log FILE"). */
static int cmd_kernel(const char *outdir)
{
    char err[1024], html[4200], md[4200];
    report_doc *d = rk_build(outdir, err, sizeof err);
    if (!d) die("%s", err);
    snprintf(html, sizeof html, "%s/index.html", outdir);
    snprintf(md, sizeof md, "%s/index.md", outdir);
    if (d->oom) die("out of memory while building the report");
    const int rc = write_atomic(html, d, rd_write_html) == 0 && write_atomic(md, d, rd_write_markdown) == 0 ? 0 : 1;
    rd_free(d);
    return rc;
}

static int cmd_render(ctx *c, const char *mode, const char *note, const char *ref_root)
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
    /* the families without summaries first (the ceiling: the others' reference) */
    for (int pass = 0; pass < 2; pass++)
        for (size_t f = 0; f < c->nfam; f++) {
            const family_info *fi = family_of(c->families[f]);
            const int first = fi && fi->no_summaries;
            if (first != !pass) continue;
            if (!first) sec_family(d, c, c->families[f]);
            if (fi && fi->section) fi->section(d, c, c->families[f]);
        }
    sec_overhead(d, c);
    sec_timelines(d, c, stats, nstats);
    sec_latency(d, c, stats, nstats);
    sec_ladder(d, c);
    sec_sweeps(d, c);
    sec_sectors(d, c);
    {
        /* the run log, and where this GPU was measured, its drift */
        const char *dirs[MAX_GPUS], *labels[MAX_GPUS], *names[MAX_GPUS];
        const int nmeasured = !strcmp(mode, "gpu") ? c->ng : 0;
        for (int i = 0; i < nmeasured; i++) {
            dirs[i] = c->g[i].r.dir;
            labels[i] = c->g[i].label;
            names[i] = c->g[i].name;
        }
        char steps[4200], tables[4200];
        snprintf(steps, sizeof steps, "%s/logs/steps.tsv", c->outdir);
        snprintf(tables, sizeof tables, "%s/tables", c->outdir);
        if (rr_section(d, steps, ref_root, nmeasured, dirs, labels, names, tables) < 0) {
            rd_free(d);
            return 1;
        }
    }
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
static int cmd_chart_bandwidth(const char *out, int n, char **files, double ceiling)
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
                "set xtics (1, 2, 4, 8, 16, 32)\nset grid\nset key below maxcols 3\nset yrange [0:*]\n");
    /* the peak and the ceiling are lines of the key, not labels inside the
     * plot, where a variant that reaches them would cross the text */
    if (isfinite(peak)) fprintf(gp, "set yrange [0:%.1f]\n", peak * 1.08);
    fprintf(gp, "plot ");
    for (size_t k = 0; k < nk; k++) {
        fprintf(gp, "%sdat index %zu using 1:2 with linespoints pt %d lw 2 title ", k ? ", \\\n     " : "", k,
                (int)(5 + 2 * (k % 5)));
        gp_put_str(gp, keys[k]);
    }
    if (isfinite(peak))
        fprintf(gp, ", \\\n     %.1f with lines dt 2 lw 2 lc rgb '#555555' title 'DRAM peak %.0f GB/s'", peak, peak);
    if (isfinite(ceiling))
        fprintf(gp, ", \\\n     %.1f with lines dt 4 lw 2 lc rgb '#ff7f0e' title 'achievable ceiling %.1f GB/s "
                    "(ceiling.tsv)'", ceiling, ceiling);
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
                "set key top left\nset offsets 0, 0, graph 0.08, 0\nplot ");
    for (int i = 0; i < n; i++) {
        fprintf(gp, "%sdat index %d using 1:2 with linespoints pt 7 ps 0.5 lw 1.5 title ", i ? ", \\\n     " : "", i);
        gp_put_str(gp, titles[i]);
    }
    fprintf(gp, "\n");
    if (gp_job_finish(job, err, sizeof err) != 0) die("%s", err);
    return 0;
}

/* ------------------------------------------------------------ the families' charts */

/* The style of a plain line of a chart (pc_series varies its markers and widths). */
static const char *const LINESTYLE = "with linespoints pt 7 ps 0.8 lw 2";

/* A chart of several lines: data blocks in one .dat, one plot clause each. */
#define PC_MAX 32
typedef struct pchart {
    gp_job *job;
    FILE *dat;
    char clause[PC_MAX][512];
    int n, index;
} pchart;

static void pc_open(pchart *pc, const char *out, int w, int h)
{
    char err[512];
    memset(pc, 0, sizeof *pc);
    pc->job = gp_job_new(out, w, h, err, sizeof err);
    if (!pc->job) die("%s", err);
    pc->dat = gp_job_add_data(pc->job, ".dat", "dat", "w", err, sizeof err);
    if (!pc->dat) { gp_job_abort(pc->job); die("%s", err); }
}

/* Quote s for gnuplot into buf (as gp_put_str: ' doubled). */
static const char *gq(const char *s, char *buf, size_t len)
{
    size_t u = 0;
    if (len < 3) { if (len) buf[0] = 0; return buf; }
    buf[u++] = '\'';
    for (; *s && u + 3 < len; s++) {
        if (*s == '\'') buf[u++] = '\'';
        buf[u++] = *s;
    }
    buf[u++] = '\'';
    buf[u] = 0;
    return buf;
}

/* A series as a data block and its clause (style: "with linespoints pt 7";
 * axis2: on the right axis).  An empty series is left out. */
static void pc_series(pchart *pc, const rfm_series *sr, const char *title, const char *style, int axis2)
{
    if (!sr->n || pc->n == PC_MAX) return;
    fprintf(pc->dat, "# %s\n", title);
    for (size_t i = 0; i < sr->n; i++) fprintf(pc->dat, "%.10g\t%.10g\n", sr->x[i], sr->y[i]);
    fprintf(pc->dat, "\n\n");
    char q[256], nested[96];
    if (style == LINESTYLE) {
        /* series of one chart that measure the same coincide: the first is
         * drawn wide with large markers, the next ones narrower and with
         * other markers on it, so that none hides another */
        static const char *const st[] = {"pt 5 ps 1.4 lw 5", "pt 7 ps 0.9 lw 2.5", "pt 9 ps 1.0 lw 1.5",
                                         "pt 11 ps 1.0 lw 1.5", "pt 13 ps 1.0 lw 1.5"};
        snprintf(nested, sizeof nested, "with linespoints %s", st[pc->index % 5]);
        style = nested;
    }
    snprintf(pc->clause[pc->n++], sizeof pc->clause[0], "dat index %d using 1:2%s %s title %s", pc->index++,
             axis2 ? " axes x1y2" : "", style, gq(title, q, sizeof q));
}

/* A horizontal line at y (NAN: none). */
static void pc_hline(pchart *pc, double y, const char *title, const char *style, int axis2)
{
    if (!isfinite(y) || pc->n == PC_MAX) return;
    char q[256];
    snprintf(pc->clause[pc->n++], sizeof pc->clause[0], "%.10g%s %s title %s", y, axis2 ? " axes x1y2" : "",
             style, gq(title, q, sizeof q));
}

/* The DRAM peak and, where the set has one, the achievable ceiling. */
static void pc_peak_ceiling(pchart *pc, double peak, double ceiling, const char *op)
{
    char t[160];
    snprintf(t, sizeof t, "DRAM peak %.0f GB/s", peak);
    pc_hline(pc, peak, t, "with lines dt 2 lw 2 lc rgb 'black'", 0);
    snprintf(t, sizeof t, "achievable ceiling, %s %.1f GB/s (ceiling.tsv)", op, ceiling);
    pc_hline(pc, ceiling, t, "with lines dt 4 lw 2 lc rgb '#ff7f0e'", 0);
}

/* Write the script: the settings (lines of gnuplot), then the plot. */
static int pc_finish(pchart *pc, const char *title, const char *settings)
{
    char err[512];
    if (!pc->n) { gp_job_abort(pc->job); die("nothing to draw for %s", title); }
    FILE *gp = gp_job_script(pc->job, err, sizeof err);
    if (!gp) { gp_job_abort(pc->job); die("%s", err); }
    fprintf(gp, "set title ");
    gp_put_str(gp, title);
    fprintf(gp, "\nset grid\nset key below maxcols 2 height 1 font ',10'\n%s\nplot ", settings);
    for (int i = 0; i < pc->n; i++) fprintf(gp, "%s%s", i ? ", \\\n     " : "", pc->clause[i]);
    fprintf(gp, "\n");
    if (gp_job_finish(pc->job, err, sizeof err) != 0) die("%s", err);
    return 0;
}

/* The summary of exp at N (NULL: the largest N) and WPB 4 (else the first). */
static int read_family_summary(const res_gpu *r, const char *exp, const char *n, tsv_table *t, char *err,
                               size_t errlen)
{
    if (!n) n = res_main_n(r, exp);
    const res_file *f = n ? res_find(r, NAMES_SUMMARY, exp, NULL, n, 4, "") : NULL;
    if (!f && n) f = res_find(r, NAMES_SUMMARY, exp, NULL, n, 0, "");
    if (!f) { snprintf(err, errlen, "no %s summary in %s", exp, r->dir); return -1; }
    return tsv_read(f->path, t, err, errlen);
}

static int read_sectors(const res_gpu *r, const char *exp, tsv_table *t, char *err, size_t errlen)
{
    const res_file *f = res_find(r, NAMES_SECTORS, exp, NULL, NULL, 0, "");
    if (!f) { snprintf(err, errlen, "no sectors_%s.tsv in %s", exp, r->dir); return -1; }
    return tsv_read(f->path, t, err, errlen);
}

/* The device of a table's metadata, for titles. */
static void table_device(const tsv_table *t, char *buf, size_t len)
{
    double sms = NAN;
    buf[0] = 0;
    parse_device_meta(tsv_meta(t, "device"), buf, len, &sms);
}

static double ceiling_in(const res_gpu *r, const char *op)
{
    char p[4400], err[512];
    snprintf(p, sizeof p, "%s/ceiling.tsv", r->dir);
    tsv_table t;
    if (!exists(p) || tsv_read(p, &t, err, sizeof err) != 0) return NAN;
    rfm_ceiling c[16];
    const int n = rfm_ceiling_read(&t, c, 16);
    tsv_free(&t);
    return n > 0 ? rfm_ceiling_of(c, (size_t)n, op) : NAN;
}


/* The series of kernel=K over the config key, column col (summary). */
static void ksr(const tsv_table *t, const char *kernel, const char *key, const char *col, rfm_series *out)
{
    char f[96];
    snprintf(f, sizeof f, "kernel=%s", kernel);
    const char *flt[] = {f, NULL};
    rfm_series_get(t, flt, key, col, out);
}

/* Of a sectors table: variant=V, op=O. */
static void ssr(const tsv_table *t, const char *variant, const char *op, const char *key, const char *col,
                rfm_series *out)
{
    char f[96], o[32];
    snprintf(f, sizeof f, "variant=%s", variant);
    snprintf(o, sizeof o, "op=%s", op);
    const char *flt[] = {f, o, NULL};
    rfm_series_get(t, flt, key, col, out);
}

static int chart_copy(const char *out, const char *kind, const res_gpu *r)
{
    char err[512], dev[128], title[512];
    tsv_table t;
    rfm_series sr;
    pchart pc;
    if (!strcmp(kind, "copy_sectors")) {
        if (read_sectors(r, "copy", &t, err, sizeof err) != 0) die("%s", err);
        table_device(&t, dev, sizeof dev);
        pc_open(&pc, out, 960, 560);
        static const char *const v[][3] = {{"stride", "ld", "stride: loads"}, {"stride_store", "st", "stride_store: stores"},
                                           {"stride16", "ld", "stride16 (int4): loads"}};
        static const char *const col[] = {"#1f77b4", "#d62728", "#2ca02c"};
        /* loads and stores of a stride move the same sectors, so their lines
         * coincide: the first is drawn wide and the next narrow and dashed on
         * it, and each has its own marker, so that neither hides the other */
        static const char *const line[] = {"lw 6", "lw 2 dt 2", "lw 2"};
        static const char *const mark[] = {"pt 6 ps 2.2", "pt 2 ps 1.2", "pt 8 ps 1.5"};
        for (int k = 0; k < 3; k++) {
            char tt[128], st[160];
            ssr(&t, v[k][0], v[k][1], "stride", "sectors_per_request_pred", &sr);
            snprintf(tt, sizeof tt, "%s, model", v[k][2]);
            snprintf(st, sizeof st, "with lines %s lc rgb '%s'", line[k], col[k]);
            pc_series(&pc, &sr, tt, st, 0);
            ssr(&t, v[k][0], v[k][1], "stride", "sectors_per_request_meas", &sr);
            snprintf(tt, sizeof tt, "%s, measured", v[k][2]);
            snprintf(st, sizeof st, "with points %s lw 1.5 lc rgb '%s'", mark[k], col[k]);
            pc_series(&pc, &sr, tt, st, 0);
        }
        snprintf(title, sizeof title, "copy: sectors per request against stride (model and Nsight Compute)%s%s",
                 *dev ? ", " : "", dev);
        tsv_free(&t);
        return pc_finish(&pc, title, "set xlabel 'stride (elements)'\nset ylabel 'L1 sectors per request'\n"
                                     "set logscale x 2\nset yrange [0:*]");
    }
    if (read_family_summary(r, "copy", NULL, &t, err, sizeof err) != 0) die("%s", err);
    table_device(&t, dev, sizeof dev);
    const double peak = tsv_meta_lead_num(&t, "peak_dram_GBps");
    const double ceil_copy = ceiling_in(r, "copy");
    const char *kid[] = {"kernel=memcpy", NULL};
    const double memcpy_bw = rfm_value(&t, kid, NULL, "bw_GBps");
    char mt[128];
    snprintf(mt, sizeof mt, "cudaMemcpy %.1f GB/s", memcpy_bw);
    pc_open(&pc, out, 960, 560);
    const char *xl = "";
    if (!strcmp(kind, "copy_stride")) {
        static const char *const k[][2] = {{"stride", "stride: strided loads"}, {"stride_store", "stride_store: strided stores"},
                                           {"stride16", "stride16: strided int4 loads"}};
        for (int i = 0; i < 3; i++) {
            ksr(&t, k[i][0], "stride", "bw_GBps", &sr);
            pc_series(&pc, &sr, k[i][1], LINESTYLE, 0);
        }
        snprintf(title, sizeof title, "copy: bandwidth against stride%s%s", *dev ? ", " : "", dev);
        xl = "set xlabel 'stride (elements)'\nset logscale x 2";
    } else if (!strcmp(kind, "copy_batch")) {
        static const char *const k[] = {"batch", "batch_unrolled", "batch_restrict", "int4"};
        for (int i = 0; i < 4; i++) {
            ksr(&t, k[i], "batch", "bw_GBps", &sr);
            pc_series(&pc, &sr, k[i], LINESTYLE, 0);
        }
        pc_hline(&pc, memcpy_bw, mt, "with lines dt 3 lw 2 lc rgb '#9467bd'", 0);
        snprintf(title, sizeof title, "copy: bandwidth against elements per thread%s%s", *dev ? ", " : "", dev);
        xl = "set xlabel 'elements per thread (batch)'\nset logscale x 2\nset xtics (1, 2, 4, 8)\nset xrange [0.8:10]";
    } else if (!strcmp(kind, "copy_vector")) {
        /* width 1, 2, 4: the grid-stride loops, and one access per thread
         * (stride=1 is the scalar one) */
        const char *g[] = {"grid_scalar", "grid_vector2", "grid_vector4"}, *o[] = {"stride", "vector2", "vector4"};
        rfm_series a = {{0}, {0}, 0}, b = {{0}, {0}, 0};
        for (int i = 0; i < 3; i++) {
            char f1[64];
            snprintf(f1, sizeof f1, "kernel=%s", g[i]);
            const char *fg[] = {f1, NULL};
            const double v = rfm_value(&t, fg, NULL, "bw_GBps");
            if (isfinite(v)) { a.x[a.n] = 1 << i; a.y[a.n++] = v; }
            snprintf(f1, sizeof f1, "kernel=%s", o[i]);
            const char *fo[] = {f1, NULL};
            const double u = rfm_value(&t, fo, i ? NULL : "stride=1", "bw_GBps");
            if (isfinite(u)) { b.x[b.n] = 1 << i; b.y[b.n++] = u; }
        }
        pc_series(&pc, &a, "grid-stride loop (grid_scalar, grid_vector2, grid_vector4)", LINESTYLE, 0);
        pc_series(&pc, &b, "one access per thread (stride=1, vector2, vector4)", LINESTYLE, 0);
        pc_hline(&pc, memcpy_bw, mt, "with lines dt 3 lw 2 lc rgb '#9467bd'", 0);
        snprintf(title, sizeof title, "copy: bandwidth against vector width%s%s", *dev ? ", " : "", dev);
        xl = "set xlabel 'elements per load and store (int, int2, int4)'\nset logscale x 2\nset xtics (1, 2, 4)\nset xrange [0.8:5]";
    } else {
        die("unknown chart '%s'", kind);
    }
    pc_peak_ceiling(&pc, peak, ceil_copy, "copy");
    char set[512];
    snprintf(set, sizeof set, "%s\nset ylabel 'GB/s (bytes read + written)'\nset yrange [0:%.1f]", xl,
             isfinite(peak) ? peak * 1.08 : 4000);
    tsv_free(&t);
    return pc_finish(&pc, title, set);
}

static int chart_patterns(const char *out, const res_gpu *r)
{
    char err[512], dev[128], title[512];
    tsv_table t, sec;
    if (read_family_summary(r, "patterns", NULL, &t, err, sizeof err) != 0) die("%s", err);
    const int have_sec = read_sectors(r, "patterns", &sec, err, sizeof err) == 0;
    table_device(&t, dev, sizeof dev);
    const double peak = tsv_meta_lead_num(&t, "peak_dram_GBps");
    pchart pc;
    pc_open(&pc, out, 1000, 580);
    static const char *const path[] = {"ca", "cg", "nc"};
    static const char *const col[] = {"#1f77b4", "#d62728", "#2ca02c"};
    /* the three paths often measure the same: nested line widths and
     * markers (wide under narrow, large under small) keep each visible */
    static const char *const line[] = {"pt 5 ps 1.1 lw 6", "pt 7 ps 0.7 lw 3 dt 2", "pt 2 ps 0.6 lw 1"};
    static const char *const mark[] = {"pt 4 ps 2.2", "pt 6 ps 1.4", "pt 2 ps 0.8"};
    rfm_series sr;
    for (int i = 0; i < 3; i++) {
        char k[64], tt[128], st[160];
        snprintf(k, sizeof k, "offset_%s", path[i]);
        ksr(&t, k, "offset", "bw_GBps", &sr);
        snprintf(tt, sizeof tt, "%s: GB/s", k);
        snprintf(st, sizeof st, "with linespoints %s lc rgb '%s'", line[i], col[i]);
        pc_series(&pc, &sr, tt, st, 0);
        if (!have_sec) continue;
        ssr(&sec, k, "ld", "offset", "l1_util_pct_meas", &sr);
        snprintf(tt, sizeof tt, "%s: L1 utilization %% (measured)", k);
        snprintf(st, sizeof st, "with points %s lw 1.5 lc rgb '%s'", mark[i], col[i]);
        pc_series(&pc, &sr, tt, st, 1);
    }
    pc_peak_ceiling(&pc, peak, ceiling_in(r, "read"), "read");
    snprintf(title, sizeof title, "patterns: bandwidth and L1 utilization against misalignment%s%s",
             *dev ? ", " : "", dev);
    char set[512];
    snprintf(set, sizeof set, "set xlabel 'offset (floats)'\nset ylabel 'GB/s'\nset yrange [0:%.1f]\n"
                              "set y2label 'L1 utilization (%%)'\nset y2range [0:110]\nset y2tics\n"
                              "set xrange [-1:33]\nset xtics 4",
             isfinite(peak) ? peak * 1.08 : 4000);
    tsv_free(&t);
    if (have_sec) tsv_free(&sec);
    return pc_finish(&pc, title, set);
}

/* One stencil table: its points (the size sweep's). */
static size_t stencil_points(const tsv_table *t, rfm_stencil_point *p, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrow && n < max; r++) {
        rfm_stencil_cfg c;
        const char *k = tsv_get(t, r, "kernel");
        if (!k || rfm_stencil_config(tsv_get(t, r, "config"), &c) != 0) continue;
        rfm_stencil_point *q = &p[n++];
        q->n0 = c.n0;
        q->lead_pad = c.lead_pad;
        q->pad_ld = c.pad_ld;
        snprintf(q->variant, sizeof q->variant, "%s", k);
        q->bw_GBps = tsv_num(t, r, "bw_GBps");
        /* the centre load's over-fetch: deriv1 has R halo rows before row 0 */
        q->overfetch_pct = rfm_stencil_overfetch_pct(c.n0, c.n1, c.radius, c.lead_pad, c.pad_ld,
                                                     !strcmp(k, "deriv1") ? c.radius : 0);
    }
    return n;
}

/* Every stencil point of a GPU's summaries (deriv0_halo left out: the
 * sweep does not run it). */
static rfm_stencil_point *stencil_sweep(const res_gpu *r, size_t *n)
{
    size_t cap = 0;
    for (const res_file *f = res_find(r, NAMES_SUMMARY, "stencil", NULL, NULL, 0, ""); f;
         f = res_next(r, f, NAMES_SUMMARY, "stencil", NULL, NULL, 0, ""))
        cap += 64;
    rfm_stencil_point *p = xcalloc(cap, sizeof *p);
    *n = 0;
    for (const res_file *f = res_find(r, NAMES_SUMMARY, "stencil", NULL, NULL, 0, ""); f;
         f = res_next(r, f, NAMES_SUMMARY, "stencil", NULL, NULL, 0, "")) {
        tsv_table t;
        char err[512];
        if (tsv_read(f->path, &t, err, sizeof err) != 0) continue;
        const size_t base = *n;
        const size_t k = stencil_points(&t, p + base, 64);
        /* keep the sweep's variants only */
        for (size_t i = 0; i < k; i++)
            if (strcmp(p[base + i].variant, "deriv0_halo")) p[(*n)++] = p[base + i];
        tsv_free(&t);
    }
    return p;
}

static int chart_stencil(const char *out, const res_gpu *r)
{
    size_t n;
    rfm_stencil_point *p = stencil_sweep(r, &n);
    if (!n) die("no stencil summaries in %s", r->dir);
    char title[512], dev[128] = "";
    tsv_table t;
    char err[512];
    double peak = NAN;
    if (read_family_summary(r, "stencil", NULL, &t, err, sizeof err) == 0) {
        table_device(&t, dev, sizeof dev);
        peak = tsv_meta_lead_num(&t, "peak_dram_GBps");
        tsv_free(&t);
    }
    pchart pc;
    pc_open(&pc, out, 1000, 700);
    static const char *const var[] = {"deriv_copy", "deriv0", "deriv1"};
    static const char *const col[] = {"#1f77b4", "#d62728", "#2ca02c"};
    for (int v = 0; v < 3; v++)
        for (int l = 0; l < 4; l += 3) { /* without padding, with both */
            rfm_series sr = {{0}, {0}, 0};
            for (size_t i = 0; i < n && sr.n < RFM_MAX_POINTS; i++) {
                if (strcmp(p[i].variant, var[v]) || p[i].lead_pad != (l & 1) || p[i].pad_ld != !!(l & 2)) continue;
                size_t k = sr.n++;
                while (k > 0 && sr.x[k - 1] > p[i].n0) { sr.x[k] = sr.x[k - 1]; sr.y[k] = sr.y[k - 1]; k--; }
                sr.x[k] = p[i].n0;
                sr.y[k] = p[i].bw_GBps;
            }
            char tt[128], st[160];
            snprintf(tt, sizeof tt, "%s %s: GB/s", var[v], rfm_layout_name(l & 1, l & 2));
            /* the six often coincide: nested widths and markers by variant,
             * dashes by layout, so that each stays visible */
            static const char *const w[] = {"lw 6 pt 5 ps 1.3", "lw 3 pt 7 ps 0.9", "lw 1 pt 2 ps 0.7"};
            snprintf(st, sizeof st, "with linespoints %s dt %d lc rgb '%s'", w[v], l ? 2 : 1, col[v]);
            pc_series(&pc, &sr, tt, st, 0);
        }
    for (int l = 0; l < 4; l++) { /* over-fetch: the layout's, deriv_copy's rows */
        rfm_series sr = {{0}, {0}, 0};
        for (size_t i = 0; i < n && sr.n < RFM_MAX_POINTS; i++) {
            if (strcmp(p[i].variant, "deriv_copy") || p[i].lead_pad != (l & 1) || p[i].pad_ld != !!(l & 2) ||
                !isfinite(p[i].overfetch_pct))
                continue;
            size_t k = sr.n++;
            while (k > 0 && sr.x[k - 1] > p[i].n0) { sr.x[k] = sr.x[k - 1]; sr.y[k] = sr.y[k - 1]; k--; }
            sr.x[k] = p[i].n0;
            sr.y[k] = p[i].overfetch_pct;
        }
        char tt[128], st[160];
        snprintf(tt, sizeof tt, "over-fetch %s (%%)", rfm_layout_name(l & 1, l & 2));
        snprintf(st, sizeof st, "with linespoints pt %d ps 1.2 dt 3 lc rgb '#555555'", 4 + l);
        pc_series(&pc, &sr, tt, st, 1);
    }
    free(p);
    pc_peak_ceiling(&pc, peak, ceiling_in(r, "copy"), "copy");
    snprintf(title, sizeof title, "stencil: bandwidth and over-fetch against N0 (N0 x N1 about constant)%s%s",
             *dev ? ", " : "", dev);
    char set[512];
    snprintf(set, sizeof set, "set xlabel 'N0 (floats, the contiguous dimension)'\nset logscale x 2\n"
                              "set ylabel 'GB/s (bytes read + written)'\nset yrange [0:%.1f]\n"
                              "set y2label 'over-fetch of the centre load (%%)'\nset y2range [0:50]\nset y2tics",
             isfinite(peak) ? peak * 1.08 : 4000);
    return pc_finish(&pc, title, set);
}

static int chart_tiling(const char *out, const res_gpu *r, const char *n)
{
    char err[512], title[512], dev[128];
    tsv_table t, nc;
    if (read_family_summary(r, "tiling", n, &t, err, sizeof err) != 0) die("%s", err);
    const res_file *nf = res_find(r, NAMES_NCU_TABLE, "tiling", NULL, n, 0, "");
    const int have_ncu = nf && tsv_read(nf->path, &nc, err, sizeof err) == 0;
    table_device(&t, dev, sizeof dev);
    rfm_tiling k[16];
    const size_t nk = rfm_tiling_read(&t, have_ncu ? &nc : NULL, k, 16);
    rfm_series ms = {{0}, {0}, 0}, gb = {{0}, {0}, 0};
    double naive_ms = NAN, naive_gb = NAN;
    for (size_t i = 0; i < nk; i++) {
        if (!strcmp(k[i].kernel, "naive")) { naive_ms = k[i].kernel_ms; naive_gb = k[i].dram_bytes / 1e9; continue; }
        if (!isfinite(k[i].tile)) continue;
        size_t a = ms.n++;
        while (a > 0 && ms.x[a - 1] > k[i].tile) { ms.x[a] = ms.x[a - 1]; ms.y[a] = ms.y[a - 1]; a--; }
        ms.x[a] = k[i].tile;
        ms.y[a] = k[i].kernel_ms;
        if (!isfinite(k[i].dram_bytes)) continue;
        a = gb.n++;
        while (a > 0 && gb.x[a - 1] > k[i].tile) { gb.x[a] = gb.x[a - 1]; gb.y[a] = gb.y[a - 1]; a--; }
        gb.x[a] = k[i].tile;
        gb.y[a] = k[i].dram_bytes / 1e9;
    }
    pchart pc;
    pc_open(&pc, out, 960, 560);
    pc_series(&pc, &ms, "tiled: time (ms)", "with linespoints pt 7 ps 1 lw 2 lc rgb '#1f77b4'", 0);
    pc_series(&pc, &gb, "tiled: DRAM bytes read (GB, Nsight Compute)", "with linespoints pt 5 ps 1 lw 2 lc rgb '#d62728'", 1);
    char tt[128];
    snprintf(tt, sizeof tt, "naive: %.2f ms", naive_ms);
    pc_hline(&pc, naive_ms, tt, "with lines dt 2 lw 2 lc rgb '#1f77b4'", 0);
    snprintf(tt, sizeof tt, "naive: %.1f GB from DRAM", naive_gb);
    pc_hline(&pc, naive_gb, tt, "with lines dt 2 lw 2 lc rgb '#d62728'", 1);
    const double ideal = rfm_tiling_ideal_bytes(res_n_value(n));
    snprintf(tt, sizeof tt, "ideal: 2 x DSIZE^2 x 4 B = %.3f GB", ideal / 1e9);
    if (have_ncu) pc_hline(&pc, ideal / 1e9, tt, "with lines dt 3 lw 1 lc rgb '#555555'", 1);
    snprintf(title, sizeof title, "tiling: time and DRAM bytes against tile size, DSIZE %s%s%s", n, *dev ? ", " : "", dev);
    tsv_free(&t);
    if (have_ncu) tsv_free(&nc);
    return pc_finish(&pc, title, "set xlabel 'tile (T x T threads per block)'\nset logscale x 2\nset xtics (8, 16, 32)\n"
                                 "set xrange [6:40]\nset ylabel 'kernel time (ms)'\nset yrange [0:*]\n"
                                 "set y2label 'DRAM bytes read (GB)'\nset y2range [0:*]\nset y2tics");
}

/* bin/report chart-family OUT.svg KIND DIR [N] */
static int cmd_chart_family(const char *out, const char *kind, const char *dir, const char *n)
{
    const family_chart *fc = chart_of(kind);
    if (!fc) return cli_usage_error(PROG, "unknown chart '%s' (one of copy_stride, copy_sectors, copy_batch, "
                                          "copy_vector, patterns_offset, stencil_sweep, tiling)", kind);
    if (fc->per_n && !n) return cli_usage_error(PROG, "chart-family %s needs N", kind);
    res_gpu r;
    char err[512];
    if (res_scan(dir, "", &r, err, sizeof err) != 0) die("%s", err);
    int rc;
    if (!strncmp(kind, "copy_", 5)) rc = chart_copy(out, kind, &r);
    else if (!strcmp(kind, "patterns_offset")) rc = chart_patterns(out, &r);
    else if (!strcmp(kind, "stencil_sweep")) rc = chart_stencil(out, &r);
    else rc = chart_tiling(out, &r, n);
    res_free(&r);
    return rc;
}

/* ------------------------------------------------------------ the families' sections */

/* "same", "differs (x1.01)" or "not measured". */
static const char *vs_lab(const rfm_labrow *x, char *buf, size_t len)
{
    if (!isfinite(x->f.measured)) snprintf(buf, len, "not measured");
    else if (rfm_lab_same(x->f.quantity, x->f.lab, x->f.measured)) snprintf(buf, len, "same");
    else if (x->f.lab != 0) snprintf(buf, len, "differs (x%.3g)", x->f.measured / x->f.lab);
    else snprintf(buf, len, "differs");
    return buf;
}

/* The labs' figures of a sectors table: lab, model, this GPU. */
static void lab_table(report_doc *d, rd_section *s, const ctx *c, const gpu *G, const tsv_table *t)
{
    static rfm_labrow r[512];
    const size_t n = rfm_lab_rows(t, r, 512);
    char p[64], b[64];
    pfx(c, G, p, sizeof p);
    if (!n) {
        rd_para(d, s, "%sNo row of %s carries a lab figure.", p, t->name);
        return;
    }
    rd_table *x = rd_table_new(9);
    static const char *const head[] = {"variant", "op", "configuration", "quantity", "lab", "source",
                                       "model (lab's setting)", "measured", "measured against lab"};
    for (size_t k = 0; k < 9; k++) rd_table_set(x, 0, k, "%s", head[k]);
    rd_table_set(x, 0, 7, "%s measured", G->label);
    for (size_t i = 0; i < n; i++) {
        rd_table_set(x, i + 1, 0, "%s", r[i].variant);
        rd_table_set(x, i + 1, 1, "%s", r[i].op);
        rd_table_set(x, i + 1, 2, "%s", r[i].configs);
        rd_table_set(x, i + 1, 3, "%s", r[i].f.quantity);
        rd_table_set(x, i + 1, 4, "%.4g", r[i].f.lab);
        rd_table_set(x, i + 1, 5, "%s", r[i].f.source);
        rd_table_set(x, i + 1, 6, "%s", num(b, sizeof b, "%.4g", r[i].f.model));
        rd_table_set(x, i + 1, 7, "%s", num(b, sizeof b, "%.4g", r[i].f.measured));
        rd_table_set(x, i + 1, 8, "%s", vs_lab(&r[i], b, sizeof b));
    }
    rd_table_add(d, s, x);
    char note[8192];
    if (rfm_lab_note(r, n, G->name, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
}

/* A GPU's summary of exp (its largest N, WPB 4), read; 0 when absent. */
static int gpu_summary(const gpu *G, const char *exp, tsv_table *t)
{
    char err[512];
    return read_family_summary(&G->r, exp, NULL, t, err, sizeof err) == 0;
}

static int gpu_sectors(const gpu *G, const char *exp, tsv_table *t)
{
    char err[512];
    return read_sectors(&G->r, exp, t, err, sizeof err) == 0;
}

/* The family chart of a GPU, its figure (or failure). */
static void family_figure(report_doc *d, rd_section *s, const ctx *c, const gpu *G, const char *kind,
                          const char *caption)
{
    const family_chart *fc = chart_of(kind);
    char n[64], rel[1024], cap[512], p[64];
    if (!fc || !family_chart_n(G, fc, n, sizeof n)) return;
    family_chart_rel(rel, sizeof rel, G, fc, n);
    snprintf(cap, sizeof cap, "%s%s", pfx(c, G, p, sizeof p), caption);
    figure(d, s, c, rel, cap);
}

/* Links to a GPU's files of the given bases. */
static void file_links(report_doc *d, rd_section *s, const ctx *c, const gpu *G, const char *const *bases)
{
    int any = 0;
    for (; *bases; bases++)
        for (size_t k = 0; k < G->r.nfile; k++) {
            if (strcmp(G->r.file[k].rel, *bases)) continue;
            if (!any) { rd_links_start(d, s, "data:"); any = 1; }
            char text[512];
            snprintf(text, sizeof text, "%s/%s", G->label, G->r.file[k].rel);
            rd_link(d, s, rel_to_out(c, G->r.file[k].path), text);
        }
}

static void sec_ceiling(report_doc *d, const ctx *c, const char *exp)
{
    (void)exp;
    rd_section *s = rd_section_add(d, "ceiling", "The achievable ceiling: how close a tuned kernel gets");
    rd_para(d, s, "scripts/ceiling.sh searches, per operation (read, write, copy, triad, dot and cudaMemcpy), "
                  "the access width, accesses in flight per thread, cache hint, grid and warps per block that "
                  "give the highest validated bandwidth (N = 512M). The best row of each operation is "
                  "ceiling.tsv; bytes in flight per SM is what Little's law needs for that bandwidth at the "
                  "ladder's DRAM latency. The theoretical peak (2 x memory clock x bus width) is never "
                  "reached; the ceiling is drawn beside it on the throughput charts.");
    rd_table *parts[MAX_GPUS] = {0};
    const char *labels[MAX_GPUS];
    int any = 0;
    char b[64], p[64];
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        labels[i] = G->label;
        if (!G->nceiling) continue;
        rd_table *t = parts[i] = rd_table_new(6);
        static const char *const head[] = {"operation", "GB/s", "% of theoretical", "configuration",
                                           "warps/block", "in flight per SM"};
        for (size_t k = 0; k < 6; k++) rd_table_set(t, 0, k, "%s", head[k]);
        for (int q = 0; q < G->nceiling; q++) {
            const rfm_ceiling *e = &G->ceiling[q];
            rd_table_set(t, (size_t)q + 1, 0, "%s", strcmp(e->op, "memcpy") ? e->op : "cudaMemcpy");
            rd_table_set(t, (size_t)q + 1, 1, "%s", num(b, sizeof b, "%.1f", e->bw_GBps));
            rd_table_set(t, (size_t)q + 1, 2, "%s", num(b, sizeof b, "%.1f", e->pct_theoretical));
            rd_table_set(t, (size_t)q + 1, 3, "%s", e->config);
            rd_table_set(t, (size_t)q + 1, 4, "%s", num(b, sizeof b, "%.0f", e->wpb));
            rd_table_set(t, (size_t)q + 1, 5, "%s", isfinite(e->bytes_in_flight_per_sm)
                                                        ? rf_fmt_bytes(e->bytes_in_flight_per_sm, b, sizeof b) : "n/a");
        }
        any = 1;
    }
    if (any) rd_table_add(d, s, join((const rd_table *const *)parts, labels, c->ng));
    for (int i = 0; i < c->ng; i++) {
        rd_table_free(parts[i]);
        const gpu *G = &c->g[i];
        if (!G->nceiling) {
            missing(d, s, c, G, "ceiling.tsv", "(the achievable bandwidth: this GPU's charts draw no ceiling line)");
            continue;
        }
        char note[2048];
        if (rfm_ceiling_note(G->ceiling, (size_t)G->nceiling, G->dev.peak_GBps, G->dram_ns, note, sizeof note) == 0)
            rd_finding(d, s, "%s%s", pfx(c, G, p, sizeof p), note);
        const res_file *f = fixed(G, "ceiling.tsv");
        rd_links_start(d, s, "data:");
        rd_link(d, s, rel_to_out(c, f->path), "ceiling.tsv");
        /* the search tables it names */
        tsv_table t;
        char err[512];
        if (tsv_read(f->path, &t, err, sizeof err) == 0) {
            char seen[32][128];
            int ns = 0;
            for (size_t r = 0; r < t.nrow && ns < 32; r++) {
                const char *tab = tsv_get(&t, r, "table");
                if (!tab) continue;
                int k = 0;
                while (k < ns && strcmp(seen[k], tab)) k++;
                if (k < ns) continue;
                snprintf(seen[ns++], sizeof seen[0], "%s", tab);
                char path[4400];
                snprintf(path, sizeof path, "%s/%s", G->r.dir, tab);
                if (exists(path)) rd_link(d, s, rel_to_out(c, path), tab);
            }
            tsv_free(&t);
        }
    }
}

/* One pivot: rows the integer values of key, a column per kernel (GB/s and
 * % of the reference). */
static rd_table *pivot(const tsv_table *t, const char *key, const char *const *kernels, size_t nk, double ref)
{
    double xs[64];
    size_t nx = 0;
    rfm_series sr[8];
    for (size_t k = 0; k < nk && k < 8; k++) {
        ksr(t, kernels[k], key, "bw_GBps", &sr[k]);
        for (size_t i = 0; i < sr[k].n; i++) {
            size_t j = 0;
            while (j < nx && xs[j] != sr[k].x[i]) j++;
            if (j == nx && nx < 64) xs[nx++] = sr[k].x[i];
        }
    }
    for (size_t a = 1; a < nx; a++)
        for (size_t q = a; q > 0 && xs[q - 1] > xs[q]; q--) { double v = xs[q]; xs[q] = xs[q - 1]; xs[q - 1] = v; }
    rd_table *x = rd_table_new(nk + 1);
    rd_table_set(x, 0, 0, "%s", key);
    for (size_t k = 0; k < nk; k++) rd_table_set(x, 0, k + 1, "%s%s", kernels[k], isfinite(ref) ? " (% of cudaMemcpy)" : "");
    for (size_t i = 0; i < nx; i++) {
        rd_table_set(x, i + 1, 0, "%.0f", xs[i]);
        for (size_t k = 0; k < nk; k++) {
            double v = NAN;
            for (size_t j = 0; j < sr[k].n; j++) if (sr[k].x[j] == xs[i]) v = sr[k].y[j];
            char one[128];
            if (!isfinite(v) || rfm_vs_reference("", v, ref, one, sizeof one) != 0) rd_table_set(x, i + 1, k + 1, "-");
            else rd_table_set(x, i + 1, k + 1, "%s", one + 1);
        }
    }
    return x;
}

static void sec_copy(report_doc *d, const ctx *c, const char *exp)
{
    (void)exp;
    rd_section *s = rd_section_add(d, "copy", "copy: strides, batches and vector widths");
    rd_para(d, s, "Lab 000 part I and lab 004: what a stride costs in bandwidth and in sectors per request, "
                  "what more elements per thread and wider accesses buy, with cudaMemcpy, the DRAM peak and "
                  "the achievable ceiling as references. Sectors per request come from the sector model and "
                  "from Nsight Compute (sectors_copy.tsv, N = 1e7).");
    char p[64], note[4096];
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        tsv_table t, sec;
        const int hs = gpu_summary(G, "copy", &t), hc = gpu_sectors(G, "copy", &sec);
        if (!hs && !hc) continue;
        pfx(c, G, p, sizeof p);
        rd_heading(d, s, "%sStrides", p);
        rd_figures_start(d, s);
        if (hs) family_figure(d, s, c, G, "copy_stride", "copy: GB/s against stride");
        if (hc) family_figure(d, s, c, G, "copy_sectors", "copy: sectors per request against stride, model and measured");
        static const char *const v[][3] = {{"stride", "ld", "stride (strided loads)"},
                                           {"stride_store", "st", "stride_store (strided stores)"},
                                           {"stride16", "ld", "stride16 (strided int4 loads)"}};
        for (int k = 0; k < 3; k++) {
            rfm_series spr = {{0}, {0}, 0}, bw = {{0}, {0}, 0};
            if (hc) ssr(&sec, v[k][0], v[k][1], "stride", "sectors_per_request_meas", &spr);
            if (hs) ksr(&t, v[k][0], "stride", "bw_GBps", &bw);
            if (rfm_stride_note(v[k][2], &spr, &bw, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
        }
        if (!hc) missing(d, s, c, G, "sectors_copy.tsv", "(needs Nsight Compute)");
        if (hs) {
            const char *kid[] = {"kernel=memcpy", NULL};
            const double mem = rfm_value(&t, kid, NULL, "bw_GBps");
            rd_heading(d, s, "%sBatches and vector widths", p);
            rd_figures_start(d, s);
            family_figure(d, s, c, G, "copy_batch", "copy: GB/s against elements per thread");
            family_figure(d, s, c, G, "copy_vector", "copy: GB/s against vector width");
            static const char *const bk[] = {"batch", "batch_unrolled", "batch_restrict", "int4"};
            rd_table_add(d, s, pivot(&t, "batch", bk, 4, mem));
            /* each batch variant's best, and each width, against cudaMemcpy */
            size_t used = 0;
            note[0] = 0;
            for (int k = 0; k < 4; k++) {
                rfm_series sr;
                ksr(&t, bk[k], "batch", "bw_GBps", &sr);
                size_t best = sr.n;
                for (size_t j = 0; j < sr.n; j++) if (best == sr.n || sr.y[j] > sr.y[best]) best = j;
                if (best == sr.n) continue;
                char name[96], one[512];
                snprintf(name, sizeof name, "%s (batch=%.0f)", bk[k], sr.x[best]);
                if (rfm_vs_reference(name, sr.y[best], mem, one, sizeof one) != 0) continue;
                const int m = snprintf(note + used, sizeof note - used, "%s%s", used ? "; " : "", one);
                if (m > 0 && (size_t)m < sizeof note - used) used += (size_t)m;
            }
            if (used) rd_finding(d, s, "%sThe best batch of each kernel (in %% of cudaMemcpy's %.1f GB/s): %s.", p, mem, note);
            static const char *const vk[][2] = {{"grid_scalar", NULL}, {"grid_vector2", NULL}, {"grid_vector4", NULL},
                                                {"stride", "stride=1"}, {"vector2", NULL}, {"vector4", NULL}};
            rd_table *vt = rd_table_new(2);
            rd_table_set(vt, 0, 0, "kernel");
            rd_table_set(vt, 0, 1, "bandwidth (%% of cudaMemcpy)");
            used = 0;
            note[0] = 0;
            size_t row = 1;
            for (int k = 0; k < 6; k++) {
                char f1[64], name[96], one[512];
                snprintf(f1, sizeof f1, "kernel=%s", vk[k][0]);
                const char *fl[] = {f1, NULL};
                const double bw = rfm_value(&t, fl, vk[k][1], "bw_GBps");
                if (!isfinite(bw)) continue;
                snprintf(name, sizeof name, "%s%s%s%s", vk[k][0], vk[k][1] ? " (" : "", vk[k][1] ? vk[k][1] : "",
                         vk[k][1] ? ")" : "");
                rd_table_set(vt, row, 0, "%s", name);
                if (rfm_vs_reference("", bw, mem, one, sizeof one) == 0) rd_table_set(vt, row, 1, "%s", one + 1);
                row++;
                if (rfm_vs_reference(name, bw, mem, one, sizeof one) != 0) continue;
                const int m = snprintf(note + used, sizeof note - used, "%s%s", used ? "; " : "", one);
                if (m > 0 && (size_t)m < sizeof note - used) used += (size_t)m;
            }
            rd_table_add(d, s, vt);
            if (used) rd_finding(d, s, "%sVector widths (in %% of cudaMemcpy's %.1f GB/s): %s.", p, mem, note);
            const double cc = ceiling_of(G, "copy");
            char one[256];
            if (isfinite(cc) && rfm_vs_reference("cudaMemcpy", mem, cc, one, sizeof one) == 0)
                rd_finding(d, s, "%sAgainst the achievable copy of ceiling.tsv (%.1f GB/s): %s.", p, cc, one);
        }
        if (hc) {
            rd_heading(d, s, "%sThe labs' figures: lab, model and %s", p, G->label);
            lab_table(d, s, c, G, &sec);
        }
        static const char *const files[] = {"copy_1e8_wpb4.tsv", "sectors_copy.tsv", NULL};
        file_links(d, s, c, G, files);
        if (hs) tsv_free(&t);
        if (hc) tsv_free(&sec);
    }
}

static void sec_patterns(report_doc *d, const ctx *c, const char *exp)
{
    (void)exp;
    rd_section *s = rd_section_add(d, "patterns", "patterns: bus utilization, misalignment, writes, AoS and SoA");
    rd_para(d, s, "Lecture 001's utilization table (bytes the warp asks for over bytes moved, with its cached "
                  "and uncached columns) and lab 002's coalescing scenarios, beside the sector model and what "
                  "Nsight Compute measured (sectors_patterns.tsv, N = 1e7); then bandwidth and L1 utilization "
                  "against the misalignment offset for the three paths, the write patterns and AoS against SoA.");
    char p[64], b[64], note[8192];
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        tsv_table t, sec;
        const int hs = gpu_summary(G, "patterns", &t), hc = gpu_sectors(G, "patterns", &sec);
        if (!hs && !hc) continue;
        pfx(c, G, p, sizeof p);
        if (hc) {
            rd_heading(d, s, "%sBus utilization: the lectures, the model and %s", p, G->label);
            rfm_util_row u[32];
            const size_t nu = rfm_patterns_util(&sec, u, 32);
            rd_table *x = rd_table_new(9);
            static const char *const head[] = {"pattern", "lecture: cached %", "lecture: uncached %", "source",
                                               "model ca / cg / nc %", "", "", "", ""};
            for (size_t k = 0; k < 5; k++) rd_table_set(x, 0, k, "%s", head[k]);
            rd_table_set(x, 0, 5, "%s ca %%", G->label);
            rd_table_set(x, 0, 6, "%s cg %%", G->label);
            rd_table_set(x, 0, 7, "%s nc %%", G->label);
            rd_table_set(x, 0, 8, "the GPU against the lecture");
            for (size_t k = 0; k < nu; k++) {
                rd_table_set(x, k + 1, 0, "%s", u[k].pattern);
                rd_table_set(x, k + 1, 1, "%s", num(b, sizeof b, "%.4g", u[k].lab_cached));
                rd_table_set(x, k + 1, 2, "%s", num(b, sizeof b, "%.4g", u[k].lab_uncached));
                rd_table_set(x, k + 1, 3, "%s", u[k].lab_source);
                char m[3][32];
                for (int q = 0; q < 3; q++) num(m[q], sizeof m[q], "%.4g", u[k].model[q]);
                rd_table_set(x, k + 1, 4, "%s / %s / %s", m[0], m[1], m[2]);
                for (int q = 0; q < 3; q++) rd_table_set(x, k + 1, 5 + (size_t)q, "%s", num(b, sizeof b, "%.4g", u[k].measured[q]));
                const int sc = rfm_lab_same("%", u[k].lab_cached, u[k].measured[0]);
                const int su = rfm_lab_same("%", u[k].lab_uncached, u[k].measured[1]);
                rd_table_set(x, k + 1, 8, "%s", sc && su ? "same" : !sc && !su ? "differs in both" : sc ? "uncached differs" : "cached differs");
            }
            rd_table_add(d, s, x);
        }
        if (hs) {
            rd_heading(d, s, "%sMisalignment: offset 0 to 32 floats", p);
            rd_figures_start(d, s);
            family_figure(d, s, c, G, "patterns_offset", "patterns: GB/s and L1 utilization against offset");
            static const char *const path[] = {"offset_ca", "offset_cg", "offset_nc"};
            for (int k = 0; k < 3; k++) {
                rfm_series bw, ut = {{0}, {0}, 0};
                ksr(&t, path[k], "offset", "bw_GBps", &bw);
                if (hc) ssr(&sec, path[k], "ld", "offset", "l1_util_pct_meas", &ut);
                if (rfm_offset_note(path[k], &bw, &ut, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            }
            /* the write patterns: rows of one kernel with the same sectors and
             * L2 requests per request merged, their configurations compacted */
            rd_heading(d, s, "%sWrite patterns", p);
            rd_table *w = rd_table_new(6);
            static const char *const wh[] = {"kernel", "ms", "GB/s (bytes written)", "bytes written",
                                             "sectors/request (measured)", "L2 requests/request (measured)"};
            for (size_t k = 0; k < 6; k++) rd_table_set(w, 0, k, "%s", wh[k]);
            static rfm_write_group g[64];
            const size_t ng = rfm_write_groups(&t, hc ? &sec : NULL, g, 64);
            for (size_t j = 0; j < ng; j++) {
                if (strcmp(g[j].configs, "-")) rd_table_set(w, j + 1, 0, "%s (%s)", g[j].kernel, g[j].configs);
                else rd_table_set(w, j + 1, 0, "%s", g[j].kernel);
                char b2[64];
                if (g[j].nconfig > 1) {
                    rd_table_set(w, j + 1, 1, "%s-%s", num(b, sizeof b, "%.4f", g[j].ms_lo), num(b2, sizeof b2, "%.4f", g[j].ms_hi));
                    rd_table_set(w, j + 1, 2, "%s-%s", num(b, sizeof b, "%.1f", g[j].bw_lo), num(b2, sizeof b2, "%.1f", g[j].bw_hi));
                } else {
                    rd_table_set(w, j + 1, 1, "%s", num(b, sizeof b, "%.4f", g[j].ms_lo));
                    rd_table_set(w, j + 1, 2, "%s", num(b, sizeof b, "%.1f", g[j].bw_lo));
                }
                rd_table_set(w, j + 1, 3, "%s", num(b, sizeof b, "%.0f", g[j].bytes_written));
                rd_table_set(w, j + 1, 4, "%s", num(b, sizeof b, "%.2f", g[j].sectors_per_request));
                rd_table_set(w, j + 1, 5, "%s", num(b, sizeof b, "%.2f", g[j].l2_per_request));
            }
            rd_table_add(d, s, w);
            /* AoS against SoA */
            rd_heading(d, s, "%sAoS against SoA", p);
            rd_table *a = rd_table_new(6);
            static const char *const ah[] = {"kernel", "ms", "GB/s (bytes asked)", "L1 utilization % (measured)",
                                             "DRAM utilization % (measured)", "GB/s moved from DRAM"};
            for (size_t k = 0; k < 6; k++) rd_table_set(a, 0, k, "%s", ah[k]);
            size_t row = 1;
            for (size_t r = 0; r < t.nrow; r++) {
                const char *k = tsv_get(&t, r, "kernel");
                if (!k || (strncmp(k, "aos", 3) && strncmp(k, "soa", 3))) continue;
                const double bw = tsv_num(&t, r, "bw_GBps");
                double l1 = NAN, dr = NAN;
                if (hc) {
                    char fv[96];
                    snprintf(fv, sizeof fv, "variant=%s", k);
                    const char *fl[] = {fv, "op=ld", NULL};
                    l1 = rfm_value(&sec, fl, NULL, "l1_util_pct_meas");
                    dr = rfm_value(&sec, fl, NULL, "dram_util_pct_meas");
                }
                rd_table_set(a, row, 0, "%s", k);
                rd_table_set(a, row, 1, "%s", num(b, sizeof b, "%.4f", tsv_num(&t, r, "kernel_ms")));
                rd_table_set(a, row, 2, "%s", num(b, sizeof b, "%.1f", bw));
                rd_table_set(a, row, 3, "%s", num(b, sizeof b, "%.1f", l1));
                rd_table_set(a, row, 4, "%s", num(b, sizeof b, "%.1f", dr));
                rd_table_set(a, row, 5, "%s", num(b, sizeof b, "%.1f", rfm_moved_GBps(bw, dr)));
                row++;
            }
            rd_table_add(d, s, a);
            /* one field and all fields of F, AoS over SoA */
            size_t used = 0;
            note[0] = 0;
            for (int f = 2; f <= 8; f *= 2)
                for (int all = 0; all < 2; all++) {
                    char ka[32], ks[32], fa[48], fs[48];
                    snprintf(ka, sizeof ka, "aos%d_%s", f, all ? "all" : "one");
                    snprintf(ks, sizeof ks, "soa%d_%s", f, all ? "all" : "one");
                    snprintf(fa, sizeof fa, "kernel=%s", ka);
                    snprintf(fs, sizeof fs, "kernel=%s", ks);
                    const char *la[] = {fa, NULL}, *ls[] = {fs, NULL};
                    const double x = rfm_value(&t, la, NULL, "bw_GBps"), y = rfm_value(&t, ls, NULL, "bw_GBps");
                    if (!isfinite(x) || !isfinite(y)) continue;
                    const int m = snprintf(note + used, sizeof note - used, "%s%s of %d floats: AoS %.1f, SoA %.1f GB/s (x%.2f)",
                                           used ? "; " : "", all ? "all fields" : "one field", f, x, y, y / x);
                    if (m > 0 && (size_t)m < sizeof note - used) used += (size_t)m;
                }
            if (used) rd_finding(d, s, "%sSoA against AoS, GB/s of the bytes asked: %s.", p, note);
        }
        if (hc) {
            rd_heading(d, s, "%sThe labs' figures: lab, model and %s", p, G->label);
            lab_table(d, s, c, G, &sec);
        } else {
            missing(d, s, c, G, "sectors_patterns.tsv", "(needs Nsight Compute)");
        }
        static const char *const files[] = {"patterns_1e8_wpb4.tsv", "sectors_patterns.tsv", NULL};
        file_links(d, s, c, G, files);
        if (hs) tsv_free(&t);
        if (hc) tsv_free(&sec);
    }
}

static void sec_stencil(report_doc *d, const ctx *c, const char *exp)
{
    (void)exp;
    rd_section *s = rd_section_add(d, "stencil", "stencil: sectors, padding and the halo");
    rd_para(d, s, "Lab 000 part 3: the lab's small cases measured with Nsight Compute (sectors_stencil.tsv) "
                  "beside the lab's figures and the sector model; the size sweep, bandwidth against N0 with "
                  "and without padding, with the over-fetch of each layout: the 32 B sectors the centre "
                  "loads touch over the sectors the same floats fill when aligned (computed from the layout "
                  "of stencil.cu: lead=1 puts the first updated element on a 128 B line, padld=1 rounds the "
                  "leading dimension up to 32 floats); and the halo probe against the ladder's L1 plateau.");
    char p[64], b[64], note[4096];
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        tsv_table sec;
        const int hc = gpu_sectors(G, "stencil", &sec);
        const int hs = res_find(&G->r, NAMES_SUMMARY, "stencil", NULL, NULL, 0, "") != NULL;
        if (!hs && !hc) continue;
        pfx(c, G, p, sizeof p);
        if (hc) {
            rd_heading(d, s, "%sThe lab's cases: L1 sectors, hits, hit rate, L2 requests", p);
            /* every row with a lab figure: the four quantities as lab / model / GPU */
            rd_table *x = rd_table_new(7);
            static const char *const head[] = {"variant", "op", "geometry", "L1 sectors", "L1 hits", "L1 hit rate %",
                                               "L2 requests"};
            for (size_t k = 0; k < 7; k++) rd_table_set(x, 0, k, "%s", head[k]);
            for (size_t k = 3; k < 7; k++) rd_table_set(x, 0, k, "%s: lab / model / %s", head[k], G->label);
            size_t row = 1;
            for (size_t r = 0; r < sec.nrow; r++) {
                rfm_case_q q[RFM_NCASE];
                if (rfm_stencil_case(&sec, r, q) == 0) continue;
                rd_table_set(x, row, 0, "%s", tsv_get(&sec, r, "variant") ? tsv_get(&sec, r, "variant") : "?");
                rd_table_set(x, row, 1, "%s", tsv_get(&sec, r, "op") ? tsv_get(&sec, r, "op") : "?");
                rd_table_set(x, row, 2, "%s", tsv_get(&sec, r, "config") ? tsv_get(&sec, r, "config") : "?");
                for (int k = 0; k < RFM_NCASE; k++) {
                    const char *fmt = k == RFM_CASE_HIT_PCT ? "%.2f" : "%.0f";
                    char lab[32], m[32], mh[32], me[32];
                    num(lab, sizeof lab, k == RFM_CASE_HIT_PCT ? "%.1f" : "%.0f", q[k].lab);
                    num(m, sizeof m, fmt, q[k].model);
                    num(me, sizeof me, fmt, q[k].measured);
                    if (isfinite(q[k].model_hi))
                        rd_table_set(x, row, 3 + (size_t)k, "%s / %s..%s / %s", isfinite(q[k].lab) ? lab : "-", m,
                                     num(mh, sizeof mh, fmt, q[k].model_hi), me);
                    else
                        rd_table_set(x, row, 3 + (size_t)k, "%s / %s / %s", isfinite(q[k].lab) ? lab : "-", m, me);
                }
                row++;
            }
            rd_table_add(d, s, x);
            if (rfm_stencil_cases_note(&sec, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            rd_para(d, s, "%sThe lab's figures of these rows, merged over geometries, with the model at the lab's "
                          "setting:", p);
            lab_table(d, s, c, G, &sec);
            tsv_free(&sec);
        } else {
            missing(d, s, c, G, "sectors_stencil.tsv", "(needs Nsight Compute)");
        }
        if (!hs) continue;
        rd_heading(d, s, "%sSize sweep: bandwidth and over-fetch against N0", p);
        rd_figures_start(d, s);
        family_figure(d, s, c, G, "stencil_sweep", "stencil: GB/s and over-fetch against N0");
        size_t n;
        rfm_stencil_point *pt = stencil_sweep(&G->r, &n);
        /* rows N0 x layout; columns the over-fetch and each variant's GB/s */
        static const char *const var[] = {"deriv_copy", "deriv0", "deriv1"};
        rd_table *x = rd_table_new(6);
        static const char *const head[] = {"N0", "layout", "over-fetch %", "deriv_copy GB/s", "deriv0 GB/s", "deriv1 GB/s"};
        for (size_t k = 0; k < 6; k++) rd_table_set(x, 0, k, "%s", head[k]);
        double n0s[64];
        size_t nn0 = 0;
        for (size_t k = 0; k < n; k++) {
            size_t j = 0;
            while (j < nn0 && n0s[j] != pt[k].n0) j++;
            if (j == nn0 && nn0 < 64) n0s[nn0++] = pt[k].n0;
        }
        for (size_t a = 1; a < nn0; a++)
            for (size_t q = a; q > 0 && n0s[q - 1] > n0s[q]; q--) { double v = n0s[q]; n0s[q] = n0s[q - 1]; n0s[q - 1] = v; }
        size_t row = 1;
        for (size_t j = 0; j < nn0; j++)
            for (int l = 0; l < 4; l++) {
                double of = NAN, bw[3] = {NAN, NAN, NAN};
                for (size_t k = 0; k < n; k++) {
                    if (pt[k].n0 != n0s[j] || pt[k].lead_pad != (l & 1) || pt[k].pad_ld != !!(l & 2)) continue;
                    for (int v = 0; v < 3; v++)
                        if (!strcmp(pt[k].variant, var[v])) bw[v] = pt[k].bw_GBps;
                    if (!strcmp(pt[k].variant, "deriv_copy")) of = pt[k].overfetch_pct;
                }
                if (!isfinite(bw[0]) && !isfinite(bw[1]) && !isfinite(bw[2])) continue;
                rd_table_set(x, row, 0, "%.0f", n0s[j]);
                rd_table_set(x, row, 1, "%s", rfm_layout_name(l & 1, l & 2));
                rd_table_set(x, row, 2, "%s", num(b, sizeof b, "%.1f", of));
                for (int v = 0; v < 3; v++) rd_table_set(x, row, 3 + (size_t)v, "%s", num(b, sizeof b, "%.1f", bw[v]));
                row++;
            }
        rd_table_add(d, s, x);
        if (rfm_stencil_sweep_note(pt, n, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
        free(pt);
        /* the halo probe: deriv0_halo's median latency, from any size's table */
        rd_heading(d, s, "%sThe halo probe", p);
        double halo = NAN;
        char where[256] = "";
        for (const res_file *f = res_find(&G->r, NAMES_SUMMARY, "stencil", NULL, NULL, 0, ""); f && !isfinite(halo);
             f = res_next(&G->r, f, NAMES_SUMMARY, "stencil", NULL, NULL, 0, "")) {
            tsv_table t;
            char err[512];
            if (tsv_read(f->path, &t, err, sizeof err) != 0) continue;
            const long r = tsv_find(&t, "kernel", "deriv0_halo", 0);
            if (r >= 0) {
                halo = tsv_num(&t, (size_t)r, "lat_p50_cycles");
                snprintf(where, sizeof where, "%s, %s", f->base, tsv_get(&t, (size_t)r, "config"));
            }
            tsv_free(&t);
        }
        if (!isfinite(halo)) {
            char base[256];
            names_summary(base, sizeof base, "stencil", "1024x97656", 4);
            missing(d, s, c, G, base, "with a deriv0_halo row (the halo probe's latency)");
        } else if (!G->nlv) {
            missing(d, s, c, G, "latency_ca.tsv", "(the ladder's L1 plateau, to compare the halo probe with)");
        } else {
            if (rfm_halo_note(halo, G->lv, G->nlv, note, sizeof note) == 0)
                rd_finding(d, s, "%s%s (%s)", p, note, where);
        }
    }
}

static void sec_tiling(report_doc *d, const ctx *c, const char *exp)
{
    (void)exp;
    rd_section *s = rd_section_add(d, "tiling", "tiling: why the tiles are faster");
    rd_para(d, s, "Naive against shared-memory tiles: time, GFLOP/s, the bytes each kernel read at L1, L2 and "
                  "DRAM (Nsight Compute, tiling_ncu_<DSIZE>.tsv) against the ideal of reading A and B once "
                  "(2 x DSIZE^2 x 4 B), the naive kernel's L1 hit rate, the per-warp latency of the "
                  "summaries (a record is one tile step of a tiled kernel, one inner-loop iteration of the "
                  "naive one) and Little's law for the measured DRAM throughput at the ladder's DRAM "
                  "latency. The sentences compare the naive kernel with the fastest.");
    char p[64], b[64], note[4096];
    for (int i = 0; i < c->ng; i++) {
        const gpu *G = &c->g[i];
        if (!res_find(&G->r, NAMES_SUMMARY, "tiling", NULL, NULL, 0, "")) continue;
        pfx(c, G, p, sizeof p);
        const char *shown = tiling_n(G);
        char ns[16][64];
        size_t nn = 0;
        for (const res_file *f = res_find(&G->r, NAMES_SUMMARY, "tiling", NULL, NULL, 0, ""); f && nn < 16;
             f = res_next(&G->r, f, NAMES_SUMMARY, "tiling", NULL, NULL, 0, ""))
            snprintf(ns[nn++], 64, "%s", f->n);
        qsort(ns, nn, sizeof ns[0], cmp_n);
        for (size_t q = nn; q-- > 0;) { /* the largest first */
            const char *n = ns[q];
            tsv_table t, nc;
            char err[512];
            if (read_family_summary(&G->r, "tiling", n, &t, err, sizeof err) != 0) { rd_failed(d, s, n, err); continue; }
            const res_file *nf = res_find(&G->r, NAMES_NCU_TABLE, "tiling", NULL, n, 0, "");
            const int hn = nf && tsv_read(nf->path, &nc, err, sizeof err) == 0;
            rfm_tiling k[16];
            const size_t nk = rfm_tiling_read(&t, hn ? &nc : NULL, k, 16);
            const double dsize = res_n_value(n), ideal = rfm_tiling_ideal_bytes(dsize);
            rd_heading(d, s, "%sDSIZE %s", p, n);
            if (!strcmp(n, shown)) {
                rd_figures_start(d, s);
                family_figure(d, s, c, G, "tiling", "tiling: time and DRAM bytes against tile size");
            }
            rd_table *x = rd_table_new(hn ? 13 : 8);
            static const char *const head[] = {"kernel", "tile", "warps/block", "blocks/SM", "ms", "GFLOP/s",
                                               "p50 (cycles)", "p95 (cycles)", "L1 bytes", "L1 hit %", "L2 bytes",
                                               "DRAM bytes", "DRAM / ideal"};
            for (size_t h = 0; h < (hn ? 13u : 8u); h++) rd_table_set(x, 0, h, "%s", head[h]);
            size_t slow = nk, fast = nk;
            for (size_t r = 0; r < nk; r++) {
                rd_table_set(x, r + 1, 0, "%s", k[r].kernel);
                rd_table_set(x, r + 1, 1, "%s", num(b, sizeof b, "%.0f", k[r].tile));
                rd_table_set(x, r + 1, 2, "%s", num(b, sizeof b, "%.0f", k[r].wpb));
                rd_table_set(x, r + 1, 3, "%s", num(b, sizeof b, "%.0f", k[r].blocks_per_sm));
                rd_table_set(x, r + 1, 4, "%s", num(b, sizeof b, "%.3f", k[r].kernel_ms));
                rd_table_set(x, r + 1, 5, "%s", num(b, sizeof b, "%.1f", k[r].gflops));
                rd_table_set(x, r + 1, 6, "%s", num(b, sizeof b, "%.0f", k[r].lat_p50_cycles));
                rd_table_set(x, r + 1, 7, "%s", num(b, sizeof b, "%.0f", k[r].lat_p95_cycles));
                if (hn) {
                    rd_table_set(x, r + 1, 8, "%s", isfinite(k[r].l1_bytes) ? rf_fmt_bytes(k[r].l1_bytes, b, sizeof b) : "n/a");
                    rd_table_set(x, r + 1, 9, "%s", num(b, sizeof b, "%.1f", k[r].l1_hit_pct));
                    rd_table_set(x, r + 1, 10, "%s", isfinite(k[r].l2_bytes) ? rf_fmt_bytes(k[r].l2_bytes, b, sizeof b) : "n/a");
                    rd_table_set(x, r + 1, 11, "%s", isfinite(k[r].dram_bytes) ? rf_fmt_bytes(k[r].dram_bytes, b, sizeof b) : "n/a");
                    rd_table_set(x, r + 1, 12, "%s", num(b, sizeof b, "x%.0f", k[r].dram_bytes / ideal));
                }
                if (isfinite(k[r].kernel_ms)) {
                    if (slow == nk || k[r].kernel_ms > k[slow].kernel_ms) slow = r;
                    if (fast == nk || k[r].kernel_ms < k[fast].kernel_ms) fast = r;
                }
            }
            rd_table_add(d, s, x);
            /* the naive kernel against the fastest (or the slowest, without a naive) */
            for (size_t r = 0; r < nk; r++) if (!strcmp(k[r].kernel, "naive")) slow = r;
            if (slow < nk && fast < nk && slow != fast &&
                rfm_tiling_speedup_note(&k[slow], &k[fast], dsize, note, sizeof note) == 0)
                rd_finding(d, s, "%s%s", p, note);
            for (size_t r = 0; r < nk && hn; r++) {
                if (r != slow && r != fast) continue;
                if (rfm_tiling_littles_note(&k[r], G->dram_ns, G->dev.sm_count, note, sizeof note) == 0)
                    rd_finding(d, s, "%s%s", p, note);
            }
            if (!hn && !strcmp(n, shown)) {
                char base[256];
                names_ncu_table(base, sizeof base, "tiling", n);
                missing(d, s, c, G, base, "(the bytes at L1, L2 and DRAM: needs Nsight Compute)");
            }
            rd_links_start(d, s, "data:");
            const res_file *sf = res_find(&G->r, NAMES_SUMMARY, "tiling", NULL, n, 0, "");
            if (sf) rd_link(d, s, rel_to_out(c, sf->path), sf->rel);
            if (hn) rd_link(d, s, rel_to_out(c, nf->path), nf->rel);
            tsv_free(&t);
            if (hn) tsv_free(&nc);
        }
    }
}

/* ------------------------------------------------------------ main */

static void usage(FILE *f)
{
    fputs("usage: report plan OUTDIR [--families LIST]\n"
          "       report render OUTDIR [LABEL=DIR...] [--mode gpu|reference|data] [--note TEXT]\n"
          "                            [--families LIST]\n"
          "       report expected DIR [--families LIST]\n"
          "       report gpus DIR\n"
          "       report kernel OUTDIR\n"
          "       report chart-bandwidth OUT.svg SUMMARY...\n"
          "       report chart-ladders OUT.svg LABEL=TSV...\n"
          "       report chart-family OUT.svg KIND DIR [N]\n"
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
          "  kernel     OUTDIR/index.html and index.md of your own kernel's log, from the\n"
          "             tables and charts scripts/report.sh --log left there (docs/your-kernel.md)\n"
          "  chart-bandwidth  GB/s against warps per block, one line per variant\n"
          "  chart-ladders    several GPUs' latency ladders on one chart\n"
          "  chart-family     a family's own chart from the results folder DIR: copy_stride,\n"
          "                   copy_sectors, copy_batch, copy_vector, patterns_offset,\n"
          "                   stencil_sweep, tiling (N: its DSIZE)\n"
          "  --ceiling GBPS   chart-bandwidth: the achievable bandwidth as a line\n"
          "\n"
          "Exit status: 0 ok, 1 runtime failure, 2 usage error.\n",
          f);
}

int main(int argc, char **argv)
{
    const char *mode = "reference", *note = NULL, *families = NULL, *ref_root = "data/reference";
    double ceiling = NAN;
    static const char *const modes[] = {"gpu", "reference", "data", NULL};
    int mode_i = 1;
    const cli_opt opts[] = {
        {"--mode", 0, CLI_CHOICE, 0, 0, 0, 0, &mode_i, "MODE", "gpu, reference or data", modes, 0},
        {"--note", 0, CLI_STRING, 0, 0, 0, 0, &note, "TEXT", "the top of the report", 0, 0},
        {"--reference", 0, CLI_STRING, 0, 0, 0, 0, &ref_root, "DIR",
         "render, gpu mode: the bundled results to measure drift against (data/reference)", 0, 0},
        {"--families", 0, CLI_STRING, 0, 0, 0, 0, &families, "LIST", "families the results should have", 0, 0},
        {"--ceiling", 0, CLI_DOUBLE, 0, 0, 1e-3, 1e7, &ceiling, "GBPS", "the achievable bandwidth (charts)", 0, 0},
        CLI_END};
    const cli_opt *const tables[] = {opts};
    cli_parse_result r;
    const int prc = cli_parse(PROG, argc, argv, tables, 1, 16, &r);
    if (prc != 0) return prc;
    if (r.help) { usage(stdout); return outfile_check_stdout(PROG); }
    if (r.npos < 2) {
        if (r.npos == 0) return cli_usage_error(PROG, "a command is needed: plan, render, expected, chart-bandwidth or chart-ladders");
        return cli_usage_error(PROG, "%s needs %s", r.pos[0], strncmp(r.pos[0], "chart", 5) ? "a folder" : "OUT.svg and its inputs");
    }
    mode = modes[mode_i];
    const char *cmd = r.pos[0];
    if (!strcmp(cmd, "chart-bandwidth")) {
        if (r.npos < 3) return cli_usage_error(PROG, "chart-bandwidth needs OUT.svg and at least one SUMMARY");
        return cmd_chart_bandwidth(r.pos[1], r.npos - 2, r.pos + 2, ceiling);
    }
    if (!strcmp(cmd, "chart-family")) {
        if (r.npos < 4 || r.npos > 5) return cli_usage_error(PROG, "chart-family needs OUT.svg KIND DIR [N]");
        return cmd_chart_family(r.pos[1], r.pos[2], r.pos[3], r.npos == 5 ? r.pos[4] : NULL);
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
    if (!strcmp(cmd, "kernel")) {
        if (r.npos != 2) return cli_usage_error(PROG, "kernel takes one folder");
        if (!is_dir(r.pos[1])) die("%s is not a folder", r.pos[1]);
        return cmd_kernel(r.pos[1]);
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
    const int rc = !strcmp(cmd, "plan") ? cmd_plan(&c) : cmd_render(&c, mode, note, ref_root);
    for (int i = 0; i < c.ng; i++) res_free(&c.g[i].r);
    if (c.have_failures) tsv_free(&c.failures);
    return rc;
}
