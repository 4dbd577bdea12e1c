/*
 * model.c - the stencil family's sector model (sector_family.h): in and out
 * with halos, the finite differences of stencil.cu, the figures of lab 000
 * (its geometries at radius 1), and its ncu recipe (those geometries).
 *
 * The layout: ld = n0 + 2R (rounded up to 32 floats with --pad-leading-dim),
 * halo rows R above and below for deriv1, and a lead of (32 - (halo ld + R)
 * mod 32) mod 32 floats with --lead-pad, so that point (0, 0) begins a line.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_family.h"
#include "variants.h"

#include <stdio.h>

extern const struct fam_model fam_model_stencil;

/* deriv_copy, deriv0, deriv1, deriv0_halo (param: ST_*). */
static int g_stencil(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const unsigned kind = c->v->param, R = c->radius;
    const unsigned nloads = kind == ST_COPY ? 1 : 2 * R;
    if (k > nloads)
        return 0;
    const int st = k == nloads;
    sf_acc_begin(a, st ? SF_ST : SF_LD, st, 4);
    SF_FOR_LANES(c, w, t, l)
    {
        const uint64_t i0 = t % c->p->n0, i1 = t / c->p->n0;
        const uint64_t idx = c->lead + (i1 + c->halo) * c->ld + (i0 + c->radius);
        uint64_t e = idx;
        if (!st && kind != ST_COPY) {
            const uint64_t kk = k / 2 + 1, step = kind == ST_DERIV1 ? c->ld : 1;
            e = k % 2 == 0 ? idx + (kk - 1) * step : idx - kk * step;
        }
        sf_acc_lane(a, l, 4 * e);
    }
    return 1;
}

#define SM_MODEL(ID, NAME, ABOUT, RULE) \
    { &fam_model_stencil, NAME, SF_CFG_NONE, NULL, RULE, g_stencil, 0, ID },

static const sf_variant STENCIL_MODEL[] = { STENCIL_VARIANTS(SM_MODEL) };

static int stencil_setup(sf_ctx *c, const sf_variant *v, const sf_params *p,
                         sf_prediction *out, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const stencil_layout L = stencil_layout_of(v->param, p->n0, p->n1, p->radius, p->lead_pad,
                                               p->pad_ld);
    const unsigned R = L.R;
    c->radius = R;
    c->halo = L.H;
    c->ld = L.ld;
    c->lead = L.lead;
    c->items = p->n0 * p->n1;
    c->array_bytes[0] = c->array_bytes[1] = 4 * L.size;
    c->orders = 1;   /* halo rows: who comes first misses (sector_expect.h) */
    c->grid = v->param == ST_DERIV1;   /* rows other blocks read too: the LRC (sector_expect.h) */
    snprintf(out->config, sizeof out->config, "n0=%llu,n1=%llu,r=%u,lead=%llu,ld=%llu",
             (unsigned long long)p->n0, (unsigned long long)p->n1, R,
             (unsigned long long)c->lead, (unsigned long long)c->ld);
    return 0;
}

/* One random geometry (bin/model_check): N0 17..1000, N1 1..64, radius
 * 1..4, each pad on or off, WPB 1..32 (N is N0 x N1: the draw's N range is
 * the other families'). */
static int stencil_draw(const sf_variant *v, uint64_t *rng, sf_draw *out, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sf_params_default(&out->p);
    out->p.n0 = sf_rand_range(rng, SF_DRAW_N0_MIN, SF_DRAW_N0_MAX);
    out->p.n1 = sf_rand_range(rng, 1, SF_DRAW_N1_MAX);
    out->p.n = out->p.n0 * out->p.n1;
    out->p.radius = (unsigned)sf_rand_range(rng, 1, SF_DRAW_RADIUS_MAX);
    out->p.lead_pad = (int)sf_rand_range(rng, 0, 1);
    out->p.pad_ld = (int)sf_rand_range(rng, 0, 1);
    out->p.wpb = sf_draw_wpb(rng);
    snprintf(out->args, sizeof out->args, "%llu %llu 0 %u --kernel %s --radius %u%s%s",
             (unsigned long long)out->p.n0, (unsigned long long)out->p.n1, out->p.wpb, v->name,
             out->p.radius, out->p.lead_pad ? " --lead-pad" : "", out->p.pad_ld ? " --pad-leading-dim" : "");
    return 0;
}

/* A stencil figure is a total of the launch: it keeps its own geometry. */
static void stencil_lab_params(const sf_lab *e, const sf_variant *v, sf_params *out)
{
    (void)v;
    out->n0 = e->n0;
    out->n1 = e->n1;
    out->radius = 1;
    if (e->lead_pad >= 0)
        out->lead_pad = e->lead_pad;
    if (e->pad_ld >= 0)
        out->pad_ld = e->pad_ld;
}

/* ------------------------------------------------------------ lab figures */

#define ANY SF_LAB_ANY_CFG
/* lp, pl: the lead pad and the leading-dimension pad of the figure's
 * layout, OFF or ON, or EITHER where the figure holds with the pad or
 * without (sf_lab_matches) */
enum { EITHER = -1, OFF = 0, ON = 1 };
#define STEN(var, n0, n1, lp, pl, op, q, v, what, h) \
    { var, ANY, n0, n1, lp, pl, op, q, v, "000", what, h }

