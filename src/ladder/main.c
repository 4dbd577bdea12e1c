/*
 * main.c - ./latency, the host driver of the latency ladder (kernels: latency.cu).
 *
 * For each working-set size of the sweep: build a pseudo-random cycle through
 * the size's lines on the host (seeded, cycle.h), copy it to the device, expand it
 * into a chain of addresses, run one chase (warm-up, then `reps` timed
 * repetitions of K dependent loads), check that the chase ended where the
 * host's own walk of the permutation says it must, and keep the median
 * cycles per load.  The SM clock is measured in the same launch (%clock64
 * against %globaltimer, both read by the chasing thread) and converts cycles
 * to ns.  The table is written only when every size has been measured and
 * checked: written through outfile, whole or not at all.
 *
 * Plain C11 against the CUDA runtime API; kernels are reached only through
 * the launchers of latency.h.  Exit status: 0 ok, 1 runtime error, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cuda_runtime_api.h>

#include "warplog.h"
#include "cli.h"
#include "engine.h"
#include "outfile.h"
#include "stats.h"
#include "devinfo.h"
#include "latency.h"
#include "cycle.h"

#define PROG "latency"

/* Defaults: full sweep and --quick. */
#define DEF_MIN_BYTES        (4ull << 10)
#define DEF_MAX_BYTES        (4ull << 30)
#define DEF_PPO              4
#define DEF_LOADS            4096u
#define DEF_REPS             5u
#define DEF_WARMUP_MAX       (1ull << 20)
#define QUICK_MAX_BYTES      (1ull << 30)
#define QUICK_PPO            2
#define QUICK_LOADS          2048u
#define QUICK_REPS           3u
#define QUICK_WARMUP_MAX     (1ull << 19)
#define DEF_SPACING          128u
/* Past twice the L2, the warm-up is at most this many links, after the L2
 * has been swept with FLUSH_L2S times its size of another buffer. */
#define FAR_WARMUP_MAX       (1ull << 16)
#define FLUSH_L2S            4u
#define DEF_SEED             1ull

typedef struct options {
    uint64_t min_bytes, max_bytes;
    int ppo;                     /* points per octave */
    uint32_t spacing;            /* bytes between visited elements */
    uint32_t loads;              /* K: timed loads per repetition */
    uint32_t reps;
    uint64_t warmup_max;         /* cap of the untimed warm-up, in loads */
    int device;
    uint64_t seed;
    const char *out;
    int quick;
    enum latency_load kind;
    unsigned threads;            /* 1, or 32 with --warp */
    /* which ones were given explicitly (so --quick does not override them) */
    int set_max, set_ppo, set_loads, set_reps, set_warmup;
} options;

/* The options, in the toolkit's one table format (cli.h). */
static struct {
    int cached, bypass, quick, warp, list_options;
    uint64_t min, max, ppo, spacing, loads, reps, warmup, device, seed;
    const char *out;
    int set_max, set_ppo, set_loads, set_reps, set_warmup;
} A;

