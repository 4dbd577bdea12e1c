/*
 * test_sector_perm - sf_perm_many (the sector model's ro_perm over tables)
 * against ro_perm itself (src/lib/patterns.h, what the kernels run): every
 * index of small domains, odd and even half widths, and samples of large
 * ones (N = 1e8, 2^28 the model's largest) under several seeds, in calls of
 * 1, 7, 32, 100 and 5000 indices (several chunks and a remainder).
 */
#include "check.h"
#include "patterns.h"
#include "sector_perm.h"

#include <stdint.h>
#include <stdlib.h>

static sf_perm P;   /* 128 KiB: not on the stack */

/* Indices first, first + step, ... (count of them, each < n) both ways. */
static int differ(uint64_t n, uint64_t seed, uint64_t first, uint64_t step, uint64_t count,
                  unsigned call)
{
    sf_perm_init(&P, n, seed);
    const uint32_t half = ro_perm_half_bits(n);
    int bad = 0;
    static uint64_t x[5000];
    uint64_t i = 0;
    while (i < count) {
        unsigned k = 0;
        for (; k < call && i + k < count; k++)
            x[k] = (first + (i + k) * step) % n;
        sf_perm_many(&P, x, k);
        for (unsigned j = 0; j < k; j++) {
            const uint64_t e = ro_perm((first + (i + j) * step) % n, n, half, seed);
            if (x[j] != e && bad++ < 3)
                fprintf(stderr, "  n %llu seed %llu: index %llu gives %llu, ro_perm %llu\n",
                        (unsigned long long)n, (unsigned long long)seed,
                        (unsigned long long)((first + (i + j) * step) % n),
                        (unsigned long long)x[j], (unsigned long long)e);
        }
        i += k;
    }
    return bad;
}

int main(void)
{
    static const uint64_t SMALL[] = {1, 2, 3, 4, 5, 15, 16, 17, 100, 1000, 4096, 65537, 100003, 1000000};
    static const unsigned CALLS[] = {1, 7, 32, 100, 5000};
    for (size_t i = 0; i < sizeof SMALL / sizeof SMALL[0]; i++)
        for (uint64_t seed = 0; seed < 3; seed++)
            CHECK_EQ_I(differ(SMALL[i], seed * 12345, 0, 1, SMALL[i], CALLS[(i + seed) % 5]), 0);
    /* the bundled N and the model's largest: a spread sample of each */
    CHECK_EQ_I(differ(100000000, 12345, 17, 99991, 200000, 32), 0);
    CHECK_EQ_I(differ(100000000, 7, 99999000, 1, 1000, 100), 0);   /* the last indices */
    CHECK_EQ_I(differ(1ull << 28, 12345, 3, 1000003, 100000, 7), 0);
    CHECK_EQ_I(differ(100000000, 99, 5, 7919, 300000, 5000), 0);   /* chunks of 2048 and a rest */
    CHECK_EQ_I(differ((1ull << 28) - 1, 42, 11, 999983, 100000, 32), 0);
    /* a domain wider than the tables (half 15): ro_perm itself */
    sf_perm_init(&P, (1ull << 28) + 1, 1);
    CHECK(!P.table);
    CHECK_EQ_I(differ((1ull << 28) + 1, 1, 5, 1234567, 1000, 32), 0);
    return check_report("test_sector_perm");
}
