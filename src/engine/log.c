/*
 * log.c - the per-warp log of a measured point: its header (the device, the
 * run, the sampling, both kernels' times), its path, and the background
 * writer that compresses it while the GPU goes on (logjob.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <stdlib.h>
#include <string.h>

#include "names.h"

void eng_fill_header(const eng_run *r, warplog_header *h, const eng_var *x, const eng_point *p,
                     double clk)
{
    const eng_geom *g = &x->g;
    *h = r->dev;
    snprintf(h->experiment, sizeof h->experiment, "%s", r->fam->name);
    snprintf(h->kernel, sizeof h->kernel, "%s", r->fam->variants[x->v].name);
    h->record_count = p->nprobes;
    h->n_elems = x->ctx.n;
    h->blocks = g->blocks;
    h->seed = g->seed;
    h->elem_bytes = g->elem_bytes;
    h->smem_bytes = p->smem;
    h->warps_per_block = x->ctx.wpb;
    h->threads_per_block = x->ctx.tpb;
    h->blocks_per_sm = (uint32_t)p->bps;
    h->bytes_per_warp_load = g->bytes_per_warp_load;
    h->stride = g->stride;
    h->carveout_pct = (int32_t)p->carveout;
    h->l2_fetch_bytes = (uint32_t)r->l2_fetch_now;
    h->reps = (uint32_t)r->opt.reps;
    h->loads_per_warp = g->loads_per_warp;
    h->sm_clock_measured_MHz = clk;
    h->kernel_ms = p->instr.med;
    h->kernel_ms_min = p->instr.min;
    h->kernel_ms_max = p->instr.max;
    h->clean_kernel_ms = p->clean.med;
    h->clean_kernel_ms_min = p->clean.min;
    h->clean_kernel_ms_max = p->clean.max;
    h->overhead_pct = p->overhead_pct;
    h->useful_bytes = g->bytes_read;
    h->bytes_written = g->bytes_written;
    h->bw_GBps = (g->bytes_read + g->bytes_written) / (p->clean.med * 1e-3) / 1e9;
    h->ceiling_GBps = r->opt.ceiling;
    h->gtimer_base_ns = p->gt_base;
    h->sample_blocks = p->sample;
    h->sample_offset = r->sample_offset & (p->sample - 1);
    h->sampled_blocks = p->sampled_blocks;
    h->records_per_warp = g->records_per_warp ? g->records_per_warp : 1;
    snprintf(h->record_covers, sizeof h->record_covers, "%s", g->record_covers ? g->record_covers : "");
    snprintf(h->config, sizeof h->config, "%s", g->config);
}

const char *eng_start_log(eng_run *r, const warplog_header *h, eng_point *p, const char *path)
{
    if (r->njobs == r->capjobs) {
        r->capjobs = r->capjobs ? 2 * r->capjobs : 16;
        r->jobs = realloc(r->jobs, r->capjobs * sizeof *r->jobs);
        if (!r->jobs) eng_die(r, "out of host memory");
    }
    char err[1400];
    logjob *j = logjob_start(path, h, p->probes, (int)r->opt.level, err, sizeof err);
    p->probes = NULL;   /* the job owns them now */
    if (!j) eng_die(r, "%s", err);
    eng_pending *slot = &r->jobs[r->njobs++];
    slot->job = j;
    snprintf(slot->path, sizeof slot->path, "%s", path);
    return slot->path;
}

int eng_finish_logs(eng_run *r)
{
    int failed = 0;
    char err[1400];
    for (size_t j = 0; j < r->njobs; j++) {
        if (logjob_finish(r->jobs[j].job, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", r->prog, err);
            failed++;
        }
    }
    free(r->jobs);
    r->jobs = NULL;
    r->njobs = r->capjobs = 0;
    return failed;
}

/* DIR/<exp>_<variant>[-<label>]_<W>.bin (names.h); a sweep point adds _b<blocks/SM>
 * before the extension. */
void eng_log_path(const eng_run *r, char *buf, size_t len, const eng_var *x, int bps)
{
    char base[256];
    const eng_family *F = r->fam;
    if (names_log(base, sizeof base, F->name, F->variants[x->v].name, x->g.label, x->ctx.wpb) != 0)
        eng_die(r, "internal: no log name for %s %s", F->name, F->variants[x->v].name);
    if (bps > 0) {
        char *dot = strrchr(base, '.');
        snprintf(dot, sizeof base - (size_t)(dot - base), "_b%d.bin", bps);
    }
    snprintf(buf, len, "%s/%s", r->opt.out_dir, base);
}
