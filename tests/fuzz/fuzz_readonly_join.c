/* fuzz_readonly_join - the readonly family's runs table joined with
 * bin/ncu_extract's table into its measured table or its L2 fetch row
 * (sro_join_tables, sector_compare --family readonly --measured |
 * --l2-fetch-row LIMIT). */
#include "fuzz_join_common.h"
#include "sector_readonly.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tsv_table runs, ncu;
    if (fuzz_two_tables(data, size, &runs, &ncu)) return 0;
    static const char *const limits[] = {"0", "32", "64", "128"};
    const int l2row = size & 1;
    const int rc = sro_join_tables(fuzz_sink(), &runs, &ncu, "runs.tsv", "ncu.tsv",
                                   32u << (size % 3), l2row, limits[(size >> 1) % 4]);
    if (rc != 0 && rc != 1) abort();
    tsv_free(&runs);
    tsv_free(&ncu);
    return 0;
}
