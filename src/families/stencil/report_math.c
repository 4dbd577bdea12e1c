/* report_math.c - the stencil's arithmetic in the report (report_math.h):
 * its configuration label, the centre load's over-fetch, the lab's cases
 * against the model, the size sweep and the halo probe in sentences.
 * Moved whole from src/report/report_families.c: nothing else uses it. */
#define _POSIX_C_SOURCE 200809L
#include "report_math.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "sbuf.h"

static int pos(double v) { return isfinite(v) && v > 0; }

int rfm_stencil_config(const char *config, rfm_stencil_cfg *out)
{
    if (!config) return -1;
    char b[64];
    const char *x = strchr(config, 'x'), *comma = strchr(config, ',');
    if (!x || (comma && x > comma)) return -1;
    char a[32], c[32];
    rfm_trim(a, sizeof a, config, x);
    rfm_trim(c, sizeof c, x + 1, comma ? comma : x + strlen(x));
    out->n0 = rfm_num(a);
    out->n1 = rfm_num(c);
    out->radius = rfm_num(ceiling_config_get(config, "R", b, sizeof b));
    const double l = rfm_num(ceiling_config_get(config, "lead", b, sizeof b));
    const double p = rfm_num(ceiling_config_get(config, "padld", b, sizeof b));
    if (!pos(out->n0) || !pos(out->n1) || !pos(out->radius) || !isfinite(l) || !isfinite(p)) return -1;
    out->lead_pad = l != 0;
    out->pad_ld = p != 0;
    return 0;
}

/* Distinct sectors among up to 64 ids (a warp's lanes). */
static size_t distinct(uint64_t *id, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < k && id[j] != id[i]) j++;
        if (j == k) id[k++] = id[i];
    }
    return k;
}

double rfm_stencil_overfetch_pct(double n0d, double n1d, double rd, int lead_pad, int pad_ld, double hd)
{
    if (!(n0d >= 1 && n1d >= 1 && rd >= 0 && hd >= 0) || n0d > 1e12 || n1d > 1e12 || rd > 64 || hd > 64)
        return NAN;
    const uint64_t n0 = (uint64_t)n0d, n1 = (uint64_t)n1d, R = (uint64_t)rd, H = (uint64_t)hd;
    uint64_t ld = n0 + 2 * R;
    if (pad_ld) ld = (ld + 31) / 32 * 32;
    const uint64_t first = H * ld + R;
    const uint64_t lead = lead_pad ? (32 - first % 32) % 32 : 0;
    const double items = (double)n0 * (double)n1;
    double sectors = 0;
    if (n0 % 32 == 0) {
        /* every warp is 32 floats of one row: 4 sectors when the row's start
         * is on a sector, else 5; the start modulo 8 floats repeats every 8
         * rows */
        for (uint64_t j = 0; j < 8 && j < n1; j++) {
            const uint64_t rows = (n1 - 1 - j) / 8 + 1;
            const uint64_t s = lead + (j + H) * ld + R;
            sectors += (double)rows * (double)(n0 / 32) * (s % 8 ? 5 : 4);
        }
    } else {
        if (items > (double)(1u << 26)) return NAN; /* lane by lane: keep it small */
        const uint64_t total = n0 * n1;
        for (uint64_t t0 = 0; t0 < total; t0 += 32) {
            uint64_t id[32];
            size_t k = 0;
            for (uint64_t t = t0; t < t0 + 32 && t < total; t++)
                id[k++] = (lead + (t / n0 + H) * ld + (t % n0) + R) / 8;
            sectors += (double)distinct(id, k);
        }
    }
    const double ideal = items * 4 / 32;
    return 100 * (sectors / ideal - 1);
}

