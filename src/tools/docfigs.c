/*
 * docfigs - every measured figure quoted in the docs against the file it
 * comes from (docs/report.md, "Figures in the docs").
 *
 *   docfigs [--data DIR] [--list] FILE.md...
 *
 * A figure in prose or in a table cell is annotated with an HTML comment
 * right after it (invisible when the Markdown is rendered):
 *
 *   float4 reaches 83.3%<!-- fig h100/readonly_1e8_wpb4.tsv:pct_peak[kernel=float4] --> of peak
 *
 * The annotation holds an expression, evaluated left to right (no
 * precedence), of numbers, + - * / and terms naming a value under DIR
 * (default data/reference):
 *
 *   FILE:COLUMN[K=V,...]      the cell of the one row whose columns K equal V
 *                             (no selector: the table must have one row)
 *   max(FILE:COLUMN[...])     the largest (min: smallest) over matching rows
 *   count(FILE:COLUMN[...])   how many rows match
 *   FILE#KEY                  the leading number of a "# KEY<TAB>value" line
 *   LOG.bin@stats:FIELD       count, mean_cycles, p5_cycles, p50_cycles,
 *                             p95_cycles, p99_cycles, min_cycles, max_cycles of
 *                             the log's warps (src/lib/stats.h, as latency_stats)
 *   LOG.bin@header:KEY        a field of the log's header (as warplog info)
 *   LADDER.tsv@levels:COL[level=NAME]  a plateau of a ./latency table
 *                             (src/lib/plateau.h, as plot_ladder): cycles, ns,
 *                             from_bytes, to_bytes
 *
 * and optionally ends with "~P%" (the quote is approximate: within P percent).
 * An annotation may go on over the next lines (at most 8 more), so that a
 * long expression need not make a line of hundreds of characters.
 * The figure is the number written just before the comment; it must equal
 * the value rounded to as many decimals as the figure has.  A number followed
 * by a unit of measurement (cycles, ns, us, ms, GB/s, TB/s, %, MHz, GHz, or a
 * ratio written 2.4x or x2.4) outside code must carry such an annotation, or
 * "<!-- not measured -->" when it is a definition, a threshold or a
 * specification rather than a result.  Fenced code blocks, `code spans` and
 * link targets are not prose.
 *
 * Output: one line per problem ("FILE:LINE: ..."), with --list one line per
 * figure checked, then a summary.  Exit status: 0 every figure agrees and is
 * annotated, 1 otherwise (or a file cannot be read), 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "figscan.h"
#include "outfile.h"
#include "plateau.h"
#include "stats.h"
#include "tsv.h"
#include "warplog.h"

#define PROG "docfigs"

static const char *DATA = "data/reference";
static int LIST = 0;
static int problems = 0, checked = 0;

static void problem(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void problem(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s:%d: ", file, line);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    problems++;
}

/* ------------------------------------------------------------ values */

typedef struct cached {
    char *path;
    tsv_table t;
} cached;
static cached *cache;
static size_t ncache;

static const tsv_table *table(const char *path, char *err, size_t errlen)
{
    for (size_t i = 0; i < ncache; i++)
        if (!strcmp(cache[i].path, path)) return &cache[i].t;
    cached *c = realloc(cache, (ncache + 1) * sizeof *c);
    if (!c) { snprintf(err, errlen, "out of memory"); return NULL; }
    cache = c;
    if (tsv_read(path, &cache[ncache].t, err, errlen) != 0) return NULL;
    cache[ncache].path = strdup(path);
    return &cache[ncache++].t;
}

