/*
 * sector_readonly.c - sector_readonly.h: the readonly family's joins of a
 * profiled run: its measured table (what bin/sector_compare MEASURED.tsv
 * judges, sector_measured.h) and its L2 fetch-granularity row.  Messages go
 * to stderr as bin/sector_compare's, the one program that calls these.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_readonly.h"
#include "sector_families.h"
#include "sector_table.h"
#include "tsv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "sector_compare"

static void num(FILE *f, double v)
{
    if (isnan(v))
        fprintf(f, "NA");
    else
        fprintf(f, "%.0f", v);
}

/* ------------------------------------------------------------ readonly from a run */

/* The readonly family's measured table (the input of the readonly mode above)
 * or its L2 fetch-granularity row, from the engine's table of the profiled
 * run and bin/ncu_extract's table: the k-th row of pattern P pairs with the
 * k-th launch of readonly_P. */
int sro_join_tables(FILE *out, const tsv_table *runs, const tsv_table *ncu, const char *runs_path,
                    const char *ncu_path, unsigned granule, int l2row, const char *limit)
{
    static const char *const order[] = { "strided", "strided_float4", "baseline", "float4",
                                         "nondiverging", "random_access" };
    static const char *const mname[5] = {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
        "dram__sectors_read.sum", "gpu__time_duration.sum" };
    int printed = 0;
    if (tsv_col(runs, "kernel") < 0 || tsv_col(runs, "n") < 0 || tsv_col(ncu, "kernel") < 0) {
        fprintf(stderr, "%s: %s needs kernel and n, %s kernel (the engine's table and "
                "bin/ncu_extract's)\n", PROG, runs_path, ncu_path);
        return 1;
    }
    const char *device = tsv_meta(runs, "device");
    if (l2row)
        fprintf(out, "# sector_compare --family readonly --l2-fetch-row: one isolated 4 B load per "
                "128 B line\n# device\t%s\n# l2_fetch_limit_bytes 0 = the driver's default; "
                "granule_bytes = 32 * dram_sectors / l2_sectors, rounded to 32, 64 or 128\n"
                "l2_fetch_limit_bytes\tn\tstride\tl2_sectors\tdram_sectors\tdram_per_l2"
                "\tgranule_bytes\n", device ? device : "-");
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++)
        for (size_t r = 0; r < runs->nrow; r++) {
            const char *pat = tsv_get(runs, r, "kernel");
            if (!sf_find("readonly", pat)) {
                fprintf(stderr, "%s: %s: row %zu: unknown readonly kernel '%s'\n", PROG, runs_path,
                        r + 1, pat);
                return 1;
            }
            if (strcmp(pat, order[o]))
                continue;
            if (l2row && strcmp(pat, "strided"))
                continue;
            size_t kth = 0, seen = 0;
            for (size_t j = 0; j < r; j++)
                kth += !strcmp(tsv_get(runs, j, "kernel"), pat);
            char want[64], have[256];
            snprintf(want, sizeof want, "readonly_%s", pat);
            long hit = -1;
            for (size_t j = 0; j < ncu->nrow && hit < 0; j++) {
                sct_base_name(tsv_get(ncu, j, "kernel"), have, sizeof have);
                if (!strcmp(have, want) && seen++ == kth)
                    hit = (long)j;
            }
            double v[5];
            for (int i = 0; i < 5; i++) {
                const int c = tsv_col(ncu, mname[i]);
                v[i] = hit >= 0 && c >= 0 ? tsv_parse_num(ncu->cell[(size_t)hit * ncu->ncol + c]) : NAN;
            }
            if (hit < 0)
                fprintf(stderr, "%s: %s has no launch %zu of %s: its row is NA\n", PROG, ncu_path,
                        kth + 1, want);
            uint64_t stride = 1;
            const char *cfg = tsv_get(runs, r, "config");
            if (strstr(pat, "strided") && sct_config_value(cfg, "stride", &stride)) {
                fprintf(stderr, "%s: %s: row %zu (%s): no stride=S in the config '%s'\n", PROG,
                        runs_path, r + 1, pat, cfg ? cfg : "");
                return 1;
            }
            const char *n = tsv_get(runs, r, "n");
            if (!printed && !l2row) {
                fprintf(out, "# sector_compare --family readonly --measured: sectors measured by "
                        "Nsight Compute (compare: bin/sector_compare FILE)\n# device\t%s\n# n\t%s\n"
                        "# wpb\t%s\n# dram_granularity_bytes\t%u\npattern\telem_bytes\tstride"
                        "\tl1_requests\tl1_sectors\tl2_sectors\tdram_sectors\ttime_ns\n",
                        device ? device : "-", n, tsv_get(runs, r, "warps_per_block")
                        ? tsv_get(runs, r, "warps_per_block") : "4", granule);
            }
            printed++;
            if (l2row) {
                const double ratio = v[2] > 0 ? v[3] / v[2] : NAN;
                const unsigned g = isnan(ratio) ? 0 : ratio > 3 ? 128 : ratio > 1.5 ? 64 : 32;
                fprintf(out, "%s\t%s\t%llu\t", limit, n, (unsigned long long)stride);
                num(out, v[2]);
                fputc('\t', out);
                num(out, v[3]);
                if (isnan(ratio))
                    fputs("\tNA\tNA\n", out);
                else
                    fprintf(out, "\t%.4f\t%u\n", ratio, g);
                continue;
            }
            fprintf(out, "%s\t%u\t%llu", pat, strstr(pat, "float4") ? 16u : 4u,
                    (unsigned long long)stride);
            for (int i = 0; i < 5; i++) {
                fputc('\t', out);
                num(out, v[i]);
            }
            fputc('\n', out);
        }
    if (!printed) {
        fprintf(stderr, "%s: %s has no readonly row%s\n", PROG, runs_path,
                l2row ? " of strided" : "");
        return 1;
    }
    return 0;
}

int sro_join(FILE *out, const char *runs_path, const char *ncu_path, unsigned granule, int l2row,
             const char *limit)
{
    char err[512];
    tsv_table runs, ncu;
    if (tsv_read(runs_path, &runs, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    if (tsv_read(ncu_path, &ncu, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        tsv_free(&runs);
        return 1;
    }
    int rc = sro_join_tables(out, &runs, &ncu, runs_path, ncu_path, granule, l2row, limit);
    tsv_free(&runs);
    tsv_free(&ncu);
    return rc;
}
