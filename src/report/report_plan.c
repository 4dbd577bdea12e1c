/* report_plan.c - bin/report plan: the charts and comparisons to run, one
 * job per line (report_cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "family.h"
#include "jobplan.h"
#include "jobrun.h"
#include "outfile.h"
#include "regions.h"
#include "report_cmd.h"

void rc_warps_chart(char *buf, size_t len, const rc_gpu *G, const res_file *log)
{
    rc_chart_rel(buf, len, G, "warps_%.*s", (int)(strlen(log->base) - 4), log->base);
}

void rc_sweep_chart(char *buf, size_t len, const rc_gpu *G, const res_file *sw)
{
    /* sweep_readonly_float4_4.tsv -> throughput_readonly_float4_4 */
    rc_chart_rel(buf, len, G, "throughput_%.*s", (int)(strlen(sw->base) - 10), sw->base + 6);
}

void rc_compare_rel(char *buf, size_t len, const rc_gpu *G, const char *exp)
{
    snprintf(buf, len, "tables/%s/sectors_%s_compare.tsv", G->label, exp);
}

/* A sector table that holds the model's prediction already (an `agree`
 * column, or sector_compare's `verdict`), or only ncu's counts (then
 * sector_compare makes the comparison). */
int rc_sectors_need_compare(const char *path)
{
    tsv_table t;
    char err[512];
    if (tsv_read(path, &t, err, sizeof err) != 0) return 0;
    const int need = tsv_col(&t, "agree") < 0 && tsv_col(&t, "verdict") < 0 && tsv_col(&t, "l1_sectors") >= 0;
    tsv_free(&t);
    return need;
}

/* The WPB the latency distribution is drawn at: 4 if there, else the
 * smallest. */
unsigned rc_dist_wpb(const rc_gpu *G, const char *dir, const char *exp)
{
    unsigned best = 0;
    for (const res_file *f = res_find(&G->r, NAMES_LOG, exp, NULL, NULL, 0, dir); f;
         f = res_next(&G->r, f, NAMES_LOG, exp, NULL, NULL, 0, dir)) {
        if (f->wpb == 4) return 4;
        if (!best || f->wpb < best) best = f->wpb;
    }
    return best;
}

/* The experiments that have logs in dir, in order. */
size_t rc_log_exps(const rc_gpu *G, const char *dir, char (*out)[64], size_t max)
{
    size_t n = 0;
    for (const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, dir); f;
         f = res_next(&G->r, f, NAMES_LOG, NULL, NULL, NULL, 0, dir)) {
        size_t j = 0;
        while (j < n && strcmp(out[j], f->exp)) j++;
        if (j == n && n < max) snprintf(out[n++], 64, "%s", f->exp);
    }
    return n;
}

/* ------------------------------------------------------------ plan */

/* The plan being made: rc_cmd_plan writes it out at the end. */
static jp_plan plan;

static void add(const char *output, const char *out_stdout, const char *what, int argc, const char *const *argv)
{
    char err[512];
    if (jp_add(&plan, output, out_stdout, what, argc, argv, err, sizeof err) != 0) rc_die("%s", err);
}

static void job(const char *outdir, const char *output, const char *out_stdout, const char *what,
                int argc, ...)
{
    char out[4200], so[4200];
    const char *argv[16];
    snprintf(out, sizeof out, "%s/%s", outdir, output);
    if (out_stdout) snprintf(so, sizeof so, "%s/%s", outdir, out_stdout);
    va_list ap;
    va_start(ap, argc);
    for (int i = 0; i < argc && i < 16; i++) argv[i] = va_arg(ap, const char *);
    va_end(ap);
    add(out, out_stdout ? so : NULL, what, argc < 16 ? argc : 16, argv);
}

/* A job whose argv ends with a list. */
static void job_list(const char *outdir, const char *output, const char *what, const char *const *head,
                     int nhead, const char *const *list, size_t nlist, const char *const *tail, int ntail)
{
    char out[4200];
    const char *argv[JP_MAX_ARGS];
    int argc = 0;
    snprintf(out, sizeof out, "%s/%s", outdir, output);
    for (int i = 0; i < nhead && argc < JP_MAX_ARGS; i++) argv[argc++] = head[i];
    for (size_t i = 0; i < nlist && argc < JP_MAX_ARGS; i++) argv[argc++] = list[i];
    for (int i = 0; i < ntail && argc < JP_MAX_ARGS; i++) argv[argc++] = tail[i];
    add(out, NULL, what, argc, argv);
}