/* Rows of t matching "K=V,K=V" (sel may be empty): indexes into rows[]. */
static int select_rows(const tsv_table *t, const char *sel, size_t *rows, size_t max, size_t *n,
                       char *err, size_t errlen)
{
    char conds[16][2][128];
    int nc = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", sel);
    char *save = NULL;
    for (char *c = strtok_r(buf, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(c, '=');
        if (!eq || nc == 16) { snprintf(err, errlen, "selector '%s' is not KEY=VALUE", c); return -1; }
        *eq = 0;
        snprintf(conds[nc][0], 128, "%s", c);
        snprintf(conds[nc][1], 128, "%s", eq + 1);
        if (tsv_col(t, conds[nc][0]) < 0) { snprintf(err, errlen, "no column '%s'", conds[nc][0]); return -1; }
        nc++;
    }
    *n = 0;
    for (size_t r = 0; r < t->nrow; r++) {
        int ok = 1;
        for (int k = 0; k < nc && ok; k++) ok = !strcmp(tsv_get(t, r, conds[k][0]), conds[k][1]);
        if (ok && *n < max) rows[(*n)++] = r;
    }
    return 0;
}

static int stats_field(const char *path, const char *field, double *v, char *err, size_t errlen)
{
    lat_stats *s = lat_stats_new();
    lat_summary sum;
    if (!s) { snprintf(err, errlen, "out of memory"); return -1; }
    if (lat_stats_read_log(s, path, NULL, err, errlen) != 0 || lat_stats_summary(s, LAT_STATS_ALL, &sum) != 0) {
        lat_stats_free(s);
        return -1;
    }
    lat_stats_free(s);
    if (!strcmp(field, "count")) *v = (double)sum.count;
    else if (!strcmp(field, "mean_cycles")) *v = sum.mean_cycles;
    else if (!strcmp(field, "p5_cycles")) *v = sum.p5_cycles;
    else if (!strcmp(field, "p50_cycles")) *v = sum.p50_cycles;
    else if (!strcmp(field, "p95_cycles")) *v = sum.p95_cycles;
    else if (!strcmp(field, "p99_cycles")) *v = sum.p99_cycles;
    else if (!strcmp(field, "min_cycles")) *v = (double)sum.min_cycles;
    else if (!strcmp(field, "max_cycles")) *v = (double)sum.max_cycles;
    else { snprintf(err, errlen, "@stats has no field '%s'", field); return -1; }
    return 0;
}

static int header_field(const char *path, const char *field, double *v, char *err, size_t errlen)
{
    warplog_reader *r = warplog_reader_open(path, err, errlen);
    if (!r) return -1;
    char *buf = NULL, *end;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    warplog_header_print(m, warplog_reader_header(r), "");
    fclose(m);
    warplog_reader_close(r);
    int found = 0;
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        char *tab = strchr(line, '\t');
        if (tab && (size_t)(tab - line) == strlen(field) && !strncmp(line, field, strlen(field))) {
            *v = strtod(tab + 1, &end);
            found = end != tab + 1;
        }
        line = nl ? nl + 1 : NULL;
    }
    free(buf);
    if (!found) { snprintf(err, errlen, "%s: no numeric header field '%s'", path, field); return -1; }
    return 0;
}

static int level_field(const char *tok, const char *path, const char *field, double *v, char *err,
                       size_t errlen)
{
    char col[64], name[64];
    if (sscanf(field, "%63[a-z_][level=%63[^]]]", col, name) != 2) {
        snprintf(err, errlen, "'%s': expected @levels:COLUMN[level=NAME]", tok);
        return -1;
    }
    plateau_series se;
    plateau_level lv[PLATEAU_MAX_LEVELS];
    if (plateau_read_tsv(path, &se, err, errlen) != 0) return -1;
    const int n = plateau_find(se.pts, se.n, NULL, lv, PLATEAU_MAX_LEVELS, err, errlen);
    if (n >= 0) plateau_label(lv, n, plateau_series_l1_bypassed(&se));
    plateau_series_free(&se);
    for (int i = 0; i < n; i++)
        if (!strcmp(lv[i].name, name)) {
            if (!strcmp(col, "cycles")) *v = lv[i].cycles;
            else if (!strcmp(col, "ns")) *v = lv[i].ns;
            else if (!strcmp(col, "from_bytes")) *v = lv[i].from_bytes;
            else if (!strcmp(col, "to_bytes")) *v = lv[i].to_bytes;
            else { snprintf(err, errlen, "levels have no column '%s'", col); return -1; }
            return 0;
        }
    snprintf(err, errlen, "%s has no level %s", path, name);
    return -1;
}

