/*
 * sweep.c - --sweep: one variant at every resident-block count (or
 * --points), SMEM chosen to give each, one row per point with throughput,
 * latency, the Little's-law bound and the closure error (docs/occupancy.md);
 * with every block recorded (--sample 1), also the warps really in flight,
 * the slot period and Little's law closed with them (inflight.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "inflight.h"
#include "par.h"
#include "littles.h"
#include "plateau.h"
#include "probeset.h"

static const char SWEEP_COLUMNS[] =
    "smem_bytes\tblocks_per_sm\twarps_per_sm\toccupancy_pct\tkernel_ms\tkernel_ms_min\t"
    "kernel_ms_max\tbw_GBps\tbw_GBps_min\tbw_GBps_max\tlat_mean_cycles\tlat_p50_cycles\t"
    "bound_GBps\tclosure_err_pct\tachieved_occupancy_pct\tdram_read_GBps\tmax_concurrent_warps\t"
    "log\tsample\tinstr_ms\toverhead_pct\tlat_p95_cycles\tsm_clock_MHz\t" INFLIGHT_COLUMNS "\n";

/* The in-flight columns of a point (inflight.h): only a launch that recorded
 * every block holds every window that was in flight; otherwise "nan".  0, or
 * -1 with a sentence in err. */
static int sweep_inflight(const eng_var *x, const eng_point *p, double clk, inflight_result *o,
                          char *buf, size_t len, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    const inflight_params prm = {x->g.bytes_per_warp_load, p->bps, clk, p->instr.med};
    if (p->probes && p->sample == 1) {
        if (probeset_inflight(p->probes, p->nprobes, x->ctx.wpb, x->g.records_per_warp, p->gt_base,
                              &prm, o, err, errlen) != 0)
            return -1;
    } else {
        o->warps_in_flight_per_sm = o->slot_period_cycles = o->slot_rest_cycles = o->bw_GBps = NAN;
        o->bound_GBps = o->closure_err_pct = o->launch_drain_pct = o->imbalance_pct = NAN;
    }
    inflight_format(buf, len, o);
    return 0;
}

/* What a point's probes give, each figure on a core of its own (par.h): the
 * three read the probes and share nothing else.  One after the other they
 * were most of a sweep point's host time. */
typedef struct point_figs {
    const eng_var *x;
    const eng_point *p;
    double clk;                 /* the clock that turns cycles into time */
    inflight_result inf;
    char infl[256];
    int inf_rc, ls_rc;
    char inf_err[300], ls_err[300];
    lat_summary ls;
    long conc;
} point_figs;

static void point_fig(void *arg, size_t i)
{
    point_figs *f = arg;
    const eng_point *p = f->p;
    if (i == 0)
        f->inf_rc = sweep_inflight(f->x, p, f->clk, &f->inf, f->infl, sizeof f->infl, f->inf_err,
                                   sizeof f->inf_err);
    else if (i == 1 && p->probes)
        f->ls_rc = probeset_summary(p->probes, p->nprobes, f->x->ctx.wpb, f->x->g.records_per_warp,
                                    &f->ls, f->ls_err, sizeof f->ls_err);
    else if (i == 2 && p->probes)
        f->conc = probeset_max_concurrency(p->probes, p->nprobes);
}

/* The progress line's words for the in-flight closure. */
static const char *infl_words(const inflight_result *o, char *buf, size_t len)
{
    snprintf(buf, len, "; %.2f warps/SM in flight: %.1f GB/s against %.1f measured (%+.1f%%)",
             o->warps_in_flight_per_sm, o->bound_GBps, o->bw_GBps, o->closure_err_pct);
    return buf;
}

/* Measure point i of np (SMEM smem, meant to give want blocks per SM) into
 * its row; its log's header goes to *last. */
