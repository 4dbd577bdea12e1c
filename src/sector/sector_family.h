/*
 * sector_family.h - what a family's sector model gives the simulator
 * (sector_families.h): `const struct fam_model fam_model_NAME`, defined in
 * src/families/NAME/model.c and registered by make (family.h).
 *
 * A family model is data and three small hooks:
 *   variants   its variants, each an address generator (sf_variant.gen)
 *              built from the family's one list (variants.h, an X-macro the
 *              kernels include too);
 *   check      the family's parameter checks (N, configuration, geometry),
 *              after the simulator's own (granule, WPB, L2);
 *   setup      for one variant and parameters: the threads that work
 *              (c->items), the threads launched (c->threads, 0: items), the
 *              arrays' sizes and the canonical configuration (out->config);
 *   lab_params the parameters at which a lab figure speaks of a variant;
 *   labs       the background labs' figures of the family;
 *   metrics    the metric sets Nsight Compute collects (SF_MSET_*);
 *   ncu        the ncu recipe: the runs scripts/ncu_profile.sh makes
 *              (bin/sector_model --ncu-recipe FAMILY prints them);
 *   count      optional: the same prediction as the walk, counted by
 *              classes of blocks: the L1 side by sf_count_blocks and the
 *              DRAM in closed form where the family can say why that is
 *              exact, or L1 and L2 together by sf_count_run.
 *
 * A generator gen(ctx, warp, k, &access) gives the k-th global-memory
 * instruction of a warp (op, array, bytes per lane, each active lane's byte
 * offset), or 0 past its last instruction.  Lanes must be naturally aligned
 * and inside their array (the simulator checks both).
 */
#ifndef WARPLAT_SECTOR_FAMILY_H
#define WARPLAT_SECTOR_FAMILY_H

#include "sector_families.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One warp-level instruction: op (SF_LD, SF_ST), array (0, 1), bytes per
 * lane, the active lanes and their byte offsets in the array. */
typedef struct sf_access {
    unsigned char op, array, bytes;
    uint32_t active;
    uint64_t off[32];
} sf_access;

/* What a generator reads: set by the simulator (v, p, n, cfg) and by the
 * family's setup hook (the rest). */
typedef struct sf_ctx {
    const sf_variant *v;
    const sf_params *p;
    uint64_t n, cfg, items;  /* cfg: 0 when the variant takes no configuration */
    uint64_t threads;        /* threads launched; 0: items */
    int blocks_floor;        /* 1: blocks = threads / block (a grid-stride grid), else rounded up */
    uint64_t grid_threads;   /* grid-stride loops */
    uint64_t vec_items;      /* vector copies: M = N / V */
    unsigned rem;            /* N mod V */
    uint32_t half;           /* ro_perm_half_bits(N) */
    uint64_t ld, lead, halo; /* a 2-D layout, in elements */
    unsigned radius;
    uint64_t array_bytes[2]; /* 4 N each unless setup says otherwise */
    int orders;              /* 1: the walk counts the loads' L2 requests in the warps'
                                other orders too (sector_orders.c), for the expected
                                count (sector_expect.h); the cg path never does */
    int grid;                /* 1: the walk also counts the distinct sectors and lines the
                                launch's loads send to L2 (sf_counts.l2_sectors_grid,
                                l2_requests_grid), for the expected count (sector_expect.h);
                                walked launches through L1 only */
} sf_ctx;

static inline void sf_acc_begin(sf_access *a, int op, int array, unsigned bytes)
{
    a->op = (unsigned char)op;
    a->array = (unsigned char)array;
    a->bytes = (unsigned char)bytes;
    a->active = 0;
}

static inline void sf_acc_lane(sf_access *a, unsigned l, uint64_t off)
{
    a->active |= 1u << l;
    a->off[l] = off;
}

/* Lanes l of warp w whose thread t < items: a loop the rules read as the
 * kernels do. */
#define SF_FOR_LANES(c, w, t, l)                                                  \
    for (unsigned l = 0; l < 32; l++)                                             \
        for (uint64_t t = 32 * (w) + l, once_ = 1; once_ && t < (c)->items; once_ = 0)

