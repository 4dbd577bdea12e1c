/*
 * atomics_model.c - see atomics_model.h.
 *
 * Where the counts come from:
 *   L1TEX  one request per warp-wide RED/ATOM instruction (the Kernel
 *          Profiling Guide's memory tables: a request is one instruction of
 *          a warp); its sectors are the distinct 32-byte sectors its active
 *          lanes address.  An atomic is performed at L2, never in L1, so every
 *          sector goes on to L2: L2 sectors = L1 sectors.
 *   L2     the requests follow the rule the caller picks (atm_l2_rule): the
 *          documentation names the metrics but not how a warp's atomic is cut
 *          into L2 requests; a simulator correlated with a V100 (accel-sim,
 *          gpgpu-sim pull request 33) found same-address atomics of a warp
 *          merged before L2.  The H100 does not merge them: it replays the
 *          instruction once per lane sharing an address (ATM_L2_REPLAY,
 *          measured: data/reference/h100/atomics/), and gpu_atomics.sh
 *          checks it on every run.
 *   DRAM   cold caches: every distinct block of fetch_bytes that holds a
 *          counter is read once, to give L2 the old value; what is written
 *          back is not predicted (dirty lines stay in L2 when the counters fit).
 */
#include "atomics_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "tsv.h"

uint64_t atm_word(int pattern, uint64_t t)
{
    return (t >> 5) * atomics_warp_words(pattern) + (t & 31) * atomics_lane_words(pattern);
}

/* The largest word any of the n threads touches (n >= 1). */
static uint64_t max_word(int pattern, uint64_t n)
{
    uint64_t m = atm_word(pattern, n - 1);
    if (n > 32) {   /* the last lane of the last full warp before the tail */
        const uint64_t w = atm_word(pattern, ((n - 1) & ~(uint64_t)31) - 1);
        if (w > m) m = w;
    }
    return m;
}

uint64_t atm_footprint_words(int pattern, uint64_t n)
{
    if (n == 0) return 0;
    return (max_word(pattern, n) / 32 + 1) * 32;
}

uint64_t atm_expected(int pattern, uint64_t n, uint64_t j)
{
    const uint64_t ww = atomics_warp_words(pattern), lw = atomics_lane_words(pattern);
    const uint64_t warps = (n + 31) / 32;
    if (lw == 0) {          /* every lane of a warp on the warp's word */
        if (ww == 0) return j == 0 ? n : 0;
        if (j % ww || j / ww >= warps) return 0;
        const uint64_t w = j / ww;
        return w + 1 < warps || n % 32 == 0 ? 32 : n % 32;
    }
    /* one word per thread: t = w * 32 + l maps to w * ww + l * lw; invert */
    const uint64_t w = j / ww, rem = j % ww;
    if (rem % lw || rem / lw >= 32) return 0;
    const uint64_t t = w * 32 + rem / lw;
    return t < n ? 1 : 0;
}

/* Distinct values of idx / unit over the active lanes of warp w. */
static uint64_t distinct_units(int pattern, uint64_t w, unsigned lanes, uint64_t unit_words)
{
    uint64_t seen[32];
    unsigned k = 0;
    for (unsigned l = 0; l < lanes; l++) {
        const uint64_t u = atm_word(pattern, w * 32 + l) / unit_words;
        unsigned i = 0;
        while (i < k && seen[i] != u) i++;
        if (i == k) seen[k++] = u;
    }
    return k;
}

/* Under ATM_L2_REPLAY, the passes of warp w's instruction (lanes sharing an
 * address go in successive passes): their distinct lines and sectors,
 * summed over the passes, into *lines and *sectors. */
static void replay_units(int pattern, uint64_t w, unsigned lanes, uint64_t *lines, uint64_t *sectors)
{
    uint64_t addr[32];
    unsigned pass[32], k = 0;
    for (unsigned l = 0; l < lanes; l++) {   /* pass of lane l: lanes before it on its word */
        const uint64_t a = atm_word(pattern, w * 32 + l);
        unsigned p = 0;
        for (unsigned i = 0; i < k; i++) p += addr[i] == a;
        addr[k] = a;
        pass[k++] = p;
    }
    for (unsigned p = 0; p < lanes; p++) {
        uint64_t ln[32], sc[32];
        unsigned nl = 0, ns = 0;
        for (unsigned i = 0; i < k; i++) {
            if (pass[i] != p) continue;
            const uint64_t l = addr[i] / 32, s = addr[i] / 8;
            unsigned j = 0;
            while (j < nl && ln[j] != l) j++;
            if (j == nl) ln[nl++] = l;
            j = 0;
            while (j < ns && sc[j] != s) j++;
            if (j == ns) sc[ns++] = s;
        }
        *lines += nl;
        *sectors += ns;
    }
}

/* Distinct blocks of `block_words` words the whole launch touches, for the
 * two shapes the patterns have (atm_predict checks it). */
