/* report_doc.c - see report_doc.h. */
#define _POSIX_C_SOURCE 200809L
#include "report_doc.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ memory */

static char *dup_or_oom(report_doc *d, const char *s)
{
    if (!s) return NULL;
    char *p = strdup(s);
    if (!p && d) d->oom = 1;
    return p;
}

report_doc *rd_new(const char *title)
{
    report_doc *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->title = dup_or_oom(d, title ? title : "");
    return d;
}

static void block_free(rd_block *b)
{
    free(b->text);
    free(b->text2);
    rd_table_free(b->table);
    for (size_t i = 0; i < b->nitem; i++) {
        free(b->item[i]);
        free(b->caption[i]);
    }
    free(b->item);
    free(b->caption);
}

void rd_free(report_doc *d)
{
    if (!d) return;
    for (size_t s = 0; s < d->nsection; s++) {
        rd_section *sec = &d->section[s];
        for (size_t b = 0; b < sec->nblock; b++) block_free(&sec->block[b]);
        free(sec->block);
        free(sec->id);
        free(sec->title);
    }
    free(d->section);
    for (size_t i = 0; i < d->nfailure; i++) free(d->failure[i]);
    free(d->failure);
    free(d->title);
    free(d->top_note);
    free(d->footer);
    free(d);
}

void rd_set_top_note(report_doc *d, const char *fmt, ...)
{
    if (!d) return;
    va_list ap;
    va_start(ap, fmt);
    char *p = rd_vformat(fmt, ap);
    va_end(ap);
    if (!p) { d->oom = 1; return; }
    free(d->top_note);
    d->top_note = p;
}

void rd_set_footer(report_doc *d, const char *text)
{
    if (!d) return;
    free(d->footer);
    d->footer = dup_or_oom(d, text);
}

rd_section *rd_section_add(report_doc *d, const char *id, const char *title)
{
    if (!d) return NULL;
    /* sections are found again by pointer: a realloc would move them, so the
     * array is allocated once with room for every section a report has */
    enum { MAX_SECTIONS = 64 };
    if (!d->section) {
        d->section = calloc(MAX_SECTIONS, sizeof *d->section);
        if (!d->section) { d->oom = 1; return NULL; }
    }
    if (d->nsection == MAX_SECTIONS) { d->oom = 1; return NULL; }
    rd_section *s = &d->section[d->nsection++];
    s->id = dup_or_oom(d, id);
    s->title = dup_or_oom(d, title);
    return s;
}

rd_section *rd_section_intro(report_doc *d, const char *id, const char *title, const char *intro)
{
    rd_section *s = rd_section_add(d, id, title);
    rd_para(d, s, "%s", intro);
    return s;
}

void rd_section_to_front(report_doc *d, rd_section *s)
{
    if (!d || !s || s < d->section || s >= d->section + d->nsection) return;
    const rd_section x = *s;
    memmove(d->section + 1, d->section, (size_t)(s - d->section) * sizeof *s);
    d->section[0] = x;
}

rd_section *rd_section_find(report_doc *d, const char *id)
{
    for (size_t i = 0; d && i < d->nsection; i++)
        if (d->section[i].id && !strcmp(d->section[i].id, id)) return &d->section[i];
    return NULL;
}

static rd_block *block_add(report_doc *d, rd_section *s, rd_kind k)
{
    if (!d || !s) return NULL;
    /* one realloc per block: a report has a few hundred */
    rd_block *p = realloc(s->block, (s->nblock + 1) * sizeof *p);
    if (!p) { d->oom = 1; return NULL; }
    s->block = p;
    rd_block *b = &s->block[s->nblock++];
    memset(b, 0, sizeof *b);
    b->kind = k;
    return b;
}

static void text_block(report_doc *d, rd_section *s, rd_kind k, const char *fmt, va_list ap)
{
    char *p = rd_vformat(fmt, ap);
    if (!p) { if (d) d->oom = 1; return; }
    rd_block *b = block_add(d, s, k);
    if (!b) { free(p); return; }
    b->text = p;
}

void rd_heading(report_doc *d, rd_section *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_block(d, s, RD_HEADING, fmt, ap);
    va_end(ap);
}

void rd_para(report_doc *d, rd_section *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_block(d, s, RD_PARA, fmt, ap);
    va_end(ap);
}

void rd_finding(report_doc *d, rd_section *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_block(d, s, RD_FINDING, fmt, ap);
    va_end(ap);
}

