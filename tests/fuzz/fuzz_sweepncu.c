/* fuzz_sweepncu - what sweep_ncu takes from an ncu log (sweepncu.h): the
 * last launch of a kernel and its two values, and the '#' lines of a sweep,
 * both from the same bytes. */
#include "fuzz_common.h"
#include "sweepncu.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ncu_table t;
    char err[600];
    if (ncu_table_parse((const char *)data, size, &t, err, sizeof err) == NCU_OK) {
        static const char *const kernels[] = {"readonly_baseline", "k", "", "copy_float4"};
        double ach, dram;
        const int rc = sweepncu_point(&t, kernels[size % 4], &ach, &dram, err, sizeof err);
        if (rc == 0 && !isfinite(ach) && !isfinite(dram)) abort(); /* 0 means a value */
        if (rc != 0 && !err[0]) abort();
        ncu_table_free(&t);
    }
    FILE *in = fuzz_stream(data, size);
    if (!in) return 0;
    if (sweepncu_preamble(in, fuzz_sink()) != 0) abort(); /* a memory stream never fails */
    fclose(in);
    return 0;
}