static uint64_t launch_blocks(int pattern, uint64_t n, uint64_t block_words)
{
    const uint64_t ww = atomics_warp_words(pattern), lw = atomics_lane_words(pattern);
    const uint64_t warps = (n + 31) / 32;
    if (lw == 0) {          /* one word per warp, ww apart */
        if (ww == 0) return 1;
        if (ww >= block_words) return warps;
        return ((warps - 1) * ww) / block_words + 1;
    }
    /* ww == 32 * lw: thread t on word t * lw */
    if (lw >= block_words) return n;
    return ((n - 1) * lw) / block_words + 1;
}

int atm_predict(int v, uint64_t n, uint32_t wpb, atm_l2_rule rule, uint32_t fetch_bytes,
                atm_pred *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (v < 0 || v >= AT_NVARIANTS) return set_err(err, errlen, "no variant %d", v), -1;
    if (n == 0) return set_err(err, errlen, "N must be at least 1"), -1;
    if (wpb < 1 || wpb > 32) return set_err(err, errlen, "WPB must be 1 to 32, not %u", wpb), -1;
    if (rule != ATM_L2_PER_ADDRESS && rule != ATM_L2_PER_LINE && rule != ATM_L2_REPLAY)
        return set_err(err, errlen, "unknown L2 rule %d", (int)rule), -1;
    if (fetch_bytes != 32 && fetch_bytes != 64 && fetch_bytes != 128)
        return set_err(err, errlen, "the DRAM fetch must be 32, 64 or 128 bytes, not %u", fetch_bytes), -1;
    const int p = atomics_variant_pattern(v);
    const uint64_t ww = atomics_warp_words(p), lw = atomics_lane_words(p);
    /* warps are alike (so warp 0 and the tail warp tell all) when a warp's
     * base is line-aligned or its lanes share one word */
    if (!(lw == 0 || (ww == 32 * lw)))
        return set_err(err, errlen, "pattern %s is not one the model covers", atomics_pattern_name(p)), -1;
    const uint64_t full = n / 32;
    const unsigned tail = (unsigned)(n % 32);
    uint64_t sec = full * distinct_units(p, 0, 32, 8);
    uint64_t lines = full * distinct_units(p, 0, 32, 32);
    uint64_t addrs = full * distinct_units(p, 0, 32, 1);
    if (tail) {
        sec += distinct_units(p, full, tail, 8);
        lines += distinct_units(p, full, tail, 32);
        addrs += distinct_units(p, full, tail, 1);
    }
    out->atomics = n;
    out->ret = atomics_variant_ret(v);
    out->l1_requests = (n + 31) / 32;
    out->l1_sectors = sec;
    out->l2_sectors = sec;
    out->l2_requests = rule == ATM_L2_PER_ADDRESS ? addrs : lines;
    if (rule == ATM_L2_REPLAY) {
        uint64_t rl = 0, rs = 0, tl = 0, ts = 0;
        replay_units(p, 0, 32, &rl, &rs);
        if (tail) replay_units(p, full, tail, &tl, &ts);
        out->l2_requests = full * rl + tl;
        out->l1_sectors = out->l2_sectors = full * rs + ts;
    }
    out->footprint_bytes = 4 * atm_footprint_words(p, n);
    out->distinct_sectors = launch_blocks(p, n, 8);
    out->dram_read_bytes = fetch_bytes * launch_blocks(p, n, fetch_bytes / 4);
    /* judged where the counters fill the blocks they touch: the words a
     * warp adds to are dense (consecutive, or one a sector and sectors
     * consecutive) */
    const int dense = (lw == 1) || (lw == 0 && ww == 8);
    out->dram_judged = dense && out->dram_read_bytes >= ATM_DRAM_JUDGED_BYTES;
    return 0;
}

const char *atm_rule_name(atm_l2_rule rule)
{
    return rule == ATM_L2_PER_ADDRESS ? "per_address" : rule == ATM_L2_PER_LINE ? "per_line"
         : rule == ATM_L2_REPLAY      ? "replay"
                                      : NULL;
}

/* The names, checked against Nsight Compute's metric reference: the op_red
 * and op_atom breakdowns of l1tex__t_{requests,sectors}_pipe_lsu_mem_global
 * and of lts__t_{requests,sectors}_srcunit_tex, beside the op_ld/op_st and
 * op_read/op_write ones the other families' models use. */
static const char *const METRIC[2][ATM_NMETRICS] = {
    {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
     "lts__t_requests_srcunit_tex_op_red.sum", "lts__t_sectors_srcunit_tex_op_red.sum",
     "dram__bytes_read.sum"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
     "lts__t_requests_srcunit_tex_op_atom.sum", "lts__t_sectors_srcunit_tex_op_atom.sum",
     "dram__bytes_read.sum"},
};

const char *atm_metric(int ret, int which)
{
    if (which < 0 || which >= ATM_NMETRICS) return NULL;
    if (ret < 0) return METRIC[0][ATM_M_DRAM_READ];
    return METRIC[ret ? 1 : 0][which];
}

