/*
 * sector_l2part.c - the L2 model's lines with a partly written sector
 * (sector_sim.h, l2sim.pprev/pnext): at most pcap of them, the least
 * recently written past that written back, each partial sector read from
 * DRAM first.  Why: sector_sim.c, l2_write.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_sim.h"

#include <stdint.h>

/* The lines with a partly written sector (l2sim.pprev/pnext): unlink,
 * push to the front, and the rebuild of sector_count.c's moved copies. */
void l2_plist_unlink(l2sim *m, uint32_t x)
{
    if (m->pprev[x] != NIL) m->pnext[m->pprev[x]] = m->pnext[x]; else m->phead = m->pnext[x];
    if (m->pnext[x] != NIL) m->pprev[m->pnext[x]] = m->pprev[x]; else m->ptail = m->pprev[x];
    m->inp[x] = 0;
    m->pcount--;
}

static void pl_push_front(l2sim *m, uint32_t x)
{
    m->pprev[x] = NIL;
    m->pnext[x] = m->phead;
    if (m->phead != NIL) m->pprev[m->phead] = x; else m->ptail = x;
    m->phead = x;
    m->inp[x] = 1;
    m->pcount++;
}

size_t l2_plist(const l2sim *m, uint32_t *out)
{
    size_t n = 0;
    for (uint32_t x = m->phead; x != NIL; x = m->pnext[x])
        out[n++] = x;
    return n;
}

void l2_plist_clear(l2sim *m)
{
    while (m->phead != NIL)
        l2_plist_unlink(m, m->phead);
}

void l2_plist_push_back(l2sim *m, uint32_t x)
{
    m->pnext[x] = NIL;
    m->pprev[x] = m->ptail;
    if (m->ptail != NIL) m->pnext[m->ptail] = x; else m->phead = x;
    m->ptail = x;
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
    const uint32_t v = m->ptail;
    for (unsigned k = 0; k < 4; k++) {
        if (!(m->vd[v] >> 4 >> k & 1))
            continue;
        if (l2_sector_partial(m, v, k)) {
            m->dram_read += 1;
            m->dram_fill += 1;
        }
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
            if (m->phead != x) {
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
