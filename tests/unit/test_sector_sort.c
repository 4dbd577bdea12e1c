/*
 * test_sector_sort - sort_distinct (sector_sim.c), the sector model's sort of
 * a warp's offsets through a listed sorting network: against qsort and a
 * count of distinct values, for every size 0 to 32, values with and without
 * duplicates (a few distinct ones, or spread over 2^40), in order, reversed
 * and shuffled, and every 0-1 input of 16 lanes padded with larger values
 * (the 0-1 principle on half the network's width, and all of it below).
 */
#include "check.h"
#include "sector_sim.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* 1 when sort_distinct sorts v[0..n) as qsort does and counts its distinct values. */
static int sorts(const uint64_t *v, unsigned n)
{
    uint64_t a[32], b[32];
    memcpy(a, v, n * sizeof *v);
    memcpy(b, v, n * sizeof *v);
    const unsigned d = sort_distinct(a, n);
    qsort(b, n, sizeof *b, cmp_u64);
    unsigned e = n ? 1 : 0;
    for (unsigned i = 1; i < n; i++)
        e += b[i] != b[i - 1];
    return d == e && memcmp(a, b, n * sizeof *a) == 0;
}

int main(void)
{
    uint64_t v[32];
    int bad = 0;
    for (unsigned n = 0; n <= 32; n++)
        for (int trial = 0; trial < 2000; trial++) {
            const uint64_t spread = trial % 3 == 0 ? 5 : trial % 3 == 1 ? 1ull << 40 : UINT64_MAX;
            for (unsigned i = 0; i < n; i++)
                v[i] = spread == UINT64_MAX ? next() : next() % spread;
            if (trial == 1)   /* in order */
                qsort(v, n, sizeof *v, cmp_u64);
            if (trial == 4)   /* reversed */
                for (unsigned i = 0; i < n; i++)
                    v[i] = 1000 - i;
            bad += !sorts(v, n);
        }
    CHECK_EQ_I(bad, 0);
    /* every 0-1 input of the first 16 lanes, the other 16 lanes 2 and 3 */
    bad = 0;
    for (uint32_t m = 0; m < (1u << 16); m++) {
        for (unsigned i = 0; i < 32; i++)
            v[i] = i < 16 ? (m >> i) & 1 : 2 + (i & 1);
        bad += !sorts(v, 32);
    }
    CHECK_EQ_I(bad, 0);
    return check_report("test_sector_sort");
}
