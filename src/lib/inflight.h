/*
 * inflight.h - Little's law closed by measurement: the warps a kernel really
 * keeps in flight, from its per-warp log with every block recorded.
 *
 * The resident-warp bound (littles.h) assumes every resident warp always
 * waits on a load.  It does not: between one block's last load and the next
 * block's first, its slot holds no load at all (the block retires, the next
 * is launched, and its warps do their index arithmetic).  This module
 * measures what the slots really hold.  On each SM s, from its windows (one
 * record = one load, start_clk .. end_clk):
 *
 *   span_s      busy span: first start to last end on s (SM cycles; clocks
 *               of different SMs are never subtracted from each other)
 *   I_s         the time integral of the number of open windows over the
 *               span.  That integral is the sum of the windows' lengths (each
 *               window adds 1 over exactly its own length), so no sort is
 *               needed
 *   W_s         = I_s / span_s: warps in flight on s, on average
 *
 * and for the device:
 *
 *   W           = sum of W_s: warps in flight across the GPU
 *   L           = sum of I_s / windows: the mean latency (cycles)
 *   bound_GBps  = W x bytes_per_window / (L / clock): bytes measured in
 *               flight over the measured latency, Little's law with nothing
 *               assumed (not capped by the DRAM peak: it is a measurement)
 *   bw_GBps     = windows x bytes_per_window / kernel_ms: what the logged
 *               (instrumented) kernel moved, by its own time
 *   closure_err_pct = 100 (bw - bound) / bound
 *
 * A block slot's period, P = blocks_per_sm x sum(span_s) / sum(blocks_s), is
 * the time between two blocks starting in one slot (the blocks-weighted mean
 * over SMs of span_s x slots / blocks_s); the load holds the slot L of it and
 * the rest, P - L, is launch, index arithmetic, the probe's store and
 * retirement.  W_s = warps_per_block x blocks_per_sm x L / P_s, which is why
 * the resident bound overestimates by P / L.
 *
 * What does not close is the kernel time outside the SMs' load windows.
 * With S_eff = windows x bytes_per_window / bound (the time the in-flight
 * bytes would take), T the kernel time and D the device's span (the first
 * window's start to the last window's end, by %globaltimer, which all SMs
 * share):
 *
 *   launch_drain_pct = 100 (T - D) / T   the kernel's launch before the
 *                    first window, and its drain after the last one
 *   imbalance_pct    = 100 (D - S_eff) / T  SMs idle while others start
 *                    late or finish last (the tail)
 *
 * and, since bw / bound = S_eff / T, closure_err_pct = 100 (S_eff / T - 1)
 * = -(launch_drain_pct + imbalance_pct) exactly: the residual is named in
 * full.  The split between the two is as good as %globaltimer's resolution
 * (up to 1 us on some GPUs) allows; their sum is not affected by it.
 *
 * The log must record every block (sample 1): a sampled log holds only some
 * of the windows that were in flight.  Records of one block must be adjacent
 * (every log and probe array is in launch order) for the blocks per SM to be
 * counted.  Plain C; the engine feeds it probes it expanded, bin/inflight the
 * records of a log file, the unit tests records made by hand.
 */
#ifndef WARPLAT_INFLIGHT_H
#define WARPLAT_INFLIGHT_H
#include <stddef.h>
#include <stdint.h>

#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the accumulator keeps per SM and for the device (opaque to callers
 * in spirit; on the stack it is about 10 KiB). */
typedef struct inflight_acc {
    uint64_t first_clk[WARPLOG_MAX_SM_COUNT], last_clk[WARPLOG_MAX_SM_COUNT];
    uint64_t sum_lat[WARPLOG_MAX_SM_COUNT];   /* I_s, cycles */
    uint64_t windows[WARPLOG_MAX_SM_COUNT], blocks[WARPLOG_MAX_SM_COUNT];
    uint32_t last_block[WARPLOG_MAX_SM_COUNT];
    uint8_t seen[WARPLOG_MAX_SM_COUNT];
    double first_ns, last_ns;                 /* device span by %globaltimer */
    double sm_clock_MHz;
    int gtimer_after_end;
    int bad_smid;                             /* first smid out of range, or -1 */
} inflight_acc;

/* Start: sm_clock_MHz turns a window's cycles into ns for the device span;
 * gtimer_after_end says where a record's gtimer_ns was read (0: just before
 * start_clk, as the engine's kernels; 1: just after end_clk, as the probe
 * API's regions, log version 3). */
void inflight_init(inflight_acc *a, double sm_clock_MHz, int gtimer_after_end);

/* Add n records.  A record whose end is before its start counts as a window
 * of 0 cycles. */
void inflight_add(inflight_acc *a, const warp_record *r, size_t n);

/* What the result needs besides the records. */
typedef struct inflight_params {
    double bytes_per_window;   /* bytes one window loads (bytes_per_warp_load) */
    double blocks_per_sm;      /* resident block slots per SM */
    double sm_clock_MHz;       /* cycles to seconds */
    double kernel_ms;          /* the logged kernel's time */
} inflight_params;

typedef struct inflight_result {
    uint64_t windows, blocks;
    int sms;                       /* SMs with at least one window */
    double lat_mean_cycles;        /* L */
    double busy_span_cycles;       /* mean span_s over those SMs */
    double warps_in_flight;        /* W, summed over SMs */
    double warps_in_flight_per_sm; /* W / sms */
    double slot_period_cycles;     /* P */
    double slot_rest_cycles;       /* P - L */
    double bytes_in_flight;        /* W x bytes_per_window, device-wide */
    double bound_GBps, bw_GBps, closure_err_pct;
    double device_span_us;         /* D */
    double launch_drain_pct, imbalance_pct;
} inflight_result;

/* The figures of the records added so far.  Every figure whose inputs are
 * missing (a parameter not > 0, no window) is NAN; the counts are always
 * filled.  0, or -1 with a sentence in err (errlen bytes, may be NULL) when
 * a record's smid was >= WARPLOG_MAX_SM_COUNT (then nothing is filled). */
int inflight_result_get(const inflight_acc *a, const inflight_params *p, inflight_result *out,
                        char *err, size_t errlen);

/* Every column the figures are written under, in order (TSV header names,
 * shared by the sweep and bin/inflight), and one row's values. */
#define INFLIGHT_COLUMNS                                                                    \
    "inflight_warps_per_sm\tslot_period_cycles\tslot_rest_cycles\tinstr_bw_GBps\t"            \
    "bound_inflight_GBps\tclosure_inflight_err_pct\tlaunch_drain_pct\tsm_imbalance_pct"
/* The values of INFLIGHT_COLUMNS, tab-separated, no newline ("nan" for a
 * missing one); returns what snprintf returns. */
int inflight_format(char *buf, size_t len, const inflight_result *r);

#ifdef __cplusplus
}
#endif
#endif
