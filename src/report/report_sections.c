/* report_sections.c - the report's outline (the common sections' titles and
 * opening paragraphs, one table) and the common sections: the device, the
 * probes' cost, the timelines, the latency distributions and the ladder
 * (report_cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "report_cmd.h"
#include "sampling.h"
#include "stats.h"

/* ------------------------------------------------------------ the outline */

/* The common sections in the order of the page (rc_cmd_render; the
 * families' own and the run's come from report_family.h and report_run.c):
 * the id of each (its anchor), its title and the paragraph that opens it,
 * NULL for none. */
static const struct {
    const char *id, *title, *intro;
} SECTIONS[] = {
    [RC_SEC_DEVICE] = {"device", "Device", NULL},
    [RC_SEC_OVERHEAD] = {"overhead", "What the probes cost",
        "overhead.tsv: the clean twin against the instrumented kernel, timed interleaved launch "
        "by launch, for every variant and WPB (the sample column says one block in how many "
        "recorded). sampling.tsv: the latency percentiles with every block recorded (sample 1) "
        "against sparser sampling, at 4 warps per block; at a sparse K several launches that "
        "record other blocks are pooled (runs), and the sparsest K is the unperturbed figure "
        "once its p50 and p95 agree with the next sparsest within 1% (bin/sampling check)."},
    [RC_SEC_TIMELINES] = {"timelines", "Per-warp timelines",
        "One horizontal line per warp, from its load's start to its end, in cycles since the "
        "first warp on the same SM started; colour by SM, the first warp of each block in black "
        "(bin/plot_warps, docs/postprocessors.md). Steps in the left edge are blocks retiring and "
        "new ones starting; lines growing longer up the staircase mean the memory system is "
        "queueing. Every block is recorded in these small runs."},
    [RC_SEC_LATENCY] = {"latency", "Latency distribution",
        "Cumulative distribution of the per-warp load latency of each kernel of the timeline "
        "runs (bin/plot_latency): a curve to the right is slower; a steep curve means every "
        "warp saw about the same latency. The table gives the percentiles (src/lib/stats.h, "
        "the same as bin/latency_stats)."},
    [RC_SEC_LADDER] = {"ladder", "Latency ladder: L1, L2, DRAM",
        "One thread chases pointers through a working set of growing size (./latency, "
        "docs/latency.md); each plateau is a level of the memory hierarchy, found by "
        "src/lib/plateau.h (bin/plot_ladder). ca: loads cached in L1; cg: L1 bypassed."},
    [RC_SEC_SWEEPS] = {"sweeps", "Occupancy sweeps: throughput against Little's law",
        "Bandwidth against resident warps per SM (the clean twin), with the Little's-law bound "
        "(bytes in flight / latency) and the DRAM peak (bin/plot_throughput, docs/occupancy.md). "
        "In the table, the bound is Little's law at each point's own mean latency "
        "(src/lib/littles.h), and a point near 100% of it is latency-bound; a point far below "
        "is limited by something else. A sweep that recorded every block (--sample 1) also "
        "measures the warps really in flight and closes Little's law with them "
        "(src/lib/inflight.h)."},
    [RC_SEC_SECTORS] = {"sectors", "What the hardware moves: sectors",
        "L1 requests and sectors, L2 and DRAM sectors per access pattern, measured with Nsight "
        "Compute against the sector model (bin/sector_model, docs/sectors.md). A row agrees when "
        "its requests and sectors equal the prediction, its L1 hits and L2 traffic lie inside "
        "the model's bounds and its DRAM reads are within 5%; a row the model does not walk "
        "(too large an N) is not predicted."},
    [RC_SEC_FILES] = {"files", "Files: what is missing, what else is there",
        "Every file a complete results folder has (docs/naming.md, written by "
        "scripts/reference.sh), and for each one missing here the command that makes it. "
        "Files outside the naming contract (an older layout, under legacy/) are linked as "
        "they are."},
};

_Static_assert(sizeof SECTIONS / sizeof SECTIONS[0] == RC_NSECTIONS, "a section without its row");

rd_section *rc_section_open(report_doc *d, rc_section_id id)
{
    const char *intro = SECTIONS[id].intro;
    return intro ? rd_section_intro(d, SECTIONS[id].id, SECTIONS[id].title, intro)
                 : rd_section_add(d, SECTIONS[id].id, SECTIONS[id].title);
}

