/*
 * ceiling.c - bin/ceiling: the achievable ceiling from ./ceiling's tables.
 *
 *   ceiling next TABLE
 *       per operation, the best access width, unroll and hint of TABLE, as
 *       the options of the search's second step: "read<TAB>--width 16
 *       --unroll 8 --hint 1" (memcpy has none and is left out)
 *   ceiling best [--ladder TSV] [--out FILE] TABLE...
 *       ceiling.tsv: one row per operation with its best bandwidth over every
 *       TABLE, its share of the theoretical peak, its configuration and, with
 *       the latency ladder's DRAM plateau, the bytes that must be in flight
 *       per SM to reach it (Little's law read backwards).
 *
 * Tables are read by column name (src/lib/tsv.h).  Exit: 0 ok, 1 unreadable
 * input or write error, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "cli.h"
#include "outfile.h"
#include "plateau.h"
#include "tsv.h"

/* path as written from the folder of out: the search tables and the ladder
 * sit beside ceiling.tsv, and a path relative to it stays true when the
 * folder is moved (a device's $OUT into data/reference/<gpu>/). */
static const char *beside(const char *path, const char *out)
{
    if (!out) return path;
    const char *slash = strrchr(out, '/');
    if (!slash) return path;   /* out in the working folder: paths are already from there */
    size_t d = (size_t)(slash - out) + 1;
    return strncmp(path, out, d) == 0 ? path + d : path;
}

#define PROG "ceiling"

static const char usage_text[] =
    "usage: ceiling next TABLE\n"
    "       ceiling best [--ladder TSV] [--out FILE] TABLE...\n"
    "TABLE: a summary of ./ceiling (--table).  Exit status: 0 ok, 1 failure, 2 usage.\n";

int main(int argc, char **argv)
{
    const char *ladder = NULL, *out = NULL;
    const cli_opt opts[] = {
        {"--ladder", 0, CLI_STRING, 0, 0, 0, 0, &ladder, "TSV", "latency ladder (./latency)", 0, 0},
        {"--out", 0, CLI_STRING, 0, 0, 0, 0, &out, "FILE", "write here (whole or not at all)", 0, 0},
        CLI_END,
    };
    cli_parse_result r;
    const int prc = cli_main_parse(PROG, argc, argv, opts, 64, usage_text, 0, &r);
    if (prc >= 0) return prc;
    int rc = 0;
    if (r.npos < 2) {
        fputs(usage_text, stderr);
        return 2;
    }
    const int next = !strcmp(r.pos[0], "next");
    if (!next && strcmp(r.pos[0], "best") != 0) return cli_usage_error(PROG, "unknown command '%s'", r.pos[0]);
    if (next && r.npos != 2) return cli_usage_error(PROG, "next takes one TABLE");

    const size_t nt = (size_t)r.npos - 1;
    tsv_table t[63];
    char err[512];
    for (size_t i = 0; i < nt; i++)
        if (tsv_read(r.pos[1 + i], &t[i], err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            for (size_t k = 0; k < i; k++) tsv_free(&t[k]);
            return 1;
        }
    ceiling_best b[CEILING_MAX_OPS];
    const int n = ceiling_pick(t, nt, b, CEILING_MAX_OPS, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, PROG ": %s\n", err);
        rc = 1;
        goto done;
    }
    if (next) {
        for (int i = 0; i < n; i++) {
            char w[16], u[16], h[16], p[16];
            if (!ceiling_config_get(b[i].config, "w", w, sizeof w) ||
                !ceiling_config_get(b[i].config, "u", u, sizeof u) ||
                !ceiling_config_get(b[i].config, "h", h, sizeof h) ||
                !ceiling_config_get(b[i].config, "p", p, sizeof p))
                continue;   /* memcpy */
            printf("%s\t--width %s --unroll %s --hint %s --pass %s\n", b[i].op, w, u, h, p);
        }
    } else {
        const double peak = tsv_meta_num(&t[0], "peak_dram_GBps");
        const double sms = tsv_meta_num(&t[0], "sm_count");
        double lat_cyc = NAN, lat_ns = NAN;
        if (ladder && plateau_dram_latency_from_tsv(ladder, &lat_cyc, &lat_ns, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": --ladder: %s\n", err);
            rc = 1;
            goto done;
        }
        outfile o;
        FILE *f = stdout;
        if (out && !(f = outfile_open(&o, out, "w", err, sizeof err))) {
            fprintf(stderr, PROG ": %s\n", err);
            rc = 1;
            goto done;
        }
        fprintf(f, "# the achievable DRAM bandwidth: the best configuration of each operation\n"
                   "# device_name\t%s\n# peak_dram_GBps\t%.6g\n# sm_count\t%.0f\n",
                tsv_meta(&t[0], "device_name") ? tsv_meta(&t[0], "device_name") : "?", peak, sms);
        if (ladder) fprintf(f, "# ladder\t%s\n# dram_latency_ns\t%.1f\n# dram_latency_cycles\t%.1f\n", beside(ladder, out), lat_ns, lat_cyc);
        fprintf(f, "# bytes_in_flight_per_sm\tbw_GBps x DRAM latency / SMs: what Little's law needs in flight\n");
        fprintf(f, "operation\tbw_GBps\tpct_theoretical\tconfig\tkernel_ms\twarps_per_block\tbytes_in_flight_per_sm\ttable\n");
        for (int i = 0; i < n; i++)
            fprintf(f, "%s\t%.1f\t%.1f\t%s\t%.4f\t%.0f\t%.0f\t%s\n", b[i].op, b[i].bw_GBps,
                    100.0 * b[i].bw_GBps / peak, b[i].config, b[i].kernel_ms, b[i].wpb,
                    ceiling_bytes_in_flight_per_sm(b[i].bw_GBps, lat_ns, sms), beside(b[i].table, out));
        if (out && outfile_commit(&o, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            rc = 1;
        }
    }
    if (outfile_check_stdout(PROG) != 0) rc = 1;
done:
    for (size_t k = 0; k < nt; k++) tsv_free(&t[k]);
    return rc;
}
