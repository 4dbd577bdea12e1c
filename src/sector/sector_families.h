/*
 * sector_families.h - the sector model of the kernel families: for one
 * launch of one variant in one configuration, what Nsight Compute will count
 * at L1, L2 and DRAM, loads and stores apart, predicted from the addresses
 * alone.  The simulator and the judging are here (family-independent); each
 * family's variants, address rules, lab figures and ncu recipe are its
 * src/families/NAME/model.c (the interface: sector_family.h), found through
 * the registry (family.h).  docs/sectors.md has the rules and the reasons.
 *
 * The rules, per warp-level instruction (a "request" to L1):
 *
 *   requests     1 per instruction with at least one active lane, whatever
 *                its width (LDG.E, .64, .128);
 *   sectors      the distinct 32 B sectors its active lanes touch;
 *   wavefronts   ceil(distinct 128 B lines / 4): the tag stage looks up at
 *                most 4 lines per wavefront (lab 000: 4 lines in 1, 5 in 2,
 *                8 in 2, 16 in 4);
 *   L1 hits      a load's sector hits when an earlier request of the same
 *                block loaded it (loads through .cg never allocate, never
 *                hit); a store's sector hits when an earlier request of the
 *                block allocated it (write-allocate, stores keep a byte mask
 *                and do not make a sector valid for loads).  Order inside a
 *                block: instruction k of every warp (warp 0 first) before
 *                instruction k+1;
 *   L2 requests  loads: the distinct lines holding the sectors that missed;
 *                stores (write-through): the distinct lines of all sectors;
 *   L2 sectors   loads: the sectors that missed; stores: all sectors;
 *   DRAM         an LRU L2 of l2_bytes that allocates 128 B lines: a read of
 *                an absent sector fetches its granule (32, 64 or 128 B); a
 *                write allocates without fetching and marks the sector dirty;
 *                an evicted line writes its dirty sectors.  Dirty lines still
 *                in L2 when the kernel ends are not written during it.
 *
 * Blocks run one after another in the model, so a sector that block b-1
 * touched and block b touches again is a miss in the prediction; on the GPU
 * it hits when both blocks ran on the same SM.  Those sectors bound the
 * prediction: hits in [hits, hits_max], L2 requests and sectors in
 * [.._min, ..].  Counts are doubles, exact integers.
 */
#ifndef SECTOR_FAMILIES_H
#define SECTOR_FAMILIES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sf_op { SF_LD = 0, SF_ST = 1 } sf_op;

/* What a variant's configuration list means. */
typedef enum sf_cfg { SF_CFG_NONE = 0, SF_CFG_STRIDE, SF_CFG_BATCH, SF_CFG_OFFSET } sf_cfg;

/* The load path of a patterns variant (PTX ld.global.ca / .cg / .nc). */
typedef enum sf_path { SF_PATH_CA = 0, SF_PATH_CG, SF_PATH_NC } sf_path;

/* Largest N the model takes: its L2 keeps a few bytes per 128 B line. */
#define SF_MAX_N (1ull << 28)
/* Largest work the model walks for one launch, counted before it walks:
 * warps x (requests + distinct 128 B lines) of warp 0, the busiest.  It is
 * about 0.2 us a unit on a 2020s core (the random gather at N = 1e7, 1.1e7
 * units, walks in 2.1 s), so the limit keeps one walk under a minute.  A
 * launch its family counts instead (fam_model.count) is not walked: no
 * limit.  Every launch of the bundled tables is counted (the random gather
 * by sf_count_loads, up to N = 2^28), so the limit holds only the reference
 * walk (p->walk, --walk) and the configurations no family counts (an L2
 * too small for a closed form). */
#define SF_MAX_WORK 6.7e7
#define SF_SEED_DEFAULT 12345ull
#define SF_N_DEFAULT 10000000ull

