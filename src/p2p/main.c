/*
 * p2p.c - one GPU reading another's memory (peer to peer): bandwidth and
 * latency, the number nvbandwidth users look for (kernels: src/p2p/
 * p2p.cu; the chase: src/ladder/latency.cu, the latency ladder's).
 *
 * For every ordered pair of GPUs (reader, owner) that CUDA lets access each
 * other (cudaDeviceCanAccessPeer), with the source buffer in the owner's
 * memory and the kernels on the reader:
 *
 *   read         a readonly-style coalesced read (16-byte loads, grid-stride)
 *   copy         a copy kernel: source on the owner, destination on the reader
 *   memcpy_peer  cudaMemcpyPeerAsync of the same bytes (the copy engines)
 *   latency      one thread chasing pointers through a random cycle in the
 *                owner's memory (latency_chase, L1 bypassed): cycles per
 *                load by clock64 on one SM, ns with the SM clock measured in
 *                the same launch (%clock64 against %globaltimer)
 *
 * and, with --local (default), the same on each reader's own memory, the
 * figure a peer's is read against.  Bandwidth: CUDA events around each
 * launch, warm-up launches first, the median of --reps launches with their
 * min and max; bytes / time, where a copy's bytes are those it moves once
 * (read from the owner; it writes as many on the reader).  Each kernel is
 * validated in a launch of its own, untimed, against the host's reference
 * (P2P_WORD); the chase's end against the host's walk of its permutation.
 *
 * The table (TSV, '#' metadata first) goes to stdout or --out FILE, through
 * outfile (whole or not at all).  Exit status: 0 measured; 77 nothing to
 * measure (one GPU, or no pair with peer access: the table says why); 1 a
 * runtime failure or a failed validation; 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime_api.h>

#include "cli.h"
#include "devinfo.h"
#include "engine.h"
#include "outfile.h"
#include "stats.h"
#include "cycle.h"
#include "ladder/latency.h"
#include "p2p/p2p.h"

#define PROG "p2p"
#define MAX_DEV 64
#define MAX_REPS 101
#define SPACING 128u          /* bytes between chased lines: one line each */
#define LAT_LOADS 2048u       /* timed loads per repetition (a multiple of 8) */
#define LAT_WARMUP (1u << 16) /* untimed loads first (TLB, the owner's L2) */

static struct {
    uint64_t bytes, reps, lat_bytes, reader, owner, seed;
    int quick, no_local, reader_given, owner_given, bytes_given, reps_given, lat_given;
    const char *out;
} A = {256ull << 20, 9, 1ull << 30, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, NULL};

static const cli_opt OPTS[] = {
    {"--reader", 0, CLI_U64, 0, MAX_DEV - 1, 0, 0, &A.reader, "R", "only pairs with this reader (default: every GPU)", 0,
     &A.reader_given},
    {"--owner", 0, CLI_U64, 0, MAX_DEV - 1, 0, 0, &A.owner, "O", "only pairs with this owner of the memory read", 0,
     &A.owner_given},
    {"--bytes", 0, CLI_COUNT, 0, 16ull << 30, 0, 0, &A.bytes, "N",
     "bytes read or copied per launch (default 256M; a multiple of 16)", 0, &A.bytes_given},
    {"--reps", 0, CLI_U64, 3, MAX_REPS, 0, 0, &A.reps, "R", "timed launches per figure (default 9, --quick 5)", 0,
     &A.reps_given},
    {"--lat-bytes", 0, CLI_COUNT, 0, 16ull << 30, 0, 0, &A.lat_bytes, "N",
     "working set of the chase (default 1G, --quick 256M; at least 1M)", 0, &A.lat_given},
    {"--seed", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &A.seed, "S", "the chase's permutation (default 1)", 0, 0},
    CLI_FLAG_OPT("--quick", &A.quick, "64M per launch, 5 launches, a 256M chase"),
    CLI_FLAG_OPT("--no-local", &A.no_local, "leave out the rows of each reader's own memory"),
    CLI_STRING_OPT("--out", &A.out, "FILE", "write the table there (default: stdout)"),
    CLI_END,
};

