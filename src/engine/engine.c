/*
 * engine.c - the experiment engine (contract: engine.h).
 *
 * Plain C11 against the CUDA runtime API.  Kernels are reached only through
 * the family's hooks; the engine itself launches nothing but what those
 * hooks launch, and sets kernel attributes through the function pointers the
 * family hands out.
 *
 * Order of work for every variant (and configuration) of a run:
 *   1. prepare its inputs; set SMEM opt-in and carveout on its three kernels;
 *      resident blocks per SM from the occupancy API, for the clean twin and
 *      the probe kernel (a probe kernel that fits fewer blocks would record
 *      another occupancy: the run says so);
 *   2. validate: poison, one CHECK launch, compare with the CPU reference;
 *      a variant that fails is reported and gets no timing and no log;
 *   3. warm up both kernels, then time them interleaved (clean, probe, clean,
 *      probe, ...) so that both medians see the same clocks and temperature;
 *      with --sample auto, K doubles from 1 until the measured overhead is at
 *      most --max-overhead, and the K found is measured once more: the
 *      figures reported are that fresh measurement, not the one that chose K;
 *   4. copy the probes back, check every sampled warp wrote its probe,
 *      summarise the latencies, measure the SM clock, and hand the probes to
 *      a writer thread while the GPU goes on with the next variant.
 */
#define _POSIX_C_SOURCE 200809L
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "devinfo.h"
#include "littles.h"
#include "logjob.h"
#include "names.h"
#include "outfile.h"
#include "plateau.h"
#include "probeset.h"
#include "stats.h"

/* ------------------------------------------------------------ options */

static struct common_opts {
    const char *kernels;
    int list_kernels, list_probed, list_occupancy, sweep, no_probes, quiet, device_info, list_positional;
    uint64_t reps, warmup, device, l2_fetch, carveout, level, seed;
    const char *out_dir, *sample, *ladder, *table, *devices;
    double max_overhead, ceiling;
    uint64_t min_records, configs_max;
    cli_list points;
    int seed_given;
    int sample_mode_overhead, carveout_given;
    uint64_t wpb_opt, smem_opt, n_opt;
    int wpb_given, smem_given, n_given;
} O;

static const cli_opt COMMON[] = {
    {"--kernel", 0, CLI_STRING, 0, 0, 0, 0, &O.kernels, "K[,K]",
     "run only these variants (see --list-kernels; default: all)", 0, 0},
    {"--list-positional", 0, CLI_FLAG, 0, 0, 0, 0, &O.list_positional, 0,
     "print the positional arguments' names, one per line, and exit", 0, 0},
    {"--list-kernels", 0, CLI_FLAG, 0, 0, 0, 0, &O.list_kernels, 0,
     "print the variants, one per line (name, what it does), and exit", 0, 0},
    {"--list-probed", 0, CLI_FLAG, 0, 0, 0, 0, &O.list_probed, 0,
     "print the variants that have an instrumented kernel (per-warp probes and\n"
     "a log), one per line, and exit; none: the family measures throughput only", 0, 0},
    {"--reps", 0, CLI_U64, 1, 10000, 0, 0, &O.reps, "R",
     "timed launches of each kernel (default 10); medians are reported", 0, 0},
    {"--warmup", 0, CLI_U64, 0, 1000, 0, 0, &O.warmup, "W", "untimed launches first (default 2)", 0, 0},
    {"--sample", 0, CLI_STRING, 0, 0, 0, 0, &O.sample, "K|auto|overhead",
     "record the warps of one block in K (K a power of two; 1 = all).  auto\n"
     "(default): the sparsest K that still records --min-records warps and 2\n"
     "blocks per SM, made sparser while the overhead exceeds --max-overhead;\n"
     "overhead: the densest K whose overhead is <= --max-overhead", 0, 0},
    {"--min-records", 0, CLI_COUNT, 0, 1ull << 40, 0, 0, &O.min_records, "R",
     "records --sample auto keeps at least (default 65536; all when fewer)", 0, 0},
    {"--max-overhead", 0, CLI_DOUBLE, 0, 0, 0, 100, &O.max_overhead, "PCT",
     "overhead of the probes that --sample auto accepts (default 2)", 0, 0},
    {"--no-probes", 0, CLI_FLAG, 0, 0, 0, 0, &O.no_probes, 0,
     "validate and time the clean twin only; no probes, no logs", 0, 0},
    {"--seed", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &O.seed, "S",
     "seed of random inputs (default 12345)", 0, &O.seed_given},
    {"--device", 0, CLI_STRING, 0, 0, 0, 0, &O.devices, "D|LIST|all",
     "CUDA device ordinal (default 0); a list (0,2) or all: one process per GPU,\n"
     "in parallel, each writing under --out DIR/<gpu> (its ordinal, UUID and name)", 0, 0},
    {"--out", 0, CLI_STRING, 0, 0, 0, 0, &O.out_dir, "DIR", "where logs go (default data)", 0, 0},
    {"--table", 0, CLI_STRING, 0, 0, 0, 0, &O.table, "FILE",
     "write the table to FILE (whole or not at all) instead of stdout", 0, 0},
    {"--level", 0, CLI_U64, 1, 9, 0, 0, &O.level, "L", "zlib level of the logs (default 1)", 0, 0},
    {"--l2-fetch", 0, CLI_U64, 0, 128, 0, 0, &O.l2_fetch, "B",
     "cudaLimitMaxL2FetchGranularity hint in bytes (0..128; 0 = leave it)", 0, 0},
    {"--carveout", 0, CLI_U64, 0, 100, 0, 0, &O.carveout, "P",
     "shared-memory carveout percent of the unified L1/shared memory (default:\n"
     "per kernel, the smallest that keeps the resident blocks of 100, so that L1\n"
     "gets the rest; 100 in sweeps, so that SMEM alone sets the resident blocks)", 0,
     &O.carveout_given},
    {"--list-occupancy", 0, CLI_FLAG, 0, 0, 0, 0, &O.list_occupancy, 0,
     "print, for WPB, the SMEM that gives each number of resident blocks per SM", 0, 0},
    {"--device-info", 0, CLI_FLAG, 0, 0, 0, 0, &O.device_info, 0,
     "print the device's facts as a key/value table (device.tsv) and exit", 0, 0},
    {"--sweep", 0, CLI_FLAG, 0, 0, 0, 0, &O.sweep, 0,
     "occupancy sweep of one variant: every resident-block count (or --points),\n"
     "one row each with throughput, latency and the Little's law bound", 0, 0},
    {"--points", 0, CLI_LIST, 1, 64, 0, 0, &O.points, "LIST", "resident blocks per SM to sweep: 1-4,8,16", 0, 0},
    {"--ladder", 0, CLI_STRING, 0, 0, 0, 0, &O.ladder, "TSV",
     "latency ladder (./latency) whose DRAM plateau the sweep records", 0, 0},
    {"--ceiling", 0, CLI_DOUBLE, 0, 0, 0, 1e7, &O.ceiling, "GBPS",
     "measured achievable DRAM bandwidth to record in the logs", 0, 0},
    {"--n", 0, CLI_COUNT, 0, 1ull << 36, 0, 0, &O.n_opt, "N",
     "elements, instead of the positional N (for scripts)", 0, &O.n_given},
    {"--wpb", 0, CLI_U64, 1, 32, 0, 0, &O.wpb_opt, "W",
     "warps per block, instead of the positional WPB (for scripts)", 0, &O.wpb_given},
    {"--smem", 0, CLI_U64, 0, 1u << 30, 0, 0, &O.smem_opt, "BYTES",
     "shared memory per block, instead of the positional SMEM", 0, &O.smem_given},
    {"--configs-max", 0, CLI_U64, 1, 1u << 20, 0, 0, &O.configs_max, "K",
     "run at most the first K configurations of each variant (tests, sanitizers)", 0, 0},
    {"--quiet", 'q', CLI_FLAG, 0, 0, 0, 0, &O.quiet, 0, "no progress on stderr", 0, 0},
    CLI_END,
};

static const char *PROG = "engine";
static const eng_family *F;
static int PROFILE_ONLY;

/* ------------------------------------------------------------ failures */

void eng_cuda_fail(const char *file, int line, const char *call, cudaError_t e)
{
    fprintf(stderr, "%s: %s:%d: CUDA error in %s: %s (%s)\n", PROG, file, line, call,
            cudaGetErrorString(e), cudaGetErrorName(e));
    logjob_abort_all();
    exit(1);
}

/* A hook's CUDA error, with what the engine was doing. */
static void hook(int rc, const char *what, const char *variant)
{
    if (rc == 0) return;
    fprintf(stderr, "%s: %s %s: CUDA error: %s (%s)\n", PROG, what, variant,
            cudaGetErrorString((cudaError_t)rc), cudaGetErrorName((cudaError_t)rc));
    logjob_abort_all();
    exit(1);
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", PROG);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    logjob_abort_all();
    exit(1);
}

