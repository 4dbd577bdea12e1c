/* report_render.c - bin/report render and kernel: the page
 * assembled from its sections and written as index.html and index.md
 * (report_cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "famtext.h"
#include "family.h"
#include "outfile.h"
#include "report_cmd.h"
#include "report_glance.h"
#include "report_kernel.h"
#include "report_run.h"

/* ------------------------------------------------------------ render */

int rc_write_atomic(const char *path, const report_doc *d, int (*w)(const report_doc *, FILE *))
{
    outfile o;
    char err[4400];
    FILE *f = outfile_open(&o, path, "w", err, sizeof err);
    if (!f) { fprintf(stderr, RC_PROG ": %s\n", err); return -1; }
    if (w(d, f) != 0) {
        outfile_abort(&o);
        fprintf(stderr, RC_PROG ": cannot write %s\n", path);
        return -1;
    }
    if (outfile_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, RC_PROG ": %s\n", err);
        return -1;
    }
    return 0;
}

/* The report of your own kernel (make report REPORT_ARGS="--log FILE"). */
int rc_cmd_kernel(const char *outdir)
{
    char err[1024], html[4200], md[4200];
    report_doc *d = rk_build(outdir, err, sizeof err);
    if (!d) rc_die("%s", err);
    snprintf(html, sizeof html, "%s/index.html", outdir);
    snprintf(md, sizeof md, "%s/index.md", outdir);
    if (d->oom) rc_die("out of memory while building the report");
    const int rc = rc_write_atomic(html, d, rd_write_html) == 0 && rc_write_atomic(md, d, rd_write_markdown) == 0 ? 0 : 1;
    rd_free(d);
    return rc;
}

int rc_cmd_render(rc_ctx *c, const char *mode, const char *note, const char *ref_root)
{
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/logs/failures.tsv", c->outdir);
    if (rc_exists(path)) {
        if (tsv_read(path, &c->failures, err, sizeof err) != 0) rc_die("%s", err);
        c->have_failures = 1;
    }
    char title[256], desc[2048] = "";
    size_t used = 0;
    for (int i = 0; i < c->ng; i++) {
        const int m = snprintf(desc + used, sizeof desc - used, "%s%s%s%s", i ? " and " : "", c->g[i].name,
                               *c->g[i].date ? ", measured " : "", c->g[i].date);
        if (m > 0 && (size_t)m < sizeof desc - used) used += (size_t)m;
    }
    if (!strcmp(mode, "gpu")) snprintf(title, sizeof title, "warplat report: %s", c->ng ? c->g[0].name : "");
    else if (!strcmp(mode, "reference")) snprintf(title, sizeof title, "warplat report: bundled reference results");
    else snprintf(title, sizeof title, "warplat report");
    report_doc *d = rd_new(title);
    if (!d) rc_die("out of memory");
    c->glance = rc_glance_new();
    if (!strcmp(mode, "reference"))
        rd_set_top_note(d, "%s%sthis report shows the bundled reference results of %s.", note ? note : "",
                        note && *note ? ": " : "", desc);
    else if (!strcmp(mode, "gpu"))
        rd_set_top_note(d, "This report shows the study run on this machine's %s%s%s.", desc, note && *note ? ", " : "",
                        note ? note : "");
    else
        rd_set_top_note(d, "This report shows the results in %s: %s.", note && *note ? note : "the data folder", desc);
    rd_set_footer(d, "Made by scripts/report.sh and bin/report (docs/report.md). Every chart is drawn by "
                     "gnuplot from the .gp script and data beside it: edit the script and run gnuplot -c "
                     "NAME.gp in its folder to redraw. The tables behind the report are in data/, the logs "
                     "of each step in logs/.");
    rc_logstat *stats[RC_MAX_GPUS];
    size_t nstats[RC_MAX_GPUS];
    for (int i = 0; i < c->ng; i++) {
        const char *tl = res_timeline_dir(&c->g[i].r);
        stats[i] = tl ? rc_timeline_stats(&c->g[i], tl, &nstats[i]) : NULL;
        if (!tl) nstats[i] = 0;
    }
    rc_sec_device(d, c);
    /* the families without summaries first (the ceiling: the others' reference) */
    for (int pass = 0; pass < 2; pass++)
        for (size_t f = 0; f < c->nfam; f++) {
            const struct fam_report *fi = rc_family(c->families[f]);
            const int first = fi && fi->no_summaries;
            if (first != !pass) continue;
            if (!first) rc_sec_family(d, c, c->families[f]);
            if (fi && fi->section) {
                const fam_entry *fe = fam_lookup(c->families[f]);
                char why[512];
                if (famtext_check_section(fe ? fe->text : NULL, c->families[f], why, sizeof why) != 0)
                    rc_die("%s", why);
                const struct fam_text *tx = rc_family_text(c->families[f]);
                rd_section *s = rd_section_intro(d, c->families[f], tx->title, tx->intro);
                fi->section(d, s, c);
            }
        }
    rc_sec_overhead(d, c);
    rc_sec_timelines(d, c, stats, nstats);
    rc_sec_latency(d, c, stats, nstats);
    rc_sec_ladder(d, c);
    rc_sec_sweeps(d, c);
    rc_sec_sectors(d, c);
    {
        /* the run log, and where this GPU was measured, its drift */
        const char *dirs[RC_MAX_GPUS], *labels[RC_MAX_GPUS], *names[RC_MAX_GPUS];
        const int nmeasured = !strcmp(mode, "gpu") ? c->ng : 0;
        for (int i = 0; i < nmeasured; i++) {
            dirs[i] = c->g[i].r.dir;
            labels[i] = c->g[i].label;
            names[i] = c->g[i].name;
        }
        char steps[4200], tables[4200];
        snprintf(steps, sizeof steps, "%s/logs/steps.tsv", c->outdir);
        snprintf(tables, sizeof tables, "%s/tables", c->outdir);
        if (rr_section(d, steps, ref_root, nmeasured, dirs, labels, names, tables) < 0) {
            rd_free(d);
            return 1;
        }
    }
    rc_sec_files(d, c);
    for (int i = 0; i < c->ng; i++) free(stats[i]);
    /* the answers first: quoted from the sections above, put before them */
    if (rc_glance_finish(d, c, mode, ref_root) != 0) {
        rd_free(d);
        return 1;
    }
    char html[4200], md[4200];
    snprintf(html, sizeof html, "%s/index.html", c->outdir);
    snprintf(md, sizeof md, "%s/index.md", c->outdir);
    if (d->oom) rc_die("out of memory while building the report");
    const int rc = rc_write_atomic(html, d, rd_write_html) == 0 && rc_write_atomic(md, d, rd_write_markdown) == 0 ? 0 : 1;
    rd_free(d);
    free(c->glance);
    c->glance = NULL;
    return rc;
}

