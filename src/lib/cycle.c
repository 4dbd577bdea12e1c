/* cycle.c - a pseudo-random cycle through n items (cycle.h): the readonly
 * family's permutation (patterns.h, ro_perm) of the positions. */
#include "cycle.h"

#include "patterns.h"

void cycle_init(cycle *c, uint64_t n, uint64_t seed)
{
    c->n = n;
    c->half_bits = ro_perm_half_bits(n);
    c->seed = seed;
}

uint32_t cycle_at(const cycle *c, uint64_t k)
{
    return (uint32_t)ro_perm(k, c->n, c->half_bits, c->seed);
}

void cycle_succ_range(const cycle *c, uint32_t *succ, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) return;
    uint32_t cur = cycle_at(c, lo);
    for (uint64_t k = lo; k < hi; k++) {
        const uint32_t next = cycle_at(c, k + 1 == c->n ? 0 : k + 1);
        succ[cur] = next;
        cur = next;
    }
}
