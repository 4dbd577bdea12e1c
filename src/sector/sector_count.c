/*
 * sector_count.c - counting instead of walking (sector_family.h:
 * sf_count_blocks, sf_count_run): the blocks a family's count hook names
 * are walked with the simulator's own block walk (sector_sim.c) and
 * multiplied, or the L2 walked until it settles and the rest of a run
 * added.  Why each is exact: sector_family.h and the comments below.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_sim.h"
#include "err.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ counting */

void sim_add_counts(sf_prediction *out, const sf_prediction *x, double m)
{
    for (int op = 0; op < 2; op++) {
        sf_counts *o = &out->op[op];
        const sf_counts *k = &x->op[op];
        o->requests += m * k->requests;
        o->sectors += m * k->sectors;
        o->lines += m * k->lines;
        o->wavefronts += m * k->wavefronts;
        o->hits += m * k->hits;
        o->hits_max += m * k->hits_max;
        o->l2_requests += m * k->l2_requests;
        o->l2_requests_min += m * k->l2_requests_min;
        o->l2_requests_rev += m * k->l2_requests_rev;
        o->l2_requests_wm += m * k->l2_requests_wm;
        o->l2_requests_wm_rev += m * k->l2_requests_wm_rev;
        o->l2_sectors_merged += m * k->l2_sectors_merged;
        o->l2_requests_merged += m * k->l2_requests_merged;
        o->l2_sectors += m * k->l2_sectors;
        o->l2_sectors_min += m * k->l2_sectors_min;
        o->bytes += m * k->bytes;
        o->st_line_hits += m * k->st_line_hits;
    }
}

/* Walk block b into a zeroed scratch prediction, and add it m times (m = 0:
 * walked for the next block's brackets only). */
static int count_block(sf_blocks *B, uint64_t b, double m, char *err, size_t errlen)
{
    sf_prediction x;
    memset(&x, 0, sizeof x);
    B->S.out = &x;
    const int rc = walk_block(&B->S, b, err, errlen);
    B->S.out = B->out;
    if (rc == 0 && m > 0)
        sim_add_counts(B->out, &x, m);
    return rc;
}

int sf_count_blocks(sf_blocks *B, uint64_t first, uint64_t count, char *err, size_t errlen)
{
    if (count == 0)
        return 0;
    if (first + count > B->out->blocks) {
        set_err(err, errlen, "internal: blocks %llu..%llu of %llu", (unsigned long long)first,
                (unsigned long long)(first + count - 1), (unsigned long long)B->out->blocks);
        return -1;
    }
    /* the previous block's sectors, for the brackets (the walk's order) */
    B->S.no_l2 = 1;
    sset_clear(&B->S.cur);
    if (first > 0 && count_block(B, first - 1, 0, err, errlen))
        return -1;
    if (count_block(B, first, 1, err, errlen))
        return -1;
    if (count > 1 && count_block(B, first + 1, (double)(count - 1), err, errlen))
        return -1;
    return 0;
}

/* One resident L2 line, as the periodicity check compares them. */
typedef struct l2ent {
    uint32_t x;
    uint8_t vd;
    uint32_t bytes[4];
} l2ent;

/* The resident lines, most recent first, into e (room for m->count). */
static size_t l2_list(const l2sim *m, l2ent *e)
{
    size_t n = 0;
    for (uint32_t x = m->lru.head; x != NIL; x = m->lru.next[x], n++) {
        e[n].x = x;
        e[n].vd = m->vd[x];
        memcpy(e[n].bytes, &m->bytes[4 * (size_t)x], sizeof e[n].bytes);
    }
    return n;
}

/* Line x moved by d[array] lines (the array: x below lines0 or not). */
static uint64_t line_moved(const sf_blocks *B, uint64_t x, const int64_t d[2])
{
    return (uint64_t)((int64_t)x + d[x < B->lines0 ? 0 : 1]);
}

/* 1 when the L2 now is snap (n lines) moved by d lines per array, its
 * partly written lines (psnap, pn of them, newest first) too. */
static int l2_is_moved(const sf_blocks *B, const l2ent *snap, size_t n, const uint32_t *psnap,
                       size_t pn, const int64_t d[2])
{
    const l2sim *m = &B->S.l2;
    if (m->count != n || m->pcount != pn)
        return 0;
    size_t i = 0;
    for (uint32_t x = m->part.head; x != NIL; x = m->part.next[x], i++)
        if (x != line_moved(B, psnap[i], d))
            return 0;
    i = 0;
    for (uint32_t x = m->lru.head; x != NIL; x = m->lru.next[x], i++)
        if (x != line_moved(B, snap[i].x, d) || m->vd[x] != snap[i].vd ||
            memcmp(&m->bytes[4 * (size_t)x], snap[i].bytes, sizeof snap[i].bytes))
            return 0;
    return 1;
}

