/*
 * measure.c - one configuration of one variant on the GPU: its geometry,
 * validation (poison, one CHECK launch, compare), warm-up, the clean twin and
 * the probe kernel timed interleaved, and the choice of sampling.
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <stdlib.h>
#include <string.h>

#include "probeset.h"
#include "sampling.h"
#include "stats.h"

/* resamples of the bootstrap interval of a median of at most 64 launches */
enum { ENG_CI_DRAWS = 400 };

/* The geometry of cfg of v into x: 0, or -1 with the reason in err. */
static int variant_try(const eng_run *r, int v, int cfg, eng_var *x, char *err, size_t errlen)
{
    const eng_family *F = r->fam;
    memset(x, 0, sizeof *x);
    x->v = v;
    x->cfg = cfg;
    x->g.stride = 1;
    x->g.records_per_warp = 1;
    x->g.loads_per_warp = 1;
    err[0] = 0;
    if (F->geometry(&r->ctx, v, cfg, &x->g, err, errlen) != 0) {
        if (!err[0]) snprintf(err, errlen, "the family cannot run this configuration");
        return -1;
    }
    if (x->g.blocks == 0 || x->g.blocks > 0x7fffffffull) {
        snprintf(err, errlen, "it needs %llu blocks of %u threads: a grid holds 1 to 2^31 - 1",
                 (unsigned long long)x->g.blocks, 32 * (x->g.wpb ? x->g.wpb : r->ctx.wpb));
        return -1;
    }
    /* a variant that fixes its own block size runs with it, in its own copy */
    x->ctx = r->ctx;
    if (x->g.wpb) {
        x->ctx.wpb = x->g.wpb;
        x->ctx.tpb = 32 * x->g.wpb;
    }
    return 0;
}

int eng_variant_at(const eng_run *r, int v, int cfg, eng_var *x, int quiet)
{
    const eng_family *F = r->fam;
    char err[512];
    if (variant_try(r, v, cfg, x, err, sizeof err) == 0) return 0;
    if (quiet) return -1;
    if (r->selected[v] == 2) {   /* asked for by name: the run cannot do what was asked */
        fprintf(stderr, "%s: %s: %s\n", r->prog, F->variants[v].name, err);
        logjob_abort_all();
        exit(2);
    }
    fprintf(stderr, "%s: %s skipped: %s\n", r->prog, F->variants[v].name, err);
    return -1;
}

int eng_check_configs(const eng_run *r)
{
    const eng_family *F = r->fam;
    char err[512], first[600] = "";
    int runnable = 0;
    for (int v = 0; v < F->nvariants; v++) {
        if (!r->selected[v]) continue;
        const int nc = eng_nconfigs(r, v);
        if (nc == 0 && r->selected[v] == 2) {
            fprintf(stderr, "%s: %s: none of the options' values applies to it (see --help)\n",
                    r->prog, F->variants[v].name);
            return 2;
        }
        for (int c = 0; c < nc; c++) {
            eng_var x;
            if (variant_try(r, v, c, &x, err, sizeof err) == 0 && r->opt.sweep) {
                int bl[64];
                long sm[64];
                if (eng_sweep_points(r, &x, bl, sm, 1) == 0) {
                    fprintf(stderr, "%s: %s: no point to sweep: none of the resident-block counts "
                            "asked for fits at WPB %u and SMEM %u (see --list-occupancy)\n", r->prog,
                            F->variants[v].name, x.ctx.wpb, x.ctx.smem_bytes);
                    return 2;
                }
            }
            if (err[0] == 0) {
                runnable++;
                continue;
            }
            if (r->selected[v] == 2) {   /* asked for by name: refused, nothing run */
                fprintf(stderr, "%s: %s: %s\n", r->prog, F->variants[v].name, err);
                return 2;
            }
            if (!first[0]) snprintf(first, sizeof first, "%s: %s", F->variants[v].name, err);
        }
    }
    if (!runnable) {
        fprintf(stderr, "%s: nothing to run with these arguments (%s)\n", r->prog,
                first[0] ? first : "no variant has a configuration");
        return 2;
    }
    return 0;
}

