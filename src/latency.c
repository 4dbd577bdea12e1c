/*
 * latency.c - host driver of the latency ladder (kernels: src/kernels/latency.cu).
 *
 * For each working-set size of the sweep: build a random cyclic permutation
 * of the size's lines on the host (seeded), copy it to the device, expand it
 * into a chain of addresses, run one chase (warm-up, then `reps` timed
 * repetitions of K dependent loads), check that the chase ended where the
 * host's own walk of the permutation says it must, and keep the median
 * cycles per load.  The SM clock is measured in the same launch (%clock64
 * against %globaltimer, both read by the chasing thread) and converts cycles
 * to ns.  The table is written only when every size has been measured and
 * checked: FILE.tmp, then rename.
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
#include "cuda_check.h"
#include "devinfo.h"
#include "kernels/latency.h"

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
"options:\n"
"  --cached             ld.global.ca: cached in L1 and L2 (kernel chase_ca; default)\n"
"  --bypass-l1          ld.global.cg: L2 only (kernel chase_cg)\n"
"  --min BYTES          smallest working set (default 4K)\n"
"  --max BYTES          largest working set (default 4G; 1G with --quick)\n"
"  --points-per-octave P  sizes per doubling (default %d; %d with --quick)\n"
"  --spacing BYTES      bytes between visited elements, a multiple of 8 (default %u)\n"
"  --loads K            timed dependent loads per repetition, a multiple of %u\n"
"                       (default %u; %u with --quick)\n"
"  --reps R             timed repetitions per size, 1..%u; the median is kept\n"
"                       (default %u; %u with --quick)\n"
"  --warmup N           most untimed warm-up loads: min(lines, N) (default %llu;\n"
"                       %llu with --quick)\n"
"  --warp               launch one warp of which lane 0 chases (default: 1 thread)\n"
"  --device D           CUDA device ordinal (default 0)\n"
"  --seed S             seed of the random permutations (default %llu)\n"
"  --out FILE           output table (default data/latency_<gpu>.tsv, or\n"
"                       data/latency_<gpu>_cg.tsv with --bypass-l1)\n"
"  --quick              a coarser, shorter sweep (4K..1G), for tests\n"
"  -h, --help           this text\n"
"\n"
"BYTES and counts accept 1e8 style and binary suffixes: 4K, 64M, 2G (KiB, MiB, GiB).\n"
"Exit status: 0 ok, 1 runtime error (no file written), 2 usage error.\n",
            DEF_PPO, QUICK_PPO, DEF_SPACING, LATENCY_UNROLL, DEF_LOADS, QUICK_LOADS,
            LATENCY_MAX_REPS, DEF_REPS, QUICK_REPS,
            (unsigned long long)DEF_WARMUP_MAX, (unsigned long long)QUICK_WARMUP_MAX,
            (unsigned long long)DEF_SEED);
}

static void die_usage(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (see " PROG " --help)\n");
    exit(2);
}

/*
 * Parse a count: a decimal number (1e8, 1.5, 4096) with an optional binary
 * suffix K, M, G, T (also KiB, KB ...; any case).  The result must be a whole
 * number >= 1 and < 2^53.  Returns 0 or -1.
 */
