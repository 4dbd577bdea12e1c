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
 *
 * Exit: 0 ok, 1 unreadable input or write error, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "model_check.h"
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
    "The sector model checked on random configurations (docs/model_check.md).\n"
    "Exit status: 0 ok, 1 failure, 2 usage.\n";

typedef struct mc_args {
    uint64_t k, seed;
    const char *batch, *draws, *variants, *compare, *out;
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
    return outfile_check_stdout(PROG);
}

static int cmd_draw(const mc_args *a, const char *family)
{
    const struct fam_model *m = sf_model(family);
    if (!m) return cli_usage_error(PROG, "unknown family '%s' (model_check families lists them)", family);
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
    if (mc_draw(m, a->seed, (unsigned)a->k, a->variants, fb, fd, err, sizeof err) != 0) {
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
    static const char *const KEYS[] = {"family", "seed", "configurations", "variants", "ranges", "rerun"};
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
    return cli_usage_error(PROG, "unknown command '%s' (families, draw, judge, summary, repeat)", cmd);
}