/* ------------------------------------------------------------ sections */

void rc_sec_device(report_doc *d, const rc_ctx *c)
{
    rd_section *s = rc_section_open(d, RC_SEC_DEVICE);
    rd_table *t = rd_table_new((size_t)c->ng + 1);
    char b[256], b2[64];
    rd_table_set(t, 0, 0, "fact");
    for (int i = 0; i < c->ng; i++) rd_table_set(t, 0, (size_t)i + 1, "%s", c->g[i].label);
    static const char *const rows[] = {"name", "SMs", "SM clock (MHz)", "memory clock (MHz)",
                                       "memory bus (bits)", "DRAM peak (GB/s)", "L2 (bytes)",
                                       "resident warps per SM (max)", "achievable read (ceiling.tsv)", "driver",
                                       "measured on"};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        rd_table_set(t, r + 1, 0, "%s", rows[r]);
        for (int i = 0; i < c->ng; i++) {
            const rc_gpu *G = &c->g[i];
            const size_t col = (size_t)i + 1;
            switch (r) {
            case 0: rd_table_set(t, r + 1, col, "%s", G->name); break;
            case 1: rd_table_set(t, r + 1, col, "%s", rc_num(b, sizeof b, "%.0f", G->dev.sm_count)); break;
            case 2: rd_table_set(t, r + 1, col, "%s (%s)", rc_num(b, sizeof b, "%.0f", G->dev.sm_clock_MHz),
                                 *G->clock_src ? G->clock_src : "unknown"); break;
            case 3: rd_table_set(t, r + 1, col, "%s", rc_num(b, sizeof b, "%.0f", G->mem_clock_MHz)); break;
            case 4: rd_table_set(t, r + 1, col, "%s", rc_num(b, sizeof b, "%.0f", G->bus_bits)); break;
            case 5:
                if (isfinite(G->mem_clock_MHz) && isfinite(G->bus_bits))
                    rd_table_set(t, r + 1, col, "%.1f = %.0f MHz x %.0f bits / 8 x 2", G->dev.peak_GBps,
                                 G->mem_clock_MHz, G->bus_bits);
                else rd_table_set(t, r + 1, col, "%s", rc_num(b, sizeof b, "%.1f", G->dev.peak_GBps));
                break;
            case 6: rd_table_set(t, r + 1, col, "%s", rc_num(b, sizeof b, "%.0f", G->dev.l2_bytes)); break;
            case 7: rd_table_set(t, r + 1, col, "%s", rc_num(b, sizeof b, "%.0f", G->dev.max_warps_per_sm)); break;
            case 8: {
                int q = 0;
                while (q < G->nceiling && strcmp(G->ceiling[q].op, "read")) q++;
                if (q < G->nceiling)
                    rd_table_set(t, r + 1, col, "%s GB/s, %s%% of the theoretical peak",
                                 rc_num(b, sizeof b, "%.1f", G->ceiling[q].bw_GBps),
                                 rc_num(b2, sizeof b2, "%.1f", G->ceiling[q].pct_theoretical));
                else rd_table_set(t, r + 1, col, "n/a: no ceiling.tsv");
                break;
            }
            case 9: rd_table_set(t, r + 1, col, "%s", *G->driver ? G->driver : "n/a"); break;
            case 10: rd_table_set(t, r + 1, col, "%s", *G->date ? G->date : "n/a"); break;
            }
        }
    }
    rd_table_add(d, s, t);
    for (int i = 0; i < c->ng; i++) {
        char note[1024], p[64];
        if (rf_device_note(&c->g[i].dev, note, sizeof note) == 0)
            rd_finding(d, s, "%s%s", rc_pfx(c, &c->g[i], p, sizeof p), note);
    }
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        int have_dev = 0, have_smi = 0;
        for (const res_file *f = res_find(&G->r, NAMES_FIXED, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_FIXED, NULL, NULL, NULL, 0, "")) {
            have_dev |= !strcmp(f->base, "device.tsv");
            have_smi |= !strcmp(f->base, "nvidia_smi.csv");
        }
        if (!have_dev) rc_missing(d, s, c, G, "device.tsv", "(the facts above come from a log header and the summaries)");
        if (!have_smi) rc_missing(d, s, c, G, "nvidia_smi.csv", NULL);
    }
}

