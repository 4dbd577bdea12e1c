/*
 * readonly.c - driver of the readonly experiments (host side, plain C).
 *
 *   ./readonly N SMEM WPB [options]          instrumented: one log per variant
 *   ./readonly_profile N SMEM WPB [options]  the same kernels without probes
 *
 * For every variant it: configures shared memory and checks occupancy, runs a
 * warm-up and --reps timed launches (CUDA events; median, min, max), checks
 * every warp's checksum against a CPU reference, and (instrumented build)
 * writes data/readonly_<variant>_<WPB>.bin from the last launch's probes.
 * Logs are compressed on a background thread while the GPU runs the next
 * variant, so compression stays off the timed path.  A variant that fails
 * validation writes no log and makes the exit status 1.
 *
 * stdout: "#" lines about the device, then a TSV table, one row per variant.
 * stderr: progress and diagnostics.  Exit: 0 ok, 1 runtime failure, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "cli.h"
#include "cuda_check.h"
#include "devinfo.h"
#include "patterns.h"
#include "stats.h"
#include "warplog.h"
#include "readonly.h"

#ifndef WARP_INSTRUMENT
#define WARP_INSTRUMENT 1
#endif

#define PROG (WARP_INSTRUMENT ? "readonly" : "readonly_profile")

typedef struct variant_info {
    const char *name;   /* as given to --kernel and used in file names */
    uint32_t elem_bytes;
    int vec4;           /* float4 elements: N/4 threads */
    int gather;         /* needs c[] */
    int strided;
} variant_info;

static const variant_info VARIANTS[RO_NVARIANTS] = {
    [RO_BASELINE]       = {"baseline", 4, 0, 0, 0},
    [RO_FLOAT4]         = {"float4", 16, 1, 0, 0},
    [RO_NONDIVERGING]   = {"nondiverging", 4, 0, 1, 0},
    [RO_RANDOM_ACCESS]  = {"random_access", 4, 0, 1, 0},
    [RO_STRIDED]        = {"strided", 4, 0, 0, 1},
    [RO_STRIDED_FLOAT4] = {"strided_float4", 16, 1, 0, 1},
};

typedef struct options {
    uint64_t n;
    uint32_t smem;
    uint32_t wpb;
    int run[RO_NVARIANTS];
    uint64_t stride;
    int device;
    const char *out_dir;
    uint32_t reps, warmup;
    uint64_t seed;
    uint32_t l2_fetch;
    int carveout;
    int level;
    int list_occupancy;
    int quiet;
} options;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: %s N SMEM WPB [options]\n"
        "\n"
        "  N      elements (floats) in the array read: 100000000 or 1e8\n"
        "  SMEM   dynamic shared memory per block in bytes; limits resident blocks\n"
        "         per SM and so occupancy (0 = no limit from shared memory)\n"
        "  WPB    warps per block, 1..32\n"
        "  (all three may be omitted together: 1e8 0 4)\n"
        "\n"
        "Runs each kernel variant, checks its result against a CPU reference and\n"
        "%s"
        "\n"
        "options:\n"
        "  --kernel K       run only K (repeatable, or comma-separated): baseline, float4,\n"
        "                   nondiverging, random_access, strided, strided_float4\n"
        "                   (default: all)\n"
        "  --stride S       element stride of the strided variants (default 8)\n"
        "  --reps R         timed launches per variant (default 10); the median is reported\n"
        "  --warmup W       untimed launches first (default 1)\n"
        "  --seed S         seed of random_access's permutation (default 12345)\n"
        "  --device D       CUDA device ordinal (default 0)\n"
        "  --l2-fetch B     cudaLimitMaxL2FetchGranularity hint in bytes (0..128)\n"
        "  --carveout P     shared-memory carveout percent (default 100: all the\n"
        "                   unified L1/shared memory may go to shared memory)\n"
        "%s"
        "  --list-occupancy print, for WPB, the SMEM that gives each number of resident\n"
        "                   blocks per SM, and exit\n"
        "  -q, --quiet      no progress on stderr\n"
        "  -h, --help       this text\n"
        "\n"
        "stdout: '#' lines describing the device, then one TSV row per variant.\n"
        "Exit status: 0 ok, 1 runtime failure (no GPU, validation failed, I/O), 2 usage.\n",
        PROG,
        WARP_INSTRUMENT
            ? "writes one per-warp log per variant: DIR/readonly_<variant>_<WPB>.bin.\n"
            : "times it (no instrumentation: this is the twin for Nsight Compute).\n",
        WARP_INSTRUMENT
            ? "  --out DIR        where logs go (default data)\n"
              "  --level L        zlib level of the logs, 1..9 (default 1)\n"
            : "");
}

