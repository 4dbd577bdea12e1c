/*
 * ncu_split.c - ncu_split.h: one batch's table and ncu log, per recipe run.
 *
 * Why in C: the runs of a family's recipe differ in their comparison
 * options (a stencil geometry, readonly's fetch limit), so each needs its
 * own pair of tables; pairing rows with launches by position in bash would
 * break silently the day a run gains a row.  The rows carry their line
 * (the engine's batch_line), the launches get theirs by the join's rule.
 */
#define _POSIX_C_SOURCE 200809L
#include "ncu_split.h"
#include "err.h"
#include "outfile.h"
#include "sector_join.h"
#include "sector_table.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of name in names[0..n), added when absent; -1 when full. */
static long intern(char (*names)[128], size_t *n, size_t cap, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(names[i], name))
            return (long)i;
    if (*n == cap)
        return -1;
    snprintf(names[*n], 128, "%s", name);
    return (long)(*n)++;
}

int sns_assign(const tsv_table *runs, const tsv_table *ncu, const char *family, long *line,
               char *err, size_t errlen)
{
    if (tsv_col(runs, "batch_line") < 0 || tsv_col(runs, "kernel") < 0) {
        set_err(err, errlen, "%s has no batch_line column: not the table of a --batch-file run "
                "of this toolkit", runs->name ? runs->name : "the runs' table");
        return -1;
    }
    if (tsv_col(ncu, "kernel") < 0) {
        set_err(err, errlen, "%s has no kernel column (bin/ncu_extract's table?)",
                ncu->name ? ncu->name : "the launches' table");
        return -1;
    }
    const size_t cap = runs->nrow + ncu->nrow + 1;
    char (*names)[128] = calloc(cap, sizeof *names);
    size_t *rows_of = calloc(cap, sizeof *rows_of), *launches_of = calloc(cap, sizeof *launches_of);
    size_t *seen = calloc(cap, sizeof *seen);
    long *row_kernel = calloc(runs->nrow + 1, sizeof *row_kernel);
    long *launch_kernel = calloc(ncu->nrow + 1, sizeof *launch_kernel);
    int rc = -1;
    size_t nk = 0;
    if (!names || !rows_of || !launches_of || !seen || !row_kernel || !launch_kernel) {
        set_err(err, errlen, "out of memory");
        goto out;
    }
    char want[256];
    for (size_t r = 0; r < runs->nrow; r++) {
        const int clean = sj_row_kernel(runs, r, family, want, sizeof want);
        row_kernel[r] = clean ? intern(names, &nk, cap, want) : -1;
        if (row_kernel[r] >= 0)
            rows_of[row_kernel[r]]++;
    }
    for (size_t j = 0; j < ncu->nrow; j++) {
        const char *k = tsv_get(ncu, j, "kernel");
        sct_base_name(k ? k : "", want, sizeof want);
        launch_kernel[j] = intern(names, &nk, cap, want);
        if (launch_kernel[j] >= 0)
            launches_of[launch_kernel[j]]++;
    }
    long last = 0;
    for (size_t j = 0; j < ncu->nrow; j++) {
        const long k = launch_kernel[j];
        line[j] = last;
        if (k < 0 || !rows_of[k])
            continue;
        const size_t per = launches_of[k] == 2 * rows_of[k] ? 2 : 1;
        const size_t claim = seen[k]++ / per;   /* the claim-th clean row of k */
        size_t c = 0;
        for (size_t r = 0; r < runs->nrow; r++) {
            if (row_kernel[r] != k || c++ != claim)
                continue;
            const double b = tsv_num(runs, r, "batch_line");
            if (b >= 1)
                line[j] = last = (long)b;
            break;
        }
    }
    rc = 0;
out:
    free(names);
    free(rows_of);
    free(launches_of);
    free(seen);
    free(row_kernel);
    free(launch_kernel);
    return rc;
}

/* The whole text of path (the caller frees it), or NULL with err. */
static char *slurp(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "cannot open %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got = 1; buf && got;) {
        if (n + 1 >= cap) {
            char *b = cap > TSV_MAX_BYTES ? NULL : realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
    }
    const int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        set_err(err, errlen, "cannot read %s (or larger than %u MiB)", path, TSV_MAX_BYTES >> 20);
        return NULL;
    }
    buf[n] = 0;
    return buf;
}

/* Write to path the '#' lines and header of text (a table tsv_parse read
 * into the same rows), then its data rows i with keep[i]; 0 or -1 with err. */
