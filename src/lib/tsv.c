/* tsv.c - see tsv.h. */
#define _POSIX_C_SOURCE 200809L
#include "tsv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

void tsv_free(tsv_table *t)
{
    if (!t) return;
    free(t->name);
    free(t->meta_key);
    free(t->meta_val);
    free(t->comment);
    free(t->col);
    free(t->cell);
    free(t->buf);
    memset(t, 0, sizeof *t);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int cmp_str_ptr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A name that appears twice among names[0..n), or NULL: sorted copies, so
 * that a header of a million columns is not a million squared comparisons.
 * *oom is set when the copy cannot be made. */
static const char *duplicate_name(char **names, size_t n, int *oom)
{
    *oom = 0;
    if (n < 2) return NULL;
    char **c = malloc(n * sizeof *c);
    if (!c) {
        *oom = 1;
        return NULL;
    }
    memcpy(c, names, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_str_ptr);
    const char *dup = NULL;
    for (size_t i = 1; i < n && !dup; i++)
        if (!strcmp(c[i - 1], c[i])) dup = c[i];
    free(c);
    return dup;
}

/* Split line (modified in place) at tabs into fields; returns the count. */
static size_t split(char *line, char ***out, size_t *cap)
{
    size_t n = 0;
    for (char *p = line;;) {
        if (n == TSV_MAX_FIELDS) return (size_t)-2;
        if (grow((void **)out, cap, n + 1, sizeof **out) != 0) return (size_t)-1;
        (*out)[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = 0;
        p = tab + 1;
    }
    return n;
}

/* The parser's capacities and the fields of the line at hand.  Its
 * functions return 0, -1 with err filled, or TSV_OOM. */
typedef struct pstate {
    size_t cm, cc, ccol, ccell;
    char **fields;
    size_t cfields;
} pstate;
#define TSV_OOM (-2)

/* All of f into t->buf, NUL-terminated; no NUL inside. */
static int slurp(FILE *f, const char *name, tsv_table *t, char *err, size_t errlen)
{
    size_t len = 0, cap = 0;
    char chunk[65536];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + k > TSV_MAX_BYTES) {
            set_err(err, errlen, "%s: larger than %u MiB: not a table of this toolkit", name,
                    TSV_MAX_BYTES >> 20);
            return -1;
        }
        if (grow((void **)&t->buf, &cap, len + k + 1, 1) != 0) return TSV_OOM;
        memcpy(t->buf + len, chunk, k);
        len += k;
    }
    if (ferror(f)) {
        set_err(err, errlen, "%s: read error: %s", name, strerror(errno));
        return -1;
    }
    if (grow((void **)&t->buf, &cap, len + 1, 1) != 0) return TSV_OOM;
    t->buf[len] = 0;
    if (memchr(t->buf, 0, len)) {
        set_err(err, errlen, "%s: contains a NUL byte: not a text table", name);
        return -1;
    }
    return 0;
}

/* A '#' line: "# key<TAB>value" metadata, or a comment. */
static int comment_line(tsv_table *t, pstate *ps, char *line, const char *name, long lineno,
                        char *err, size_t errlen)
{
    if (t->nmeta + t->ncomment >= TSV_MAX_FIELDS) {
        set_err(err, errlen, "%s:%ld: more than %u comment lines: not a table of this "
                "toolkit", name, lineno, TSV_MAX_FIELDS);
        return -1;
    }
    char *s = line + 1;
    if (*s == ' ') s++;
    char *tab = strchr(s, '\t');
    if (tab && tab != s && !memchr(s, ' ', (size_t)(tab - s))) {
        *tab = 0;
        if (t->nmeta == ps->cm) {
            size_t nc = ps->cm ? 2 * ps->cm : 32;
            char **k2 = realloc(t->meta_key, nc * sizeof(char *));
            if (!k2) return TSV_OOM;
            t->meta_key = k2;
            char **v2 = realloc(t->meta_val, nc * sizeof(char *));
            if (!v2) return TSV_OOM;
            t->meta_val = v2;
            ps->cm = nc;
        }
        t->meta_key[t->nmeta] = s;
        t->meta_val[t->nmeta++] = tab + 1;
    } else {
        if (grow((void **)&t->comment, &ps->cc, t->ncomment + 1, sizeof(char *)) != 0) return TSV_OOM;
        t->comment[t->ncomment++] = s;
    }
    return 0;
}