void rd_missing(report_doc *d, rd_section *s, const char *what, const char *command)
{
    rd_block *b = block_add(d, s, RD_MISSING);
    if (!b) return;
    b->text = dup_or_oom(d, what);
    b->text2 = dup_or_oom(d, command);
}

void rd_failed(report_doc *d, rd_section *s, const char *what, const char *error)
{
    if (!d) return;
    rd_block *b = block_add(d, s, RD_FAILED);
    if (b) {
        b->text = dup_or_oom(d, what);
        b->text2 = dup_or_oom(d, error ? error : "");
    }
    char **p = realloc(d->failure, (d->nfailure + 1) * sizeof *p);
    if (!p) { d->oom = 1; return; }
    d->failure = p;
    const size_t n = strlen(what) + (error ? strlen(error) : 0) + 3;
    char *f = malloc(n);
    if (!f) { d->oom = 1; return; }
    snprintf(f, n, "%s%s%s", what, error && *error ? ": " : "", error ? error : "");
    d->failure[d->nfailure++] = f;
}

void rd_fold_start(report_doc *d, rd_section *s, const char *summary)
{
    rd_block *b = block_add(d, s, RD_FOLD_START);
    if (b) b->text = dup_or_oom(d, summary ? summary : "more");
}

void rd_fold_end(report_doc *d, rd_section *s) { block_add(d, s, RD_FOLD_END); }

/* ------------------------------------------------------------ tables */

void rd_table_add(report_doc *d, rd_section *s, rd_table *t)
{
    if (!t) { if (d) d->oom = 1; return; }
    rd_block *b = block_add(d, s, RD_TABLE);
    if (!b) { rd_table_free(t); return; }
    b->table = t;
}

/* ------------------------------------------------------------ figures, links */

static rd_block *last_of(rd_section *s, rd_kind k)
{
    if (!s || !s->nblock || s->block[s->nblock - 1].kind != k) return NULL;
    return &s->block[s->nblock - 1];
}

static void item_add(report_doc *d, rd_block *b, const char *item, const char *caption)
{
    if (!b) return;
    char **i = realloc(b->item, (b->nitem + 1) * sizeof *i);
    if (!i) { d->oom = 1; return; }
    b->item = i;
    char **c = realloc(b->caption, (b->nitem + 1) * sizeof *c);
    if (!c) { d->oom = 1; return; }
    b->caption = c;
    b->item[b->nitem] = dup_or_oom(d, item);
    b->caption[b->nitem] = dup_or_oom(d, caption ? caption : "");
    b->nitem++;
}

void rd_figures_start(report_doc *d, rd_section *s) { block_add(d, s, RD_FIGURES); }

void rd_figure(report_doc *d, rd_section *s, const char *svg, const char *caption)
{
    rd_block *b = last_of(s, RD_FIGURES);
    if (!b) { rd_figures_start(d, s); b = last_of(s, RD_FIGURES); }
    item_add(d, b, svg, caption);
}

void rd_links_start(report_doc *d, rd_section *s, const char *lead)
{
    rd_block *b = block_add(d, s, RD_LINKS);
    if (b && lead) b->text = dup_or_oom(d, lead);
}

void rd_link(report_doc *d, rd_section *s, const char *target, const char *text)
{
    rd_block *b = last_of(s, RD_LINKS);
    if (!b) { rd_links_start(d, s, NULL); b = last_of(s, RD_LINKS); }
    item_add(d, b, target, text);
}

/* ------------------------------------------------------------ writers */

int rd_is_numeric(const char *s)
{
    if (!s || !*s) return 0;
    if (!strcmp(s, "n/a") || !strcmp(s, "-")) return 1;
    const char *p = s;
    if (*p == '+' || *p == '-' || *p == 'x') p++;
    int digits = 0;
    while (isdigit((unsigned char)*p) || *p == '.' || *p == ',') digits += isdigit((unsigned char)*p++) != 0;
    if (*p == ' ') p++;
    if (*p == '%') p++;
    return digits > 0 && *p == 0;
}

static void html_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* The header row's cells from column `from` on, each <th>, and the row's end. */

/* The chart's script: a.svg -> a.gp (report_doc.h). */
void rd_chart_script(char *buf, size_t len, const char *svg)
{
    snprintf(buf, len, "%s", svg);
    char *dot = strrchr(buf, '.');
    if (dot && (size_t)(dot - buf) + 4 <= len) strcpy(dot, ".gp");
}

