/*
 * variant.c - the per-variant runner: every selected variant and
 * configuration of a run on the open device, one row each (the columns:
 * columns.c) to the table (table.c).
 *
 * Order of work for every variant (and configuration) of a run:
 *   1. prepare its inputs; set SMEM opt-in and carveout on its three kernels;
 *      resident blocks per SM from the occupancy API, for the clean twin and
 *      the probe kernel (a probe kernel that fits fewer blocks would record
 *      another occupancy: the run says so);
 *   2. validate: poison, one CHECK launch, compare with the CPU reference;
 *      a variant that fails is reported and gets no timing and no log;
 *   3. warm up both kernels, then time them interleaved (clean, probe, clean,
 *      probe, ...) so that both medians see the same clocks and temperature;
 *      with --sample auto, K doubles from 1 until the measured overhead is at
 *      most --max-overhead, and the K found is measured once more: the
 *      figures reported are that fresh measurement, not the one that chose K
 *      (measure.c);
 *   4. copy the probes back, check every sampled warp wrote its probe,
 *      summarise the latencies, measure the SM clock, and hand the probes to
 *      a writer thread (log.c) while the GPU goes on with the next variant.
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "probeset.h"

/* The clean kernel's name (what Nsight Compute and cuobjdump call it) and
 * its registers per thread; "-" and 0 for a variant that is not a kernel. */
static void kernel_facts(const eng_run *r, const eng_var *x, char *name, size_t len, int *regs)
{
    const void *k = r->fam->kernel(x->v, x->cfg, ENG_CLEAN);
    snprintf(name, len, "-");
    *regs = 0;
    if (!k) return;
    const char *n = NULL;
    if (cudaFuncGetName(&n, k) == cudaSuccess && n) snprintf(name, len, "%s", n);
    struct cudaFuncAttributes a;
    if (cudaFuncGetAttributes(&a, k) == cudaSuccess) *regs = a.numRegs;
}

/* What every row has: the variant, its sizes and grid, what it moves. */
static void row_common(const eng_run *r, const eng_var *x, eng_row *row, char *fn, size_t fnlen)
{
    memset(row, 0, sizeof *row);
    row->kernel = r->fam->variants[x->v].name;
    row->n = x->ctx.n;
    row->smem_bytes = x->ctx.smem_bytes;
    row->warps_per_block = x->ctx.wpb;
    row->config = x->g.config[0] ? x->g.config : "-";
    row->log = "-";
    row->bytes_read = x->g.bytes_read;
    row->bytes_written = x->g.bytes_written;
    kernel_facts(r, x, fn, fnlen, &row->regs);
    row->kernel_fn = fn;
    row->blocks = x->g.blocks;
    row->flops = x->g.flops;
    row->batch_line = r->batch_line;
}

/* A variant that failed validation: its row, with no times. */
static void fail_row(eng_run *r, const eng_var *x, const eng_check *chk, int bps)
{
    const eng_geom *g = &x->g;
    fprintf(stderr, "%s: %s%s%s FAILED validation: %llu of %llu items disagree with the CPU "
            "reference (%s); no timing, no log\n", r->prog, r->fam->variants[x->v].name,
            g->config[0] ? " " : "", g->config, (unsigned long long)chk->bad,
            (unsigned long long)chk->checked, chk->first[0] ? chk->first : "nothing checked");
    eng_row row;
    char fn[128];
    row_common(r, x, &row, fn, sizeof fn);
    row.valid = "FAIL";
    row.blocks_per_sm = bps;
    eng_columns_row(r->tbl, &row);
}

/* The latencies and the log of a probed point (p's probes go to the writer). */
static void probed_figures(eng_run *r, const eng_var *x, eng_point *p, eng_row *row, char *path,
                           size_t len)
{
    lat_summary ls;
    char serr[300];
    memset(&ls, 0, sizeof ls);
    if (probeset_summary(p->probes, p->nprobes, x->ctx.wpb, x->g.records_per_warp, &ls, serr, sizeof serr) != 0)
        eng_die(r, "%s: latency summary: %s", r->fam->variants[x->v].name, serr);
    row->sm_clock_MHz = probeset_clock_MHz(p->probes, p->nprobes, p->gt_base, 20000);
    row->lat_mean_cycles = ls.mean_cycles;
    row->lat_p50_cycles = ls.p50_cycles;
    row->lat_p95_cycles = ls.p95_cycles;
    eng_log_path(r, path, len, x, 0);
    warplog_header h;
    eng_fill_header(r, &h, x, p, row->sm_clock_MHz);
    row->log = eng_start_log(r, &h, p, path);
}