int rfm_stencil_case(const tsv_table *t, size_t r, rfm_case_q *q)
{
    static const char *const lab_q[RFM_NCASE] = {"sectors", "L1 hits", "L1 hit rate %", "L2 requests"};
    q[RFM_CASE_SECTORS] = (rfm_case_q){NAN, tsv_num(t, r, "l1_sectors_pred"), NAN, tsv_num(t, r, "l1_sectors_meas")};
    const double hits = tsv_num(t, r, "l1_hits_pred"), hmax = tsv_num(t, r, "l1_hits_max_pred");
    q[RFM_CASE_HITS] = (rfm_case_q){NAN, hits, hmax != hits ? hmax : NAN, tsv_num(t, r, "l1_hits_meas")};
    const double sec = tsv_num(t, r, "l1_sectors_pred");
    q[RFM_CASE_HIT_PCT] = (rfm_case_q){NAN, tsv_num(t, r, "l1_hit_pct_pred"),
                                       hmax != hits && pos(sec) ? 100 * hmax / sec : NAN, tsv_num(t, r, "l1_hit_pct_meas")};
    /* the L2 bracket runs from fewer requests (neighbours' lines already
     * asked for) up to the inside-block prediction */
    const double l2 = tsv_num(t, r, "l2_requests_pred"), l2min = tsv_num(t, r, "l2_requests_min_pred");
    double lo = isfinite(l2min) ? fmin(l2min, l2) : l2, hi = isfinite(l2min) ? fmax(l2min, l2) : l2;
    /* the judge's other bracket, stated in the note (sector_families.c):
     * "L2 requests A if every miss to a line a warp of the block had just
     * asked for joins that request, B if none does" */
    const char *note = tsv_get(t, r, "note");
    const char *m = note ? strstr(note, "L2 requests ") : NULL;
    double a, b;
    if (m && strstr(m, " if every miss") && sscanf(m, "L2 requests %lf if every miss", &a) == 1) {
        const char *c = strstr(m, "joins that request, ");
        if (c && sscanf(c, "joins that request, %lf if none does", &b) == 1) {
            lo = fmin(lo, fmin(a, b));
            hi = fmax(hi, fmax(a, b));
        }
    }
    q[RFM_CASE_L2_REQ] = (rfm_case_q){NAN, lo, hi != lo ? hi : NAN, tsv_num(t, r, "l2_requests_meas")};
    rfm_lab f[16];
    const size_t nf = rfm_lab_parse(tsv_get(t, r, "lab"), NULL, f, 16);
    int n = 0;
    for (size_t i = 0; i < nf; i++)
        for (int k = 0; k < RFM_NCASE; k++)
            if (!strcmp(f[i].quantity, lab_q[k]) && !isfinite(q[k].lab)) { q[k].lab = f[i].lab; n++; }
    return n;
}

int rfm_stencil_cases_note(const tsv_table *t, char *buf, size_t len)
{
    static const char *const name[RFM_NCASE] = {"L1 sectors", "L1 hits", "L1 hit rate", "L2 requests"};
    size_t rows = 0, in[RFM_NCASE] = {0};
    for (size_t r = 0; r < t->nrow; r++) {
        rfm_case_q q[RFM_NCASE];
        if (rfm_stencil_case(t, r, q) == 0) continue;
        rows++;
        for (int k = 0; k < RFM_NCASE; k++) {
            const double hi = isfinite(q[k].model_hi) ? q[k].model_hi : q[k].model;
            in[k] += q[k].measured >= q[k].model - 0.005 && q[k].measured <= hi + 0.005;
        }
    }
    if (!rows) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "Measured inside the model's prediction (its bracket where it has one):");
    for (int k = 0; k < RFM_NCASE; k++) sb_add(&s, "%s %s in %zu of %zu", k ? "," : "", name[k], in[k], rows);
    sb_add(&s, ".");
    for (int k = 0; k < RFM_NCASE; k++) {
        if (in[k] == rows) continue;
        sb_add(&s, " %s outside it:", name[k]);
        const char *sep = " ";
        for (size_t r = 0; r < t->nrow; r++) {
            rfm_case_q q[RFM_NCASE];
            if (rfm_stencil_case(t, r, q) == 0) continue;
            const double hi = isfinite(q[k].model_hi) ? q[k].model_hi : q[k].model;
            if (q[k].measured >= q[k].model - 0.005 && q[k].measured <= hi + 0.005) continue;
            const char *v = tsv_get(t, r, "variant"), *op = tsv_get(t, r, "op"), *c = tsv_get(t, r, "config");
            sb_add(&s, "%s%s %s %s %.4g for %.4g", sep, v ? v : "?", op ? op : "?", c ? c : "?", q[k].measured,
                   q[k].measured < q[k].model ? q[k].model : hi);
            sep = "; ";
        }
        sb_add(&s, ".");
    }
    return sb_done(&s);
}