/* FILE:COLUMN[sel], or max/min/count of it. */
static int table_cell(const figscan_term *t, const char *path, double *v, char *err, size_t errlen)
{
    const tsv_table *tb = table(path, err, errlen);
    if (!tb) return -1;
    if (tsv_col(tb, t->col) < 0) { snprintf(err, errlen, "%s has no column '%s'", path, t->col); return -1; }
    static size_t rows[4096];
    size_t n;
    if (select_rows(tb, t->sel, rows, 4096, &n, err, errlen) != 0) return -1;
    if (!strcmp(t->fn, "count")) { *v = (double)n; return 0; }
    if (n == 0) { snprintf(err, errlen, "no row of %s matches [%s]", path, t->sel); return -1; }
    if (!*t->fn && n != 1) { snprintf(err, errlen, "%zu rows of %s match [%s]: name one", n, path, t->sel); return -1; }
    *v = tsv_num(tb, rows[0], t->col);
    for (size_t i = 1; i < n; i++) {
        const double x = tsv_num(tb, rows[i], t->col);
        if (!strcmp(t->fn, "max") ? x > *v : x < *v) *v = x;
    }
    if (!isfinite(*v)) { snprintf(err, errlen, "%s:%s[%s] is not a number", path, t->col, t->sel); return -1; }
    return 0;
}

/* One term that is not a number: a value of a file.  0, or -1 with err. */
static int lookup(const char *tok, double *v, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    static figscan_term t;
    if (figscan_parse_term(tok, &t, err, errlen) != 0) return -1;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", DATA, t.file);
    if (t.kind == '#') {
        const tsv_table *tb = table(path, err, errlen);
        if (!tb) return -1;
        *v = tsv_meta_lead_num(tb, t.col);
        if (!isfinite(*v)) { snprintf(err, errlen, "%s has no number '# %s'", path, t.col); return -1; }
        return 0;
    }
    if (t.kind == ':') return table_cell(&t, path, v, err, errlen);
    if (!strcmp(t.what, "stats")) return stats_field(path, t.col, v, err, errlen);
    if (!strcmp(t.what, "header")) return header_field(path, t.col, v, err, errlen);
    if (!strcmp(t.what, "levels")) return level_field(tok, path, t.col, v, err, errlen);
    snprintf(err, errlen, "'%s': unknown @%s", tok, t.what);
    return -1;
}

/* ------------------------------------------------------------ the docs */

/* An annotation (comment k) of the figure before it. */
static void check_annotation(const char *file, int lineno, const figscan_item *it, int k)
{
    const char *c = it[k].text;
    while (*c == ' ') c++;
    if (strncmp(c, "fig ", 4)) return;
    if (k == 0 || it[k - 1].is_comment) {
        problem(file, lineno, "an annotation with no figure before it: <!--%s-->", it[k].text);
        return;
    }
    const figscan_item *fig = &it[k - 1];
    char expr[2048], err[8192], shown[64];
    snprintf(expr, sizeof expr, "%s", c + 4);
    for (size_t l = strlen(expr); l && expr[l - 1] == ' '; l--) expr[l - 1] = 0;
    double v = NAN, tol = 0;
    if (figscan_eval(expr, lookup, NULL, &v, &tol, err, sizeof err) != 0) {
        problem(file, lineno, "figure %s: %s", fig->text, err);
        return;
    }
    checked++;
    if (!figscan_agrees(fig->text, v, tol, shown, sizeof shown))
        problem(file, lineno, "figure %s, but %s is %.6g (%s)", fig->text, expr, v, shown);
    else if (LIST)
        printf("%s:%d: %s = %s\n", file, lineno, fig->text, expr);
}

