/*
 * timeline.h - the warps a per-warp timeline draws (bin/plot_warps): the
 * records of the chosen SMs (or of the first ones met), of one region or
 * all, up to a cap, sorted by SM, then start, block and warp.
 *
 *   timeline *t = timeline_new(sms, nsms, region, max_warps);
 *   while (chunks) timeline_add(t, recs, n);   (stops taking at the cap)
 *   timeline_sort(t); ... t->w[0 .. t->n) ...; timeline_free(t);
 */
#ifndef WARPLAT_TIMELINE_H
#define WARPLAT_TIMELINE_H
#include <stddef.h>
#include <stdint.h>

#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TIMELINE_MAX_SMS 64     /* SMs one chart tells apart */
#define TIMELINE_DEFAULT_SMS 4  /* without a list: the first 4 SMs met */

typedef struct timeline_warp {
    uint64_t start_clk;
    uint64_t lat_cycles;
    uint32_t block;
    uint16_t warp;
    uint16_t sm_rank; /* position of the SM in sms[] */
} timeline_warp;

typedef struct timeline {
    int sms[TIMELINE_MAX_SMS];              /* SM ids, in colour order */
    int nsms;
    int sms_given;                          /* the list was given: no SM is added */
    int region;                             /* region index, or -1: all */
    uint64_t max_warps;                     /* take at most this many */
    timeline_warp *w;                       /* the warps taken */
    size_t n, cap;
    uint64_t min_start[TIMELINE_MAX_SMS];   /* the earliest start per SM (x origin) */
    uint64_t count_sm[TIMELINE_MAX_SMS];    /* warps taken per SM */
    uint64_t bad;                           /* records with end_clk < start_clk, left out */
    int truncated;                          /* the cap was reached */
    uint16_t rank_of[UINT16_MAX + 1];       /* smid -> rank + 1, 0: not shown */
} timeline;

/* sms: nsms distinct SM ids (nsms 0: the first TIMELINE_DEFAULT_SMS met).
 * NULL when out of memory or nsms is above TIMELINE_MAX_SMS. */
timeline *timeline_new(const int *sms, int nsms, int region, uint64_t max_warps);

/* Take the wanted records of recs[0 .. n).  0, or -1 when out of memory. */
int timeline_add(timeline *t, const warp_record *recs, long n);

/* Order the warps by SM rank, then start cycle, block and warp. */
void timeline_sort(timeline *t);

void timeline_free(timeline *t);

#ifdef __cplusplus
}
#endif
#endif