static void sweep_point(eng_run *r, const eng_var *x, int i, int np, int want, long smem, char *row,
                        size_t len, warplog_header *last)
{
    const warplog_header *d = &r->dev;
    const int probes = eng_has_probe(r, x);
    eng_point p;
    eng_run_point(r, x, (uint32_t)smem, &p);
    eng_trace(r, "sweep point timed", r->fam->variants[x->v].name);
    if (p.bps != want)
        fprintf(stderr, "%s: warning: SMEM %ld gave %d blocks/SM, not %d\n", r->prog, smem, p.bps, want);
    const double bytes = x->g.bytes_read + x->g.bytes_written;
    const double bw = bytes / (p.clean.med * 1e-3) / 1e9;
    double bound = NAN, closure = NAN;
    /* the SM clock measured from the probes (0: unknown), and the clock that
     * turns cycles into time: that one, else the nominal */
    const double clk = p.probes ? probeset_clock_MHz(p.probes, p.nprobes, p.gt_base, 20000) : 0;
    const double c = clk > 0 ? clk : d->sm_clock_nominal_khz / 1000.0;
    const char *logname = "nan";
    char path[1100];
    /* before the log's job takes the probes */
    point_figs f = {.x = x, .p = &p, .clk = c, .conc = -1};
    par_for(3, 3, point_fig, &f);
    if (f.inf_rc != 0) eng_die(r, "warps in flight at the sweep point: %s", f.inf_err);
    if (f.ls_rc != 0) eng_die(r, "latency summary of the sweep point: %s", f.ls_err);
    const inflight_result inf = f.inf;
    const lat_summary ls = f.ls;
    const long conc = f.conc;
    eng_trace(r, "sweep point figures", r->fam->variants[x->v].name);
    if (p.probes) {
        bound = littles_bound_GBps(d->peak_dram_GBps, d->sm_count, (double)p.bps * x->ctx.wpb,
                                   x->g.bytes_per_warp_load, c, ls.mean_cycles);
        closure = 100.0 * (bw - bound) / bound;
        eng_log_path(r, path, sizeof path, x, p.bps);
        eng_fill_header(r, last, x, &p, clk);
        logname = eng_start_log(r, last, &p, path);
        eng_trace(r, "sweep point log started", r->fam->variants[x->v].name);
    }
    char words[160];
    const int w = p.bps * (int)x->ctx.wpb;
    const double occ = 100.0 * w / (d->max_threads_per_sm / 32.0);
    snprintf(row, len,
             "%u\t%d\t%d\t%.2f\t%.4f\t%.4f\t%.4f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.2f\tnan\tnan\t"
             "%ld\t%s\t%u\t%.4f\t%.2f\t%.1f\t%.0f\t%s\n",
             p.smem, p.bps, w, occ, p.clean.med, p.clean.min, p.clean.max, bw,
             bytes / (p.clean.max * 1e-3) / 1e9, bytes / (p.clean.min * 1e-3) / 1e9,
             probes ? ls.mean_cycles : NAN, probes ? ls.p50_cycles : NAN, bound, closure, conc,
             logname, p.sample, probes ? p.instr.med : NAN, probes ? p.overhead_pct : NAN,
             probes ? ls.p95_cycles : NAN, clk, f.infl);
    if (!r->opt.quiet)
        fprintf(stderr, "%s: [%d/%d] %d blocks/SM (SMEM %u): %.1f GB/s, latency %.0f cycles, "
                "bound %.1f GB/s, 1 block in %u recorded, overhead %+.2f%%%s\n", r->prog, i + 1, np,
                p.bps, p.smem, bw, ls.mean_cycles, bound, p.sample, p.overhead_pct,
                isnan(inf.bound_GBps) ? "" : infl_words(&inf, words, sizeof words));
    free(p.probes);
}

/* The '#' lines: the last point's log header (or the device's facts), the
 * command, the points, the ladder's DRAM latency. */
static void sweep_meta(const eng_run *r, const eng_var *x, const warplog_header *last, int argc,
                       char **argv, const int *bl, int np)
{
    FILE *t = r->tbl;
    const char *variant = r->fam->variants[x->v].name;
    fprintf(t, "# sweep of %s %s at WPB %u (docs/occupancy.md); the key/value lines up to "
               "sweep_command are the header of the last point's log\n", r->fam->name, variant,
            x->ctx.wpb);
    if (eng_has_probe(r, x)) {
        warplog_header_print(t, last, "# ");
    } else {
        fprintf(t, "# experiment\t%s\n# kernel\t%s\n# warps_per_block\t%u\n# sm_count\t%d\n"
                   "# peak_dram_GBps\t%.6g\n# device_name\t%s\n", r->fam->name, variant,
                x->ctx.wpb, r->dev.sm_count, r->dev.peak_dram_GBps, r->dev.device_name);
    }
    fprintf(t, "# sweep_command\t");
    for (int i = 0; i < argc; i++) fprintf(t, "%s%s", i ? " " : "", argv[i]);
    fprintf(t, "\n# sweep_points\t");
    for (int i = 0; i < np; i++) fprintf(t, "%s%d", i ? "," : "", bl[i]);
    fprintf(t, "\n# sweep_reps\t%llu\n", (unsigned long long)r->opt.reps);
}

int eng_run_sweep(eng_run *r, int v, int argc, char **argv)
{
    char err[512];
    eng_var x;
    const char *variant = r->fam->variants[v].name;
    if (eng_variant_at(r, v, 0, &x, 0) != 0) eng_die(r, "%s: no sweep", variant);
    if (!eng_is_kernel(r, &x)) eng_die(r, "%s is not a kernel: nothing to sweep", variant);
    eng_prepare(r, &x);
    eng_check chk;
    if (!eng_validate(r, &x, 0, &chk))
        eng_die(r, "%s FAILED validation: %llu of %llu items disagree with the CPU reference (%s); no sweep",
                variant, (unsigned long long)chk.bad, (unsigned long long)chk.checked, chk.first);
    int bl[64];
    long sm[64];
    const int np = eng_sweep_points(r, &x, bl, sm, 0);   /* eng_check_configs: at least one */
    double dram_cyc = NAN, dram_ns = NAN;
    if (r->opt.ladder &&
        plateau_dram_latency_from_tsv(r->opt.ladder, &dram_cyc, &dram_ns, err, sizeof err) != 0)
        eng_die(r, "--ladder: %s", err);

    char (*rows)[1536] = calloc((size_t)np, sizeof *rows);
    if (!rows) eng_die(r, "out of host memory");
    warplog_header last;
    memset(&last, 0, sizeof last);
    time_t t0 = time(NULL);
    for (int i = 0; i < np; i++) sweep_point(r, &x, i, np, bl[i], sm[i], rows[i], sizeof rows[i], &last);
    sweep_meta(r, &x, &last, argc, argv, bl, np);
    if (r->opt.ladder)
        fprintf(r->tbl, "# ladder\t%s\n# dram_latency_cycles\t%.1f\n# dram_latency_ns\t%.1f\n",
                r->opt.ladder, dram_cyc, dram_ns);
    fprintf(r->tbl, "# sweep_elapsed_s\t%.0f\n", difftime(time(NULL), t0));
    fputs(SWEEP_COLUMNS, r->tbl);
    for (int i = 0; i < np; i++) fputs(rows[i], r->tbl);
    free(rows);
    return 0;
}
