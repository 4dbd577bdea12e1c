/*
 * tsv.c - bin/tsv: what scripts and tests do with the toolkit's tables, by
 * column name, so that no script parses a table itself.
 *
 *   tsv cat [--columns SPEC] [--out FILE] TABLE...
 *       the rows of every TABLE under one header.  SPEC lists the output
 *       columns, each NEW=OLD (renamed) or NAME, e.g.
 *       variant=kernel,wpb=warps_per_block,sample; without it every table must
 *       have the first one's columns.  The first table's key/value metadata
 *       is kept; a missing column is an error naming the table.
 *   tsv split TABLE COLUMN VALUE=FILE...
 *       each FILE a table of its own: TABLE's '#' lines and header, and the
 *       rows whose COLUMN is VALUE.  Splits one --batch-file run's table
 *       per line (COLUMN batch_line): one process, one CUDA start, and the
 *       per-run tables the readers know.  A VALUE no row has is an error
 *       (its FILE not written, the others still are).
 *   tsv get TABLE COLUMN [--where COL=VALUE]...
 *       the field of COLUMN, one line per matching row.
 *   tsv meta TABLE KEY
 *       the value of a '# key<TAB>value' line.
 *   tsv columns TABLE
 *       the header's names, one per line.
 *
 * Exit: 0 ok; 1 a table cannot be read, a column or key is missing, or no
 * row matched; 2 usage.  --out writes through outfile (whole or not at all).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "tsv.h"

#define PROG "tsv"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tsv cat [--columns NEW=OLD,...] [--out FILE] TABLE...\n"
            "       tsv split TABLE COLUMN VALUE=FILE...\n"
            "       tsv get TABLE COLUMN [--where COL=VALUE]...\n"
            "       tsv meta TABLE KEY\n"
            "       tsv columns TABLE\n"
            "\n"
            "Reads the toolkit's TSV tables by column name ('#' lines first, then a\n"
            "header row).  Exit status: 0 ok, 1 missing table, column, key or row, 2 usage.\n");
}

static int usage_err(const char *msg, const char *arg)
{
    fprintf(stderr, PROG ": %s%s%s\nTry 'tsv --help'.\n", msg, arg ? " " : "", arg ? arg : "");
    return 2;
}

/* Parse a command's arguments (argv[0] is the command) against opts (NULL:
 * none): 0, -1 after printing --help (exit 0), or the usage exit status. */
static int parse_cmd(int argc, char **argv, const cli_opt *opts, int maxpos, cli_parse_result *r)
{
    static const cli_opt none[] = {CLI_END};
    const cli_opt *tables[] = {opts ? opts : none};
    const int prc = cli_parse(PROG, argc, argv, tables, 1, maxpos, r);
    if (prc) return prc;
    if (r->help) {
        usage(stdout);
        return outfile_check_stdout(PROG) ? 1 : -1;
    }
    return 0;
}

static int load(const char *path, tsv_table *t)
{
    char err[512];
    if (tsv_read(path, t, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return -1;
    }
    return 0;
}

typedef struct outcol {
    char name[128];
    char from[128];
} outcol;

static int parse_spec(const char *spec, outcol **cols, size_t *n)
{
    *n = 0;
    *cols = NULL;
    char *dup = strdup(spec), *save = NULL;
    if (!dup) return -1;
    size_t cap = 0;
    for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            outcol *c = realloc(*cols, cap * sizeof *c);
            if (!c) { free(dup); return -1; }
            *cols = c;
        }
        char *eq = strchr(tok, '=');
        if (eq) *eq = 0;
        const char *from = eq ? eq + 1 : tok;
        if (!*tok || !*from || strlen(tok) >= 128 || strlen(from) >= 128) { free(dup); return -1; }
        snprintf((*cols)[*n].name, 128, "%s", tok);
        snprintf((*cols)[*n].from, 128, "%s", from);
        (*n)++;
    }
    free(dup);
    return *n ? 0 : -1;
}