/* How a family's launch is sized. */
typedef enum sf_shape {
    SF_SHAPE_N = 0,   /* N elements (--n) */
    SF_SHAPE_2D       /* n0 x n1 points, radius, paddings (--n0 --n1 --radius ...) */
} sf_shape;

/* Where the comparison of one ncu run goes (scripts/ncu_profile.sh). */
typedef enum sf_ncu_output {
    SF_NCU_SECTORS = 0, /* its comparison is part of the sector table */
    SF_NCU_L2_FETCH,    /* its comparison is a row of l2_fetch.tsv */
    SF_NCU_POOL         /* its runs and launches are pooled into one comparison */
} sf_ncu_output;

/*
 * One ncu run of a family's recipe.  In args and kernel, "{N}" is N as the
 * script was given it (or the family's ncu_n), "{WPB}" the warps per block,
 * "{V}" the modelled variants the program has, comma-separated, and "{V|}"
 * the same joined by '|' (for the kernel regex); "{V-SUF}" and "{V|-SUF}"
 * leave out the variants whose name ends in SUF.
 */
/* Which runs of an ncu recipe a --quick report profiles (sf_ncu_run.quick). */
enum { SF_NCU_FULL = 0, SF_NCU_BOTH = 1, SF_NCU_QUICK = 2 };

/* Whether run r is in the recipe's short set (quick) or its full set. */
#define SF_NCU_IN(r, quick) ((quick) ? (r)->quick != SF_NCU_FULL : (r)->quick != SF_NCU_QUICK)

typedef struct sf_ncu_run {
    const char *run;        /* its name: the raw logs' (ncu/FAMILY_RUN.csv) */
    const char *args;       /* the program's arguments, before --reps 1 --warmup 0 */
    const char *kernel;     /* the regex of the kernels ncu profiles */
    int l2_fetch;           /* -1: the script's --l2-fetch; 0: the driver's; 32, 64, 128 */
    const char *compare;    /* bin/sector_compare's options for this run */
    sf_ncu_output output;
    int quick;              /* SF_NCU_FULL: only without --quick; SF_NCU_BOTH:
                             * also in --quick; SF_NCU_QUICK: only in --quick */
} sf_ncu_run;

/*
 * One random configuration of a variant, for bin/model_check (issue 25):
 * what the family's `draw` hook fills from the generator state *rng (use
 * sf_rand_* below, nothing else, so that a seed gives the same draw on every
 * machine).  One configuration is one line of an engine --batch-file file and one
 * variant: args is that line (positional arguments and options, e.g.
 * "1234567 0 8 --kernel stride --stride 37"), the engine's table row of it
 * carries everything bin/sector_compare needs (n, warps_per_block, config).
 * The hook fills out->p too (the same configuration as the model's
 * parameters, starting from sf_params_default); a draw the model would
 * refuse (sf_check) is drawn again by the caller.
 */
typedef struct sf_draw {
    char args[256];
    sf_params p;   /* the model's view of the same configuration (n, wpb, cfg, stencil's
                      geometry), on top of sf_params_default: what sf_check judges */
} sf_draw;

/* Of the L2's effective lines (sf_params.l2_bytes / 128), one in
 * SF_L2_PARTIAL_SHARE may hold a sector the kernel wrote only partly; past
 * that the least recently written is written back, each partial sector of
 * it read from DRAM first (sector_sim.c, l2_write, says why). */
#define SF_L2_PARTIAL_SHARE 4

/* The documented ranges of the random draws (docs/model_check.md). */
#define SF_DRAW_N_MIN 100000ull      /* N: log-uniform in [1e5, 5e7], not rounded */
#define SF_DRAW_N_MAX 50000000ull
#define SF_DRAW_WPB_MAX 32u          /* warps per block 1..32 */
#define SF_DRAW_OFFSET_MAX 63u       /* offsets 0..63 elements */
#define SF_DRAW_STRIDE_MAX 257u      /* strides 1..257 */
#define SF_DRAW_BATCH_MAX 16u        /* batches 1..16 */
#define SF_DRAW_N0_MIN 17u           /* stencil N0 17..1000, N1 1..64, radius 1..4 */
#define SF_DRAW_N0_MAX 1000u
#define SF_DRAW_N1_MAX 64u
#define SF_DRAW_RADIUS_MAX 4u