/* The plan on stdout, TSV (for the eye) or NUL (for bin/report run-plan). */
static int put_plan(int nul)
{
    if (nul) jp_write_nul(stdout, &plan);
    else jp_write_tsv(stdout, &plan);
    jp_free(&plan);
    return outfile_check_stdout(RC_PROG);
}

static void mkdirs(const char *outdir, const char *sub, const char *label)
{
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", outdir, sub);
    if (mkdir(p, 0777) != 0 && errno != EEXIST) rc_die("cannot create %s: %s", p, strerror(errno));
    if (!label) return;
    snprintf(p, sizeof p, "%s/%s/%s", outdir, sub, label);
    if (mkdir(p, 0777) != 0 && errno != EEXIST) rc_die("cannot create %s: %s", p, strerror(errno));
}

/* The model walks of sector_compare are the longest jobs: first. */
static void plan_compares(const rc_ctx *c)
{
    char abs[2048], what[512], tab[1024];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        for (const res_file *s = res_find(&G->r, NAMES_SECTORS, NULL, NULL, NULL, 0, ""); s;
             s = res_next(&G->r, s, NAMES_SECTORS, NULL, NULL, NULL, 0, "")) {
            if (!rc_sectors_need_compare(s->path)) continue;
            char svg[1024];
            rc_chart_rel(svg, sizeof svg, G, "sectors_%s", s->exp);
            rc_compare_rel(tab, sizeof tab, G, s->exp);
            snprintf(abs, sizeof abs, "%s/%s", c->outdir, svg);
            snprintf(what, sizeof what, "%s: sector model against ncu (%s)", G->label, s->base);
            job(c->outdir, tab, tab, what, 4, "bin/sector_compare", s->path, "--chart", abs);
        }
    }
}

/* Per-warp timelines, and the latency distributions, one chart per
 * experiment. */
static void plan_timelines(const rc_ctx *c, const rc_gpu *G)
{
    char out[1024], abs[2048], what[512];
    const char *tl = res_timeline_dir(&G->r);
    for (const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, tl); tl && f;
         f = res_next(&G->r, f, NAMES_LOG, NULL, NULL, NULL, 0, tl)) {
        rc_warps_chart(out, sizeof out, G, f);
        snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
        snprintf(what, sizeof what, "%s: timeline %s", G->label, f->rel);
        job(c->outdir, out, NULL, what, 3, "bin/plot_warps", f->path, abs);
    }
    char exps[RC_MAX_FAMILIES][64];
    const size_t ne = tl ? rc_log_exps(G, tl, exps, RC_MAX_FAMILIES) : 0;
    for (size_t e = 0; e < ne; e++) {
        const unsigned w = rc_dist_wpb(G, tl, exps[e]);
        const char *logs[64];
        size_t nl = 0;
        for (const res_file *f = res_find(&G->r, NAMES_LOG, exps[e], NULL, NULL, w, tl); f && nl < 64;
             f = res_next(&G->r, f, NAMES_LOG, exps[e], NULL, NULL, w, tl))
            logs[nl++] = f->path;
        rc_chart_rel(out, sizeof out, G, "latency_cdf_%s_%u", exps[e], w);
        snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
        snprintf(what, sizeof what, "%s: latency distributions of %s at WPB %u", G->label, exps[e], w);
        const char *head[] = {"bin/plot_latency"};
        const char *tail[] = {abs};
        job_list(c->outdir, out, what, head, 1, logs, nl, tail, 1);
    }
}

/* Bandwidth against WPB, per family with summaries at several WPBs, and
 * the families' own charts. */
