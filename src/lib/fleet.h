/*
 * fleet.h - one GPU's headline figures from its results folder, and the
 * comparison of many GPUs of one model: median, median absolute deviation
 * and the GPUs that stand out (docs/fleet.md).
 *
 * A results folder is what scripts/reference.sh writes for one GPU
 * (docs/naming.md); older folders (data/reference/h100) lack some files.
 * Every figure is read by column name, and a figure that a folder cannot
 * give is NAN with a sentence saying why, never a guess.
 *
 * The rule.  Figures are compared only among GPUs of one model (the same
 * device name): an H200 is not a slow H100.  For one figure and one model,
 * with the values of the n GPUs that have it:
 *
 *   median   the median of the values
 *   MAD      the median of |value - median| (unscaled: no 1.4826 factor)
 *   floor    max(floor_pct % of |median|, the figure's resolution)
 *   distance (value - median) / max(MAD, floor), in MADs, signed
 *   flagged  |distance| > k  (k = 3)
 *
 * The floor keeps identical GPUs apart from rounding noise: when every
 * sibling reads the same to the last digit the MAD is 0, and without a floor
 * the next run's last digit would be an infinite number of MADs away.  With
 * floor_pct = 1 a figure is never flagged for a difference below 3 % of its
 * median: one GPU's run-to-run spread of these figures is 1-2 % (the
 * min-max spread of --reps launches, the ladder's plateau medians).
 * With fewer than min_group (3) GPUs of a model no GPU is judged: of two
 * that disagree, the median cannot say which one is off.
 *
 * The second rule, for the figures marked below_rule (read bandwidth): a
 * GPU more than pct_below (5) % below its model's median is flagged
 * whatever the MAD rule says.  In a fleet whose cards spread by a few
 * percent the MAD grows with the spread, and a 6 % slow card can lie
 * within 3 MADs; sites flag a card 4-10 % slow.  Each flag says which rule
 * raised it (fleet_flag_rule): mad, pct_below_median or both.
 *
 * Plain C11 and POSIX (directory listing).
 */
#ifndef WARPLAT_FLEET_H
#define WARPLAT_FLEET_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The figures, in the order of the report. */
typedef enum fleet_figure_id {
    FLEET_DRAM_LAT_CYCLES,    /* DRAM plateau of latency_ca.tsv, SM cycles */
    FLEET_DRAM_LAT_NS,        /* the same plateau, ns */
    FLEET_L2_NEAR_LAT_CYCLES, /* the L2-near plateau (or the only L2 plateau) */
    FLEET_L2_FAR_LAT_CYCLES,  /* the L2-far plateau, where the ladder has one */
    FLEET_READ_BW_GBPS,       /* ceiling.tsv read, else the readonly float4 WPB 4 row */
    FLEET_SM_CLOCK_MHZ,       /* measured SM clock under load (readonly WPB 4 summary) */
    FLEET_OVERHEAD_MAX_PCT,   /* the largest overhead_pct of overhead.tsv */
    FLEET_NFIG
} fleet_figure_id;

typedef struct fleet_figure_def {
    const char *name;         /* "dram_lat_cycles": the figure column of fleet.tsv */
    const char *unit;         /* "cycles" */
    double resolution;        /* smallest floor of the MAD, in the unit */
    const char *what;         /* one line for the report */
    int below_rule;           /* 1: the pct_below rule applies too */
} fleet_figure_def;

extern const fleet_figure_def fleet_figures[FLEET_NFIG];

/* The figure's index by name, or -1. */
int fleet_figure_find(const char *name);

typedef struct fleet_rule {
    double k_mads;            /* flagged beyond this many MADs (default 3) */
    double floor_pct;         /* the MAD's floor, % of |median| (default 1) */
    int min_group;            /* fewest GPUs of a model to judge (default 3) */
    double pct_below;         /* below_rule figures: flagged more than this
                               * % below the median (default 5; 0: off) */
} fleet_rule;

void fleet_rule_default(fleet_rule *r);

