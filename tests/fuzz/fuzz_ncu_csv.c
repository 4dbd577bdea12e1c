/* fuzz_ncu_csv - the Nsight Compute CSV reader and what ncu_extract asks of
 * the table. */
#include "fuzz_common.h"
#include "ncu_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ncu_table t;
    char err[512];
    if (ncu_table_parse((const char *)data, size, &t, err, sizeof err) != NCU_OK) return 0;
    for (size_t l = 0; l < t.nlaunches; l++) {
        fprintf(fuzz_sink(), "%s\t%ld", t.launches[l].kernel, t.launches[l].id);
        for (size_t k = 0; k < t.nvalues && k < 8; k++) {
            const ncu_value *v = ncu_table_find(&t, l, t.values[k].metric);
            if (v && v->has_value) fprintf(fuzz_sink(), "\t%.15g", v->value * ncu_unit_factor(v->unit));
        }
    }
    for (size_t k = 0; k < t.nvalues && k < 8; k++) ncu_table_has_metric(&t, t.values[k].metric);
    ncu_table_has_metric(&t, "dram__sectors_read.sum");
    ncu_table_free(&t);
    return 0;
}