static int cmd_cat(int argc, char **argv)
{
    const char *spec = NULL, *out = NULL;
    const cli_opt opts[] = {
        {"--columns", 0, CLI_STRING, 0, 0, 0, 0, &spec, "SPEC", "the output columns", 0, 0},
        {"--out", 0, CLI_STRING, 0, 0, 0, 0, &out, "FILE", "write FILE", 0, 0},
        CLI_END};
    static cli_parse_result res;
    const int prc = parse_cmd(argc, argv, opts, CLI_MAX_POS, &res);
    if (prc) return prc < 0 ? 0 : prc;
    char **files = res.pos;
    const int nf = res.npos;
    if (nf == 0) return usage_err("cat needs at least one TABLE", NULL);
    outcol *cols = NULL;
    size_t nc = 0;
    if (spec && parse_spec(spec, &cols, &nc) != 0) return usage_err("--columns: expected NEW=OLD or NAME, comma-separated, got", spec);

    outfile o;
    char err[4400];
    FILE *f = stdout;
    if (out && !(f = outfile_open(&o, out, "w", err, sizeof err))) {
        fprintf(stderr, PROG ": %s\n", err);
        free(cols);
        return 1;
    }
    int rc = 0;
    for (int k = 0; k < nf && rc == 0; k++) {
        tsv_table t;
        if (load(files[k], &t) != 0) { rc = 1; break; }
        if (!cols) { /* the first table's columns */
            nc = t.ncol;
            cols = calloc(nc, sizeof *cols);
            if (!cols) { tsv_free(&t); rc = 1; break; }
            for (size_t c = 0; c < nc; c++) {
                snprintf(cols[c].name, 128, "%s", t.col[c]);
                snprintf(cols[c].from, 128, "%s", t.col[c]);
            }
        }
        int idx[1024];
        if (nc > 1024) { fprintf(stderr, PROG ": too many columns\n"); tsv_free(&t); rc = 1; break; }
        for (size_t c = 0; c < nc; c++) {
            idx[c] = tsv_col(&t, cols[c].from);
            if (idx[c] < 0) {
                fprintf(stderr, PROG ": %s has no column '%s'\n", files[k], cols[c].from);
                rc = 1;
            }
        }
        if (rc) { tsv_free(&t); break; }
        if (k == 0) {
            for (size_t m = 0; m < t.nmeta; m++) fprintf(f, "# %s\t%s\n", t.meta_key[m], t.meta_val[m]);
            for (size_t c = 0; c < nc; c++) fprintf(f, "%s%s", c ? "\t" : "", cols[c].name);
            fputc('\n', f);
        }
        for (size_t r = 0; r < t.nrow; r++)
            for (size_t c = 0; c < nc; c++)
                fprintf(f, "%s%s", t.cell[r * t.ncol + (size_t)idx[c]], c + 1 < nc ? "\t" : "\n");
        tsv_free(&t);
    }
    free(cols);
    if (!out) {
        if (outfile_check_stdout(PROG)) rc = 1;
    } else if (rc != 0) {
        outfile_abort(&o);
    } else if (outfile_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        rc = 1;
    }
    return rc;
}

