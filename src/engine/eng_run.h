/*
 * eng_run.h - what the engine's rooms share (private to src/engine/; the
 * families' contract is engine.h).
 *
 * One eng_run is made by eng_main at start-up and handed down to every
 * function of the engine: the options as parsed, the configuration (the
 * context the hooks see), the device's facts and what the run holds (the
 * probe buffer, the events, the table, the log jobs).  The engine keeps
 * nothing in a global: its only statics are read-only tables.  What a signal
 * must clean up (temporary logs and the --table temporary) is registered by
 * the library that writes it (logjob.c, outfile.c), not here.
 *
 * Warps per block has one home: r->ctx.wpb, the run's (positional WPB or
 * --wpb; 4 for a family without WPB), set once by eng_parse_positional.  A
 * variant that fixes its own block (eng_geom.wpb: tiling's tiles) runs with a
 * copy of the context (eng_var.ctx), so nothing it does reaches the next
 * variant or sweep point.
 *
 * The rooms, from the top floor down (each calls only rooms below it):
 *   main.c       eng_main: one device's run (variants, sweep or batch), or one
 *                process per device; and the program's main()
 *   batch.c      --batch-file FILE: one run per line, in one process, one table
 *   sweep.c      --sweep: one row per resident-block count
 *   variant.c    the per-variant runner: validate, time, one row, the log
 *   run.c        start-up: the command line checked, the early listings, the
 *                device opened, the run's inputs and probe buffer set up
 *   measure.c    validation, warm-up, interleaved timing, sampling
 *   table.c      the summary: '#' lines, then the rows (columns.c)
 *   log.c        the log's header, path and writer jobs
 *   occupancy.c  SMEM opt-in, carveout, resident blocks, --list-occupancy,
 *                the sweep's points
 *   options.c    the common options, which apply, --help, positionals, --kernel
 *   devices.c    --out and --table folders, --device LIST|all, the GPU lock
 *   columns.c    the summary's columns: one table for header, row, --list-columns
 *   fail.c       how the engine fails: eng_die, eng_hook, eng_cuda_fail
 */
#ifndef WARPLAT_ENG_RUN_H
#define WARPLAT_ENG_RUN_H

#include <stdio.h>

#include "engine.h"
#include "logjob.h"
#include "outfile.h"

/* The common options as parsed (read-only once eng_parse_options returns). */
typedef struct eng_opts {
    const char *kernels;
    int list_positional, list_kernels, list_probed, list_columns, list_options; /* ENG_LISTS_HOST */
    int list_occupancy, device_info;                                 /* ENG_LISTS_GPU */
    int sweep, no_probes, quiet;
    uint64_t reps, warmup, l2_fetch, carveout, level, seed;
    const char *out_dir, *sample, *ladder, *table, *devices;
    const char *batch;         /* --batch-file FILE: one run per line (batch.c) */
    double max_overhead, ceiling;
    double precision;          /* --precision: stop timing once the median is known within it, % */
    uint64_t min_reps;         /* --min-reps */
    uint64_t min_records, configs_max;
    cli_list points;
    int seed_given, carveout_given;
    uint64_t wpb_opt, smem_opt, n_opt;
    int wpb_given, smem_given, n_given;
} eng_opts;

/* The options that print a listing and exit instead of measuring, each a
 * row X(FIELD, OPTION, HELP, PRINT): OPTION sets the eng_opts flag FIELD and
 * PRINT, an int (*)(const eng_run *) of run.c or occupancy.c, prints it and
 * returns the exit status.  Where several are given the first in this order
 * wins.  Those that need no GPU are printed as soon as the command line is
 * read (run.c): */