/* The rows whose overhead stayed above --max-overhead even at the sparsest
 * sampling the run tried (overhead_met 0: too few blocks to record fewer),
 * named in one finding; tables without the column say nothing. */
static void overhead_unmet(report_doc *d, rd_section *s, const tsv_table *t, const char *p)
{
    if (tsv_col(t, "overhead_met") < 0) return;
    char list[1024] = "";
    size_t n = 0, len = 0;
    for (size_t r = 0; r < t->nrow; r++) {
        if (strcmp(tsv_get(t, r, "overhead_met"), "0") != 0) continue;
        if (n++ < 8 && len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s at WPB %s (%+.2f%%)", n > 1 ? ", " : "",
                                    tsv_get(t, r, "variant"), tsv_get(t, r, "wpb"), tsv_num(t, r, "overhead_pct"));
    }
    if (n == 0)
        rd_finding(d, s, "%sEvery row's overhead is within the run's --max-overhead.", p);
    else
        rd_finding(d, s, "%s%zu row%s stayed above the run's --max-overhead even at the sparsest sampling "
                         "tried (too few blocks to record fewer): %s%s.", p, n, n == 1 ? "" : "s", list,
                   n > 8 ? ", ..." : "");
}

/* How well each clean median is known (issue 37: every configuration runs
 * until the bootstrap 95 % interval of its median is within --precision, or
 * to --reps launches): the launch counts and the widest interval, in one
 * finding; tables without the columns (the bundled ones before them) say
 * nothing. */
static void overhead_precision(report_doc *d, rd_section *s, const tsv_table *t, const char *p)
{
    if (tsv_col(t, "launches") < 0 || tsv_col(t, "clean_ms_ci_lo") < 0 || tsv_col(t, "clean_ms_ci_hi") < 0)
        return;
    double lmin = NAN, lmax = NAN, worst = -1;
    size_t wr = 0;
    for (size_t r = 0; r < t->nrow; r++) {
        const double l = tsv_num(t, r, "launches"), med = tsv_num(t, r, "clean_ms");
        const double lo = tsv_num(t, r, "clean_ms_ci_lo"), hi = tsv_num(t, r, "clean_ms_ci_hi");
        if (isfinite(l)) {
            if (!(l >= lmin)) lmin = l;
            if (!(l <= lmax)) lmax = l;
        }
        if (!isfinite(med) || med <= 0 || !isfinite(lo) || !isfinite(hi)) continue;
        const double half = 100.0 * (hi - lo) / 2 / med;
        if (half > worst) worst = half, wr = r;
    }
    if (!isfinite(lmin) || worst < 0) return;
    char count[64];
    if (lmax > lmin) snprintf(count, sizeof count, "%.0f to %.0f", lmin, lmax);
    else snprintf(count, sizeof count, "%.0f", lmin);
    rd_finding(d, s, "%sEach clean median comes from %s launches, stopped once its bootstrap 95%% "
                     "interval was within the run's --precision or at --reps; the widest interval is "
                     "+/-%.2f%% of its median (%s at WPB %s).", p, count, worst, tsv_get(t, wr, "variant"),
               tsv_get(t, wr, "wpb"));
}