static const cli_opt OPTS[] = {
    {"--cached", 0, CLI_FLAG, 0, 0, 0, 0, &A.cached, 0, "ld.global.ca: cached in L1 and L2 (kernel chase_ca; default)", 0, 0},
    {"--bypass-l1", 0, CLI_FLAG, 0, 0, 0, 0, &A.bypass, 0, "ld.global.cg: L2 only (kernel chase_cg)", 0, 0},
    {"--min", 0, CLI_COUNT, 0, 1ull << 44, 0, 0, &A.min, "BYTES", "smallest working set (default 4K)", 0, 0},
    {"--max", 0, CLI_COUNT, 0, 1ull << 44, 0, 0, &A.max, "BYTES", "largest working set (default 4G; 1G with --quick)", 0, &A.set_max},
    {"--points-per-octave", 0, CLI_U64, 1, 64, 0, 0, &A.ppo, "P", "sizes per doubling (default 4; 2 with --quick)", 0, &A.set_ppo},
    {"--spacing", 0, CLI_COUNT, 0, 1u << 30, 0, 0, &A.spacing, "BYTES", "bytes between visited elements, a multiple of 8 (default 128)", 0, 0},
    {"--loads", 0, CLI_COUNT, 0, 1u << 24, 0, 0, &A.loads, "K", "timed dependent loads per repetition, a multiple of 8\n(default 4096; 2048 with --quick)", 0, &A.set_loads},
    {"--reps", 0, CLI_U64, 1, LATENCY_MAX_REPS, 0, 0, &A.reps, "R", "timed repetitions per size; the median is kept\n(default 5; 3 with --quick)", 0, &A.set_reps},
    {"--warmup", 0, CLI_COUNT, 0, 1ull << 40, 0, 0, &A.warmup, "N", "most untimed warm-up loads: min(lines, N), at most 64K\npast twice the L2, which is swept first (default 1M;\n512K with --quick)", 0, &A.set_warmup},
    {"--warp", 0, CLI_FLAG, 0, 0, 0, 0, &A.warp, 0, "launch one warp of which lane 0 chases (default: 1 thread)", 0, 0},
    {"--device", 0, CLI_U64, 0, 1023, 0, 0, &A.device, "D", "CUDA device ordinal (default 0)", 0, 0},
    {"--seed", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &A.seed, "S", "seed of the random permutations (default 1)", 0, 0},
    {"--out", 0, CLI_STRING, 0, 0, 0, 0, &A.out, "FILE", "output table (default data/latency_<gpu>.tsv, or\ndata/latency_<gpu>_cg.tsv with --bypass-l1)", 0, 0},
    {"--quick", 0, CLI_FLAG, 0, 0, 0, 0, &A.quick, 0, "a coarser, shorter sweep (4K..1G), for tests", 0, 0},
    CLI_FLAG_OPT("--list-options", &A.list_options,
        "print the options, one per line (TSV: option, kind, lo, hi, choices, scope),\nand exit"),
    CLI_END,
};

static void usage(FILE *f)
{
    fprintf(f,
"usage: " PROG " [options]\n"
"\n"
"Latency ladder: one thread chases pointers through a random cycle of lines\n"
"(one 8-byte pointer every --spacing bytes) for working sets from --min to\n"
"--max bytes, and reports cycles and ns per dependent load.  Plateaus are the\n"
"load-to-use latencies of L1, L2 and DRAM (see docs/latency.md and\n"
"bin/plot_ladder).\n"
"\n"
"options:\n");
    cli_print_options(f, OPTS);
    fprintf(f,
"  -h, --help           this text\n"
"\n"
"BYTES and counts accept 1e8 style and binary suffixes: 4K, 64M, 2G (KiB, MiB, GiB).\n"
"Exit status: 0 ok, 1 runtime error (no file written), 2 usage error.\n");
}

/* Returns -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, options *o)
{
    memset(&A, 0, sizeof A);
    A.min = DEF_MIN_BYTES;
    A.max = DEF_MAX_BYTES;
    A.ppo = DEF_PPO;
    A.spacing = DEF_SPACING;
    A.loads = DEF_LOADS;
    A.reps = DEF_REPS;
    A.warmup = DEF_WARMUP_MAX;
    A.seed = DEF_SEED;
    const cli_opt *tables[1] = {OPTS};
    cli_parse_result r;
    int rc = cli_parse(PROG, argc, argv, tables, 1, 0, &r);
    if (rc) return rc;
    if (r.help) { usage(stdout); return 0; }
    if (A.list_options) {
        printf("option\tkind\tlo\thi\tchoices\tscope\n");
        cli_list_options(stdout, OPTS, "tool");
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (A.quick) {
        if (!A.set_max) A.max = QUICK_MAX_BYTES;
        if (!A.set_ppo) A.ppo = QUICK_PPO;
        if (!A.set_loads) A.loads = QUICK_LOADS;
        if (!A.set_reps) A.reps = QUICK_REPS;
        if (!A.set_warmup) A.warmup = QUICK_WARMUP_MAX;
    }
    memset(o, 0, sizeof *o);
    o->min_bytes = A.min;
    o->max_bytes = A.max;
    o->ppo = (int)A.ppo;
    o->spacing = (uint32_t)A.spacing;
    o->loads = (uint32_t)A.loads;
    o->reps = (uint32_t)A.reps;
    o->warmup_max = A.warmup;
    o->device = (int)A.device;
    o->seed = A.seed;
    o->out = A.out;
    o->quick = A.quick;
    o->kind = A.bypass ? LATENCY_LOAD_CG : LATENCY_LOAD_CA;
    o->threads = A.warp ? 32 : 1;

    if (o->spacing % 8 != 0)
        return cli_usage_error(PROG, "--spacing %u is not a multiple of 8 (each element is an 8-byte pointer)", o->spacing);
    if (o->loads % LATENCY_UNROLL != 0)
        return cli_usage_error(PROG, "--loads %u is not a multiple of %u (the timing loop's unroll)", o->loads, LATENCY_UNROLL);
    if (o->min_bytes > o->max_bytes)
        return cli_usage_error(PROG, "--min %llu is larger than --max %llu", (unsigned long long)o->min_bytes,
                               (unsigned long long)o->max_bytes);
    if (o->min_bytes < o->spacing)
        return cli_usage_error(PROG, "--min %llu is smaller than one element spacing (%u bytes)",
                               (unsigned long long)o->min_bytes, o->spacing);
    if (o->max_bytes / o->spacing > UINT32_MAX)
        return cli_usage_error(PROG, "--max %llu has more than 2^32 - 1 elements at this --spacing",
                               (unsigned long long)o->max_bytes);
    return -1;
}

/* ---------------------------------------------------------------- helpers */

