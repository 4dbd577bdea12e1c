/* fuzz_ncu_query - what `ncu --query-metrics` printed, as sector_model
 * --metrics F --ncu-query FILE and --ncu-recipe F --have FILE read it
 * (sf_query_read_stream, sf_query_has, sf_recipe_variants): every metric's
 * base name looked up, and each family's variants chosen from it. */
#include "fuzz_common.h"
#include "family.h"
#include "sector_families.h"
#include "sector_recipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fuzz_stream(data, size);
    if (!in) abort();
    char err[512];
    size_t len = 0;
    char *q = sf_query_read_stream(in, "query.txt", &len, err, sizeof err);
    fclose(in);
    if (!q) abort(); /* a memory stream under 64 MiB always reads */
    /* every byte, and a NUL after them (an empty input is fuzz_stream's one NUL) */
    if ((size ? len != size : len > 1) || q[len]) abort();
    for (size_t i = 0; i < sf_nmetrics; i++) {
        const char *name = sf_metrics[i].name, *dot = strchr(name, '.');
        const size_t blen = dot ? (size_t)(dot - name) : strlen(name);
        const int has = sf_query_has(q, name, blen);
        if (has && !strstr(q, name) && !memmem(q, len, name, blen)) abort();
    }
    static char v[8192], missing[8192], extra[8192];
    for (const fam_entry *e = fam_registry; e->name; e++) {
        if (!e->model) continue;
        const int nv = sf_recipe_variants(e->model, q, v, sizeof v, missing, sizeof missing,
                                          extra, sizeof extra, err, sizeof err);
        if (nv < 0 && !err[0]) abort();
    }
    free(q);
    return 0;
}
