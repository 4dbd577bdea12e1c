/* fuzz_sweep - the occupancy-sweep table reader. */
#include "fuzz_common.h"
#include "sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fuzz_stream(data, size);
    if (!f) return 0;
    sweep s;
    char err[512];
    if (sweep_parse(f, "fuzz.tsv", &s, err, sizeof err) == 0) {
        sweep_meta_num(&s, "sm_count");
        sweep_meta_num(&s, "peak_dram_GBps");
        sweep_meta_get(&s, "kernel");
        sweep_has_column(&s, "bw_GBps");
        for (size_t i = 0; i < s.npoints; i++)
            fprintf(fuzz_sink(), "%g %g %s\n", s.points[i].warps_per_sm, s.points[i].bw_GBps,
                    s.points[i].log);
        sweep_free(&s);
    }
    fclose(f);
    return 0;
}