typedef struct sf_params {
    uint64_t n;             /* N: elements of each array (copy int32, patterns float) */
    unsigned wpb;           /* warps per block (blocks of 32 * wpb threads) */
    uint64_t cfg;           /* the configuration: stride, batch or offset */
    uint64_t seed;          /* patterns random: ro_perm's seed */
    uint64_t grid_blocks;   /* grid-stride copies: blocks launched; 0 = sms * blocks_per_sm
                               (their counts do not depend on it, see docs) */
    unsigned sms, blocks_per_sm;
    uint64_t n0, n1;        /* stencil: points along i0 (contiguous) and i1 */
    unsigned radius;        /* stencil: R, 1..4 */
    int lead_pad, pad_ld;   /* stencil: --lead-pad, --pad-leading-dim */
    unsigned granule_bytes; /* L2 fetch granularity: 32, 64 or 128 */
    uint64_t l2_bytes;      /* capacity of the LRU L2 */
    int walk;               /* 1: the reference walk over every warp, even where the family
                               counts by classes of blocks (fam_model.count); the golden
                               tests compare the two */
} sf_params;

/* N 1e7, WPB 4, seed 12345, 132 SMs x 16 blocks, stencil 32 x 1, R 1, no
 * padding, granule 64 B (the H100's default fetch granularity, measured:
 * l2_fetch.tsv), L2 25 MiB: one of the H100's two 25 MiB partitions
 * (cudaDevAttrL2CacheSize says 50 MiB), because data that SMs on both
 * sides read is held in both, so one partition is what all SMs share
 * (docs/sectors.md, "The DRAM model and its two parameters"). */
void sf_params_default(sf_params *p);

/* The LRU L2 the model gives a GPU whose L2 is device_l2 bytes
 * (cudaDevAttrL2CacheSize, a runs table's l2_bytes): half of it, because
 * data that SMs of both halves read is held in both, so one partition is
 * what all SMs share (docs/sectors.md, "The DRAM model and its two
 * parameters"): 25 MiB of the H100's 50, 30 of the H200's 60.  fallback
 * where device_l2 is not a whole number of bytes from 256 to 2^40 (NaN: a
 * table without it). */
uint64_t sf_model_l2_bytes(double device_l2, uint64_t fallback);

typedef struct sf_counts {
    double requests;        /* l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st} */
    double sectors;         /* l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st} */
    double lines;           /* distinct 128 B lines, summed over requests */
    double wavefronts;      /* sum of ceil(lines / 4) */
    double hits, hits_max;  /* L1 sector hits: inside blocks / also across neighbours */
    double l2_requests, l2_requests_min; /* lts__t_requests_srcunit_tex_op_{read,write} */
    double l2_sectors_merged;    /* stores: one per distinct sector per block (merged alike) */
    double l2_requests_merged;   /* the fewest: one request per line per block, as when every
                                    L1 miss (and store) to a line that a warp of the same block
                                    already sent to L2 joins that request while it is in flight
                                    (seen on the H100: lab 000's stencil figures, misaligned
                                    loads, back-to-back stores to one line) */
    double l2_requests_rev, l2_requests_wm, l2_requests_wm_rev;
                            /* loads, where the family's setup asks (sf_ctx.orders: the
                               stencil, patterns' shared-line loads): the per-request L2 requests
                               had the warps of each block issued in the three other extreme
                               orders: instruction k of the warps in descending order before
                               k + 1 (rev), or each warp all its instructions before the next,
                               warps ascending (wm) or descending (wm_rev).  l2_requests is
                               instruction k of warps 0..WPB-1 before k + 1 (sector_expect.h
                               says why the order matters and how the expectation uses them) */
    double l2_sectors, l2_sectors_min;   /* lts__t_sectors_srcunit_tex_op_{read,write} */
    double l2_sectors_grid, l2_requests_grid;
                            /* loads, where the family's setup asks (sf_ctx.grid): the fewest
                               the whole launch can send, one per distinct sector (line) any
                               block sent to L2, as if every block's misses of it had been
                               joined on their way to L2 (sector_expect.h: the L2 request
                               coalescer); 0 where not counted */
    double st_line_hits;    /* stores: sectors stored to a line an earlier store of the same
                               block stored to (the line's tag is in L1: the H100 and H200
                               count every such sector as a store hit; sector_expect.h) */
    double bytes;           /* bytes the lanes asked for (distinct per request), summed */
} sf_counts;

