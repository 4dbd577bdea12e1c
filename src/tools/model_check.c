/*
 * model_check.c - bin/model_check: the sector model on random configurations
 * (issue 25; docs/model_check.md).  scripts/model_check.sh sequences it
 * around ncu; every step here is GPU-free.
 *
 *   model_check families
 *       the families whose model draws random configurations
 *   model_check draw FAMILY --random K --seed S --batch-file FILE --draws FILE [--variants LIST]
 *       K configurations (the family's variants in turn): an engine --batch-file
 *       file and the draws' table (id, variant, n, WPB, args)
 *   model_check judge --compare CMP.tsv [--draws DRAWS.tsv] [--out FILE]
 *       bin/sector_compare --family's table judged strictly (model_check.h):
 *       model_check_<family>.tsv, one row per configuration, variant and op
 *   model_check summary [--out FILE] JUDGED.tsv...
 *       rows, rows agreeing, the percentage and each mismatch class, per
 *       family and in all; the seeds and ranges of the draws in its header
 *   model_check repeat [--out FILE] CMP.tsv CMP.tsv...
 *       one batch's comparison tables from two or more ncu runs: how far
 *       each measured count moves between runs (mc_repeat)
 *   model_check tolerate [--draws DRAWS.tsv] [--out FILE] CMP.tsv...
 *       the judged rule of issue 36 over the R runs' comparison tables of
 *       one batch (model_tol.h): model_check_tol_<family>.tsv
 *   model_check tsummary [--out FILE] [--worst N --worst-out FILE] TOL.tsv...
 *       per family and quantity: agreement under that rule and the strict
 *       one, the rows that needed the spread; the N worst rows with args
 *   model_check kind FAMILY
 *       "sector" (bin/sector_model and bin/sector_compare model it) or
 *       "atomics" (its own model: metrics and atomics-compare below)
 *   model_check metrics atomics
 *       ncu's --metrics list of the atomics comparison
 *   model_check kernels FAMILY
 *       ncu's --kernel-name regex of FAMILY's batches: its variants'
 *       kernels, not the validation kernels (NAME_check) beside them
 *   model_check atomics-compare --runs RUNS.tsv --ncu EXT.tsv [--dram-granularity B] [--out FILE]
 *       the atomics batch's comparison table (src/families/atomics/atomics_check.h)
 *   model_check batch --draws DRAWS.tsv --batch-file FILE
 *       the engine's --batch-file of a fixed draws' table (the calibration
 *       probes, src/families/FAMILY/calib.tsv)
 *   model_check seeds HASH
 *       the two seeds of a frozen commit: its first and next 8 hex digits
 *   model_check model-paths
 *       the git pathspecs of the model's files (a change: not held out)
 *
 * draw takes --commit HASH and --held-out WORDS too: '#' lines of the draws'
 * heads that every table after them repeats.
 *
 * Exit: 0 ok, 1 unreadable input or write error, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../families/atomics/atomics_check.h"
#include "../families/atomics/variants.h"
#include "model_check.h"
#include "model_tol.h"
#include "sector_expect.h"
#include "outfile.h"
#include "sector_families.h"
#include "sector_family.h"
#include "tsv.h"

#define PROG "model_check"

static const char usage_text[] =
    "usage: model_check families\n"
    "       model_check draw FAMILY --random K --seed S --batch-file FILE --draws FILE [--variants LIST]\n"
    "       model_check judge --compare CMP.tsv [--draws DRAWS.tsv] [--out FILE]\n"
    "       model_check summary [--out FILE] JUDGED.tsv...\n"
    "       model_check repeat [--out FILE] CMP.tsv CMP.tsv...\n"
    "       model_check tolerate [--draws DRAWS.tsv] [--out FILE] CMP.tsv...\n"
    "       model_check tsummary [--out FILE] [--worst N --worst-out FILE] TOL.tsv...\n"
    "       model_check kind FAMILY | kernels FAMILY | metrics atomics | seeds HASH | model-paths\n"
    "       model_check batch --draws DRAWS.tsv --batch-file FILE\n"
    "       model_check atomics-compare --runs RUNS.tsv --ncu EXT.tsv [--dram-granularity B] [--out FILE]\n"
    "The sector model checked on random configurations (docs/model_check.md).\n"
    "Exit status: 0 ok, 1 failure, 2 usage.\n";

typedef struct mc_args {
    uint64_t k, seed, worst, gran;
    const char *batch, *draws, *variants, *compare, *out, *commit, *held_out, *worst_out, *runs, *ncu;
    int given_k, given_seed;
} mc_args;

/* Open out (NULL: stdout) through the one writer. */
static FILE *open_out(outfile *o, const char *path, char *err, size_t len)
{
    return path ? outfile_open(o, path, "w", err, len) : stdout;
}