/* The header (the first line that is not a comment), or a row. */
static int field_line(tsv_table *t, pstate *ps, char *line, const char *name, long lineno,
                      char *err, size_t errlen)
{
    size_t nf = split(line, &ps->fields, &ps->cfields);
    if (nf == (size_t)-1) return TSV_OOM;
    if (nf == (size_t)-2) {
        set_err(err, errlen, "%s:%ld: more than %u fields: not a table of this toolkit",
                name, lineno, TSV_MAX_FIELDS);
        return -1;
    }
    if (!t->col) {
        if (grow((void **)&t->col, &ps->ccol, nf, sizeof(char *)) != 0) return TSV_OOM;
        memcpy(t->col, ps->fields, nf * sizeof(char *));
        t->ncol = nf;
        int oom;
        const char *dup = duplicate_name(t->col, nf, &oom);
        if (oom) return TSV_OOM;
        if (dup) {
            set_err(err, errlen, "%s:%ld: the column '%s' appears twice", name, lineno, dup);
            return -1;
        }
        return 0;
    }
    if (nf != t->ncol) {
        set_err(err, errlen, "%s:%ld: %zu fields where the header has %zu", name, lineno, nf, t->ncol);
        return -1;
    }
    if ((t->nrow + 1) * t->ncol > TSV_MAX_FIELDS) {
        set_err(err, errlen, "%s:%ld: more than %u fields: not a table of this toolkit",
                name, lineno, TSV_MAX_FIELDS);
        return -1;
    }
    if (grow((void **)&t->cell, &ps->ccell, (t->nrow + 1) * t->ncol, sizeof(char *)) != 0) return TSV_OOM;
    memcpy(t->cell + t->nrow * t->ncol, ps->fields, nf * sizeof(char *));
    t->nrow++;
    return 0;
}

int tsv_parse(FILE *f, const char *name, tsv_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->name = strdup(name ? name : "(table)");
    pstate ps = {0};
    int rc = slurp(f, name, t, err, errlen);
    long lineno = 0;
    for (char *line = t->buf; rc == 0 && line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        lineno++;
        size_t l = strlen(line);
        if (l && line[l - 1] == '\r') line[--l] = 0;
        if (l > 0)
            rc = line[0] == '#' ? comment_line(t, &ps, line, name, lineno, err, errlen)
                                : field_line(t, &ps, line, name, lineno, err, errlen);
        line = nl ? nl + 1 : NULL;
    }
    free(ps.fields);
    if (rc == 0 && !t->col) {
        set_err(err, errlen, "%s: no header row (every line is a comment, or the file is empty)", name);
        rc = -1;
    }
    if (rc == TSV_OOM) set_err(err, errlen, "%s: out of memory", name);
    if (rc != 0) {
        tsv_free(t);
        return -1;
    }
    return 0;
}

int tsv_read(const char *path, tsv_table *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        memset(t, 0, sizeof *t);
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = tsv_parse(f, path, t, err, errlen);
    fclose(f);
    return rc;
}

int tsv_col(const tsv_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncol; c++)
        if (!strcmp(t->col[c], name)) return (int)c;
    return -1;
}

const char *tsv_get(const tsv_table *t, size_t r, const char *col)
{
    int c = tsv_col(t, col);
    if (c < 0 || r >= t->nrow) return NULL;
    return t->cell[r * t->ncol + (size_t)c];
}

double tsv_parse_num(const char *s)
{
    if (!s || !*s || !strcmp(s, "-") || !strcmp(s, "nan")) return NAN;
    for (const char *q = s; *q; q++)
        if (!strchr("0123456789.eE+-", *q)) return NAN;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v)) return NAN;
    return v;
}

double tsv_num(const tsv_table *t, size_t r, const char *col) { return tsv_parse_num(tsv_get(t, r, col)); }

long tsv_find(const tsv_table *t, const char *col, const char *value, size_t from)
{
    int c = tsv_col(t, col);
    if (c < 0) return -1;
    for (size_t r = from; r < t->nrow; r++)
        if (!strcmp(t->cell[r * t->ncol + (size_t)c], value)) return (long)r;
    return -1;
}

long tsv_write_where(FILE *f, const tsv_table *t, const char *col, const char *value)
{
    const int c = tsv_col(t, col);
    if (c < 0) return -1;
    for (size_t m = 0; m < t->nmeta; m++) fprintf(f, "# %s\t%s\n", t->meta_key[m], t->meta_val[m]);
    for (size_t m = 0; m < t->ncomment; m++) fprintf(f, "# %s\n", t->comment[m]);
    for (size_t k = 0; k < t->ncol; k++) fprintf(f, "%s%s", k ? "\t" : "", t->col[k]);
    fputc('\n', f);
    long n = 0;
    for (size_t r = 0; r < t->nrow; r++) {
        const char *const *row = (const char *const *)t->cell + r * t->ncol;
        if (strcmp(row[c], value)) continue;
        for (size_t k = 0; k < t->ncol; k++) fprintf(f, "%s%s", k ? "\t" : "", row[k]);
        fputc('\n', f);
        n++;
    }
    return n;
}

const char *tsv_meta(const tsv_table *t, const char *key)
{
    const char *v = NULL;
    for (size_t i = 0; i < t->nmeta; i++)
        if (!strcmp(t->meta_key[i], key)) v = t->meta_val[i];
    return v;
}

double tsv_meta_num(const tsv_table *t, const char *key) { return tsv_parse_num(tsv_meta(t, key)); }

double tsv_meta_lead_num(const tsv_table *t, const char *key)
{
    const char *v = tsv_meta(t, key);
    if (!v) return NAN;
    char buf[64];
    size_t n = strcspn(v, " \t");
    if (n == 0 || n >= sizeof buf) return NAN;
    memcpy(buf, v, n);
    buf[n] = 0;
    return tsv_parse_num(buf);
}
