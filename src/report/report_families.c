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

/* ------------------------------------------------------------ copy, patterns */

int rfm_stride_note(const char *what, const rfm_series *spr, const rfm_series *bw, char *buf, size_t len)
{
    if (!spr->n && !bw->n) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s:", what);
    if (spr->n >= 2) {
        double top = spr->y[0];
        for (size_t i = 1; i < spr->n; i++) top = fmax(top, spr->y[i]);
        size_t from = 0;
        while (from < spr->n && spr->y[from] < 0.99 * top) from++;
        sb_add(&s, " %.1f sectors per request at stride %.0f, %.1f (x%.1f) from stride %.0f on", spr->y[0],
               spr->x[0], spr->y[from], spr->y[from] / spr->y[0], spr->x[from]);
        sb_add(&s, bw->n >= 2 ? ";" : ".");
    }
    if (bw->n >= 2) {
        const size_t l = bw->n - 1;
        sb_add(&s, " %.1f GB/s at stride %.0f, %.1f GB/s at stride %.0f (x%.2f).", bw->y[0], bw->x[0],
               bw->y[l], bw->x[l], bw->y[l] / bw->y[0]);
    }
    return sb_done(&s);
}

int rfm_offset_note(const char *path, const rfm_series *bw, const rfm_series *util, char *buf, size_t len)
{
    if (bw->n < 2) return sb_nothing(buf, len);
    double lo = bw->y[0], hi = bw->y[0];
    for (size_t i = 1; i < bw->n; i++) { lo = fmin(lo, bw->y[i]); hi = fmax(hi, bw->y[i]); }
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s: over offsets %.0f-%.0f the bandwidth stays within %.1f-%.1f GB/s (%.1f%% apart)", path,
           bw->x[0], bw->x[bw->n - 1], lo, hi, 100 * (hi - lo) / lo);
    if (util->n < 2) {
        sb_add(&s, ".");
        return sb_done(&s);
    }
    double top = util->y[0];
    for (size_t i = 1; i < util->n; i++) top = fmax(top, util->y[i]);
    /* the mean bandwidth where the utilization is at its top, and elsewhere */
    double sa = 0, sb_ = 0, umin = top;
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < util->n; i++) {
        umin = fmin(umin, util->y[i]);
        for (size_t k = 0; k < bw->n; k++) {
            if (bw->x[k] != util->x[i]) continue;
            if (util->y[i] >= top - 0.05) { sa += bw->y[k]; na++; }
            else { sb_ += bw->y[k]; nb++; }
        }
    }
    sb_add(&s, "; the L1 utilization measured is %.0f%% to %.0f%%", umin, top);
    if (na && nb) {
        const double a = sa / na, b = sb_ / nb;
        sb_add(&s, ", and the mean bandwidth is %.1f GB/s at %zu offsets with %.0f%%, %.1f GB/s at the "
                   "%zu others (x%.3f)", a, na, top, b, nb, b / a);
        sb_add(&s, fabs(b / a - 1) < 0.02 ? ": the bandwidth does not follow the utilization here."
                                          : ": the misaligned offsets cost bandwidth.");
    } else {
        sb_add(&s, ".");
    }
    return sb_done(&s);
}

int rfm_vs_reference(const char *name, double bw, double ref_bw, char *buf, size_t len)
{
    if (!isfinite(bw)) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s %.1f GB/s", name, bw);
    if (pos(ref_bw)) sb_add(&s, " (%.1f%%)", 100 * bw / ref_bw);
    return sb_done(&s);
}

double rfm_moved_GBps(double asked, double util)
{
    return pos(util) && isfinite(asked) ? asked * 100 / util : NAN;
}

size_t rfm_write_groups(const tsv_table *t, const tsv_table *sec, rfm_write_group *out, size_t max)
{
    size_t n = 0;
    const char ***cfg = calloc(max ? max : 1, sizeof *cfg);
    if (!cfg) return 0;
    for (size_t r = 0; r < t->nrow; r++) {
        const char *k = tsv_get(t, r, "kernel"), *cf = tsv_get(t, r, "config");
        if (!k || strncmp(k, "write_", 6)) continue;
        if (!cf) cf = "-";
        double spr = NAN, l2 = NAN;
        if (sec) {
            char fv[96];
            snprintf(fv, sizeof fv, "variant=%s", k);
            const char *fl[] = {fv, "op=st", NULL};
            const long q = rfm_row(sec, fl, cf);
            if (q >= 0) {
                spr = rfm_lab_measured(sec, (size_t)q, "sectors/request");
                l2 = rfm_lab_measured(sec, (size_t)q, "L2 requests/request");
            }
        }
        /* equal to the two decimals shown */
        char key[64], k2[64];
        snprintf(key, sizeof key, "%.2f|%.2f", spr, l2);
        size_t j = 0;
        for (; j < n; j++) {
            snprintf(k2, sizeof k2, "%.2f|%.2f", out[j].sectors_per_request, out[j].l2_per_request);
            if (!strcmp(out[j].kernel, k) && !strcmp(k2, key)) break;
        }
        if (j == n) {
            if (n == max) continue;
            rfm_write_group *g = &out[n++];
            memset(g, 0, sizeof *g);
            snprintf(g->kernel, sizeof g->kernel, "%s", k);
            g->ms_lo = g->bw_lo = INFINITY;
            g->ms_hi = g->bw_hi = -INFINITY;
            g->bytes_written = tsv_num(t, r, "bytes_written");
            g->sectors_per_request = spr;
            g->l2_per_request = l2;
        }
        rfm_write_group *g = &out[j];
        const char **c2 = realloc(cfg[j], (g->nconfig + 1) * sizeof *c2);
        if (!c2) continue;
        cfg[j] = c2;
        c2[g->nconfig++] = cf;
        const double ms = tsv_num(t, r, "kernel_ms"), bw = tsv_num(t, r, "bw_GBps");
        if (isfinite(ms)) { g->ms_lo = fmin(g->ms_lo, ms); g->ms_hi = fmax(g->ms_hi, ms); }
        if (isfinite(bw)) { g->bw_lo = fmin(g->bw_lo, bw); g->bw_hi = fmax(g->bw_hi, bw); }
    }
    for (size_t j = 0; j < n; j++) {
        rfm_compact_configs(cfg[j], out[j].nconfig, out[j].configs, sizeof out[j].configs);
        free(cfg[j]);
        if (!isfinite(out[j].ms_lo)) out[j].ms_lo = out[j].ms_hi = NAN;
        if (!isfinite(out[j].bw_lo)) out[j].bw_lo = out[j].bw_hi = NAN;
    }
    free(cfg);
    return n;
}

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