int atm_metric_list(char *buf, size_t len)
{
    size_t k = 0;
    for (int r = 0; r < 2; r++)
        for (int m = 0; m < ATM_NMETRICS; m++) {
            if (r == 1 && m == ATM_M_DRAM_READ) continue;   /* listed once */
            const int w = snprintf(buf + k, k < len ? len - k : 0, "%s%s", k ? "," : "", METRIC[r][m]);
            if (w < 0 || (size_t)w >= (k < len ? len - k : 0)) return -1;
            k += (size_t)w;
        }
    return 0;
}

static uint64_t pred_of(const atm_pred *p, int which)
{
    switch (which) {
    case ATM_M_L1_REQ: return p->l1_requests;
    case ATM_M_L1_SEC: return p->l1_sectors;
    case ATM_M_L2_REQ: return p->l2_requests;
    case ATM_M_L2_SEC: return p->l2_sectors;
    default: return p->dram_read_bytes;
    }
}

int atm_compare(int v, const atm_pred *pred, const atm_pred *other_rule, const double *measured,
                double tol_pct, atm_line_fn emit, void *ctx)
{
    int bad = 0;
    char line[512];
    for (int m = 0; m < ATM_NMETRICS; m++) {
        const double want = (double)pred_of(pred, m), got = measured[m];
        const char *verdict;
        if (!(got >= 0)) verdict = "not_measured";
        else if (m == ATM_M_DRAM_READ && !pred->dram_judged) verdict = "not_judged";
        else if (m == ATM_M_DRAM_READ)
            verdict = fabs(got - want) <= fmax(want * tol_pct / 100, ATM_DRAM_SLACK_BYTES) ? "yes" : "no";
        else verdict = got == want ? "yes" : "no";
        if (!strcmp(verdict, "no")) bad++;
        int k = snprintf(line, sizeof line, "%s\t%s\t%.0f\t%.0f\t%s", atomics_variant_name(v),
                         atm_metric(pred->ret, m), want, got, verdict);
        if (m == ATM_M_L2_REQ && !strcmp(verdict, "no") && other_rule && k > 0 && (size_t)k < sizeof line)
            snprintf(line + k, sizeof line - (size_t)k, " (the other rule predicts %.0f%s)",
                     (double)other_rule->l2_requests,
                     (double)other_rule->l2_requests == got ? ": it fits" : "");
        emit(ctx, line);
    }
    return bad;
}

static void to_file(void *ctx, const char *line) { fprintf((FILE *)ctx, "%s\n", line); }

int atm_compare_table(const char *path, uint64_t n, uint32_t wpb, atm_l2_rule rule, uint32_t fetch_bytes,
                      double tol_pct, FILE *out, char *err, size_t errlen)
{
    tsv_table t;
    if (tsv_read(path, &t, err, errlen)) return -1;
    if (tsv_col(&t, "kernel") < 0) {
        set_err(err, errlen, "%s has no column 'kernel' (expected the output of bin/ncu_extract)", path);
        tsv_free(&t);
        return -1;
    }
    fprintf(out, "# l2_rule\t%s\n# dram_fetch_bytes\t%u\n# n\t%llu\n# wpb\t%u\n", atm_rule_name(rule),
            fetch_bytes, (unsigned long long)n, wpb);
    fprintf(out, "variant\tmetric\tpred\tmeas\tagree\n");
    int bad = 0, rows = 0;
    for (size_t r = 0; r < t.nrow; r++) {
        const char *k = tsv_get(&t, r, "kernel");
        int v = -1;
        for (int i = 0; i < AT_NVARIANTS; i++) {
            char want[64];
            snprintf(want, sizeof want, "atomics_%s", atomics_variant_name(i));
            const size_t wl = strlen(want);
            if (!strncmp(k, want, wl) && (k[wl] == 0 || k[wl] == '(')) v = i;
        }
        if (v < 0) continue;   /* the check kernels, the initialisation */
        atm_pred p, q;
        if (atm_predict(v, n, wpb, rule, fetch_bytes, &p, err, errlen) ||
            atm_predict(v, n, wpb, rule == ATM_L2_PER_ADDRESS ? ATM_L2_REPLAY : ATM_L2_PER_ADDRESS,
                        fetch_bytes, &q, err, errlen)) {
            tsv_free(&t);
            return -1;
        }
        double meas[ATM_NMETRICS];
        for (int m = 0; m < ATM_NMETRICS; m++) {
            const double x = tsv_num(&t, r, atm_metric(p.ret, m));
            meas[m] = isnan(x) ? -1 : x;
        }
        bad += atm_compare(v, &p, &q, meas, tol_pct, to_file, out);
        rows++;
    }
    tsv_free(&t);
    if (rows == 0) {
        set_err(err, errlen, "%s holds no launch of an atomics kernel", path);
        return -1;
    }
    return bad;
}
