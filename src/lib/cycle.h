/*
 * cycle.h - a pseudo-random cycle through n items, for the latency ladder's
 * pointer chase (src/ladder/).
 *
 * The k-th item of the cycle is the readonly family's keyed permutation of
 * k (patterns.h: ro_perm, a 4-round Feistel network over the smallest even
 * number of bits that holds n, walked again while its value is n or more).
 * Each item is computed on its own, so the successor table, the chase's
 * start and the item the chase must end on come without the sequential
 * Fisher-Yates shuffle, which took most of the ladder's 16 s on the H100's
 * host (211 M random swaps over 81 sizes up to 4 GiB).
 *
 * Not a cryptographic permutation: random enough that the chase's next line
 * cannot be guessed by a prefetcher.
 */
#ifndef CYCLE_H
#define CYCLE_H

#include <stdint.h>

typedef struct cycle {
    uint64_t n;          /* items, 1 .. 2^32 */
    uint32_t half_bits;  /* the Feistel halves' width (ro_perm_half_bits) */
    uint64_t seed;
} cycle;

/* The cycle of n items (1 <= n <= 2^32) for seed. */
void cycle_init(cycle *c, uint64_t n, uint64_t seed);

/* The item at position k (k < n) of the cycle. */
uint32_t cycle_at(const cycle *c, uint64_t k);

/* succ[cycle_at(c, k)] = cycle_at(c, k + 1 mod n) for k in [lo, hi): the
 * successor table, a range at a time (ranges may run on threads of their
 * own: each writes distinct entries). */
void cycle_succ_range(const cycle *c, uint32_t *succ, uint64_t lo, uint64_t hi);

#endif