/* Move every resident line by d lines per array, keeping the LRU order. */
static int l2_move(sf_blocks *B, const int64_t d[2])
{
    l2sim *m = &B->S.l2;
    l2ent *e = malloc((m->count ? m->count : 1) * sizeof *e);
    if (!e)
        return -1;
    uint32_t *p = malloc((m->pcount ? m->pcount : 1) * sizeof *p);
    if (!p) {
        free(e);
        return -1;
    }
    const size_t pn = l2_plist(m, p);
    l2_plist_clear(m);
    const size_t n = l2_list(m, e);
    for (size_t i = 0; i < n; i++) {
        m->res[e[i].x] = 0;
        m->vd[e[i].x] = 0;
        memset(&m->bytes[4 * (size_t)e[i].x], 0, sizeof e[i].bytes);
    }
    m->lru.head = m->lru.tail = NIL;
    m->count = 0;
    for (size_t i = n; i-- > 0;) {
        const uint32_t x = (uint32_t)line_moved(B, e[i].x, d);
        m->res[x] = 1;
        m->vd[x] = e[i].vd;
        memcpy(&m->bytes[4 * (size_t)x], e[i].bytes, sizeof e[i].bytes);
        ll_push_front(&m->lru, x);
        m->count++;
    }
    for (size_t i = 0; i < pn; i++)
        l2_plist_push_back(m, (uint32_t)line_moved(B, p[i], d));
    free(e);
    free(p);
    return 0;
}

/* Move every sector of an L1 set by d lines per array (4 sectors a line). */
static int sset_move(sf_blocks *B, sset *s, const int64_t d[2])
{
    const size_t n = s->count;
    uint64_t *k = malloc((n ? n : 1) * sizeof *k);
    uint8_t *f = malloc(n ? n : 1);
    if (!k || !f) {
        free(k), free(f);
        return -1;
    }
    size_t j = 0;
    for (size_t i = 0; i < s->cap; i++)
        if (s->gen[i] == s->g)
            k[j] = s->key[i], f[j++] = s->flag[i];
    sset_clear(s);
    int rc = 0;
    for (size_t i = 0; i < j && rc == 0; i++)
        rc = sset_add(s, (uint64_t)((int64_t)k[i] + 4 * d[k[i] < 4 * B->lines0 ? 0 : 1]), f[i]);
    free(k), free(f);
    return rc;
}

int sf_count_run(sf_blocks *B, uint64_t first, uint64_t count, const uint64_t shift[2], char *err,
                 size_t errlen)
{
    if (count == 0)
        return 0;
    if (first != B->next || first + count > B->out->blocks || shift[0] % 128 || shift[1] % 128) {
        set_err(err, errlen, "internal: run of blocks %llu..%llu (next %llu of %llu)",
                (unsigned long long)first, (unsigned long long)(first + count - 1),
                (unsigned long long)B->next, (unsigned long long)B->out->blocks);
        return -1;
    }
    sim *S = &B->S;
    if (!B->l2_ready) {
        if (l2_init(&S->l2, B->lines0 + B->lines1, B->p->l2_bytes / 128, B->p->granule_bytes)) {
            set_err(err, errlen, "out of memory for the model of %llu lines",
                    (unsigned long long)(B->lines0 + B->lines1));
            return -1;
        }
        B->l2_ready = 1;
    }
    S->no_l2 = 0;
    const int64_t d[2] = {(int64_t)(shift[0] / 128), (int64_t)(shift[1] / 128)};
    const uint64_t end = first + count;
    uint64_t j = first, check = UINT64_MAX, full_at = 0;
    l2ent *snap = NULL;
    uint32_t *psnap = NULL;
    int rc = 0;
    while (j < end && rc == 0) {
        /* a moved block adds new lines: until the L2 is full it grows and
         * cannot be the same moved; from the block where it is full, check
         * each block, then ever fewer (at most an eighth more blocks walked
         * than where it settled) */
        if (check == UINT64_MAX && S->l2.count == S->l2.cap && j > first)
            check = full_at = j;
        if (j != check || end - j < 3) {
            S->out = B->out;
            rc = walk_block(S, j++, err, errlen);
            continue;
        }
        /* is the state after block j the state before it, moved by one block?
         * Then so is every next one (the blocks are moved alike, and the L1
         * and L2 rules see only which lines are equal): each block adds what
         * block j added, and the state at the end is this one moved. */
        check = j + 1 + (j - full_at) / 8;
        snap = realloc(snap, (S->l2.count ? S->l2.count : 1) * sizeof *snap);
        if (!snap) {
            set_err(err, errlen, "out of memory for the L2 snapshot");
            return -1;
        }
        const size_t n = l2_list(&S->l2, snap);
        psnap = realloc(psnap, (S->l2.pcount ? S->l2.pcount : 1) * sizeof *psnap);
        if (!psnap) {
            set_err(err, errlen, "out of memory for the L2 snapshot");
            free(snap);
            return -1;
        }
        const size_t pn = l2_plist(&S->l2, psnap);
        const double r0 = S->l2.dram_read, w0 = S->l2.dram_write, p0 = S->l2.dram_partial;
        sf_prediction x;
        memset(&x, 0, sizeof x);
        S->out = &x;
        rc = walk_block(S, j++, err, errlen);
        S->out = B->out;
        sim_add_counts(B->out, &x, 1);
        if (rc || !l2_is_moved(B, snap, n, psnap, pn, d))
            continue;
        const uint64_t rest = end - j;
        const double dr = S->l2.dram_read - r0, dw = S->l2.dram_write - w0, dp = S->l2.dram_partial - p0;
        sim_add_counts(B->out, &x, (double)rest);
        S->l2.dram_read += (double)rest * dr;
        S->l2.dram_write += (double)rest * dw;
        S->l2.dram_partial += (double)rest * dp;
        const int64_t dd[2] = {(int64_t)rest * d[0], (int64_t)rest * d[1]};
        if (l2_move(B, dd) || sset_move(B, &S->cur, dd)) {
            set_err(err, errlen, "out of memory moving the L2");
            rc = -1;
        }
        j = end;
    }
    free(snap);
    free(psnap);
    B->next = end;
    return rc;
}
