/*
 * tsv_scale - a copy of a table with columns multiplied by a factor: the
 * way to make a deliberately wrong results folder (a "sick GPU") for the
 * fleet tests, from real data, without editing committed files.
 *
 *   tsv_scale IN --columns C[,C...] --factor F [--rows-from COL=V] --out OUT
 *
 * Every line is copied as it is except the named columns of the data rows
 * (of the rows whose COL is at least V, with --rows-from), which are
 * multiplied by F and written with the decimals they had.  A line
 * "# scaled<TAB>..." saying what was changed is added just above the header,
 * so that the copy never passes for a measurement.  Columns are found by
 * name in the header (the first line not starting with '#').
 *
 * Limits: a line of at most 1 MiB, an input of at most 1 GiB (IN may be a
 * device or a FIFO that never ends: it is refused, not read forever).
 *
 * Exit status: 0 written; 1 unreadable input, a column missing, a field
 * that is not a number, an input over the limits, or a write error (OUT is
 * then not written); 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "tsvscale.h"

#define PROG "tsv_scale"

static void usage(FILE *f, const cli_opt *opts)
{
    fprintf(f, "usage: " PROG " IN --columns C[,C...] --factor F [--rows-from COL=V] --out OUT\n"
               "\n"
               "Copy the table IN to OUT with the named columns multiplied by F (in the rows\n"
               "whose COL is at least V, with --rows-from), marking the copy with a\n"
               "\"# scaled\" line.  For test data only: a measured table is never edited.\n\n");
    cli_print_options(f, opts);
    fprintf(f, "\nExit status: 0 written, 1 runtime error, 2 usage.\n");
}

int main(int argc, char **argv)
{
    const char *columns = NULL, *out = NULL, *rows_from = NULL;
    double factor = NAN;
    int factor_given = 0;
    const cli_opt opts[] = {
        {"--columns", 0, CLI_STRING, 0, 0, 0, 0, &columns, "C,C", "the columns to scale, by name", 0, 0},
        {"--factor", 0, CLI_DOUBLE, 0, 0, -1e12, 1e12, &factor, "F", "multiply by F", 0, &factor_given},
        {"--rows-from", 0, CLI_STRING, 0, 0, 0, 0, &rows_from, "COL=V",
         "only the rows whose numeric COL is at least V", 0, 0},
        {"--out", 'o', CLI_STRING, 0, 0, 0, 0, &out, "OUT", "the copy (written whole or not at all)", 0, 0},
        CLI_END,
    };
    const cli_opt *tables[1] = {opts};
    cli_parse_result r;
    int rc = cli_parse(PROG, argc, argv, tables, 1, 1, &r);
    if (rc) return rc;
    if (r.help) {
        usage(stdout, opts);
        return outfile_check_stdout(PROG);
    }
    if (r.npos != 1) return cli_usage_error(PROG, "one input table is needed");
    if (!columns) return cli_usage_error(PROG, "--columns is missing");
    if (!factor_given) return cli_usage_error(PROG, "--factor is missing");
    if (!out) return cli_usage_error(PROG, "--out is missing");
    char from_col[128] = "";
    double from_v = 0;
    if (rows_from) {
        const char *eq = strchr(rows_from, '=');
        char err[256];
        if (!eq || eq == rows_from || (size_t)(eq - rows_from) >= sizeof from_col)
            return cli_usage_error(PROG, "--rows-from wants COL=VALUE (got '%s')", rows_from);
        memcpy(from_col, rows_from, (size_t)(eq - rows_from));
        from_col[eq - rows_from] = 0;
        if (cli_parse_double("--rows-from", eq + 1, -1e300, 1e300, &from_v, err, sizeof err) != 0)
            return cli_usage_error(PROG, "%s", err);
    }

    FILE *in = fopen(r.pos[0], "r");
    if (!in) {
        fprintf(stderr, PROG ": cannot read %s: %s\n", r.pos[0], strerror(errno));
        return 1;
    }
    outfile of;
    char oerr[4400];
    FILE *o = outfile_open(&of, out, "w", oerr, sizeof oerr);
    if (!o) {
        fprintf(stderr, PROG ": %s\n", oerr);
        fclose(in);
        return 1;
    }
    const tsvscale_spec spec = {columns, factor, from_col, from_v};
    long scaled_rows = 0;
    rc = tsvscale_copy(in, r.pos[0], o, &spec, &scaled_rows, oerr, sizeof oerr) != 0;
    if (rc) fprintf(stderr, PROG ": %s\n", oerr);
    fclose(in);
    if (rc != 0) {
        outfile_abort(&of);
    } else if (outfile_commit(&of, oerr, sizeof oerr) != 0) {
        fprintf(stderr, PROG ": %s\n", oerr);
        rc = 1;
    }
    if (rc == 0) fprintf(stderr, PROG ": %ld row%s scaled\n", scaled_rows, scaled_rows == 1 ? "" : "s");
    return rc;
}
