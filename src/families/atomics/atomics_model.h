/*
 * atomics_model.h - what the memory system sees for each variant of the
 * atomics family (variants.h), computed from the addresses alone, and the
 * exact final counter values the kernels must leave (the CPU reference).
 *
 * Plain C, no GPU: the kernels (atomics.cu) use the reference to validate,
 * the unit test (test_atomics.c) checks hand-computed cases, and
 * gpu_atomics.sh compares the prediction with Nsight Compute's counts
 * (atomics_compare).  The family's future model.c (sector_family.h) will wrap
 * atomics_predict.
 *
 * Units: counts are requests or 32-byte sectors of one launch of N threads
 * (one atomicAdd each); bytes are bytes.  WPB does not change any count (a
 * warp's addresses depend on its global index only); it is taken so that the
 * interface says so, and checked to be 1..32.
 */
#ifndef WARPLAT_ATOMICS_MODEL_H
#define WARPLAT_ATOMICS_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * How L2 counts the requests of one warp-wide atomic (RED or ATOM) after
 * L1TEX has split it.  The model must pick one; gpu_atomics.sh tells which one
 * the hardware follows, since the documentation does not say:
 *   ATM_L2_PER_ADDRESS  one L2 request per distinct address of the warp
 *                       instruction (issue 23's statement: "atomics are
 *                       resolved at L2: one request per distinct address per
 *                       warp"); the default
 *   ATM_L2_PER_LINE     one L2 request per distinct 128-byte line, carrying
 *                       its sectors (what L2 counts for loads and stores,
 *                       lts__t_requests: one request per line touched)
 * The sectors are the distinct 32-byte sectors either way.
 */
/*   ATM_L2_REPLAY       what the H100 does (measured with Nsight Compute,
 *                       data/reference/h100/atomics/): the lanes of one
 *                       instruction that share an address are not merged
 *                       but serialized, one pass per lane sharing it (32
 *                       passes when a warp's lanes hit one word); each pass
 *                       sends one L2 request per distinct line, with its
 *                       distinct sectors, and L1TEX counts those sectors
 *                       too.  The default.
 */
typedef enum atm_l2_rule {
    ATM_L2_PER_ADDRESS = 0, ATM_L2_PER_LINE = 1, ATM_L2_REPLAY = 2, ATM_L2_NRULES = 3
} atm_l2_rule;

/* The prediction for one launch. */
typedef struct atm_pred {
    uint64_t atomics;          /* operations: N */
    uint64_t l1_requests;      /* L1TEX requests: one per warp instruction, ceil(N / 32) */
    uint64_t l1_sectors;       /* L1TEX sectors: distinct sectors of each request, summed */
    uint64_t l2_requests;      /* L2 (LTS) requests from L1TEX, under the rule */
    uint64_t l2_sectors;       /* L2 sectors from L1TEX: the same as l1_sectors (an
                                  atomic is never served by L1) */
    uint64_t footprint_bytes;  /* the counter array the launch touches, whole lines */
    uint64_t distinct_sectors; /* sectors touched by the whole launch */
    uint64_t dram_read_bytes;  /* with cold caches (ncu's --cache-control all): every
                                  distinct fetch block of fetch_bytes read once */
    int dram_judged;           /* 1: the DRAM prediction is judged: the counters fill
                                  every fetch block they touch and their bytes are at
                                  least ATM_DRAM_JUDGED_BYTES.  Below that, a few KiB
                                  of other traffic (page-table walks, the launch)
                                  outweigh the counters; and a counter alone in its
                                  block (line_spread) was measured at 48 B a line on
                                  the H100, between the 32 B sector and the 64 B
                                  fetch that loads get: not explained, so not judged */
    int ret;                   /* 1: ATOM (result used), 0: RED */
} atm_pred;

/* Thread t's word (the kernels' address rule, variants.h). */
uint64_t atm_word(int pattern, uint64_t t);

/* Words of the counter array for n threads, rounded up to whole 128-byte
 * lines (at least one line); 0 for n = 0. */
uint64_t atm_footprint_words(int pattern, uint64_t n);

/* The CPU reference: the final value of word j after one launch of n threads
 * on zeroed counters (each thread adds 1): how many threads map to j. */
uint64_t atm_expected(int pattern, uint64_t n, uint64_t j);

/*
 * The prediction for variant v (enum atomics_variant) with n threads, wpb
 * warps per block, under rule, with DRAM fetched in blocks of fetch_bytes
 * (32, 64 or 128).  0, or -1 with a sentence in err.
 */
int atm_predict(int v, uint64_t n, uint32_t wpb, atm_l2_rule rule, uint32_t fetch_bytes,
                atm_pred *out, char *err, size_t errlen);

/* The rule's name ("per_address", "per_line"), or NULL. */
const char *atm_rule_name(atm_l2_rule rule);

/* The Nsight Compute metrics that count what atm_predict predicts, for RED
 * (ret 0) or ATOM (ret 1): L1 requests, L1 sectors, L2 requests, L2 sectors,
 * in that order; and the DRAM metric (ret -1: dram__bytes_read.sum). */
enum { ATM_M_L1_REQ, ATM_M_L1_SEC, ATM_M_L2_REQ, ATM_M_L2_SEC, ATM_M_DRAM_READ, ATM_NMETRICS };
const char *atm_metric(int ret, int which);

/* "m1,m2,...": every metric of both forms, for ncu --metrics; into buf. */
int atm_metric_list(char *buf, size_t len);

/*
 * One measured launch against the model: `measured` holds the ncu counts
 * of the metrics of atm_metric(pred->ret, k) for k < ATM_NMETRICS (negative:
 * not measured).  Each count must equal the prediction exactly, except DRAM,
 * which must be within tol_pct percent or ATM_DRAM_SLACK_BYTES, whichever is
 * more (what else L2 fetches during the kernel, page-table walks among them,
 * is a few sectors: nothing next to a large footprint, everything next to the
 * 64 bytes of same_address).  Returns the number of disagreements; writes one line per
 * metric to `line` (a TSV fragment "metric\tpred\tmeas\tagree") via the
 * callback, and, where the L2 requests disagree, whether the other rule fits.
 */
#define ATM_DRAM_SLACK_BYTES 4096.0
#define ATM_DRAM_JUDGED_BYTES (1u << 20)
typedef void (*atm_line_fn)(void *ctx, const char *line);
int atm_compare(int v, const atm_pred *pred, const atm_pred *other_rule, const double *measured,
                double tol_pct, atm_line_fn emit, void *ctx);

/*
 * The table of bin/ncu_extract (columns kernel, id and the metrics of
 * atm_metric_list) against the model: every launch of a clean kernel
 * atomics_VARIANT compared with atm_compare, written to out as TSV
 * (variant, metric, pred, meas, agree; '#' lines say the rule, the fetch
 * size, N and WPB).  Returns the number of disagreements, or -1 with a
 * sentence in err (an unreadable table, no atomics kernel in it).
 */
int atm_compare_table(const char *path, uint64_t n, uint32_t wpb, atm_l2_rule rule, uint32_t fetch_bytes,
                      double tol_pct, FILE *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
