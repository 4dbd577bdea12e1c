/*
 * sampling.h - which sampling gives the unperturbed latency, and has it
 * converged (issue 25, item 4).
 *
 * Recording a warp costs a 16-byte store (warplog.h): with every block
 * recorded (K = 1) those stores are traffic of their own and each warp holds
 * its slot until its store drains, so the latencies read higher.  Recording
 * one block in K perturbs less as K grows, and the figure stops moving: the
 * sparsest K is the unperturbed one, once the two sparsest K agree.
 *
 * One launch at a sparse K records few warps (12204 at K = 256 for N = 1e8
 * at 4 warps per block), so its p95 moves with which blocks happened to
 * record.  sampling_runs() says how many launches to pool, each recording
 * other blocks (another offset), so that every K holds as many records as
 * K = base does in one launch.  bin/sampling pools them (one row per K) and
 * checks convergence; the report says it in words.
 */
#ifndef WARPLAT_SAMPLING_H
#define WARPLAT_SAMPLING_H
#include <stddef.h>
#include <stdint.h>

#include "tsv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launches to pool at K so that they record as many warps as one launch at
 * K = base: K / base, at least 1 (base 0 counts as 1). */
uint32_t sampling_runs(uint32_t K, uint32_t base);

/*
 * The next K the engine's --sample auto search tries after the probes cost
 * overhead_pct at K, above max_pct: at least 2 K, and as far as the K whose
 * overhead this one predicts at three quarters of max_pct (the cost is about
 * proportional to the blocks recorded, 1 in K; a fixed part only makes the
 * step fall short, and the search goes on from there), in powers of two,
 * never past kmax.
 */
uint32_t sampling_next_k(uint32_t K, double overhead_pct, double max_pct, uint32_t kmax);

/* The verdict of one variant. */
typedef struct sampling_conv {
    const char *variant;          /* points into the table */
    double k_hi, k_lo;            /* the sparsest K and the next sparsest */
    double p50_hi, p95_hi, p50_lo, p95_lo;
    double records_hi, runs_hi;   /* records and pooled launches at k_hi (runs 1 if unknown) */
    double p50_diff_pct, p95_diff_pct; /* 100 (x_lo / x_hi - 1) */
    double p50_k1, p95_k1;        /* with every block recorded; NAN when not measured */
    int converged;                /* both diffs within the tolerance */
} sampling_conv;

/*
 * The verdict of every variant of a sampling table (sampling.tsv, columns by
 * name: variant, sample, lat_p50_cycles, lat_p95_cycles, and optionally
 * records, runs and label).  Rows whose label is "default" (the run's own
 * choice of K) are left out, as is a second row of the same variant and K;
 * a variant needs two K above 1 to be judged.  At most max verdicts, in
 * the table's order of variants; returns how many.
 */
size_t sampling_verdicts(const tsv_table *t, double tol_pct, sampling_conv *out, size_t max);

/* The report's sentence on them (report_facts.h's return convention:
 * 0 written, 1 nothing to say, -1 too small):
 * "Latencies fall as fewer blocks record: baseline's median is 750 cycles
 * with every block recorded and 711 at K = 256.  The sparsest K, 256, gives
 * the unperturbed figure (pooled over 8 launches that recorded other
 * blocks): against K = 64 its p50 and p95 agree within 1% for 5 of 6
 * variants (not random_access: p95 1.4% apart).  K = 1 reads higher because
 * every warp then also stores its 16-byte record: ..." */
int sampling_note(const sampling_conv *c, size_t n, double tol_pct, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
