/*
 * names.h - the one naming contract of result files (docs/naming.md).
 *
 * Builders write a name into buf (at most len bytes) and return 0, or -1 when
 * a part is not allowed (an experiment with '_' or '/', an empty part) or the
 * name does not fit.  names_parse() reads a file's base name back.
 */
#ifndef WARPLAT_NAMES_H
#define WARPLAT_NAMES_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum names_kind {
    NAMES_UNKNOWN = 0,
    NAMES_SUMMARY,        /* <exp>_<N>_wpb<W>.tsv */
    NAMES_LOG,            /* <exp>_<variant>[-<label>]_<W>.bin */
    NAMES_SWEEP,          /* sweep_<exp>_<variant>_<W>.tsv */
    NAMES_SECTORS,        /* sectors_<exp>.tsv */
    NAMES_SASS,           /* sass_<exp>.txt */
    NAMES_LATENCY_STATS,  /* latency_stats_<N>_wpb<W>.tsv */
    NAMES_LADDER,         /* latency_ca.tsv, latency_cg.tsv */
    NAMES_FIXED,          /* device.tsv, overhead.tsv, sampling.tsv, nvidia_smi.csv, and the
                             families' own (family.h fam_runs.fixed_files: ceiling.tsv) */
    NAMES_LOGDIR,         /* logs_<N>: a folder */
    NAMES_NCU,            /* ncu/<exp>_<label>.csv, ncu/<exp>.csv.gz (label ""): raw Nsight Compute output */
    NAMES_LEGACY,         /* legacy: a folder of files from before the contract */
    NAMES_NCU_TABLE       /* <exp>_ncu_<N>.tsv: a family's Nsight Compute counts at N */
} names_kind;

/* A kind's name as bin/names parse prints it ("summary", "log", ...). */
const char *names_kind_name(names_kind k);

int names_summary(char *buf, size_t len, const char *exp, const char *n, unsigned wpb);
int names_log(char *buf, size_t len, const char *exp, const char *variant, const char *label,
              unsigned wpb);
int names_logdir(char *buf, size_t len, const char *n);
int names_sweep(char *buf, size_t len, const char *exp, const char *variant, unsigned wpb);
int names_sectors(char *buf, size_t len, const char *exp);
int names_sass(char *buf, size_t len, const char *exp);
int names_latency_stats(char *buf, size_t len, const char *n, unsigned wpb);
int names_ncu_table(char *buf, size_t len, const char *exp, const char *n);

/* What a base name is.  exp, variant, label and n receive the parts (each a
 * buffer of `partlen` bytes, any may be NULL); *wpb the warps per block (0
 * when the kind has none). */
names_kind names_parse(const char *base, char *exp, char *variant, char *label, char *n,
                       size_t partlen, unsigned *wpb);

/* The folder of one GPU's results among several (--device all, a fleet):
 * "gpu<ordinal>-<first 8 hex digits of the UUID>-<name in lower case with
 * dashes>", e.g. gpu0-1ab6f806-nvidia-h100-80gb-hbm3. */
int names_gpu(char *buf, size_t len, int ordinal, const char *uuid, const char *name);

/* The script that runs a family whose runs are not the generic summaries
 * ("scripts/stencil.sh"), run by scripts/reference.sh's families section
 * (scripts/<family>.sh OUTDIR [--quick] [--ladder TSV]); NULL for the
 * others.  The family's report entry says it (report_family.h script);
 * tests/cli/report_families.sh checks it against scripts/. */
const char *names_family_script(const char *exp);

/*
 * The one way a name from a log or a user (a region, a kernel: data) enters
 * a file name: "<prefix><name><suffix>", e.g. ("latency_", "gather",
 * ".svg") -> "latency_gather.svg".  name must pass warplog_name_check (1 to
 * 31 characters of [A-Za-z0-9_.-], no leading '.'), prefix and suffix are
 * the caller's words of [A-Za-z0-9_.-].  The result is one path component
 * and never "." or "..", nor hidden: it holds no '/' and does not start
 * with '.', whatever name says.  0, or -1 with buf "" (a bad part, or
 * len too small).
 */
int names_from_name(char *buf, size_t len, const char *prefix, const char *name, const char *suffix);

/* The experiment name is acceptable: [a-z0-9]+ */
int names_valid_exp(const char *exp);

/* The section of scripts/reference.sh that writes a file of this base name
 * ("summaries", "logs", "sweeps", ...), or NULL when reference.sh does not
 * write it (sectors: scripts/ncu_profile.sh). */
const char *names_reference_section(const char *base);

/*
 * The command that makes the result file `base` in results folder `dir`,
 * for the report's "missing" notes: "scripts/reference.sh DIR --only
 * summaries", "scripts/ncu_profile.sh --out DIR" for sectors, the family's
 * own script (report_family.h) for the summaries of a family that has one,
 * for a family's fixed file (ceiling.tsv) and for <exp>_ncu_<N>.tsv.  0, or -1 when
 * base is not a name of the contract or the command does not fit.
 */
int names_command(char *buf, size_t len, const char *dir, const char *base);

#ifdef __cplusplus
}
#endif
#endif
