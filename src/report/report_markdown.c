/* report_markdown.c - the report's Markdown writer (report_doc.h:
 * rd_write_markdown): the same document that report_doc.c writes as HTML,
 * as Markdown, its tables cut into the same views (report_table.c). */
#define _POSIX_C_SOURCE 200809L
#include "report_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Markdown: a table cell cannot hold '|' or a newline. */
static void md_cell(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|') fputs("\\|", f);
        else if (*s == '\n') fputc(' ', f);
        else fputc(*s, f);
    }
}

/* Markdown prose, wrapped at RD_MD_WRAP characters at spaces (a word
 * longer than that stays whole); every line starts with prefix ("> " for a
 * finding).  Markdown joins the lines of a paragraph again. */
static void md_wrap2(FILE *f, const char *first, const char *prefix, const char *text)
{
    fputs(first, f);
    size_t col = strlen(first), start = col;
    const char *p = text ? text : "";
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        const size_t n = strcspn(p, " \n");
        if (col > start && col + 1 + n > RD_MD_WRAP) {
            fputc('\n', f);
            fputs(prefix, f);
            col = start = strlen(prefix);
        } else if (col > start) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, n, f);
        col += n;
        p += n;
        if (*p == '\n') p++;
    }
    fputc('\n', f);
}

static void md_wrap(FILE *f, const char *prefix, const char *text) { md_wrap2(f, prefix, prefix, text); }

static void md_view(FILE *f, const rd_table *t, const rd_view *v, int groups)
{
    /* the groups (GPUs) prefix the column names */
    const char **prefix = calloc(t->ncol, sizeof *prefix);
    size_t c = 1;
    for (size_t g = 0; groups && prefix && g < t->ngroup; g++)
        for (size_t k = 0; k < t->group_span[g] && c < t->ncol; k++) prefix[c++] = t->group[g];
    if (v->caption && *v->caption) fprintf(f, "*%s%s*\n\n", v->caption, v->cont ? " (continued)" : "");
    fputc('|', f);
    for (size_t k = 0; k < v->ncol; k++) {
        fputc(' ', f);
        if (prefix && prefix[v->col[k]]) { md_cell(f, prefix[v->col[k]]); fputs(": ", f); }
        md_cell(f, rd_table_get(t, 0, v->col[k]));
        fputs(" |", f);
    }
    fputs("\n|", f);
    for (size_t k = 0; k < v->ncol; k++) fputs(k ? "---:|" : "---|", f);
    fputc('\n', f);
    for (size_t r = 1; r <= t->nrow; r++) {
        fputc('|', f);
        for (size_t k = 0; k < v->ncol; k++) {
            fputc(' ', f);
            md_cell(f, rd_table_get(t, r, v->col[k]));
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    free(prefix);
}

/* A view whose rows would still be longer than 200 characters (a cell of
 * a long command): one item per row, "first column: header value; ...",
 * wrapped like prose. */
static void md_view_list(FILE *f, const rd_table *t, const rd_view *v)
{
    if (v->caption && *v->caption) fprintf(f, "*%s%s*\n\n", v->caption, v->cont ? " (continued)" : "");
    for (size_t r = 1; r <= t->nrow; r++) {
        char *line = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&line, &len);
        if (!m) return;
        fprintf(m, "**%s**:", rd_table_get(t, r, v->col[0]));
        for (size_t k = 1; k < v->ncol; k++)
            fprintf(m, "%s %s %s", k > 1 ? ";" : "", rd_table_get(t, 0, v->col[k]), rd_table_get(t, r, v->col[k]));
        fclose(m);
        md_wrap2(f, "- ", "  ", line);
        free(line);
    }
    fputc('\n', f);
}

static void md_table(FILE *f, const rd_table *t)
{
    rd_view v[RD_MAX_VIEWS];
    const size_t n = rd_table_views(t, RD_TABLE_CHARS, v, RD_MAX_VIEWS);
    for (size_t i = 0; i < n; i++) {
        if (rd_table_width(t, v[i].col, v[i].ncol) > 200) md_view_list(f, t, &v[i]);
        else md_view(f, t, &v[i], n == 1);
    }
    rd_views_free(v, n);
}

static void md_block(FILE *f, const rd_block *b)
{
    char gp[1024];
    char *line = NULL;
    size_t len = 0;
    switch (b->kind) {
    case RD_HEADING: fprintf(f, "### %s\n\n", b->text); break;
    case RD_PARA: md_wrap(f, "", b->text); fputc('\n', f); break;
    case RD_FINDING: md_wrap(f, "> ", b->text); fputc('\n', f); break;
    case RD_MISSING: {
        FILE *m = open_memstream(&line, &len);
        if (!m) break;
        fprintf(m, "*not available: %s*", b->text);
        if (b->text2) fprintf(m, " (made by `%s`)", b->text2);
        fclose(m);
        md_wrap(f, "", line);
        fputc('\n', f);
        break;
    }
    case RD_FAILED: {
        FILE *m = open_memstream(&line, &len);
        if (!m) break;
        fprintf(m, "**failed: %s**%s%s", b->text, b->text2 && *b->text2 ? ": " : "", b->text2 ? b->text2 : "");
        fclose(m);
        md_wrap(f, "", line);
        fputc('\n', f);
        break;
    }
    case RD_TABLE: md_table(f, b->table); break;
    case RD_FIGURES:
        for (size_t i = 0; i < b->nitem; i++) {
            rd_chart_script(gp, sizeof gp, b->item[i]);
            FILE *m = open_memstream(&line, &len);
            if (!m) break;
            fprintf(m, "![%s](%s)\n*%s* ([gnuplot script](%s))", b->caption[i], b->item[i], b->caption[i], gp);
            fclose(m);
            md_wrap(f, "", line);
            fputc('\n', f);
            free(line);
            line = NULL;
        }
        break;
    case RD_LINKS: {
        FILE *m = open_memstream(&line, &len);
        if (!m) break;
        if (b->text) fprintf(m, "%s ", b->text);
        for (size_t i = 0; i < b->nitem; i++) fprintf(m, "%s[%s](%s)", i ? ", " : "", b->caption[i], b->item[i]);
        fclose(m);
        md_wrap(f, "", line);
        fputc('\n', f);
        break;
    }
    case RD_FOLD_START: fprintf(f, "<details><summary>%s</summary>\n\n", b->text); break;
    case RD_FOLD_END: fputs("</details>\n\n", f); break;
    }
    free(line);
}

int rd_write_markdown(const report_doc *d, FILE *f)
{
    if (!d || d->oom) return -1;
    fprintf(f, "# %s\n\n", d->title);
    if (d->top_note) {
        char *t = malloc(strlen(d->top_note) + 5);
        if (t) { sprintf(t, "**%s**", d->top_note); md_wrap(f, "", t); fputc('\n', f); free(t); }
    }
    if (d->nfailure) {
        fprintf(f, "%zu part(s) failed; the rest of the report is complete:\n\n", d->nfailure);
        for (size_t i = 0; i < d->nfailure; i++) fprintf(f, "- failed: %s\n", d->failure[i]);
        fputc('\n', f);
    }
    for (size_t s = 0; s < d->nsection; s++) {
        const rd_section *sec = &d->section[s];
        fprintf(f, "<a id=\"%s\"></a>\n\n## %s\n\n", sec->id ? sec->id : "", sec->title);
        for (size_t b = 0; b < sec->nblock; b++) md_block(f, &sec->block[b]);
    }
    if (d->footer) { fputs("---\n\n", f); md_wrap(f, "", d->footer); }
    return ferror(f) ? -1 : 0;
}
