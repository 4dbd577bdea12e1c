/*
 * overlap.c - warps in flight per SM (overlap.h): the most timed regions of
 * one SM that overlap, swept in a window of memory independent of the log's
 * length.  Moved whole from stats.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "overlap.h"

#include <stdlib.h>
#include <string.h>

typedef struct ivl { uint64_t start, end; } ivl;

typedef struct sm_sweep {
    ivl *pend;               /* min-heap by start: intervals not yet swept */
    size_t npend, cappend;
    uint64_t *fly;           /* min-heap of ends: swept intervals still in flight */
    size_t nfly, capfly;
    uint64_t frontier;       /* start of the last interval swept */
    int swept_any;
    lat_overlap_sm res;
} sm_sweep;

struct lat_overlap {
    uint32_t nsm, window;
    sm_sweep *sm;
};

lat_overlap *lat_overlap_new(uint32_t sm_count)
{
    if (sm_count < 1 || sm_count > LAT_STATS_MAX_SMS) return NULL;
    lat_overlap *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->nsm = sm_count;
    o->window = LAT_OVERLAP_BUDGET / sm_count;
    if (o->window < 64) o->window = 64;
    o->sm = calloc(sm_count, sizeof *o->sm);
    if (!o->sm) {
        free(o);
        return NULL;
    }
    return o;
}

static void sweep_release_memory(sm_sweep *w)
{
    free(w->pend);
    free(w->fly);
    w->pend = NULL;
    w->fly = NULL;
    w->npend = w->cappend = w->nfly = w->capfly = 0;
}

void lat_overlap_free(lat_overlap *o)
{
    if (!o) return;
    for (uint32_t i = 0; i < o->nsm; i++) sweep_release_memory(&o->sm[i]);
    free(o->sm);
    free(o);
}

uint32_t lat_overlap_window(const lat_overlap *o) { return o->window; }

static int grow(void **p, size_t *cap, size_t elem)
{
    size_t n = *cap ? 2 * *cap : 64;
    void *q = realloc(*p, n * elem);
    if (!q) return -1;
    *p = q;
    *cap = n;
    return 0;
}

static void pend_push(sm_sweep *w, ivl v)
{
    size_t i = w->npend++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (w->pend[up].start <= v.start) break;
        w->pend[i] = w->pend[up];
        i = up;
    }
    w->pend[i] = v;
}

static ivl pend_pop(sm_sweep *w)
{
    ivl top = w->pend[0], last = w->pend[--w->npend];
    size_t i = 0, n = w->npend;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && w->pend[c + 1].start < w->pend[c].start) c++;
        if (w->pend[c].start >= last.start) break;
        w->pend[i] = w->pend[c];
        i = c;
    }
    if (n) w->pend[i] = last;
    return top;
}

static void fly_push(sm_sweep *w, uint64_t e)
{
    size_t i = w->nfly++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (w->fly[up] <= e) break;
        w->fly[i] = w->fly[up];
        i = up;
    }
    w->fly[i] = e;
}

static void fly_pop(sm_sweep *w)
{
    uint64_t last = w->fly[--w->nfly];
    size_t i = 0, n = w->nfly;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && w->fly[c + 1] < w->fly[c]) c++;
        if (w->fly[c] >= last) break;
        w->fly[i] = w->fly[c];
        i = c;
    }
    if (n) w->fly[i] = last;
}

/* Sweep the earliest unswept interval of w. */
static int sweep_one(sm_sweep *w, uint32_t window)
{
    ivl v = pend_pop(w);
    w->frontier = v.start;
    w->swept_any = 1;
    while (w->nfly && w->fly[0] <= v.start) fly_pop(w); /* ends first at equal cycles */
    if (w->nfly == w->capfly && grow((void **)&w->fly, &w->capfly, sizeof *w->fly) != 0) return -1;
    fly_push(w, v.end);
    if (w->nfly > w->res.max_in_flight) w->res.max_in_flight = w->nfly;
    if (w->nfly > window) {
        w->res.status = LAT_OVERLAP_TOO_MANY;
        sweep_release_memory(w);
    }
    return 0;
}

int lat_overlap_add(lat_overlap *o, const warp_record *r)
{
    sm_sweep *w = &o->sm[r->smid];
    w->res.warps++;
    if (w->res.status != LAT_OVERLAP_EXACT || r->end_clk <= r->start_clk) return 0;
    if (w->swept_any && r->start_clk < w->frontier) {
        w->res.status = LAT_OVERLAP_DISORDER;
        sweep_release_memory(w);
        return 0;
    }
    if (w->npend == w->cappend && grow((void **)&w->pend, &w->cappend, sizeof *w->pend) != 0)
        return -1;
    pend_push(w, (ivl){r->start_clk, r->end_clk});
    if (w->npend > o->window) return sweep_one(w, o->window);
    return 0;
}

int lat_overlap_finish(lat_overlap *o)
{
    for (uint32_t s = 0; s < o->nsm; s++) {
        sm_sweep *w = &o->sm[s];
        while (w->res.status == LAT_OVERLAP_EXACT && w->npend)
            if (sweep_one(w, o->window) != 0) return -1;
        sweep_release_memory(w);
    }
    return 0;
}

void lat_overlap_get(const lat_overlap *o, unsigned sm, lat_overlap_sm *out)
{
    if (sm < o->nsm) *out = o->sm[sm].res;
    else memset(out, 0, sizeof *out);
}