#define ENG_LISTS_HOST(X)                                                                         \
    X(list_positional, "--list-positional",                                                       \
      "print the positional arguments' names, one per line, and exit", print_positional)          \
    X(list_kernels, "--list-kernels",                                                             \
      "print the variants, one per line (name, what it does), and exit", print_kernels)           \
    X(list_probed, "--list-probed",                                                               \
      "print the variants that have an instrumented kernel (per-warp probes and\n"                \
      "a log), one per line, and exit; none: the family measures throughput only",                \
      print_probed)                                                                               \
    X(list_columns, "--list-columns",                                                             \
      "print the summary's columns, one per line (name, what it holds), and exit",                \
      print_columns)                                                                              \
    X(list_options, "--list-options",                                                             \
      "print the positionals and options this program accepts, one per line (TSV:\n"             \
      "option, kind, lo, hi, choices, scope), and exit", eng_list_options)
/* and those that ask the GPU, from the one --device once it is open: */
#define ENG_LISTS_GPU(X)                                                                          \
    X(list_occupancy, "--list-occupancy",                                                         \
      "print, for WPB, the SMEM that gives each number of resident blocks per SM",                \
      eng_list_occupancy)                                                                         \
    X(device_info, "--device-info",                                                               \
      "print the device's facts as a key/value table (device.tsv) and exit", print_device_info)

#define ENG_MAX_COMMON 40     /* rows of the common option table, CLI_END included */
#define ENG_MAX_VARIANTS 256

/* The common options split for this program: those that apply (listed by
 * --help, parsed into eng_opts) and those that do not (parsed without reading
 * their value, then refused with the reason). */
typedef struct eng_optsplit {
    cli_opt apply[ENG_MAX_COMMON];
    cli_opt not_apply[ENG_MAX_COMMON];
    int not_apply_given[ENG_MAX_COMMON];
    const char *not_apply_value;
    int not_apply_flag;
} eng_optsplit;

/* A log being written in the background, joined at the end of the run. */
typedef struct eng_pending {
    logjob *job;
    char path[1024];
} eng_pending;

typedef struct eng_run {
    const eng_family *fam;
    int profile_only;          /* PROG_profile: clean kernels only */
    char prog[64];             /* "readonly", "readonly_profile": every message's prefix */
    eng_opts opt;
    eng_optsplit cli;

    /* the configuration, fixed at start-up */
    eng_ctx ctx;               /* what the hooks see; ctx.state is the family's */
    int selected[ENG_MAX_VARIANTS]; /* 1: runs, 2: asked for by name (--kernel) */
    uint32_t fixed_K;          /* --sample K, or 0 (auto, overhead) */
    int sample_mode_overhead;  /* --sample overhead */
    uint32_t sample_offset;    /* which block of each group of K records (warplog.h) */
    long inject_at;            /* WARPLAT_INJECT_CUDA_ERROR: the probe launch that fails */
    long probe_launches;       /* ... counted here */
    int trace;                 /* WARPLAT_TRACE: step times on stderr (trace.c) */
    double trace_t0;

    /* the device */
    warplog_header dev;
    size_t l2_fetch_now;       /* cudaLimitMaxL2FetchGranularity as set */
    size_t l2_fetch_default;   /* batch: the limit before any line, put back for a line
                                  without --l2-fetch (0: not a batch, leave it) */
    uint64_t batch_line;       /* the line of --batch-file FILE this run is (0: no batch) */

    /* what the run holds */
    cudaEvent_t ev0, ev1;
    warp_probe *d_probes;      /* device: room for every warp of the largest grid */
    uint64_t probe_cap;        /* probes that fit */
    FILE *tbl;                 /* the table: stdout, or table_out's temporary */
    outfile table_out;
    eng_pending *jobs;
    size_t njobs, capjobs;
} eng_run;

/* One configuration of one variant, as it runs. */
typedef struct eng_var {
    int v, cfg;
    eng_geom g;
    eng_ctx ctx;               /* r->ctx with this variant's WPB (g.wpb, else the run's) */
} eng_var;

typedef struct eng_timing {
    double med, min, max;
    double ci_lo, ci_hi;       /* the 95 % bootstrap interval of med */
    uint64_t n;                /* launches timed */
} eng_timing;

