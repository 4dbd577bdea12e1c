/* fuzz_timeline - the choice of warps plot_warps draws (lib/timeline.c):
 * the first bytes pick the SM list, the region and the cap, the rest are
 * warp records (32 bytes each), added in two chunks as a log reader would. */
#include "fuzz_common.h"
#include "timeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    int sms[TIMELINE_MAX_SMS];
    const int nsms = data[0] % 6; /* 0: the first SMs met */
    for (int k = 0; k < nsms; k++) sms[k] = k * 7 + data[1]; /* distinct */
    const int region = data[2] % 3 == 0 ? -1 : data[2] % 4;
    const uint64_t max_warps = 1 + data[3] % 64;
    data += 4, size -= 4;
    const long n = (long)(size / sizeof(warp_record));
    warp_record *recs = malloc((size_t)n * sizeof *recs + 1);
    if (!recs) return 0;
    memcpy(recs, data, (size_t)n * sizeof *recs);
    timeline *t = timeline_new(sms, nsms, region, max_warps);
    if (t) {
        if (timeline_add(t, recs, n / 2) == 0 && timeline_add(t, recs + n / 2, n - n / 2) == 0) {
            timeline_sort(t);
            if (t->n > max_warps || t->nsms > TIMELINE_MAX_SMS) abort();
            for (size_t i = 0; i < t->n; i++) {
                const timeline_warp *w = &t->w[i];
                if (w->sm_rank >= t->nsms || w->start_clk < t->min_start[w->sm_rank]) abort();
                if (i && w->sm_rank < t->w[i - 1].sm_rank) abort(); /* sorted by SM */
            }
        }
        timeline_free(t);
    }
    free(recs);
    return 0;
}