/* Tests: WARPLAT_INJECT_CUDA_ERROR=K makes the K-th probe launch of the run
 * fail as a launch failure would, to check that nothing partial is left. */
static long inject_at = -1, probe_launches;

/* ------------------------------------------------------------ help */

/* Variant v has an instrumented kernel in this build (its first configuration
 * tells: a family probes all of a variant's configurations or none). */
static int variant_probed(const eng_family *fam, int v)
{
    return !PROFILE_ONLY && fam->kernel(v, 0, ENG_PROBE) != NULL;
}

/* ------------------------------------------------------------ options that apply */

/* A program lists, and accepts, only the common options that mean something
 * to it: --help is built from APPLY, and an option of NOT_APPLY is parsed
 * without reading its value (so that its refusal is the first thing said)
 * and refused with the reason not_applicable() gives. */
static cli_opt APPLY[sizeof COMMON / sizeof COMMON[0]];
static cli_opt NOT_APPLY[sizeof COMMON / sizeof COMMON[0]];
static int NOT_APPLY_GIVEN[sizeof COMMON / sizeof COMMON[0]];
static const char *NOT_APPLY_VALUE;
static int NOT_APPLY_FLAG;

static int has_positional(const char *name)
{
    for (int i = 0; F->posnames[i]; i++)
        if (!strcmp(F->posnames[i], name)) return 1;
    return 0;
}

/* Why common option `name` does not apply to this program (a phrase for
 * "PROG: NAME does not apply to PROG: <phrase>"), or NULL when it does. */
static const char *not_applicable(const char *name)
{
    static const char *const logs_only[] = {"--sample", "--min-records", "--max-overhead",
                                             "--no-probes", "--level", "--ceiling", NULL};
    int probed = 0;
    for (int v = 0; v < F->nvariants; v++) probed += variant_probed(F, v);
    for (int i = 0; logs_only[i]; i++)
        if (!strcmp(name, logs_only[i]) && !probed)
            return PROFILE_ONLY ? "it times the clean kernels only, without probes or logs"
                                : "this family has no probes and writes no per-warp logs";
    if (!strcmp(name, "--n") && !has_positional("N"))
        return "it has no N (its sizes are its positional arguments, see --help)";
    if (!strcmp(name, "--wpb") && !has_positional("WPB"))
        return "each variant fixes its own block, so there is no WPB";
    if (!strcmp(name, "--smem") && !has_positional("SMEM"))
        return "it has no SMEM argument";
    if ((!strcmp(name, "--list-occupancy") || !strcmp(name, "--sweep") || !strcmp(name, "--points") ||
         !strcmp(name, "--ladder")) && !(has_positional("WPB") && has_positional("SMEM")))
        return "occupancy is set by SMEM and WPB, which it does not have";
    return NULL;
}

/* Split COMMON into APPLY and NOT_APPLY for family F. */
static void split_options(void)
{
    size_t na = 0, nn = 0;
    memset(APPLY, 0, sizeof APPLY);
    memset(NOT_APPLY, 0, sizeof NOT_APPLY);
    memset(NOT_APPLY_GIVEN, 0, sizeof NOT_APPLY_GIVEN);
    for (size_t i = 0; COMMON[i].name; i++) {
        if (!not_applicable(COMMON[i].name)) {
            APPLY[na] = COMMON[i];
            /* a program without logs writes under --out only the tables of a
             * run on several GPUs: say that, not "where logs go" */
            if (!strcmp(COMMON[i].name, "--out") && not_applicable("--level"))
                APPLY[na].help = "with --device LIST or all: where each GPU's folder and table go\n"
                                 "(default data); this program writes no logs";
            na++;
            continue;
        }
        cli_opt o = COMMON[i];
        if (o.kind == CLI_FLAG) {
            o.dest = &NOT_APPLY_FLAG;
            o.lo = 0;
        } else {
            o.kind = CLI_STRING;
            o.dest = &NOT_APPLY_VALUE;
        }
        o.given = &NOT_APPLY_GIVEN[nn];
        NOT_APPLY[nn++] = o;
    }
}

/* An option of NOT_APPLY was given: say which and why (exit status 2). */
static int refuse_not_applicable(void)
{
    for (size_t i = 0; NOT_APPLY[i].name; i++)
        if (NOT_APPLY_GIVEN[i])
            return cli_usage_error(PROG, "%s does not apply to %s: %s", NOT_APPLY[i].name, PROG,
                                   not_applicable(NOT_APPLY[i].name));
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: %s", PROG);
    for (int i = 0; F->posnames[i]; i++) fprintf(f, " %s", F->posnames[i]);
    fprintf(f, " [options]\n\n%s\n\n", F->about);
    for (int i = 0; F->posnames[i]; i++) {
        const char *p = F->posnames[i];
        const char *what = !strcmp(p, "N") ? "elements of the data (100000000 or 1e8)"
                         : !strcmp(p, "SMEM") ? "dynamic shared memory per block, in bytes; it limits resident\n"
                                                "         blocks per SM and so occupancy (0 = no limit from it)"
                         : !strcmp(p, "WPB") ? "warps per block, 1..32"
                         : "see above";
        fprintf(f, "  %-6s %s (default %s)\n", p, what, F->posdefaults[i] ? F->posdefaults[i] : "none");
    }
    fprintf(f, "\nvariants (--kernel; all by default):\n");
    for (int v = 0; v < F->nvariants; v++)
        fprintf(f, "  %-20s %s\n", F->variants[v].name, F->variants[v].about);
    int probed = 0;
    for (int v = 0; v < F->nvariants; v++) probed += variant_probed(F, v);
    if (PROFILE_ONLY)
        fprintf(f, "\nThis build times the clean kernels only (no probes, no logs): it is the\n"
                   "program to run under Nsight Compute.\n");
    else if (!probed)
        fprintf(f, "\nEach variant is validated against a CPU reference in a launch of its own;\n"
                   "then it is timed (CUDA events, medians).  This family has no probes and\n"
                   "writes no per-warp logs: it measures throughput only.\n");
    else
        fprintf(f, "\nEach variant is validated against a CPU reference in a launch of its own;\n"
                   "then its clean twin and its instrumented kernel are timed (CUDA events,\n"
                   "medians), and one per-warp log is written: DIR/%s_<variant>_<WPB>.bin.\n",
                F->name);
    fprintf(f, "\noptions:\n");
    cli_print_options(f, APPLY);
    fprintf(f, "  -h, --help           this text\n");
    if (F->options) {
        fprintf(f, "\n%s options:\n", F->name);
        cli_print_options(f, F->options);
    }
    fprintf(f, "\nstdout: '#' lines describing the device and the run, then one TSV row per\n"
               "variant (or per sweep point).  Exit status: 0 ok, 1 runtime failure (no GPU,\n"
               "validation failed, CUDA error, I/O), 2 usage error.\n");
}

/* ------------------------------------------------------------ files */

/* --out must be a writable directory, or not exist yet below a writable
 * ancestor (it is created, with its parents, once a GPU is known to be there,
 * so a run that cannot start leaves nothing behind). */
