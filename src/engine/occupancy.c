/*
 * occupancy.c - what sets the resident blocks per SM: SMEM opt-in and the
 * carveout on each kernel, the occupancy API, eng_resident_blocks for the
 * families' geometry hooks, and --list-occupancy.
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <string.h>

static int blocks_at(const void *k, uint32_t tpb, uint32_t smem, int pct)
{
    int b = 0;
    ENG_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, pct));
    ENG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, (int)tpb, smem));
    return b;
}

/* SMEM opt-in and carveout.  Without --carveout (and outside sweeps, which
 * use 100 so that SMEM alone sets the resident blocks), the carveout is the
 * smallest that keeps the resident blocks of the largest one: L1 gets the
 * rest of the unified memory, and occupancy is not cut.  (A carveout of 0
 * is not that: every block holds 1 KiB of reserved shared memory on sm_80+,
 * and the smallest shared-memory configuration, 8 KiB on the H100, would
 * let 8 blocks of 2 or 4 warps in, where 32 and 16 fit.) */
int eng_configure_kernel(const warplog_header *dev, int carveout_pct, const void *k, uint32_t tpb,
                         uint32_t smem)
{
    if (!k) return -1;
    ENG_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    if (carveout_pct >= 0) {
        blocks_at(k, tpb, smem, carveout_pct);
        return carveout_pct;
    }
    const int full = blocks_at(k, tpb, smem, 100);
    struct cudaFuncAttributes a;
    ENG_CUDA(cudaFuncGetAttributes(&a, k));
    const double need = (double)full * ((double)a.sharedSizeBytes + smem + dev->reserved_smem_per_block);
    int pct = dev->max_smem_per_sm ? (int)(100.0 * need / dev->max_smem_per_sm) - 1 : 0;
    if (pct < 0) pct = 0;
    while (pct < 100 && blocks_at(k, tpb, smem, pct) < full) pct++;
    if (pct == 100) blocks_at(k, tpb, smem, 100);
    return pct;
}

/* The carveout recorded in the log is the probe kernel's (the log's kernel);
 * without one, the clean kernel's. */
int eng_configure(const eng_run *r, const eng_var *x, uint32_t smem)
{
    int used = -1, probe = -1;
    for (int m = 0; m < ENG_NMODES; m++) {
        const int c = eng_configure_kernel(&r->dev, x->ctx.carveout_pct,
                                           r->fam->kernel(x->v, x->cfg, (eng_mode)m), x->ctx.tpb, smem);
        if (c >= 0) used = c;
        if (m == ENG_PROBE) probe = used;
    }
    return probe >= 0 ? probe : used;
}

int eng_occupancy(const eng_run *r, const eng_var *x, eng_mode m, uint32_t smem)
{
    int b = 0;
    const void *k = r->fam->kernel(x->v, x->cfg, m);
    if (!k) return 0;
    ENG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, (int)x->ctx.tpb, smem));
    return b;
}

int eng_resident_blocks(const eng_ctx *c, const void *k)
{
    int b = 0;
    eng_configure_kernel(c->dev, c->carveout_pct, k, c->tpb, c->smem_bytes);
    ENG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, (int)c->tpb, c->smem_bytes));
    return b;
}

/* Is this configuration a kernel (else a runtime call such as cudaMemcpy),
 * and does it have a probe kernel that this run launches? */
int eng_is_kernel(const eng_run *r, const eng_var *x)
{
    return r->fam->kernel(x->v, x->cfg, ENG_CLEAN) != NULL;
}

int eng_has_probe(const eng_run *r, const eng_var *x)
{
    return r->fam->kernel(x->v, x->cfg, ENG_PROBE) != NULL && !r->profile_only && !r->opt.no_probes;
}

/* The smallest SMEM that gives exactly b resident blocks per SM, or -1. */
long eng_smem_for_blocks(const eng_run *r, const eng_var *x, int b)
{
    uint32_t lo = 0, hi = r->dev.max_smem_optin_per_block;
    eng_configure(r, x, hi);
    if (eng_occupancy(r, x, ENG_CLEAN, hi) > b) return -1;
    /* occupancy does not grow with shared memory: binary search the least
     * SMEM whose occupancy is <= b */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (eng_occupancy(r, x, ENG_CLEAN, mid) <= b) hi = mid; else lo = mid + 1;
    }
    return eng_occupancy(r, x, ENG_CLEAN, lo) == b ? (long)lo : -1;
}

/* --list-occupancy: the first selected variant's first configuration at the
 * run's WPB (a family with --list-occupancy has a WPB, so no variant fixes
 * its own). */
int eng_list_occupancy(const eng_run *r)
{
    eng_var x;
    memset(&x, 0, sizeof x);
    x.v = eng_first_selected(r);
    x.ctx = r->ctx;
    if (!eng_is_kernel(r, &x)) {
        fprintf(stderr, "%s: %s is not a kernel: pick one with --kernel\n", r->prog,
                r->fam->variants[x.v].name);
        return 2;
    }
    eng_configure(r, &x, r->dev.max_smem_optin_per_block);
    const int bmax = eng_occupancy(r, &x, ENG_CLEAN, 0);
    printf("# device_name\t%s\n# kernel\t%s\n# warps_per_block\t%u\n# max_smem_optin_per_block\t%u\n"
           "# reserved_smem_per_block\t%u\n", r->dev.device_name, r->fam->variants[x.v].name,
           x.ctx.wpb, r->dev.max_smem_optin_per_block, r->dev.reserved_smem_per_block);
    printf("blocks_per_sm\twarps_per_sm\tsmem_bytes\n");
    for (int b = bmax; b >= 1; b--) {
        long s = eng_smem_for_blocks(r, &x, b);
        if (s >= 0) printf("%d\t%d\t%ld\n", b, b * (int)x.ctx.wpb, s);
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* The points of a --sweep (sweep.c; checked by measure.c): every
 * resident-block count the device allows, or --points;
 * bl[i] blocks per SM at sm[i] bytes of SMEM (room for 64).  Returns how
 * many (0: none fits); quiet: no notes on the ones skipped. */
int eng_sweep_points(const eng_run *r, const eng_var *x, int *bl, long *sm, int quiet)
{
    const cli_list *pts = &r->opt.points;
    eng_configure(r, x, 0);
    const int bmax = eng_occupancy(r, x, ENG_CLEAN, 0);
    int np = 0;
    for (int b = 1; b <= bmax && b <= 64; b++) {
        int want = pts->n == 0;
        for (size_t k = 0; k < pts->n; k++) want |= pts->v[k] == (uint64_t)b;
        if (!want) continue;
        long s = b == bmax ? 0 : eng_smem_for_blocks(r, x, b);
        if (s < 0) {
            if (!quiet)
                fprintf(stderr, "%s: note: no SMEM gives %d blocks/SM at WPB %u; skipped\n", r->prog, b,
                        x->ctx.wpb);
            continue;
        }
        bl[np] = b, sm[np++] = s;
    }
    for (size_t k = 0; k < pts->n && !quiet; k++)
        if (pts->v[k] > (uint64_t)bmax)
            fprintf(stderr, "%s: note: --points %llu: at most %d blocks/SM fit at WPB %u; skipped\n",
                    r->prog, (unsigned long long)pts->v[k], bmax, x->ctx.wpb);
    return np;
}
