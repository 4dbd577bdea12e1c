/*
 * chartcheck.h - what a chart would hide: drawn series that coincide, and
 * series or lines outside their axis.  The chart code runs the check over
 * what it draws and, where it finds something, says so in the chart's
 * caption (NAME.notes beside the chart, which the report appends to it)
 * rather than leave the reader to miss a line drawn under another.
 *
 * Rules (tol = 1 %):
 *   coincide   two series of the same axis whose x values are the same, at
 *              every such x |y1 - y2| <= tol x max(|y1|, |y2|) (both 0:
 *              equal); two horizontal lines within tol of each other; a
 *              series every point of which lies within tol of a line
 *   outside    a series with a point, or a line, outside its axis's range
 *              [lo, hi] (a range bound NAN: open), or within tol of the
 *              range's span from a bound it is not equal to 0 at (a line
 *              drawn on the axis itself, hidden by it)
 *
 * Plain C11, no I/O.
 */
#ifndef WARPLAT_CHARTCHECK_H
#define WARPLAT_CHARTCHECK_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CC_TOL 0.01

typedef struct cc_series {
    const char *title;
    const double *x, *y;   /* n points (a line: NULL, n 0) */
    size_t n;
    int axis2;             /* on the right axis */
    int is_line;           /* a horizontal line at y_line */
    double y_line;
} cc_series;

typedef struct cc_range {
    double lo, hi;         /* NAN: that bound is open (autoscaled) */
} cc_range;

/* The notes on n series drawn against y (left) and y2 (right), one
 * sentence each, "; "-separated, into buf ("" when none).  Returns how many
 * notes. */
int cc_check(const cc_series *s, size_t n, cc_range y, cc_range y2, char *buf, size_t len);

/* The [lo:hi] of "set yrange [lo:hi]" (axis "y") or "set y2range" in a
 * gnuplot script's text, the last one set; NAN bounds when absent or "*". */
cc_range cc_range_in(const char *script, const char *axis);

#ifdef __cplusplus
}
#endif
#endif
