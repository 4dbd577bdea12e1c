/*
 * sector_orders.c - the loads of a block walked in the three other extreme
 * orders of its warps (sf_counts.l2_requests_rev, _wm, _wm_rev): only their
 * L2 requests, for the expected count of the stencil's loads and of
 * patterns' loads of lines neighbouring warps share (sector_expect.h says
 * why the order of the warps matters; sf_expect_orders, which variants read
 * them).  Called by walk_block (sector_sim.c) where the family's setup asks
 * (sf_ctx.orders).
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_sim.h"
#include "err.h"

/* The other orders of a block's warps (sf_counts.l2_requests_rev ...). */
enum { ORD_REV, ORD_WM, ORD_WM_REV };

/* One load of an order walk: its lines with a sector not yet in ocur (each
 * an L2 request, as do_request counts them); its sectors join ocur.  0, or
 * -1 with err. */
static int order_request(sim *S, const sf_access *a, double *requests, char *err, size_t errlen)
{
    uint64_t sec[32];
    uint32_t smask[32];
    unsigned ns, nl, nu;
    if (request_shape(S, a, sec, smask, &ns, &nl, &nu, err, errlen))
        return -1;
    int line_any = 0;
    for (unsigned i = 0; i < ns; i++) {
        if (i > 0 && (sec[i] >> 2) != (sec[i - 1] >> 2)) {
            *requests += line_any;
            line_any = 0;
        }
        uint8_t *f = sset_find(&S->ocur, sec[i]);
        if (!(f && (*f & SF_VALID))) {
            line_any = 1;
            if (sset_add(&S->ocur, sec[i], SF_VALID)) {
                set_err(err, errlen, "out of memory for the L1 sector sets");
                return -1;
            }
        }
    }
    *requests += line_any;
    return 0;
}

/* Block b's loads with its warps in order o (ORD_*): only their L2
 * requests, in *requests (a store never makes a load hit: it leaves its
 * sectors invalid in L1, so stores are skipped). */
static int walk_order(sim *S, uint64_t b, int o, double *requests, char *err, size_t errlen)
{
    const sf_variant *v = S->c.v;
    const unsigned wpb = S->c.p->wpb;
    sf_access a;
    int rc = 0;
    sset_clear(&S->ocur);
    if (o == ORD_REV) {
        for (unsigned k = 0; rc == 0; k++) {
            int any = 0;
            for (unsigned j = 0; j < wpb && rc == 0; j++) {
                if (!v->gen(&S->c, b * wpb + (wpb - 1 - j), k, &a))
                    continue;
                any = 1;
                if (a.active && a.op == SF_LD)
                    rc = order_request(S, &a, requests, err, errlen);
            }
            if (!any)
                break;
        }
        return rc;
    }
    for (unsigned j = 0; j < wpb && rc == 0; j++) {
        const unsigned wi = o == ORD_WM ? j : wpb - 1 - j;
        for (unsigned k = 0; rc == 0 && v->gen(&S->c, b * wpb + wi, k, &a); k++)
            if (a.active && a.op == SF_LD)
                rc = order_request(S, &a, requests, err, errlen);
    }
    return rc;
}

int walk_orders(sim *S, uint64_t b, char *err, size_t errlen)
{
    sf_counts *k = &S->out->op[SF_LD];
    int rc = walk_order(S, b, ORD_REV, &k->l2_requests_rev, err, errlen);
    if (rc == 0)
        rc = walk_order(S, b, ORD_WM, &k->l2_requests_wm, err, errlen);
    if (rc == 0)
        rc = walk_order(S, b, ORD_WM_REV, &k->l2_requests_wm_rev, err, errlen);
    return rc;
}