/* splitmix64: each size's seed from the run's. */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The successor table of the size's cycle (cycle.h), on every core. */
static uint64_t succ_range(void *ctx, uint64_t lo, uint64_t hi, uint64_t *first)
{
    const void *const *a = ctx;
    (void)first;
    cycle_succ_range(a[0], (uint32_t *)a[1], lo, hi);
    return 0;
}

static void build_cycle(const cycle *cy, uint32_t *succ)
{
    const void *a[2] = {cy, succ};
    uint64_t first;
    eng_parallel_check(cy->n, succ_range, (void *)a, &first);
}

static const char *fmt_bytes(char *buf, size_t len, uint64_t b)
{
    if (b >= (1ull << 30)) snprintf(buf, len, "%.4g GiB", (double)b / (1ull << 30));
    else if (b >= (1ull << 20)) snprintf(buf, len, "%.4g MiB", (double)b / (1ull << 20));
    else if (b >= (1ull << 10)) snprintf(buf, len, "%.4g KiB", (double)b / (1ull << 10));
    else snprintf(buf, len, "%llu B", (unsigned long long)b);
    return buf;
}

/* "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3" */
static void slugify(char *dst, size_t len, const char *name)
{
    size_t k = 0;
    int dash = 0;
    for (const char *p = name; *p && k + 1 < len; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && k > 0 && k + 2 < len)
                dst[k++] = '-';
            dash = 0;
            dst[k++] = (char)tolower((unsigned char)*p);
        } else {
            dash = 1;
        }
    }
    dst[k] = '\0';
    if (k == 0)
        snprintf(dst, len, "gpu");
}

/* The sweep: min * 2^(i/ppo) rounded down to whole lines, up to max. */
static size_t make_sizes(const options *o, uint64_t **sizes_out)
{
    size_t cap = 64, n = 0;
    uint64_t *s = malloc(cap * sizeof *s);
    if (!s) { fprintf(stderr, PROG ": out of host memory\n"); exit(1); }
    for (int i = 0;; i++) {
        double b = (double)o->min_bytes * pow(2.0, (double)i / o->ppo);
        if (b > (double)o->max_bytes * (1 + 1e-12))
            break;
        uint64_t bytes = (uint64_t)llround(b);
        if (bytes > o->max_bytes) bytes = o->max_bytes;
        bytes -= bytes % o->spacing;
        if (n > 0 && bytes <= s[n - 1])
            continue;
        if (n == cap) {
            cap *= 2;
            uint64_t *t = realloc(s, cap * sizeof *s);
            if (!t) { fprintf(stderr, PROG ": out of host memory\n"); exit(1); }
            s = t;
        }
        s[n++] = bytes;
    }
    *sizes_out = s;
    return n;
}

typedef struct row {
    uint64_t bytes, lines;
    double cycles_per_load, ns_per_load, sm_MHz;
} row;

/* Write the table through outfile (whole or not at all).  0 or -1
 * (message printed). */