static const char HTML_HEAD[] =
    "<style>\n"
    "body { font-family: Helvetica, Arial, sans-serif; max-width: 1400px; margin: 1em auto; padding: 0 1em; color: #222; line-height: 1.4; }\n"
    "h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #0077bb; padding-bottom: .2em; margin-top: 2em; } h3 { margin-top: 1.4em; }\n"
    ".top { background: #fff6d5; border-left: 5px solid #e0a800; padding: .6em 1em; font-size: 1.1em; }\n"
    ".failures { background: #fde8e8; border-left: 5px solid #cc3311; padding: .4em 1em; }\n"
    "table { border-collapse: collapse; margin: .6em 0; font-size: .9em; display: block; max-width: 100%; overflow-x: auto; }\n"
    ".tcap { margin: .8em 0 0; font-weight: bold; font-size: .9em; }\n"
    "details { margin: .6em 0; } summary { cursor: pointer; color: #0077bb; }\n"
    "#glance p.links { margin: .3em 0; }\n"
    "th, td { border: 1px solid #ccc; padding: .25em .6em; } th { background: #eef3f8; } th.group { background: #dbe7f3; }\n"
    "td.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
    ".finding { background: #eef7ee; border-left: 4px solid #228833; padding: .4em .8em; }\n"
    ".na { color: #777; font-style: italic; } .na code { font-style: normal; } .failed { color: #cc3311; font-weight: bold; }\n"
    ".row { display: flex; flex-direction: column; gap: 1em; }\n"
    "figure { margin: 0; flex: 1 1 100%; min-width: 320px; } figure img { width: 100%; height: auto; border: 1px solid #ddd; }\n"
    "figcaption { font-size: .85em; color: #555; }\n"
    "nav a { margin-right: 1em; }\n"
    "</style>\n";

/* Counts the images that loaded, for tests/cli/report_browser.sh; the
 * report needs no script to be read. */
static const char HTML_SCRIPT[] =
    "<script>\n"
    "window.addEventListener('load', function () {\n"
    "  var imgs = document.getElementsByTagName('img'), ok = 0;\n"
    "  for (var i = 0; i < imgs.length; i++) if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;\n"
    "  document.body.setAttribute('data-images-ok', ok + '/' + imgs.length);\n"
    "});\n"
    "</script>\n";