/* A valid variant: measure it and write its row. */
static void measured_row(eng_run *r, const eng_var *x)
{
    eng_point p;
    eng_run_point(r, x, x->ctx.smem_bytes, &p);
    eng_trace(r, "timed", r->fam->variants[x->v].name);
    eng_row row;
    char fn[128], path[1100];
    row_common(r, x, &row, fn, sizeof fn);
    row.timed = 1;
    row.valid = "ok";
    row.blocks_per_sm = p.bps;
    row.kernel_ms = p.clean.med;
    row.kernel_ms_min = p.clean.min;
    row.kernel_ms_max = p.clean.max;
    row.launches = p.clean.n;
    row.kernel_ms_ci_lo = p.clean.ci_lo;
    row.kernel_ms_ci_hi = p.clean.ci_hi;
    const double bytes = x->g.bytes_read + x->g.bytes_written;
    row.bw_GBps = bytes / (p.clean.med * 1e-3) / 1e9;
    row.pct_peak = 100.0 * row.bw_GBps / r->dev.peak_dram_GBps;
    row.gflops = x->g.flops / (p.clean.med * 1e-3) / 1e9;
    row.records = p.nprobes;
    if (p.probes) probed_figures(r, x, &p, &row, path, sizeof path);
    const int probes = eng_has_probe(r, x);
    if (probes) {
        row.probed = 1;
        row.sample = p.sample;
        row.instr_ms = p.instr.med;
        row.instr_ms_min = p.instr.min;
        row.instr_ms_max = p.instr.max;
        row.overhead_pct = p.overhead_pct;
        row.overhead_met = p.overhead_met;
    }
    eng_columns_row(r->tbl, &row);
    fflush(r->tbl);
    const char *name = r->fam->variants[x->v].name;
    if (!r->opt.quiet && probes)
        fprintf(stderr, "%s: %-16s clean %.4f ms, instrumented %.4f ms (%+.2f%%), 1 block in %u "
                "recorded%s\n", r->prog, name, p.clean.med, p.instr.med, p.overhead_pct, p.sample,
                p.overhead_met ? "" : " (over --max-overhead)");
    else if (!r->opt.quiet)
        fprintf(stderr, "%s: %-16s %.4f ms, %.1f GB/s\n", r->prog, name, p.clean.med, row.bw_GBps);
    free(p.probes);
}

int eng_run_variant(eng_run *r, int v, int cfg)
{
    eng_var x;
    if (eng_variant_at(r, v, cfg, &x, 0) != 0) return 0;
    if (eng_has_probe(r, &x) && eng_nprobes_for(r, &x, eng_first_sample(r, &x)) > r->probe_cap)
        eng_die(r, "internal: probe buffer too small for %s", r->fam->variants[v].name);
    const char *name = r->fam->variants[v].name;
    eng_prepare(r, &x);
    eng_trace(r, "prepare", name);
    eng_check chk;
    const int ok = eng_validate(r, &x, x.ctx.smem_bytes, &chk);
    eng_trace(r, "validate", name);
    const int bps0 = eng_occupancy(r, &x, ENG_CLEAN, x.ctx.smem_bytes);
    if (!ok) {
        fail_row(r, &x, &chk, bps0);
        return 1;
    }
    if (!r->opt.quiet)
        fprintf(stderr, "%s: %-16s %s%s%llu blocks x %u threads, %d blocks/SM: valid (%llu checked)\n",
                r->prog, r->fam->variants[v].name, x.g.config, x.g.config[0] ? ", " : "",
                (unsigned long long)x.g.blocks, x.ctx.tpb, bps0, (unsigned long long)chk.checked);
    measured_row(r, &x);
    eng_trace(r, "row", name);
    return 0;
}

int eng_run_selected(eng_run *r)
{
    int failures = 0;
    for (int v = 0; v < r->fam->nvariants; v++) {
        if (!r->selected[v]) continue;
        const int nc = eng_nconfigs(r, v);
        for (int c = 0; c < nc; c++) failures += eng_run_variant(r, v, c);
    }
    return failures;
}
