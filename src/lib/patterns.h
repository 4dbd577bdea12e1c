/*
 * patterns.h - the data and index patterns of the readonly experiments, as
 * functions that the kernels (CUDA) and the CPU reference (C) share, so the
 * reference is computed independently of anything the GPU produced.
 *
 *   ro_value(i)       the value stored in a[i]: a small integer (0..1023) as a
 *                     float, so the sum of any 128 of them is exact in float
 *                     (< 2^24) and the kernels' warp sums can be compared with
 *                     the CPU's bit for bit.
 *   ro_perm(i, ...)   a pseudo-random permutation of [0, n) chosen by a seed:
 *                     a 4-round Feistel network on the smallest even number of
 *                     bits that covers n, with cycle walking for values >= n.
 *                     It is a bijection, costs a few dozen integer operations,
 *                     and lets the GPU build c[] for n = 1e8 in microseconds
 *                     instead of a sequential host shuffle.
 */
#ifndef PATTERNS_H
#define PATTERNS_H
#include <stdint.h>

#ifdef __CUDACC__
#define RO_HD __host__ __device__ __forceinline__
#else
#define RO_HD static inline
#endif

RO_HD uint64_t ro_mix64(uint64_t x)
{
    /* splitmix64 finaliser */
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

RO_HD float ro_value(uint64_t i) { return (float)(ro_mix64(i) & 1023u); }

/* Half-width in bits of the Feistel domain for n elements (domain 2^(2*half) >= n). */
RO_HD uint32_t ro_perm_half_bits(uint64_t n)
{
    uint32_t bits = 2;
    while (bits < 64 && (1ull << bits) < n) bits += 2;
    return bits / 2;
}

RO_HD uint64_t ro_feistel(uint64_t x, uint32_t half, uint64_t seed)
{
    const uint64_t mask = (1ull << half) - 1;
    uint64_t l = x >> half, r = x & mask;
    for (uint32_t round = 0; round < 4; round++) {
        uint64_t f = ro_mix64(r ^ (seed + 0x632be59bd9b4e019ull * (round + 1))) & mask;
        uint64_t nl = r;
        r = l ^ f;
        l = nl;
    }
    return (l << half) | r;
}

/* The permutation used for c[] in random_access: maps [0, n) onto itself. */
RO_HD uint64_t ro_perm(uint64_t i, uint64_t n, uint32_t half, uint64_t seed)
{
    uint64_t y = ro_feistel(i, half, seed);
    while (y >= n) y = ro_feistel(y, half, seed);
    return y;
}
#endif