const char *rfm_layout_name(int lead_pad, int pad_ld)
{
    static const char *const names[4] = {"without padding", "with the lead pad",
                                         "with the padded leading dimension", "with both pads"};
    return names[(lead_pad ? 1 : 0) + (pad_ld ? 2 : 0)];
}

int rfm_stencil_sweep_note(const rfm_stencil_point *p, size_t n, char *buf, size_t len)
{
    double ofmin[4], ofmax[4], bsum[4];
    size_t cnt[4] = {0}, low = n;
    for (int l = 0; l < 4; l++) { ofmin[l] = INFINITY; ofmax[l] = -INFINITY; bsum[l] = 0; }
    for (size_t i = 0; i < n; i++) {
        const int l = (p[i].lead_pad ? 1 : 0) + (p[i].pad_ld ? 2 : 0);
        if (isfinite(p[i].overfetch_pct)) {
            ofmin[l] = fmin(ofmin[l], p[i].overfetch_pct);
            ofmax[l] = fmax(ofmax[l], p[i].overfetch_pct);
        }
        if (!isfinite(p[i].bw_GBps)) continue;
        bsum[l] += p[i].bw_GBps;
        cnt[l]++;
        if (low == n || p[i].bw_GBps < p[low].bw_GBps) low = i;
    }
    if (low == n) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    const char *sep = "";
    int any = 0;
    for (int l = 0; l < 4; l++) any |= isfinite(ofmin[l]);
    if (any) {
        sb_add(&s, "Over-fetch of the centre loads:");
        sep = " ";
        for (int l = 0; l < 4; l++) {
            if (!isfinite(ofmin[l])) continue;
            if (ofmax[l] - ofmin[l] < 0.05)
                sb_add(&s, "%s%.1f%% %s", sep, ofmin[l], rfm_layout_name(l & 1, l & 2));
            else
                sb_add(&s, "%s%.1f%% to %.1f%% %s", sep, ofmin[l], ofmax[l], rfm_layout_name(l & 1, l & 2));
            sep = ", ";
        }
        sb_add(&s, ". ");
    }
    sb_add(&s, "Mean bandwidth over the sizes and variants:");
    sep = " ";
    for (int l = 0; l < 4; l++) {
        if (!cnt[l]) continue;
        sb_add(&s, "%s%.1f GB/s %s", sep, bsum[l] / cnt[l], rfm_layout_name(l & 1, l & 2));
        sep = ", ";
    }
    sb_add(&s, ".");
    if (cnt[0] && cnt[3]) {
        const double a = bsum[0] / cnt[0], b = bsum[3] / cnt[3];
        sb_add(&s, " Both pads against none: %+.1f%% bandwidth", 100 * (b / a - 1));
        if (isfinite(ofmin[0]) && isfinite(ofmax[3]))
            sb_add(&s, " for %.1f%% less over-fetch", ofmin[0] - ofmax[3]);
        sb_add(&s, ".");
    }
    sb_add(&s, " The lowest point: %s at N0 = %.0f %s, %.1f GB/s.", p[low].variant, p[low].n0,
           rfm_layout_name(p[low].lead_pad, p[low].pad_ld), p[low].bw_GBps);
    return sb_done(&s);
}

int rfm_nearest_level(const plateau_level *lv, int n, double cycles)
{
    if (!pos(cycles)) return -1;
    int best = -1;
    double bd = INFINITY;
    for (int i = 0; i < n; i++) {
        if (!pos(lv[i].cycles)) continue;
        const double d = fabs(log(cycles / lv[i].cycles));
        if (d < bd) { bd = d; best = i; }
    }
    return best;
}

int rfm_halo_note(double p50, const plateau_level *lv, int n, char *buf, size_t len)
{
    const int k = rfm_nearest_level(lv, n, p50);
    if (k < 0) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "deriv0_halo: the halo load's median latency is %.0f cycles, x%.2f the %s plateau of %.0f "
               "cycles",
           p50, p50 / lv[0].cycles, lv[0].name, lv[0].cycles);
    if (k == 0)
        sb_add(&s, " and nearer it than any other level: the halo load hits in %s, where the sector model "
                   "predicts a hit.", lv[0].name);
    else
        sb_add(&s, ", nearest the %s plateau (%.0f cycles): the halo load does not hit in %s, although the "
                   "sector model predicts a hit.", lv[k].name, lv[k].cycles, lv[0].name);
    return sb_done(&s);
}