static void usage(FILE *f, const cli_opt *opts)
{
    fprintf(f, "usage: " PROG " [--reader R] [--owner O] [--bytes N] [--reps R] [--quick] [--out FILE]\n"
               "\n"
               "One GPU reading another's memory through peer access (NVLink or PCIe), for every\n"
               "ordered pair of GPUs that cudaDeviceCanAccessPeer allows: a coalesced read and a\n"
               "copy with the source on the owner (bandwidth: CUDA events, median with min and\n"
               "max of R launches after warm-up, each kernel validated against a CPU reference\n"
               "in a launch of its own), cudaMemcpyPeer, and a pointer-chase latency (cycles by\n"
               "clock64 on one SM, ns with the SM clock measured in the same launch).\n"
               "\n");
    cli_print_options(f, opts);
    fprintf(f, "\nColumns: reader owner path op bytes reps ms ms_min ms_max bw_GBps bw_min_GBps\n"
               "bw_max_GBps lat_cycles lat_cycles_min lat_cycles_max lat_ns sm_clock_MHz valid status.\n"
               "Exit status: 0 measured, 77 nothing to measure (one GPU, or no peer access: the\n"
               "table says why), 1 runtime failure or failed validation, 2 usage.\n");
}

/* One row of the table. */
typedef struct row {
    int reader, owner;
    const char *op;
    double bytes, reps, ms, ms_min, ms_max, lat, lat_min, lat_max, lat_ns, mhz;
    const char *valid;
    char status[200];
} row;

static row *ROWS;
static size_t NROWS, CAPROWS;
static int FAILED;

static row *add_row(int reader, int owner, const char *op)
{
    if (NROWS == CAPROWS) {
        CAPROWS = CAPROWS ? 2 * CAPROWS : 32;
        ROWS = realloc(ROWS, CAPROWS * sizeof *ROWS);
        if (!ROWS) { fprintf(stderr, PROG ": out of memory\n"); exit(1); }
    }
    row *r = &ROWS[NROWS++];
    memset(r, 0, sizeof *r);
    r->reader = reader, r->owner = owner, r->op = op;
    r->bytes = r->reps = r->ms = r->ms_min = r->ms_max = NAN;
    r->lat = r->lat_min = r->lat_max = r->lat_ns = r->mhz = NAN;
    r->valid = "-";
    snprintf(r->status, sizeof r->status, "ok");
    return r;
}

/* ------------------------------------------------------------ bandwidth */

typedef struct bufs {
    void *src;                 /* on the owner, P2P_WORD pattern */
    void *dst;                 /* on the reader (copies) */
    unsigned long long *sum;   /* on the reader */
    uint64_t bytes;
    unsigned blocks, threads;
    cudaStream_t st;
    cudaEvent_t e0, e1;
    int reader, owner;
} bufs;

enum { OP_READ, OP_COPY, OP_MEMCPY };
static const char *const OP_NAME[] = {"read", "copy", "memcpy_peer"};

static void launch(const bufs *b, int op)
{
    const uint64_t n16 = b->bytes / 16;
    if (op == OP_READ) p2p_read(b->src, n16, b->sum, b->blocks, b->threads, b->st);
    else if (op == OP_COPY) p2p_copy(b->dst, b->src, n16, b->blocks, b->threads, b->st);
    else ENG_CUDA(cudaMemcpyPeerAsync(b->dst, b->reader, b->src, b->owner, b->bytes, b->st));
}

/* The launch of op checked against the host: the read's sum of every word,
 * a copy's every word.  "ok" or "FAIL". */