static int usage_error(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "%s: ", PROG);
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\nTry '%s --help'.\n", PROG);
    return 2;
}

static int parse_kernels(options *o, const char *list)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int v = 0; v < RO_NVARIANTS; v++)
            if (strcmp(tok, VARIANTS[v].name) == 0) o->run[v] = found = 1;
        if (!found) return usage_error("unknown kernel '%s'%s", tok,
                                       " (baseline, float4, nondiverging, random_access, "
                                       "strided, strided_float4)");
    }
    return 0;
}

/* Returns -1 to continue, or an exit status. */
static int parse_args(int argc, char **argv, options *o)
{
    static const struct option longopts[] = {
        {"kernel", required_argument, 0, 'k'}, {"stride", required_argument, 0, 's'},
        {"reps", required_argument, 0, 'r'},   {"warmup", required_argument, 0, 'w'},
        {"seed", required_argument, 0, 'S'},   {"device", required_argument, 0, 'd'},
        {"out", required_argument, 0, 'o'},    {"l2-fetch", required_argument, 0, 'L'},
        {"carveout", required_argument, 0, 'c'}, {"level", required_argument, 0, 'z'},
        {"list-occupancy", no_argument, 0, 'O'}, {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0},
    };
    char err[256];
    uint64_t v;
    int any_kernel = 0;
    memset(o, 0, sizeof *o);
    o->n = 100000000ull;
    o->wpb = 4;
    o->stride = 8;
    o->out_dir = "data";
    o->reps = 10;
    o->warmup = 1;
    o->seed = 12345;
    o->carveout = 100;
    o->level = 1;

#define NUM(name, lo, hi, dst) do { \
        if (cli_parse_range(name, optarg, lo, hi, &v, err, sizeof err) != 0) \
            return usage_error("%s%s", err, ""); \
        dst = v; } while (0)

    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "hq", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case 'q': o->quiet = 1; break;
        case 'k': if (parse_kernels(o, optarg)) return 2; any_kernel = 1; break;
        case 's': NUM("--stride", 1, 1u << 30, o->stride); break;
        case 'r': NUM("--reps", 1, 10000, o->reps); break;
        case 'w': NUM("--warmup", 0, 1000, o->warmup); break;
        case 'S': NUM("--seed", 0, UINT64_MAX, o->seed); break;
        case 'd': NUM("--device", 0, 1024, o->device); break;
        case 'o': o->out_dir = optarg; break;
        case 'L': NUM("--l2-fetch", 0, 128, o->l2_fetch); break;
        case 'c': NUM("--carveout", 0, 100, o->carveout); break;
        case 'z': NUM("--level", 1, 9, o->level); break;
        case 'O': o->list_occupancy = 1; break;
        case '?':
        default:
            if (optopt >= '0' && optopt <= '9')
                return usage_error("negative values are not accepted (%s)%s", argv[optind - 1], "");
            if (optopt) {
                char s[2] = {(char)optopt, 0};
                return usage_error("option '-%s' is unknown or lacks its value%s", s, "");
            }
            return usage_error("unknown option '%s'%s", argv[optind - 1], "");
        }
    }
    /* GNU getopt permutes argv, so options may also follow the positionals. */
    char *pos[3] = {0};
    int np = 0;
    while (optind < argc) {
        if (np == 3) return usage_error("too many arguments (from '%s')%s", argv[optind], "");
        pos[np++] = argv[optind++];
    }
    if (np != 0 && np != 3)
        return usage_error("expected N SMEM WPB (or none of them), got %s argument%s",
                           np == 1 ? "1" : "2", "s");
    if (np == 3) {
        if (cli_parse_count("N", pos[0], 1ull << 36, &o->n, err, sizeof err) != 0)
            return usage_error("%s%s", err, "");
        if (cli_parse_range("SMEM", pos[1], 0, 1u << 30, &v, err, sizeof err) != 0)
            return usage_error("%s%s", err, "");
        o->smem = (uint32_t)v;
        if (cli_parse_range("WPB", pos[2], 1, 32, &v, err, sizeof err) != 0)
            return usage_error("%s%s", err, "");
        o->wpb = (uint32_t)v;
    }
    if (!any_kernel)
        for (int k = 0; k < RO_NVARIANTS; k++) o->run[k] = 1;
    return -1;
