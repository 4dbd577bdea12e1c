/*
 * sector_expect.c - sector_expect.h: the expected count of a launch, from
 * the simulator's two ends and the calibrated shares of the merges.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_expect.h"
#include "err.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

double sf_merge_share(double opp, unsigned num, unsigned den)
{
    if (!(opp > 0) || den == 0) return 0;
    const uint64_t o = (uint64_t)llround(opp);
    return (double)((o * num + den / 2) / den);
}

double sf_merge_copy_share(double lines_per_request)
{
    if (!(lines_per_request > 2)) return 1;
    return exp2(-(lines_per_request - 2) / SF_MERGE_COPY_HALF);
}

double sf_merge_copy_window_share(double stores_per_line, double lines_per_request, double w,
                                  double active)
{
    const long s = lround(stores_per_line);
    if (s <= 1) return 1;
    if (!(w >= 1) || !(active > 0) || !(lines_per_request > 0)) return 0;
    const double win = SF_MERGE_COPY_WIN * pow(active > 1 ? 1 : active, SF_MERGE_COPY_ACT);
    double sum = 0;
    for (long j = 1; j < s; j++) sum += exp2(-pow(j * lines_per_request * w / win, SF_MERGE_COPY_K));
    return sum / (double)(s - 1);
}

/* What is modelled, as calibrated on the probes: the stencil's loads and
 * stores (its warps store and load whole rows), copy's batch_restrict and
 * int4 stores and its batch and batch_unrolled stores, patterns' loads of a
 * line the warp before shares (offset_ca, offset_nc, reread_ca) and its
 * write_offset and write_range64 stores; from WPB 5, reread_nc and the
 * soa{2,4,8}_all loads too (M_OFFSET_WIDE: sector_expect.h); and the L1
 * hits of patterns' random gathers through L1 (M_RANDOM). */
typedef enum { M_NONE = 0, M_STENCIL, M_COPY, M_COPY_PLAIN, M_OFFSET, M_OFFSET_WIDE, M_RANDOM } m_kind;

static m_kind modelled(const sf_variant *v, sf_op op)
{
    const char *f = v ? sf_family_name(v) : NULL;
    if (!f || (op != SF_LD && op != SF_ST)) return M_NONE;
    if (!strcmp(f, "stencil")) return M_STENCIL;
    if (!strcmp(f, "copy") && op == SF_ST) {
        if (!strcmp(v->name, "batch_restrict") || !strcmp(v->name, "int4")) return M_COPY;
        if (!strcmp(v->name, "batch") || !strcmp(v->name, "batch_unrolled")) return M_COPY_PLAIN;
    }
    if (!strcmp(f, "patterns")) {
        /* random_cg bypasses L1: no block meets another's sectors there */
        if (op == SF_LD && (!strcmp(v->name, "random_ca") || !strcmp(v->name, "random_nc")))
            return M_RANDOM;
        if (op == SF_LD && (!strcmp(v->name, "offset_ca") || !strcmp(v->name, "offset_nc") ||
                            !strcmp(v->name, "reread_ca")))
            return M_OFFSET;
        /* reread_nc and the struct-of-arrays loads (soa2_all, soa4_all,
         * soa8_all: array f starts f x N/F words in, so its warps share lines
         * as offset's do) have no probe and take the loads' rule from WPB 5
         * (sector_expect.h); at WPB 2 to 4 (three seen rows, which merged a
         * third of theirs or fewer requests than the merged count) nothing
         * says where they fall, and they keep the per-request count */
        if (op == SF_LD && (!strcmp(v->name, "reread_nc") || !strcmp(v->name, "soa2_all") ||
                            !strcmp(v->name, "soa4_all") || !strcmp(v->name, "soa8_all")))
            return M_OFFSET_WIDE;
        /* write_range64's warps write the two 64 B halves of a line in
         * pairs: warp 2i + 1 writes the line warp 2i wrote, as each
         * write_offset warp writes the line the warp before it shares, and
         * their requests merge the same way (the random draws measured 0.51
         * to 0.80 of the per-request count on every seed, none at it); the
         * halves share no sector, so the simulator gives the stores' sectors
         * no opportunity and only the requests merge */
        if (op == SF_ST && (!strcmp(v->name, "write_offset") || !strcmp(v->name, "write_range64")))
            return M_OFFSET;
    }
    return M_NONE;
}