static const char *validate(const bufs *b, int op, uint32_t *host, unsigned long long want_sum)
{
    const uint64_t n32 = b->bytes / 4;
    if (op == OP_READ) {
        unsigned long long got = 0;
        ENG_CUDA(cudaMemsetAsync(b->sum, 0, sizeof *b->sum, b->st));
        launch(b, op);
        ENG_CUDA(cudaMemcpyAsync(&got, b->sum, sizeof got, cudaMemcpyDeviceToHost, b->st));
        ENG_CUDA(cudaStreamSynchronize(b->st));
        return got == want_sum ? "ok" : "FAIL";
    }
    ENG_CUDA(cudaMemsetAsync(b->dst, 0, b->bytes, b->st));
    launch(b, op);
    ENG_CUDA(cudaMemcpyAsync(host, b->dst, b->bytes, cudaMemcpyDeviceToHost, b->st));
    ENG_CUDA(cudaStreamSynchronize(b->st));
    for (uint64_t i = 0; i < n32; i++)
        if (host[i] != P2P_WORD(i)) return "FAIL";
    return "ok";
}

/* Validate, warm up, time --reps launches; the row of op. */
static void bandwidth(const bufs *b, int op, uint32_t *host, unsigned long long want_sum)
{
    row *r = add_row(b->reader, b->owner, OP_NAME[op]);
    r->bytes = (double)b->bytes;
    r->valid = validate(b, op, host, want_sum);
    if (strcmp(r->valid, "ok") != 0) {
        FAILED = 1;
        snprintf(r->status, sizeof r->status, "failed: the %s does not match the host's reference", OP_NAME[op]);
    }
    for (int w = 0; w < 2; w++) launch(b, op);
    double ms[MAX_REPS];
    for (uint64_t k = 0; k < A.reps; k++) {
        ENG_CUDA(cudaEventRecord(b->e0, b->st));
        launch(b, op);
        ENG_CUDA(cudaEventRecord(b->e1, b->st));
        ENG_CUDA(cudaEventSynchronize(b->e1));
        float t = 0;
        ENG_CUDA(cudaEventElapsedTime(&t, b->e0, b->e1));
        ms[k] = t;
    }
    r->reps = (double)A.reps;
    r->ms_min = r->ms_max = ms[0];
    for (uint64_t k = 1; k < A.reps; k++) {
        if (ms[k] < r->ms_min) r->ms_min = ms[k];
        if (ms[k] > r->ms_max) r->ms_max = ms[k];
    }
    r->ms = stats_median_inplace(ms, (size_t)A.reps);
}

/* ------------------------------------------------------------ latency */

/* The chase through lines of the owner's memory, run by the reader. */
static void latency(int reader, int owner, void *chain, const uint32_t *succ, uint64_t lines, cudaStream_t st)
{
    row *r = add_row(reader, owner, "latency");
    r->bytes = (double)lines * SPACING;
    const uint32_t reps = A.quick ? 5u : 9u;
    const uint64_t warm = lines < LAT_WARMUP ? lines : LAT_WARMUP;
    latency_result *d_out = NULL, res;
    ENG_CUDA(cudaSetDevice(reader));
    ENG_CUDA(cudaStreamSynchronize(st));
    ENG_CUDA(cudaMalloc((void **)&d_out, sizeof *d_out));
    latency_chase(LATENCY_LOAD_CG, 1, chain, 0, SPACING, warm, LAT_LOADS, reps, d_out);
    ENG_CUDA(cudaMemcpy(&res, d_out, sizeof res, cudaMemcpyDeviceToHost));
    ENG_CUDA(cudaFree(d_out));
    /* the host's walk: where the chase must have ended */
    uint64_t at = 0;
    for (uint64_t k = 0; k < warm + (uint64_t)reps * LAT_LOADS; k++) at = succ[at];
    r->valid = res.final_offset_bytes == at * SPACING ? "ok" : "FAIL";
    if (strcmp(r->valid, "ok") != 0) {
        FAILED = 1;
        snprintf(r->status, sizeof r->status, "failed: the chase ended at byte %llu, the host's walk at %llu",
                 (unsigned long long)res.final_offset_bytes, (unsigned long long)(at * SPACING));
    }
    double c[LATENCY_MAX_REPS];
    for (uint32_t k = 0; k < reps; k++) c[k] = (double)res.cycles[k] / LAT_LOADS;
    r->reps = reps;
    r->lat_min = r->lat_max = c[0];
    for (uint32_t k = 1; k < reps; k++) {
        if (c[k] < r->lat_min) r->lat_min = c[k];
        if (c[k] > r->lat_max) r->lat_max = c[k];
    }
    r->lat = stats_median_inplace(c, reps);
    const double dt = (double)(res.gtimer_end_ns - res.gtimer_begin_ns);
    r->mhz = dt > 0 ? (double)(res.clk_end - res.clk_begin) * 1e3 / dt : NAN;
    r->lat_ns = r->lat / r->mhz * 1e3;
}