/* N for a random configuration: spread evenly over log N from SF_DRAW_N_MIN
 * to SF_DRAW_N_MAX, piecewise (each decade uniform, weighted by its share of
 * the log range), in integer arithmetic so that a seed draws the same N on
 * every machine; odd and not rounded. */
static inline uint64_t sf_draw_n(uint64_t *s);
/* Warps per block, 1..SF_DRAW_WPB_MAX. */
static inline unsigned sf_draw_wpb(uint64_t *s);

/* splitmix64: the next 64 random bits of *s. */
static inline uint64_t sf_rand_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A whole number uniform in [lo, hi] (lo <= hi). */
static inline uint64_t sf_rand_range(uint64_t *s, uint64_t lo, uint64_t hi)
{
    return lo + sf_rand_next(s) % (hi - lo + 1);
}

static inline uint64_t sf_draw_n(uint64_t *s)
{
    /* log10(5e7 / 1e5) = 2.699: the decades [1e5, 1e6) and [1e6, 1e7) take
     * 1000 parts each, [1e7, 5e7] 699 */
    const uint64_t part = sf_rand_range(s, 0, 2698);
    if (part < 1000) return sf_rand_range(s, SF_DRAW_N_MIN, 999999);
    if (part < 2000) return sf_rand_range(s, 1000000, 9999999);
    return sf_rand_range(s, 10000000, SF_DRAW_N_MAX);
}

static inline unsigned sf_draw_wpb(uint64_t *s) { return (unsigned)sf_rand_range(s, 1, SF_DRAW_WPB_MAX); }

/* The start of an SF_SHAPE_N family's draw: the model's defaults, then N and
 * WPB drawn, no configuration yet. */
void sf_draw_begin(sf_draw *out, uint64_t *rng);
/* Its command line: "N 0 WPB --kernel NAME", then " OPT CFG" when opt is
 * given (the configuration's option: "--stride"). */
void sf_draw_line(sf_draw *out, const sf_variant *v, const char *opt);

/*
 * Counting instead of walking (fam_model.count).  The simulator's L1 side
 * (requests, sectors, lines, wavefronts, bytes, hits and their brackets, the
 * L2 requests and sectors) of one block depends only on the accesses of that
 * block and of the block before it (the brackets), and is unchanged when both
 * move by the same whole number of 128 B lines in each array.  So a run of
 * blocks that are translations of each other is walked twice, not once per
 * block.
 *
 * sf_count_blocks adds to the prediction the L1 side of blocks first ..
 * first + count - 1, given (the caller's promise) that each block of the run
 * after the first is the one before it moved by the same multiple of 128 B
 * in each array: it walks block first - 1 (not counted, for the brackets),
 * first, and first + 1 (counted count - 1 times).  The L2 of lines is not
 * walked: the count hook sets the DRAM sectors itself.  0, or -1 with err.
 */
typedef struct sf_blocks sf_blocks;
int sf_count_blocks(sf_blocks *B, uint64_t first, uint64_t count, char *err, size_t errlen);
/*
 * sf_count_run walks blocks first .. first + count - 1 with the L2 of lines
 * too, in order (the runs of a launch must come one after another from
 * block 0 and cover every block; the DRAM is then the L2's), given that each
 * block of the run is the one before it moved by shift[a] bytes in array a
 * (multiples of 128).  Once the L2 is full it checks (each block, then ever
 * fewer) whether the L2 after a block is the L2 before it, moved by one
 * block: from there every
 * block adds the same counts, so the rest of the run is added, not walked,
 * and the L2 and L1 states are moved to its end.  Where the L2 never
 * settles (the run's lines all fit in it) every block is walked.  0, or -1
 * with err.
 */