static int close_out(outfile *o, const char *path, FILE *f)
{
    char err[1400];
    if (path) {
        if (outfile_commit(o, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            return 1;
        }
        return 0;
    }
    return f == stdout && outfile_check_stdout(PROG) != 0;
}

static int cmd_families(void)
{
    char buf[512];
    sf_family_list(buf, sizeof buf, 1);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        const struct fam_model *m = sf_model(t);
        if (m && m->draw && m->nvariants) printf("%s\n", t);
    }
    printf("atomics\n");   /* its own model (src/families/atomics/atomics_check.h) */
    return outfile_check_stdout(PROG);
}

static int cmd_draw(const mc_args *a, const char *family)
{
    const struct fam_model *m = sf_model(family);
    const int atomics = !strcmp(family, "atomics");
    if (!m && !atomics) return cli_usage_error(PROG, "unknown family '%s' (model_check families lists them)", family);
    if (!a->given_k || !a->given_seed || !a->batch || !a->draws)
        return cli_usage_error(PROG, "draw takes --random K, --seed S, --batch-file FILE and --draws FILE");
    char err[1400];
    outfile ob, od;
    FILE *fb = outfile_open(&ob, a->batch, "w", err, sizeof err);
    if (!fb) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    FILE *fd = outfile_open(&od, a->draws, "w", err, sizeof err);
    if (!fd) {
        outfile_abort(&ob);
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    char meta[512] = "";
    if (a->commit)
        snprintf(meta, sizeof meta, "# commit\t%s\n# held_out\t%s\n", a->commit, a->held_out ? a->held_out : "?");
    if ((atomics ? ma_draw(a->seed, (unsigned)a->k, meta, fb, fd, err, sizeof err)
                 : mc_draw_meta(m, a->seed, (unsigned)a->k, a->variants, meta, fb, fd, err, sizeof err)) != 0) {
        outfile_abort(&ob);
        outfile_abort(&od);
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    /* both or neither: the batch and its draws' table are one run's pair, so
     * both are written out (flushed, synced) before either is renamed */
    if (outfile_close(&ob, err, sizeof err) != 0 || outfile_close(&od, err, sizeof err) != 0) {
        outfile_abort(&ob);
        outfile_abort(&od);
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    if (outfile_commit(&ob, err, sizeof err) != 0) {
        outfile_abort(&od);
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    if (outfile_commit(&od, err, sizeof err) != 0) {
        unlink(a->batch); /* the pair's other half, renamed a moment ago */
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    return 0;
}

/* The draws' '#' lines that a judged table or a summary repeats. */
static void draw_meta(FILE *f, const tsv_table *d)
{
    static const char *const KEYS[] = {"family", "seed", "configurations", "variants", "ranges", "rerun",
                                       "commit", "held_out"};
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++) {
        const char *v = tsv_meta(d, KEYS[i]);
        if (v) fprintf(f, "# %s\t%s\n", KEYS[i], v);
    }
}

static int cmd_judge(const mc_args *a)
{
    if (!a->compare) return cli_usage_error(PROG, "judge takes --compare CMP.tsv");
    tsv_table cmp, dr;
    char err[1400];
    if (tsv_read(a->compare, &cmp, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    if (a->draws && tsv_read(a->draws, &dr, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        tsv_free(&cmp);
        return 1;
    }
    int rc = 1;
    outfile o;
    FILE *f = open_out(&o, a->out, err, sizeof err);
    if (!f) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    fprintf(f, "# model_check judge: the sector model on random configurations, judged strictly "
               "(docs/model_check.md)\n");
    if (a->draws) draw_meta(f, &dr);
    static const char *const CKEYS[] = {"device", "dram_granularity_bytes", "l2_bytes", "date", "ncu"};
    for (size_t i = 0; i < sizeof CKEYS / sizeof CKEYS[0]; i++)
        if (tsv_meta(&cmp, CKEYS[i])) fprintf(f, "# %s\t%s\n", CKEYS[i], tsv_meta(&cmp, CKEYS[i]));
    fprintf(f, "# agree\tyes: every judged quantity inside the model's bounds (L1 requests and sectors "
               "exact) and no bound wider than %.0f %% of its point prediction\n", 100 * SF_BOUND_MAX_FRAC);
    if (mc_judge(&cmp, a->draws ? &dr : NULL, f, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        if (a->out) outfile_abort(&o);
        goto done;
    }
    rc = close_out(&o, a->out, f);
done:
    tsv_free(&cmp);
    if (a->draws) tsv_free(&dr);
    return rc;
}

/* Read nfiles tables into t; the count read, less than nfiles when one
 * could not be read (said on stderr). */
static int read_tables(char **files, int nfiles, tsv_table *t)
{
    char err[1400];
    for (int i = 0; i < nfiles; i++)
        if (tsv_read(files[i], &t[i], err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            return i;
        }
    return nfiles;
}

static int cmd_summary(const mc_args *a, char **files, int nfiles)
{
    if (nfiles < 1) return cli_usage_error(PROG, "summary takes one or more judged tables");
    if (nfiles > 64) return cli_usage_error(PROG, "summary takes at most 64 tables");
    tsv_table t[64];
    char err[1400];
    int rc = 1;
    const int nread = read_tables(files, nfiles, t);
    if (nread < nfiles) goto done;
    mc_counts all, per[64];
    memset(&all, 0, sizeof all);
    memset(per, 0, sizeof per);
    for (int i = 0; i < nfiles; i++)
        if (mc_count(&t[i], &per[i], err, sizeof err) != 0 || mc_count(&t[i], &all, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            goto done;
        }
    outfile o;
    FILE *f = open_out(&o, a->out, err, sizeof err);
    if (!f) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    fprintf(f, "# model_check summary: rows agreeing with the sector model on random configurations "
               "(docs/model_check.md)\n");
    for (int i = 0; i < nfiles; i++) {
        const char *fam = tsv_meta(&t[i], "family");
        fprintf(f, "# draws_%s\tseed %s, %s configurations; %s\n", fam ? fam : "?",
                tsv_meta(&t[i], "seed") ? tsv_meta(&t[i], "seed") : "?",
                tsv_meta(&t[i], "configurations") ? tsv_meta(&t[i], "configurations") : "?",
                tsv_meta(&t[i], "ranges") ? tsv_meta(&t[i], "ranges") : "ranges unknown");
    }
    if (tsv_meta(&t[0], "device")) fprintf(f, "# device\t%s\n", tsv_meta(&t[0], "device"));
    mc_summary_header(f);
    for (int i = 0; i < nfiles; i++) {
        const char *fam = tsv_meta(&t[i], "family");
        mc_summary_row(f, fam ? fam : files[i], &per[i]);
    }
    mc_summary_row(f, "all", &all);
    rc = close_out(&o, a->out, f);
done:
    for (int i = 0; i < nread; i++) tsv_free(&t[i]);
    return rc;
}

static int cmd_repeat(const mc_args *a, char **files, int nfiles)
{
    if (nfiles < 2) return cli_usage_error(PROG, "repeat takes two or more comparison tables of one batch");
    if (nfiles > 64) return cli_usage_error(PROG, "repeat takes at most 64 tables");
    tsv_table t[64];
    char err[1400];
    int rc = 1;
    const int nread = read_tables(files, nfiles, t);
    if (nread < nfiles) goto done;
    outfile o;
    FILE *f = open_out(&o, a->out, err, sizeof err);
    if (!f) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    fprintf(f, "# model_check repeat: one batch profiled %d times; how far each measured count moves "
               "between runs (docs/model_check.md)\n", nfiles);
    const char *fam = t[0].nrow ? tsv_get(&t[0], 0, "family") : NULL;
    if (fam) fprintf(f, "# family\t%s\n", fam);
    if (tsv_meta(&t[0], "device")) fprintf(f, "# device\t%s\n", tsv_meta(&t[0], "device"));
    fprintf(f, "# spread\tper row, (max - min) / max of the runs' counts, percent\n");
    if (mc_repeat(t, nfiles, f, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        if (a->out) outfile_abort(&o);
        goto done;
    }
    rc = close_out(&o, a->out, f);
done:
    for (int i = 0; i < nread; i++) tsv_free(&t[i]);
    return rc;
}

static int cmd_tolerate(const mc_args *a, char **files, int nfiles)
{
    if (nfiles < 1 || nfiles > 64) return cli_usage_error(PROG, "tolerate takes 1 to 64 comparison tables of one batch");
    tsv_table t[64], dr;
    char err[1400];
    int rc = 1;
    const int nread = read_tables(files, nfiles, t);
    if (nread < nfiles) goto done;
    if (a->draws && tsv_read(a->draws, &dr, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    outfile o;
    FILE *f = open_out(&o, a->out, err, sizeof err);
    if (!f) {
        fprintf(stderr, PROG ": %s\n", err);
        goto drop;
    }
    fprintf(f, "# model_check tolerate: the model's expected count judged against the median of %d run(s) "
               "(docs/model_check.md, the judged rule)\n", nfiles);
    if (a->draws) draw_meta(f, &dr);
    static const char *const CKEYS[] = {"device", "dram_granularity_bytes", "l2_bytes", "date", "ncu"};
    for (size_t i = 0; i < sizeof CKEYS / sizeof CKEYS[0]; i++)
        if (tsv_meta(&t[0], CKEYS[i])) fprintf(f, "# %s\t%s\n", CKEYS[i], tsv_meta(&t[0], CKEYS[i]));
    fprintf(f, "# tolerance\tthe largest of %.0f %% of the median (pct), %.0f x the row's spread, max - min over "
               "the runs (spread), %.1f %% of its L1 sectors (allow); L1 requests, sectors and the grid exact\n",
            100 * MT_PCT_FRAC, MT_SPREAD_FACTOR, 100 * MT_ALLOW_FRAC);
    fprintf(f, "# expected\tthe model's one number: for the stencil's L1 hits, L2 requests and sectors the "
               "count with the merges in flight expected (of the opportunities min(1, A W^-B), W the warps an SM "
               "holds at once: stores A %.3g B %.3g times L^-%.3g, L the loads before a store, and %.3g where WPB is "
               "a multiple of 4, loads %.3g %.3g; deriv1's loads "
               "the same law of what lies above the grid's distinct sectors, %.3g %.3g, and lines, %.3g %.3g: the "
               "L2 request coalescer); the loads' L2 request shares x %.3g where a block's warps spread "
               "unevenly over the SM's %u schedulers (WPB above %u and not a multiple of it), "
               "for copy's batch_restrict and int4 stores the L2 requests and sectors with the mean over a line's "
               "S - 1 later stores of 2^-((j L W / X)^%.3g), X = %.3g A^%.3g (L lines a store instruction, A the "
               "share of SMs the grid fills), batch and batch_unrolled 1/%u of 2^-((L - 2) / %u), for patterns' "
               "offset_ca, offset_nc and reread_ca loads (reread_nc and soa*_all beyond WPB %u) the L2 requests, "
               "all of theirs up to WPB %u, beyond it over the warps' orders (the reversed %u/%u of the time) "
               "and %u/%u of theirs, and its write_offset and write_range64 stores the L2 requests and sectors "
               "with min(1, %.3g WPB^-%.3g) of theirs, and its random_ca and random_nc loads the L1 hits of the SM's "
               "shared L1 (another float of the sector loaded on the SM within its last min(j, %d) accesses) "
               "(src/sector/sector_expect.h); "
               "else <q>_exp_pred where the comparison has it, else <q>_pred; the bracket is shown, never judged\n",
            SF_MERGE_ST_A, SF_MERGE_ST_B, SF_MERGE_ST_C, SF_MERGE_ST_EVEN, SF_MERGE_LD_A, SF_MERGE_LD_B, SF_LRC_SEC_A, SF_LRC_SEC_B,
            SF_LRC_REQ_A, SF_LRC_REQ_B, SF_SMSP_UNEVEN, SF_SM_SCHEDULERS, SF_SM_SCHEDULERS,
            SF_MERGE_COPY_K, SF_MERGE_COPY_WIN, SF_MERGE_COPY_ACT, SF_MERGE_COPY_PLAIN_DIV, SF_MERGE_COPY_HALF,
            SF_MERGE_OFF_WPB, SF_MERGE_OFF_WPB, SF_MERGE_OFF_REV_NUM,
            SF_MERGE_OFF_REV_DEN, SF_MERGE_OFF_NUM, SF_MERGE_OFF_DEN, SF_MERGE_OFF_ST_A, SF_MERGE_OFF_ST_B,
            (int)SF_RANDOM_L1_SECTORS);
    if (mt_judge(t, nfiles, a->draws ? &dr : NULL, f, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        if (a->out) outfile_abort(&o);
        goto drop;
    }
    rc = close_out(&o, a->out, f);
drop:
    if (a->draws) tsv_free(&dr);
done:
    for (int i = 0; i < nread; i++) tsv_free(&t[i]);
    return rc;
}

static int write_worst(const mc_args *a, const tsv_table *t, int n)
{
    char err[1400];
    outfile o;
    FILE *f = outfile_open(&o, a->worst_out, "w", err, sizeof err);
    if (!f) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    fprintf(f, "# model_check tsummary: the rows furthest outside their tolerance (worst = |expected - "
               "median| / tolerance); ./FAMILY_profile ARGS reruns one\n");
    if (mt_worst(t, n, (size_t)a->worst, f, err, sizeof err) != 0) {
        outfile_abort(&o);
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    return close_out(&o, a->worst_out, f);
}

static int cmd_tsummary(const mc_args *a, char **files, int nfiles)
{
    if (nfiles < 1 || nfiles > 64) return cli_usage_error(PROG, "tsummary takes 1 to 64 tolerate tables");
    if (!a->worst != !a->worst_out) return cli_usage_error(PROG, "--worst N and --worst-out FILE go together");
    tsv_table t[64];
    char err[1400];
    int rc = 1;
    const int nread = read_tables(files, nfiles, t);
    if (nread < nfiles) goto done;
    mt_counts all, per[64];
    memset(&all, 0, sizeof all);
    memset(per, 0, sizeof per);
    for (int i = 0; i < nfiles; i++)
        if (mt_count(&t[i], &per[i], err, sizeof err) != 0 || mt_count(&t[i], &all, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            goto done;
        }
    outfile o;
    FILE *f = open_out(&o, a->out, err, sizeof err);
    if (!f) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    fprintf(f, "# model_check tsummary: per family and quantity, rows within tolerance of the model's expected "
               "count, and under the strict rule (docs/model_check.md)\n");
    for (int i = 0; i < nfiles; i++) {
        const char *fam = tsv_meta(&t[i], "family");
        fprintf(f, "# draws_%s\tseed %s, %s configurations, %s run(s); %s\n", fam ? fam : "?",
                tsv_meta(&t[i], "seed") ? tsv_meta(&t[i], "seed") : "?",
                tsv_meta(&t[i], "configurations") ? tsv_meta(&t[i], "configurations") : "?",
                t[i].nrow ? tsv_get(&t[i], 0, "runs") : "?",
                tsv_meta(&t[i], "ranges") ? tsv_meta(&t[i], "ranges") : "ranges unknown");
    }
    static const char *const KEYS[] = {"commit", "held_out", "device"};
    for (size_t k = 0; k < sizeof KEYS / sizeof KEYS[0]; k++)
        if (tsv_meta(&t[0], KEYS[k])) fprintf(f, "# %s\t%s\n", KEYS[k], tsv_meta(&t[0], KEYS[k]));
    mt_summary_header(f);
    for (int i = 0; i < nfiles; i++) {
        const char *fam = tsv_meta(&t[i], "family");
        if (!fam && t[i].nrow && tsv_col(&t[i], "family") >= 0) fam = tsv_get(&t[i], 0, "family");
        mt_summary_rows(f, fam ? fam : files[i], &per[i]);
    }
    mt_summary_rows(f, "all", &all);
    rc = close_out(&o, a->out, f);
    if (rc == 0 && a->worst_out) rc = write_worst(a, t, nfiles);
done:
    for (int i = 0; i < nread; i++) tsv_free(&t[i]);
    return rc;
}

static int cmd_atomics_compare(const mc_args *a)
{
    if (!a->runs || !a->ncu) return cli_usage_error(PROG, "atomics-compare takes --runs RUNS.tsv and --ncu EXT.tsv");
    tsv_table runs, ext;
    char err[1400];
    if (tsv_read(a->runs, &runs, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    if (tsv_read(a->ncu, &ext, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        tsv_free(&runs);
        return 1;
    }
    int rc = 1;
    outfile o;
    FILE *f = open_out(&o, a->out, err, sizeof err);
    if (!f) fprintf(stderr, PROG ": %s\n", err);
    else if (ma_compare(&runs, &ext, a->gran ? (unsigned)a->gran : 64, f, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        if (a->out) outfile_abort(&o);
    } else rc = close_out(&o, a->out, f);
    tsv_free(&runs);
    tsv_free(&ext);
    return rc;
}

static int cmd_batch(const mc_args *a)
{
    if (!a->draws || !a->batch) return cli_usage_error(PROG, "batch takes --draws DRAWS.tsv and --batch-file FILE");
    tsv_table d;
    char err[1400];
    if (tsv_read(a->draws, &d, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    outfile o;
    int rc = 1;
    FILE *f = outfile_open(&o, a->batch, "w", err, sizeof err);
    if (!f) fprintf(stderr, PROG ": %s\n", err);
    else if (mc_batch_of_draws(&d, f, err, sizeof err) != 0) {
        outfile_abort(&o);
        fprintf(stderr, PROG ": %s\n", err);
    } else rc = close_out(&o, a->batch, f);
    tsv_free(&d);
    return rc;
}

/* The kernels ncu profiles for FAMILY's batches: every variant's, and not
 * the validation kernels the engine launches beside them (NAME_check),
 * which double the profiled launches and which no comparison reads:
 * ^FAMILY_(V1|V2|...)(_b[0-9]+)?$, the form of the families' ncu recipes
 * (copy's batch kernels are named NAME_bB).  0, or -1 for a family the
 * check does not draw or a buffer too small. */
static int mc_kernel_regex(const char *family, char *buf, size_t len)
{
    const char *names[64];
    size_t nn = 0;
    if (!strcmp(family, "atomics")) {
        for (int v = 0; v < AT_NVARIANTS && nn < sizeof names / sizeof names[0]; v++)
            names[nn++] = atomics_variant_name(v);
    } else {
        const struct fam_model *m = sf_model(family);
        if (!m || !m->draw || m->nvariants > sizeof names / sizeof names[0]) return -1;
        for (size_t v = 0; v < m->nvariants; v++)
            names[nn++] = m->variants[v].name;
    }
    if (nn == 0) return -1;
    int n = snprintf(buf, len, "^%s_(", family);
    size_t used = n < 0 ? len : (size_t)n;
    for (size_t i = 0; i < nn && used < len; i++) {
        n = snprintf(buf + used, len - used, "%s%s", i ? "|" : "", names[i]);
        used = n < 0 ? len : used + (size_t)n;
    }
    if (used < len) {
        n = snprintf(buf + used, len - used, ")(_b[0-9]+)?$");
        used = n < 0 ? len : used + (size_t)n;
    }
    return used < len ? 0 : -1;
}

static int cmd_small(const char *cmd, char **pos, int npos)
{
    char err[256], buf[4096];
    if (!strcmp(cmd, "kind")) {
        if (npos != 1) return cli_usage_error(PROG, "kind takes one FAMILY");
        if (!strcmp(pos[0], "atomics")) puts("atomics");
        else if (sf_model(pos[0]) && sf_model(pos[0])->draw) puts("sector");
        else return cli_usage_error(PROG, "'%s' is not checked on random configurations", pos[0]);
    } else if (!strcmp(cmd, "metrics")) {
        if (npos != 1 || strcmp(pos[0], "atomics")) return cli_usage_error(PROG, "metrics takes atomics");
        if (ma_metrics(buf, sizeof buf) != 0) return 1;
        puts(buf);
    } else if (!strcmp(cmd, "kernels")) {
        if (npos != 1) return cli_usage_error(PROG, "kernels takes one FAMILY");
        if (mc_kernel_regex(pos[0], buf, sizeof buf) != 0)
            return cli_usage_error(PROG, "'%s' is not checked on random configurations", pos[0]);
        puts(buf);
    } else if (!strcmp(cmd, "seeds")) {
        uint64_t s[2];
        if (npos != 1) return cli_usage_error(PROG, "seeds takes one commit HASH");
        if (mc_commit_seeds(pos[0], s, err, sizeof err) != 0) return cli_usage_error(PROG, "%s", err);
        printf("%llu %llu\n", (unsigned long long)s[0], (unsigned long long)s[1]);
    } else {
        if (npos != 0) return cli_usage_error(PROG, "model-paths takes no argument");
        for (int i = 0; MC_MODEL_PATHS[i]; i++) puts(MC_MODEL_PATHS[i]);
    }
    return outfile_check_stdout(PROG);
}

int main(int argc, char **argv)
{
    mc_args a;
    memset(&a, 0, sizeof a);
    const cli_opt opts[] = {
        {"--random", 0, CLI_U64, 1, 100000, 0, 0, &a.k, "K", "draw: configurations per family", 0, &a.given_k},
        {"--seed", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &a.seed, "S", "draw: the seed", 0, &a.given_seed},
        {"--batch-file", 0, CLI_STRING, 0, 0, 0, 0, &a.batch, "FILE", "draw: the engine's --batch-file", 0, 0},
        {"--draws", 0, CLI_STRING, 0, 0, 0, 0, &a.draws, "FILE", "the draws' table (draw writes, judge reads)",
         0, 0},
        {"--variants", 0, CLI_STRING, 0, 0, 0, 0, &a.variants, "LIST", "draw: only these variants", 0, 0},
        {"--compare", 0, CLI_STRING, 0, 0, 0, 0, &a.compare, "CMP.tsv",
         "judge: bin/sector_compare --family's table of the batch", 0, 0},
        {"--out", 0, CLI_STRING, 0, 0, 0, 0, &a.out, "FILE", "write here (whole or not at all)", 0, 0},
        {"--commit", 0, CLI_STRING, 0, 0, 0, 0, &a.commit, "HASH", "draw: the frozen commit the seed came from", 0,
         0},
        {"--held-out", 0, CLI_STRING, 0, 0, 0, 0, &a.held_out, "WORDS",
         "draw: yes, or why not (the model changed since the commit)", 0, 0},
        {"--worst", 0, CLI_U64, 1, 1000, 0, 0, &a.worst, "N", "tsummary: the N worst rows", 0, 0},
        {"--worst-out", 0, CLI_STRING, 0, 0, 0, 0, &a.worst_out, "FILE", "tsummary: write the worst rows here", 0,
         0},
        {"--runs", 0, CLI_STRING, 0, 0, 0, 0, &a.runs, "RUNS.tsv", "atomics-compare: the engine's table", 0, 0},
        {"--ncu", 0, CLI_STRING, 0, 0, 0, 0, &a.ncu, "EXT.tsv", "atomics-compare: bin/ncu_extract's table", 0, 0},
        {"--dram-granularity", 0, CLI_U64, 32, 128, 0, 0, &a.gran, "B", "atomics-compare: DRAM fetch bytes (64)",
         0, 0},
        CLI_END,
    };
    cli_parse_result r;
    const int prc = cli_main_parse(PROG, argc, argv, opts, 64, usage_text, 1, &r);
    if (prc >= 0) return prc;
    if (r.npos < 1) {
        fputs(usage_text, stderr);
        return 2;
    }
    const char *cmd = r.pos[0];
    if (!strcmp(cmd, "families")) return r.npos == 1 ? cmd_families() : cli_usage_error(PROG, "families takes no argument");
    if (!strcmp(cmd, "draw"))
        return r.npos == 2 ? cmd_draw(&a, r.pos[1]) : cli_usage_error(PROG, "draw takes one FAMILY");
    if (!strcmp(cmd, "judge")) return r.npos == 1 ? cmd_judge(&a) : cli_usage_error(PROG, "judge takes no argument");
    if (!strcmp(cmd, "summary")) return cmd_summary(&a, r.pos + 1, r.npos - 1);
    if (!strcmp(cmd, "repeat")) return cmd_repeat(&a, r.pos + 1, r.npos - 1);
    if (!strcmp(cmd, "tolerate")) return cmd_tolerate(&a, r.pos + 1, r.npos - 1);
    if (!strcmp(cmd, "tsummary")) return cmd_tsummary(&a, r.pos + 1, r.npos - 1);
    if (!strcmp(cmd, "batch")) return r.npos == 1 ? cmd_batch(&a) : cli_usage_error(PROG, "batch takes no argument");
    if (!strcmp(cmd, "atomics-compare"))
        return r.npos == 1 ? cmd_atomics_compare(&a) : cli_usage_error(PROG, "atomics-compare takes no argument");
    if (!strcmp(cmd, "kind") || !strcmp(cmd, "metrics") || !strcmp(cmd, "seeds") || !strcmp(cmd, "model-paths") ||
        !strcmp(cmd, "kernels"))
        return cmd_small(cmd, r.pos + 1, r.npos - 1);
    return cli_usage_error(PROG, "unknown command '%s' (families, draw, judge, summary, repeat, tolerate, tsummary, "
                                 "kind, kernels, metrics, atomics-compare, batch, seeds, model-paths)", cmd);
}