void eng_prepare(eng_run *r, eng_var *x)
{
    if (!r->fam->prepare) return;
    eng_hook(r, r->fam->prepare(&x->ctx, x->v, x->cfg), "preparing the inputs of",
             r->fam->variants[x->v].name);
    r->ctx.state = x->ctx.state;   /* the hook may replace it */
}

/* Probes a launch with sampling K writes: the warps of the sampled blocks,
 * less the trailing warps of the last block when it records and its threads
 * past the last item return at once (they are the last entries of the
 * array, so dropping them keeps every other probe's index). */
uint64_t eng_nprobes_for(const eng_run *r, const eng_var *x, uint32_t K)
{
    const eng_geom *g = &x->g;
    const uint64_t rpw = g->records_per_warp ? g->records_per_warp : 1;
    uint64_t warps = warplog_sampled_blocks(g->blocks, K, r->sample_offset) * x->ctx.wpb;
    const uint64_t last = g->blocks - 1;
    if (g->tail_idle && g->items && warplog_block_sampled((uint32_t)last, K, r->sample_offset & (K - 1))) {
        const uint64_t active_threads = g->items - last * x->ctx.tpb;
        const uint64_t active_warps = (active_threads + 31) / 32;
        if (active_warps < x->ctx.wpb) warps -= x->ctx.wpb - active_warps;
    }
    return warps * rpw;
}

/* The sparsest K that still records `records` warps (and regions) and 2
 * blocks per SM, when the grid allows (else 1). */
static uint32_t sparsest_sample(const eng_run *r, const eng_var *x, uint64_t records)
{
    const uint64_t rpw = x->g.records_per_warp ? x->g.records_per_warp : 1;
    uint64_t need = 2 * (uint64_t)r->dev.sm_count;
    const uint64_t need_recs = (records + x->ctx.wpb * rpw - 1) / (x->ctx.wpb * rpw);
    if (need_recs > need) need = need_recs;
    uint32_t k = 1;
    while ((uint64_t)k * 2 <= 1u << 20 && x->g.blocks / (k * 2) >= need) k *= 2;
    return k;
}

/* The densest sampling a variant's run may use: the fixed K, or where the
 * search starts (it only makes K larger).  The probe buffer is sized for it. */
uint32_t eng_first_sample(const eng_run *r, const eng_var *x)
{
    if (r->fixed_K) return r->fixed_K;
    return r->sample_mode_overhead ? 1 : sparsest_sample(r, x, r->opt.min_records);
}

void eng_launch_one(eng_run *r, const eng_var *x, eng_mode m, uint32_t smem, uint32_t K)
{
    eng_launch L = {x->g.blocks, x->ctx.tpb, smem, K, r->sample_offset,
                    m == ENG_PROBE ? r->d_probes : NULL, 0};
    int rc = r->fam->launch(&x->ctx, x->v, x->cfg, m, &L);
    if (m == ENG_PROBE && r->inject_at >= 0 && ++r->probe_launches == r->inject_at)
        rc = (int)cudaErrorLaunchFailure;
    eng_hook(r, rc, m == ENG_PROBE ? "launch of the probe kernel of" : m == ENG_CHECK
                 ? "launch of the check kernel of" : "launch of the clean kernel of",
             r->fam->variants[x->v].name);
}

static float timed(eng_run *r, const eng_var *x, eng_mode m, uint32_t smem, uint32_t K)
{
    float ms = 0;
    ENG_CUDA(cudaEventRecord(r->ev0, 0));
    eng_launch_one(r, x, m, smem, K);
    ENG_CUDA(cudaEventRecord(r->ev1, 0));
    ENG_CUDA(cudaEventSynchronize(r->ev1));
    ENG_CUDA(cudaEventElapsedTime(&ms, r->ev0, r->ev1));
    return ms;
}

static eng_timing summarize(double *t, size_t n)
{
    eng_timing s;
    stats_median_ci(t, n, 0.95, ENG_CI_DRAWS, 0x5eed, &s.ci_lo, &s.ci_hi);
    s.n = n;
    s.med = stats_median_inplace(t, n);   /* sorts t */
    s.min = t[0];
    s.max = t[n - 1];
    return s;
}

