/* fuzz_model_check - bin/model_check judge, summary and repeat
 * (model_check.h) on any pair of tables: a comparison and a draws' table.
 * The judged table it writes must read back, every row with a known class,
 * and count without error; a class comes from any three strings; the two
 * tables taken as two runs of one batch either repeat (a table that reads
 * back) or are refused with a reason. */
#include "fuzz_join_common.h"
#include "model_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tsv_table cmp, draws;
    if (fuzz_two_tables(data, size, &cmp, &draws)) return 0;
    char *buf = NULL, err[512];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) abort();
    const int rc = mc_judge(&cmp, draws.ncol ? &draws : NULL, f, err, sizeof err);
    fclose(f);
    if (rc == 0) {
        tsv_table out;
        FILE *in = fuzz_stream((const uint8_t *)buf, len);
        if (!in) abort();
        if (tsv_parse(in, "judged.tsv", &out, err, sizeof err) != 0) abort(); /* its own output reads */
        fclose(in);
        mc_counts c;
        memset(&c, 0, sizeof c);
        if (mc_count(&out, &c, err, sizeof err) != 0) abort();          /* every class known */
        if (c.agree > c.rows) abort();
        mc_summary_row(fuzz_sink(), "all", &c);
        tsv_free(&out);
    }
    free(buf);
    tsv_table runs[2] = {cmp, draws};
    buf = NULL, len = 0;
    f = open_memstream(&buf, &len);
    if (!f) abort();
    err[0] = 0;
    const int rr = mc_repeat(runs, 2, f, err, sizeof err);
    fclose(f);
    if (rr != 0 && !err[0]) abort();                                   /* a refusal says why */
    if (rr == 0) {
        tsv_table out;
        FILE *in = fuzz_stream((const uint8_t *)buf, len);
        if (!in) abort();
        if (tsv_parse(in, "repeat.tsv", &out, err, sizeof err) != 0) abort();
        fclose(in);
        tsv_free(&out);
    }
    free(buf);
    if (cmp.nrow && cmp.ncol >= 3)
        (void)mc_class_name(mc_classify(cmp.cell[0], cmp.cell[1], cmp.cell[2]));
    tsv_free(&cmp);
    tsv_free(&draws);
    return 0;
}
