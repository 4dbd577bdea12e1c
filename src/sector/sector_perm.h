/*
 * sector_perm.h - ro_perm (src/lib/patterns.h), the kernels' pseudo-random
 * permutation, for many indices at once: the same values, several times
 * faster on a CPU.  The sector model's readonly random_access asks it once
 * per lane, 1e8 times at N = 1e8, where ro_perm one index at a time takes
 * about 6 s on a 2020s core: its 4 Feistel rounds of a 64-bit hash each, run
 * about 2.7 times per index (cycle walking over values >= N), wait on each
 * other and on a branch that is taken at random.
 *
 * Here each round's function, a hash of the right half masked to half
 * bits, is a table of 2^half entries (half <= 14 for N <= 2^28, the model's
 * largest: 4 tables of 32 KiB), and the indices of one call are walked
 * together, round by round (one table at a time, so that it stays in L1),
 * the ones still >= N packed and walked again: no index waits for another.
 * Wider domains (half > 14) fall back to ro_perm.
 */
#ifndef WARPLAT_SECTOR_PERM_H
#define WARPLAT_SECTOR_PERM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SF_PERM_TABLE_BITS 14u

typedef struct sf_perm {
    uint64_t n, seed;
    uint32_t half;        /* ro_perm_half_bits(n) */
    int table;            /* 1: f holds the rounds (half <= SF_PERM_TABLE_BITS) */
    uint16_t f[4][1u << SF_PERM_TABLE_BITS];
} sf_perm;

/* The permutation of [0, n) that seed chooses (n >= 1). */
void sf_perm_init(sf_perm *P, uint64_t n, uint64_t seed);

/* x[i] = ro_perm(x[i], n, half, seed) for i < k, each x[i] < n. */
void sf_perm_many(const sf_perm *P, uint64_t *x, unsigned k);

#ifdef __cplusplus
}
#endif
#endif /* WARPLAT_SECTOR_PERM_H */
