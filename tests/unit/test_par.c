/* test_par.c - par_for runs every item exactly once, whatever the threads. */
#include <stdatomic.h>
#include <stdlib.h>
#include "check.h"
#include "par.h"

typedef struct loop { atomic_int *hits; } loop;

static void hit(void *arg, size_t i) { atomic_fetch_add(&((loop *)arg)->hits[i], 1); }

int main(void)
{
    CHECK(par_cores() >= 1 && par_cores() <= PAR_MAX_THREADS);
    const size_t counts[] = {0, 1, 2, 3, 63, 64, 65, 1000};
    const unsigned threads[] = {0, 1, 2, 7, 64, 1000};   /* 0: a thread a core; 1000: capped */
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            const size_t n = counts[c];
            loop l = {calloc(n + 1, sizeof *l.hits)};
            par_for(n, threads[t], hit, &l);
            int once = 1;
            for (size_t i = 0; i < n; i++) once &= atomic_load(&l.hits[i]) == 1;
            CHECK(once);
            CHECK_EQ_I(atomic_load(&l.hits[n]), 0);   /* nothing past the end */
            free(l.hits);
        }
    return check_report("test_par");
}