static int write_rows(const char *path, const char *text, const unsigned char *keep, size_t nrow,
                      char *err, size_t errlen)
{
    outfile o;
    FILE *f = outfile_open(&o, path, "w", err, errlen);
    if (!f)
        return -1;
    int header = 0;
    size_t row = 0;
    for (const char *p = text; *p;) {
        const size_t k = strcspn(p, "\n");
        const size_t blank = strspn(p, " \t\r");
        const int is_blank = blank >= k;
        if (!is_blank) {
            if (p[0] == '#' && !header)
                fprintf(f, "%.*s\n", (int)k, p);
            else if (!header && p[0] != '#') {
                fprintf(f, "%.*s\n", (int)k, p);
                header = 1;
            } else if (p[0] != '#') {
                if (row < nrow && keep[row])
                    fprintf(f, "%.*s\n", (int)k, p);
                row++;
            }
        }
        p += k + (p[k] == '\n');
    }
    if (ferror(f)) {
        outfile_abort(&o);
        set_err(err, errlen, "cannot write %s", path);
        return -1;
    }
    return outfile_commit(&o, err, errlen);
}

/* 1 when kernel name k is one bin/ncu_extract --kernel pat keeps. */
static int kernel_kept(const char *k, const char *pat, const regex_t *re, int have_re)
{
    return strstr(k, pat) || (have_re && regexec(re, k, 0, NULL, 0) == 0);
}

typedef struct split_in {
    tsv_table recipe, runs, ncu;
    char *runs_text, *ncu_text;
    long *line;
    unsigned char *keep;
} split_in;

static void split_free(split_in *s)
{
    tsv_free(&s->recipe);
    tsv_free(&s->runs);
    tsv_free(&s->ncu);
    free(s->runs_text);
    free(s->ncu_text);
    free(s->line);
    free(s->keep);
}

/* One run of the recipe, row i: its two tables under dir. */
static int split_run(split_in *s, size_t i, const char *dir, char *err, size_t errlen)
{
    const char *run = tsv_get(&s->recipe, i, "run"), *pat = tsv_get(&s->recipe, i, "kernel");
    const double ln = tsv_num(&s->recipe, i, "line");
    if (!run || !pat || !(ln >= 1)) {
        set_err(err, errlen, "%s: row %zu has no run, kernel or line", s->recipe.name, i + 1);
        return -1;
    }
    char path[4096];
    size_t kept = 0;
    for (size_t r = 0; r < s->runs.nrow; r++)
        kept += s->keep[r] = tsv_num(&s->runs, r, "batch_line") == ln;
    if (!kept) {
        set_err(err, errlen, "%s has no row of line %.0f (the run %s)", s->runs.name, ln, run);
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s_runs.tsv", dir, run);
    if (write_rows(path, s->runs_text, s->keep, s->runs.nrow, err, errlen))
        return -1;
    regex_t re;
    const int have_re = regcomp(&re, pat, REG_EXTENDED | REG_NOSUB) == 0;
    for (size_t j = 0; j < s->ncu.nrow; j++) {
        const char *k = tsv_get(&s->ncu, j, "kernel");
        s->keep[j] = s->line[j] == (long)ln && kernel_kept(k ? k : "", pat, &re, have_re);
    }
    if (have_re)
        regfree(&re);
    snprintf(path, sizeof path, "%s/%s.tsv", dir, run);
    return write_rows(path, s->ncu_text, s->keep, s->ncu.nrow, err, errlen);
}

int sns_split(const char *recipe, const char *runs, const char *ncu, const char *family,
              const char *dir, char *err, size_t errlen)
{
    split_in s;
    memset(&s, 0, sizeof s);
    int rc = -1;
    if (tsv_read(recipe, &s.recipe, err, errlen) || tsv_read(runs, &s.runs, err, errlen) ||
        tsv_read(ncu, &s.ncu, err, errlen))
        goto out;
    if (!(s.runs_text = slurp(runs, err, errlen)) || !(s.ncu_text = slurp(ncu, err, errlen)))
        goto out;
    const size_t most = s.runs.nrow > s.ncu.nrow ? s.runs.nrow : s.ncu.nrow;
    s.line = calloc(s.ncu.nrow + 1, sizeof *s.line);
    s.keep = calloc(most + 1, 1);
    if (!s.line || !s.keep) {
        set_err(err, errlen, "out of memory");
        goto out;
    }
    if (sns_assign(&s.runs, &s.ncu, family, s.line, err, errlen))
        goto out;
    for (size_t i = 0; i < s.recipe.nrow; i++)
        if (split_run(&s, i, dir, err, errlen))
            goto out;
    rc = 0;
out:
    split_free(&s);
    return rc;
}