/* The chain in the owner's memory: a pseudo-random cycle through every one
 * of its lines (cycle.h, as the ladder's), expanded into addresses on the
 * owner (latency_build_chain). */
static void *build_chain(int owner, uint32_t *succ, uint64_t lines)
{
    cycle cy;
    cycle_init(&cy, lines, A.seed * 0x9E3779B97F4A7C15ull + 1);
    cycle_succ_range(&cy, succ, 0, lines);
    void *chain = NULL;
    uint32_t *d_succ = NULL;
    ENG_CUDA(cudaSetDevice(owner));
    ENG_CUDA(cudaMalloc(&chain, lines * SPACING));
    ENG_CUDA(cudaMalloc((void **)&d_succ, lines * sizeof *d_succ));
    ENG_CUDA(cudaMemcpy(d_succ, succ, lines * sizeof *d_succ, cudaMemcpyHostToDevice));
    latency_build_chain(chain, d_succ, lines, SPACING);
    ENG_CUDA(cudaDeviceSynchronize());
    ENG_CUDA(cudaFree(d_succ));
    return chain;
}

/* ------------------------------------------------------------ one pair */

/* Everything of one (reader, owner) pair: owner == reader is the local row. */
static void measure_pair(int reader, int owner, uint32_t *host, unsigned long long want_sum, void *chain,
                         const uint32_t *succ, uint64_t lines)
{
    bufs b;
    memset(&b, 0, sizeof b);
    b.reader = reader, b.owner = owner, b.bytes = A.bytes;
    ENG_CUDA(cudaSetDevice(owner));
    ENG_CUDA(cudaMalloc(&b.src, b.bytes));
    p2p_fill((uint32_t *)b.src, b.bytes / 4, NULL);
    ENG_CUDA(cudaDeviceSynchronize());
    ENG_CUDA(cudaSetDevice(reader));
    if (owner != reader) {
        const cudaError_t e = cudaDeviceEnablePeerAccess(owner, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
        else ENG_CUDA(e);
    }
    int sms = 0;
    ENG_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, reader));
    b.threads = 256, b.blocks = (unsigned)(sms > 0 ? sms : 1) * 8;
    ENG_CUDA(cudaMalloc(&b.dst, b.bytes));
    ENG_CUDA(cudaMalloc((void **)&b.sum, sizeof *b.sum));
    ENG_CUDA(cudaStreamCreateWithFlags(&b.st, cudaStreamNonBlocking));
    ENG_CUDA(cudaEventCreate(&b.e0));
    ENG_CUDA(cudaEventCreate(&b.e1));
    bandwidth(&b, OP_READ, host, want_sum);
    bandwidth(&b, OP_COPY, host, want_sum);
    if (owner != reader) bandwidth(&b, OP_MEMCPY, host, want_sum);
    latency(reader, owner, chain, succ, lines, b.st);
    ENG_CUDA(cudaSetDevice(reader));
    ENG_CUDA(cudaEventDestroy(b.e0));
    ENG_CUDA(cudaEventDestroy(b.e1));
    ENG_CUDA(cudaStreamDestroy(b.st));
    ENG_CUDA(cudaFree(b.dst));
    ENG_CUDA(cudaFree(b.sum));
    ENG_CUDA(cudaSetDevice(owner));
    ENG_CUDA(cudaFree(b.src));
    fprintf(stderr, PROG ": GPU %d reading GPU %d's memory: done\n", reader, owner);
}