uint64_t sf_launch_wpb(const sf_prediction *pr)
{
    if (!pr || pr->blocks == 0 || pr->warps == 0) return 0;
    return (pr->warps + pr->blocks / 2) / pr->blocks;
}

uint64_t sf_sm_block_cap(uint64_t wpb)
{
    uint64_t cap = wpb ? SF_SM_MAX_WARPS / wpb : SF_SM_MAX_BLOCKS;
    if (cap > SF_SM_MAX_BLOCKS) cap = SF_SM_MAX_BLOCKS;
    return cap ? cap : 1;
}

double sf_resident_warps(const sf_prediction *pr)
{
    const uint64_t wpb = sf_launch_wpb(pr);
    if (wpb == 0) return 0;
    const unsigned sms = pr->sms ? pr->sms : 1;
    uint64_t per_sm = (pr->blocks + sms - 1) / sms;
    const uint64_t cap = sf_sm_block_cap(wpb);
    if (per_sm > cap) per_sm = cap;
    return (double)(wpb * per_sm);
}

int sf_expect_orders(const sf_variant *v)
{
    const m_kind m = modelled(v, SF_LD);
    return m == M_STENCIL || m == M_OFFSET || m == M_OFFSET_WIDE;
}

double sf_merge_power_share(double a, double b, double w)
{
    if (!(w >= 1)) return 0;
    const double s = a * pow(w, -b);
    return s > 1 ? 1 : s;
}

double sf_smsp_even_factor(double wpb)
{
    const uint64_t n = wpb >= 1 ? (uint64_t)llround(wpb) : 0;
    return n <= SF_SM_SCHEDULERS || n % SF_SM_SCHEDULERS == 0 ? 1 : SF_SMSP_UNEVEN;
}

double sf_offset_order_requests(const sf_counts *k, double wpb)
{
    if (wpb <= SF_MERGE_OFF_WPB) return k->l2_requests;
    const double d = k->l2_requests_rev - k->l2_requests;
    return (double)llround(k->l2_requests + d * SF_MERGE_OFF_REV_NUM / SF_MERGE_OFF_REV_DEN);
}

double sf_order_requests(const sf_counts *k, double wpb)
{
    if (wpb <= SF_SM_SCHEDULERS)
        return (double)llround((k->l2_requests + k->l2_requests_rev) / 2);
    return (double)llround((k->l2_requests + k->l2_requests_rev + k->l2_requests_wm + k->l2_requests_wm_rev) / 4);
}

double sf_random_l1_hits(double n, double blocks, unsigned sms, double cap)
{
    if (!(n >= 1) || !(blocks >= 1) || !(cap > 0)) return 0;
    const double s = sms == 0 ? 1 : blocks < sms ? blocks : sms;
    const double a = n / s, m = a < cap ? a : cap, per = SF_RANDOM_SIBLINGS + 1;
    /* the fill: the window grows with the SM's accesses up to C (summed as
     * an integral); then every access sees a full L1 of C sectors */
    const double fill = m - n / per * (1 - pow(1 - m / n, per));
    const double full = (a - m) * (1 - pow(1 - (cap < n ? cap : n) / n, SF_RANDOM_SIBLINGS));
    return (double)llround(s * (fill + full));
}

double sf_stencil_store_share(double w, double loads, uint64_t wpb)
{
    if (!(w >= 1)) return 0;
    double s = SF_MERGE_ST_A * pow(w, -SF_MERGE_ST_B) * pow(loads > 1 ? loads : 1, -SF_MERGE_ST_C);
    if (wpb > 0 && wpb % SF_SM_SCHEDULERS == 0) s *= SF_MERGE_ST_EVEN;
    return s > 1 ? 1 : s;
}

/* round(opp x share) for a whole, non-negative opp and a share in [0, 1]. */
static double share_of(double opp, double share)
{
    if (!(opp > 0) || !(share > 0)) return 0;
    return (double)llround(opp * share);
}

