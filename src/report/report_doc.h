/*
 * report_doc.h - the report as a document model, written out as HTML and as
 * Markdown from the same model, so that the two can never say different
 * things.
 *
 * A document is a title, a note at the top (which data it shows), a list of
 * failed steps, and sections.  A section is a sequence of blocks:
 *
 *   heading     a sub-heading (h3 / ###)
 *   para        a paragraph of explanation
 *   finding     an interpretation computed from the numbers (shown boxed)
 *   missing     "not available: WHAT" with the command that makes it
 *   failed      "failed: WHAT: ERROR" (also listed at the top)
 *   table       a table: a header row, rows, optional column groups (one per
 *               GPU when GPUs are side by side)
 *   figures     a row of charts: each an SVG path (relative to the report
 *               folder) and a caption; the HTML links the chart's .gp script
 *   links       a line of links to files of the report folder
 *   fold        the blocks between a fold's start and end are folded
 *               (<details>, open on a click) behind a one-line summary
 *
 * Both writers keep a table within the page: one wider than RD_TABLE_CHARS
 * characters (its widest cell per column, three more per column for the
 * borders) is written as several, one per column group (GPU) and, where
 * one group is still too wide, in slices of columns, each repeating the
 * first column.  The Markdown's prose is wrapped at RD_MD_WRAP characters
 * so that no line outside a code block or table is longer than 200.
 * Every string is copied.  Memory failures are remembered (the document is
 * then refused by the writers) so that a builder never has to check each
 * call.  The writers produce self-contained HTML (inline CSS, one small
 * script that counts the images that loaded, for the browser test; no
 * network resource) and GitHub-flavoured Markdown.
 */
#ifndef WARPLAT_REPORT_DOC_H
#define WARPLAT_REPORT_DOC_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rd_table {
    size_t ncol;
    size_t nrow;           /* rows after the header */
    char **cell;           /* (nrow + 1) * ncol: row 0 is the header */
    size_t ngroup;         /* column groups over columns 1.. (0: none) */
    char **group;          /* their names */
    size_t *group_span;    /* columns each spans */
} rd_table;

typedef enum rd_kind {
    RD_HEADING, RD_PARA, RD_FINDING, RD_MISSING, RD_FAILED, RD_TABLE, RD_FIGURES, RD_LINKS,
    RD_FOLD_START, RD_FOLD_END
} rd_kind;

typedef struct rd_block {
    rd_kind kind;
    char *text;            /* heading, para, finding; missing: what; failed: what */
    char *text2;           /* missing: the command; failed: the error */
    rd_table *table;
    char **item;           /* figures: svg paths; links: targets */
    char **caption;        /* figures: captions; links: texts */
    size_t nitem;
} rd_block;

typedef struct rd_section {
    char *id;
    char *title;
    rd_block *block;
    size_t nblock;
} rd_section;

typedef struct report_doc {
    char *title;
    char *top_note;
    char *footer;
    char **failure;        /* "WHAT: ERROR" */
    size_t nfailure;
    rd_section *section;
    size_t nsection;
    int oom;               /* a builder ran out of memory: the writers refuse */
} report_doc;

report_doc *rd_new(const char *title);
void rd_free(report_doc *d);
void rd_set_top_note(report_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rd_set_footer(report_doc *d, const char *text);

/* A new section at the end; NULL only when out of memory (later calls on a
 * NULL section do nothing). */
rd_section *rd_section_add(report_doc *d, const char *id, const char *title);
/* The same, opened by one paragraph: intro, plain text written as it is (not
 * a format: a percent sign is a percent sign).  The opening of every section
 * that explains itself before its figures. */
rd_section *rd_section_intro(report_doc *d, const char *id, const char *title, const char *intro);
/* Move section s before every other (the document's opening, added last
 * because it quotes the others); pointers to sections are stale after it. */
void rd_section_to_front(report_doc *d, rd_section *s);
/* The section with this id, or NULL. */
rd_section *rd_section_find(report_doc *d, const char *id);

void rd_heading(report_doc *d, rd_section *s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void rd_para(report_doc *d, rd_section *s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void rd_finding(report_doc *d, rd_section *s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "not available: what" and the command that makes it (may be NULL). */
void rd_missing(report_doc *d, rd_section *s, const char *what, const char *command);
/* A failed part: noted in the section and in the document's failure list. */
void rd_failed(report_doc *d, rd_section *s, const char *what, const char *error);

/* Tables.  rd_table_new(ncol) then rd_table_header and rows; the section
 * takes ownership with rd_table_add. */
rd_table *rd_table_new(size_t ncol);
void rd_table_free(rd_table *t);
/* Set cell (row, col); row 0 is the header.  Grows the table by rows as
 * needed.  0, or -1 when out of memory or col is out of range. */
int rd_table_set(rd_table *t, size_t row, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Add a column group spanning `span` columns (groups cover columns 1.. in
 * order). */
int rd_table_group(rd_table *t, const char *name, size_t span);
const char *rd_table_get(const rd_table *t, size_t row, size_t col);
void rd_table_add(report_doc *d, rd_section *s, rd_table *t);

/* The widest table written as one (see above), and the Markdown's wrap. */
#define RD_TABLE_CHARS 160
#define RD_MD_WRAP 190
/* The views one table may be cut into (both writers). */
#define RD_MAX_VIEWS 64

/* Fold the blocks that follow, up to rd_fold_end, behind summary. */
void rd_fold_start(report_doc *d, rd_section *s, const char *summary);
void rd_fold_end(report_doc *d, rd_section *s);

/* How a table is written (both writers): nview views, view v showing
 * columns col[v][0..ncol[v]) (column 0 first) under caption[v] (a group's
 * name, "" for none; the groups' header row only when there is one view).
 * Returns nview (at most max), 0 when out of memory.  For tests. */
typedef struct rd_view {
    size_t *col;
    size_t ncol;
    const char *caption;
    int cont;              /* a later slice of the same group */
} rd_view;
size_t rd_table_views(const rd_table *t, size_t budget, rd_view *v, size_t max);
void rd_views_free(rd_view *v, size_t n);
/* The width of the table's columns cols (see above). */
size_t rd_table_width(const rd_table *t, const size_t *cols, size_t ncol);
/* printf into a new string (malloc'ed; NULL when out of memory): the cells'
 * text and the document's (report_table.c). */
char *rd_vformat(const char *fmt, va_list ap);
/* A chart's gnuplot script beside it: a.svg -> a.gp (both writers). */
void rd_chart_script(char *buf, size_t len, const char *svg);

/* Figures: one row of charts.  rd_figures_start, then rd_figure for each. */
void rd_figures_start(report_doc *d, rd_section *s);
void rd_figure(report_doc *d, rd_section *s, const char *svg, const char *caption);
/* Links: one line; rd_links_start then rd_link for each. */
void rd_links_start(report_doc *d, rd_section *s, const char *lead);
void rd_link(report_doc *d, rd_section *s, const char *target, const char *text);

/* Write the document.  0, or -1 (out of memory while building, or a write
 * error). */
int rd_write_html(const report_doc *d, FILE *f);
int rd_write_markdown(const report_doc *d, FILE *f);

/* Helpers for both writers and for tests: does the cell read as a number
 * ("12.5", "-3", "+1.2%", "n/a")?  HTML right-aligns those. */
int rd_is_numeric(const char *s);

#ifdef __cplusplus
}
#endif
#endif