/* One measured point: a variant at one SMEM (a sweep has several). */
typedef struct eng_point {
    int bps, bps_probe;        /* resident blocks per SM: clean twin, probe kernel */
    uint32_t smem;
    int carveout;              /* the carveout set on the log's kernel (the probe kernel) */
    eng_timing clean, instr;
    double overhead_pct;
    uint32_t sample;
    uint64_t nprobes, sampled_blocks;
    warp_probe *probes;        /* host copy, owned */
    uint64_t gt_base;
    int overhead_met;
} eng_point;

/* ---- run.c: start-up, and what a run holds on one device. */
/* Parse argv into r and check it (no GPU touched): 0, or the exit status
 * (*done set when the program should exit now: an error, --help, --list-*). */
int eng_configure_run(eng_run *r, int argc, char **argv, int *done);
/* r->dev is filled: does the run fit the device (SMEM, SM count)?  0 or the
 * exit status. */
int eng_fits_device(eng_run *r);
/* The listing of ENG_LISTS_GPU asked for, printed once the device is open:
 * its exit status; -1 when none was. */
int eng_list_on_device(const eng_run *r);
/* Select GPU ordinal and read its facts into r->dev; then eng_fits_device.
 * 0 or the exit status. */
int eng_open_device(eng_run *r, int ordinal);
/* Before the variants (device open and locked): --out, the L2 fetch limit,
 * the family's inputs, the probe buffer, the events.  0 or the exit status. */
int eng_device_begin(eng_run *r);
/* Undo eng_device_begin (the logs are joined by the caller first). */
void eng_device_end(eng_run *r);

/* ---- variant.c */
/* Validate, time and report configuration cfg of v: one row; 1 when it failed validation. */
int eng_run_variant(eng_run *r, int v, int cfg);
/* Every selected variant and configuration, a row each to r->tbl: the
 * number that failed validation. */
int eng_run_selected(eng_run *r);

/* ---- batch.c */
/* --batch-file FILE on the open device: every line of FILE run as its own run
 * (its arguments, then the command line's others), rows to one table.
 * 0, 1 (a run failed) or 2 (a line is not a valid command line). */
int eng_run_batch(eng_run *outer, int argc, char **argv);
/* Every line of --batch-file FILE configured, no GPU touched: 0, or 2 (said). */
int eng_batch_check(const eng_run *outer, int argc, char **argv);

