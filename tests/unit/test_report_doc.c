/* test_report_doc.c - one model, two writers: HTML and Markdown say the same. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report_doc.h"

/* What a writer produced, as a string (freed by the caller). */
static char *written(const report_doc *d, int (*w)(const report_doc *, FILE *), int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *rc = w(d, f);
    fclose(f);
    return buf;
}

/* The longest line of s outside ``` blocks. */
static size_t longest_line(const char *s)
{
    size_t m = 0;
    int code = 0;
    for (const char *p = s; *p;) {
        const size_t n = strcspn(p, "\n");
        if (!strncmp(p, "```", 3)) code = !code;
        else if (!code && n > m) m = n;
        p += n + (p[n] == '\n');
    }
    return m;
}

/* Issue 38: tables that fit, prose that wraps, folds, the first screen first. */
static void test_fit(void)
{
    report_doc *d = rd_new("fit");
    rd_section *s = rd_section_add(d, "a", "A");
    char para[1200] = "";
    for (int i = 0; i < 100; i++) strcat(para, "word1234 ");
    rd_para(d, s, "%s", para);
    rd_finding(d, s, "%s", para);
    /* two GPUs of 8 columns each, 20-character cells: 2 x 8 x 23 > 150 */
    rd_table *t = rd_table_new(17);
    rd_table_set(t, 0, 0, "kernel");
    for (size_t c = 1; c < 17; c++) rd_table_set(t, 0, c, "column %zu", c);
    for (size_t c = 1; c < 17; c++) rd_table_set(t, 1, c, "%020zu", c);
    rd_table_set(t, 1, 0, "baseline");
    rd_table_group(t, "h100", 8);
    rd_table_group(t, "h200", 8);
    rd_view v[16];
    const size_t nv = rd_table_views(t, RD_TABLE_CHARS, v, 16);
    CHECK(nv >= 2);
    CHECK_STR_HAS(v[0].caption, "h100");
    CHECK(v[0].col[0] == 0 && v[0].col[1] == 1);
    size_t seen = 0;
    for (size_t i = 0; i < nv; i++) {
        CHECK(rd_table_width(t, v[i].col, v[i].ncol) <= RD_TABLE_CHARS);
        CHECK(v[i].col[0] == 0);
        seen += v[i].ncol - 1;
    }
    CHECK_EQ_U(seen, 16); /* every column once, in some view */
    CHECK_STR_HAS(v[nv - 1].caption, "h200");
    rd_views_free(v, nv);
    rd_table_add(d, s, t);
    /* a narrow table stays one, with its groups */
    rd_table *n = rd_table_new(3);
    rd_table_set(n, 0, 0, "k");
    rd_table_set(n, 0, 1, "x");
    rd_table_set(n, 0, 2, "y");
    rd_table_group(n, "h100", 1);
    rd_table_group(n, "h200", 1);
    CHECK_EQ_U(rd_table_views(n, RD_TABLE_CHARS, v, 16), 1);
    rd_views_free(v, 1);
    rd_table_add(d, s, n);
    rd_fold_start(d, s, "the raw table");
    rd_para(d, s, "inside");
    rd_fold_end(d, s);
    rd_section *g = rd_section_add(d, "glance", "At a glance");
    rd_section_to_front(d, g);
    CHECK_STR_HAS(d->section[0].id, "glance");
    CHECK_STR_HAS(d->section[1].id, "a");
    int rc;
    char *md = written(d, rd_write_markdown, &rc);
    CHECK(rc == 0);
    CHECK(longest_line(md) <= 200);
    CHECK_STR_HAS(md, "<a id=\"glance\"></a>\n\n## At a glance");
    CHECK(strstr(md, "## At a glance") < strstr(md, "## A\n"));
    CHECK_STR_HAS(md, "*h100*");
    CHECK_STR_HAS(md, "*h200*");
    CHECK_STR_HAS(md, "| k | h100: x | h200: y |");
    CHECK_STR_HAS(md, "<details><summary>the raw table</summary>");
    CHECK_STR_HAS(md, "\n> word1234");
    char *html = written(d, rd_write_html, &rc);
    CHECK(rc == 0);
    CHECK_STR_HAS(html, "<p class=\"tcap\">h100</p>");
    CHECK_STR_HAS(html, "<details><summary>the raw table</summary>");
    CHECK_STR_HAS(html, "</details>");
    free(md);
    free(html);
    rd_free(d);
}

