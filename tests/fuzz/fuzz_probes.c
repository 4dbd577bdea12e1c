/* fuzz_probes - what the host does with the probes a launch wrote
 * (probeset.h): the bytes are the probe array, as copied back from a GPU. */
#include "fuzz_common.h"
#include "probeset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    const uint32_t wpb = 1 + data[0] % 32, rpw = 1 + data[1] % 4;
    size_t n = (size - 4) / sizeof(warp_probe);
    warp_probe *p = malloc(n * sizeof *p + 1);
    if (!p) abort();
    memcpy(p, data + 4, n * sizeof *p);
    lat_summary m;
    probeset_summary(p, n, wpb, rpw, &m, NULL, 0);
    probeset_unwritten(p, n);
    probeset_clock_MHz(p, n, 1000, data[2]);
    probeset_max_concurrency(p, n);
    free(p);
    return 0;
}
