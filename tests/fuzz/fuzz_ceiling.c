/* fuzz_ceiling - the ceiling tables (src/lib/ceiling.h): a table through
 * the TSV reader, the best row per operation by column name, and the
 * "k=v,k=v" configuration fields. */
#include "fuzz_common.h"
#include "ceiling.h"
#include "tsv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fuzz_stream(data, size);
    if (!f) return 0;
    tsv_table t;
    char err[512];
    if (tsv_parse(f, "fuzz.tsv", &t, err, sizeof err) == 0) {
        ceiling_best b[16];
        int n = ceiling_pick(&t, 1, b, 16, err, sizeof err);
        for (int i = 0; i < n; i++) {
            char v[16];
            ceiling_config_get(b[i].config, "w", v, sizeof v);
            ceiling_config_get(b[i].config, "wpb", v, sizeof v);
            ceiling_bytes_in_flight_per_sm(b[i].bw_GBps, 600.0, tsv_meta_num(&t, "sm_count"));
        }
        tsv_free(&t);
    }
    fclose(f);
    return 0;
}