/* One figure of one GPU. */
typedef struct fleet_fig {
    double value;             /* NAN when the folder cannot give it */
    char source[224];         /* where it came from, or why it is missing */
    /* filled by fleet_judge */
    int n;                    /* GPUs of this model that have the figure */
    double median, mad, floor;/* NAN when not judged */
    double distance_mads;     /* signed; NAN when not judged */
    double pct_from_median;   /* 100 (value - median) / |median|; NAN when not judged */
    int flagged;              /* 1, 0, or -1: not judged (see note) */
    int by_mad, by_pct;       /* which rule flagged it (both may) */
    char note[160];           /* why not judged, or "" */
} fleet_fig;

typedef struct fleet_gpu {
    char label[256];          /* the gpu column: the folder's name (or path under a root) */
    char dir[1024];           /* the folder */
    char name[128];           /* device name, "unknown" when no file says */
    char uuid[64];            /* "GPU-...", "-" when no file says */
    char name_source[64];     /* the file the name came from */
    fleet_fig fig[FLEET_NFIG];
} fleet_gpu;

/* 1 when dir looks like one GPU's results folder: it holds a device.tsv,
 * a latency ladder, ceiling.tsv, overhead.tsv or a readonly summary. */
int fleet_is_results_dir(const char *dir);

/* Read dir's figures into g (label set to label).  Returns 0, or -1 with a
 * sentence in err when dir cannot be listed or is not a results folder;
 * missing files only make figures NAN. */
int fleet_read_gpu(const char *dir, const char *label, fleet_gpu *g, char *err, size_t errlen);

/* Median of the finite values of v[0..n) (the mean of the middle two when
 * their count is even); NAN when none.  -1 on out of memory is reported as
 * NAN as well. */
double fleet_median(const double *v, size_t n);
/* Median absolute deviation of the finite values around median. */
double fleet_mad(const double *v, size_t n, double median);

/* The statistics of one figure over one group of values: fills each
 * out[i] (n, median, mad, floor, distance_mads, pct_from_median, flagged,
 * by_mad, note) for v[i].  The MAD rule only. */
void fleet_judge_values(const double *v, size_t n, double resolution, const fleet_rule *rule,
                        fleet_fig *out);

/* The percentage rule on judged values (after fleet_judge_values): each
 * out[i] more than pct_below % below its median gets by_pct and flagged
 * (pct_below <= 0: nothing). */
void fleet_judge_below(fleet_fig *out, size_t n, double pct_below);

/* Both rules as fleet_judge applies them to figure fig (fleet_figure_id). */
void fleet_judge_figure(const double *v, size_t n, int fig, const fleet_rule *rule, fleet_fig *out);

/* The rule that flagged x: "mad", "pct_below_median", "both", or "-"
 * (within, or not judged). */
const char *fleet_flag_rule(const fleet_fig *x);

/* Group gpus by device name and judge every figure within each group.
 * Returns 0, -1 when memory runs out. */
int fleet_judge(fleet_gpu *gpus, size_t n, const fleet_rule *rule);

/* Write fleet.tsv, fleet_summary.tsv and fleet_chart.tsv into outdir (which
 * must exist): each written as NAME.tmp and renamed only when all three are
 * complete.  Returns 0, or -1 with err. */
int fleet_write(const char *outdir, const fleet_gpu *gpus, size_t n, const fleet_rule *rule,
                char *err, size_t errlen);

/* Results folders under root (root itself when it is one), depth-first in
 * name order, at most max_depth levels down, skipping names that start with
 * '.' (a task's unfinished folder) and symbolic links to folders (a cycle
 * of links would be walked without end).  *dirs is an allocated array of
 * allocated paths; free with fleet_free_dirs.  Returns 0 (also with *n = 0),
 * or -1 with err when root cannot be listed or is longer than 1023
 * characters. */
int fleet_find(const char *root, int max_depth, char ***dirs, size_t *n, char *err, size_t errlen);
void fleet_free_dirs(char **dirs, size_t n);

/* The folder key of a GPU (docs/naming.md, names_gpu): gpu<ordinal>-<8 hex
 * of the UUID>-<name>; with no UUID known, gpu<ordinal>-nouuid-<name>.
 * 0, or -1 when it does not fit or the name is empty. */
int fleet_gpu_key(char *buf, size_t len, int ordinal, const char *uuid, const char *name);

/* src into dst (len bytes), "-" when empty, tabs and newlines made blanks:
 * a TSV field. */
void fleet_field_copy(char *dst, size_t len, const char *src);

#ifdef __cplusplus
}
#endif
#endif
