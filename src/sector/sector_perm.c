/*
 * sector_perm.c - ro_perm for many indices at once (sector_perm.h).  Why it
 * equals ro_perm: the table holds, for every right half r, exactly the
 * round function ro_feistel computes, mix64(r ^ key) masked to half bits;
 * the rounds and the cycle walking are ro_feistel's and ro_perm's, in the
 * same order for each index (tests/unit/test_sector_perm.c compares every
 * index of small domains and samples of the large ones).
 */
#include "sector_perm.h"
#include "patterns.h"

#include <string.h>

void sf_perm_init(sf_perm *P, uint64_t n, uint64_t seed)
{
    P->n = n;
    P->seed = seed;
    P->half = ro_perm_half_bits(n);
    P->table = P->half <= SF_PERM_TABLE_BITS;
    if (!P->table)
        return;
    const uint64_t size = 1ull << P->half, mask = size - 1;
    for (uint32_t round = 0; round < 4; round++)
        for (uint64_t r = 0; r < size; r++)
            P->f[round][r] = (uint16_t)(ro_mix64(r ^ (seed + 0x632be59bd9b4e019ull * (round + 1))) & mask);
}

/* One pass of ro_feistel over the table: (l, r) -> (r, l ^ f(r)), 4 times. */
static inline uint32_t feistel_table(const sf_perm *P, uint32_t y)
{
    const uint32_t half = P->half, mask = (1u << half) - 1;
    uint32_t l = y >> half, r = y & mask;
    l ^= P->f[0][r];   /* rounds 1 and 2, the halves' names swapped instead of the values */
    r ^= P->f[1][l];
    l ^= P->f[2][r];
    r ^= P->f[3][l];
    return (l << half) | r;
}

void sf_perm_many(const sf_perm *P, uint64_t *x, unsigned k)
{
    if (!P->table) {
        for (unsigned i = 0; i < k; i++)
            x[i] = ro_perm(x[i], P->n, P->half, P->seed);
        return;
    }
    /* chunks of 64: every index once through the rounds, then again those
     * still >= n (about 63 % of them at N = 1e8, each pass), until none */
    enum { CHUNK = 64 };
    for (unsigned c0 = 0; c0 < k; c0 += CHUNK) {
        const unsigned m = k - c0 < CHUNK ? k - c0 : CHUNK;
        uint32_t y[CHUNK];
        unsigned char pend[CHUNK];
        unsigned np = 0;
        for (unsigned i = 0; i < m; i++) {
            y[i] = feistel_table(P, (uint32_t)x[c0 + i]);
            pend[np] = (unsigned char)i;
            np += y[i] >= P->n;
        }
        while (np) {
            unsigned np2 = 0;
            for (unsigned j = 0; j < np; j++) {
                const unsigned i = pend[j];
                y[i] = feistel_table(P, y[i]);
                pend[np2] = (unsigned char)i;
                np2 += y[i] >= P->n;
            }
            np = np2;
        }
        for (unsigned i = 0; i < m; i++)
            x[c0 + i] = y[i];
    }
}
