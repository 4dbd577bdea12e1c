/* report_table.c - a table of the report (report_doc.h: rd_table_*): its
 * cells and column groups, and how it is cut to fit its page, the views both
 * writers of report_doc.c write (rd_table_views).  The document (report_doc.c)
 * holds tables; nothing here knows the document. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_doc.h"

char *rd_vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    const int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0) return NULL;
    char *p = malloc((size_t)n + 1);
    if (p) vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

void rd_table_free(rd_table *t)
{
    if (!t) return;
    for (size_t i = 0; i < (t->nrow + 1) * t->ncol; i++) free(t->cell[i]);
    free(t->cell);
    for (size_t g = 0; g < t->ngroup; g++) free(t->group[g]);
    free(t->group);
    free(t->group_span);
    free(t);
}

rd_table *rd_table_new(size_t ncol)
{
    if (ncol == 0) return NULL;
    rd_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->ncol = ncol;
    t->cell = calloc(ncol, sizeof *t->cell);
    if (!t->cell) { free(t); return NULL; }
    return t;
}

int rd_table_set(rd_table *t, size_t row, size_t col, const char *fmt, ...)
{
    if (!t || col >= t->ncol) return -1;
    if (row > t->nrow) {
        char **c = realloc(t->cell, (row + 1) * t->ncol * sizeof *c);
        if (!c) return -1;
        memset(c + (t->nrow + 1) * t->ncol, 0, (row - t->nrow) * t->ncol * sizeof *c);
        t->cell = c;
        t->nrow = row;
    }
    va_list ap;
    va_start(ap, fmt);
    char *p = rd_vformat(fmt, ap);
    va_end(ap);
    if (!p) return -1;
    free(t->cell[row * t->ncol + col]);
    t->cell[row * t->ncol + col] = p;
    return 0;
}

int rd_table_group(rd_table *t, const char *name, size_t span)
{
    if (!t) return -1;
    char **g = realloc(t->group, (t->ngroup + 1) * sizeof *g);
    if (!g) return -1;
    t->group = g;
    size_t *sp = realloc(t->group_span, (t->ngroup + 1) * sizeof *sp);
    if (!sp) return -1;
    t->group_span = sp;
    if (!(t->group[t->ngroup] = strdup(name))) return -1;
    t->group_span[t->ngroup++] = span;
    return 0;
}

const char *rd_table_get(const rd_table *t, size_t row, size_t col)
{
    if (!t || row > t->nrow || col >= t->ncol) return NULL;
    const char *c = t->cell[row * t->ncol + col];
    return c ? c : "";
}

size_t rd_table_width(const rd_table *t, const size_t *cols, size_t ncol)
{
    size_t w = 1;
    for (size_t k = 0; k < ncol; k++) {
        size_t m = 0;
        for (size_t r = 0; r <= t->nrow; r++) {
            const size_t l = strlen(rd_table_get(t, r, cols[k]));
            if (l > m) m = l;
        }
        w += m + 3;
    }
    return w;
}

void rd_views_free(rd_view *v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i].col);
}

/* Views of columns from..to-1 (with column 0 first) under caption,
 * sliced to the budget; appended at v[*n]. */
static int slice_views(const rd_table *t, size_t budget, size_t from, size_t to, const char *caption, rd_view *v,
                       size_t *n, size_t max)
{
    size_t c = from;
    int cont = 0;
    while (c < to && *n < max) {
        size_t *cols = malloc((to - from + 1) * sizeof *cols);
        if (!cols) return -1;
        size_t k = 0;
        cols[k++] = 0;
        cols[k++] = c++;
        while (c < to) {
            cols[k] = c;
            if (rd_table_width(t, cols, k + 1) > budget) break;
            k++;
            c++;
        }
        v[*n] = (rd_view){cols, k, caption, cont};
        (*n)++;
        cont = 1;
    }
    return 0;
}

size_t rd_table_views(const rd_table *t, size_t budget, rd_view *v, size_t max)
{
    if (!t || !max) return 0;
    size_t *all = calloc(t->ncol + 1, sizeof *all);
    if (!all) return 0;
    for (size_t c = 0; c < t->ncol; c++) all[c] = c;
    /* the Markdown prefixes a group's name to its columns' names */
    size_t w = rd_table_width(t, all, t->ncol);
    for (size_t g = 0; g < t->ngroup; g++) w += t->group_span[g] * (strlen(t->group[g]) + 2);
    if (w <= budget || t->ncol < 2) {
        v[0] = (rd_view){all, t->ncol, "", 0};
        return 1;
    }
    free(all);
    size_t n = 0;
    if (t->ngroup) {
        size_t c = 1;
        for (size_t g = 0; g < t->ngroup && c < t->ncol; g++) {
            const size_t to = c + t->group_span[g] < t->ncol ? c + t->group_span[g] : t->ncol;
            if (slice_views(t, budget, c, to, t->group[g], v, &n, max) != 0) { rd_views_free(v, n); return 0; }
            c = to;
        }
    } else if (slice_views(t, budget, 1, t->ncol, "", v, &n, max) != 0) {
        rd_views_free(v, n);
        return 0;
    }
    return n;
}