static int cmd_split(int argc, char **argv)
{
    static cli_parse_result res;
    const int prc = parse_cmd(argc, argv, NULL, CLI_MAX_POS, &res);
    if (prc) return prc < 0 ? 0 : prc;
    if (res.npos < 3) return usage_err("split needs TABLE COLUMN VALUE=FILE...", NULL);
    for (int k = 2; k < res.npos; k++) {
        const char *eq = strchr(res.pos[k], '=');
        if (!eq || eq == res.pos[k] || !eq[1]) return usage_err("split: expected VALUE=FILE, got", res.pos[k]);
    }
    tsv_table t;
    if (load(res.pos[0], &t) != 0) return 1;
    const char *col = res.pos[1];
    if (tsv_col(&t, col) < 0) {
        fprintf(stderr, PROG ": %s has no column '%s'\n", res.pos[0], col);
        tsv_free(&t);
        return 1;
    }
    int rc = 0;
    for (int k = 2; k < res.npos; k++) {
        char value[512];
        const char *eq = strchr(res.pos[k], '=');
        const char *file = eq + 1;
        if ((size_t)(eq - res.pos[k]) >= sizeof value) {
            fprintf(stderr, PROG ": split: value too long in %s\n", res.pos[k]);
            rc = 1;
            continue;
        }
        snprintf(value, sizeof value, "%.*s", (int)(eq - res.pos[k]), res.pos[k]);
        if (tsv_find(&t, col, value, 0) < 0) {
            fprintf(stderr, PROG ": no row of %s has %s=%s: %s not written\n", res.pos[0], col, value, file);
            rc = 1;
            continue;
        }
        outfile o;
        char err[4400];
        FILE *f = outfile_open(&o, file, "w", err, sizeof err);
        if (!f) {
            fprintf(stderr, PROG ": %s\n", err);
            rc = 1;
            continue;
        }
        tsv_write_where(f, &t, col, value);
        if (outfile_commit(&o, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            rc = 1;
        }
    }
    tsv_free(&t);
    return rc;
}

static int cmd_get(int argc, char **argv)
{
    cli_strings where = {{0}, 0};
    const cli_opt opts[] = {
        {"--where", 0, CLI_STRINGS, 0, 16, 0, 0, &where, "COL=VALUE", "rows where COL is VALUE", 0, 0},
        CLI_END};
    static cli_parse_result res;
    const int prc = parse_cmd(argc, argv, opts, 2, &res);
    if (prc) return prc < 0 ? 0 : prc;
    if (res.npos < 2) return usage_err("get needs TABLE COLUMN", NULL);
    const char *wcol[16], *wval[16];
    char wbuf[16][512];
    const int nw = (int)where.n;
    for (int w = 0; w < nw; w++) {
        const char *eq = strchr(where.v[w], '=');
        if (!eq || eq == where.v[w] || (size_t)(eq - where.v[w]) >= sizeof wbuf[w])
            return usage_err("--where needs COL=VALUE, got", where.v[w]);
        snprintf(wbuf[w], sizeof wbuf[w], "%.*s", (int)(eq - where.v[w]), where.v[w]);
        wcol[w] = wbuf[w];
        wval[w] = eq + 1;
    }
    argv = res.pos;
    tsv_table t;
    if (load(argv[0], &t) != 0) return 1;
    int rc = 0;
    if (tsv_col(&t, argv[1]) < 0) {
        fprintf(stderr, PROG ": %s has no column '%s'\n", argv[0], argv[1]);
        rc = 1;
    }
    for (int w = 0; w < nw && !rc; w++)
        if (tsv_col(&t, wcol[w]) < 0) {
            fprintf(stderr, PROG ": %s has no column '%s'\n", argv[0], wcol[w]);
            rc = 1;
        }
    size_t matched = 0;
    for (size_t r = 0; r < t.nrow && !rc; r++) {
        int ok = 1;
        for (int w = 0; w < nw; w++) ok &= !strcmp(tsv_get(&t, r, wcol[w]), wval[w]);
        if (!ok) continue;
        printf("%s\n", tsv_get(&t, r, argv[1]));
        matched++;
    }
    if (!rc && matched == 0) {
        fprintf(stderr, PROG ": no row of %s matches\n", argv[0]);
        rc = 1;
    }
    tsv_free(&t);
    if (outfile_check_stdout(PROG)) rc = 1;
    return rc;
}

static int cmd_meta(int argc, char **argv)
{
    static cli_parse_result r;
    const int prc = parse_cmd(argc, argv, NULL, 2, &r);
    if (prc) return prc < 0 ? 0 : prc;
    if (r.npos != 2) return usage_err("meta needs TABLE KEY", NULL);
    argv = r.pos;
    tsv_table t;
    if (load(argv[0], &t) != 0) return 1;
    const char *v = tsv_meta(&t, argv[1]);
    int rc = 0;
    if (!v) {
        fprintf(stderr, PROG ": %s has no '# %s' line\n", argv[0], argv[1]);
        rc = 1;
    } else {
        printf("%s\n", v);
    }
    tsv_free(&t);
    if (outfile_check_stdout(PROG)) rc = 1;
    return rc;
}

static int cmd_columns(int argc, char **argv)
{
    static cli_parse_result r;
    const int prc = parse_cmd(argc, argv, NULL, 1, &r);
    if (prc) return prc < 0 ? 0 : prc;
    if (r.npos != 1) return usage_err("columns needs one TABLE", NULL);
    argv = r.pos;
    tsv_table t;
    if (load(argv[0], &t) != 0) return 1;
    for (size_t c = 0; c < t.ncol; c++) printf("%s\n", t.col[c]);
    tsv_free(&t);
    return outfile_check_stdout(PROG);
}

int main(int argc, char **argv)
{
    const int start = cli_command_start(PROG, argc, argv, usage);
    if (start >= 0) return start;
    if (!strcmp(argv[1], "cat")) return cmd_cat(argc - 1, argv + 1);
    if (!strcmp(argv[1], "split")) return cmd_split(argc - 1, argv + 1);
    if (!strcmp(argv[1], "get")) return cmd_get(argc - 1, argv + 1);
    if (!strcmp(argv[1], "meta")) return cmd_meta(argc - 1, argv + 1);
    if (!strcmp(argv[1], "columns")) return cmd_columns(argc - 1, argv + 1);
    return usage_err("unknown command", argv[1]);
}
