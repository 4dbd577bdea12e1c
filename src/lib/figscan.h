/*
 * figscan.h - the figures quoted in the docs and their annotations, as
 * bin/docfigs reads them (the syntax: src/tools/docfigs.c):
 *
 *   float4 reaches 83.3%<!-- fig h100/readonly_1e8_wpb4.tsv:pct_peak[kernel=float4] -->
 *
 * A line of Markdown is cut into items (HTML comments, and numbers outside
 * code spans and link targets); an annotation's expression is evaluated left
 * to right, its terms looked up by the caller; a quoted figure agrees with a
 * value when it is that value rounded to the figure's decimals.  No I/O here.
 */
#ifndef WARPLAT_FIGSCAN_H
#define WARPLAT_FIGSCAN_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FIGSCAN_MAX_ITEMS 256

typedef struct figscan_item {
    int is_comment;
    size_t pos, end;    /* the item is line[pos .. end) */
    char text[2048];    /* a comment's inside, or the number */
    int needs;          /* a number with a unit: needs an annotation */
} figscan_item;

/* Cut line into at most max items, in order.  Returns how many, or -1 when
 * an HTML comment does not end on its line. */
int figscan_line(const char *line, figscan_item *it, int max);

/* A term of an annotation, split (no file is read):
 *   FILE:COLUMN[SEL]  max(...) min(...) count(...)   kind ':'
 *   FILE#KEY                                          kind '#'
 *   FILE@WHAT:FIELD                                   kind '@' */
typedef struct figscan_term {
    char fn[8];          /* "", "max", "min" or "count" */
    char file[1024];
    char kind;           /* ':', '#' or '@' */
    char col[128];       /* ':' the column; '#' the key; '@' the field */
    char what[64];       /* '@': stats, header or levels */
    char sel[512];       /* ':' the selector inside [...], or "" */
} figscan_term;

/* 0, or -1 with a sentence in err. */
int figscan_parse_term(const char *tok, figscan_term *t, char *err, size_t errlen);

/* Looks up a term that is not a number: 0 with *v, or -1 with err. */
typedef int (*figscan_lookup_fn)(const char *tok, double *v, void *ctx, char *err, size_t errlen);

/* Evaluate an expression of numbers, + - * / and terms, left to right (no
 * precedence), with an optional "~P%" (*tol_pct, 0 when none).  0, or -1
 * with err. */
int figscan_eval(const char *expr, figscan_lookup_fn lookup, void *ctx, double *v, double *tol_pct,
                 char *err, size_t errlen);

/* Does the quoted figure q agree with v (rounded to q's decimals, or within
 * tol_pct percent when > 0)?  shown gets v as q would write it. */
int figscan_agrees(const char *q, double v, double tol_pct, char *shown, size_t len);

#ifdef __cplusplus
}
#endif
#endif