static int dir_usable(const char *dir, const char *opt)
{
    struct stat st;
    char path[1024];
    snprintf(path, sizeof path, "%s", dir);
    for (;;) {
        if (stat(path, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                fprintf(stderr, "%s: cannot use %s %s: %s is not a directory\n", PROG, opt, dir, path);
                return -1;
            }
            if (access(path, W_OK | X_OK) != 0) {
                fprintf(stderr, "%s: cannot write to %s %s: %s: %s\n", PROG, opt, dir, path,
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

/* The table goes to stdout, or to --table FILE through outfile (a unique
 * temporary, removed on a signal or at exit, renamed when whole). */
static FILE *TBL;
static outfile TABLE_OUT;

static void table_open(void)
{
    if (!O.table) { TBL = stdout; return; }
    char err[1400];
    TBL = outfile_open(&TABLE_OUT, O.table, "w", err, sizeof err);
    if (!TBL) die("%s", err);
}

static void table_remove_tmp(void)
{
    if (O.table && TBL && TBL != stdout) {
        outfile_abort(&TABLE_OUT);
        TBL = NULL;
    }
}

static int table_close(int keep)
{
    if (TBL == stdout) {
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "%s: error writing the table to stdout: %s\n", PROG, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!TBL) return -1;
    TBL = NULL;
    if (!keep) {
        outfile_abort(&TABLE_OUT);
        return 0;
    }
    char err[1400];
    if (outfile_commit(&TABLE_OUT, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ the run */

static eng_ctx CTX;
static warplog_header DEV;
static cudaEvent_t EV0, EV1;
static warp_probe *D_PROBES;       /* device: room for every warp of the largest grid */
static uint64_t PROBE_CAP;         /* probes that fit */
static int SELECTED[256];
static size_t L2_FETCH_NOW;
/* which block of each group of K records: from the seed, so that a run is
 * repeatable (warplog.h) */
static uint32_t SAMPLE_OFFSET;

typedef struct timing {
    double med, min, max;
} timing;

typedef struct point {
    int bps, bps_probe;
    uint32_t smem;
    timing clean, instr;
    double overhead_pct;
    uint32_t sample;
    uint64_t nprobes, sampled_blocks;
    warp_probe *probes;            /* host copy, owned */
    uint64_t gt_base;
    int overhead_met;
} point;

static int CARVEOUT_USED = -1;   /* the carveout last set on a kernel (the log says it) */

static int blocks_at(const void *k, uint32_t tpb, uint32_t smem, int pct)
{
    int b = 0;
    ENG_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, pct));
    ENG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, (int)tpb, smem));
    return b;
}

/* SMEM opt-in and carveout.  Without --carveout (and outside sweeps, which
 * use 100 so that SMEM alone sets the resident blocks), the carveout is the
 * smallest that keeps the resident blocks of the largest one: L1 gets the
 * rest of the unified memory, and occupancy is not cut.  (A carveout of 0
 * is not that: every block holds 1 KiB of reserved shared memory on sm_80+,
 * and the smallest shared-memory configuration, 8 KiB on the H100, would
 * let 8 blocks of 2 or 4 warps in, where 32 and 16 fit.) */
static void configure_kernel(const void *k, uint32_t tpb, uint32_t smem)
{
    if (!k) return;
    ENG_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    if (O.carveout_given || O.sweep || O.list_occupancy) {
        blocks_at(k, tpb, smem, (int)O.carveout);
        CARVEOUT_USED = (int)O.carveout;
        return;
    }
    const int full = blocks_at(k, tpb, smem, 100);
    struct cudaFuncAttributes a;
    ENG_CUDA(cudaFuncGetAttributes(&a, k));
    const double need = (double)full * ((double)a.sharedSizeBytes + smem + DEV.reserved_smem_per_block);
    int pct = DEV.max_smem_per_sm ? (int)(100.0 * need / DEV.max_smem_per_sm) - 1 : 0;
    if (pct < 0) pct = 0;
    while (pct < 100 && blocks_at(k, tpb, smem, pct) < full) pct++;
    if (pct == 100) blocks_at(k, tpb, smem, 100);
    CARVEOUT_USED = pct;
}

static int CFG;   /* the configuration being run (kernel() takes it) */

static void configure(int v, uint32_t smem)
{
    int probe_carveout = -1;
    for (int m = 0; m < ENG_NMODES; m++) {
        configure_kernel(F->kernel(v, CFG, (eng_mode)m), CTX.tpb, smem);
        if (m == ENG_PROBE) probe_carveout = CARVEOUT_USED;
    }
    if (probe_carveout >= 0) CARVEOUT_USED = probe_carveout;   /* the log's kernel */
}

static int occupancy(int v, eng_mode m, uint32_t smem)
{
    int b = 0;
    const void *k = F->kernel(v, CFG, m);
    if (!k) return 0;
    ENG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, (int)CTX.tpb, smem));
    return b;
}

int eng_resident_blocks(const eng_ctx *c, const void *k)
{
    int b = 0;
    configure_kernel(k, c->tpb, c->smem_bytes);
    ENG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, (int)c->tpb, c->smem_bytes));
    return b;
}

/* Is configuration CFG of v a kernel (else a runtime call such as cudaMemcpy),
 * and does it have a probe kernel? */
static int is_kernel(int v) { return F->kernel(v, CFG, ENG_CLEAN) != NULL; }
static int has_probe(int v) { return F->kernel(v, CFG, ENG_PROBE) != NULL && !PROFILE_ONLY && !O.no_probes; }

/* Probes a launch with sampling K writes: the warps of the sampled blocks,
 * less the trailing warps of the last block when it records and its threads
 * past the last item return at once (they are the last entries of the
 * array, so dropping them keeps every other probe's index). */
static uint64_t nprobes_for(const eng_geom *g, uint32_t K)
{
    const uint64_t rpw = g->records_per_warp ? g->records_per_warp : 1;
    uint64_t warps = warplog_sampled_blocks(g->blocks, K, SAMPLE_OFFSET) * CTX.wpb;
    const uint64_t last = g->blocks - 1;
    if (g->tail_idle && g->items && warplog_block_sampled((uint32_t)last, K, SAMPLE_OFFSET & (K - 1))) {
        const uint64_t active_threads = g->items - last * CTX.tpb;
        const uint64_t active_warps = (active_threads + 31) / 32;
        if (active_warps < CTX.wpb) warps -= CTX.wpb - active_warps;
    }
    return warps * rpw;
}

static void do_launch(int v, int cfg, eng_mode m, const eng_geom *g, uint32_t smem, uint32_t K)
{
    eng_launch L = {g->blocks, CTX.tpb, smem, K, SAMPLE_OFFSET, m == ENG_PROBE ? D_PROBES : NULL, 0};
    int rc = F->launch(&CTX, v, cfg, m, &L);
    if (m == ENG_PROBE && inject_at >= 0 && ++probe_launches == inject_at)
        rc = (int)cudaErrorLaunchFailure;
    hook(rc, m == ENG_PROBE ? "launch of the probe kernel of" : m == ENG_CHECK
                 ? "launch of the check kernel of" : "launch of the clean kernel of",
         F->variants[v].name);
}

static float timed(int v, int cfg, eng_mode m, const eng_geom *g, uint32_t smem, uint32_t K)
{
    float ms = 0;
    ENG_CUDA(cudaEventRecord(EV0, 0));
    do_launch(v, cfg, m, g, smem, K);
    ENG_CUDA(cudaEventRecord(EV1, 0));
    ENG_CUDA(cudaEventSynchronize(EV1));
    ENG_CUDA(cudaEventElapsedTime(&ms, EV0, EV1));
    return ms;
}

static timing summarize(double *t, size_t n)
{
    timing r;
    r.med = stats_median_inplace(t, n);   /* sorts t */
    r.min = t[0];
    r.max = t[n - 1];
    return r;
}

/* reps interleaved launches of the clean twin and (K > 0) the probe kernel. */
static void measure(int v, int cfg, const eng_geom *g, uint32_t smem, uint32_t K, point *p)
{
    double *tc = malloc(O.reps * sizeof *tc), *ti = malloc(O.reps * sizeof *ti);
    if (!tc || !ti) die("out of host memory");
    if (K) {
        ENG_CUDA(cudaMemset(D_PROBES, 0xff, nprobes_for(g, K) * sizeof(warp_probe)));
        /* the base that unwraps the probes' 32-bit global timer: read before
         * they are written (the writer adds their forward distance to it) */
        ENG_CUDA(eng_device_globaltimer(&p->gt_base));
    }
    for (uint64_t r = 0; r < O.reps; r++) {
        tc[r] = timed(v, cfg, ENG_CLEAN, g, smem, 1);
        if (K) ti[r] = timed(v, cfg, ENG_PROBE, g, smem, K);
    }
    p->clean = summarize(tc, O.reps);
    if (K) {
        p->instr = summarize(ti, O.reps);
        p->overhead_pct = 100.0 * (p->instr.med / p->clean.med - 1.0);
        p->sample = K;
    }
    free(tc);
    free(ti);
}

/* The sparsest K that still records `records` warps (and regions) and 2
 * blocks per SM, when the grid allows (else 1). */
static uint32_t sparsest_sample(const eng_geom *g, uint64_t records)
{
    const uint64_t rpw = g->records_per_warp ? g->records_per_warp : 1;
    uint64_t need = 2 * (uint64_t)DEV.sm_count;
    const uint64_t need_recs = (records + CTX.wpb * rpw - 1) / (CTX.wpb * rpw);
    if (need_recs > need) need = need_recs;
    uint32_t k = 1;
    while ((uint64_t)k * 2 <= 1u << 20 && g->blocks / (k * 2) >= need) k *= 2;
    return k;
}

/* The densest sampling a variant's run may use: the fixed K, or where the
 * search starts (it only makes K larger).  The probe buffer is sized for it. */
static uint32_t FIXED_K;
static uint32_t first_sample(const eng_geom *g)
{
    if (FIXED_K) return FIXED_K;
    return O.sample_mode_overhead ? 1 : sparsest_sample(g, O.min_records);
}