typedef struct sf_prediction {
    sf_counts op[2];        /* [SF_LD], [SF_ST] */
    double dram_read_sectors, dram_write_sectors;
    double dram_partial_sectors; /* of the sectors written back, those the kernel had written
                                    only in part: an L2 that reads such a sector from DRAM
                                    before writing it back (to merge, or for ECC) reads
                                    this many more */
    uint64_t items;         /* threads that do work */
    uint64_t blocks, warps; /* launched */
    unsigned sms;           /* the SMs the blocks spread over (sf_params.sms) */
    double hit_tol_frac;    /* random loads through L1: cross-block reuse in an SM's L1
                               is statistical; hits, L2 requests and sectors are judged
                               within this fraction of the L1 sectors */
    unsigned open_lines;    /* lines each warp holds partly written from its first store
                               to its last (copy's rolled batch loops: B), 0 none: the
                               L2's partial capacity against all resident warps' at once
                               (sf_open_partial_fills, sector_l2part.c) */
    double open_sectors;    /* the sectors those stores write in all */
    int has_load, has_store;
    char config[80];        /* canonical: "stride=4", "n0=32,n1=2,r=1,lead=31,ld=34", "-" */
} sf_prediction;

struct sf_ctx;
struct sf_access;
struct fam_model;   /* sector_family.h */

typedef struct sf_variant {
    const struct fam_model *model; /* its family's model (model->name: "copy") */
    const char *name;          /* ./FAMILY --kernel NAME; CUDA kernel FAMILY_NAME */
    sf_cfg cfg;
    const char *cfg_default;   /* the family's default list ("1-8,16,32,64,128"), or NULL */
    const char *rule;          /* the addresses, in one line */
    int (*gen)(const struct sf_ctx *c, uint64_t warp, unsigned k, struct sf_access *a);
    unsigned char path;        /* sf_path of the loads */
    unsigned char param;       /* a small per-variant constant (F of aosF, V of vectorV) */
} sf_variant;

/* The sector model of the family named `family` (the registry's), or NULL
 * when it has none. */
const struct fam_model *sf_model(const char *family);
/* The families whose model has variants ("copy, patterns, stencil"), or with
 * all every family with a model (readonly too), into buf (always
 * terminated); returns buf. */
const char *sf_family_list(char *buf, size_t len, int all);
/* The family's name of a variant ("copy"). */
const char *sf_family_name(const sf_variant *v);
const char *sf_cfg_name(sf_cfg c);                     /* "stride", "batch", "offset", "" */
/* The variant `variant` of the family `family`, NULL if either is unknown. */
const sf_variant *sf_find(const char *family, const char *variant);

/* 0 when sf_predict would accept v with p (cheap: no walk), else -1 and err. */
int sf_check(const sf_variant *v, const sf_params *p, char *err, size_t errlen);

/*
 * Predict one launch.  Returns 0, or -1 with a sentence in err (a parameter
 * out of range, a configuration the variant refuses, out of memory).
 * Cost: where the family counts (fam_model.count: classes of blocks that are
 * translations of each other, each walked once), a pass over the blocks that
 * does O(1) each, about 10 ms at N = 1e8; readonly's random gather
 * (sf_count_loads: every lane once, on every core) about 9 s of CPU at N = 1e8;
 * else, or with p->walk, one walk over the warps (N = 1e7 in about 2 s),
 * refused beyond SF_MAX_WORK.
 */
int sf_predict(const sf_variant *v, const sf_params *p, sf_prediction *out, char *err,
               size_t errlen);

