/*
 * sector_sim.h - the simulator's insides, shared by sector_sim.c (the walk:
 * sf_predict, sf_check) and sector_count.c (counting instead: sf_count_blocks,
 * sf_count_run).  Not part of the library's interface: sector_family.h is.
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

/* L2: an LRU of 128 B lines, a doubly linked list over dense line numbers. */
#define NIL UINT32_MAX

typedef struct l2sim {
    uint32_t *prev, *next;
    uint8_t *vd;       /* low nibble: valid sectors; high nibble: dirty sectors */
    uint32_t *bytes;   /* per sector (4 per line): the bytes written, one bit each */
    uint8_t *res;
    uint32_t head, tail;
    uint64_t count, cap;
    unsigned gsect;    /* sectors per granule */
    double dram_read, dram_write, dram_partial;
} l2sim;

int l2_init(l2sim *m, uint64_t lines, uint64_t cap_lines, unsigned granule);
void l2_free(l2sim *m);
void l2_push_front(l2sim *m, uint32_t x);

/* L2 for launches of loads only (sf_count_loads): the same LRU as l2sim,
 * kept as times instead of a list.  Every touch of a line gets the next
 * time; a line is resident while its latest touch is among the cap latest
 * touches that are their lines' latest: at or after theta, the time before
 * which every such touch has been evicted (it only grows).  live marks the
 * touches that are their lines' latest; evicting the least recently used
 * line is moving theta past the next mark.  No pointers are chased: a touch
 * reads one line's entry and writes two bits. */
typedef struct tline {
    uint32_t last;     /* 1 + the time of its latest touch; 0: never touched */
    uint32_t stamp;    /* sf_count_loads: 1 + the last block that touched it */
    uint8_t valid;     /* the sectors held, while resident (cleared when it comes back) */
} tline;

typedef struct tlru {
    tline *line;
    uint64_t *live;    /* a bit per time: the touch is its line's latest */
    uint64_t t, ntimes, theta, resident, cap;
    unsigned gsect;
    double dram_read;
} tlru;

/* A load's touch of sector (sector_count.c): l2_read's counts. */
void tlru_read(tlru *m, uint64_t sector);

/* The walk's state. */
typedef struct sim {
    sf_ctx c;
    sset cur, prev;
    sset wave;          /* lines this block has asked of L2 (loads) or written (stores) */
    l2sim l2;
    uint64_t line_base[2];
    int cg;
    int no_l2;          /* counting: the L1 side only, no L2 of lines */
    tlru *tl;           /* sf_count_loads: loads go to this L2 instead of l2 */
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