static void run_point(int v, int cfg, const eng_geom *g, uint32_t smem, point *p, uint32_t fixed_K)
{
    memset(p, 0, sizeof *p);
    p->smem = smem;
    configure(v, smem);
    p->bps = occupancy(v, ENG_CLEAN, smem);
    if (p->bps <= 0 && is_kernel(v))
        die("no block of %u threads with %u bytes of shared memory fits on an SM of %s", CTX.tpb,
            smem, DEV.device_name);
    const int probes = has_probe(v);
    if (probes) {
        p->bps_probe = occupancy(v, ENG_PROBE, smem);
        if (p->bps_probe != p->bps)
            fprintf(stderr, "%s: warning: %s: the probe kernel fits %d blocks per SM, the clean "
                    "twin %d: its records describe another occupancy\n", PROG,
                    F->variants[v].name, p->bps_probe, p->bps);
    }
    for (uint64_t r = 0; r < O.warmup; r++) {
        do_launch(v, cfg, ENG_CLEAN, g, smem, 1);
        if (probes) do_launch(v, cfg, ENG_PROBE, g, smem, first_sample(g));
    }
    (void)cfg;
    ENG_CUDA(cudaDeviceSynchronize());
    if (!probes) {
        measure(v, cfg, g, smem, 0, p);
        return;
    }
    if (fixed_K) {
        measure(v, cfg, g, smem, fixed_K, p);
        p->overhead_met = p->overhead_pct <= O.max_overhead;
    } else {
        /* auto starts where the log keeps --min-records; overhead starts at
         * every block.  Either doubles K while the overhead is too high, up
         * to the sparsest K that keeps 4096 records. */
        const uint32_t kmax = sparsest_sample(g, 4096);
        uint32_t K = first_sample(g);
        for (;; K *= 2) {
            measure(v, cfg, g, smem, K, p);
            if (p->overhead_pct <= O.max_overhead) {
                measure(v, cfg, g, smem, K, p);   /* the figures reported: a fresh measurement */
                if (p->overhead_pct <= O.max_overhead) { p->overhead_met = 1; break; }
            }
            if (K >= kmax) break;
        }
        if (!p->overhead_met)
            fprintf(stderr, "%s: note: %s: probe overhead %+.1f%% at the sparsest sampling tried "
                    "(1 block in %u); the latencies are those of a kernel that much slower\n",
                    PROG, F->variants[v].name, p->overhead_pct, p->sample);
    }
    p->nprobes = nprobes_for(g, p->sample);
    p->sampled_blocks = warplog_sampled_blocks(g->blocks, p->sample, SAMPLE_OFFSET);
    p->probes = malloc(p->nprobes * sizeof *p->probes);
    if (!p->probes) die("out of host memory (%llu probes)", (unsigned long long)p->nprobes);
    ENG_CUDA(cudaMemcpy(p->probes, D_PROBES, p->nprobes * sizeof *p->probes, cudaMemcpyDeviceToHost));
    const uint64_t unwritten = probeset_unwritten(p->probes, p->nprobes);
    if (unwritten)
        die("%s: %llu of %llu probes were not written by the probe kernel", F->variants[v].name,
            (unsigned long long)unwritten, (unsigned long long)p->nprobes);
}

static int validate(int v, int cfg, const eng_geom *g, uint32_t smem, eng_check *chk)
{
    memset(chk, 0, sizeof *chk);
    configure(v, smem);
    hook(F->poison(&CTX, v, cfg), "poisoning the outputs of", F->variants[v].name);
    do_launch(v, cfg, ENG_CHECK, g, smem, 1);
    ENG_CUDA(cudaDeviceSynchronize());
    hook(F->check(&CTX, v, cfg, chk), "reading back the results of", F->variants[v].name);
    return chk->bad == 0 && chk->checked > 0;
}

static void fill_header(warplog_header *h, int v, const eng_geom *g, const point *p, double clk,
                        const char *path)
{
    *h = DEV;
    snprintf(h->experiment, sizeof h->experiment, "%s", F->name);
    snprintf(h->kernel, sizeof h->kernel, "%s", F->variants[v].name);
    h->record_count = p->nprobes;
    h->n_elems = CTX.n;
    h->blocks = g->blocks;
    h->seed = g->seed;
    h->elem_bytes = g->elem_bytes;
    h->smem_bytes = p->smem;
    h->warps_per_block = CTX.wpb;
    h->threads_per_block = CTX.tpb;
    h->blocks_per_sm = (uint32_t)p->bps;
    h->bytes_per_warp_load = g->bytes_per_warp_load;
    h->stride = g->stride;
    h->carveout_pct = (int32_t)CARVEOUT_USED;
    h->l2_fetch_bytes = (uint32_t)L2_FETCH_NOW;
    h->reps = (uint32_t)O.reps;
    h->loads_per_warp = g->loads_per_warp;
    h->sm_clock_measured_MHz = clk;
    h->kernel_ms = p->instr.med;
    h->kernel_ms_min = p->instr.min;
    h->kernel_ms_max = p->instr.max;
    h->clean_kernel_ms = p->clean.med;
    h->clean_kernel_ms_min = p->clean.min;
    h->clean_kernel_ms_max = p->clean.max;
    h->overhead_pct = p->overhead_pct;
    h->useful_bytes = g->bytes_read;
    h->bytes_written = g->bytes_written;
    h->bw_GBps = (g->bytes_read + g->bytes_written) / (p->clean.med * 1e-3) / 1e9;
    h->ceiling_GBps = O.ceiling;
    h->gtimer_base_ns = p->gt_base;
    h->sample_blocks = p->sample;
    h->sample_offset = SAMPLE_OFFSET & (p->sample - 1);
    h->sampled_blocks = p->sampled_blocks;
    h->records_per_warp = g->records_per_warp ? g->records_per_warp : 1;
    snprintf(h->record_covers, sizeof h->record_covers, "%s", g->record_covers ? g->record_covers : "");
    snprintf(h->config, sizeof h->config, "%s", g->config);
    (void)path;
}

/* Log jobs of this run, joined at the end. */
typedef struct pending {
    logjob *job;
    char path[1024];
} pending;
static pending *JOBS;
static size_t NJOBS, CAPJOBS;

static const char *start_log(const warplog_header *h, point *p, const char *path)
{
    if (NJOBS == CAPJOBS) {
        CAPJOBS = CAPJOBS ? 2 * CAPJOBS : 16;
        JOBS = realloc(JOBS, CAPJOBS * sizeof *JOBS);
        if (!JOBS) die("out of host memory");
    }
    char err[1400];
    logjob *j = logjob_start(path, h, p->probes, (int)O.level, err, sizeof err);
    p->probes = NULL;   /* the job owns them now */
    if (!j) die("%s", err);
    JOBS[NJOBS].job = j;
    snprintf(JOBS[NJOBS].path, sizeof JOBS[NJOBS].path, "%s", path);
    NJOBS++;
    return JOBS[NJOBS - 1].path;
}

/* DIR/<exp>_<variant>[-<label>]_<W>.bin (names.h); a sweep point adds _b<blocks/SM>
 * before the extension. */
static void log_path(char *buf, size_t len, int v, const eng_geom *g, int bps)
{
    char base[256];
    if (names_log(base, sizeof base, F->name, F->variants[v].name, g->label, CTX.wpb) != 0)
        die("internal: no log name for %s %s", F->name, F->variants[v].name);
    if (bps > 0) {
        char *dot = strrchr(base, '.');
        snprintf(dot, sizeof base - (size_t)(dot - base), "_b%d.bin", bps);
    }
    snprintf(buf, len, "%s/%s", O.out_dir, base);
}

static void print_meta(void)
{
    fprintf(TBL, "# device\t%s (sm_%d%d, %d SMs, L2 %u KiB)\n", DEV.device_name, DEV.cc_major,
            DEV.cc_minor, DEV.sm_count, DEV.l2_bytes >> 10);
    fprintf(TBL, "# peak_dram_GBps\t%.1f (memory clock %u MHz x %u-bit bus x 2)\n", DEV.peak_dram_GBps,
            DEV.mem_clock_khz / 1000, DEV.bus_width_bits);
    fprintf(TBL, "# sm_clock_nominal_MHz\t%u\n", DEV.sm_clock_nominal_khz / 1000);
    fprintf(TBL, "# build\t%s (%s), toolkit %s\n", PROG,
            PROFILE_ONLY || O.no_probes ? "clean kernels only" : "clean twin and probes",
            WARPLOG_TOOLKIT_VERSION);
    fprintf(TBL, "# l2_fetch_granularity_bytes\t%zu\n", L2_FETCH_NOW);
    /* the device's facts as key/value lines (the log header's keys), for the
     * tools that read this table: sm_count, peak_dram_GBps, ... */
    fprintf(TBL, "# experiment\t%s\n# device_name\t%s\n# device_ordinal\t%d\n"
                 "# compute_capability\t%d.%d\n# sm_count\t%d\n# l2_bytes\t%u\n"
                 "# bus_width_bits\t%u\n# mem_clock_khz\t%u\n# peak_dram_GBps\t%.6g\n"
                 "# sm_clock_nominal_khz\t%u\n# max_threads_per_sm\t%u\n# max_smem_per_sm\t%u\n"
                 "# driver_version\t%d\n# runtime_version\t%d\n# date\t%s\n# toolkit_version\t%s\n"
                 "# host_arch\t%s\n# ceiling_GBps\t%.6g\n",
            F->name, DEV.device_name, DEV.device_ordinal, DEV.cc_major, DEV.cc_minor, DEV.sm_count,
            DEV.l2_bytes, DEV.bus_width_bits, DEV.mem_clock_khz, DEV.peak_dram_GBps,
            DEV.sm_clock_nominal_khz, DEV.max_threads_per_sm, DEV.max_smem_per_sm,
            DEV.driver_version, DEV.runtime_version, DEV.date, DEV.toolkit_version, DEV.host_arch,
            O.ceiling);
    fprintf(TBL, "# kernel_ms\tthe clean twin (no probes): median of --reps launches; bw_GBps = "
                 "(bytes read + written) / kernel_ms\n");
    if (!PROFILE_ONLY && !O.no_probes)
        fprintf(TBL, "# instr_ms\tthe instrumented kernel, timed interleaved with the clean twin; "
                     "overhead_pct = instr_ms / kernel_ms - 1; sample K = one block in K "
                     "recorded\n");
}