static int write_table(const char *path, const warplog_header *h, const options *o,
                       const row *rows, size_t n, uint64_t warmup_max, uint64_t l2_bytes)
{
    outfile out;
    char err[4400];
    FILE *f = outfile_open(&out, path, "w", err, sizeof err);
    if (!f) {
        fprintf(stderr, PROG ": %s\n", err);
        return -1;
    }
    warplog_header_print(f, h, "# ");
    fprintf(f, "# load\t%s\n", o->kind == LATENCY_LOAD_CA ? "ld.global.ca.u64" : "ld.global.cg.u64");
    fprintf(f, "# spacing_bytes\t%u\n", o->spacing);
    if (l2_bytes > 0)
        fprintf(f, "# warmup_loads\tmin(lines, %llu); above %llu bytes min(lines, %llu) after "
                   "reading %llu bytes of another buffer through the L2\n",
                (unsigned long long)warmup_max, (unsigned long long)(2 * l2_bytes),
                (unsigned long long)(warmup_max < FAR_WARMUP_MAX ? warmup_max : FAR_WARMUP_MAX),
                (unsigned long long)(FLUSH_L2S * l2_bytes));
    else
        fprintf(f, "# warmup_loads\tmin(lines, %llu)\n", (unsigned long long)warmup_max);
    fprintf(f, "# chasing_threads\t1 of %u\n", o->threads);
    fprintf(f, "# cycles_per_load\tmedian over reps of (clock64 after - before) / loads\n");
    fprintf(f, "# ns_per_load\tcycles_per_load * 1000 / SM MHz; MHz measured per size from "
               "%%clock64 and %%globaltimer deltas read by the chasing thread around the "
               "timed loads; sm_clock_measured_MHz is their median\n");
    fprintf(f, "bytes\tlines\tloads\tcycles_per_load\tns_per_load\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%llu\t%llu\t%u\t%.2f\t%.2f\n", (unsigned long long)rows[i].bytes,
                (unsigned long long)rows[i].lines, o->loads, rows[i].cycles_per_load,
                rows[i].ns_per_load);
    if (outfile_commit(&out, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ main */

/* Device buffers and host scratch of the chase, sized for the largest set. */
typedef struct chase {
    uint32_t *succ;             /* the host's successor table */
    void *d_chain;
    uint32_t *d_succ;
    latency_result *d_res;
    double *tmpv;               /* one rep's cycles per load, for the median */
    uint64_t l2_bytes;          /* the device's L2 (0: unknown, no far rule) */
    void *d_flush;              /* FLUSH_L2S * l2_bytes the chase never touches */
    unsigned *d_sink;
} chase;

/* Whether a working set is far past the L2: more than twice its size. */
static int far_set(const chase *c, uint64_t bytes)
{
    return c->l2_bytes > 0 && bytes > 2 * c->l2_bytes;
}

/* The untimed links before the timed ones.  A set that a cache can hold is
 * walked whole (up to --warmup), so it is resident there.  A set more than
 * twice the L2 misses in the L2 wherever the chase is, as a cycle longer
 * than an LRU cache always does (latency_ca.tsv: 680 cycles from 67 MB to
 * 4 GB on the H100), and the timed loads go on to lines the warm-up never
 * touched: its 2^20 links at DRAM latency (0.35 s a size) bought only the
 * eviction of what chain_build left in the L2.  That is done by reading
 * another buffer through the L2 instead (microseconds), and 2^16 links
 * still warm the TLBs. */
static uint64_t warmup_links(const options *o, const chase *c, uint64_t bytes, uint64_t lines)
{
    uint64_t warm = lines < o->warmup_max ? lines : o->warmup_max;
    if (far_set(c, bytes) && warm > FAR_WARMUP_MAX)
        warm = FAR_WARMUP_MAX;
    return warm;
}

/* Chase one working set of bytes and fill its row: 0, or -1 after a
 * sentence (the chain check failed, or the clocks did not advance). */
static int measure_size(const options *o, chase *c, uint64_t bytes, row *out)
{
    const uint64_t lines = bytes / o->spacing;
    uint64_t seed = o->seed ^ (bytes * 0x9e3779b97f4a7c15ull);
    cycle cy;
    cycle_init(&cy, lines, splitmix64(&seed));
    build_cycle(&cy, c->succ);

    ENG_CUDA(cudaMemcpy(c->d_succ, c->succ, lines * sizeof *c->succ, cudaMemcpyHostToDevice));
    latency_build_chain(c->d_chain, c->d_succ, lines, o->spacing);
    if (far_set(c, bytes))
        latency_flush_l2(c->d_flush, FLUSH_L2S * c->l2_bytes, c->d_sink);
    ENG_CUDA(cudaDeviceSynchronize());

    const uint64_t warm = warmup_links(o, c, bytes, lines);
    latency_chase(o->kind, o->threads, c->d_chain, cycle_at(&cy, 0), o->spacing, warm, o->loads, o->reps,
                  c->d_res);
    ENG_CUDA(cudaDeviceSynchronize());
    latency_result r;
    ENG_CUDA(cudaMemcpy(&r, c->d_res, sizeof r, cudaMemcpyDeviceToHost));

    /* Validate before reporting: the chase must end on the line the
     * host's permutation says, after warm + loads * reps steps. */
    const uint64_t steps = warm + (uint64_t)o->loads * o->reps;
    const uint64_t want = (uint64_t)cycle_at(&cy, steps % lines) * o->spacing;
    char bb[32];
    if (r.final_offset_bytes != want) {
        fprintf(stderr, PROG ": chain check failed at %s: the chase ended at offset %llu, "
                "expected %llu; no table written\n", fmt_bytes(bb, sizeof bb, bytes),
                (unsigned long long)r.final_offset_bytes, (unsigned long long)want);
        return -1;
    }
    if (r.gtimer_end_ns <= r.gtimer_begin_ns || r.clk_end <= r.clk_begin) {
        fprintf(stderr, PROG ": at %s the clocks did not advance (globaltimer %llu -> %llu, "
                "clock64 %llu -> %llu); no table written\n", fmt_bytes(bb, sizeof bb, bytes),
                (unsigned long long)r.gtimer_begin_ns, (unsigned long long)r.gtimer_end_ns,
                (unsigned long long)r.clk_begin, (unsigned long long)r.clk_end);
        return -1;
    }
    for (uint32_t k = 0; k < o->reps; k++)
        c->tmpv[k] = (double)r.cycles[k] / o->loads;
    const double cyc = stats_median_inplace(c->tmpv, o->reps);
    const double MHz = (double)(r.clk_end - r.clk_begin) * 1e3 /
                       (double)(r.gtimer_end_ns - r.gtimer_begin_ns);
    out->bytes = bytes;
    out->lines = lines;
    out->cycles_per_load = cyc;
    out->sm_MHz = MHz;
    out->ns_per_load = cyc * 1e3 / MHz;
    fprintf(stderr, "  %12s %10llu lines  %8.1f cycles  %8.1f ns  (SM %u at %.0f MHz)\n",
            fmt_bytes(bb, sizeof bb, bytes), (unsigned long long)lines, cyc, out->ns_per_load,
            r.smid, MHz);
    return 0;
}

/* The table's header fields of the run. */
static void fill_run_header(warplog_header *h, const options *o, const char *kname, size_t npts,
                            uint64_t max_lines, int carveout, double clock_MHz)
{
    snprintf(h->experiment, sizeof h->experiment, "latency");
    snprintf(h->kernel, sizeof h->kernel, "%s", kname);
    h->record_count = npts;
    h->n_elems = max_lines;
    h->blocks = 1;
    h->seed = o->seed;
    h->elem_bytes = 8;
    h->warps_per_block = 1;
    h->threads_per_block = o->threads;
    h->blocks_per_sm = 1;
    h->bytes_per_warp_load = 8;
    h->carveout_pct = carveout;
    h->reps = o->reps;
    h->loads_per_warp = o->loads;
    h->sm_clock_measured_MHz = clock_MHz;
}

/* --out, or data/latency_<device>[_cg].tsv (data/ made): 0, or -1 after a sentence. */
static int table_path(const options *o, const char *device, char *path, size_t len)
{
    if (o->out) {
        snprintf(path, len, "%s", o->out);
        return 0;
    }
    char slug[96];
    slugify(slug, sizeof slug, device);
    if (mkdir("data", 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, PROG ": cannot create data/: %s\n", strerror(errno));
        return -1;
    }
    snprintf(path, len, "data/latency_%s%s.tsv", slug, o->kind == LATENCY_LOAD_CG ? "_cg" : "");
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    int prc = parse_args(argc, argv, &o);
    if (prc >= 0) return prc;

    uint64_t *sizes;
    size_t npts = make_sizes(&o, &sizes);

    char err[256];
    if (devinfo_select(o.device, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    warplog_header h;
    warplog_header_init(&h);
    if (devinfo_fill(o.device, &h, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }

    const uint64_t max_bytes = sizes[npts - 1];
    const uint64_t max_lines = max_bytes / o.spacing;

    size_t free_b = 0, total_b = 0;
    ENG_CUDA(cudaMemGetInfo(&free_b, &total_b));
    chase c = {0};
    c.l2_bytes = h.l2_bytes;
    const uint64_t need = max_bytes + max_lines * sizeof(uint32_t) + FLUSH_L2S * c.l2_bytes + (1u << 20);
    if (need > free_b) {
        char a[32], b[32];
        fprintf(stderr, PROG ": the largest working set needs %s of device memory, "
                "but only %s is free: lower --max\n",
                fmt_bytes(a, sizeof a, need), fmt_bytes(b, sizeof b, free_b));
        return 1;
    }

    c.succ = malloc(max_lines * sizeof *c.succ);
    row *rows = calloc(npts, sizeof *rows);
    if (!c.succ || !rows) {
        fprintf(stderr, PROG ": out of host memory (%llu lines)\n", (unsigned long long)max_lines);
        return 1;
    }
    ENG_CUDA(cudaMalloc(&c.d_chain, max_bytes));
    ENG_CUDA(cudaMalloc((void **)&c.d_succ, max_lines * sizeof *c.d_succ));
    ENG_CUDA(cudaMalloc((void **)&c.d_res, sizeof *c.d_res));
    if (far_set(&c, max_bytes)) {
        ENG_CUDA(cudaMalloc(&c.d_flush, FLUSH_L2S * c.l2_bytes));
        ENG_CUDA(cudaMemset(c.d_flush, 0x5a, FLUSH_L2S * c.l2_bytes));
        ENG_CUDA(cudaMalloc((void **)&c.d_sink, sizeof *c.d_sink));
    }
    /* the chase writes the cycles of its reps only: the rest of the result
     * is copied back too, so it starts as zeros, not as whatever was there */
    ENG_CUDA(cudaMemset(c.d_res, 0, sizeof *c.d_res));
    const int carveout = latency_prefer_l1();

    const char *kname = latency_kernel_name(o.kind);
    fprintf(stderr, PROG ": %s, %s (%s, %u thread%s), %zu sizes %llu B..%llu B, spacing %u B, "
            "%u loads x %u reps\n", h.device_name, kname,
            o.kind == LATENCY_LOAD_CA ? "ld.global.ca" : "ld.global.cg",
            o.threads, o.threads == 1 ? "" : "s, lane 0 chases", npts,
            (unsigned long long)sizes[0], (unsigned long long)max_bytes, o.spacing,
            o.loads, o.reps);

    c.tmpv = malloc(LATENCY_MAX_REPS * sizeof *c.tmpv);
    double *mhz = malloc(npts * sizeof *mhz);
    if (!c.tmpv || !mhz) { fprintf(stderr, PROG ": out of host memory\n"); return 1; }
    for (size_t i = 0; i < npts; i++) {
        if (measure_size(&o, &c, sizes[i], &rows[i]) != 0) return 1;
        mhz[i] = rows[i].sm_MHz;
    }
    ENG_CUDA(cudaFree(c.d_res));
    ENG_CUDA(cudaFree(c.d_flush));
    ENG_CUDA(cudaFree(c.d_sink));
    ENG_CUDA(cudaFree(c.d_succ));
    ENG_CUDA(cudaFree(c.d_chain));

    fill_run_header(&h, &o, kname, npts, max_lines, carveout, stats_median_inplace(mhz, npts));
    char path[4096];
    if (table_path(&o, h.device_name, path, sizeof path) != 0) return 1;
    if (write_table(path, &h, &o, rows, npts, o.warmup_max, c.l2_bytes) != 0)
        return 1;
    fprintf(stderr, PROG ": SM clock %.0f MHz (measured); wrote %s\n", h.sm_clock_measured_MHz, path);

    free(mhz);
    free(c.tmpv);
    free(rows);
    free(c.succ);
    free(sizes);
    return 0;
}
