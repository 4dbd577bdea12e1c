/*
 * timeline.c - the warps of a per-warp timeline (see timeline.h).
 */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

timeline *timeline_new(const int *sms, int nsms, int region, uint64_t max_warps)
{
    if (nsms < 0 || nsms > TIMELINE_MAX_SMS) return NULL;
    timeline *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->cap = 4096;
    t->w = malloc(t->cap * sizeof *t->w);
    if (!t->w) {
        free(t);
        return NULL;
    }
    for (int k = 0; k < nsms; k++) {
        t->sms[k] = sms[k];
        t->rank_of[(uint16_t)sms[k]] = (uint16_t)(k + 1);
    }
    t->nsms = nsms;
    t->sms_given = nsms > 0;
    t->region = region;
    t->max_warps = max_warps;
    return t;
}

int timeline_add(timeline *t, const warp_record *recs, long n)
{
    for (long i = 0; i < n && !t->truncated; i++) {
        const warp_record *x = &recs[i];
        if (t->region >= 0 && x->region != t->region) continue;
        unsigned k = t->rank_of[x->smid];
        if (!k && !t->sms_given && t->nsms < TIMELINE_DEFAULT_SMS) {
            t->sms[t->nsms++] = x->smid;
            k = t->rank_of[x->smid] = (uint16_t)t->nsms;
        }
        if (!k) continue;
        if (x->end_clk < x->start_clk) {
            t->bad++;
            continue;
        }
        if (t->n == t->max_warps) {
            t->truncated = 1;
            break;
        }
        if (t->n == t->cap) {
            timeline_warp *q = realloc(t->w, 2 * t->cap * sizeof *t->w);
            if (!q) return -1;
            t->w = q;
            t->cap *= 2;
        }
        k--;
        if (!t->count_sm[k] || x->start_clk < t->min_start[k]) t->min_start[k] = x->start_clk;
        t->count_sm[k]++;
        t->w[t->n++] = (timeline_warp){x->start_clk, x->end_clk - x->start_clk, x->block, x->warp,
                                       (uint16_t)k};
    }
    return 0;
}

static int cmp_warp(const void *pa, const void *pb)
{
    const timeline_warp *a = pa, *b = pb;
    if (a->sm_rank != b->sm_rank) return a->sm_rank < b->sm_rank ? -1 : 1;
    if (a->start_clk != b->start_clk) return a->start_clk < b->start_clk ? -1 : 1;
    if (a->block != b->block) return a->block < b->block ? -1 : 1;
    return (a->warp > b->warp) - (a->warp < b->warp);
}

void timeline_sort(timeline *t)
{
    if (t->n) qsort(t->w, t->n, sizeof *t->w, cmp_warp);
}

void timeline_free(timeline *t)
{
    if (!t) return;
    free(t->w);
    free(t);
}