/* The median of t[0..n) is known within pct % on both sides (its 95 %
 * bootstrap interval). */
static int median_known(const double *t, size_t n, double pct)
{
    double lo, hi, sorted[64];
    if (n > 64 || stats_median_ci(t, n, 0.95, ENG_CI_DRAWS, 0x5eed, &lo, &hi) != 0) return 0;
    memcpy(sorted, t, n * sizeof *t);
    const double med = stats_median_inplace(sorted, n);
    return med > 0 && hi - med <= med * pct / 100 && med - lo <= med * pct / 100;
}

/* Interleaved launches of the clean twin and (K > 0) the probe kernel:
 * at least --min-reps, at most --reps, stopping once both medians are known
 * within --precision (0: always --reps). */
static void measure_n(eng_run *r, const eng_var *x, uint32_t smem, uint32_t K, eng_point *p,
                      uint64_t reps, double pct)
{
    const uint64_t min_reps = r->opt.min_reps < reps ? r->opt.min_reps : reps;
    double *tc = malloc(reps * sizeof *tc), *ti = malloc(reps * sizeof *ti);
    if (!tc || !ti) eng_die(r, "out of host memory");
    if (K) {
        ENG_CUDA(cudaMemset(r->d_probes, 0xff, eng_nprobes_for(r, x, K) * sizeof(warp_probe)));
        /* the base that unwraps the probes' 32-bit global timer: read before
         * they are written (the writer adds their forward distance to it) */
        ENG_CUDA(eng_device_globaltimer(&p->gt_base));
    }
    uint64_t n = 0;
    while (n < reps) {
        tc[n] = timed(r, x, ENG_CLEAN, smem, 1);
        if (K) ti[n] = timed(r, x, ENG_PROBE, smem, K);
        n++;
        if (pct > 0 && n >= min_reps && median_known(tc, n, pct) && (!K || median_known(ti, n, pct)))
            break;
    }
    p->clean = summarize(tc, n);
    if (K) {
        p->instr = summarize(ti, n);
        p->overhead_pct = 100.0 * (p->instr.med / p->clean.med - 1.0);
        p->sample = K;
    }
    free(tc);
    free(ti);
}

static void measure(eng_run *r, const eng_var *x, uint32_t smem, uint32_t K, eng_point *p)
{
    measure_n(r, x, smem, K, p, r->opt.reps, r->opt.precision);
}

/* --sample auto starts where the log keeps --min-records; overhead starts at
 * every block.  Either makes K sparser while the overhead is too high, up to
 * the sparsest K that keeps 4096 records: to the K where the overhead
 * measured at this one predicts it within the bound (sampling_next_k), at
 * least twice as sparse.  Doubling alone took 6 steps of at least 5 launch
 * pairs each where the overhead was 40 % (tiling at DSIZE 8192: 10 s). */
static void search_sample(eng_run *r, const eng_var *x, uint32_t smem, eng_point *p)
{
    const double max = r->opt.max_overhead;
    const uint32_t kmax = sparsest_sample(r, x, 4096);
    for (uint32_t K = eng_first_sample(r, x);; K = sampling_next_k(K, p->overhead_pct, max, kmax)) {
        measure(r, x, smem, K, p);
        if (p->overhead_pct <= max) {
            measure(r, x, smem, K, p);   /* the figures reported: a fresh measurement */
            if (p->overhead_pct <= max) { p->overhead_met = 1; break; }
        }
        if (K >= kmax) break;
    }
    /* At the sparsest K the overhead may be above the bound by less than
     * its own uncertainty: two medians each known within --precision make
     * a ratio known within about 1.4 times it (readonly float4 at WPB 8,
     * K = 128, a 0.09 ms kernel: 1.14 % and 1.04 % in two runs, 0.92 % and
     * 0.97 % in two others).  Such a row is measured once more, one step
     * sparser where 2048 records remain (half the floor of the search),
     * with three times the launches, each median known within a third of
     * --precision, before it says the bound was not met.  A row far above
     * the bound (tiling's naive kernel, 10 %) is not worth the launches. */
    if (!p->overhead_met && p->sample >= kmax && p->overhead_pct <= 2 * max) {
        const uint32_t kfar = sparsest_sample(r, x, 2048);
        measure_n(r, x, smem, kfar > p->sample ? kfar : p->sample, p, 3 * r->opt.reps,
                  r->opt.precision / 3);
        p->overhead_met = p->overhead_pct <= max;
    }
    if (!p->overhead_met)
        fprintf(stderr, "%s: note: %s: probe overhead %+.1f%% at the sparsest sampling tried "
                "(1 block in %u); the latencies are those of a kernel that much slower\n",
                r->prog, r->fam->variants[x->v].name, p->overhead_pct, p->sample);
}