/* ------------------------------------------------------------ the table */

static void put(FILE *f, const char *fmt, double v)
{
    fputc('\t', f);
    if (isfinite(v)) fprintf(f, fmt, v);
    else fputs("nan", f);
}

static void write_table(FILE *f, int ndev, const char *skipped)
{
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "# p2p: one GPU reading another's memory (peer to peer); path peer or local (the reader's own)\n");
    fprintf(f, "# date\t%s\n# gpus\t%d\n", date, ndev);
    for (int d = 0; d < ndev; d++) {
        char name[256] = "?";
        struct cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, d) == cudaSuccess) snprintf(name, sizeof name, "%s", p.name);
        fprintf(f, "# device_%d\t%s\n", d, name);
    }
    fprintf(f, "# bw_GBps\tbytes / the launch's time (CUDA events), median of reps launches; a copy's bytes are "
               "those read from the owner (it writes as many on the reader)\n");
    fprintf(f, "# lat_cycles\tcycles per dependent load (clock64, one thread on one SM, L1 bypassed), median of "
               "reps repetitions of %u loads; lat_ns with sm_clock_MHz measured in the same launch\n", LAT_LOADS);
    if (skipped) fprintf(f, "# skipped\t%s\n", skipped);
    fprintf(f, "reader\towner\tpath\top\tbytes\treps\tms\tms_min\tms_max\tbw_GBps\tbw_min_GBps\tbw_max_GBps\t"
               "lat_cycles\tlat_cycles_min\tlat_cycles_max\tlat_ns\tsm_clock_MHz\tvalid\tstatus\n");
    for (size_t i = 0; i < NROWS; i++) {
        const row *r = &ROWS[i];
        fprintf(f, "%d\t%d\t%s\t%s", r->reader, r->owner, r->reader == r->owner ? "local" : "peer", r->op);
        put(f, "%.0f", r->bytes);
        put(f, "%.0f", r->reps);
        put(f, "%.4f", r->ms);
        put(f, "%.4f", r->ms_min);
        put(f, "%.4f", r->ms_max);
        put(f, "%.1f", r->bytes / r->ms / 1e6);
        put(f, "%.1f", r->bytes / r->ms_max / 1e6);
        put(f, "%.1f", r->bytes / r->ms_min / 1e6);
        put(f, "%.1f", r->lat);
        put(f, "%.1f", r->lat_min);
        put(f, "%.1f", r->lat_max);
        put(f, "%.1f", r->lat_ns);
        put(f, "%.0f", r->mhz);
        fprintf(f, "\t%s\t%s\n", r->valid, r->status);
    }
}

/* stdout or --out, whole or not at all.  0, or 1. */
static int emit(int ndev, const char *skipped)
{
    if (!A.out) {
        write_table(stdout, ndev, skipped);
        return outfile_check_stdout(PROG);
    }
    outfile o;
    char err[1024];
    FILE *f = outfile_open(&o, A.out, "w", err, sizeof err);
    if (!f) { fprintf(stderr, PROG ": %s\n", err); return 1; }
    write_table(f, ndev, skipped);
    if (outfile_commit(&o, err, sizeof err) != 0) { fprintf(stderr, PROG ": %s\n", err); return 1; }
    return 0;
}

/* The pairs to measure, or the reason there are none (a row each). */
static int plan(int ndev, int *rd, int *ow, int *npairs)
{
    int n = 0, refused = 0;
    for (int r = 0; r < ndev; r++)
        for (int o = 0; o < ndev; o++) {
            if (r == o || (A.reader_given && r != (int)A.reader) || (A.owner_given && o != (int)A.owner)) continue;
            int can = 0;
            ENG_CUDA(cudaDeviceCanAccessPeer(&can, r, o));
            if (!can) {
                row *x = add_row(r, o, "-");
                snprintf(x->status, sizeof x->status,
                         "skipped: cudaDeviceCanAccessPeer(%d, %d) is 0: no peer path between them", r, o);
                refused++;
                continue;
            }
            rd[n] = r, ow[n] = o, n++;
        }
    *npairs = n;
    return refused;
}

