/*
 * sampling - the sampling study (sampling.tsv, src/lib/sampling.h): which
 * launches to run, their logs pooled into one row per K, and whether the
 * sparsest K has converged.
 *
 *   sampling plan K,K,... [--base B]
 *       "K<TAB>SEED" per launch to run: sampling_runs(K, B) launches at each
 *       K (B default 32), seeds 1, 2, ...: each seed records other blocks
 *       (the engine derives the sample offset from it), so pooled they
 *       record as many warps as one launch at K = B.
 *   sampling pool [--label L] [--out FILE] LOG...
 *       one row per kernel, WPB and K of the logs: runs, distinct offsets,
 *       records, mean, p50 and p95 of every record of them together (exact,
 *       stats.h), the mean of their overheads, and label L (default fixed).
 *   sampling check TABLE [--tol PCT]
 *       per variant, the sparsest K (the unperturbed figure) against the
 *       next sparsest: p50 and p95 and how far apart, converged yes/no
 *       (within PCT, default 1); then the report's sentence as a comment.
 *
 * Exit status: 0 done (check: whether or not converged), 1 a log or table
 * cannot be read, 2 usage.  --out writes through outfile (whole or nothing).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "sampling.h"
#include "stats.h"
#include "warplog.h"

#define PROG "sampling"
#define MAX_GROUPS 256

static void usage(FILE *f)
{
    fputs("usage: sampling plan K,K,... [--base B]\n"
          "       sampling pool [--label L] [--out FILE] LOG...\n"
          "       sampling check TABLE [--tol PCT]\n"
          "  plan: the launches (K and seed) that record, pooled, as many warps per K as\n"
          "        one launch at K = B (32)\n"
          "  pool: one row per kernel, WPB and K of the logs, their records pooled\n"
          "  check: is the sparsest K's p50 and p95 within PCT (1) of the next sparsest?\n", f);
}

static int cmd_plan(int argc, char **argv)
{
    uint64_t base = 32;
    const cli_opt opts[] = {
        {"--base", 0, CLI_U64, 1, 1u << 30, 0, 0, &base, "B", "one launch at this K sets the records", 0, 0},
        CLI_END};
    cli_parse_result res;
    const int prc = cli_main_parse(PROG " plan", argc, argv, opts, 1, "usage: sampling plan K,K,... [--base B]\n", 1, &res);
    if (prc >= 0) return prc;
    if (res.npos != 1) return cli_usage_error(PROG, "plan: want one list of K (1,4,16,64,256)");
    uint64_t k[CLI_LIST_MAX];
    size_t n;
    char err[256];
    if (cli_parse_list("K", res.pos[0], 1, 1u << 30, k, CLI_LIST_MAX, &n, err, sizeof err) != 0)
        return cli_usage_error(PROG, "plan: %s", err);
    for (size_t i = 0; i < n; i++) {
        if (k[i] & (k[i] - 1)) return cli_usage_error(PROG, "plan: K must be a power of two (got %llu)", (unsigned long long)k[i]);
        for (uint32_t s = 1; s <= sampling_runs((uint32_t)k[i], (uint32_t)base); s++)
            printf("%llu\t%u\n", (unsigned long long)k[i], s);
    }
    return outfile_check_stdout(PROG);
}

/* One kernel, WPB and K of the pooled logs. */
typedef struct group {
    char kernel[32];
    uint32_t wpb, K, runs, offsets;
    uint32_t offset_seen[64];      /* the first 64 distinct offsets, to count them */
    double overhead_sum;
    lat_stats *st;
} group;

/* The group of h, made when new; NULL when there are too many or no memory. */
static group *group_of(group *g, size_t *ng, const warplog_header *h)
{
    for (size_t i = 0; i < *ng; i++)
        if (!strncmp(g[i].kernel, h->kernel, sizeof g[i].kernel) && g[i].wpb == h->warps_per_block &&
            g[i].K == h->sample_blocks)
            return &g[i];
    if (*ng == MAX_GROUPS) return NULL;
    group *x = &g[(*ng)++];
    memset(x, 0, sizeof *x);
    snprintf(x->kernel, sizeof x->kernel, "%.*s", (int)strnlen(h->kernel, sizeof h->kernel), h->kernel);
    x->wpb = h->warps_per_block, x->K = h->sample_blocks;
    x->st = lat_stats_new();
    return x->st ? x : NULL;
}

static void put_pool(FILE *f, const group *g, size_t ng, const lat_summary *s, const char *label)
{
    fputs("# bin/sampling pool: every record of the launches at one K together (src/lib/sampling.h)\n"
          "variant\twpb\tsample\truns\toffsets\trecords\tlat_mean_cycles\tlat_p50_cycles\tlat_p95_cycles\t"
          "overhead_pct\tlabel\n", f);
    for (size_t i = 0; i < ng; i++)
        fprintf(f, "%s\t%u\t%u\t%u\t%u\t%llu\t%.1f\t%.1f\t%.1f\t%.2f\t%s\n", g[i].kernel, g[i].wpb, g[i].K,
                g[i].runs, g[i].offsets, (unsigned long long)s[i].count, s[i].mean_cycles, s[i].p50_cycles,
                s[i].p95_cycles, g[i].overhead_sum / g[i].runs, label);
}

