/*
 * synthprobes.h - a made-up probe array shaped like a recording launch with
 * every block recorded (--sample 1): blocks handed to 132 SMs in launch
 * order, `slots` resident per SM, each warp's load 600 to 1500 cycles, each
 * SM's clock starting at its own random 32-bit value (so some wrap), the
 * global timer read before the load.  For the unit tests that compare the
 * host's fast paths with the plain ones, and tests/bench/bench_host.c.
 */
#ifndef SYNTHPROBES_H
#define SYNTHPROBES_H
#include <stdint.h>
#include <stdlib.h>
#include "warplog.h"

static inline uint64_t synth_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* n probes (n / wpb blocks of wpb warps), seed picks the clocks; NULL when
 * out of memory.  gtimer_base_ns is the global timer at the launch. */
static inline warp_probe *synth_probes(uint64_t n, uint32_t wpb, uint32_t slots, uint64_t seed,
                                uint64_t gtimer_base_ns)
{
    enum { SMS = 132 };
    warp_probe *p = malloc(n * sizeof *p);
    if (!p) return NULL;
    uint32_t base[SMS];
    uint64_t t_free[SMS][64] = {{0}};   /* per SM and slot: when it is free, cycles */
    uint64_t s = seed;
    for (int i = 0; i < SMS; i++) base[i] = (uint32_t)synth_next(&s);
    if (slots > 64) slots = 64;
    for (uint64_t i = 0; i < n; i += wpb) {
        const uint32_t b = (uint32_t)(i / wpb), sm = b % SMS, slot = (b / SMS) % slots;
        const uint64_t t0 = t_free[sm][slot] + 40 + synth_next(&s) % 60;
        uint64_t end = t0;
        for (uint32_t w = 0; w < wpb && i + w < n; w++) {
            const uint64_t st = t0 + synth_next(&s) % 30;
            const uint32_t lat = 600 + (uint32_t)(synth_next(&s) % 901);
            p[i + w].start_lo = base[sm] + (uint32_t)st;
            p[i + w].lat_smid = lat | sm << 24;
            p[i + w].gtimer_lo = (uint32_t)(gtimer_base_ns + st * 10 / 17);   /* 1.7 GHz */
            p[i + w].block = b;
            if (st + lat > end) end = st + lat;
        }
        t_free[sm][slot] = end;
    }
    return p;
}
#endif
