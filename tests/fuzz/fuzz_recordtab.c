/* fuzz_recordtab - warp records written as text, as mklog reads its stdin
 * (recordtab.h), then written as a log and read back as an experiment's. */
#include "fuzz_common.h"
#include "recordtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fuzz_stream(data, size);
    if (!f) return 0;
    warp_record *r;
    size_t n;
    uint32_t max_block;
    char err[600];
    if (recordtab_read(f, "stdin", 4096, &r, &n, &max_block, err, sizeof err) == 0) {
        if (n > 4096) abort();
        for (size_t i = 0; i < n; i++) {
            if (r[i].block > max_block) abort();
            fprintf(fuzz_sink(), "%llu %u\n", (unsigned long long)r[i].start_clk, r[i].smid);
        }
        free(r);
    } else if (!err[0]) {
        abort(); /* a failure always says why */
    }
    fclose(f);
    return 0;
}