/* ------------------------------------------------------------ lab figures */

typedef enum sf_quantity {
    SFQ_SECTORS_PER_REQ = 0, SFQ_WAVEFRONTS_PER_REQ, SFQ_L2_REQ_PER_REQ, SFQ_DRAM_PER_REQ,
    SFQ_SECTORS, SFQ_HITS, SFQ_HIT_PCT, SFQ_L2_REQ, SFQ_L1_UTIL_PCT, SFQ_DRAM_UTIL_PCT,
    SFQ_ELEMS_PER_REQ, SFQ_NQUANTITIES
} sf_quantity;

#define SF_LAB_ANY_CFG      (-1)
#define SF_LAB_MISALIGNED   (-2)   /* any offset that is not a multiple of 32 elements */

/* One figure of the background labs (shared/background/000, 001, 002, 004);
 * each family's model holds its own (fam_model.labs). */
typedef struct sf_lab {
    const char *variant;    /* exact, or a prefix ending in '*' ("spread_*") */
    int64_t cfg;            /* the configuration value, SF_LAB_ANY_CFG or SF_LAB_MISALIGNED */
    unsigned n0, n1;        /* a 2-D geometry (radius 1), or 0: none */
    signed char lead_pad, pad_ld;
    sf_op op;
    sf_quantity q;
    double value;
    const char *source;     /* "000" */
    const char *what;       /* the lab's words, short */
    const char *h100;       /* why the H100 differs, shown when the model disagrees */
} sf_lab;

const char *sf_quantity_name(sf_quantity q);            /* "sectors/request" */
/* The quantity as the model gives it for one op of a prediction. */
double sf_quantity_value(const sf_prediction *pr, sf_op op, sf_quantity q);
/* 1 when lab entry e (one of v's family's) applies to variant v with
 * parameters p (and op). */
int sf_lab_matches(const sf_lab *e, const sf_variant *v, const sf_params *p, sf_op op);
/* 1 when the model's value equals the lab's (to the lab's precision). */
int sf_lab_agrees(const sf_lab *e, double model);

/*
 * The parameters at which lab entry e speaks of variant v.  The labs profiled
 * whole warps, so a figure per request is compared at an N that fills every
 * warp (8 warps of the configuration's stride, 2^16 elements, 2^20 for the
 * random gather); a stencil total keeps its own geometry.  The memory system
 * (granule, L2, WPB, seed) and the configuration come from base (NULL: the
 * defaults and the entry's configuration).
 */
void sf_lab_params(const sf_lab *e, const sf_variant *v, const sf_params *base, sf_params *out);

/*
 * The lab figures that apply to one row (variant, parameters, op), as text:
 * lab     "sectors/request 16 [000]; wavefronts/request 1 [000]", or "-"
 * src     "000" (sources, comma-separated, each once), or "-"
 * verdict "agrees", "differs: L2 requests lab 3 [000], model 4", or "-"
 * why     the H100 reasons of the figures that differ, or ""
 * The model is evaluated at sf_lab_params.  Returns the number of figures,
 * or -1 when that prediction failed (err in why).  Buffers always terminated.
 */
int sf_lab_row(const sf_variant *v, const sf_params *p, sf_op op, char *lab, size_t lablen, char *src, size_t srclen, char *verdict, size_t vlen,
               char *why, size_t whylen);

/* ------------------------------------------------------------ ncu metrics */

/* What a metric measures, for the comparison columns. */
typedef enum sf_measure {
    SFM_TIME = 0, SFM_GRID, SFM_BLOCK, SFM_INSTRUCTIONS, SFM_REQUESTS, SFM_SECTORS,
    SFM_WAVEFRONTS, SFM_DATA_WAVEFRONTS, SFM_HITS, SFM_L2_REQUESTS, SFM_L2_SECTORS, SFM_DRAM,
    SFM_NMEASURES
} sf_measure;