static void check_line(const char *file, int lineno, const char *line)
{
    static figscan_item it[FIGSCAN_MAX_ITEMS];
    const int n = figscan_line(line, it, FIGSCAN_MAX_ITEMS);
    if (n < 0) {
        problem(file, lineno, "an HTML comment must end on its line");
        return;
    }
    for (int k = 0; k < n; k++) {
        if (it[k].is_comment) {
            check_annotation(file, lineno, it, k);
            continue;
        }
        if (!it[k].needs) continue;
        if (k + 1 < n && it[k + 1].is_comment) {
            const char *c = it[k + 1].text;
            while (*c == ' ') c++;
            if (!strncmp(c, "fig ", 4) || !strncmp(c, "not measured", 12)) continue;
        }
        problem(file, lineno, "the figure '%.24s' has no annotation (<!-- fig FILE:COLUMN[...] --> or <!-- not measured -->)",
                line + it[k].pos);
    }
}

/* 1 when line opens an HTML comment that does not end on it. */
static int comment_open(const char *line)
{
    const char *open = NULL;
    for (const char *p = strstr(line, "<!--"); p; p = strstr(p + 4, "<!--")) open = p;
    return open && !strstr(open + 4, "-->");
}

static int check_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, PROG ": cannot read %s: %s\n", path, strerror(errno)); return -1; }
    /* a device or a FIFO may never end (/dev/zero): only a file is read */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        fprintf(stderr, PROG ": cannot read %s: it is not a file\n", path);
        fclose(f);
        return -1;
    }
    char line[8192];
    int lineno = 0, fence = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        const char *p = line;
        while (*p == ' ') p++;
        if (!strncmp(p, "```", 3)) { fence = !fence; continue; }
        if (fence) continue;
        /* an annotation may go on over the next lines (at most 8), so that
         * a long expression does not make a line of hundreds of characters:
         * the lines are joined with a space and checked as the first one */
        const int first = lineno;
        char more[2048];
        for (int k = 0; k < 8 && comment_open(line) && fgets(more, sizeof more, f); k++) {
            lineno++;
            more[strcspn(more, "\r\n")] = 0;
            const size_t u = strlen(line);
            if (u + 1 + strlen(more) >= sizeof line) break;
            line[u] = ' ';
            strcpy(line + u + 1, more);
        }
        check_line(path, first, line);
    }
    /* a folder opens but cannot be read (EISDIR): a failure, not 0 figures */
    const int bad = ferror(f);
    const int e = errno;
    fclose(f);
    if (bad) {
        fprintf(stderr, PROG ": cannot read %s: %s\n", path, strerror(e));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const cli_opt opts[] = {
        {"--data", 0, CLI_STRING, 0, 0, 0, 0, &DATA, "DIR", "where the annotations' files are (data/reference)", 0, 0},
        {"--list", 0, CLI_FLAG, 0, 0, 0, 0, &LIST, 0, "print every figure checked", 0, 0},
        CLI_END};
    const cli_opt *const tables[] = {opts};
    cli_parse_result r;
    const int prc = cli_parse(PROG, argc, argv, tables, 1, 256, &r);
    if (prc != 0) return prc;
    if (r.help) {
        printf("usage: docfigs [--data DIR] [--list] FILE.md...\n"
               "  Check every annotated figure of the Markdown files against the data it names, and\n"
               "  that every figure with a unit is annotated (the syntax: src/tools/docfigs.c).\n");
        cli_print_options(stdout, opts);
        return outfile_check_stdout(PROG);
    }
    if (r.npos == 0) return cli_usage_error(PROG, "no FILE.md given");
    int rc = 0;
    for (int i = 0; i < r.npos; i++)
        if (check_file(r.pos[i]) != 0) rc = 1;
    printf("docfigs: %d figure(s) checked in %d file(s), %d problem(s)\n", checked, r.npos, problems);
    for (size_t i = 0; i < ncache; i++) { tsv_free(&cache[i].t); free(cache[i].path); }
    free(cache);
    if (outfile_check_stdout(PROG) != 0) rc = 1;
    return rc || problems ? 1 : 0;
}
