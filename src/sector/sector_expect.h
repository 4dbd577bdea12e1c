/*
 * sector_expect.h - the model's expected count (issue 36, item 2): one
 * number per judged quantity where the simulator gives a bracket, for the
 * families whose merges in flight are modelled (the stencil's).
 *
 * The simulator (sector_sim.c) counts, per block, the L2 requests and
 * sectors as if no two warps' misses (loads) or writes (stores) to one
 * 128 B line ever joined (`l2_requests`, `l2_sectors`: the per-request
 * end), and as if every one to a line the block had already sent did
 * (`l2_requests_merged`, `l2_sectors_merged`: one per line, or per sector,
 * per block).  The difference is the geometry's merge opportunities: for
 * the stencil, the line (and sector) that two neighbouring warps of a block
 * share where a row of N0 floats is not a multiple of 128 B (loads: also
 * the halo's reads of it).  L1TEX joins some of them, those whose two
 * requests are in flight together; which ones changes from run to run.
 *
 * The expected count takes a fixed share of the opportunities:
 *
 *   expected = per_request - round(opportunities x NUM / DEN)
 *
 * stores: requests and sectors alike (a merge removes the later warp's
 * request to the shared line and its copy of the shared sector), NUM/DEN =
 * SF_MERGE_ST_*; loads: requests (the later warp's misses to the line join
 * the pending request; every missed sector still goes to L2, so sectors
 * keep the per-request count), SF_MERGE_LD_*.  Both shares were calibrated
 * on the stencil's calibration probes (src/families/stencil/calib.tsv,
 * profiled three times on an H200: data/reference/h200/runlogs/issue36/calib),
 * never on a checked row.
 *
 * Two more families, each only where its calibration probes measured the
 * merges (src/families/{copy,patterns}/calib.tsv, three H200 runs:
 * data/reference/h200/runlogs/issue36/seed4027428589/model_check.tar.gz,
 * results/calib/):
 *
 * copy stores of batch_restrict and int4: a warp's B stores (B/4 for int4)
 * write the same L lines one after another (L = the per-request L2 requests
 * per store instruction: B lines for both, a warp's 32 B elements over
 * 128 B lines); the later stores to a line join the pending
 * one, fewer the more lines lie between them.  The share is
 * 2^-((L - 2) / 3): all of them at L = 2 (the probes: 0.95 to 0.99), a
 * quarter at L = 8 (0.05 to 0.29), 0.04 at L = 16 (0.001 to 0.06); requests
 * and sectors alike (the probes' two shares agree).
 *
 * patterns offset_ca loads: a warp's misses on the line it shares with the
 * warp before it (one per warp past the first of a block) join that warp's
 * request: the probes measured 0.97 of them at WPB 4 and 0.48 to 0.74 at
 * WPB 16 and 32, so every one up to WPB 4 (SF_MERGE_OFF_WPB) and 3/5
 * beyond (SF_MERGE_OFF_*).  Requests only, as for the stencil's loads.
 *
 * Store hits: the H100 and H200 count a store to a line whose tag an
 * earlier store of the block allocated as a hit for every sector of it in
 * that line (`st_line_hits`), not only the sector two stores share.  Load
 * hits are the simulator's in-block hits (exact on every committed row).
 */
#ifndef SECTOR_EXPECT_H
#define SECTOR_EXPECT_H

#include "sector_families.h"

/* The shares of the merge opportunities the expected count takes: stores
 * one in three (the probes' stores measured 0.28 to 0.52 of theirs, 0.36
 * the median), loads one in five (deriv0's 0.13 to 0.18, deriv_copy's 0.29
 * and 0.73; deriv1's loads also share rows between blocks, not modelled). */
#define SF_MERGE_ST_NUM 1
#define SF_MERGE_ST_DEN 3
#define SF_MERGE_LD_NUM 1
#define SF_MERGE_LD_DEN 5
/* copy: the share of a warp's stores to its lines, 2^-((L - 2) / SF_MERGE_COPY_HALF) */
#define SF_MERGE_COPY_HALF 3
/* patterns offset_ca: every merge opportunity up to this WPB, NUM/DEN beyond */
#define SF_MERGE_OFF_WPB 4
#define SF_MERGE_OFF_NUM 3
#define SF_MERGE_OFF_DEN 5

typedef struct sf_expected {
    double l1_hits, l2_requests, l2_sectors;
} sf_expected;

/* round(opp x num / den) for a whole, non-negative opp (integer arithmetic). */
double sf_merge_share(double opp, unsigned num, unsigned den);

/* The copy stores' share at L lines per store instruction: 2^-((L - 2) / 3),
 * 1 at L <= 2. */
double sf_merge_copy_share(double lines_per_request);

/* The expected counts of op in prediction pr of variant v: 1 (e set), or 0
 * when v (or op) has no expectation (e untouched: the point prediction is
 * the expectation). */
int sf_expect(const sf_variant *v, const sf_prediction *pr, sf_op op, sf_expected *e);

/* The same for one row of a comparison table: its family, variant, config
 * (the model's canonical string, "n0=1000,n1=64,r=1,lead=0,ld=1002",
 * "batch=8", "offset=17"), N (copy, patterns), warps per block and op ("ld",
 * "st").  1 (e set), 0 (no expectation for this variant and op), or -1 with
 * err (a config the model does not give back). */
int sf_expect_row(const char *family, const char *variant, const char *config, double n, double wpb,
                  const char *op, sf_expected *e, char *err, size_t errlen);

#endif