void rc_sec_overhead(report_doc *d, const rc_ctx *c)
{
    rd_section *s = rc_section_open(d, RC_SEC_OVERHEAD);
    char p[64], err[512];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        static const char *const files[] = {"overhead.tsv", "sampling.tsv"};
        for (int k = 0; k < 2; k++) {
            const res_file *f = rc_fixed(G, files[k]);
            if (!f) { rc_missing(d, s, c, G, files[k], NULL); continue; }
            tsv_table t;
            if (tsv_read(f->path, &t, err, sizeof err) != 0) {
                rd_failed(d, s, f->base, err);
                continue;
            }
            rd_heading(d, s, "%s%s", rc_pfx(c, G, p, sizeof p), f->base);
            /* every row, folded: the finding below says what they show */
            char fold[128];
            snprintf(fold, sizeof fold, "the table: %zu rows", t.nrow);
            rd_fold_start(d, s, fold);
            rd_table_add(d, s, rc_plain_table(&t));
            rd_fold_end(d, s);
            if (k == 0 && tsv_col(&t, "overhead_pct") >= 0) {
                size_t lo = t.nrow, hi = t.nrow;
                for (size_t r = 0; r < t.nrow; r++) {
                    const double v = tsv_num(&t, r, "overhead_pct");
                    if (!isfinite(v)) continue;
                    if (lo == t.nrow || v < tsv_num(&t, lo, "overhead_pct")) lo = r;
                    if (hi == t.nrow || v > tsv_num(&t, hi, "overhead_pct")) hi = r;
                }
                if (lo < t.nrow)
                    rd_finding(d, s, "%sThe probes cost from %+.2f%% (%s at %s warps per block) to %+.2f%% "
                                     "(%s at %s) of the clean twin's time.", p,
                               tsv_num(&t, lo, "overhead_pct"), tsv_get(&t, lo, "variant"),
                               tsv_get(&t, lo, "wpb"), tsv_num(&t, hi, "overhead_pct"),
                               tsv_get(&t, hi, "variant"), tsv_get(&t, hi, "wpb"));
                overhead_unmet(d, s, &t, p);
                overhead_precision(d, s, &t, p);
            }
            if (k == 1) {
                /* which K is unperturbed, and has it converged (sampling.h) */
                sampling_conv cv[64];
                char note[4096];
                const size_t nv = sampling_verdicts(&t, 1, cv, 64);
                if (sampling_note(cv, nv, 1, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            }
            rd_links_start(d, s, NULL);
            rd_link(d, s, rc_rel_to_out(c, f->path), f->base);
            tsv_free(&t);
        }
    }
}

rc_logstat *rc_timeline_stats(const rc_gpu *G, const char *dir, size_t *n)
{
    size_t k = 0;
    for (const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, dir); f;
         f = res_next(&G->r, f, NAMES_LOG, NULL, NULL, NULL, 0, dir)) k++;
    rc_logstat *ls = rc_xcalloc(k, sizeof *ls);
    k = 0;
    for (const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, dir); f;
         f = res_next(&G->r, f, NAMES_LOG, NULL, NULL, NULL, 0, dir)) {
        rc_logstat *l = &ls[k++];
        l->f = f;
        lat_stats *st = lat_stats_new();
        if (!st) rc_die("out of memory");
        if (lat_stats_read_log(st, f->path, &l->h, l->err, sizeof l->err) == 0 &&
            lat_stats_summary(st, LAT_STATS_ALL, &l->s) == 0)
            l->ok = 1;
        lat_stats_free(st);
    }
    *n = k;
    return ls;
}