#undef NUM
}

/* ------------------------------------------------------------ results */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Mean, median and p95 of the probes' latencies through the statistics
 * module the analysis tools use (exact histograms, numpy's percentile
 * definition), so the run's summary line and bin/latency_stats agree. */
static int summarize_latency(const warp_probe *p, uint64_t n, uint32_t wpb, lat_summary *out)
{
    enum { BATCH = 65536 };
    memset(out, 0, sizeof *out);
    lat_stats *st = lat_stats_new();
    warp_record *buf = malloc(BATCH * sizeof *buf);
    uint32_t sm_ref[WARP_PROBE_MAX_SMS];
    uint8_t sm_seen[WARP_PROBE_MAX_SMS] = {0};
    int rc = st && buf ? 0 : -1;
    for (uint64_t i = 0; rc == 0 && i < n; i += BATCH) {
        uint64_t k = n - i < BATCH ? n - i : BATCH;
        for (uint64_t r = 0; r < k; r++)
            warplog_expand_probe(&p[i + r], i + r, wpb, 0, sm_ref, sm_seen, &buf[r]);
        rc = lat_stats_add(st, buf, (size_t)k);
    }
    if (rc == 0) rc = lat_stats_summary(st, LAT_STATS_ALL, out);
    free(buf);
    lat_stats_free(st);
    return rc;
}

/*
 * The SM clock during the run, from the probes themselves: on each SM, the
 * clock and the global timer of its earliest and latest probe give cycles per
 * nanosecond.  Only SMs whose probes span at least 20 us count (the global
 * timer ticks coarsely); the median over SMs is returned, or 0 if none.
 */
static double measured_clock_MHz(const warp_probe *p, size_t n, uint64_t gt_base)
{
    uint64_t gmin[WARP_PROBE_MAX_SMS], gmax[WARP_PROBE_MAX_SMS];
    uint32_t cmin[WARP_PROBE_MAX_SMS], cmax[WARP_PROBE_MAX_SMS];
    for (unsigned s = 0; s < WARP_PROBE_MAX_SMS; s++) gmin[s] = UINT64_MAX, gmax[s] = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned sm = p[i].lat_smid >> 24;
        uint64_t gt = gt_base + (uint32_t)(p[i].gtimer_lo - (uint32_t)gt_base);
        if (gt < gmin[sm]) gmin[sm] = gt, cmin[sm] = p[i].start_lo;
        if (gt > gmax[sm]) gmax[sm] = gt, cmax[sm] = p[i].start_lo;
    }
    double f[WARP_PROBE_MAX_SMS];
    int nf = 0;
    for (unsigned s = 0; s < WARP_PROBE_MAX_SMS; s++) {
        if (gmin[s] == UINT64_MAX || gmax[s] - gmin[s] < 20000) continue;
        /* the span of one kernel is far below 2^32 cycles: the wrapped
         * difference of the low words is exact */
        uint32_t dclk = cmax[s] - cmin[s];
        f[nf++] = (double)dclk / (double)(gmax[s] - gmin[s]) * 1e3;
    }
    if (nf == 0) return 0;
    qsort(f, (size_t)nf, sizeof *f, cmp_double);
    return nf % 2 ? f[nf / 2] : 0.5 * (f[nf / 2 - 1] + f[nf / 2]);
}

