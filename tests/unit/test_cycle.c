/* test_cycle.c - the ladder's pseudo-random cycle: for every n, the items are
 * a permutation of [0, n), the successor table is one cycle through all of
 * them, ranges compose, and the seed decides the order. */
#include <stdlib.h>

#include "check.h"
#include "cycle.h"

/* 1 when succ, started at cycle_at(c, 0), visits all n items once and returns */
static int one_cycle(const cycle *c, const uint32_t *succ)
{
    const uint64_t n = c->n;
    unsigned char *seen = calloc(n, 1);
    uint32_t x = cycle_at(c, 0);
    uint64_t steps = 0;
    int ok = 1;
    do {
        if (x >= n || seen[x]) { ok = 0; break; }
        seen[x] = 1;
        if (x != cycle_at(c, steps)) { ok = 0; break; }
        x = succ[x];
        steps++;
    } while (x != cycle_at(c, 0) && steps <= n);
    ok = ok && steps == n;
    free(seen);
    return ok;
}

int main(void)
{
    const uint64_t sizes[] = {1, 2, 3, 4, 5, 7, 16, 17, 1000, 4096, 65537, (1u << 20) + 3};
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        const uint64_t n = sizes[t];
        for (uint64_t seed = 1; seed <= 3; seed++) {
            cycle c;
            cycle_init(&c, n, seed);
            uint32_t *succ = malloc(n * sizeof *succ);
            /* in three ranges, as threads would */
            cycle_succ_range(&c, succ, 0, n / 3);
            cycle_succ_range(&c, succ, n / 3, 2 * n / 3);
            cycle_succ_range(&c, succ, 2 * n / 3, n);
            CHECK(one_cycle(&c, succ));
            free(succ);
        }
    }
    /* another seed, another order; the same seed, the same order */
    cycle a, b, a2;
    cycle_init(&a, 100000, 1);
    cycle_init(&b, 100000, 2);
    cycle_init(&a2, 100000, 1);
    int same = 0, differ = 0;
    for (uint64_t k = 0; k < 1000; k++) {
        same += cycle_at(&a, k) == cycle_at(&a2, k);
        differ += cycle_at(&a, k) != cycle_at(&b, k);
    }
    CHECK_EQ_U(same, 1000);
    CHECK(differ > 990);
    /* consecutive items are far apart: no stride a prefetcher could follow
     * (fewer than 1 % of steps of 16 lines or less) */
    int near = 0;
    for (uint64_t k = 0; k + 1 < 100000; k++) {
        const int64_t d = (int64_t)cycle_at(&a, k + 1) - (int64_t)cycle_at(&a, k);
        near += d >= -16 && d <= 16;
    }
    CHECK(near < 1000);
    /* the largest ladder size, 2^32 items of 1 B (the domain is 2^32 exactly) */
    cycle big;
    cycle_init(&big, 1ull << 32, 7);
    CHECK_EQ_U(big.half_bits, 16);
    CHECK(cycle_at(&big, 0) != cycle_at(&big, 1));
    return check_report("test_cycle");
}
