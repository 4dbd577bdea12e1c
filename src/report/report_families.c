/* report_families.c - see report_families.h. */
#define _POSIX_C_SOURCE 200809L
#include "report_families.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "report_facts.h"
#include "sbuf.h"

static int pos(double v) { return isfinite(v) && v > 0; }

/* ------------------------------------------------------------ ceiling */

int rfm_ceiling_read(const tsv_table *t, rfm_ceiling *out, size_t max)
{
    if (tsv_col(t, "operation") < 0 || tsv_col(t, "bw_GBps") < 0) return -1;
    size_t n = 0;
    for (size_t r = 0; r < t->nrow && n < max; r++) {
        rfm_ceiling *c = &out[n++];
        memset(c, 0, sizeof *c);
        const char *op = tsv_get(t, r, "operation"), *cfg = tsv_get(t, r, "config");
        snprintf(c->op, sizeof c->op, "%s", op ? op : "?");
        snprintf(c->config, sizeof c->config, "%s", cfg ? cfg : "-");
        c->bw_GBps = tsv_num(t, r, "bw_GBps");
        c->pct_theoretical = tsv_num(t, r, "pct_theoretical");
        c->wpb = tsv_num(t, r, "warps_per_block");
        c->bytes_in_flight_per_sm = tsv_num(t, r, "bytes_in_flight_per_sm");
    }
    return (int)n;
}

double rfm_ceiling_of(const rfm_ceiling *c, size_t n, const char *op)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].op, op)) return c[i].bw_GBps;
    return NAN;
}

int rfm_ceiling_note(const rfm_ceiling *c, size_t n, double peak, double lat_ns, char *buf, size_t len)
{
    size_t r = n;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].op, "read")) r = i;
    if (r == n || !isfinite(c[r].bw_GBps)) return sb_nothing(buf, len);
    char b1[32];
    sb s;
    sb_init(&s, buf, len);
    const double pct = pos(peak) ? 100 * c[r].bw_GBps / peak : c[r].pct_theoretical;
    sb_add(&s, "The best read reaches %.1f GB/s", c[r].bw_GBps);
    if (isfinite(pct)) sb_add(&s, ", %.1f%% of the theoretical peak", pct);
    if (pos(peak)) sb_add(&s, " of %.0f GB/s", peak);
    sb_add(&s, " (%s)", c[r].config);
    if (pos(c[r].bytes_in_flight_per_sm))
        sb_add(&s, ", with %s in flight per SM", rf_fmt_bytes(c[r].bytes_in_flight_per_sm, b1, sizeof b1));
    if (pos(lat_ns)) sb_add(&s, " at the ladder's %.1f ns DRAM latency", lat_ns);
    const char *sep = "; ";
    for (size_t i = 0; i < n; i++) {
        if (i == r || !isfinite(c[i].bw_GBps)) continue;
        sb_add(&s, "%s%s %.1f GB/s", sep, strcmp(c[i].op, "memcpy") ? c[i].op : "cudaMemcpy", c[i].bw_GBps);
        if (pos(peak)) sb_add(&s, " (%.1f%%)", 100 * c[i].bw_GBps / peak);
        sep = ", ";
    }
    sb_add(&s, ".");
    return sb_done(&s);
}