int sf_expect(const sf_variant *v, const sf_prediction *pr, sf_op op, sf_expected *e)
{
    const m_kind m = pr ? modelled(v, op) : M_NONE;
    if (m == M_NONE) return 0;
    const sf_counts *k = &pr->op[op];
    const double req_opp = k->l2_requests > k->l2_requests_merged ? k->l2_requests - k->l2_requests_merged : 0;
    const double sec_opp = op == SF_ST && k->l2_sectors > k->l2_sectors_merged
                               ? k->l2_sectors - k->l2_sectors_merged : 0;
    e->l1_hits = k->hits;
    e->l2_sectors = k->l2_sectors;
    if (m == M_RANDOM) {
        /* every block on an SM shares its L1 (sector_expect.h): the
         * expected hits over the launch, never fewer than a block's own;
         * each further hit is a sector, and a request (the gather's
         * sectors lie in 32 lines), that L2 does not see */
        const double h = sf_random_l1_hits((double)pr->items, (double)pr->blocks, pr->sms,
                                           SF_RANDOM_L1_SECTORS);
        const double more = h > k->hits ? h - k->hits : 0;
        e->l1_hits = k->hits + more;
        e->l2_requests = k->l2_requests > more ? k->l2_requests - more : 0;
        e->l2_sectors = k->l2_sectors > more ? k->l2_sectors - more : 0;
        return 1;
    }
    if (m == M_COPY || m == M_COPY_PLAIN) {
        const double lpr = k->requests > 0 ? k->l2_requests / k->requests : 0;
        double share;
        if (m == M_COPY) {
            /* the later stores to a line, each farther behind (sector_expect.h) */
            const double sms = pr->sms ? (double)pr->sms : 1;
            const double act = (pr->blocks < sms ? (double)pr->blocks : sms) / sms;
            share = sf_merge_copy_window_share(k->l2_requests_merged > 0 ? k->l2_requests / k->l2_requests_merged : 0,
                                               lpr, sf_resident_warps(pr), act);
        } else
            share = sf_merge_copy_share(lpr) / SF_MERGE_COPY_PLAIN_DIV;
        e->l2_requests = k->l2_requests - share_of(req_opp, share);
        e->l2_sectors = k->l2_sectors - share_of(sec_opp, share);
        return 1;
    }
    if (m == M_OFFSET || m == M_OFFSET_WIDE) {
        const double wpb = pr->blocks > 0 ? (double)llround((double)pr->warps / (double)pr->blocks) : 0;
        if (m == M_OFFSET_WIDE && wpb <= SF_MERGE_OFF_WPB) return 0;
        const int all = wpb <= SF_MERGE_OFF_WPB;
        if (op == SF_LD) {
            /* the per-request count over the warps' orders: a later warp's
             * load first SF_MERGE_OFF_REV_NUM/DEN of the time (sector_expect.h) */
            const double per = sf_offset_order_requests(k, wpb);
            const double opp = per > k->l2_requests_merged ? per - k->l2_requests_merged : 0;
            e->l2_requests = per - (all ? opp : sf_merge_share(opp, SF_MERGE_OFF_NUM, SF_MERGE_OFF_DEN));
            return 1;
        }
        /* stores: no hit, so no order; the share falls with the block's warps */
        const double share = sf_merge_power_share(SF_MERGE_OFF_ST_A, SF_MERGE_OFF_ST_B, wpb);
        e->l2_requests = k->l2_requests - share_of(req_opp, share);
        e->l2_sectors = k->l2_sectors - share_of(sec_opp, share);
        return 1;
    }
    /* the stencil: a share of the opportunities that falls with the warps an SM holds at once */
    const double w = sf_resident_warps(pr);
    if (op == SF_ST) {
        /* and with the loads a warp waits for before its store; more where
         * the block's warps fill the schedulers evenly (sector_expect.h) */
        const double share = sf_stencil_store_share(w, k->requests > 0 ? pr->op[SF_LD].requests / k->requests : 1,
                                                     sf_launch_wpb(pr));
        e->l2_requests = k->l2_requests - share_of(req_opp, share);
        e->l2_sectors = k->l2_sectors - share_of(sec_opp, share);
        e->l1_hits = k->st_line_hits;
    } else {
        const int rows = v->name && !strcmp(v->name, "deriv1");
        /* a block's warps spread unevenly over the schedulers merge less (sector_expect.h) */
        const double wpb = pr->blocks > 0 ? (double)llround((double)pr->warps / (double)pr->blocks) : 0;
        const double even = sf_smsp_even_factor(wpb);
        if (rows) {
            /* other SMs' reads of the same rows, joined by the LRC on their way
             * to L2 (sector_expect.h): a share of what lies above the grid's
             * distinct sectors and lines; without those counts, per request */
            const double sg = k->l2_sectors_grid, rg = k->l2_requests_grid;
            if (sg > 0 && k->l2_sectors > sg)
                e->l2_sectors = k->l2_sectors - share_of(k->l2_sectors - sg,
                                                         sf_merge_power_share(SF_LRC_SEC_A, SF_LRC_SEC_B, w));
            e->l2_requests = k->l2_requests;
            if (rg > 0 && k->l2_requests > rg)
                e->l2_requests -= share_of(k->l2_requests - rg, sf_merge_power_share(SF_LRC_REQ_A, SF_LRC_REQ_B, w) * even);
        } else {
            /* the mean over the warps' orders (sector_expect.h), then the share of its opportunities */
            const double per = sf_order_requests(k, wpb);
            const double opp = per > k->l2_requests_merged ? per - k->l2_requests_merged : 0;
            const double share = sf_merge_power_share(SF_MERGE_LD_A, SF_MERGE_LD_B, w) * even;
            e->l2_requests = per - share_of(opp, share);
        }
    }
    return 1;
}

