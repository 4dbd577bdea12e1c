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
#include "lines.h"
#include "outfile.h"
#include "tsv.h"

#define PROG "tsv_scale"
#define MAX_FIELDS 256
#define MAX_INPUT_BYTES (1ull << 30) /* IN is a table: 1 GiB is far beyond one */

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

/* Split line (modified in place) at tabs; returns the number of fields. */
static int split(char *line, char **fld)
{
    int n = 0;
    fld[n++] = line;
    for (char *p = line; *p; p++)
        if (*p == '\t') {
            *p = 0;
            if (n == MAX_FIELDS) return -1;
            fld[n++] = p + 1;
        }
    return n;
}

/* The number of digits after the point of a plain decimal ("680.14" -> 2),
 * or -1 when it has an exponent (then %.6g). */
static int decimals(const char *s)
{
    if (strpbrk(s, "eE")) return -1;
    const char *dot = strchr(s, '.');
    return dot ? (int)strlen(dot + 1) : 0;
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

    char *line = NULL, *fld[MAX_FIELDS];
    size_t cap = 0;
    long len;
    long lineno = 0, scaled_rows = 0;
    unsigned long long total = 0;
    int ncol = -1, scale[MAX_FIELDS] = {0}, from_idx = -1;
    rc = 0;
    while (rc == 0 && (len = lines_read(in, &line, &cap, LINES_MAX_BYTES)) != -1) {
        lineno++;
        if (len < 0) {
            fprintf(stderr, PROG ": %s:%ld: %s\n", r.pos[0], lineno,
                    len == -2 ? "a line longer than 1 MiB: not a table" : "out of memory");
            rc = 1;
            break;
        }
        total += (unsigned long long)len + 1;
        if (total > MAX_INPUT_BYTES) {
            fprintf(stderr, PROG ": %s is larger than 1 GiB: not a table of ours\n", r.pos[0]);
            rc = 1;
            break;
        }
        if (line[0] == '#' || len == 0) {   /* comments, metadata, blank lines */
            fprintf(o, "%s\n", line);
            continue;
        }
        if (ncol < 0) {   /* the header */
            char hdr[8192];
            snprintf(hdr, sizeof hdr, "%s", line);
            if ((ncol = split(hdr, fld)) < 0) {
                fprintf(stderr, PROG ": %s:%ld: more than %d columns\n", r.pos[0], lineno, MAX_FIELDS);
                rc = 1;
                break;
            }
            char list[1024];
            snprintf(list, sizeof list, "%s", columns);
            for (char *save = NULL, *c = strtok_r(list, ",", &save); c && rc == 0; c = strtok_r(NULL, ",", &save)) {
                int k = 0;
                while (k < ncol && strcmp(fld[k], c) != 0) k++;
                if (k == ncol) {
                    fprintf(stderr, PROG ": %s has no column '%s'\n", r.pos[0], c);
                    rc = 1;
                } else {
                    scale[k] = 1;
                }
            }
            if (from_col[0]) {
                while (++from_idx < ncol && strcmp(fld[from_idx], from_col) != 0) {}
                if (from_idx == ncol) {
                    fprintf(stderr, PROG ": %s has no column '%s' (--rows-from)\n", r.pos[0], from_col);
                    rc = 1;
                }
            }
            fprintf(o, "# scaled\t%s x %.6g", columns, factor);
            if (from_col[0]) fprintf(o, " in the rows with %s >= %.15g", from_col, from_v);
            fprintf(o, " by tsv_scale: test data, not a measurement\n%s\n", line);
            continue;
        }
        const int n = split(line, fld);
        if (n != ncol) {
            fprintf(stderr, PROG ": %s:%ld: %d fields, the header has %d\n", r.pos[0], lineno, n, ncol);
            rc = 1;
            break;
        }
        int here = 1;
        if (from_idx >= 0) {
            const double v = tsv_parse_num(fld[from_idx]);
            if (!isfinite(v)) {
                fprintf(stderr, PROG ": %s:%ld: %s '%s' is not a number\n", r.pos[0], lineno, from_col,
                        fld[from_idx]);
                rc = 1;
                break;
            }
            here = v >= from_v;
        }
        scaled_rows += here;
        for (int k = 0; k < n; k++) {
            if (k) fputc('\t', o);
            if (!here || !scale[k]) {
                fputs(fld[k], o);
                continue;
            }
            const double v = tsv_parse_num(fld[k]);
            if (!isfinite(v)) {
                fprintf(stderr, PROG ": %s:%ld: '%s' is not a number\n", r.pos[0], lineno, fld[k]);
                rc = 1;
                break;
            }
            const int d = decimals(fld[k]);
            if (d < 0) fprintf(o, "%.6g", v * factor);
            else fprintf(o, "%.*f", d, v * factor);
        }
        fputc('\n', o);
    }
    free(line);
    if (rc == 0 && ferror(in)) {
        fprintf(stderr, PROG ": error reading %s\n", r.pos[0]);
        rc = 1;
    }
    if (rc == 0 && ncol < 0) {
        fprintf(stderr, PROG ": %s has no header row\n", r.pos[0]);
        rc = 1;
    }
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
