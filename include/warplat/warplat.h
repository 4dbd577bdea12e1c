/*
 * warplat.h - probe your own CUDA kernel: the host side (plain C).
 *
 * Data flows as in the rest of warplat:
 *
 *   your kernel (warplat.cuh: warplat_begin/warplat_end around a region)
 *     --(16-byte probe per sampled warp and region, lane 0's single store)-->
 *   warplat_time (copies the probes of the last probed launch back)
 *     --(warplat_close: the project's log writer, one gzip stream)--> LOG.bin
 *     --> bin/warplog, bin/latency_stats, bin/plot_warps, bin/verdict
 *
 * A session:
 *
 *   warplat_options o;
 *   warplat_options_init(&o);                 // defaults: device 0, K auto
 *   o.kernel = "spmv";
 *   o.blocks = grid; o.threads_per_block = 256;
 *   warplat_region(&o, "gather", 0);          // region 0, bytes per warp unknown
 *   warplat *w;
 *   char err[512];
 *   int rc = warplat_open(&w, "spmv.bin", &o, err, sizeof err);
 *   if (rc) { fprintf(stderr, "%s\n", err); return 1; }
 *   rc = warplat_time(w, launch_clean, launch_probed, &args, 20);
 *   ...
 *   rc = warplat_close(w, err, sizeof err);   // writes spmv.bin, frees w
 *
 * launch_clean and launch_probed are yours: each launches your kernel once
 * (on the default stream) and returns the cudaError_t of the launch as an
 * int.  launch_probed passes the device view it is given (a warplat_dev,
 * by value) to the kernel, whose regions record through it; launch_clean
 * launches the same kernel without probes (warplat.cuh: pass warplat_off()).
 *
 * Errors: every function returns 0 or a WARPLAT_E* code; warplat_strerror
 * turns a code into a sentence, and warplat_error(w) gives the sentence of
 * the handle's last failure with the details (which CUDA call, which
 * option).  Nothing here exits or prints, and two handles are independent
 * (the CUDA runtime's current device aside, which warplat_open sets to
 * o->device).  The one shared state is the table of open handles, guarded by
 * a mutex, so that a second warplat_close of a handle is refused, not a
 * double free.
 *
 * Units are in the names: _ms milliseconds, _pct percent, _bytes bytes.
 */
#ifndef WARPLAT_H
#define WARPLAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WARPLAT_VERSION_STRING "0.1.0"
#define WARPLAT_MAX_REGIONS 16       /* named regions in one kernel */
#define WARPLAT_REGION_NAME_MAX 15   /* characters of a region name */

/*
 * What the kernel gets: where lane 0 of a sampled warp stores its probes,
 * and which blocks are sampled.  Pass it by value as a kernel argument.
 * A block records when ((block ^ offset) & mask) == 0: one block in
 * K = mask + 1 (warplog.h, warplog_block_sampled).  probes == NULL: record
 * nothing (the clean launch's view).
 */
typedef struct warplat_dev {
    uint32_t *probes;     /* 4 words per (sampled warp, region), 16-byte aligned */
    uint32_t mask;        /* K - 1 */
    uint32_t offset;      /* which block of each group of K records */
    uint32_t shift;       /* log2 K */
    uint32_t nregions;    /* regions (records per warp) */
    uint32_t blocks;      /* the grid declared (options.blocks): a block at or past
                             it records nothing, so a launch larger than declared
                             never writes past the probe buffer */
    uint32_t wpb;         /* warps per block declared (options.threads_per_block),
                             likewise for warps past it */
} warplat_dev;

/* Error codes (warplat_strerror). */
enum {
    WARPLAT_OK = 0,
    WARPLAT_EINVAL = 1,    /* an argument or option is out of range */
    WARPLAT_ENODEV = 2,    /* no CUDA device, or the one asked for does not exist */
    WARPLAT_ECUDA = 3,     /* a CUDA call failed (warplat_error says which) */
    WARPLAT_ENOMEM = 4,    /* out of host memory */
    WARPLAT_ELAUNCH = 5,   /* your launch function returned an error */
    WARPLAT_ENODATA = 6,   /* close before a successful warplat_time, or no probe written */
    WARPLAT_EIO = 7        /* the log could not be written */
};

/* The sentence for a code ("a CUDA call failed"); never NULL. */
const char *warplat_strerror(int code);

typedef struct warplat warplat;

/*
 * Options.  Fill with warplat_options_init, then set what you know.  The
 * strings are copied by warplat_open.
 */