static const char *SUMMARY_COLUMNS =
    "kernel\tn\tsmem_bytes\twarps_per_block\tblocks_per_sm\tkernel_ms\tkernel_ms_min\t"
    "kernel_ms_max\tbw_GBps\tpct_peak\tsm_clock_MHz\tlat_mean_cycles\tlat_p50_cycles\t"
    "lat_p95_cycles\tvalid\tlog\tconfig\tsample\tinstr_ms\tinstr_ms_min\tinstr_ms_max\t"
    "overhead_pct\trecords\tbytes_read\tbytes_written\tkernel_fn\tregs\tblocks\tflops\t"
    "gflops\n";

/* The clean kernel's name (what Nsight Compute and cuobjdump call it) and
 * its registers per thread; "-" and 0 for a variant that is not a kernel. */
static void kernel_facts(int v, char *name, size_t len, int *regs)
{
    const void *k = F->kernel(v, CFG, ENG_CLEAN);
    snprintf(name, len, "-");
    *regs = 0;
    if (!k) return;
    const char *n = NULL;
    if (cudaFuncGetName(&n, k) == cudaSuccess && n) snprintf(name, len, "%s", n);
    struct cudaFuncAttributes a;
    if (cudaFuncGetAttributes(&a, k) == cudaSuccess) *regs = a.numRegs;
}

static void print_fail_row(int v, const eng_geom *g, int bps)
{
    char fn[128];
    int regs;
    kernel_facts(v, fn, sizeof fn, &regs);
    fprintf(TBL, "%s\t%llu\t%u\t%u\t%d\tnan\tnan\tnan\tnan\tnan\tnan\tnan\tnan\tnan\tFAIL\t-\t%s\t"
                 "-\tnan\tnan\tnan\tnan\t0\t%.0f\t%.0f\t%s\t%d\t%llu\t%.0f\tnan\n",
            F->variants[v].name, (unsigned long long)CTX.n, CTX.smem_bytes, CTX.wpb, bps,
            g->config[0] ? g->config : "-", g->bytes_read, g->bytes_written, fn, regs,
            (unsigned long long)g->blocks, g->flops);
}

/* A variant that fixes its own block size runs with it; the run's WPB comes
 * back afterwards. */
static uint32_t SAVED_WPB;
static void apply_wpb(const eng_geom *g)
{
    SAVED_WPB = CTX.wpb;
    if (g->wpb) {
        CTX.wpb = g->wpb;
        CTX.tpb = 32 * g->wpb;
    }
}
static void restore_wpb(void)
{
    CTX.wpb = SAVED_WPB;
    CTX.tpb = 32 * SAVED_WPB;
}

static int geometry_of(int v, int cfg, eng_geom *g)
{
    char err[512];
    memset(g, 0, sizeof *g);
    g->stride = 1;
    g->records_per_warp = 1;
    g->loads_per_warp = 1;
    CFG = cfg;
    if (F->geometry(&CTX, v, cfg, g, err, sizeof err) != 0) {
        if (SELECTED[v] == 2) {   /* asked for by name: the run cannot do what was asked */
            fprintf(stderr, "%s: %s: %s\n", PROG, F->variants[v].name, err);
            logjob_abort_all();
            exit(2);
        }
        fprintf(stderr, "%s: %s skipped: %s\n", PROG, F->variants[v].name, err);
        return -1;
    }
    if (g->blocks == 0 || g->blocks > 0x7fffffffull)
        die("%s needs %llu blocks: a grid holds 1 to 2^31 - 1", F->variants[v].name,
            (unsigned long long)g->blocks);
    return 0;
}

static int run_variant_inner(int v, int cfg, uint32_t fixed_K, eng_geom *gp);

static int run_variant(int v, int cfg, uint32_t fixed_K)
{
    eng_geom g;
    if (geometry_of(v, cfg, &g) != 0) return 0;
    apply_wpb(&g);
    const int rc = run_variant_inner(v, cfg, fixed_K, &g);
    restore_wpb();
    return rc;
}

static int run_variant_inner(int v, int cfg, uint32_t fixed_K, eng_geom *gp)
{
    eng_geom g = *gp;
    if (nprobes_for(&g, first_sample(&g)) > PROBE_CAP && has_probe(v))
        die("internal: probe buffer too small for %s", F->variants[v].name);
    if (F->prepare) hook(F->prepare(&CTX, v, cfg), "preparing the inputs of", F->variants[v].name);

    eng_check chk;
    const int ok = validate(v, cfg, &g, CTX.smem_bytes, &chk);
    const int bps0 = occupancy(v, ENG_CLEAN, CTX.smem_bytes);
    if (!ok) {
        fprintf(stderr, "%s: %s%s%s FAILED validation: %llu of %llu items disagree with the CPU "
                "reference (%s); no timing, no log\n", PROG, F->variants[v].name,
                g.config[0] ? " " : "", g.config, (unsigned long long)chk.bad,
                (unsigned long long)chk.checked, chk.first[0] ? chk.first : "nothing checked");
        print_fail_row(v, &g, bps0);
        return 1;
    }
    if (!O.quiet)
        fprintf(stderr, "%s: %-16s %s%s%llu blocks x %u threads, %d blocks/SM: valid (%llu checked)\n",
                PROG, F->variants[v].name, g.config, g.config[0] ? ", " : "",
                (unsigned long long)g.blocks, CTX.tpb, bps0, (unsigned long long)chk.checked);

    point p;
    run_point(v, cfg, &g, CTX.smem_bytes, &p, fixed_K);
    const double bytes = g.bytes_read + g.bytes_written;
    const double bw = bytes / (p.clean.med * 1e-3) / 1e9;
    lat_summary ls;
    memset(&ls, 0, sizeof ls);
    double clk = 0;
    const char *logname = "-";
    char path[1100];
    if (p.probes) {
        char serr[300];
        if (probeset_summary(p.probes, p.nprobes, CTX.wpb, g.records_per_warp, &ls, serr, sizeof serr) != 0)
            die("%s: latency summary: %s", F->variants[v].name, serr);
        clk = probeset_clock_MHz(p.probes, p.nprobes, p.gt_base, 20000);
        log_path(path, sizeof path, v, &g, 0);
        warplog_header h;
        fill_header(&h, v, &g, &p, clk, path);
        logname = start_log(&h, &p, path);
    }
    const int probes = has_probe(v);
    char smp[16] = "-", ims[3][24] = {"nan", "nan", "nan"}, ovh[24] = "nan", lat[3][24];
    if (probes) {
        snprintf(smp, sizeof smp, "%u", p.sample);
        snprintf(ims[0], sizeof ims[0], "%.4f", p.instr.med);
        snprintf(ims[1], sizeof ims[1], "%.4f", p.instr.min);
        snprintf(ims[2], sizeof ims[2], "%.4f", p.instr.max);
        snprintf(ovh, sizeof ovh, "%.2f", p.overhead_pct);
        snprintf(lat[0], sizeof lat[0], "%.1f", ls.mean_cycles);
        snprintf(lat[1], sizeof lat[1], "%.1f", ls.p50_cycles);
        snprintf(lat[2], sizeof lat[2], "%.1f", ls.p95_cycles);
    } else {
        for (int i = 0; i < 3; i++) snprintf(lat[i], sizeof lat[i], "nan");
    }
    char fn[128];
    int regs;
    kernel_facts(v, fn, sizeof fn, &regs);
    fprintf(TBL, "%s\t%llu\t%u\t%u\t%d\t%.4f\t%.4f\t%.4f\t%.1f\t%.1f\t%.0f\t%s\t%s\t%s\tok\t%s\t"
                 "%s\t%s\t%s\t%s\t%s\t%s\t%llu\t%.0f\t%.0f\t%s\t%d\t%llu\t%.0f\t%.1f\n",
            F->variants[v].name, (unsigned long long)CTX.n, CTX.smem_bytes, CTX.wpb, p.bps,
            p.clean.med, p.clean.min, p.clean.max, bw, 100.0 * bw / DEV.peak_dram_GBps, clk,
            lat[0], lat[1], lat[2], logname, g.config[0] ? g.config : "-", smp,
            ims[0], ims[1], ims[2], ovh, (unsigned long long)p.nprobes, g.bytes_read,
            g.bytes_written, fn, regs, (unsigned long long)g.blocks, g.flops,
            g.flops / (p.clean.med * 1e-3) / 1e9);
    fflush(TBL);
    if (!O.quiet && probes)
        fprintf(stderr, "%s: %-16s clean %.4f ms, instrumented %.4f ms (%+.2f%%), 1 block in %u "
                "recorded%s\n", PROG, F->variants[v].name, p.clean.med, p.instr.med,
                p.overhead_pct, p.sample, p.overhead_met ? "" : " (over --max-overhead)");
    else if (!O.quiet)
        fprintf(stderr, "%s: %-16s %.4f ms, %.1f GB/s\n", PROG, F->variants[v].name, p.clean.med, bw);
    free(p.probes);
    return 0;
}