/* The CPU reference: what warp w must have summed. */
static float reference_warp_sum(ro_variant v, uint64_t w, uint64_t items, uint64_t n,
                                uint64_t stride, uint32_t half, uint64_t seed)
{
    float sum = 0;
    for (uint64_t t = w * 32; t < w * 32 + 32; t++) {
        if (t >= items) break;
        switch (v) {
        case RO_BASELINE:
        case RO_NONDIVERGING: sum += ro_value(t); break;
        case RO_RANDOM_ACCESS: sum += ro_value(ro_perm(t, n, half, seed)); break;
        case RO_STRIDED: sum += ro_value((stride * t) % items); break;
        case RO_FLOAT4:
        case RO_STRIDED_FLOAT4: {
            uint64_t e = v == RO_FLOAT4 ? t : (stride * t) % items;
            sum += (ro_value(4 * e) + ro_value(4 * e + 1)) + (ro_value(4 * e + 2) + ro_value(4 * e + 3));
            break;
        }
        default: break;
        }
    }
    return sum;
}

/* Count the warps whose checksum differs from the reference (exact: every
 * value is a small integer, so float sums are exact).  The reference is
 * computed on all host cores: single-threaded it took most of a run's wall
 * time at N = 1e8. */
typedef struct validate_job {
    pthread_t thread;
    ro_variant v;
    const float *got;
    uint64_t w0, w1, items, n, stride, seed;
    uint64_t bad, first_bad;
} validate_job;

static void *validate_range(void *arg)
{
    validate_job *j = arg;
    const uint32_t half = ro_perm_half_bits(j->n);
    j->bad = 0;
    j->first_bad = UINT64_MAX;
    for (uint64_t w = j->w0; w < j->w1; w++) {
        float want = reference_warp_sum(j->v, w, j->items, j->n, j->stride, half, j->seed);
        if (j->got[w] != want) {
            if (j->bad == 0) j->first_bad = w;
            j->bad++;
        }
    }
    return NULL;
}

static uint64_t validate(ro_variant v, const float *got, uint64_t warps, uint64_t items, uint64_t n,
                         uint64_t stride, uint64_t seed, uint64_t *first_bad)
{
    enum { MAXT = 64 };
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = ncpu < 1 ? 1 : ncpu > MAXT ? MAXT : (int)ncpu;
    if (warps < 4096) nt = 1;
    validate_job jobs[MAXT];
    for (int t = 0; t < nt; t++) {
        jobs[t] = (validate_job){.v = v, .got = got, .items = items, .n = n, .stride = stride,
                                 .seed = seed, .w0 = warps * (uint64_t)t / (uint64_t)nt,
                                 .w1 = warps * (uint64_t)(t + 1) / (uint64_t)nt};
        if (t > 0 && pthread_create(&jobs[t].thread, NULL, validate_range, &jobs[t]) != 0)
            validate_range(&jobs[t]), jobs[t].thread = 0;
    }
    validate_range(&jobs[0]);
    uint64_t bad = 0;
    *first_bad = UINT64_MAX;
    for (int t = 0; t < nt; t++) {
        if (t > 0 && jobs[t].thread) pthread_join(jobs[t].thread, NULL);
        bad += jobs[t].bad;
        if (jobs[t].first_bad < *first_bad) *first_bad = jobs[t].first_bad;
    }
    return bad;
}

/* ------------------------------------------------------------ log writing */

typedef struct log_job {
    pthread_t thread;
    int started;
    warplog_header h;
    warp_probe *probes; /* owned; freed by the job */
    char path[1024];
    int level;
    int ok;
    char err[1400];
} log_job;

