/*
 * table.c - the summary: the '#' lines that say which GPU and how, then one
 * row per variant and configuration (the columns: columns.c).  It goes to
 * stdout, or to --table FILE through outfile (a unique temporary, removed on
 * a signal or at exit, renamed when whole).
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "probeset.h"

void eng_table_open(eng_run *r)
{
    if (!r->opt.table) {
        r->tbl = stdout;
        return;
    }
    char err[1400];
    r->tbl = outfile_open(&r->table_out, r->opt.table, "w", err, sizeof err);
    if (!r->tbl) eng_die(r, "%s", err);
    /* any exit before the commit (eng_die, a CUDA error) leaves no table */
    atexit(outfile_remove_temporaries);
}

int eng_table_close(eng_run *r, int keep)
{
    if (r->tbl == stdout) {
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "%s: error writing the table to stdout: %s\n", r->prog, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!r->tbl) return -1;
    r->tbl = NULL;
    if (!keep) {
        outfile_abort(&r->table_out);
        return 0;
    }
    char err[1400];
    if (outfile_commit(&r->table_out, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", r->prog, err);
        return -1;
    }
    return 0;
}

void eng_print_meta(const eng_run *r)
{
    FILE *t = r->tbl;
    const warplog_header *d = &r->dev;
    const int probes = !r->profile_only && !r->opt.no_probes;
    fprintf(t, "# device\t%s (sm_%d%d, %d SMs, L2 %u KiB)\n", d->device_name, d->cc_major,
            d->cc_minor, d->sm_count, d->l2_bytes >> 10);
    fprintf(t, "# peak_dram_GBps\t%.1f (memory clock %u MHz x %u-bit bus x 2)\n", d->peak_dram_GBps,
            d->mem_clock_khz / 1000, d->bus_width_bits);
    fprintf(t, "# sm_clock_nominal_MHz\t%u\n", d->sm_clock_nominal_khz / 1000);
    fprintf(t, "# build\t%s (%s), toolkit %s\n", r->prog,
            probes ? "clean twin and probes" : "clean kernels only", WARPLOG_TOOLKIT_VERSION);
    fprintf(t, "# l2_fetch_granularity_bytes\t%zu\n", r->l2_fetch_now);
    /* the device's facts as key/value lines (the log header's keys), for the
     * tools that read this table: sm_count, peak_dram_GBps, ... */
    fprintf(t, "# experiment\t%s\n# device_name\t%s\n# device_ordinal\t%d\n"
               "# compute_capability\t%d.%d\n# sm_count\t%d\n# l2_bytes\t%u\n"
               "# bus_width_bits\t%u\n# mem_clock_khz\t%u\n# peak_dram_GBps\t%.6g\n"
               "# sm_clock_nominal_khz\t%u\n# max_threads_per_sm\t%u\n# max_smem_per_sm\t%u\n"
               "# driver_version\t%d\n# runtime_version\t%d\n# date\t%s\n# toolkit_version\t%s\n"
               "# host_arch\t%s\n# ceiling_GBps\t%.6g\n",
            r->fam->name, d->device_name, d->device_ordinal, d->cc_major, d->cc_minor, d->sm_count,
            d->l2_bytes, d->bus_width_bits, d->mem_clock_khz, d->peak_dram_GBps,
            d->sm_clock_nominal_khz, d->max_threads_per_sm, d->max_smem_per_sm,
            d->driver_version, d->runtime_version, d->date, d->toolkit_version, d->host_arch,
            r->opt.ceiling);
    fprintf(t, "# kernel_ms\tthe clean twin (no probes): median of --reps launches; bw_GBps = "
               "(bytes read + written) / kernel_ms\n");
    if (probes)
        fprintf(t, "# instr_ms\tthe instrumented kernel, timed interleaved with the clean twin; "
                   "overhead_pct = instr_ms / kernel_ms - 1; sample K = one block in K "
                   "recorded\n");
    eng_columns_header(t);
}

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