static int parse_count(const char *s, uint64_t *out)
{
    if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (end == s || errno != 0 || !isfinite(v))
        return -1;
    double mul = 1;
    if (*end) {
        switch (toupper((unsigned char)*end)) {
        case 'K': mul = 1024.0; break;
        case 'M': mul = 1024.0 * 1024; break;
        case 'G': mul = 1024.0 * 1024 * 1024; break;
        case 'T': mul = 1024.0 * 1024 * 1024 * 1024; break;
        default: return -1;
        }
        end++;
        if (toupper((unsigned char)end[0]) == 'I' && toupper((unsigned char)end[1]) == 'B')
            end += 2;
        else if (toupper((unsigned char)end[0]) == 'B')
            end += 1;
        if (*end)
            return -1;
    }
    v *= mul;
    if (v < 1 || v >= 9007199254740992.0 || v != floor(v))
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static uint64_t get_count(const char *opt, const char *val, uint64_t lo, uint64_t hi)
{
    uint64_t v;
    if (parse_count(val, &v) != 0)
        die_usage("%s: '%s' is not a positive whole number (like 4096, 1e8, 64K, 2G)", opt, val);
    if (v < lo || v > hi) {
        char range[96];
        snprintf(range, sizeof range, "%llu..%llu", (unsigned long long)lo, (unsigned long long)hi);
        fprintf(stderr, PROG ": %s: %s is out of range %s (see " PROG " --help)\n", opt, val, range);
        exit(2);
    }
    return v;
}

static void parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->min_bytes = DEF_MIN_BYTES;
    o->max_bytes = DEF_MAX_BYTES;
    o->ppo = DEF_PPO;
    o->spacing = DEF_SPACING;
    o->loads = DEF_LOADS;
    o->reps = DEF_REPS;
    o->warmup_max = DEF_WARMUP_MAX;
    o->seed = DEF_SEED;
    o->kind = LATENCY_LOAD_CA;
    o->threads = 1;

    for (int i = 1; i < argc; i++) {
        char name[64];
        const char *a = argv[i], *val = NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        if (strncmp(a, "--", 2) != 0)
            die_usage("unexpected argument '%s'%s", a, "");
        /* --opt=value or --opt value */
        const char *eq = strchr(a, '=');
        size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
        if (nlen >= sizeof name)
            die_usage("unknown option '%s'%s", a, "");
        memcpy(name, a, nlen);
        name[nlen] = '\0';

        int is_flag = !strcmp(name, "--cached") || !strcmp(name, "--bypass-l1") ||
                      !strcmp(name, "--quick") || !strcmp(name, "--warp");
        int is_valued = !strcmp(name, "--min") || !strcmp(name, "--max") ||
                        !strcmp(name, "--points-per-octave") || !strcmp(name, "--spacing") ||
                        !strcmp(name, "--loads") || !strcmp(name, "--reps") ||
                        !strcmp(name, "--warmup") || !strcmp(name, "--device") ||
                        !strcmp(name, "--seed") || !strcmp(name, "--out");
        if (!is_flag && !is_valued)
            die_usage("unknown option '%s'%s", a, "");
        if (is_flag) {
            if (eq)
                die_usage("option %s takes no value%s", name, "");
        } else if (eq) {
            val = eq + 1;
        } else {
            if (i + 1 >= argc)
                die_usage("option %s needs a value%s", name, "");
            val = argv[++i];
        }

        if (!strcmp(name, "--cached")) o->kind = LATENCY_LOAD_CA;
        else if (!strcmp(name, "--bypass-l1")) o->kind = LATENCY_LOAD_CG;
        else if (!strcmp(name, "--quick")) o->quick = 1;
        else if (!strcmp(name, "--warp")) o->threads = 32;
        else if (!strcmp(name, "--min")) o->min_bytes = get_count(name, val, 8, 1ull << 44);
        else if (!strcmp(name, "--max")) { o->max_bytes = get_count(name, val, 8, 1ull << 44); o->set_max = 1; }
        else if (!strcmp(name, "--points-per-octave")) { o->ppo = (int)get_count(name, val, 1, 64); o->set_ppo = 1; }
        else if (!strcmp(name, "--spacing")) o->spacing = (uint32_t)get_count(name, val, 8, 1u << 30);
        else if (!strcmp(name, "--loads")) { o->loads = (uint32_t)get_count(name, val, LATENCY_UNROLL, 1u << 24); o->set_loads = 1; }
        else if (!strcmp(name, "--reps")) { o->reps = (uint32_t)get_count(name, val, 1, LATENCY_MAX_REPS); o->set_reps = 1; }
        else if (!strcmp(name, "--warmup")) { o->warmup_max = get_count(name, val, 1, 1ull << 40); o->set_warmup = 1; }
        else if (!strcmp(name, "--device")) {
            if (!strcmp(val, "0")) o->device = 0;
            else o->device = (int)get_count(name, val, 0, 1023);
        }
        else if (!strcmp(name, "--seed")) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(val, &end, 0);
            if (!isdigit((unsigned char)val[0]) || *end || errno)
                die_usage("--seed: '%s' is not a whole number 0..2^64-1%s", val, "");
            o->seed = v;
        }
        else if (!strcmp(name, "--out")) {
            if (!*val) die_usage("--out needs a file name%s%s", "", "");
            o->out = val;
        }
    }

    if (o->quick) {
        if (!o->set_max) o->max_bytes = QUICK_MAX_BYTES;
        if (!o->set_ppo) o->ppo = QUICK_PPO;
        if (!o->set_loads) o->loads = QUICK_LOADS;
        if (!o->set_reps) o->reps = QUICK_REPS;
        if (!o->set_warmup) o->warmup_max = QUICK_WARMUP_MAX;
    }

    char a[32], b[32];
    if (o->spacing % 8 != 0) {
        snprintf(a, sizeof a, "%u", o->spacing);
        die_usage("--spacing %s is not a multiple of 8 (each element is an 8-byte pointer)%s", a, "");
    }
    if (o->loads % LATENCY_UNROLL != 0) {
        snprintf(a, sizeof a, "%u", o->loads);
        snprintf(b, sizeof b, "%u", LATENCY_UNROLL);
        die_usage("--loads %s is not a multiple of %s (the timing loop's unroll)", a, b);
    }
    if (o->min_bytes > o->max_bytes) {
        snprintf(a, sizeof a, "%llu", (unsigned long long)o->min_bytes);
        snprintf(b, sizeof b, "%llu", (unsigned long long)o->max_bytes);
        die_usage("--min %s is larger than --max %s", a, b);
    }
    if (o->min_bytes < o->spacing) {
        snprintf(a, sizeof a, "%llu", (unsigned long long)o->min_bytes);
        snprintf(b, sizeof b, "%u", o->spacing);
        die_usage("--min %s is smaller than one element spacing (%s bytes)", a, b);
    }
    if (o->max_bytes / o->spacing > UINT32_MAX) {
        snprintf(a, sizeof a, "%llu", (unsigned long long)o->max_bytes);
        die_usage("--max %s has more than 2^32 - 1 elements at this --spacing%s", a, "");
    }
}

