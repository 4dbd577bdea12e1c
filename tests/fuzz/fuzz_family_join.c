/* fuzz_family_join - a family's runs table joined with bin/ncu_extract's
 * table (sector_join.h, sector_compare --family F): the columns of each
 * measure, every row's launch and values, the launches no row claims, for
 * each family with a model.  A pairing must name a launch of the kernel it
 * wants, and the k-th of them. */
#include "fuzz_join_common.h"
#include "family.h"
#include "sector_family.h"
#include "sector_join.h"
#include "sector_table.h"

static void join(const tsv_table *runs, const tsv_table *ncu, const struct fam_model *m)
{
    int col[SFM_NMEASURES][2];
    char absent[1024], have[256];
    sj_columns(ncu, m->metrics, col, absent, sizeof absent);
    for (size_t r = 0; r < runs->nrow; r++) {
        const char *v = tsv_get(runs, r, "kernel");
        sj_pairing pa;
        sj_pair(runs, ncu, m->name, v ? v : "", r, &pa);
        if (pa.hit >= 0) {
            if ((size_t)pa.hit >= ncu->nrow || pa.failed) abort();
            const char *k = tsv_get(ncu, (size_t)pa.hit, "kernel");
            sct_base_name(k ? k : "", have, sizeof have);
            if (strcmp(have, pa.want)) abort(); /* a launch of another kernel */
        }
        if (pa.kth != (pa.twice ? 2 * pa.k + 1 : pa.k)) abort();
        sf_measured meas;
        sj_measured(ncu, col, pa.hit, &meas);
    }
    for (size_t j = 0; (j = sj_unclaimed(runs, ncu, m->name, j, have, sizeof have)) < ncu->nrow;
         j++)
        if (strncmp(have, m->name, strlen(m->name))) abort(); /* only the family's */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tsv_table runs, ncu;
    if (fuzz_two_tables(data, size, &runs, &ncu)) return 0;
    for (const fam_entry *e = fam_registry; e->name; e++)
        if (e->model) join(&runs, &ncu, e->model);
    tsv_free(&runs);
    tsv_free(&ncu);
    return 0;
}