void rc_sec_timelines(report_doc *d, const rc_ctx *c, rc_logstat **stats, size_t *nstats)
{
    rd_section *s = rc_section_open(d, RC_SEC_TIMELINES);
    char p[64], rel[1024], cap[512];
    /* the WPBs of any GPU's timeline logs */
    unsigned w[RC_MAX_WPB];
    size_t nw = 0;
    for (int i = 0; i < c->ng; i++) {
        const char *tl = res_timeline_dir(&c->g[i].r);
        for (const res_file *f = res_find(&c->g[i].r, NAMES_LOG, NULL, NULL, NULL, 0, tl); tl && f;
             f = res_next(&c->g[i].r, f, NAMES_LOG, NULL, NULL, NULL, 0, tl)) {
            size_t q = 0;
            while (q < nw && w[q] != f->wpb) q++;
            if (q == nw && nw < RC_MAX_WPB) w[nw++] = f->wpb;
        }
    }
    for (size_t a = 1; a < nw; a++)
        for (size_t q = a; q > 0 && w[q - 1] > w[q]; q--) { unsigned t = w[q]; w[q] = w[q - 1]; w[q - 1] = t; }
    for (size_t wi = 0; wi < nw; wi++) {
        rd_heading(d, s, "%u warps per block", w[wi]);
        for (int i = 0; i < c->ng; i++) {
            const rc_gpu *G = &c->g[i];
            const char *tl = res_timeline_dir(&G->r);
            if (!tl) continue;
            rd_figures_start(d, s);
            for (const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, w[wi], tl); f;
                 f = res_next(&G->r, f, NAMES_LOG, NULL, NULL, NULL, w[wi], tl)) {
                rc_warps_chart(rel, sizeof rel, G, f);
                snprintf(cap, sizeof cap, "%s%s %s%s%s, %u warps per block", rc_pfx(c, G, p, sizeof p), f->exp,
                         f->variant, *f->label ? "-" : "", f->label, f->wpb);
                rc_figure(d, s, c, rel, cap);
            }
        }
    }
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        const char *tl = res_timeline_dir(&G->r);
        if (!tl) {
            char base[64];
            names_logdir(base, sizeof base, "1e6");
            rc_missing(d, s, c, G, base, "(per-warp logs of every block, for the timelines)");
            continue;
        }
        rc_logstat *ls = stats[i];
        const size_t nl = nstats[i];
        rf_latpoint *pt = rc_xcalloc(nl, sizeof *pt);
        char variants[64][128];
        size_t nv = 0;
        for (size_t k = 0; k < nl; k++) {
            if (!ls[k].ok) {
                rd_failed(d, s, ls[k].f->rel, ls[k].err);
                continue;
            }
            char v[128];
            snprintf(v, sizeof v, "%s%s%s", ls[k].f->variant, *ls[k].f->label ? "-" : "", ls[k].f->label);
            size_t q = 0;
            while (q < nv && strcmp(variants[q], v)) q++;
            if (q == nv && nv < 64) snprintf(variants[nv++], 128, "%s", v);
            pt[k].variant = variants[q < nv ? q : 0];
            pt[k].wpb = ls[k].f->wpb;
            pt[k].p50_cycles = (double)ls[k].s.p50_cycles;
        }
        for (size_t k = 0; k < nl; k++) if (!pt[k].variant) pt[k].variant = "";
        char all[4096] = "";
        size_t used = 0;
        for (size_t q = 0; q < nv; q++) {
            char one[512];
            if (rf_timeline_growth(pt, nl, variants[q], one, sizeof one) != 0) continue;
            const int m = snprintf(all + used, sizeof all - used, "%s%s", used ? "; " : "", one);
            if (m > 0 && (size_t)m < sizeof all - used) used += (size_t)m;
        }
        if (used) rd_finding(d, s, "%s%s.", rc_pfx(c, G, p, sizeof p), all);
        free(pt);
    }
}