/* ---------------------------------------------------------------- helpers */

/* splitmix64: small, seedable, good enough to shuffle. */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A uniformly random order of the lines 0..n-1 (Fisher-Yates), and the
 * successor array that turns it into one cycle: succ[order[i]] = order[i+1]. */
static void build_cycle(uint32_t *order, uint32_t *succ, uint64_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (uint64_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    for (uint64_t i = n - 1; i > 0; i--) {
        /* modulo bias is below n / 2^64: negligible */
        uint64_t j = splitmix64(&s) % (i + 1);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (uint64_t i = 0; i + 1 < n; i++)
        succ[order[i]] = order[i + 1];
    succ[order[n - 1]] = order[0];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
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

/* Write the table to path.tmp, then rename onto path.  0 or -1 (message printed). */
static int write_table(const char *path, const warplog_header *h, const options *o,
                       const row *rows, size_t n, uint64_t warmup_max)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, PROG ": output path too long: %s\n", path);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, PROG ": cannot write %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    warplog_header_print(f, h, "# ");
    fprintf(f, "# load\t%s\n", o->kind == LATENCY_LOAD_CA ? "ld.global.ca.u64" : "ld.global.cg.u64");
    fprintf(f, "# spacing_bytes\t%u\n", o->spacing);
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
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad) {
        fprintf(stderr, PROG ": error writing %s: %s\n", tmp, strerror(errno));
        remove(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        fprintf(stderr, PROG ": cannot rename %s to %s: %s\n", tmp, path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    options o;
    parse_args(argc, argv, &o);

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
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const uint64_t need = max_bytes + max_lines * sizeof(uint32_t) + (1u << 20);
    if (need > free_b) {
        char a[32], b[32];
        fprintf(stderr, PROG ": the largest working set needs %s of device memory, "
                "but only %s is free: lower --max\n",
                fmt_bytes(a, sizeof a, need), fmt_bytes(b, sizeof b, free_b));
        return 1;
    }

    uint32_t *order = malloc(max_lines * sizeof *order);
    uint32_t *succ = malloc(max_lines * sizeof *succ);
    row *rows = calloc(npts, sizeof *rows);
    if (!order || !succ || !rows) {
        fprintf(stderr, PROG ": out of host memory (%llu lines)\n", (unsigned long long)max_lines);
        return 1;
    }

    void *d_chain = NULL;
    uint32_t *d_succ = NULL;
    latency_result *d_res = NULL;
    CUDA_CHECK(cudaMalloc(&d_chain, max_bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_succ, max_lines * sizeof *d_succ));
    CUDA_CHECK(cudaMalloc((void **)&d_res, sizeof *d_res));
    const int carveout = latency_prefer_l1();

    const char *kname = latency_kernel_name(o.kind);
    fprintf(stderr, PROG ": %s, %s (%s, %u thread%s), %zu sizes %llu B..%llu B, spacing %u B, "
            "%u loads x %u reps\n", h.device_name, kname,
            o.kind == LATENCY_LOAD_CA ? "ld.global.ca" : "ld.global.cg",
            o.threads, o.threads == 1 ? "" : "s, lane 0 chases", npts,
            (unsigned long long)sizes[0], (unsigned long long)max_bytes, o.spacing,
            o.loads, o.reps);

    double *tmpv = malloc(LATENCY_MAX_REPS * sizeof *tmpv);
    double *mhz = malloc(npts * sizeof *mhz);
    if (!tmpv || !mhz) { fprintf(stderr, PROG ": out of host memory\n"); return 1; }

    for (size_t i = 0; i < npts; i++) {
        const uint64_t bytes = sizes[i];
        const uint64_t lines = bytes / o.spacing;
        uint64_t seed = o.seed ^ (bytes * 0x9e3779b97f4a7c15ull);
        build_cycle(order, succ, lines, splitmix64(&seed));

        CUDA_CHECK(cudaMemcpy(d_succ, succ, lines * sizeof *succ, cudaMemcpyHostToDevice));
        latency_build_chain(d_chain, d_succ, lines, o.spacing);
        CUDA_CHECK(cudaDeviceSynchronize());

        const uint64_t warm = lines < o.warmup_max ? lines : o.warmup_max;
        latency_chase(o.kind, o.threads, d_chain, order[0], o.spacing, warm, o.loads, o.reps, d_res);
        CUDA_CHECK(cudaDeviceSynchronize());
        latency_result r;
        CUDA_CHECK(cudaMemcpy(&r, d_res, sizeof r, cudaMemcpyDeviceToHost));

        /* Validate before reporting: the chase must end on the line the
         * host's permutation says, after warm + loads * reps steps. */
        const uint64_t steps = warm + (uint64_t)o.loads * o.reps;
        const uint64_t want = (uint64_t)order[steps % lines] * o.spacing;
        char bb[32];
        if (r.final_offset_bytes != want) {
            fprintf(stderr, PROG ": chain check failed at %s: the chase ended at offset %llu, "
                    "expected %llu; no table written\n", fmt_bytes(bb, sizeof bb, bytes),
                    (unsigned long long)r.final_offset_bytes, (unsigned long long)want);
            return 1;
        }
        if (r.gtimer_end_ns <= r.gtimer_begin_ns || r.clk_end <= r.clk_begin) {
            fprintf(stderr, PROG ": at %s the clocks did not advance (globaltimer %llu -> %llu, "
                    "clock64 %llu -> %llu); no table written\n", fmt_bytes(bb, sizeof bb, bytes),
                    (unsigned long long)r.gtimer_begin_ns, (unsigned long long)r.gtimer_end_ns,
                    (unsigned long long)r.clk_begin, (unsigned long long)r.clk_end);
            return 1;
        }
        for (uint32_t k = 0; k < o.reps; k++)
            tmpv[k] = (double)r.cycles[k] / o.loads;
        const double cyc = median(tmpv, o.reps);
        const double MHz = (double)(r.clk_end - r.clk_begin) * 1e3 /
                           (double)(r.gtimer_end_ns - r.gtimer_begin_ns);
        rows[i].bytes = bytes;
        rows[i].lines = lines;
        rows[i].cycles_per_load = cyc;
        rows[i].sm_MHz = MHz;
        rows[i].ns_per_load = cyc * 1e3 / MHz;
        mhz[i] = MHz;
        fprintf(stderr, "  %12s %10llu lines  %8.1f cycles  %8.1f ns  (SM %u at %.0f MHz)\n",
                fmt_bytes(bb, sizeof bb, bytes), (unsigned long long)lines, cyc,
                rows[i].ns_per_load, r.smid, MHz);
    }

    CUDA_CHECK(cudaFree(d_res));
    CUDA_CHECK(cudaFree(d_succ));
    CUDA_CHECK(cudaFree(d_chain));

    snprintf(h.experiment, sizeof h.experiment, "latency");
    snprintf(h.kernel, sizeof h.kernel, "%s", kname);
    h.record_count = npts;
    h.n_elems = max_lines;
    h.blocks = 1;
    h.seed = o.seed;
    h.elem_bytes = 8;
    h.warps_per_block = 1;
    h.threads_per_block = o.threads;
    h.blocks_per_sm = 1;
    h.bytes_per_warp_load = 8;
    h.carveout_pct = carveout;
    h.reps = o.reps;
    h.loads_per_warp = o.loads;
    h.sm_clock_measured_MHz = median(mhz, npts);

    char path[4096];
    if (o.out) {
        snprintf(path, sizeof path, "%s", o.out);
    } else {
        char slug[96];
        slugify(slug, sizeof slug, h.device_name);
        if (mkdir("data", 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, PROG ": cannot create data/: %s\n", strerror(errno));
            return 1;
        }
        snprintf(path, sizeof path, "data/latency_%s%s.tsv", slug,
                 o.kind == LATENCY_LOAD_CG ? "_cg" : "");
    }
    if (write_table(path, &h, &o, rows, npts, o.warmup_max) != 0)
        return 1;
    fprintf(stderr, PROG ": SM clock %.0f MHz (measured); wrote %s\n", h.sm_clock_measured_MHz, path);

    free(mhz);
    free(tmpv);
    free(rows);
    free(succ);
    free(order);
    free(sizes);
    return 0;
}
