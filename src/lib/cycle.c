/* cycle.c - a pseudo-random cycle through n items (cycle.h). */
#include "cycle.h"

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void cycle_init(cycle *c, uint64_t n, uint64_t seed)
{
    c->n = n;
    unsigned bits = 2;
    while (bits < 64 && (1ull << bits) < n) bits += 2;
    c->half_bits = bits / 2;
    uint64_t s = seed;
    for (int r = 0; r < 4; r++) {
        s += 0x9e3779b97f4a7c15ull;
        c->key[r] = mix64(s);
    }
}

/* one pass of the network over the 2 half_bits-bit domain */
static uint64_t feistel(const cycle *c, uint64_t x)
{
    const unsigned h = c->half_bits;
    const uint64_t mask = (1ull << h) - 1;
    uint64_t l = x >> h, r = x & mask;
    for (int k = 0; k < 4; k++) {
        const uint64_t t = r;
        r = l ^ (mix64(r ^ c->key[k]) & mask);
        l = t;
    }
    return (l << h) | r;
}

uint32_t cycle_at(const cycle *c, uint64_t k)
{
    uint64_t x = feistel(c, k);
    while (x >= c->n) x = feistel(c, x);   /* the domain is under 4 n: few walks */
    return (uint32_t)x;
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