/* The probes of the last probe launch, copied back; every sampled warp must
 * have written its own. */
static void copy_probes(eng_run *r, const eng_var *x, eng_point *p)
{
    p->nprobes = eng_nprobes_for(r, x, p->sample);
    p->sampled_blocks = warplog_sampled_blocks(x->g.blocks, p->sample, r->sample_offset);
    p->probes = malloc(p->nprobes * sizeof *p->probes);
    if (!p->probes) eng_die(r, "out of host memory (%llu probes)", (unsigned long long)p->nprobes);
    ENG_CUDA(cudaMemcpy(p->probes, r->d_probes, p->nprobes * sizeof *p->probes, cudaMemcpyDeviceToHost));
    const uint64_t unwritten = probeset_unwritten(p->probes, p->nprobes);
    if (unwritten)
        eng_die(r, "%s: %llu of %llu probes were not written by the probe kernel",
                r->fam->variants[x->v].name, (unsigned long long)unwritten, (unsigned long long)p->nprobes);
}

void eng_run_point(eng_run *r, const eng_var *x, uint32_t smem, eng_point *p)
{
    const char *name = r->fam->variants[x->v].name;
    memset(p, 0, sizeof *p);
    p->smem = smem;
    p->carveout = eng_configure(r, x, smem);
    p->bps = eng_occupancy(r, x, ENG_CLEAN, smem);
    if (p->bps <= 0 && eng_is_kernel(r, x))
        eng_die(r, "no block of %u threads with %u bytes of shared memory fits on an SM of %s",
                x->ctx.tpb, smem, r->dev.device_name);
    const int probes = eng_has_probe(r, x);
    if (probes) {
        p->bps_probe = eng_occupancy(r, x, ENG_PROBE, smem);
        if (p->bps_probe != p->bps)
            fprintf(stderr, "%s: warning: %s: the probe kernel fits %d blocks per SM, the clean "
                    "twin %d: its records describe another occupancy\n", r->prog, name,
                    p->bps_probe, p->bps);
    }
    for (uint64_t i = 0; i < r->opt.warmup; i++) {
        eng_launch_one(r, x, ENG_CLEAN, smem, 1);
        if (probes) eng_launch_one(r, x, ENG_PROBE, smem, eng_first_sample(r, x));
    }
    ENG_CUDA(cudaDeviceSynchronize());
    eng_trace(r, "warm-up", r->fam->variants[x->v].name);
    if (!probes) {
        measure(r, x, smem, 0, p);
        return;
    }
    if (r->fixed_K) {
        measure(r, x, smem, r->fixed_K, p);
        p->overhead_met = p->overhead_pct <= r->opt.max_overhead;
    } else {
        search_sample(r, x, smem, p);
    }
    eng_trace(r, "launches", r->fam->variants[x->v].name);
    copy_probes(r, x, p);
}

int eng_validate(eng_run *r, const eng_var *x, uint32_t smem, eng_check *chk)
{
    const char *name = r->fam->variants[x->v].name;
    memset(chk, 0, sizeof *chk);
    eng_configure(r, x, smem);
    eng_hook(r, r->fam->poison(&x->ctx, x->v, x->cfg), "poisoning the outputs of", name);
    eng_launch_one(r, x, ENG_CHECK, smem, 1);
    ENG_CUDA(cudaDeviceSynchronize());
    eng_hook(r, r->fam->check(&x->ctx, x->v, x->cfg, chk), "reading back the results of", name);
    return chk->bad == 0 && chk->checked > 0;
}
