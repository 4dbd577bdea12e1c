/*
 * sector_sim.h - the simulator's insides, shared by sector_sim.c (the walk:
 * sf_predict, sf_check), sector_count.c (counting instead: sf_count_blocks,
 * sf_count_run) and sector_loads.c (sf_count_loads).  Not part of the
 * library's interface: sector_family.h is.
 */
#ifndef WARPLAT_SECTOR_SIM_H
#define WARPLAT_SECTOR_SIM_H

#include "sector_family.h"

#include <stddef.h>
#include <stdint.h>

/* L1: a small hash set of sectors (with flags), cleared in O(1) by a
 * generation number. */
typedef struct sset {
    uint64_t *key;
    uint32_t *gen;
    uint8_t *flag;
    size_t cap, count;
    uint32_t g;
} sset;

int sset_init(sset *s, size_t cap);   /* cap a power of 2; 0, or -1 out of memory */
void sset_free(sset *s);
void sset_clear(sset *s);
int sset_add(sset *s, uint64_t k, uint8_t f);   /* add flags f to sector k */
uint8_t *sset_find(const sset *s, uint64_t k);  /* sector k's flags, or NULL when not held */
/* a sector's flags in L1: a load's data (a hit for the next load), a store's */
enum { SF_VALID = 1, SF_STORED = 2 };

/* A doubly linked list over dense line numbers, NIL at its ends: the L2's
 * LRU and its list of partly written lines. */
#define NIL UINT32_MAX

typedef struct llist {
    uint32_t *prev, *next;
    uint32_t head, tail;
} llist;

static inline void ll_unlink(llist *l, uint32_t x)
{
    if (l->prev[x] != NIL) l->next[l->prev[x]] = l->next[x]; else l->head = l->next[x];
    if (l->next[x] != NIL) l->prev[l->next[x]] = l->prev[x]; else l->tail = l->prev[x];
}

static inline void ll_push_front(llist *l, uint32_t x)
{
    l->prev[x] = NIL;
    l->next[x] = l->head;
    if (l->head != NIL) l->prev[l->head] = x; else l->tail = x;
    l->head = x;
}

static inline void ll_push_back(llist *l, uint32_t x)
{
    l->next[x] = NIL;
    l->prev[x] = l->tail;
    if (l->tail != NIL) l->next[l->tail] = x; else l->head = x;
    l->tail = x;
}

/* L2: an LRU of 128 B lines (lru, most recent at its head). */
typedef struct l2sim {
    llist lru;
    uint8_t *vd;       /* low nibble: valid sectors; high nibble: dirty sectors */
    uint32_t *bytes;   /* per sector (4 per line): the bytes written, one bit each */
    uint8_t *res;
    uint64_t count, cap;
    unsigned gsect;    /* sectors per granule */
    double dram_read, dram_write, dram_partial;
    /* the lines holding a partly written sector the L2 never had whole,
     * least recently written last (part, inp the membership): at most pcap
     * of them stay; past that the oldest is written back, each such sector
     * filled from DRAM first (in dram_read).  sector_sim.c, l2_write, says
     * why. */
    llist part;
    uint8_t *inp;
    uint64_t pcount, pcap;
} l2sim;

int l2_init(l2sim *m, uint64_t lines, uint64_t cap_lines, unsigned granule);
void l2_free(l2sim *m);
size_t l2_plist(const l2sim *m, uint32_t *out);   /* the partly written lines, newest first */
void l2_plist_clear(l2sim *m);
void l2_plist_push_back(l2sim *m, uint32_t x);     /* rebuild: oldest last */
void l2_plist_unlink(l2sim *m, uint32_t x);
void l2_plist_written(l2sim *m, uint32_t x);       /* after a write to line x (sector_l2part.c) */
/* the lines all resident warps hold partly written at once (out->open_lines
 * each), past the partial list's capacity (sector_l2part.c says how) */
double l2_open_partial_share(double open, double cap);
double sf_open_partial_fills(const sf_params *p, const sf_prediction *out);

/* out += m x the L1 side of one block (its counts in x; sector_count.c). */
void sim_add_counts(sf_prediction *out, const sf_prediction *x, double m);

/* sf_count_loads: a block's L2 touches (the sectors of its loads that miss
 * L1, in the walk's order), recorded instead of applied: the L1 side of a
 * block never reads the L2, so the touches of every block can be found on
 * every core and the L2 run over them afterwards (sector_loads.c).  Room
 * for cap; n past cap means the bound was wrong (an error, nothing
 * written past the room). */
typedef struct tbuf {
    uint32_t *v;
    uint64_t n, cap;
} tbuf;

static inline void tbuf_put(tbuf *r, uint64_t sector)
{
    if (r->n < r->cap)
        r->v[r->n] = (uint32_t)sector;
    r->n++;
}

/* The walk's state. */
typedef struct sim {
    sf_ctx c;
    sset cur, prev;
    sset wave;          /* lines this block has asked of L2 (loads) or written (stores) */
    sset ocur;          /* orders: the block's sectors in L1 under another order of its warps */
    int orders;         /* walk each block's loads in the other orders too (l2_requests_rev ...) */
    sset grid;          /* grid_on: the sectors and lines (bit 63) the launch's loads sent to L2 */
    int grid_on;        /* count l2_sectors_grid and l2_requests_grid (sf_ctx.grid) */
    l2sim l2;
    uint64_t line_base[2];
    int cg;
    int no_l2;          /* counting: the L1 side only, no L2 of lines */
    tbuf *rec;          /* sf_count_loads: loads' L2 touches are recorded here instead of l2 */
    sf_prediction *out;
} sim;

void sim_free(sim *S);
/* Sort n <= 32 offsets in place; the count of distinct ones. */
unsigned sort_distinct(uint64_t *v, unsigned n);
/* A request's distinct sectors in order (sec, with the bytes written of
 * each in smask), how many (ns), its distinct lines (nl) and distinct
 * offsets (nu): what do_request counts.  0, or -1 with err when a lane is
 * misaligned or outside its array. */
int request_shape(const sim *S, const sf_access *a, uint64_t sec[32], uint32_t smask[32],
                  unsigned *ns, unsigned *nl, unsigned *nu, char *err, size_t errlen);
/* sf_blocks_walked's count, for a count whose walks ran on other threads
 * (sf_count_loads): this thread's becomes n. */
void sf_blocks_walked_set(uint64_t n);
/* Walk block b (sector_sim.c): its counts go to S->out. */
int walk_block(sim *S, uint64_t b, char *err, size_t errlen);
/* Block b's loads in the other orders of its warps (sector_orders.c): their
 * L2 requests to S->out's l2_requests_rev, _wm and _wm_rev.  0, or -1 with
 * err. */
int walk_orders(sim *S, uint64_t b, char *err, size_t errlen);

/* A launch counted rather than walked (sector_family.h's sf_blocks): set up
 * by sf_predict's count branch (sector_sim.c), filled by the family's count
 * hook through sf_count_blocks and sf_count_run (sector_count.c). */
struct sf_blocks {
    sim S;
    sf_prediction *out;   /* the prediction the counts go to */
    const sf_params *p;
    uint64_t lines0, lines1;
    int l2_ready;         /* the L2 of lines is allocated and walked (sf_count_run) */
    uint64_t next;        /* sf_count_run: the next block, in order */
};

#endif /* WARPLAT_SECTOR_SIM_H */