void rc_sec_latency(report_doc *d, const rc_ctx *c, rc_logstat **stats, size_t *nstats)
{
    rd_section *s = rc_section_open(d, RC_SEC_LATENCY);
    char p[64], rel[1024], cap[512], b1[32], b2[32], b3[32], b4[32], b5[32];
    rd_figures_start(d, s);
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        const char *tl = res_timeline_dir(&G->r);
        char exps[RC_MAX_FAMILIES][64];
        const size_t ne = tl ? rc_log_exps(G, tl, exps, RC_MAX_FAMILIES) : 0;
        for (size_t e = 0; e < ne; e++) {
            const unsigned w = rc_dist_wpb(G, tl, exps[e]);
            rc_chart_rel(rel, sizeof rel, G, "latency_cdf_%s_%u", exps[e], w);
            snprintf(cap, sizeof cap, "%s%s: latency CDF, %u warps per block", rc_pfx(c, G, p, sizeof p), exps[e], w);
            rc_figure(d, s, c, rel, cap);
        }
    }
    /* the table at the distribution's WPB, per experiment, GPUs side by side */
    rd_table *parts[RC_MAX_GPUS] = {0};
    const char *labels[RC_MAX_GPUS];
    int any = 0;
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        labels[i] = G->label;
        const char *tl = res_timeline_dir(&G->r);
        if (!tl) continue;
        parts[i] = rd_table_new(7);
        static const char *const head[] = {"kernel, warps per block", "warps", "mean (cycles)", "p5", "p50", "p95", "p99"};
        for (size_t k = 0; k < 7; k++) rd_table_set(parts[i], 0, k, "%s", head[k]);
        size_t row = 1;
        for (size_t k = 0; k < nstats[i]; k++) {
            const rc_logstat *l = &stats[i][k];
            if (!l->ok || l->f->wpb != rc_dist_wpb(G, tl, l->f->exp)) continue;
            rd_table_set(parts[i], row, 0, "%s %s%s%s, %u", l->f->exp, l->f->variant, *l->f->label ? "-" : "",
                         l->f->label, l->f->wpb);
            rd_table_set(parts[i], row, 1, "%llu", (unsigned long long)l->s.count);
            rd_table_set(parts[i], row, 2, "%s", rc_num(b1, sizeof b1, "%.0f", l->s.mean_cycles));
            rd_table_set(parts[i], row, 3, "%s", rc_num(b2, sizeof b2, "%.0f", l->s.p5_cycles));
            rd_table_set(parts[i], row, 4, "%s", rc_num(b3, sizeof b3, "%.0f", l->s.p50_cycles));
            rd_table_set(parts[i], row, 5, "%s", rc_num(b4, sizeof b4, "%.0f", l->s.p95_cycles));
            rd_table_set(parts[i], row, 6, "%s", rc_num(b5, sizeof b5, "%.0f", l->s.p99_cycles));
            row++;
            any = 1;
        }
    }
    if (any) {
        rd_table_add(d, s, rc_join((const rd_table *const *)parts, labels, c->ng));
    }
    for (int i = 0; i < c->ng; i++) {
        rd_table_free(parts[i]);
        const rc_gpu *G = &c->g[i];
        const char *tl = res_timeline_dir(&G->r);
        if (!tl) continue;
        rf_latpoint pt[64];
        size_t np = 0;
        double n_elems = NAN, elem = NAN;
        for (size_t k = 0; k < nstats[i] && np < 64; k++) {
            const rc_logstat *l = &stats[i][k];
            if (!l->ok || l->f->wpb != rc_dist_wpb(G, tl, l->f->exp) || *l->f->label) continue;
            pt[np].variant = l->f->variant;
            pt[np].wpb = l->f->wpb;
            pt[np++].p50_cycles = l->s.p50_cycles;
            if (!strcmp(l->f->variant, "baseline")) { n_elems = (double)l->h.n_elems; elem = l->h.elem_bytes; }
        }
        char note[2048], l2[512];
        const char *ref = np ? pt[0].variant : "";
        for (size_t k = 0; k < np; k++) if (!strcmp(pt[k].variant, "baseline")) ref = "baseline";
        if (rf_relative_p50(pt, np, ref, note, sizeof note) == 0) {
            if (rf_l2_note(n_elems, elem, G->dev.l2_bytes, l2, sizeof l2) == 0)
                rd_finding(d, s, "%s%s %s", rc_pfx(c, G, p, sizeof p), note, l2);
            else
                rd_finding(d, s, "%s%s", rc_pfx(c, G, p, sizeof p), note);
        }
    }
    /* the summaries' N: latency_stats_<N>_wpb<W>.tsv */
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        const res_file *f = res_find(&G->r, NAMES_LATENCY_STATS, NULL, NULL, NULL, 0, "");
        if (!f) {
            char base[256];
            names_latency_stats(base, sizeof base, rc_set_n(&G->r, NULL), 4);
            rc_missing(d, s, c, G, base, "(the latency statistics of the summaries' logs)");
            continue;
        }
        for (; f; f = res_next(&G->r, f, NAMES_LATENCY_STATS, NULL, NULL, NULL, 0, "")) {
            tsv_table t;
            char err[512];
            if (tsv_read(f->path, &t, err, sizeof err) != 0) { rd_failed(d, s, f->rel, err); continue; }
            rd_heading(d, s, "%sN = %s, %u warps per block (%s)", rc_pfx(c, G, p, sizeof p), f->n, f->wpb, f->base);
            rd_table *r = rd_table_new(7);
            static const char *const cols[] = {"kernel", "count", "mean_cycles", "p5_cycles", "p50_cycles", "p95_cycles", "p99_cycles"};
            static const char *const head[] = {"kernel", "warps", "mean (cycles)", "p5", "p50", "p95", "p99"};
            for (size_t k = 0; k < 7; k++) rd_table_set(r, 0, k, "%s", head[k]);
            size_t row = 1;
            for (size_t q = 0; q < t.nrow; q++) {
                const char *sm = tsv_get(&t, q, "sm");
                if (sm && strcmp(sm, "all")) continue;
                rd_table_set(r, row, 0, "%s", tsv_get(&t, q, "kernel") ? tsv_get(&t, q, "kernel") : "?");
                for (size_t k = 1; k < 7; k++)
                    rd_table_set(r, row, k, "%s", rc_num(b1, sizeof b1, "%.0f", tsv_num(&t, q, cols[k])));
                row++;
            }
            rd_table_add(d, s, r);
            rd_links_start(d, s, NULL);
            rd_link(d, s, rc_rel_to_out(c, f->path), f->base);
            tsv_free(&t);
        }
    }
}