/* ---- fail.c: failures.  Each removes every temporary log first. */
void eng_die(const eng_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* The same with exit status `status` (2: a value the device cannot take). */
void eng_die_status(const eng_run *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
/* A hook's return code rc: nothing when 0, else the CUDA error with what the
 * engine was doing, and exit 1. */
void eng_hook(const eng_run *r, int rc, const char *what, const char *variant);

/* ---- trace.c: WARPLAT_TRACE, one stderr line per step with its time. */
void eng_trace_start(eng_run *r);
void eng_trace(const eng_run *r, const char *step, const char *what);

/* ---- options.c */
void eng_opts_defaults(eng_opts *o);
/* Parse argv: 0, or the exit status of a usage error (2); r->opt filled. */
int eng_parse_options(eng_run *r, int argc, char **argv, cli_parse_result *pr);
void eng_usage(const eng_run *r, FILE *f);
/* How many of the listings of ENG_LISTS_HOST, of ENG_LISTS_GPU, o asks for. */
int eng_host_lists_asked(const eng_opts *o);
int eng_gpu_lists_asked(const eng_opts *o);
/* Variant v has an instrumented kernel in this build. */
int eng_variant_probed(const eng_run *r, int v);
/* The positionals, --n, --wpb, --smem into r->ctx; 0 or 2 (usage error). */
int eng_parse_positional(eng_run *r, const cli_parse_result *pr);
/* --kernel into r->selected; 0 or 2. */
int eng_select_kernels(eng_run *r);
/* --sample into r->fixed_K and r->sample_mode_overhead; 0 or 2. */
int eng_parse_sample(eng_run *r);
int eng_first_selected(const eng_run *r);
/* Configurations of v this run runs (--configs-max). */
int eng_nconfigs(const eng_run *r, int v);
/* What a positional named name accepts: CLI_U64 [lo, hi] or CLI_COUNT up to hi. */
cli_kind eng_positional_range(const char *name, uint64_t *lo, uint64_t *hi);
/* --list-options: the positionals, then every option that applies; 0 or 1. */
int eng_list_options(const eng_run *r);

/* ---- devices.c */
int eng_dir_usable(const eng_run *r, const char *dir, const char *opt);
int eng_mkdir_p(const char *dir);
/* --device into ords (at most 64); 0, or an exit status. */
int eng_parse_devices(const eng_run *r, int *ords, int *nord);
int eng_run_on_devices(const eng_run *r, int argc, char **argv, const int *ords, int nord);
void eng_lock_device(const eng_run *r);

/* ---- occupancy.c */
/* Opt-in, carveout (carveout_pct >= 0: that one; -1: the smallest that keeps
 * the resident blocks of 100) on kernel k; returns the carveout set, -1 for
 * no kernel. */
int eng_configure_kernel(const warplog_header *dev, int carveout_pct, const void *k, uint32_t tpb,
                         uint32_t smem);
/* All three kernels of x at smem; the carveout of the log's kernel. */
int eng_configure(const eng_run *r, const eng_var *x, uint32_t smem);
int eng_occupancy(const eng_run *r, const eng_var *x, eng_mode m, uint32_t smem);
long eng_smem_for_blocks(const eng_run *r, const eng_var *x, int b);
int eng_list_occupancy(const eng_run *r);
int eng_is_kernel(const eng_run *r, const eng_var *x);
int eng_has_probe(const eng_run *r, const eng_var *x);
/* The sweep's points of x: bl[i] blocks per SM at sm[i] bytes of SMEM (room
 * for 64); how many (0: none fits). */
int eng_sweep_points(const eng_run *r, const eng_var *x, int *bl, long *sm, int quiet);

/* ---- measure.c */
/* The geometry of configuration cfg of v into x (and x->ctx); 0, or -1 when
 * the family skips it: said on stderr, and exit 2 when v was asked for by
 * name, unless quiet (then also -1 for an empty grid). */
int eng_variant_at(const eng_run *r, int v, int cfg, eng_var *x, int quiet);
/* Before any GPU work (the device's facts known, nothing allocated): every
 * selected configuration's geometry.  2 after a sentence when a variant
 * asked for by name cannot run one, or when nothing at all can run; else 0
 * (the others are skipped, with a word, when they run). */
int eng_check_configs(const eng_run *r);
/* The prepare hook of x (its inputs), if the family has one. */
void eng_prepare(eng_run *r, eng_var *x);
uint64_t eng_nprobes_for(const eng_run *r, const eng_var *x, uint32_t K);
uint32_t eng_first_sample(const eng_run *r, const eng_var *x);
void eng_launch_one(eng_run *r, const eng_var *x, eng_mode m, uint32_t smem, uint32_t K);
int eng_validate(eng_run *r, const eng_var *x, uint32_t smem, eng_check *chk);
void eng_run_point(eng_run *r, const eng_var *x, uint32_t smem, eng_point *p);

/* ---- log.c */
void eng_fill_header(const eng_run *r, warplog_header *h, const eng_var *x, const eng_point *p,
                     double clk);
void eng_log_path(const eng_run *r, char *buf, size_t len, const eng_var *x, int bps);
/* Hand p's probes to a writer thread; returns the log's path (kept by r). */
const char *eng_start_log(eng_run *r, const warplog_header *h, eng_point *p, const char *path);
/* Join every writer; the number that failed. */
int eng_finish_logs(eng_run *r);

/* ---- table.c */
void eng_table_open(eng_run *r);
int eng_table_close(eng_run *r, int keep);
void eng_print_meta(const eng_run *r);

/* ---- sweep.c */
int eng_run_sweep(eng_run *r, int v, int argc, char **argv);

#endif