int sf_count_run(sf_blocks *B, uint64_t first, uint64_t count, const uint64_t shift[2], char *err,
                 size_t errlen);
/*
 * sf_count_loads: the whole launch, when every instruction is a load (no
 * stores; through L1, or the .cg path, where every block counts as plain
 * below: nothing is in L1 to hit): the walk's prediction, DRAM included,
 * for launches too large to walk (readonly random_access at N = 1e8, whose
 * every block is different).  A block whose lines are new to it and to the
 * block before (nearly every block of a random gather) is counted from its
 * requests' sectors and lines alone; the others are walked.  Every core
 * takes part: the blocks' L2 touches are found in tasks of consecutive
 * blocks, then the walk's LRU is run over each task's touches from the lines
 * it must hold at their start, and what those lines held fixed up after
 * (sector_loads.c).  0, or -1 with err.
 */
int sf_count_loads(sf_blocks *B, char *err, size_t errlen);
/* The tasks sf_count_loads splits a launch into (0, the default: one per
 * core, par_cores), whatever the cores: the tests check that the split
 * changes nothing. */
void sf_count_loads_split(unsigned tasks);
/* The blocks the last sf_predict walked, counting ones included (the tests
 * check that a count walks few). */
uint64_t sf_blocks_walked(void);
/* 1 when sf_predict would count v with p (its family's count hook takes it,
 * p->walk is 0), 0 when it would walk or refuse. */
int sf_would_count(const sf_variant *v, const sf_params *p);

struct fam_model {
    const char *name;                /* the family: "copy" */
    const sf_variant *variants;      /* its modelled variants, in its kernels' order */
    size_t nvariants;
    sf_shape shape;
    uint64_t n_default;              /* N of bin/sector_model --family */
    int (*check)(const sf_variant *v, const sf_params *p, char *err, size_t errlen);
    int (*setup)(sf_ctx *c, const sf_variant *v, const sf_params *p, sf_prediction *out,
                 char *err, size_t errlen);
    void (*lab_params)(const sf_lab *e, const sf_variant *v, sf_params *out);
    const sf_lab *labs;
    size_t nlabs;
    unsigned metrics;                /* SF_MSET_* */
    const char *ncu_n;               /* N of the ncu runs unless --n: "1e7" */
    const sf_ncu_run *ncu;
    size_t nncu;
    /* one random configuration of variant v (bin/model_check draw); NULL:
     * the family is not checked on random configurations */
    int (*draw)(const sf_variant *v, uint64_t *rng, sf_draw *out, char *err, size_t errlen);
    /* optional: count the prediction of c (set up: items, arrays, out->blocks
     * and warps) instead of walking it, through sf_count_blocks and the
     * DRAM in closed form, equal to the walk's to the last sector.  Returns
     * 0 (counted; with B NULL: would count), 1 (not this configuration: the
     * walk predicts it), or -1 with err.  A hook uses sf_count_blocks (and
     * sets the DRAM) or sf_count_run for every block, not both, or
     * sf_count_loads once for the whole launch. */
    int (*count)(const sf_ctx *c, sf_blocks *B, sf_prediction *out, char *err, size_t errlen);
};

/* A static table and its length, for the pointer and count pairs of
 * fam_model (variants, labs, ncu):  SF_ROWS(COPY_LABS), */
#define SF_ROWS(table) (table), sizeof(table) / sizeof((table)[0])

/* The N and configuration checks of an SF_SHAPE_N family: N in 1..SF_MAX_N,
 * a stride 1..N, a batch 1..min(N, 1024), an offset 0..1024 (the kernels' limit). */
int sf_check_n_cfg(const sf_variant *v, const sf_params *p, char *err, size_t errlen);

/* The 2-D geometry checks: n0, n1 and n0 n1 in 1..SF_MAX_N, radius 1..4. */
int sf_check_2d(const sf_params *p, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* WARPLAT_SECTOR_FAMILY_H */