void rc_sec_ladder(report_doc *d, const rc_ctx *c)
{
    rd_section *s = rc_section_open(d, RC_SEC_LADDER);
    char p[64], rel[1024], cap[512], b1[32], b2[32];
    static const char *const kinds[] = {"ca", "cg"};
    for (int k = 0; k < 2; k++) {
        char base[32];
        snprintf(base, sizeof base, "latency_%s.tsv", kinds[k]);
        rd_heading(d, s, k == 0 ? "L1 cached (ld.global.ca)" : "L1 bypassed (ld.global.cg)");
        rd_figures_start(d, s);
        for (int i = 0; i < c->ng; i++) {
            const rc_gpu *G = &c->g[i];
            const res_file *f = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, "");
            while (f && strcmp(f->base, base)) f = res_next(&G->r, f, NAMES_LADDER, NULL, NULL, NULL, 0, "");
            if (!f) continue;
            rc_chart_rel(rel, sizeof rel, G, "ladder_%s", kinds[k]);
            snprintf(cap, sizeof cap, "%slatency ladder, %s", rc_pfx(c, G, p, sizeof p), kinds[k]);
            rc_figure(d, s, c, rel, cap);
        }
        rd_table *parts[RC_MAX_GPUS] = {0};
        const char *labels[RC_MAX_GPUS];
        int any = 0;
        char notes[RC_MAX_GPUS][2][2048];
        memset(notes, 0, sizeof notes);
        for (int i = 0; i < c->ng; i++) {
            const rc_gpu *G = &c->g[i];
            labels[i] = G->label;
            const res_file *f = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, "");
            while (f && strcmp(f->base, base)) f = res_next(&G->r, f, NAMES_LADDER, NULL, NULL, NULL, 0, "");
            if (!f) { rc_missing(d, s, c, G, base, NULL); continue; }
            plateau_level lv[PLATEAU_MAX_LEVELS];
            int n = 0;
            char err[512];
            if (rc_ladder_levels(f->path, lv, &n, err, sizeof err) != 0) { rd_failed(d, s, f->rel, err); continue; }
            parts[i] = rd_table_new(6);
            static const char *const head[] = {"level", "from", "to", "cycles", "ns", "x first level"};
            for (size_t q = 0; q < 6; q++) rd_table_set(parts[i], 0, q, "%s", head[q]);
            for (int q = 0; q < n; q++) {
                rd_table_set(parts[i], (size_t)q + 1, 0, "%s", lv[q].name);
                rd_table_set(parts[i], (size_t)q + 1, 1, "%s", rf_fmt_size(lv[q].from_bytes, b1, sizeof b1));
                rd_table_set(parts[i], (size_t)q + 1, 2, "%s", rf_fmt_size(lv[q].to_bytes, b2, sizeof b2));
                rd_table_set(parts[i], (size_t)q + 1, 3, "%.1f", lv[q].cycles);
                rd_table_set(parts[i], (size_t)q + 1, 4, "%.1f", lv[q].ns);
                rd_table_set(parts[i], (size_t)q + 1, 5, "%.1f", lv[q].cycles / lv[0].cycles);
            }
            any = 1;
            rf_ladder_levels_note(lv, n, notes[i][0], sizeof notes[i][0]);
            rf_ladder_occupancy_note(lv, n, &G->dev, notes[i][1], sizeof notes[i][1]);
        }
        if (any) rd_table_add(d, s, rc_join((const rd_table *const *)parts, labels, c->ng));
        for (int i = 0; i < c->ng; i++) {
            rd_table_free(parts[i]);
            for (int q = 0; q < 2; q++)
                if (*notes[i][q]) rd_finding(d, s, "%s%s", rc_pfx(c, &c->g[i], p, sizeof p), notes[i][q]);
        }
    }
    if (c->ng > 1) {
        rd_heading(d, s, "All GPUs, L1 cached");
        snprintf(rel, sizeof rel, "charts/ladder_all.svg");
        char abs[2048];
        snprintf(abs, sizeof abs, "%s/%s", c->outdir, rel);
        if (rc_exists(abs) || rc_failure_of(c, rel)) {
            rd_figures_start(d, s);
            rc_figure(d, s, c, rel, "cached latency ladders of every GPU");
        }
    }
}