int main(void)
{
    test_fit();
    report_doc *d = rd_new("warplat <report>");
    CHECK(d != NULL);
    rd_set_top_note(d, "No GPU found: %d GPUs", 2);
    rd_set_footer(d, "made by & for tests");
    rd_section *s = rd_section_add(d, "device", "Device");
    rd_heading(d, s, "%u warps per block", 4u);
    rd_para(d, s, "a < b & c");
    rd_finding(d, s, "random_access: x%.2f", 2.377);
    rd_missing(d, s, "h100: overhead.tsv", "scripts/reference.sh DIR --only overhead");
    rd_failed(d, s, "chart charts/h100/a.svg", "plot_warps: truncated");
    rd_table *t = rd_table_new(3);
    rd_table_set(t, 0, 0, "kernel");
    rd_table_set(t, 0, 1, "ms");
    rd_table_set(t, 0, 2, "ms");
    rd_table_set(t, 2, 0, "a|b");        /* grows the table; row 1 stays empty */
    rd_table_set(t, 1, 0, "baseline");
    rd_table_set(t, 1, 1, "%.4f", 0.4775);
    rd_table_set(t, 1, 2, "n/a");
    CHECK(rd_table_group(t, "h100", 1) == 0);
    CHECK(rd_table_group(t, "h200", 1) == 0);
    CHECK(rd_table_set(t, 1, 3, "x") == -1);
    CHECK_EQ_U(t->nrow, 2);
    CHECK(!strcmp(rd_table_get(t, 2, 1), ""));
    rd_table_add(d, s, t);
    rd_figure(d, s, "charts/h100/warps_readonly_baseline_4.svg", "baseline, 4 warps per block");
    rd_figure(d, s, "charts/h100/warps_readonly_float4_4.svg", "float4");
    rd_links_start(d, s, "Tables:");
    rd_link(d, s, "data/h100/readonly_1e8_wpb4.tsv", "h100/readonly_1e8_wpb4.tsv");
    /* a section opened by its intro, plain text: a percent sign stays one */
    rd_section *si = rd_section_intro(d, "sweeps", "Sweeps", "near 100% of it, %s and %d");
    CHECK(si != NULL && si != s);
    CHECK(rd_section_find(d, "device") == s);
    CHECK(rd_section_find(d, "sweeps") == si);
    CHECK(rd_section_find(d, "nosuch") == NULL);
    CHECK_EQ_U(d->nfailure, 1);

    int rc;
    char *html = written(d, rd_write_html, &rc);
    CHECK(rc == 0);
    CHECK_STR_HAS(html, "<title>warplat &lt;report&gt;</title>");
    CHECK_STR_HAS(html, "<p class=\"top\">No GPU found: 2 GPUs</p>");
    CHECK_STR_HAS(html, "<section id=\"device\">\n<h2>Device</h2>");
    CHECK_STR_HAS(html, "<p>a &lt; b &amp; c</p>");
    CHECK_STR_HAS(html, "<p class=\"finding\">random_access: x2.38</p>");
    CHECK_STR_HAS(html, "not available: h100: overhead.tsv (made by <code>scripts/reference.sh DIR --only overhead</code>)");
    CHECK_STR_HAS(html, "<li>failed: chart charts/h100/a.svg: plot_warps: truncated</li>");
    CHECK_STR_HAS(html, "<th colspan=\"1\" class=\"group\">h100</th><th colspan=\"1\" class=\"group\">h200</th>");
    CHECK_STR_HAS(html, "<td class=\"n\">0.4775</td>");
    CHECK_STR_HAS(html, "<img src=\"charts/h100/warps_readonly_baseline_4.svg\"");
    CHECK_STR_HAS(html, "<a href=\"charts/h100/warps_readonly_float4_4.gp\">gnuplot script</a>");
    CHECK_STR_HAS(html, "Tables: <a href=\"data/h100/readonly_1e8_wpb4.tsv\">h100/readonly_1e8_wpb4.tsv</a>");
    CHECK_STR_HAS(html, "data-images-ok");
    CHECK(strstr(html, "http") == NULL); /* nothing from the network */
    free(html);

    char *md = written(d, rd_write_markdown, &rc);
    CHECK(rc == 0);
    CHECK_STR_HAS(md, "# warplat <report>\n\n**No GPU found: 2 GPUs**");
    CHECK_STR_HAS(md, "1 part(s) failed");
    CHECK_STR_HAS(md, "## Device\n\n### 4 warps per block");
    CHECK_STR_HAS(md, "> random_access: x2.38");
    CHECK_STR_HAS(md, "*not available: h100: overhead.tsv* (made by `scripts/reference.sh DIR --only overhead`)");
    CHECK_STR_HAS(md, "| kernel | h100: ms | h200: ms |\n|---|---:|---:|\n| baseline | 0.4775 | n/a |\n| a\\|b |  |  |");
    CHECK_STR_HAS(md, "![baseline, 4 warps per block](charts/h100/warps_readonly_baseline_4.svg)");
    CHECK_STR_HAS(md, "Tables: [h100/readonly_1e8_wpb4.tsv](data/h100/readonly_1e8_wpb4.tsv)");
    CHECK_STR_HAS(md, "## Sweeps\n\nnear 100% of it, %s and %d\n");
    CHECK_STR_HAS(md, "---\n\nmade by & for tests");
    free(md);

    CHECK(rd_is_numeric("12.5"));
    CHECK(rd_is_numeric("-3"));
    CHECK(rd_is_numeric("+1.20%"));
    CHECK(rd_is_numeric("n/a"));
    CHECK(rd_is_numeric("x2.38"));
    CHECK(!rd_is_numeric("baseline"));
    CHECK(!rd_is_numeric(""));
    CHECK(!rd_is_numeric("3352.3 = 2619 MHz"));

    /* a document that ran out of memory is refused */
    d->oom = 1;
    html = written(d, rd_write_html, &rc);
    CHECK(rc == -1);
    free(html);
    rd_free(d);
    return check_report("test_report_doc");
}