int main(int argc, char **argv)
{
    cli_parse_result pr;
    const int prc = cli_tool_parse(PROG, argc, argv, OPTS, 0, usage, &pr);
    if (prc >= 0) return prc;
    if (A.quick) {
        if (!A.bytes_given) A.bytes = 64ull << 20;
        if (!A.reps_given) A.reps = 5;
        if (!A.lat_given) A.lat_bytes = 256ull << 20;
    }
    if (A.reader_given && A.owner_given && A.reader == A.owner)
        return cli_usage_error(PROG, "--reader and --owner name one GPU (%llu): a peer is another GPU",
                               (unsigned long long)A.reader);
    if (A.bytes % 16) return cli_usage_error(PROG, "--bytes must be a multiple of 16 (got %llu)", (unsigned long long)A.bytes);
    if (A.lat_bytes < (1ull << 20) || A.lat_bytes / SPACING > UINT32_MAX)
        return cli_usage_error(PROG, "--lat-bytes must be between 1M and %lluG", (unsigned long long)UINT32_MAX / (1u << 23));
    int ndev = 0;
    const cudaError_t e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        char err[512];
        devinfo_no_gpu(e, err, sizeof err);
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    if ((A.reader_given && (int)A.reader >= ndev) || (A.owner_given && (int)A.owner >= ndev))
        return cli_usage_error(PROG, "--%s %llu: this machine has %d CUDA device%s", A.reader_given && (int)A.reader >= ndev ?
                               "reader" : "owner", A.reader_given && (int)A.reader >= ndev ? (unsigned long long)A.reader :
                               (unsigned long long)A.owner, ndev, ndev == 1 ? "" : "s");
    if (ndev > MAX_DEV) ndev = MAX_DEV;
    if (ndev < 2) {
        fprintf(stderr, PROG ": skipped: one GPU, no peer to read from\n");
        const int rc = emit(ndev, "one GPU: no peer to read from");
        return rc ? rc : 77;
    }
    int rd[MAX_DEV * MAX_DEV], ow[MAX_DEV * MAX_DEV], np = 0;
    plan(ndev, rd, ow, &np);
    if (np == 0) {
        fprintf(stderr, PROG ": skipped: no pair of these GPUs can access each other's memory\n");
        const int rc = emit(ndev, "no pair of GPUs with peer access (cudaDeviceCanAccessPeer)");
        return rc ? rc : 77;
    }
    const uint64_t n32 = A.bytes / 4, lines = A.lat_bytes / SPACING;
    uint32_t *host = malloc(A.bytes), *succ = malloc(lines * sizeof *succ);
    if (!host || !succ) { fprintf(stderr, PROG ": out of host memory\n"); return 1; }
    unsigned long long want = 0;
    for (uint64_t i = 0; i < n32; i++) want += P2P_WORD(i);
    /* one chain per owner, built when first needed (the same seed: one
     * permutation, so succ checks every chase); then each reader's own memory */
    void *chain[MAX_DEV] = {0};
    int reader_seen[MAX_DEV] = {0};
    for (int i = 0; i < np; i++) {
        if (!chain[ow[i]]) chain[ow[i]] = build_chain(ow[i], succ, lines);
        measure_pair(rd[i], ow[i], host, want, chain[ow[i]], succ, lines);
        reader_seen[rd[i]] = 1;
    }
    for (int d = 0; d < ndev && !A.no_local; d++) {
        if (!reader_seen[d]) continue;
        if (!chain[d]) chain[d] = build_chain(d, succ, lines);
        measure_pair(d, d, host, want, chain[d], succ, lines);
    }
    for (int d = 0; d < ndev; d++)
        if (chain[d]) {
            ENG_CUDA(cudaSetDevice(d));
            ENG_CUDA(cudaFree(chain[d]));
        }
    free(host);
    free(succ);
    const int rc = emit(ndev, NULL);
    return rc ? rc : FAILED;
}
