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

int main(void)
{
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