static int cmd_pool(int argc, char **argv)
{
    const char *label = "fixed", *out = NULL;
    const cli_opt opts[] = {
        {"--label", 0, CLI_STRING, 0, 0, 0, 0, &label, "L", "the rows' label (fixed)", 0, 0},
        {"--out", 0, CLI_STRING, 0, 0, 0, 0, &out, "FILE", "write FILE", 0, 0},
        CLI_END};
    cli_parse_result res;
    const int prc = cli_main_parse(PROG " pool", argc, argv, opts, CLI_MAX_POS,
                                   "usage: sampling pool [--label L] [--out FILE] LOG...\n", 1, &res);
    if (prc >= 0) return prc;
    if (res.npos == 0) return cli_usage_error(PROG, "pool: no LOG given");
    group *g = calloc(MAX_GROUPS, sizeof *g);
    lat_summary *s = calloc(MAX_GROUPS, sizeof *s);
    size_t ng = 0;
    int rc = 1;
    char err[1024] = "out of memory";
    for (int i = 0; g && s && i < res.npos; i++) {
        warplog_reader *rd = warplog_reader_open(res.pos[i], err, sizeof err);
        if (!rd) goto done;
        const warplog_header h = *warplog_reader_header(rd);
        warplog_reader_close(rd);
        group *x = group_of(g, &ng, &h);
        if (!x) { snprintf(err, sizeof err, "more than %d kernels and K, or out of memory", MAX_GROUPS); goto done; }
        if (lat_stats_read_log(x->st, res.pos[i], NULL, err, sizeof err) != 0) goto done;
        x->runs++;
        x->overhead_sum += h.overhead_pct;
        int seen = 0;
        for (uint32_t o = 0; o < x->offsets && o < 64; o++) seen |= x->offset_seen[o] == h.sample_offset;
        if (!seen && x->offsets < 64) x->offset_seen[x->offsets++] = h.sample_offset;
    }
    for (size_t i = 0; g && s && i < ng; i++)
        if (lat_stats_summary(g[i].st, LAT_STATS_ALL, &s[i]) != 0) goto done;
    if (!g || !s) goto done;
    if (!out) {
        put_pool(stdout, g, ng, s, label);
        rc = outfile_check_stdout(PROG);
        goto done;
    }
    outfile of;
    FILE *f = outfile_open(&of, out, "w", err, sizeof err);
    if (!f) goto done;
    put_pool(f, g, ng, s, label);
    rc = outfile_commit(&of, err, sizeof err) == 0 ? 0 : 1;
done:
    if (rc == 1) fprintf(stderr, PROG ": pool: %s\n", err);
    for (size_t i = 0; g && i < ng; i++) lat_stats_free(g[i].st);
    free(g);
    free(s);
    return rc;
}

static int cmd_check(int argc, char **argv)
{
    double tol = 1;
    const cli_opt opts[] = {
        {"--tol", 0, CLI_DOUBLE, 0, 0, 0, 100, &tol, "PCT", "converged: within PCT percent (1)", 0, 0},
        CLI_END};
    cli_parse_result res;
    const int prc = cli_main_parse(PROG " check", argc, argv, opts, 1,
                                   "usage: sampling check TABLE [--tol PCT]\n", 1, &res);
    if (prc >= 0) return prc;
    if (res.npos != 1) return cli_usage_error(PROG, "check: want one TABLE (sampling.tsv)");
    tsv_table t;
    char err[1024];
    if (tsv_read(res.pos[0], &t, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": check: %s\n", err);
        return 1;
    }
    sampling_conv c[64];
    const size_t n = sampling_verdicts(&t, tol, c, 64);
    printf("variant\tk_unperturbed\tk_next\tp50_cycles\tp95_cycles\tp50_diff_pct\tp95_diff_pct\trecords\truns\tconverged\n");
    for (size_t i = 0; i < n; i++)
        printf("%s\t%.0f\t%.0f\t%.1f\t%.1f\t%+.2f\t%+.2f\t%.0f\t%.0f\t%s\n", c[i].variant, c[i].k_hi, c[i].k_lo,
               c[i].p50_hi, c[i].p95_hi, c[i].p50_diff_pct, c[i].p95_diff_pct, c[i].records_hi, c[i].runs_hi,
               c[i].converged ? "yes" : "no");
    char note[4096];
    if (sampling_note(c, n, tol, note, sizeof note) == 0) printf("# %s\n", note);
    tsv_free(&t);
    if (!n) fprintf(stderr, PROG ": check: %s has no variant with two K above 1\n", res.pos[0]);
    return outfile_check_stdout(PROG);
}

int main(int argc, char **argv)
{
    const int rc = cli_command_start(PROG, argc, argv, usage);
    if (rc >= 0) return rc;
    if (!strcmp(argv[1], "plan")) return cmd_plan(argc - 1, argv + 1);
    if (!strcmp(argv[1], "pool")) return cmd_pool(argc - 1, argv + 1);
    if (!strcmp(argv[1], "check")) return cmd_check(argc - 1, argv + 1);
    return cli_usage_error(PROG, "unknown command '%s' (plan, pool or check)", argv[1]);
}
