/*
 * sweep_ncu - put what Nsight Compute measured at each point of an
 * occupancy sweep into the sweep table: achieved occupancy and the DRAM read
 * bandwidth (scripts/occupancy_profile.sh --ncu, docs/occupancy.md).
 *
 *   sweep_ncu SWEEP.tsv --csv-dir DIR --kernel NAME [--note TEXT]
 *
 * DIR holds one ncu log per point, b<blocks_per_sm>.csv, written by
 *   ncu --csv --log-file DIR/b<B>.csv --print-units base --metrics
 *       sm__warps_active.avg.pct_of_peak_sustained_active,
 *       dram__bytes_read.sum.per_second APP ...
 * For each row of the table whose blocks_per_sm has a log, the last launch
 * of kernel NAME in it (the name as written, or followed by its signature)
 * gives achieved_occupancy_pct (the percentage, two decimals) and
 * dram_read_GBps (byte/s / 1e9, one decimal).  A point without a log, or
 * whose log has no such launch (no counter permission, ERR_NVGPUCTRPERM),
 * keeps its value (nan) and is named on stderr.  The table is read with the
 * toolkit's TSV reader (src/lib/tsv.h); its '#' lines are kept as they are,
 * "# ncu<TAB>TEXT" is added before the header, and it is rewritten through
 * outfile (a unique temporary renamed onto SWEEP.tsv), whole or not at all.
 *
 * Exit status: 0 ok (also when some points have no measurement: they are
 * named), 1 the table cannot be read or written, 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ncu_csv.h"
#include "outfile.h"
#include "sweepncu.h"
#include "tsv.h"

#define PROG "sweep_ncu"

static void usage(FILE *f)
{
    fputs("usage: sweep_ncu SWEEP.tsv --csv-dir DIR --kernel NAME [--note TEXT]\n"
          "  Fill achieved_occupancy_pct and dram_read_GBps of an occupancy sweep from\n"
          "  the ncu logs DIR/b<blocks_per_sm>.csv (one per point); the table is\n"
          "  rewritten whole.  Exit status: 0 ok, 1 runtime failure, 2 usage error.\n",
          f);
}

/* The kernel's last launch in the log: its two values (NAN when absent). */
static int measure(const char *csv, const char *kernel, double *ach, double *dram_GBps, char *why,
                   size_t whylen)
{
    *ach = *dram_GBps = NAN;
    ncu_table t;
    char err[512];
    if (ncu_table_read(csv, &t, err, sizeof err) != 0) {
        snprintf(why, whylen, "%s", err);
        return -1;
    }
    const int rc = sweepncu_point(&t, kernel, ach, dram_GBps, why, whylen);
    ncu_table_free(&t);
    return rc;
}

/* The '#' lines before the header, as they are, all but an earlier "# ncu" line. */
static int copy_preamble(const char *path, FILE *out)
{
    FILE *in = fopen(path, "r");
    if (!in) return -1;
    const int rc = sweepncu_preamble(in, out);
    fclose(in);
    return rc;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *kernel = NULL, *note = "ncu";
    const cli_opt opts[] = {
        {"--csv-dir", 0, CLI_STRING, 0, 0, 0, 0, &dir, "DIR", "the ncu logs, b<blocks_per_sm>.csv", 0, 0},
        {"--kernel", 0, CLI_STRING, 0, 0, 0, 0, &kernel, "NAME", "the profiled kernel's name", 0, 0},
        {"--note", 0, CLI_STRING, 0, 0, 0, 0, &note, "TEXT", "the table's '# ncu' line", 0, 0},
        CLI_END};
    const cli_opt *const tables[] = {opts};
    cli_parse_result r;
    const int prc = cli_parse(PROG, argc, argv, tables, 1, 1, &r);
    if (prc != 0) return prc;
    if (r.help) { usage(stdout); return outfile_check_stdout(PROG); }
    if (r.npos != 1) return cli_usage_error(PROG, "SWEEP.tsv is missing");
    if (!dir) return cli_usage_error(PROG, "--csv-dir DIR is missing");
    if (!kernel) return cli_usage_error(PROG, "--kernel NAME is missing");
    const char *path = r.pos[0];

    /* the table through the toolkit's one reader; written back whole */
    tsv_table t;
    char err[1024];
    if (tsv_read(path, &t, err, sizeof err) != 0) { fprintf(stderr, PROG ": %s\n", err); return 1; }
    const int ca = tsv_col(&t, "achieved_occupancy_pct"), cd = tsv_col(&t, "dram_read_GBps");
    if (tsv_col(&t, "blocks_per_sm") < 0 || ca < 0 || cd < 0) {
        fprintf(stderr, PROG ": %s is not an occupancy sweep (it needs the columns blocks_per_sm, "
                        "achieved_occupancy_pct and dram_read_GBps)\n", path);
        tsv_free(&t);
        return 1;
    }
    outfile of;
    char oerr[4400];
    FILE *out = outfile_open(&of, path, "w", oerr, sizeof oerr);
    if (!out) { fprintf(stderr, PROG ": %s\n", oerr); tsv_free(&t); return 1; }
    int rc = copy_preamble(path, out) == 0 ? 0 : 1, filled = 0;
    fprintf(out, "# ncu\t%s\n", note);
    for (size_t c = 0; c < t.ncol; c++) fprintf(out, "%s%s", c ? "\t" : "", t.col[c]);
    fputc('\n', out);
    const int rows = (int)t.nrow;
    for (size_t row = 0; row < t.nrow; row++) {
        const char *b = tsv_get(&t, row, "blocks_per_sm");
        char csv[4400], why[600], va[32] = "", vd[32] = "";
        snprintf(csv, sizeof csv, "%s/b%s.csv", dir, b);
        double ach, dram;
        FILE *probe = fopen(csv, "r");
        if (!probe) {
            fprintf(stderr, PROG ": %s blocks/SM: no ncu log %s; nan\n", b, csv);
        } else {
            fclose(probe);
            if (measure(csv, kernel, &ach, &dram, why, sizeof why) != 0) {
                fprintf(stderr, PROG ": %s blocks/SM: %s: %s; nan\n", b, csv, why);
            } else {
                if (isfinite(ach)) snprintf(va, sizeof va, "%.2f", ach);
                if (isfinite(dram)) snprintf(vd, sizeof vd, "%.1f", dram);
                filled++;
            }
        }
        for (size_t c = 0; c < t.ncol; c++) {
            const char *v = t.cell[row * t.ncol + c];
            if ((int)c == ca && *va) v = va;
            if ((int)c == cd && *vd) v = vd;
            fprintf(out, "%s%s", c ? "\t" : "", v);
        }
        fputc('\n', out);
    }
    tsv_free(&t);
    if (rc != 0) {
        outfile_abort(&of);
        fprintf(stderr, PROG ": cannot write %s\n", path);
        return 1;
    }
    if (outfile_commit(&of, oerr, sizeof oerr) != 0) {
        fprintf(stderr, PROG ": %s\n", oerr);
        return 1;
    }
    fprintf(stderr, PROG ": %s: ncu values at %d of %d points\n", path, filled, rows);
    return 0;
}
