/* fuzz_report_families - what the report reads from a family's comparison
 * table (src/report/report_families.h, report_facts.h): series by column name,
 * the lab figures of the lab column and its verdict, the merged lab rows
 * and their sentence, the patterns' utilization, the sectors counts, and
 * the table read as a summary (rf_kernel_read, its sentences, and as the
 * tiling's summary and Nsight Compute table at once).  The
 * first line of the input is also given to the lab parser as text. */
#include "fuzz_common.h"
#include "report_facts.h"
#include "report_families.h"
#include "../../src/families/tiling/report_math.h"
#include "tsv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size);
    char *nl = strchr(s, '\n');
    if (nl) *nl = 0;
    rfm_lab lab[8];
    rfm_lab_parse(s, nl ? nl + 1 : "", lab, 8);
    free(s);

    FILE *f = fuzz_stream(data, size);
    if (!f) return 0;
    tsv_table t;
    char err[512];
    if (tsv_parse(f, "fuzz.tsv", &t, err, sizeof err) == 0) {
        static rfm_labrow rows[16];
        size_t n = rfm_lab_rows(&t, rows, 16);
        char buf[2048];
        rfm_lab_note(rows, n, "gpu", buf, sizeof buf);
        static rfm_util_row util[16];
        rfm_patterns_util(&t, util, 16);
        const char *filters[] = {"variant=baseline", NULL};
        static rfm_series ser;
        rfm_series_get(&t, filters, "w", "bw_GBps", &ser);
        rfm_value(&t, filters, "w=1", "bw_GBps");
        for (size_t r = 0; r < t.nrow && r < 8; r++) rfm_lab_measured(&t, r, "sectors/request");
        static rf_kernel k[16];
        size_t nk = 0;
        for (; nk < t.nrow && nk < 16; nk++) rf_kernel_read(&t, nk, &k[nk]);
        rf_overhead_note(k, nk, buf, sizeof buf);
        static rfm_tiling tk[16];
        rfm_tiling_read(&t, &t, tk, 16);
        rf_sectors sec;
        if (rf_sectors_count(&t, &sec) == 0) rf_sectors_note(&sec, buf, sizeof buf);
        tsv_free(&t);
    }
    fclose(f);
    return 0;
}
