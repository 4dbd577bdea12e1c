/* fuzz_tsv - the toolkit's table reader (src/lib/tsv.h), by column name. */
#include "fuzz_common.h"
#include "tsv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fuzz_stream(data, size);
    if (!f) return 0;
    tsv_table t;
    char err[512];
    if (tsv_parse(f, "fuzz.tsv", &t, err, sizeof err) == 0) {
        for (size_t r = 0; r < t.nrow && r < 64; r++)
            for (size_t c = 0; c < t.ncol && c < 16; c++) tsv_num(&t, r, t.col[c]);
        if (t.ncol) tsv_find(&t, t.col[0], "baseline", 0);
        for (size_t m = 0; m < t.nmeta && m < 16; m++) {
            tsv_meta_num(&t, t.meta_key[m]);
            tsv_meta_lead_num(&t, t.meta_key[m]);
        }
        tsv_free(&t);
    }
    fclose(f);
    return 0;
}
