/*
 * sector_join.c - sector_join.h: a family's run joined with its ncu profile.
 */
#include "sector_join.h"
#include "sector_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A field, "" when absent (a ragged or hostile table). */
static const char *field(const tsv_table *t, size_t r, const char *col)
{
    const char *s = tsv_get(t, r, col);
    return s ? s : "";
}

static int is_fail(const tsv_table *runs, size_t r)
{
    const char *v = tsv_get(runs, r, "valid");
    return v && !strcmp(v, "FAIL");
}

int sj_row_kernel(const tsv_table *runs, size_t r, const char *family, char *want, size_t len)
{
    const char *fn = tsv_get(runs, r, "kernel_fn");
    if (fn && *fn && strcmp(fn, "-") != 0)
        snprintf(want, len, "%s", fn);
    else
        snprintf(want, len, "%s_%s", family, field(runs, r, "kernel"));
    return !is_fail(runs, r);
}

/* The kernel whose launches row r of RUNS claims: its kernel_fn, else
 * FAMILY_V; 1 when it is its kernel_fn. */
static int row_want(const tsv_table *runs, size_t r, const char *family, const char *vname,
                    char *want, size_t len)
{
    const char *fn = tsv_get(runs, r, "kernel_fn");
    const int own = fn && *fn && strcmp(fn, "-") != 0;
    if (own) snprintf(want, len, "%s", fn);
    else snprintf(want, len, "%s_%s", family, vname);
    return own;
}

void sj_columns(const tsv_table *ncu, unsigned sets, int col[SFM_NMEASURES][2], char *absent,
                size_t absent_len)
{
    for (int q = 0; q < SFM_NMEASURES; q++)
        col[q][0] = col[q][1] = -1;
    if (absent_len)
        absent[0] = 0;
    for (size_t i = 0; i < sf_nmetrics; i++) {
        const sf_metric *m = &sf_metrics[i];
        if (!(m->sets & sets))
            continue;
        const int c = tsv_col(ncu, m->name), op = m->op < 0 ? 0 : m->op;
        if (c >= 0 && col[m->m][op] < 0)
            col[m->m][op] = c;
        else if (c < 0 && m->m != SFM_DATA_WAVEFRONTS && absent_len) {
            size_t u = strlen(absent);
            snprintf(absent + u, absent_len - u, "%s%s", u ? "," : "", m->name);
        }
    }
}

void sj_pair(const tsv_table *runs, const tsv_table *ncu, const char *family, const char *vname,
             size_t r, sj_pairing *pa)
{
    char have[256];
    pa->failed = is_fail(runs, r);
    const char *fn = tsv_get(runs, r, "kernel_fn");
    const int own = row_want(runs, r, family, vname, pa->want, sizeof pa->want);
    size_t k = 0, rows_v = 0, launches_v = 0;
    for (size_t j = 0; j < runs->nrow; j++) {
        const char *fj = tsv_get(runs, j, "kernel_fn");
        const int same = own ? fj && !strcmp(fj, fn) : !strcmp(field(runs, j, "kernel"), vname);
        if (!same || is_fail(runs, j)) continue;
        k += j < r;
        rows_v++;
    }
    for (size_t j = 0; j < ncu->nrow; j++) {
        sct_base_name(field(ncu, j, "kernel"), have, sizeof have);
        launches_v += !strcmp(have, pa->want);
    }
    pa->k = k;
    pa->twice = rows_v > 0 && launches_v == 2 * rows_v;
    pa->kth = pa->twice ? 2 * k + 1 : k;
    pa->hit = -1;
    size_t seen = 0;
    for (size_t j = 0; j < ncu->nrow && pa->hit < 0 && !pa->failed; j++) {
        sct_base_name(field(ncu, j, "kernel"), have, sizeof have);
        if (!strcmp(have, pa->want) && seen++ == pa->kth)
            pa->hit = (long)j;
    }
}

void sj_measured(const tsv_table *ncu, const int col[SFM_NMEASURES][2], long hit,
                 sf_measured *meas)
{
    sf_measured_clear(meas);
    if (hit < 0 || (size_t)hit >= ncu->nrow)
        return;
    for (int q = 0; q < SFM_NMEASURES; q++)
        for (int op = 0; op < 2; op++)
            if (col[q][op] >= 0 && (size_t)col[q][op] < ncu->ncol)
                meas->v[q][op] = tsv_parse_num(ncu->cell[(size_t)hit * ncu->ncol + col[q][op]]);
}

size_t sj_unclaimed(const tsv_table *runs, const tsv_table *ncu, const char *family, size_t from,
                    char *kernel, size_t len)
{
    const size_t fl = strlen(family);
    char have[256], h2[256];
    for (size_t j = from; j < ncu->nrow; j++) {
        sct_base_name(field(ncu, j, "kernel"), have, sizeof have);
        if (strncmp(have, family, fl) || have[fl] != '_')
            continue;
        size_t before = 0, rows_of = 0, all = 0;
        for (size_t i = 0; i < ncu->nrow; i++) {
            sct_base_name(field(ncu, i, "kernel"), h2, sizeof h2);
            before += i < j && !strcmp(h2, have);
            all += !strcmp(h2, have);
        }
        for (size_t i = 0; i < runs->nrow; i++) { /* the clean rows that claim have */
            row_want(runs, i, family, field(runs, i, "kernel"), h2, sizeof h2);
            rows_of += !strcmp(h2, have) && !is_fail(runs, i);
        }
        if (before == rows_of && all != 2 * rows_of) { /* the first launch beyond the rows */
            if (len)
                snprintf(kernel, len, "%s", have);
            return j;
        }
    }
    return ncu->nrow;
}