/* ------------------------------------------------------------ occupancy */

/* The smallest SMEM that gives exactly b resident blocks per SM, or -1. */
static long smem_for_blocks(int v, int b)
{
    uint32_t lo = 0, hi = DEV.max_smem_optin_per_block;
    configure(v, hi);
    if (occupancy(v, ENG_CLEAN, hi) > b) return -1;
    /* occupancy does not grow with shared memory: binary search the least
     * SMEM whose occupancy is <= b */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (occupancy(v, ENG_CLEAN, mid) <= b) hi = mid; else lo = mid + 1;
    }
    return occupancy(v, ENG_CLEAN, lo) == b ? (long)lo : -1;
}

static int first_selected(void)
{
    for (int v = 0; v < F->nvariants; v++)
        if (SELECTED[v]) return v;
    return 0;
}

static int list_occupancy(void)
{
    const int v = first_selected();
    CFG = 0;
    if (!is_kernel(v)) {
        fprintf(stderr, "%s: %s is not a kernel: pick one with --kernel\n", PROG, F->variants[v].name);
        return 2;
    }
    configure(v, DEV.max_smem_optin_per_block);
    const int bmax = occupancy(v, ENG_CLEAN, 0);
    printf("# device_name\t%s\n# kernel\t%s\n# warps_per_block\t%u\n# max_smem_optin_per_block\t%u\n"
           "# reserved_smem_per_block\t%u\n", DEV.device_name, F->variants[v].name, CTX.wpb,
           DEV.max_smem_optin_per_block, DEV.reserved_smem_per_block);
    printf("blocks_per_sm\twarps_per_sm\tsmem_bytes\n");
    for (int b = bmax; b >= 1; b--) {
        long s = smem_for_blocks(v, b);
        if (s >= 0) printf("%d\t%d\t%ld\n", b, b * (int)CTX.wpb, s);
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* ------------------------------------------------------------ the sweep */

static const char *SWEEP_COLUMNS =
    "smem_bytes\tblocks_per_sm\twarps_per_sm\toccupancy_pct\tkernel_ms\tkernel_ms_min\t"
    "kernel_ms_max\tbw_GBps\tbw_GBps_min\tbw_GBps_max\tlat_mean_cycles\tlat_p50_cycles\t"
    "bound_GBps\tclosure_err_pct\tachieved_occupancy_pct\tdram_read_GBps\tmax_concurrent_warps\t"
    "log\tsample\tinstr_ms\toverhead_pct\tlat_p95_cycles\tsm_clock_MHz\n";

static int run_sweep(int v, int cfg, uint32_t fixed_K, int argc, char **argv)
{
    char err[512];
    eng_geom g;
    if (geometry_of(v, cfg, &g) != 0) die("%s: no sweep", F->variants[v].name);
    if (!is_kernel(v)) die("%s is not a kernel: nothing to sweep", F->variants[v].name);
    apply_wpb(&g);   /* for the rest of the run: one variant */
    if (F->prepare) hook(F->prepare(&CTX, v, cfg), "preparing the inputs of", F->variants[v].name);
    eng_check chk;
    if (!validate(v, cfg, &g, 0, &chk))
        die("%s FAILED validation: %llu of %llu items disagree with the CPU reference (%s); no sweep",
            F->variants[v].name, (unsigned long long)chk.bad, (unsigned long long)chk.checked, chk.first);

    /* the points: every resident-block count the device allows, or --points */
    configure(v, 0);
    const int bmax = occupancy(v, ENG_CLEAN, 0);
    int bl[64];
    long sm[64];
    int np = 0;
    for (int b = 1; b <= bmax && b <= 64; b++) {
        int want = O.points.n == 0;
        for (size_t k = 0; k < O.points.n; k++) want |= O.points.v[k] == (uint64_t)b;
        if (!want) continue;
        long s = b == bmax ? 0 : smem_for_blocks(v, b);
        if (s < 0) {
            fprintf(stderr, "%s: note: no SMEM gives %d blocks/SM at WPB %u; skipped\n", PROG, b, CTX.wpb);
            continue;
        }
        bl[np] = b, sm[np++] = s;
    }
    for (size_t k = 0; k < O.points.n; k++)
        if (O.points.v[k] > (uint64_t)bmax)
            fprintf(stderr, "%s: note: --points %llu: at most %d blocks/SM fit at WPB %u; skipped\n",
                    PROG, (unsigned long long)O.points.v[k], bmax, CTX.wpb);
    if (np == 0) die("no point to sweep");

    double dram_cyc = NAN, dram_ns = NAN;
    if (O.ladder && plateau_dram_latency_from_tsv(O.ladder, &dram_cyc, &dram_ns, err, sizeof err) != 0)
        die("--ladder: %s", err);

    const int probes = has_probe(v);
    char (*rows)[768] = calloc((size_t)np, sizeof *rows);
    if (!rows) die("out of host memory");
    warplog_header last;
    memset(&last, 0, sizeof last);
    time_t t0 = time(NULL);
    for (int i = 0; i < np; i++) {
        point p;
        run_point(v, cfg, &g, (uint32_t)sm[i], &p, fixed_K);
        if (p.bps != bl[i])
            fprintf(stderr, "%s: warning: SMEM %ld gave %d blocks/SM, not %d\n", PROG, sm[i], p.bps, bl[i]);
        const double bytes = g.bytes_read + g.bytes_written;
        const double bw = bytes / (p.clean.med * 1e-3) / 1e9;
        lat_summary ls;
        memset(&ls, 0, sizeof ls);
        double clk = 0, bound = NAN, closure = NAN;
        long conc = -1;
        const char *logname = "nan";
        char path[1100];
        if (p.probes) {
            char serr[300];
            if (probeset_summary(p.probes, p.nprobes, CTX.wpb, g.records_per_warp, &ls, serr,
                                 sizeof serr) != 0)
                die("latency summary of the sweep point: %s", serr);
            clk = probeset_clock_MHz(p.probes, p.nprobes, p.gt_base, 20000);
            conc = probeset_max_concurrency(p.probes, p.nprobes);
            const double c = clk > 0 ? clk : DEV.sm_clock_nominal_khz / 1000.0;
            bound = littles_bound_GBps(DEV.peak_dram_GBps, DEV.sm_count, (double)p.bps * CTX.wpb,
                                       g.bytes_per_warp_load, c, ls.mean_cycles);
            closure = 100.0 * (bw - bound) / bound;
            log_path(path, sizeof path, v, &g, p.bps);
            fill_header(&last, v, &g, &p, clk, path);
            logname = start_log(&last, &p, path);
        }
        const int w = p.bps * (int)CTX.wpb;
        const double occ = 100.0 * w / (DEV.max_threads_per_sm / 32.0);
        snprintf(rows[i], sizeof rows[i],
                 "%u\t%d\t%d\t%.2f\t%.4f\t%.4f\t%.4f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.2f\tnan\tnan\t"
                 "%ld\t%s\t%u\t%.4f\t%.2f\t%.1f\t%.0f\n",
                 p.smem, p.bps, w, occ, p.clean.med, p.clean.min, p.clean.max, bw,
                 bytes / (p.clean.max * 1e-3) / 1e9, bytes / (p.clean.min * 1e-3) / 1e9,
                 probes ? ls.mean_cycles : NAN, probes ? ls.p50_cycles : NAN, bound, closure, conc,
                 logname, p.sample, probes ? p.instr.med : NAN, probes ? p.overhead_pct : NAN,
                 probes ? ls.p95_cycles : NAN, clk);
        if (!O.quiet)
            fprintf(stderr, "%s: [%d/%d] %d blocks/SM (SMEM %u): %.1f GB/s, latency %.0f cycles, "
                    "bound %.1f GB/s, 1 block in %u recorded, overhead %+.2f%%\n", PROG, i + 1, np,
                    p.bps, p.smem, bw, ls.mean_cycles, bound, p.sample, p.overhead_pct);
        free(p.probes);
    }
    fprintf(TBL, "# sweep of %s %s at WPB %u (docs/occupancy.md); the key/value lines up to "
                 "sweep_command are the header of the last point's log\n", F->name,
            F->variants[v].name, CTX.wpb);
    if (probes) {
        warplog_header_print(TBL, &last, "# ");
    } else {
        fprintf(TBL, "# experiment\t%s\n# kernel\t%s\n# warps_per_block\t%u\n# sm_count\t%d\n"
                     "# peak_dram_GBps\t%.6g\n# device_name\t%s\n", F->name, F->variants[v].name,
                CTX.wpb, DEV.sm_count, DEV.peak_dram_GBps, DEV.device_name);
    }
    fprintf(TBL, "# sweep_command\t");
    for (int i = 0; i < argc; i++) fprintf(TBL, "%s%s", i ? " " : "", argv[i]);
    fprintf(TBL, "\n# sweep_points\t");
    for (int i = 0; i < np; i++) fprintf(TBL, "%s%d", i ? "," : "", bl[i]);
    fprintf(TBL, "\n# sweep_reps\t%llu\n", (unsigned long long)O.reps);
    if (O.ladder)
        fprintf(TBL, "# ladder\t%s\n# dram_latency_cycles\t%.1f\n# dram_latency_ns\t%.1f\n", O.ladder,
                dram_cyc, dram_ns);
    fprintf(TBL, "# sweep_elapsed_s\t%.0f\n", difftime(time(NULL), t0));
    fputs(SWEEP_COLUMNS, TBL);
    for (int i = 0; i < np; i++) fputs(rows[i], TBL);
    free(rows);
    return 0;
}

/* ------------------------------------------------------------ several GPUs */

/* One measurement at a time on a GPU: an exclusive lock on a file named by
 * its UUID, held until the process ends.  Another warplat process that wants
 * the same GPU waits (and says so); other GPUs are not affected. */
static void lock_device(void)
{
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/warplat-%s.lock", dir && *dir ? dir : "/tmp",
             DEV.device_uuid[0] ? DEV.device_uuid : "gpu");
    const int fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0666);
    if (fd < 0) return;   /* no lock file: measure anyway, as before locks existed */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (!O.quiet)
            fprintf(stderr, "%s: waiting for %s (device %d): another warplat run is measuring on it\n",
                    PROG, DEV.device_name, CTX.device);
        if (flock(fd, LOCK_EX) != 0) die("cannot lock %s: %s", path, strerror(errno));
    }
    /* the descriptor stays open (and the lock held) until exit */
}