/* The stencil's parameters from its canonical config; 0, or -1. */
static int stencil_params(const char *config, sf_params *p)
{
    unsigned long long n0, n1, lead, ld;
    unsigned r;
    int used = 0;
    if (sscanf(config, "n0=%llu,n1=%llu,r=%u,lead=%llu,ld=%llu%n", &n0, &n1, &r, &lead, &ld, &used) != 5 ||
        config[used] != '\0')
        return -1;
    p->n0 = n0;
    p->n1 = n1;
    p->n = n0 * n1;
    p->radius = r;
    p->lead_pad = lead != 0;
    p->pad_ld = ld != n0 + 2ull * r;
    return 0;
}

/* copy's "batch=B", patterns' "offset=K" (or "-"), with N; 0, or -1. */
static int cfg_params(const sf_variant *v, const char *config, double n, sf_params *p)
{
    if (!(n >= 1 && n <= (double)SF_MAX_N && n == floor(n))) return -1;
    p->n = (uint64_t)n;
    if (v->cfg == SF_CFG_NONE) return strcmp(config, "-") ? -1 : 0;
    char want[32];
    snprintf(want, sizeof want, "%s=", sf_cfg_name(v->cfg));
    const size_t wl = strlen(want);
    unsigned long long c;
    int used = 0;
    if (strncmp(config, want, wl) || sscanf(config + wl, "%llu%n", &c, &used) != 1 || config[wl + used] != '\0')
        return -1;
    p->cfg = c;
    return 0;
}

int sf_expect_row(const char *family, const char *variant, const char *config, double n, double wpb,
                  const char *op, sf_expected *e, char *err, size_t errlen)
{
    const sf_variant *v = family && variant ? sf_find(family, variant) : NULL;
    sf_op o;
    if (op && !strcmp(op, "ld")) o = SF_LD;
    else if (op && !strcmp(op, "st")) o = SF_ST;
    else return 0;
    const m_kind m = modelled(v, o);
    if (m == M_NONE) return 0;
    sf_params p;
    sf_params_default(&p);
    if (!config || (m == M_STENCIL ? stencil_params(config, &p) : cfg_params(v, config, n, &p)) ||
        !(wpb >= 1 && wpb <= 32 && wpb == floor(wpb))) {
        set_err(err, errlen, "%s %s: config '%s' (WPB %g) is not the model's", family, variant,
                config ? config : "", wpb);
        return -1;
    }
    p.wpb = (unsigned)wpb;
    sf_prediction pr;
    if (sf_predict(v, &p, &pr, err, errlen)) return -1;
    if (strcmp(pr.config, config)) {
        set_err(err, errlen, "%s %s: config '%s' gives the model's '%s'", family, variant, config, pr.config);
        return -1;
    }
    return sf_expect(v, &pr, o, e);
}
