/*
 * plateau.h - find the plateaus of a latency ladder (latency vs working-set
 * size) and name them L1, L2 (or L2-near / L2-far), DRAM.
 *
 * Input: points sorted by strictly increasing size, as written by ./latency
 * (columns bytes, cycles_per_load, ns_per_load).  Output: the flat runs of
 * the curve ("levels"), each with its size range and its latency (the median
 * of its points).  The points between two levels, where the working set
 * spills from one level into the next, belong to no level.
 *
 * Plain C11.  plateau_find needs O(n) scratch memory, which it allocates
 * and frees; the TSV reader returns an allocated series.
 */
#ifndef PLATEAU_H
#define PLATEAU_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct plateau_point {
    double bytes;    /* working-set size */
    double cycles;   /* latency per load, SM cycles */
    double ns;       /* latency per load, ns (0 if unknown) */
} plateau_point;

typedef struct plateau_params {
    /* A point belongs to the current run while it is within tol (relative)
     * of the run's median; two neighbouring runs whose medians are within tol
     * of each other are one level.  Default 0.08: well above the +-3 % noise
     * of a single-thread chase, well below the smallest step of a GPU memory
     * hierarchy (the H100's two L2 partitions differ by more). */
    double tol;
    /* A level has at least this many points (default 3): shorter runs are the
     * transitions between levels, or outliers. */
    int min_points;
} plateau_params;

typedef struct plateau_level {
    char   name[16];     /* see plateau_label */
    size_t first, last;  /* indices of its first and last point (inclusive) */
    size_t npoints;      /* points that form it (outliers inside it excluded) */
    double from_bytes;   /* size of the first point */
    double to_bytes;     /* size of the last point */
    double cycles;       /* median latency of its points, cycles */
    double ns;           /* median latency of its points, ns */
} plateau_level;

#define PLATEAU_MAX_LEVELS 16
/* The most points a ladder may have (./latency writes a few hundred; 64
 * points an octave over 40 octaves is 2560).  It bounds the time: finding
 * the plateaus is O(n^2) at worst. */
#define PLATEAU_MAX_POINTS 4096u

void plateau_params_default(plateau_params *p);

/*
 * Find the levels of pts[0..n).  Writes at most max_levels levels, in order
 * of size, and returns how many (0 if the curve has no flat run long enough).
 * Returns -1 with a sentence in err if the sizes are not strictly increasing,
 * a value is not a positive finite number, there are more than
 * PLATEAU_MAX_POINTS points, or memory runs out.  pp may be NULL (defaults).
 * The levels are named by plateau_label(levels, n, 0).
 */
int plateau_find(const plateau_point *pts, size_t n, const plateau_params *pp,
                 plateau_level *levels, int max_levels, char *err, size_t errlen);

/*
 * Name levels[0..n) by their order.  The first is L1 (or, when l1_bypassed,
 * i.e. the loads were ld.global.cg, the first cache level is L2), the last is
 * DRAM, and between them:
 *   cached:   3 levels: L1 L2 DRAM;   4: L1 L2-near L2-far DRAM
 *   bypassed: 2 levels: L2 DRAM;      3: L2-near L2-far DRAM
 * Any other count cannot be named from the order alone: the levels between
 * the first cache level and DRAM are called level2, level3, ... and a single
 * level is called level1.  The rule names the last level DRAM, so a sweep must
 * reach well past the L2 size for that name to be right.
 */
void plateau_label(plateau_level *levels, int n, int l1_bypassed);

/* A latency table read back from a ./latency TSV. */
typedef struct plateau_series {
    plateau_point *pts;       /* owned; free with plateau_series_free */
    size_t n;
    double sm_clock_MHz;      /* "# sm_clock_measured_MHz", 0 if absent */
    char device_name[96];     /* "# device_name", "" if absent */
    char kernel[32];          /* "# kernel" (chase_ca / chase_cg), "" if absent */
    int threads;              /* "# threads_per_block", 0 if absent */
    unsigned spacing_bytes;   /* "# spacing_bytes", 0 if absent */
} plateau_series;

/*
 * Read a ./latency TSV: '#' metadata lines, a header row naming at least the
 * columns bytes and cycles_per_load (ns_per_load optional), then one row per
 * size.  Returns 0, or -1 with a sentence in err (missing file, no header,
 * a malformed row with its line number, fewer than 1 row, sizes not
 * increasing).
 */
int plateau_read_tsv(const char *path, plateau_series *s, char *err, size_t errlen);
/* The same from an open stream; name is used in messages. */
int plateau_parse_tsv(FILE *f, const char *name, plateau_series *s, char *err, size_t errlen);
void plateau_series_free(plateau_series *s);

/* 1 if the series was measured with the L1 bypassed (kernel chase_cg). */
int plateau_series_l1_bypassed(const plateau_series *s);

/*
 * The DRAM latency of a ./latency TSV: the last level found with the default
 * parameters, which must not be the only one (a sweep that never left DRAM,
 * or never reached it, cannot tell).  Returns 0 with *cycles and *ns (the
 * medians of the DRAM plateau; ns is 0 if the table has no ns column), or -1
 * with a sentence in err.  Other tools use it as the default lower bound of a
 * load's latency.
 */
int plateau_dram_latency_from_tsv(const char *path, double *cycles, double *ns,
                                  char *err, size_t errlen);

/* The x axis of a ladder chart, log2 from xmin to xmax bytes (positive and
 * finite): tics at 2^e for e = *e0, *e0 + *step, ... up to *e1 (> *e0).
 * *step is 1 up to 16 powers of two, 2 up to 64, then doubled until at most
 * 32 steps remain (a table of absurd sizes draws a readable axis, not 2000
 * tics).  0, or -1 when a bound is not positive and finite. */
int plateau_pow2_axis(double xmin, double xmax, int *e0, int *e1, int *step);

/* "4 KiB", "64 MiB", "2 GiB" for a power of two 2^e (below 1: "1 B"; from
 * 2^70 on: "2^E B"). */
void plateau_pow2_label(char *buf, size_t len, int e);

#ifdef __cplusplus
}
#endif
#endif /* PLATEAU_H */