static const char H_MERGE[] =
    "model: warp 1's misses (sectors 5-7 of line 1, sector 8 of line 2) are 2 L2 requests "
    "after warp 0's 2; ncu would show 3 if L1 merged warp 1's miss on line 1 into warp 0's "
    "outstanding one.  The lab's n0=64 case has the same sectors and states 4";

static const sf_lab STENCIL_LABS[] = {
    /* 000: finite differences, R = 1 (totals of the launch) */
    STEN("deriv_copy", 64, 1, OFF, EITHER, SF_LD, SFQ_SECTORS, 10, "n0=64: 10 sectors where 8 are needed", NULL),
    STEN("deriv_copy", 64, 1, OFF, EITHER, SF_LD, SFQ_L2_REQ, 4, "n0=64: 4 L2 requests", NULL),
    STEN("deriv_copy", 64, 1, ON, EITHER, SF_LD, SFQ_SECTORS, 8, "n0=64 lead pad: 8 sectors", NULL),
    STEN("deriv_copy", 1024, 1, OFF, EITHER, SF_LD, SFQ_SECTORS, 160, "n0=1024: 25 % more than 128", NULL),
    STEN("deriv_copy", 32, 2, OFF, OFF, SF_LD, SFQ_SECTORS, 10, "n0=32,n1=2: 10 sectors", NULL),
    STEN("deriv_copy", 32, 2, OFF, OFF, SF_LD, SFQ_HITS, 1, "n0=32,n1=2: 1 hit", NULL),
    STEN("deriv_copy", 32, 2, OFF, OFF, SF_LD, SFQ_L2_REQ, 3, "n0=32,n1=2: 3 L2 requests", H_MERGE),
    STEN("deriv_copy", 32, 2, ON, OFF, SF_LD, SFQ_SECTORS, 9, "lead pad: 4 + 5 = 9 sectors", NULL),
    STEN("deriv_copy", 32, 2, ON, OFF, SF_LD, SFQ_L2_REQ, 3, "lead pad: 1 + 2 L2 requests", NULL),
    STEN("deriv_copy", 32, 2, ON, ON, SF_LD, SFQ_SECTORS, 8, "lead and leading-dim pad: ideal", NULL),
    STEN("deriv_copy", 32, 5, ON, OFF, SF_LD, SFQ_SECTORS, 23, "lead pad: 4 + 3*5 + 4 = 23", NULL),
    STEN("deriv0", 32, 1, OFF, OFF, SF_LD, SFQ_SECTORS, 9, "misaligned: 5 + 4 sectors", NULL),
    STEN("deriv0", 32, 1, OFF, OFF, SF_LD, SFQ_HIT_PCT, 44.4, "misaligned: hit rate 4/9", NULL),
    STEN("deriv0", 32, 1, OFF, OFF, SF_ST, SFQ_SECTORS, 5, "misaligned: 5 sectors stored", NULL),
    STEN("deriv0", 32, 1, ON, ON, SF_LD, SFQ_SECTORS, 9, "aligned: 4 + 5 sectors", NULL),
    STEN("deriv0", 32, 1, ON, ON, SF_LD, SFQ_HIT_PCT, 44.4, "aligned: hit rate 4/9", NULL),
    STEN("deriv0", 32, 1, ON, ON, SF_ST, SFQ_SECTORS, 4, "aligned: 4 sectors stored", NULL),
};

/* ------------------------------------------------------------ ncu recipe */

/* The lab's geometries (background 000), R = 1 unless said, and deriv1 at
 * R = 2: one small run each.  --quick: the first four. */
#define GEO(run, n0, n1, flags, quick)                                                      \
    { run, n0 " " n1 " 0 {WPB} --kernel {V}" flags, "^stencil_({V|})$", -1,                  \
      "--family stencil --n0 " n0 " --n1 " n1 flags, SF_NCU_SECTORS, quick }
#define LEAD " --lead-pad"
#define BOTH " --lead-pad --pad-leading-dim"

static const sf_ncu_run STENCIL_NCU[] = {
    GEO("64x1", "64", "1", "", 1),
    GEO("64x1_lead", "64", "1", LEAD, 1),
    GEO("1024x1", "1024", "1", "", 1),
    GEO("1024x1_lead", "1024", "1", LEAD, 1),
    GEO("32x1", "32", "1", "", 0),
    GEO("32x1_lead_ld", "32", "1", BOTH, 0),
    GEO("32x2", "32", "2", "", 0),
    GEO("32x2_lead", "32", "2", LEAD, 0),
    GEO("32x2_lead_ld", "32", "2", BOTH, 0),
    GEO("32x5", "32", "5", "", 0),
    GEO("32x5_lead", "32", "5", LEAD, 0),
    GEO("32x5_lead_ld", "32", "5", BOTH, 0),
    GEO("32x32", "32", "32", "", 0),
    GEO("32x32_lead", "32", "32", LEAD, 0),
    GEO("32x32_lead_ld", "32", "32", BOTH, 0),
    GEO("32x32_r2_lead_ld", "32", "32", " --radius 2" BOTH, 0),
};

const struct fam_model fam_model_stencil = {
    "stencil", SF_ROWS(STENCIL_MODEL), SF_SHAPE_2D, SF_N_DEFAULT, NULL, stencil_setup, stencil_lab_params,
    SF_ROWS(STENCIL_LABS), SF_MSET_FULL, "1e7", SF_ROWS(STENCIL_NCU), stencil_draw, NULL,
};