static void html_view(FILE *f, const rd_table *t, const rd_view *v, int groups)
{
    if (v->caption && *v->caption) {
        fputs("<p class=\"tcap\">", f);
        html_esc(f, v->caption);
        if (v->cont) fputs(" (continued)", f);
        fputs("</p>\n", f);
    }
    fputs("<table>\n", f);
    if (groups && t->ngroup) {
        fputs("<tr><th rowspan=\"2\">", f);
        html_esc(f, rd_table_get(t, 0, 0));
        fputs("</th>", f);
        for (size_t g = 0; g < t->ngroup; g++) {
            fprintf(f, "<th colspan=\"%zu\" class=\"group\">", t->group_span[g]);
            html_esc(f, t->group[g]);
            fputs("</th>", f);
        }
        fputs("</tr>\n<tr>", f);
        for (size_t k = 1; k < v->ncol; k++) {
            fputs("<th>", f);
            html_esc(f, rd_table_get(t, 0, v->col[k]));
            fputs("</th>", f);
        }
        fputs("</tr>\n", f);
    } else {
        fputs("<tr>", f);
        for (size_t k = 0; k < v->ncol; k++) {
            fputs("<th>", f);
            html_esc(f, rd_table_get(t, 0, v->col[k]));
            fputs("</th>", f);
        }
        fputs("</tr>\n", f);
    }
    for (size_t r = 1; r <= t->nrow; r++) {
        fputs("<tr>", f);
        for (size_t k = 0; k < v->ncol; k++) {
            const char *x = rd_table_get(t, r, v->col[k]);
            fputs(k > 0 && rd_is_numeric(x) ? "<td class=\"n\">" : "<td>", f);
            html_esc(f, x);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void html_table(FILE *f, const rd_table *t)
{
    rd_view v[RD_MAX_VIEWS];
    const size_t n = rd_table_views(t, RD_TABLE_CHARS, v, RD_MAX_VIEWS);
    for (size_t i = 0; i < n; i++) html_view(f, t, &v[i], n == 1);
    rd_views_free(v, n);
}

static void html_block(FILE *f, const rd_block *b)
{
    char gp[1024];
    switch (b->kind) {
    case RD_HEADING:
        fputs("<h3>", f); html_esc(f, b->text); fputs("</h3>\n", f);
        break;
    case RD_PARA:
        fputs("<p>", f); html_esc(f, b->text); fputs("</p>\n", f);
        break;
    case RD_FINDING:
        fputs("<p class=\"finding\">", f); html_esc(f, b->text); fputs("</p>\n", f);
        break;
    case RD_MISSING:
        fputs("<p class=\"na\">not available: ", f);
        html_esc(f, b->text);
        if (b->text2) { fputs(" (made by <code>", f); html_esc(f, b->text2); fputs("</code>)", f); }
        fputs("</p>\n", f);
        break;
    case RD_FAILED:
        fputs("<p class=\"failed\">failed: ", f);
        html_esc(f, b->text);
        if (b->text2 && *b->text2) { fputs(": ", f); html_esc(f, b->text2); }
        fputs("</p>\n", f);
        break;
    case RD_TABLE:
        html_table(f, b->table);
        break;
    case RD_FIGURES:
        fputs("<div class=\"row\">\n", f);
        for (size_t i = 0; i < b->nitem; i++) {
            rd_chart_script(gp, sizeof gp, b->item[i]);
            fputs("<figure><a href=\"", f); html_esc(f, b->item[i]);
            fputs("\"><img src=\"", f); html_esc(f, b->item[i]);
            fputs("\" alt=\"", f); html_esc(f, b->caption[i]);
            fputs("\"></a><figcaption>", f); html_esc(f, b->caption[i]);
            fputs(" (<a href=\"", f); html_esc(f, gp);
            fputs("\">gnuplot script</a>)</figcaption></figure>\n", f);
        }
        fputs("</div>\n", f);
        break;
    case RD_FOLD_START:
        fputs("<details><summary>", f); html_esc(f, b->text); fputs("</summary>\n", f);
        break;
    case RD_FOLD_END:
        fputs("</details>\n", f);
        break;
    case RD_LINKS:
        fputs("<p class=\"links\">", f);
        if (b->text) { html_esc(f, b->text); fputc(' ', f); }
        for (size_t i = 0; i < b->nitem; i++) {
            fputs(i ? ", <a href=\"" : "<a href=\"", f); html_esc(f, b->item[i]);
            fputs("\">", f); html_esc(f, b->caption[i]); fputs("</a>", f);
        }
        fputs("</p>\n", f);
        break;
    }
}

int rd_write_html(const report_doc *d, FILE *f)
{
    if (!d || d->oom) return -1;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    html_esc(f, d->title);
    fputs("</title>\n", f);
    fputs(HTML_HEAD, f);
    fputs("</head>\n<body>\n<h1>", f);
    html_esc(f, d->title);
    fputs("</h1>\n", f);
    if (d->top_note) { fputs("<p class=\"top\">", f); html_esc(f, d->top_note); fputs("</p>\n", f); }
    if (d->nfailure) {
        fprintf(f, "<div class=\"failures\"><p>%zu part(s) failed; the rest of the report is "
                   "complete:</p><ul>\n", d->nfailure);
        for (size_t i = 0; i < d->nfailure; i++) {
            fputs("<li>failed: ", f); html_esc(f, d->failure[i]); fputs("</li>\n", f);
        }
        fputs("</ul></div>\n", f);
    }
    fputs("<nav>", f);
    for (size_t s = 0; s < d->nsection; s++) {
        fputs("<a href=\"#", f); html_esc(f, d->section[s].id); fputs("\">", f);
        html_esc(f, d->section[s].title); fputs("</a>", f);
    }
    fputs("</nav>\n", f);
    for (size_t s = 0; s < d->nsection; s++) {
        const rd_section *sec = &d->section[s];
        fputs("<section id=\"", f); html_esc(f, sec->id); fputs("\">\n<h2>", f);
        html_esc(f, sec->title); fputs("</h2>\n", f);
        for (size_t b = 0; b < sec->nblock; b++) html_block(f, &sec->block[b]);
        fputs("</section>\n", f);
    }
    if (d->footer) { fputs("<footer><p>", f); html_esc(f, d->footer); fputs("</p></footer>\n", f); }
    fputs(HTML_SCRIPT, f);
    fputs("</body>\n</html>\n", f);
    return ferror(f) ? -1 : 0;
}
