/* fuzz_tsvscale - a table copied with columns scaled, as tsv_scale does it
 * (tsvscale.h): the first byte picks the columns and --rows-from, the rest
 * is the table. */
#include "fuzz_common.h"
#include "tsvscale.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    static const char *const cols[] = {"bw_GBps", "bw_GBps,lat_cycles", "a", "a,b,c"};
    const tsvscale_spec s = {cols[data[0] % 4], (data[0] & 4) ? 0.5 : -3e7,
                             (data[0] & 8) ? "wpb" : NULL, (data[0] & 16) ? 4 : -1e300};
    FILE *in = fuzz_stream(data + 1, size - 1);
    if (!in) return 0;
    long rows = 0;
    char err[600];
    if (tsvscale_copy(in, "fuzz.tsv", fuzz_sink(), &s, &rows, err, sizeof err) != 0 && !err[0])
        abort(); /* a failure always says why */
    if (rows < 0) abort();
    fclose(in);
    return 0;
}