typedef struct sf_metric {
    const char *name;       /* "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" */
    sf_measure m;
    int op;                 /* SF_LD, SF_ST, or -1 for the launch */
    unsigned sets;          /* SF_MSET_*: the sets it belongs to (fam_model.metrics picks) */
    int always;             /* launch attributes every ncu has (not in --query-metrics) */
    int proven;             /* in the real H100 captures of ncu 2025.3 (tests/fixtures/ncu) */
    int shown_only;         /* 1: nothing judges it and no report or doc reads its column:
                               never asked of ncu (bin/sector_model --metrics leaves it
                               out, one replay pass less), still read from a log that
                               has it (the committed captures) */
} sf_metric;

/* The metric sets: a family's model collects one or more (fam_model.metrics). */
#define SF_MSET_LOADS 1u    /* time and the load path: L1, L2 and DRAM sectors read */
#define SF_MSET_FULL 2u     /* every counter the judging reads, loads and stores */

/* The one list of the metrics scripts/ncu_profile.sh collects. */
extern const sf_metric sf_metrics[];
extern const size_t sf_nmetrics;

/* ------------------------------------------------------------ judging */

/* What Nsight Compute measured for one launch; NAN where it has no value.
 * v[m][op]: per op for the per-op measures, v[m][0] for time, grid, block. */
typedef struct sf_measured {
    double v[SFM_NMEASURES][2];
} sf_measured;

void sf_measured_clear(sf_measured *m);    /* every value NAN */

/* DRAM sectors below this are not judged: the ~100 sectors of instruction
 * and parameter fetches (lab 000) would dominate. */
#define SF_DRAM_MIN_SECTORS 8192.0
#define SF_DRAM_TOL 0.05
/* The widest bracket (max - min, beyond the measurement tolerances) that
 * still counts as a prediction in the strict judging of bin/model_check: 5 %
 * of the point prediction (issue 25). */
#define SF_BOUND_MAX_FRAC 0.05
/* What sf_judge allows a measured L1 hit or L2 count for the measurement
 * itself, each side: this fraction of the row's L1 sectors (a 256 KB L1
 * shared by 64 warps evicts a line now and then). */
#define SF_MEAS_TOL_FRAC 0.001

typedef struct sf_verdict {
    int judged[SFM_NMEASURES];  /* 1 when compared */
    int ok[SFM_NMEASURES];      /* 1 when judged and within the model's bounds */
    int agree;                  /* every judged one ok, requests and sectors among them */
    int wide[SFM_NMEASURES];    /* 1 when judged against a bracket of the model's (B2's
                                   neighbours, the random gather's reuse, partly written
                                   sectors) wider than SF_BOUND_MAX_FRAC of its point
                                   prediction: bin/model_check counts no agreement there */
    char mismatch[160];         /* "l1_sectors,l2_requests", or "-" */
    char judged_list[160];      /* the quantities judged: "l1_requests,l1_sectors,...", or "-" */
    char wide_list[160];        /* those of wide[], or "-" */
    char note[768];             /* why a quantity was not judged, the brackets used */
} sf_verdict;

/*
 * Compare one op of a launch with the prediction:
 *   requests, sectors, wavefronts     exactly;
 *   L1 hits, L2 requests, L2 sectors  inside [inside-block, with neighbours]
 *                                     widened by hit_tol_frac x sectors;
 *   DRAM                              loads within SF_DRAM_TOL when the prediction
 *                                     is at least SF_DRAM_MIN_SECTORS; stores
 *                                     never (write-back L2: see docs);
 *   grid                              launch__grid_size equals the model's blocks.
 * Instructions, data-stage wavefronts and time are shown, not judged.
 */
void sf_judge(const sf_prediction *pr, sf_op op, const sf_measured *m, sf_verdict *out);

/* The column name a measure has in the tables ("l1_sectors"). */
const char *sf_measure_column(sf_measure m);

#ifdef __cplusplus
}
#endif
#endif /* SECTOR_FAMILIES_H */
