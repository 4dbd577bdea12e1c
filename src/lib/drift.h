/*
 * drift.h - today's headline figures against the bundled ones of the same
 * GPU model: the report's drift table (docs/report.md).
 *
 * The figures are the fleet's (fleet.h: DRAM and L2 latency from the
 * ladder, the best read bandwidth, the SM clock under load, the largest
 * probe overhead), read from two results folders by column name.  Each has
 * a stated tolerance, relative (% of the bundled value) or absolute (in the
 * figure's unit, for the overhead: a percentage of a few points where a
 * relative rule would mean nothing):
 *
 *   dram_lat_cycles, dram_lat_ns, l2_near_lat_cycles,
 *   l2_far_lat_cycles                5 %   one plateau median; a ladder's
 *                                          plateaus move 1-2 % run to run
 *   read_bw_GBps                     5 %   the best of the ceiling search
 *                                          (a --quick search is smaller)
 *   sm_clock_MHz                     3 %   the boost clock under load
 *   overhead_max_pct                 2 points  the largest of 30 medians
 *
 * A figure that either folder cannot give is "not compared", with the
 * reason; it is never counted as within.  Plain C11.
 */
#ifndef WARPLAT_DRIFT_H
#define WARPLAT_DRIFT_H
#include <stddef.h>
#include <stdio.h>

#include "fleet.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct drift_row {
    const char *figure;       /* fleet_figures[i].name */
    const char *unit;
    double bundled, today;    /* NAN when missing */
    double diff;              /* today - bundled, in the unit */
    double diff_pct;          /* 100 * diff / bundled */
    double tol;               /* the tolerance: % when tol_relative, else the unit */
    int tol_relative;
    int verdict;              /* 1 within, 0 outside, -1 not compared */
    char note[256];           /* why not compared, or the sources */
} drift_row;

/* The tolerance of figure i (fleet_figure_id): *relative 1 for % of the
 * bundled value. */
double drift_tolerance(int i, int *relative);

/* Compare two results folders, figure by figure: rows[FLEET_NFIG].
 * Returns the number of figures outside their tolerance (0: none), or -1
 * with a sentence in err when a folder cannot be read. */
int drift_compare(const char *today_dir, const char *bundled_dir, drift_row *rows, char *err,
                  size_t errlen);

/* The folder under refroot (data/reference) whose GPU has device_name:
 * 0 with its path in out, -1 when none has (or refroot cannot be listed). */
int drift_find_bundled(const char *refroot, const char *device_name, char *out, size_t outlen);

/* The table as TSV: '#' lines naming the folders, then a header row and a
 * row per figure (figure unit bundled today diff diff_pct tolerance
 * tolerance_of verdict note; tolerance_of is pct_of_bundled or the unit).  0, or -1 when f cannot be written. */
int drift_write_tsv(FILE *f, const drift_row *rows, const char *today_dir, const char *bundled_dir);

#ifdef __cplusplus
}
#endif
#endif