/* --device LIST|all with more than one GPU: this program again, once per GPU,
 * in parallel, each with --device k --out DIR/<gpu key> and its table in that
 * folder.  Returns the worst exit status. */
static int run_on_devices(int argc, char **argv, const int *ords, int nord)
{
    pid_t pids[64];
    char keys[64][160];
    extern char **environ;
    for (int i = 0; i < nord; i++) {
        warplog_header h;
        char err[256];
        warplog_header_init(&h);
        if (devinfo_fill(ords[i], &h, err, sizeof err) != 0) die("device %d: %s", ords[i], err);
        if (names_gpu(keys[i], sizeof keys[i], ords[i], h.device_uuid, h.device_name) != 0)
            snprintf(keys[i], sizeof keys[i], "gpu%d", ords[i]);
        char outdir[1024], table[1200], dev[16];
        snprintf(outdir, sizeof outdir, "%.800s/%.150s", O.out_dir, keys[i]);
        if (mkdir_p(outdir) != 0) die("cannot create %s: %s", outdir, strerror(errno));
        snprintf(table, sizeof table, "%s/%s.tsv", outdir, F->name);
        snprintf(dev, sizeof dev, "%d", ords[i]);
        /* argv with --device, --out and --table replaced */
        char **av = calloc((size_t)argc + 8, sizeof *av);
        if (!av) die("out of host memory");
        int k = 0;
        av[k++] = argv[0];
        for (int a = 1; a < argc; a++) {
            const char *x = argv[a];
            int skip_next = 0, skip = 0;
            for (const char *opt = "--device\0--out\0--table\0"; *opt; opt += strlen(opt) + 1) {
                const size_t ol = strlen(opt);
                if (!strcmp(x, opt)) skip = skip_next = 1;
                else if (!strncmp(x, opt, ol) && x[ol] == '=') skip = 1;
            }
            if (skip) { a += skip_next; continue; }
            av[k++] = argv[a];
        }
        av[k++] = "--device";
        av[k++] = dev;
        av[k++] = "--out";
        av[k++] = outdir;
        av[k++] = "--table";
        av[k++] = table;
        av[k] = NULL;
        if (posix_spawn(&pids[i], "/proc/self/exe", NULL, NULL, av, environ) != 0)
            die("cannot start the run on device %d: %s", ords[i], strerror(errno));
        free(av);
        fprintf(stderr, "%s: device %d (%s): running, results in %s\n", PROG, ords[i], keys[i], outdir);
    }
    int worst = 0;
    for (int i = 0; i < nord; i++) {
        int st = 0;
        if (waitpid(pids[i], &st, 0) < 0) st = 1 << 8;
        const int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
        fprintf(stderr, "%s: device %d (%s): %s (exit %d)\n", PROG, ords[i], keys[i], rc ? "FAILED" : "done", rc);
        if (rc > worst) worst = rc;
    }
    return worst;
}

/* ------------------------------------------------------------ main */

static int parse_positional(const cli_parse_result *r)
{
    int nall = 0, nreq = 0;
    while (F->posnames[nall]) nall++;
    while (nreq < nall && !F->posdefaults[nreq]) nreq++;
    const int all_default = nreq == 0;
    const int group = F->pos_group > 0 && F->pos_group < nall ? F->pos_group : nall;
    if (r->npos > nall) return cli_usage_error(PROG, "too many arguments (from '%s')", r->pos[nall]);
    if (all_default && r->npos != 0 && r->npos < group) {  /* a partial group */
        char names[64] = "";
        for (int i = 0; i < group; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " " : "", F->posnames[i]);
        return cli_usage_error(PROG, "expected %s%s (or none of them), got %d argument%s", names,
                               group < nall ? " first" : "", r->npos,
                               r->npos == 1 ? "" : "s");
    }
    if (r->npos < nreq) return cli_usage_error(PROG, "expected at least %d arguments (see --help)", nreq);
    char err[256];
    for (int i = 0; i < nall; i++) {
        const char *name = F->posnames[i];
        const char *s = i < r->npos ? r->pos[i] : F->posdefaults[i];
        uint64_t v = 0;
        int rc;
        if (!strcmp(name, "SMEM")) rc = cli_parse_range(name, s, 0, 1u << 30, &v, err, sizeof err);
        else if (!strcmp(name, "WPB")) rc = cli_parse_range(name, s, 1, 32, &v, err, sizeof err);
        else rc = cli_parse_count(name, s, 1ull << 36, &v, err, sizeof err);
        if (rc != 0) return cli_usage_error(PROG, "%s", err);
        CTX.pos[i] = v;
        if (!strcmp(name, "N")) CTX.n = v;
        if (!strcmp(name, "SMEM")) CTX.smem_bytes = (uint32_t)v;
        if (!strcmp(name, "WPB")) CTX.wpb = (uint32_t)v;
    }
    if (O.n_given) {
        int has_n = 0;
        for (int i = 0; i < nall; i++)
            if (!strcmp(F->posnames[i], "N")) has_n = 1, CTX.pos[i] = O.n_opt;
        if (!has_n) return cli_usage_error(PROG, "--n: %s has no N (see --help)", F->name);
        CTX.n = O.n_opt;
    }
    /* a family without N (a 2-D one, N0 x N1): n is the product of its sizes */
    int has_n = 0;
    for (int i = 0; i < nall; i++) has_n |= !strcmp(F->posnames[i], "N");
    if (!has_n) {
        uint64_t prod = 1;
        int any = 0;
        for (int i = 0; i < nall; i++)
            if (F->posnames[i][0] == 'N' || !strcmp(F->posnames[i], "DSIZE")) prod *= CTX.pos[i], any = 1;
        CTX.n = any ? prod : 0;
    }
    if (O.wpb_given) CTX.wpb = (uint32_t)O.wpb_opt;
    if (O.smem_given) CTX.smem_bytes = (uint32_t)O.smem_opt;
    for (int i = 0; i < nall; i++) {
        if (!strcmp(F->posnames[i], "WPB")) CTX.pos[i] = CTX.wpb;
        if (!strcmp(F->posnames[i], "SMEM")) CTX.pos[i] = CTX.smem_bytes;
    }
    if (!CTX.wpb) CTX.wpb = 4;
    CTX.tpb = 32 * CTX.wpb;
    return 0;
}

static int select_kernels(void)
{
    if (!O.kernels) {
        for (int v = 0; v < F->nvariants; v++) SELECTED[v] = 1;
        return 0;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", O.kernels);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int v = 0; v < F->nvariants; v++)
            if (!strcmp(tok, F->variants[v].name)) SELECTED[v] = 2, found = 1;
        if (!found) {
            char names[512] = "";
            for (int v = 0; v < F->nvariants; v++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", v ? ", " : "",
                         F->variants[v].name);
            return cli_usage_error(PROG, "unknown kernel '%s' (%s)", tok, names);
        }
    }
    return 0;
}