static void plan_families(const rc_ctx *c, const rc_gpu *G, const char *ceil_read)
{
    char out[1024], abs[2048], what[512];
    for (size_t fa = 0; fa < c->nfam; fa++) {
        const char *n = res_main_n(&G->r, c->families[fa]);
        unsigned wl[RC_MAX_WPB];
        if (!n || res_wpbs(&G->r, c->families[fa], n, wl, RC_MAX_WPB) < 2) continue;
        const char *sums[RC_MAX_WPB];
        size_t ns = 0;
        for (const res_file *f = res_find(&G->r, NAMES_SUMMARY, c->families[fa], NULL, n, 0, ""); f && ns < RC_MAX_WPB;
             f = res_next(&G->r, f, NAMES_SUMMARY, c->families[fa], NULL, n, 0, ""))
            sums[ns++] = f->path;
        rc_chart_rel(out, sizeof out, G, "bandwidth_%s", c->families[fa]);
        snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
        snprintf(what, sizeof what, "%s: %s bandwidth against warps per block", G->label, c->families[fa]);
        const char *head[] = {"bin/report", "chart-bandwidth", abs, "--ceiling", ceil_read};
        job_list(c->outdir, out, what, head, *ceil_read ? 5 : 3, sums, ns, NULL, 0);
    }
    for (const fam_entry *e = fam_registry; e->name; e++)
        for (size_t k = 0; e->report && k < e->report->ncharts; k++) {
            const fam_chart *fc = &e->report->charts[k];
            char n[64] = "";
            if (!rc_chart_n(G, e->name, fc, n, sizeof n)) continue;
            rc_chart_name(out, sizeof out, G, fc, n);
            snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
            snprintf(what, sizeof what, "%s: %s%s%s", G->label, fc->what, *n ? " at N = " : "", n);
            if (*n) job(c->outdir, out, NULL, what, 6, "bin/report", "chart-family", abs, fc->kind, G->r.dir, n);
            else job(c->outdir, out, NULL, what, 5, "bin/report", "chart-family", abs, fc->kind, G->r.dir);
        }
}

/* The ladders and the occupancy sweeps. */
static void plan_ladders_sweeps(const rc_ctx *c, const rc_gpu *G, const char *ceil_read)
{
    char out[1024], abs[2048], what[512];
    /* ladders */
    for (const res_file *f = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, ""); f;
         f = res_next(&G->r, f, NAMES_LADDER, NULL, NULL, NULL, 0, "")) {
        rc_chart_rel(out, sizeof out, G, "ladder_%.2s", f->base + 8);
        snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
        snprintf(what, sizeof what, "%s: latency ladder %s", G->label, f->base);
        job(c->outdir, out, NULL, what, 3, "bin/plot_ladder", f->path, abs);
    }
    /* occupancy sweeps */
    const res_file *ca = NULL;
    for (const res_file *f = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, ""); f;
         f = res_next(&G->r, f, NAMES_LADDER, NULL, NULL, NULL, 0, ""))
        if (!strcmp(f->base, "latency_ca.tsv")) ca = f;
    for (const res_file *f = res_find(&G->r, NAMES_SWEEP, NULL, NULL, NULL, 0, ""); f;
         f = res_next(&G->r, f, NAMES_SWEEP, NULL, NULL, NULL, 0, "")) {
        rc_sweep_chart(out, sizeof out, G, f);
        snprintf(abs, sizeof abs, "%s/%s", c->outdir, out);
        snprintf(what, sizeof what, "%s: occupancy sweep %s", G->label, f->base);
        /* with the achievable read ceiling beside the peak, where the set has one */
        if (ca && *ceil_read)
            job(c->outdir, out, NULL, what, 7, "bin/plot_throughput", f->path, abs, "--ladder", ca->path,
                "--ceiling", ceil_read);
        else if (ca) job(c->outdir, out, NULL, what, 5, "bin/plot_throughput", f->path, abs, "--ladder", ca->path);
        else if (*ceil_read) job(c->outdir, out, NULL, what, 5, "bin/plot_throughput", f->path, abs, "--ceiling", ceil_read);
        else job(c->outdir, out, NULL, what, 3, "bin/plot_throughput", f->path, abs);
    }
}

