/*
 * sector_l2part.c - the L2 model's lines with a partly written sector
 * (sector_sim.h, l2sim.part): at most pcap of them, the least
 * recently written past that written back, each partial sector read from
 * DRAM first.  Why: sector_sim.c, l2_write.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_sim.h"

#include <math.h>
#include <stdint.h>

#include "sector_expect.h"

/* The lines with a partly written sector (l2sim.part): unlink,
 * push to the front, and the rebuild of sector_count.c's moved copies. */
void l2_plist_unlink(l2sim *m, uint32_t x)
{
    ll_unlink(&m->part, x);
    m->inp[x] = 0;
    m->pcount--;
}

static void pl_push_front(l2sim *m, uint32_t x)
{
    ll_push_front(&m->part, x);
    m->inp[x] = 1;
    m->pcount++;
}

size_t l2_plist(const l2sim *m, uint32_t *out)
{
    size_t n = 0;
    for (uint32_t x = m->part.head; x != NIL; x = m->part.next[x])
        out[n++] = x;
    return n;
}

void l2_plist_clear(l2sim *m)
{
    while (m->part.head != NIL)
        l2_plist_unlink(m, m->part.head);
}

void l2_plist_push_back(l2sim *m, uint32_t x)
{
    ll_push_back(&m->part, x);
    m->inp[x] = 1;
    m->pcount++;
}

/* Sector k of line x is written, but only partly, and was never whole in
 * the L2 (not valid): writing it back needs its other bytes from DRAM. */
static int l2_sector_partial(const l2sim *m, uint32_t x, unsigned k)
{
    return (m->vd[x] >> 4 >> k & 1) && !(m->vd[x] >> k & 1) &&
           m->bytes[4 * (size_t)x + k] != UINT32_MAX;
}

static int l2_line_partial(const l2sim *m, uint32_t x)
{
    for (unsigned k = 0; k < 4; k++)
        if (l2_sector_partial(m, x, k))
            return 1;
    return 0;
}

/* Write back the least recently written partly written line, whole: each
 * partial sector read from DRAM first (a fill), then every dirty sector
 * written; the line stays, its sectors now valid and clean. */
static void l2_clean_oldest_partial(l2sim *m)
{
    const uint32_t v = m->part.tail;
    for (unsigned k = 0; k < 4; k++) {
        if (!(m->vd[v] >> 4 >> k & 1))
            continue;
        if (l2_sector_partial(m, v, k))
            m->dram_read += 1;
        m->dram_write += 1;
        m->bytes[4 * (size_t)v + k] = 0;
        m->vd[v] = (uint8_t)((m->vd[v] & ~(0x10u << k)) | (1u << k));
    }
    l2_plist_unlink(m, v);
}

/* Line x was just written: in the list, newest, while it holds a partly
 * written sector; out of it once none is left; the oldest written back
 * when the list outgrows pcap. */
void l2_plist_written(l2sim *m, uint32_t x)
{
    if (l2_line_partial(m, x)) {
        if (m->inp[x]) {
            if (m->part.head != x) {
                l2_plist_unlink(m, x);
                pl_push_front(m, x);
            }
        } else {
            pl_push_front(m, x);
            if (m->pcount > m->pcap)
                l2_clean_oldest_partial(m);
        }
    } else if (m->inp[x]) {
        l2_plist_unlink(m, x);
    }
}

/* The share f of the open lines written back while still partial, when O
 * lines are open at once and at most P may be (sf_open_partial_fills): the
 * list's evictions fall on the open lines at one rate h, none safer for
 * being rewritten (every open line is rewritten each iteration, so the
 * order of writes among them is only the iteration's phase).  A line open
 * for time T then survives with e^-hT, the list holds O (1 - e^-hT) / (hT)
 * lines on average, which is P once O > P: f = 1 - e^-x where
 * (1 - e^-x) / x = P / O, i.e. f / -ln(1 - f) = P / O.  0 while O <= P. */
double l2_open_partial_share(double open, double cap)
{
    if (!(open > cap) || !(cap > 0))
        return 0;
    const double r = cap / open;
    double lo = 0, hi = 1;
    for (int i = 0; i < 64; i++) {
        const double f = (lo + hi) / 2;
        if (f / -log1p(-f) > r) lo = f; else hi = f;
    }
    return (lo + hi) / 2;
}

/* A launch whose warps each hold out->open_lines lines partly written from
 * their first store to their last (the family's setup says: copy's rolled
 * batch loops, B of them, one element a lane per line and turn), so that
 * the lines open at once are the resident warps' (blocks of the first wave,
 * at most SF_SM_MAX_WARPS / WPB and SF_SM_MAX_BLOCKS an SM, on p->sms SMs)
 * times open_lines.  The walk, a block at a time, never holds more than one
 * block's lines open; past the partial list's capacity (the L2's lines /
 * SF_L2_PARTIAL_SHARE, l2_write) the share l2_open_partial_share of them is
 * written back partly written, each of their sectors read from DRAM first.
 * The extra DRAM reads: that share of the stores' out->open_sectors. */
double sf_open_partial_fills(const sf_params *p, const sf_prediction *out)
{
    const uint64_t wpb = sf_launch_wpb(out);
    if (!p || !out || out->open_lines < 2 || wpb == 0)
        return 0;
    const uint64_t per_sm = sf_sm_block_cap(wpb);
    const uint64_t sms = p->sms ? p->sms : 1;
    const uint64_t blocks = out->blocks < sms * per_sm ? out->blocks : sms * per_sm;
    const double open = (double)blocks * (double)wpb * (double)out->open_lines;
    const double cap = (double)(p->l2_bytes / 128 / SF_L2_PARTIAL_SHARE);
    return (double)llround(out->open_sectors * l2_open_partial_share(open, cap));
}