int eng_main(const eng_family *f, int argc, char **argv, int profile_only)
{
    static char progbuf[64];
    F = f;
    PROFILE_ONLY = profile_only;
    snprintf(progbuf, sizeof progbuf, "%s%s", f->name, profile_only ? "_profile" : "");
    PROG = progbuf;
    memset(&O, 0, sizeof O);
    O.reps = 10;
    O.warmup = 2;
    O.seed = 12345;
    O.out_dir = "data";
    O.devices = "0";
    O.carveout = 100;
    O.level = 1;
    O.max_overhead = 2.0;
    O.sample = "auto";
    O.min_records = 65536;

    split_options();
    const cli_opt *tables[3] = {APPLY, NOT_APPLY, f->options};
    cli_parse_result r;
    int rc = cli_parse(PROG, argc, argv, tables, f->options ? 3 : 2, ENG_MAX_POS, &r);
    if (rc) return rc;
    if (r.help) { usage(stdout); return fflush(stdout) == 0 ? 0 : 1; }
    if ((rc = refuse_not_applicable()) != 0) return rc;
    if (O.list_positional) {
        for (int i = 0; f->posnames[i]; i++) printf("%s\n", f->posnames[i]);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (O.list_kernels) {
        for (int v = 0; v < f->nvariants; v++) printf("%s\t%s\n", f->variants[v].name, f->variants[v].about);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (O.list_probed) {
        for (int v = 0; v < f->nvariants; v++)
            if (variant_probed(f, v)) printf("%s\n", f->variants[v].name);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if ((rc = parse_positional(&r)) != 0) return rc;
    /* the carveout: 100 in sweeps and occupancy listings (SMEM alone sets the
     * resident blocks); otherwise, unless given, chosen per kernel by
     * configure_kernel: the largest L1 that keeps the resident blocks */
    if (!O.carveout_given && (O.sweep || O.list_occupancy)) O.carveout = 100;
    if ((rc = select_kernels()) != 0) return rc;
    uint32_t fixed_K = 0;
    O.sample_mode_overhead = !strcmp(O.sample, "overhead");
    if (strcmp(O.sample, "auto") != 0 && !O.sample_mode_overhead) {
        uint64_t k;
        char err[256];
        if (cli_parse_count("--sample", O.sample, 1u << 30, &k, err, sizeof err) != 0)
            return cli_usage_error(PROG, "%s (or auto)", err);
        if (k & (k - 1))
            return cli_usage_error(PROG, "--sample %s: K must be a power of two (1, 2, 4, ...)", O.sample);
        fixed_K = (uint32_t)k;
        FIXED_K = fixed_K;
    }
    int nsel = 0;
    for (int v = 0; v < f->nvariants; v++) nsel += SELECTED[v] != 0;
    if (O.sweep && nsel != 1)
        return cli_usage_error(PROG, "--sweep takes one variant: add --kernel NAME");
    if (O.sweep && f->configs)
        for (int v = 0; v < f->nvariants; v++)
            if (SELECTED[v] && f->configs(&CTX, v) != 1)
                return cli_usage_error(PROG, "--sweep takes one configuration of %s", f->variants[v].name);
    const int logs = !profile_only && !O.no_probes && !O.list_occupancy;
    if (logs && dir_usable(O.out_dir, "--out") != 0) return 1;
    if (O.table && dir_usable(".", "--table") != 0) return 1;
    CTX.seed = O.seed;
    SAMPLE_OFFSET = (uint32_t)((O.seed * 0x9E3779B97F4A7C15ull) >> 40);
    /* --device: one ordinal, a list, or all */
    int ords[64], nord = 0;
    if (!strcmp(O.devices, "all")) {
        int n = 0;
        const cudaError_t e = cudaGetDeviceCount(&n);
        if (e != cudaSuccess || n == 0) {
            char err[512];
            devinfo_no_gpu(e, err, sizeof err);
            fprintf(stderr, "%s: --device all: %s\n", PROG, err);
            return 1;
        }
        for (int i = 0; i < n && i < 64; i++) ords[nord++] = i;
    } else {
        cli_list l;
        char err[256];
        if (cli_parse_list("--device", O.devices, 0, 1023, l.v, 64, &l.n, err, sizeof err) != 0)
            return cli_usage_error(PROG, "%s (or all)", err);
        for (size_t i = 0; i < l.n; i++) ords[nord++] = (int)l.v[i];
    }
    if (nord > 1) {
        if (O.list_occupancy || O.device_info) return cli_usage_error(PROG, "this takes one --device");
        if (dir_usable(O.out_dir, "--out") != 0) return 1;
        return run_on_devices(argc, argv, ords, nord);
    }
    CTX.device = ords[0];
    CTX.selected = SELECTED;
    const char *inj = getenv("WARPLAT_INJECT_CUDA_ERROR");
    if (inj && *inj) inject_at = atol(inj);

    char err[512];
    if (devinfo_select(CTX.device, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    warplog_header_init(&DEV);
    if (devinfo_fill(CTX.device, &DEV, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    CTX.dev = &DEV;
    if (cli_check_smem(CTX.smem_bytes, DEV.max_smem_optin_per_block, DEV.max_smem_per_sm,
                       DEV.reserved_smem_per_block, DEV.device_name, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 2;
    }
    if (DEV.sm_count > (int)WARP_PROBE_MAX_SMS) {
        fprintf(stderr, "%s: %s has %d SMs; the probe format holds SM ids below %u\n", PROG,
                DEV.device_name, DEV.sm_count, WARP_PROBE_MAX_SMS);
        return 1;
    }
    lock_device();
    if (O.list_occupancy) return list_occupancy();
    if (O.device_info) {
        printf("key\tvalue\n");
        warplog_header_print(stdout, &DEV, "");
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (logs && mkdir_p(O.out_dir) != 0) {
        fprintf(stderr, "%s: cannot create --out %s: %s\n", PROG, O.out_dir, strerror(errno));
        return 1;
    }
    logjob_install_signal_handlers();
    if (O.l2_fetch) ENG_CUDA(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, O.l2_fetch));
    ENG_CUDA(cudaDeviceGetLimit(&L2_FETCH_NOW, cudaLimitMaxL2FetchGranularity));
    hook(f->setup(&CTX), "setting up the inputs of", f->name);

    /* the probe buffer: every warp of the largest grid of the run */
    PROBE_CAP = 0;
    for (int v = 0; v < f->nvariants; v++) {
        if (!SELECTED[v]) continue;
        int nc = f->configs ? f->configs(&CTX, v) : 1;
        if (O.configs_max && (uint64_t)nc > O.configs_max) nc = (int)O.configs_max;
        for (int c = 0; c < nc; c++) {
            eng_geom g;
            memset(&g, 0, sizeof g);
            g.records_per_warp = 1;
            CFG = c;
            if (f->geometry(&CTX, v, c, &g, err, sizeof err) == 0 && g.blocks) {
                apply_wpb(&g);
                const uint64_t np = nprobes_for(&g, first_sample(&g));
                if (np > PROBE_CAP) PROBE_CAP = np;
                restore_wpb();
            }
        }
    }
    if (logs && PROBE_CAP) {
        size_t free_b = 0, total_b = 0;
        ENG_CUDA(cudaMemGetInfo(&free_b, &total_b));
        if (PROBE_CAP * sizeof(warp_probe) > free_b / 2)
            die("recording needs %.1f GB of device memory for the probes (%llu of them), more than "
                "half of what is free (%.1f GB): record fewer blocks (a larger --sample K)",
                PROBE_CAP * sizeof(warp_probe) / 1e9, (unsigned long long)PROBE_CAP, free_b / 1e9);
        ENG_CUDA(cudaMalloc((void **)&D_PROBES, PROBE_CAP * sizeof(warp_probe)));
    }
    ENG_CUDA(cudaEventCreate(&EV0));
    ENG_CUDA(cudaEventCreate(&EV1));

    table_open();
    atexit(table_remove_tmp);
    int failures = 0;
    if (O.sweep) {
        run_sweep(first_selected(), 0, fixed_K, argc, argv);
    } else {
        print_meta();
        fputs(SUMMARY_COLUMNS, TBL);
        fflush(TBL);
        for (int v = 0; v < f->nvariants; v++) {
            if (!SELECTED[v]) continue;
            int nc = f->configs ? f->configs(&CTX, v) : 1;
            if (O.configs_max && (uint64_t)nc > O.configs_max) nc = (int)O.configs_max;
            for (int c = 0; c < nc; c++) {
                CFG = c;
                failures += run_variant(v, c, fixed_K);
            }
        }
    }
    for (size_t j = 0; j < NJOBS; j++) {
        if (logjob_finish(JOBS[j].job, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", PROG, err);
            failures++;
        }
    }
    free(JOBS);
    if (table_close(1) != 0) failures++;   /* whole: every row, FAIL rows too */
    if (f->teardown) f->teardown(&CTX);
    cudaFree(D_PROBES);
    cudaEventDestroy(EV0);
    cudaEventDestroy(EV1);
    return failures ? 1 : 0;
}
