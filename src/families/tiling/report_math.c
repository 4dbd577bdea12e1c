/* report_math.c - the tiling's arithmetic in the report (report_math.h):
 * its summary joined with Nsight Compute's counts, the bytes a multiply must
 * read, why one kernel beats another, and Little's law for its DRAM
 * throughput.  Moved whole from src/report/report_families.c: nothing else
 * uses it but the fuzz harness of the report's tables. */
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

size_t rfm_tiling_read(const tsv_table *sm, const tsv_table *ncu, rfm_tiling *out, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < sm->nrow && n < max; r++) {
        rfm_tiling *k = &out[n++];
        memset(k, 0, sizeof *k);
        rf_kernel row;
        rf_kernel_read(sm, r, &row);
        snprintf(k->kernel, sizeof k->kernel, "%s", row.kernel);
        char b[64];
        k->tile = rfm_num(tsv_get(sm, r, "config") ? ceiling_config_get(row.config, "tile", b, sizeof b) : NULL);
        k->wpb = row.wpb;
        k->blocks_per_sm = row.blocks_per_sm;
        k->kernel_ms = row.kernel_ms;
        k->gflops = row.gflops;
        k->lat_p50_cycles = row.lat_p50_cycles;
        k->lat_p95_cycles = row.lat_p95_cycles;
        k->l1_bytes = k->l1_hit_pct = k->l2_bytes = k->dram_bytes = k->ncu_ms = NAN;
        const char *fn = tsv_get(sm, r, "kernel_fn");
        const long q = ncu && fn ? tsv_find(ncu, "kernel", fn, 0) : -1;
        if (q < 0) continue;
        const double l1 = tsv_num(ncu, (size_t)q, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
        const double hit = tsv_num(ncu, (size_t)q, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum");
        k->l1_bytes = l1 * 32;
        k->l1_hit_pct = pos(l1) ? 100 * hit / l1 : NAN;
        k->l2_bytes = 32 * tsv_num(ncu, (size_t)q, "lts__t_sectors_srcunit_tex_op_read.sum");
        k->dram_bytes = tsv_num(ncu, (size_t)q, "dram__bytes_read.sum");
        k->ncu_ms = tsv_num(ncu, (size_t)q, "gpu__time_duration.sum") / 1e6; /* ns */
    }
    return n;
}

double rfm_tiling_ideal_bytes(double dsize)
{
    return pos(dsize) ? 2 * dsize * dsize * 4 : NAN;
}

int rfm_tiling_speedup_note(const rfm_tiling *slow, const rfm_tiling *fast, double dsize, char *buf, size_t len)
{
    if (!pos(slow->kernel_ms) || !pos(fast->kernel_ms)) return sb_nothing(buf, len);
    const double rt = slow->kernel_ms / fast->kernel_ms;
    char b1[32], b2[32], b3[32];
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s takes %.4g ms against %s's %.4g ms: x%.2f %s.", fast->kernel, fast->kernel_ms, slow->kernel,
           slow->kernel_ms, rt >= 1 ? rt : 1 / rt, rt >= 1 ? "faster" : "slower");
    static const char *const lvl[3] = {"L1", "L2", "DRAM"};
    const double a[3] = {slow->l1_bytes, slow->l2_bytes, slow->dram_bytes};
    const double b[3] = {fast->l1_bytes, fast->l2_bytes, fast->dram_bytes};
    double ratio[3];
    int have = 0;
    for (int i = 0; i < 3; i++) {
        ratio[i] = pos(a[i]) && pos(b[i]) ? a[i] / b[i] : NAN;
        have += isfinite(ratio[i]);
    }
    if (have) {
        sb_add(&s, " Bytes read, %s against %s:", slow->kernel, fast->kernel);
        const char *sep = " ";
        for (int i = 0; i < 3; i++) {
            if (!isfinite(ratio[i])) continue;
            sb_add(&s, "%s%s %s against %s (x%.2f)", sep, lvl[i], rf_fmt_bytes(a[i], b1, sizeof b1),
                   rf_fmt_bytes(b[i], b2, sizeof b2), ratio[i]);
            sep = ", ";
        }
        sb_add(&s, ".");
        const double ideal = rfm_tiling_ideal_bytes(dsize);
        if (pos(ideal) && isfinite(ratio[2]))
            sb_add(&s, " The ideal is %s (2 x %.0f^2 x 4 B): DRAM reads are x%.0f of it for %s, x%.0f for %s.",
                   rf_fmt_bytes(ideal, b3, sizeof b3), dsize, a[2] / ideal, slow->kernel, b[2] / ideal, fast->kernel);
        /* which levels' traffic falls as much as the time, which not at all */
        int flat[3] = {0}, nflat = 0, big = -1;
        for (int i = 0; i < 3; i++) {
            if (!isfinite(ratio[i])) continue;
            if (fabs(ratio[i] - 1) <= 0.1) { flat[i] = 1; nflat++; }
            if (ratio[i] >= 0.8 * rt && rt > 1.1 && (big < 0 || ratio[i] > ratio[big])) big = i;
        }
        if (nflat) {
            sb_add(&s, " ");
            const char *sep2 = "";
            for (int i = 0; i < 3; i++)
                if (flat[i]) { sb_add(&s, "%s%s", sep2, lvl[i]); sep2 = " and "; }
            sb_add(&s, " traffic %s within 10%%: %s explain%s the speed-up.", nflat > 1 ? "stay" : "stays",
                   nflat > 1 ? "they do not" : "it does not", nflat > 1 ? "" : "");
        }
        if (big >= 0)
            sb_add(&s, " %s traffic falls x%.1f, at least as much as the time (x%.2f): the %s kernel's time goes "
                       "to %s.",
                   lvl[big], ratio[big], rt, slow->kernel, lvl[big]);
        if (big == 0 && isfinite(slow->l1_hit_pct))
            sb_add(&s, " Its loads hit L1 %.1f%% of the time, %s's %.1f%%.", slow->l1_hit_pct, fast->kernel,
                   fast->l1_hit_pct);
    }
    if (pos(slow->lat_p50_cycles) && pos(fast->lat_p50_cycles)) {
        const double ts = pos(slow->tile) && strcmp(slow->kernel, "naive") ? slow->tile : 1;
        const double tf = pos(fast->tile) ? fast->tile : 1;
        sb_add(&s, " Median per-warp latency: %s %.0f cycles per record, %s %.0f (x%.2f)", fast->kernel,
               fast->lat_p50_cycles, slow->kernel, slow->lat_p50_cycles, fast->lat_p50_cycles / slow->lat_p50_cycles);
        if (tf != ts)
            sb_add(&s, "; a record of %s covers %.0f multiply-adds per thread, one of %s %.0f, so the wait per "
                       "multiply-add is x%.3f",
                   fast->kernel, tf, slow->kernel, ts, (fast->lat_p50_cycles / tf) / (slow->lat_p50_cycles / ts));
        sb_add(&s, ".");
    }
    return sb_done(&s);
}

int rfm_tiling_littles_note(const rfm_tiling *k, double lat_ns, double sms, char *buf, size_t len)
{
    if (!pos(k->dram_bytes) || !pos(k->ncu_ms) || !pos(lat_ns) || !pos(sms)) return sb_nothing(buf, len);
    const double gbps = k->dram_bytes / (k->ncu_ms * 1e-3) / 1e9;
    const double per_sm = ceiling_bytes_in_flight_per_sm(gbps, lat_ns, sms);
    char b1[32], b2[32];
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s reads DRAM at %.1f GB/s (%s in %.4g ms); at the ladder's %.1f ns DRAM latency Little's law "
               "needs %s in flight per SM for it, %.1f warp loads of 128 B.",
           k->kernel, gbps, rf_fmt_bytes(k->dram_bytes, b1, sizeof b1), k->ncu_ms, lat_ns,
           rf_fmt_bytes(per_sm, b2, sizeof b2), per_sm / 128);
    return sb_done(&s);
}