static void *write_log(void *arg)
{
    log_job *j = arg;
    enum { BATCH = 65536 };
    warp_record *buf = malloc(BATCH * sizeof *buf);
    warplog_writer *w = buf ? warplog_writer_open(j->path, &j->h, j->level, j->err, sizeof j->err)
                            : NULL;
    uint32_t sm_ref[WARP_PROBE_MAX_SMS];
    uint8_t sm_seen[WARP_PROBE_MAX_SMS] = {0};
    if (!buf && !j->err[0]) snprintf(j->err, sizeof j->err, "out of memory writing %s", j->path);
    if (w) {
        int rc = 0;
        for (uint64_t i = 0; rc == 0 && i < j->h.record_count; i += BATCH) {
            uint64_t k = j->h.record_count - i < BATCH ? j->h.record_count - i : BATCH;
            for (uint64_t r = 0; r < k; r++)
                warplog_expand_probe(&j->probes[i + r], i + r, j->h.warps_per_block,
                                     j->h.gtimer_base_ns, sm_ref, sm_seen, &buf[r]);
            rc = warplog_writer_put(w, buf, k, j->err, sizeof j->err);
        }
        if (rc == 0) j->ok = warplog_writer_close(w, j->err, sizeof j->err) == 0;
        else warplog_writer_abort(w);
    }
    free(buf);
    free(j->probes);
    j->probes = NULL;
    return NULL;
}

/* ------------------------------------------------------------ occupancy */

static int check_smem(const options *o, const warplog_header *h)
{
    char err[512];
    if (cli_check_smem(o->smem, h->max_smem_optin_per_block, h->max_smem_per_sm,
                       h->reserved_smem_per_block, h->device_name, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 2;
    }
    return 0;
}

/* For each number of resident blocks b, the smallest SMEM that gives exactly b. */
static int list_occupancy(const options *o, const warplog_header *h)
{
    const int tpb = (int)o->wpb * 32;
    int bmax = 0;
    CUDA_CHECK(ro_configure(RO_BASELINE, h->max_smem_optin_per_block, o->carveout));
    CUDA_CHECK(ro_occupancy(RO_BASELINE, tpb, 0, &bmax));
    printf("# device_name\t%s\n# warps_per_block\t%u\n# max_smem_optin_per_block\t%u\n"
           "# reserved_smem_per_block\t%u\n", h->device_name, o->wpb,
           h->max_smem_optin_per_block, h->reserved_smem_per_block);
    printf("blocks_per_sm\twarps_per_sm\tsmem_bytes\n");
    for (int b = bmax; b >= 1; b--) {
        /* occupancy does not grow with shared memory: binary search the least
         * smem whose occupancy is <= b */
        uint32_t lo = 0, hi = h->max_smem_optin_per_block;
        int occ = 0;
        CUDA_CHECK(ro_occupancy(RO_BASELINE, tpb, hi, &occ));
        if (occ > b) continue;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            CUDA_CHECK(ro_occupancy(RO_BASELINE, tpb, mid, &occ));
            if (occ <= b) hi = mid; else lo = mid + 1;
        }
        CUDA_CHECK(ro_occupancy(RO_BASELINE, tpb, lo, &occ));
        if (occ == b) printf("%d\t%d\t%u\n", b, b * (int)o->wpb, lo);
    }
    return 0;
}

/* --out must be a writable directory, or not exist yet below a writable
 * ancestor (it is created, with its parents, once a GPU is known to be there,
 * so a run that cannot start leaves nothing behind). */
static int out_dir_usable(const char *dir)
{
    struct stat st;
    char path[1024];
    snprintf(path, sizeof path, "%s", dir);
    for (;;) {
        if (stat(path, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                fprintf(stderr, "%s: cannot use --out %s: %s is not a directory\n", PROG, dir, path);
                return -1;
            }
            if (access(path, W_OK | X_OK) != 0) {
                fprintf(stderr, "%s: cannot write to --out %s: %s: %s\n", PROG, dir, path,
                        strerror(errno));
                return -1;
            }
            return 0;
        }
        char *slash = strrchr(path, '/');
        if (!slash) { snprintf(path, sizeof path, "."); continue; }
        if (slash == path) { path[1] = 0; continue; }
        *slash = 0;
    }
}