typedef struct warplat_options {
    const char *experiment;   /* first header name field ["user"] */
    const char *kernel;       /* your kernel's name ["kernel"] */
    const char *config;       /* free text, e.g. "n=4096" [""] (31 chars) */
    int device;               /* CUDA device ordinal [0] */
    uint64_t blocks;          /* grid size (all dimensions multiplied): required */
    uint32_t threads_per_block; /* all dimensions multiplied, 32..1024: required */
    uint32_t smem_bytes;      /* dynamic shared memory per block [0] */
    const void *kernel_fn;    /* the probed kernel, for the occupancy API [NULL:
                                 blocks_per_sm is recorded as 0, unknown] */
    uint32_t sample_blocks;   /* K, a power of two; 0 = auto [0]: the sparsest K
                                 that keeps 2 recorded blocks per SM, doubled by
                                 warplat_time while the overhead exceeds
                                 max_overhead_pct */
    uint32_t sample_offset;   /* which block of each group of K [0] */
    double max_overhead_pct;  /* what K auto accepts [2] */
    double useful_bytes;      /* bytes the kernel reads [0: unknown] */
    double bytes_written;     /* bytes the kernel writes [0] */
    int zlib_level;           /* 1..9 [1] */
    uint32_t nregions;        /* set by warplat_region */
    char region_names[WARPLAT_MAX_REGIONS][WARPLAT_REGION_NAME_MAX + 1];
    uint32_t region_bytes_per_warp[WARPLAT_MAX_REGIONS];
} warplat_options;

void warplat_options_init(warplat_options *o);

/*
 * Add region number o->nregions (the id your kernel passes to warplat_end)
 * named `name` (1..15 characters of [A-Za-z0-9_.-], not starting with '.',
 * and no other region's name); bytes_per_warp is what one warp loads in one
 * pass of the region (0 unknown), used by the Little's law verdict.  0, or
 * WARPLAT_EINVAL (17th region, bad or repeated name).
 */
int warplat_region(warplat_options *o, const char *name, uint32_t bytes_per_warp);

/*
 * Check the options, select the device, allocate the probe buffer for the
 * densest K the run may use.  On success *out is a handle (free it with
 * warplat_close) and 0 is returned; else *out is NULL.  The log is written
 * to path.tmp then renamed onto path by warplat_close, so a failed run
 * leaves no half-written log.  On failure the sentence goes to err (errlen
 * bytes; err may be NULL), as there is no handle to ask.
 */
int warplat_open(warplat **out, const char *path, const warplat_options *o, char *err,
                 size_t errlen);

/* The device view for the probed launch (the K of the last warplat_time). */
warplat_dev warplat_view(const warplat *w);

/* The sentence of w's last error, with details; "" if none. */
const char *warplat_error(const warplat *w);

/* Your launcher: launch the kernel once with dev; return its cudaError_t. */
typedef int (*warplat_launch_fn)(void *user, warplat_dev dev);

/*
 * Time your clean launch against the probed one: one warm-up each, then
 * reps pairs (clean, probed, clean, probed, ...) each between two CUDA
 * events on the default stream, so both medians see the same clocks and
 * temperature.  overhead_pct = 100 * (probed median / clean median - 1).
 * With K auto, K doubles while the overhead exceeds max_overhead_pct and
 * the grid still has two groups of K.  The probes of the last probed launch
 * are copied back for warplat_close.  reps: 1..100000.  The clean launcher
 * gets a view with probes == NULL.
 */
int warplat_time(warplat *w, warplat_launch_fn clean, warplat_launch_fn probed, void *user,
                 unsigned reps);

/* What the last warplat_time measured (ms: medians).  NULL arguments are
 * skipped.  WARPLAT_ENODATA before a successful warplat_time. */
int warplat_result(const warplat *w, double *clean_ms, double *probed_ms, double *overhead_pct,
                   uint32_t *sample_blocks);

/*
 * Write the log (header: device facts, region names, K, the launch
 * configuration, clean and probed times and the measured overhead; one
 * record per sampled warp and region that ran, see warplat.cuh) and free
 * everything.  w is invalid afterwards, whatever the result.  A NULL w, or
 * a handle already closed (or never opened), returns WARPLAT_EINVAL and
 * touches nothing: open handles are kept in a small table for this check.  Without a successful warplat_time no log is
 * written (WARPLAT_ENODATA).  To see the error sentence of a failed close,
 * pass err (errlen bytes), else NULL.
 */
int warplat_close(warplat *w, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* WARPLAT_H */
