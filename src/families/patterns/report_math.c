/* report_math.c - the patterns family's arithmetic in the report
 * (report_math.h): the misaligned offsets in a sentence, the bandwidth a level moves, and the write patterns merged.
 * Moved whole from src/report/report_families.c: nothing else uses it. */
#define _POSIX_C_SOURCE 200809L
#include "report_math.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "report_facts.h"
#include "sbuf.h"

static int pos(double v) { return isfinite(v) && v > 0; }

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