static int mkdir_p(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) return rc;
    if (WARP_INSTRUMENT && !o.list_occupancy && out_dir_usable(o.out_dir) != 0) return 1;

    char err[512];
    if (devinfo_select(o.device, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    warplog_header base;
    warplog_header_init(&base);
    if (devinfo_fill(o.device, &base, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    if ((rc = check_smem(&o, &base)) != 0) return rc;
    if (base.sm_count > (int)WARP_PROBE_MAX_SMS) {
        fprintf(stderr, "%s: %s has %d SMs; the probe format holds SM ids below %u\n", PROG,
                base.device_name, base.sm_count, WARP_PROBE_MAX_SMS);
        return 1;
    }
    if (o.list_occupancy) return list_occupancy(&o, &base);
    if (WARP_INSTRUMENT && mkdir_p(o.out_dir) != 0) {
        fprintf(stderr, "%s: cannot create --out %s: %s\n", PROG, o.out_dir, strerror(errno));
        return 1;
    }
    if (o.l2_fetch) CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, o.l2_fetch));
    size_t l2_fetch_now = 0;
    CUDA_CHECK(cudaDeviceGetLimit(&l2_fetch_now, cudaLimitMaxL2FetchGranularity));

    const int tpb = (int)o.wpb * 32;
    /* the most warps any variant launches: whole blocks over N threads */
    const uint64_t max_warps = (o.n + (uint64_t)tpb - 1) / (uint64_t)tpb * o.wpb;
    int need_c = 0;
    for (int v = 0; v < RO_NVARIANTS; v++) need_c |= o.run[v] && VARIANTS[v].gather;

    float *d_a = NULL, *d_sum = NULL;
    uint32_t *d_c = NULL;
    warp_probe *d_probes = NULL;
    CUDA_CHECK(cudaMalloc((void **)&d_a, o.n * sizeof(float)));
    if (need_c) CUDA_CHECK(cudaMalloc((void **)&d_c, o.n * sizeof(uint32_t)));
    /* the instrumented kernels return each warp's checksum inside its probe */
    if (WARP_INSTRUMENT) CUDA_CHECK(cudaMalloc((void **)&d_probes, max_warps * sizeof(warp_probe)));
    else CUDA_CHECK(cudaMalloc((void **)&d_sum, max_warps * sizeof(float)));
    float *h_sum = malloc(max_warps * sizeof(float));
    if (!h_sum) { fprintf(stderr, "%s: out of host memory\n", PROG); return 1; }
    CUDA_CHECK(ro_init_a(d_a, o.n, 0));
    CUDA_CHECK(cudaDeviceSynchronize());

    cudaEvent_t ev0, ev1;
    CUDA_CHECK(cudaEventCreate(&ev0));
    CUDA_CHECK(cudaEventCreate(&ev1));
    float *times_ms = malloc(o.reps * sizeof(float));
    double *sorted_ms = malloc(o.reps * sizeof(double));
    log_job jobs[RO_NVARIANTS];
    memset(jobs, 0, sizeof jobs);

    printf("# device\t%s (sm_%d%d, %d SMs, L2 %u KiB)\n", base.device_name, base.cc_major,
           base.cc_minor, base.sm_count, base.l2_bytes >> 10);
    printf("# peak_dram_GBps\t%.1f (memory clock %u MHz x %u-bit bus x 2)\n", base.peak_dram_GBps,
           base.mem_clock_khz / 1000, base.bus_width_bits);
    printf("# sm_clock_nominal_MHz\t%u\n", base.sm_clock_nominal_khz / 1000);
    printf("# build\t%s (%s), toolkit %s\n", PROG,
           WARP_INSTRUMENT ? "instrumented" : "uninstrumented", WARPLOG_TOOLKIT_VERSION);
    printf("# l2_fetch_granularity_bytes\t%zu\n", l2_fetch_now);
    printf("kernel\tn\tsmem_bytes\twarps_per_block\tblocks_per_sm\tkernel_ms\tkernel_ms_min\t"
           "kernel_ms_max\tbw_GBps\tpct_peak\tsm_clock_MHz\tlat_mean_cycles\tlat_p50_cycles\t"
           "lat_p95_cycles\tvalid\tlog\n");
    fflush(stdout);

    int failures = 0;
    int c_state = -1; /* 0 identity, 1 random */
    for (int vi = 0; vi < RO_NVARIANTS; vi++) {
        if (!o.run[vi]) continue;
        const ro_variant v = (ro_variant)vi;
        const variant_info *vin = &VARIANTS[v];
        const uint64_t items = vin->vec4 ? o.n / 4 : o.n;
        if (items == 0) {
            fprintf(stderr, "%s: %s skipped: N=%llu is less than 4 floats\n", PROG, vin->name,
                    (unsigned long long)o.n);
            continue;
        }
        const uint64_t blocks = (items + (uint64_t)tpb - 1) / (uint64_t)tpb;
        const uint64_t warps = blocks * o.wpb;
        if (blocks > 0x7fffffffull) {
            fprintf(stderr, "%s: N=%llu needs %llu blocks, more than a grid holds\n", PROG,
                    (unsigned long long)o.n, (unsigned long long)blocks);
            return 2;
        }
        if (vin->gather && c_state != (v == RO_RANDOM_ACCESS)) {
            c_state = v == RO_RANDOM_ACCESS;
            CUDA_CHECK(ro_init_c(d_c, o.n, c_state, o.seed, 0));
            CUDA_CHECK(cudaDeviceSynchronize());
        }
        CUDA_CHECK(ro_configure(v, o.smem, o.carveout));
        int bps = 0;
        CUDA_CHECK(ro_occupancy(v, tpb, o.smem, &bps));
        if (bps <= 0) {
            fprintf(stderr, "%s: no block of %d threads with %u bytes of shared memory fits on "
                    "an SM of %s\n", PROG, tpb, o.smem, base.device_name);
            return 2;
        }
        ro_args args = {d_a, d_c, o.n, items, vin->strided ? o.stride : 1, d_sum, d_probes};
        if (!o.quiet)
            fprintf(stderr, "%s: %-15s %llu blocks x %d threads, %d blocks/SM, %u+%u reps\n", PROG,
                    vin->name, (unsigned long long)blocks, tpb, bps, o.warmup, o.reps);
        for (uint32_t r = 0; r < o.warmup; r++)
            CUDA_CHECK(ro_launch(v, blocks, tpb, o.smem, &args, 0));
        /* poison: NaN checksums, so a warp that wrote nothing fails validation */
        if (WARP_INSTRUMENT) CUDA_CHECK(cudaMemset(d_probes, 0xff, warps * sizeof(warp_probe)));
        else CUDA_CHECK(cudaMemset(d_sum, 0xff, warps * sizeof(float)));
        uint64_t gt_base = 0;
        if (WARP_INSTRUMENT) CUDA_CHECK(ro_globaltimer(&gt_base));
        for (uint32_t r = 0; r < o.reps; r++) {
            CUDA_CHECK(cudaEventRecord(ev0, 0));
            CUDA_CHECK(ro_launch(v, blocks, tpb, o.smem, &args, 0));
            CUDA_CHECK(cudaEventRecord(ev1, 0));
            CUDA_CHECK(cudaEventSynchronize(ev1));
            CUDA_CHECK(cudaEventElapsedTime(&times_ms[r], ev0, ev1));
        }
        for (uint32_t r = 0; r < o.reps; r++) sorted_ms[r] = times_ms[r];
        qsort(sorted_ms, o.reps, sizeof *sorted_ms, cmp_double);
        const double ms = o.reps % 2 ? sorted_ms[o.reps / 2]
                                     : 0.5 * (sorted_ms[o.reps / 2 - 1] + sorted_ms[o.reps / 2]);
        const double useful = (double)items * vin->elem_bytes + (vin->gather ? 4.0 * (double)items : 0);
        const double bw = useful / (ms * 1e-3) / 1e9;

        warp_probe *h_probes = NULL;
        if (WARP_INSTRUMENT) {
            h_probes = malloc(warps * sizeof *h_probes);
            if (!h_probes) { fprintf(stderr, "%s: out of host memory\n", PROG); return 1; }
            CUDA_CHECK(cudaMemcpy(h_probes, d_probes, warps * sizeof *h_probes,
                                  cudaMemcpyDeviceToHost));
            for (uint64_t w = 0; w < warps; w++) h_sum[w] = h_probes[w].checksum;
        } else {
            CUDA_CHECK(cudaMemcpy(h_sum, d_sum, warps * sizeof(float), cudaMemcpyDeviceToHost));
        }
        uint64_t first_bad;
        uint64_t bad = validate(v, h_sum, warps, items, o.n, o.stride, o.seed, &first_bad);
        if (bad) {
            fprintf(stderr, "%s: %s FAILED validation: %llu of %llu warps disagree with the CPU "
                    "reference (first: warp %llu); no log written\n", PROG, vin->name,
                    (unsigned long long)bad, (unsigned long long)warps,
                    (unsigned long long)first_bad);
            failures++;
        }

        lat_summary ls;
        memset(&ls, 0, sizeof ls);
        double clk = 0;
        const char *logname = "-";
        if (WARP_INSTRUMENT) {
            if (summarize_latency(h_probes, warps, o.wpb, &ls) != 0) {
                fprintf(stderr, "%s: out of host memory\n", PROG);
                return 1;
            }
            clk = measured_clock_MHz(h_probes, warps, gt_base);
            log_job *j = &jobs[v];
            j->h = base;
            warplog_header *h = &j->h;
            snprintf(h->experiment, sizeof h->experiment, "readonly");
            snprintf(h->kernel, sizeof h->kernel, "%s", vin->name);
            h->record_count = warps;
            h->n_elems = o.n;
            h->blocks = blocks;
            h->seed = v == RO_RANDOM_ACCESS ? o.seed : 0;
            h->elem_bytes = vin->elem_bytes;
            h->smem_bytes = o.smem;
            h->warps_per_block = o.wpb;
            h->threads_per_block = (uint32_t)tpb;
            h->blocks_per_sm = (uint32_t)bps;
            h->bytes_per_warp_load = 32 * vin->elem_bytes + (vin->gather ? 128 : 0);
            h->stride = vin->strided ? (uint32_t)o.stride : 1;
            h->carveout_pct = o.carveout;
            h->l2_fetch_bytes = (uint32_t)l2_fetch_now;
            h->reps = o.reps;
            h->loads_per_warp = vin->gather ? 2 : 1;
            h->sm_clock_measured_MHz = clk;
            h->kernel_ms = ms;
            h->kernel_ms_min = sorted_ms[0];
            h->kernel_ms_max = sorted_ms[o.reps - 1];
            h->useful_bytes = useful;
            h->bw_GBps = bw;
            h->gtimer_base_ns = gt_base;
            if (!bad) {
                snprintf(j->path, sizeof j->path, "%s/readonly_%s_%u.bin", o.out_dir, vin->name, o.wpb);
                j->probes = h_probes;
                j->level = o.level;
                if (pthread_create(&j->thread, NULL, write_log, j) != 0) {
                    write_log(j); /* no thread: write it here */
                } else {
                    j->started = 1;
                }
                logname = j->path;
            } else {
                free(h_probes);
            }
        }
        printf("%s\t%llu\t%u\t%u\t%d\t%.4f\t%.4f\t%.4f\t%.1f\t%.1f\t%.0f\t%.1f\t%.1f\t%.1f\t%s\t%s\n",
               vin->name, (unsigned long long)o.n, o.smem, o.wpb, bps, ms, sorted_ms[0],
               sorted_ms[o.reps - 1], bw, 100.0 * bw / base.peak_dram_GBps, clk, ls.mean_cycles, ls.p50_cycles,
               ls.p95_cycles, bad ? "FAIL" : "ok", logname);
        fflush(stdout);
    }
    for (int v = 0; v < RO_NVARIANTS; v++) {
        if (jobs[v].started) pthread_join(jobs[v].thread, NULL);
        if (jobs[v].path[0] && !jobs[v].ok) {
            fprintf(stderr, "%s: %s\n", PROG, jobs[v].err);
            failures++;
        }
    }
    free(times_ms);
    free(sorted_ms);
    free(h_sum);
    cudaFree(d_a);
    cudaFree(d_c);
    cudaFree(d_sum);
    cudaFree(d_probes);
    return failures ? 1 : 0;
}
