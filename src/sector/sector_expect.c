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

/* The families whose merges are modelled: the stencil's (its warps store
 * and load whole rows; the shares were calibrated on its probes). */
static int modelled(const sf_variant *v)
{
    const char *f = v ? sf_family_name(v) : NULL;
    return f && !strcmp(f, "stencil");
}

int sf_expect(const sf_variant *v, const sf_prediction *pr, sf_op op, sf_expected *e)
{
    if (!modelled(v) || !pr || (op != SF_LD && op != SF_ST)) return 0;
    const sf_counts *k = &pr->op[op];
    const double req_opp = k->l2_requests > k->l2_requests_merged ? k->l2_requests - k->l2_requests_merged : 0;
    if (op == SF_ST) {
        const double sec_opp = k->l2_sectors > k->l2_sectors_merged ? k->l2_sectors - k->l2_sectors_merged : 0;
        e->l2_requests = k->l2_requests - sf_merge_share(req_opp, SF_MERGE_ST_NUM, SF_MERGE_ST_DEN);
        e->l2_sectors = k->l2_sectors - sf_merge_share(sec_opp, SF_MERGE_ST_NUM, SF_MERGE_ST_DEN);
        e->l1_hits = k->st_line_hits;
    } else {
        e->l2_requests = k->l2_requests - sf_merge_share(req_opp, SF_MERGE_LD_NUM, SF_MERGE_LD_DEN);
        e->l2_sectors = k->l2_sectors;
        e->l1_hits = k->hits;
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

int sf_expect_row(const char *family, const char *variant, const char *config, double wpb,
                  const char *op, sf_expected *e, char *err, size_t errlen)
{
    const sf_variant *v = family && variant ? sf_find(family, variant) : NULL;
    if (!modelled(v)) return 0;
    sf_op o;
    if (op && !strcmp(op, "ld")) o = SF_LD;
    else if (op && !strcmp(op, "st")) o = SF_ST;
    else return 0;
    sf_params p;
    sf_params_default(&p);
    if (!config || stencil_params(config, &p) || !(wpb >= 1 && wpb <= 32 && wpb == floor(wpb))) {
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