int rc_cmd_plan(rc_ctx *c, int nul)
{
    char abs[2048];
    /* the folders every job writes into */
    mkdirs(c->outdir, "charts", NULL);
    mkdirs(c->outdir, "tables", NULL);
    for (int i = 0; i < c->ng; i++) {
        mkdirs(c->outdir, "charts", c->g[i].label);
        mkdirs(c->outdir, "tables", c->g[i].label);
    }
    plan_compares(c);
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        plan_timelines(c, G);
        char ceil_read[32] = "";
        if (isfinite(rc_ceiling_of(G, "read"))) snprintf(ceil_read, sizeof ceil_read, "%.1f", rc_ceiling_of(G, "read"));
        plan_families(c, G, ceil_read);
        plan_ladders_sweeps(c, G, ceil_read);
    }
    /* several GPUs: their cached ladders on one chart */
    const char *lads[RC_MAX_GPUS];
    char specs[RC_MAX_GPUS][4200];
    size_t nl = 0;
    for (int i = 0; i < c->ng; i++)
        for (const res_file *f = res_find(&c->g[i].r, NAMES_LADDER, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&c->g[i].r, f, NAMES_LADDER, NULL, NULL, NULL, 0, ""))
            if (!strcmp(f->base, "latency_ca.tsv")) {
                snprintf(specs[nl], sizeof specs[nl], "%s=%s", c->g[i].label, f->path);
                lads[nl] = specs[nl];
                nl++;
            }
    if (nl > 1) {
        snprintf(abs, sizeof abs, "%s/charts/ladder_all.svg", c->outdir);
        const char *head[] = {"bin/report", "chart-ladders", abs};
        job_list(c->outdir, "charts/ladder_all.svg", "all GPUs: cached latency ladders", head, 3, lads, nl, NULL, 0);
    }
    return put_plan(nul);
}

int rc_cmd_plan_kernel(const char *outdir, const char *log, int nul)
{
    char err[1024];
    warplog_reader *r = warplog_reader_open(log, err, sizeof err);
    if (!r) rc_die("%s", err);
    const warplog_header h = *warplog_reader_header(r);
    warplog_reader_close(r);
    mkdirs(outdir, "charts", NULL);
    const uint32_t n = h.region_count ? h.region_count : 1;
    for (uint32_t i = 0; i < n; i++) {
        const char *name = region_name(&h, i);
        char out[4200], what[512];
        snprintf(out, sizeof out, "%s/charts/latency_%s.svg", outdir, name);
        snprintf(what, sizeof what, "region %s: latency distribution", name);
        const char *lat[] = {"bin/plot_latency", log, out, "--region", name};
        add(out, NULL, what, 5, lat);
        snprintf(out, sizeof out, "%s/charts/warps_%s.svg", outdir, name);
        snprintf(what, sizeof what, "region %s: per-warp timeline", name);
        const char *warps[] = {"bin/plot_warps", log, out, "--region", name};
        add(out, NULL, what, 5, warps);
    }
    return put_plan(nul);
}

/* ------------------------------------------------------------ run-plan */

int rc_cmd_run_plan(const char *plan_path, const char *outdir, int jobs, int no_charts, long long t0_us)
{
    char err[1024], logdir[4200];
    jp_plan p = {0};
    if (jp_read_nul(plan_path, &p, err, sizeof err) != 0) rc_die("%s", err);
    snprintf(logdir, sizeof logdir, "%s/logs", outdir);
    if (!rc_is_dir(logdir)) rc_die("%s is not a folder (the report's run log goes there)", logdir);
    const jr_opts o = {.jobs = jobs, .no_charts = no_charts, .logdir = logdir, .progress = stderr,
                       .prog = "report.sh", .t0_us = t0_us, .tick_s = 5};
    jr_result res;
    const int rc = jr_run(&p, &o, &res, stdout, err, sizeof err);
    jp_free(&p);
    if (rc == -2) {
        /* stopped: every job is stopped and its temporaries are gone; die
         * of the signal, as the caller expects of a stopped command */
        fflush(stdout);
        signal(res.signal, SIG_DFL);
        raise(res.signal);
        return 128 + res.signal;
    }
    if (rc != 0) rc_die("%s", err);
    return outfile_check_stdout(RC_PROG);
}
