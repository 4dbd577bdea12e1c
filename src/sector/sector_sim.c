/*
 * sector_sim.c - the simulator of sector_families.h: sf_predict and
 * sf_check, whatever the family (each family's address rules are its
 * src/families/NAME/model.c, sector_family.h).
 *
 * How it is computed, and why this way:
 *
 * - Every variant is a generator: gen(ctx, warp, k, &access) gives the k-th
 *   global-memory instruction of a warp (op, array, bytes per lane, each
 *   active lane's byte offset), or 0 past its last instruction.  The
 *   kernels' index rules live there, one small function each, exactly as
 *   the families' headers state them; everything else is shared.
 *
 * - The engine walks the blocks in order and, inside a block, instruction k
 *   of warps 0..WPB-1 before instruction k+1 (the order warps of one block
 *   issue independent loads in).  Per request it sorts the active lanes'
 *   offsets (32 at most), so sectors, lines and distinct bytes are exact.
 *   Lanes are naturally aligned (4, 8, 16 B), so each lane lies in one
 *   sector and one line.
 *
 * - L1: one small hash set of sectors per block (the current one and the
 *   previous block's).  A block's footprint in these kernels is a few KiB,
 *   far below the SM's L1, so capacity never evicts inside a block; across
 *   blocks the model keeps nothing (blocks land on different SMs), except
 *   that it counts the sectors the previous block touched again: those are
 *   the hits_max / *_min brackets.
 *
 * - L2: a fully associative LRU of l2_bytes in 128 B lines, walked line by
 *   line with O(1) updates (doubly linked list over dense line numbers),
 *   each line with a valid and a dirty mask of its four sectors: the fetch
 *   granule and the capacity in lines (docs/sectors.md, "The DRAM model")
 *   applied to the exact order of requests, with stores added
 *   (write-validate: no fetch).
 *
 * - Counting instead (sf_count_blocks, a family's count hook): the same L1
 *   walk of a few blocks per class, no L2 of lines; the family gives the
 *   DRAM sectors in closed form.  p->walk keeps the walk (the tests).
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_sim.h"
#include "err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Batcher's odd-even merge sort of 32 values: its 191 compare-exchanges,
 * the loops of Knuth's algorithm M for n = 32, listed (test_sector_sort.c
 * checks that they sort: every size, duplicates, every order of a few). */
static const unsigned char NET[191][2] = {
    {0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}, {10, 11}, {12, 13}, {14, 15}, {16, 17}, {18, 19},
    {20, 21}, {22, 23}, {24, 25}, {26, 27}, {28, 29}, {30, 31}, {0, 2}, {1, 3}, {4, 6}, {5, 7},
    {8, 10}, {9, 11}, {12, 14}, {13, 15}, {16, 18}, {17, 19}, {20, 22}, {21, 23}, {24, 26},
    {25, 27}, {28, 30}, {29, 31}, {1, 2}, {5, 6}, {9, 10}, {13, 14}, {17, 18}, {21, 22}, {25, 26},
    {29, 30}, {0, 4}, {1, 5}, {2, 6}, {3, 7}, {8, 12}, {9, 13}, {10, 14}, {11, 15}, {16, 20},
    {17, 21}, {18, 22}, {19, 23}, {24, 28}, {25, 29}, {26, 30}, {27, 31}, {2, 4}, {3, 5},
    {10, 12}, {11, 13}, {18, 20}, {19, 21}, {26, 28}, {27, 29}, {1, 2}, {3, 4}, {5, 6}, {9, 10},
    {11, 12}, {13, 14}, {17, 18}, {19, 20}, {21, 22}, {25, 26}, {27, 28}, {29, 30}, {0, 8},
    {1, 9}, {2, 10}, {3, 11}, {4, 12}, {5, 13}, {6, 14}, {7, 15}, {16, 24}, {17, 25}, {18, 26},
    {19, 27}, {20, 28}, {21, 29}, {22, 30}, {23, 31}, {4, 8}, {5, 9}, {6, 10}, {7, 11}, {20, 24},
    {21, 25}, {22, 26}, {23, 27}, {2, 4}, {3, 5}, {6, 8}, {7, 9}, {10, 12}, {11, 13}, {18, 20},
    {19, 21}, {22, 24}, {23, 25}, {26, 28}, {27, 29}, {1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10},
    {11, 12}, {13, 14}, {17, 18}, {19, 20}, {21, 22}, {23, 24}, {25, 26}, {27, 28}, {29, 30},
    {0, 16}, {1, 17}, {2, 18}, {3, 19}, {4, 20}, {5, 21}, {6, 22}, {7, 23}, {8, 24}, {9, 25},
    {10, 26}, {11, 27}, {12, 28}, {13, 29}, {14, 30}, {15, 31}, {8, 16}, {9, 17}, {10, 18},
    {11, 19}, {12, 20}, {13, 21}, {14, 22}, {15, 23}, {4, 8}, {5, 9}, {6, 10}, {7, 11}, {12, 16},
    {13, 17}, {14, 18}, {15, 19}, {20, 24}, {21, 25}, {22, 26}, {23, 27}, {2, 4}, {3, 5}, {6, 8},
    {7, 9}, {10, 12}, {11, 13}, {14, 16}, {15, 17}, {18, 20}, {19, 21}, {22, 24}, {23, 25},
    {26, 28}, {27, 29}, {1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}, {13, 14}, {15, 16},
    {17, 18}, {19, 20}, {21, 22}, {23, 24}, {25, 26}, {27, 28}, {29, 30}
};

/* Sort a warp's offsets in place (at most 32) and count the distinct ones.
 * Most warps' offsets are in lane order already, which one pass sees; the
 * others (random_access's gather) go through the sorting network, padded to
 * 32 with the largest value: 191 compare-exchanges without a branch, where
 * an insertion sort of random offsets mispredicts about once per move.  The
 * network is unrolled, its indices constants: twice as fast as reading them
 * from a table at run time. */
unsigned sort_distinct(uint64_t *v, unsigned n)
{
    int sorted = 1;
    for (unsigned i = 1; i < n; i++)
        sorted &= v[i - 1] <= v[i];
    if (!sorted) {
        uint64_t t[32];
        memcpy(t, v, n * sizeof *v);
        for (unsigned i = n; i < 32; i++)
            t[i] = UINT64_MAX;
#pragma GCC unroll 200
        for (unsigned c = 0; c < 191; c++) {
            const uint64_t x = t[NET[c][0]], y = t[NET[c][1]];
            t[NET[c][0]] = x < y ? x : y;
            t[NET[c][1]] = x < y ? y : x;
        }
        memcpy(v, t, n * sizeof *v);
    }
    unsigned d = n ? 1 : 0;
    for (unsigned i = 1; i < n; i++)
        d += v[i] != v[i - 1];
    return d;
}

/* ------------------------------------------------------------ L1: sector sets */


int sset_init(sset *s, size_t cap)
{
    memset(s, 0, sizeof *s);
    s->cap = cap;
    s->key = malloc(cap * sizeof *s->key);
    s->gen = calloc(cap, sizeof *s->gen);
    s->flag = malloc(cap);
    s->g = 1;
    return s->key && s->gen && s->flag ? 0 : -1;
}

void sset_free(sset *s)
{
    free(s->key);
    free(s->gen);
    free(s->flag);
    memset(s, 0, sizeof *s);
}

void sset_clear(sset *s)
{
    s->count = 0;
    if (++s->g == 0) { /* generation wrapped: forget every entry for real */
        memset(s->gen, 0, s->cap * sizeof *s->gen);
        s->g = 1;
    }
}

static inline size_t slot_of(uint64_t k, size_t cap)
{
    k *= 0x9e3779b97f4a7c15ull;
    return (size_t)(k >> 32) & (cap - 1);
}

/* The flags of sector k, or NULL when the set does not hold it. */
uint8_t *sset_find(const sset *s, uint64_t k)
{
    for (size_t i = slot_of(k, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->gen[i] != s->g)
            return NULL;
        if (s->key[i] == k)
            return &s->flag[i];
    }
}

static int sset_grow(sset *s)
{
    sset n;
    if (sset_init(&n, s->cap * 2))
        return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->gen[i] == s->g) {
            size_t j = slot_of(s->key[i], n.cap);
            while (n.gen[j] == n.g)
                j = (j + 1) & (n.cap - 1);
            n.gen[j] = n.g;
            n.key[j] = s->key[i];
            n.flag[j] = s->flag[i];
            n.count++;
        }
    sset_free(s);
    *s = n;
    return 0;
}

/* Add flags f to sector k (inserting it).  0, or -1 out of memory. */
int sset_add(sset *s, uint64_t k, uint8_t f)
{
    uint8_t *x = sset_find(s, k);
    if (x) {
        *x |= f;
        return 0;
    }
    if (2 * (s->count + 1) > s->cap && sset_grow(s))
        return -1;
    size_t i = slot_of(k, s->cap);
    while (s->gen[i] == s->g)
        i = (i + 1) & (s->cap - 1);
    s->gen[i] = s->g;
    s->key[i] = k;
    s->flag[i] = f;
    s->count++;
    return 0;
}

/* ------------------------------------------------------------ L2: LRU of lines */



/* Room for a list over n lines, empty.  0, or -1 out of memory. */
static int ll_init(llist *l, uint64_t n)
{
    l->prev = malloc(n * sizeof *l->prev);
    l->next = malloc(n * sizeof *l->next);
    l->head = l->tail = NIL;
    return l->prev && l->next ? 0 : -1;
}

static void ll_free(llist *l)
{
    free(l->prev);
    free(l->next);
}

int l2_init(l2sim *m, uint64_t lines, uint64_t cap_lines, unsigned granule)
{
    memset(m, 0, sizeof *m);
    const int lists = ll_init(&m->lru, lines) | ll_init(&m->part, lines);
    m->vd = calloc(lines, 1);
    m->bytes = calloc(4 * lines, sizeof *m->bytes);
    m->res = calloc(lines, 1);
    m->inp = calloc(lines, 1);
    m->cap = cap_lines ? cap_lines : 1;
    m->gsect = granule / 32;
    m->pcap = m->cap / SF_L2_PARTIAL_SHARE;
    if (m->pcap == 0)
        m->pcap = 1;
    return lists == 0 && m->vd && m->bytes && m->res && m->inp ? 0 : -1;
}

void l2_free(l2sim *m)
{
    ll_free(&m->lru);
    ll_free(&m->part);
    free(m->vd);
    free(m->bytes);
    free(m->res);
    free(m->inp);
}

/* Make line x resident and most recently used. */
static void l2_touch(l2sim *m, uint32_t x)
{
    if (m->res[x]) {
        if (m->lru.head != x) {
            ll_unlink(&m->lru, x);
            ll_push_front(&m->lru, x);
        }
        return;
    }
    if (m->count >= m->cap) {
        uint32_t v = m->lru.tail;
        ll_unlink(&m->lru, v);
        m->dram_write += __builtin_popcount(m->vd[v] >> 4);
        for (unsigned k = 0; k < 4; k++) {
            m->dram_partial += (m->vd[v] >> 4 >> k & 1) && m->bytes[4 * (size_t)v + k] != UINT32_MAX;
            m->bytes[4 * (size_t)v + k] = 0;
        }
        if (m->inp[v])
            l2_plist_unlink(m, v);
        m->res[v] = 0;
        m->vd[v] = 0;
        m->count--;
    }
    m->res[x] = 1;
    m->vd[x] = 0;
    ll_push_front(&m->lru, x);
    m->count++;
}

static void l2_read(l2sim *m, uint64_t sector)
{
    const uint32_t x = (uint32_t)(sector >> 2);
    const unsigned s = sector & 3;
    l2_touch(m, x);
    if (!(m->vd[x] & (1u << s))) {
        const unsigned first = s & ~(m->gsect - 1);
        m->vd[x] |= (uint8_t)(((1u << m->gsect) - 1) << first);
        m->dram_read += m->gsect;
    }
}

/* A write of the bytes in mask (bit i = byte i of the sector).
 *
 * Partly written sectors: the H200 does not keep them until the LRU evicts
 * them.  It keeps about a quarter of the effective capacity's lines
 * (SF_L2_PARTIAL_SHARE) holding a partly written sector it never had whole,
 * and writes the least recently written of the rest back, reading each
 * such sector from DRAM first: the DRAM reads of stride_store's loads
 * exceed its `in` by the stores' partial sectors less about 7.4 MB of
 * lines, whatever the footprint past it (the write_fill probes of
 * src/families/copy/calib.tsv on the H200, session5/calib2: footprint x
 * (1 - fills / partial sectors) 6.4 to 8.7 MB, median 7.4, at 16 to 96 MB
 * of lines, strides 2, 8 and 60; the H100's seeds 2025 and 4242, 6.6 to
 * 6.8 MB at 17 to 23 MB, a quarter of its 25 MiB being 6.6 MB), where an
 * LRU of 30 MiB wrote back none below 30 MiB.  A sector written whole
 * (every byte) needs no fill and leaves the list. */
static void l2_write(l2sim *m, uint64_t sector, uint32_t mask)
{
    const uint32_t x = (uint32_t)(sector >> 2);
    l2_touch(m, x);
    m->vd[x] |= (uint8_t)(0x10u << (sector & 3));
    m->bytes[sector] |= mask;
    l2_plist_written(m, x);
}

/* ------------------------------------------------------------ the engine */


int request_shape(const sim *S, const sf_access *a, uint64_t sec[32], uint32_t smask[32],
                  unsigned *ns_out, unsigned *nl_out, unsigned *nu_out, char *err, size_t errlen)
{
    uint64_t off[32];
    unsigned n = 0;
    /* the element's bytes are a power of two but for odd records: a mask
     * instead of a division per lane (a tenth of random_access's count) */
    const uint64_t eb = a->bytes, align = eb & (eb - 1) ? 0 : eb - 1;
    const uint64_t limit = S->c.array_bytes[a->array];
    for (unsigned l = 0; l < 32; l++)
        if (a->active & (1u << l)) {
            if ((align ? a->off[l] & align : a->off[l] % eb) || a->off[l] + eb > limit) {
                set_err(err, errlen, "internal: %s lane %u at byte %llu is misaligned or outside "
                        "its array", S->c.v->name, l, (unsigned long long)a->off[l]);
                return -1;
            }
            off[n++] = a->off[l];
        }
    sort_distinct(off, n);
    unsigned nu = 0, ns = 0, nl = 0;
    for (unsigned i = 0; i < n; i++) {
        if (i > 0 && off[i] == off[i - 1])
            continue;
        nu++;
        const uint64_t s = (S->line_base[a->array] << 2) + off[i] / 32;
        const uint32_t bits = (a->bytes >= 32 ? UINT32_MAX : ((1u << a->bytes) - 1)) << (off[i] % 32);
        if (ns == 0 || sec[ns - 1] != s) {
            if (ns == 0 || (sec[ns - 1] >> 2) != (s >> 2))
                nl++;
            smask[ns] = 0;
            sec[ns++] = s;
        }
        smask[ns - 1] |= bits;
    }
    *ns_out = ns;
    *nl_out = nl;
    *nu_out = nu;
    return 0;
}

static int do_request(sim *S, const sf_access *a, char *err, size_t errlen)
{
    uint64_t sec[32];
    uint32_t smask[32];
    unsigned ns, nl, nu;
    if (request_shape(S, a, sec, smask, &ns, &nl, &nu, err, errlen))
        return -1;
    sf_counts *k = &S->out->op[a->op];
    k->requests += 1;
    k->sectors += ns;
    k->lines += nl;
    k->wavefronts += (nl + 3) / 4;
    k->bytes += (double)nu * a->bytes;

    if (a->op == SF_ST) {
        /* a line the block already sent to L2 (a store, or a load's miss): its tag is in L1,
         * every sector of this store in it is a store hit (sector_expect.h) */
        for (unsigned i = 0; i < ns; i++)
            k->st_line_hits += sset_find(&S->wave, sec[i] >> 2) != NULL;
        for (unsigned i = 0; i < ns; i++) {
            uint8_t *f = sset_find(&S->cur, sec[i]);
            if (f) {
                k->hits += 1;
                k->hits_max += 1;
            } else {
                if (sset_find(&S->prev, sec[i]))
                    k->hits_max += 1;
                if (sset_add(&S->cur, sec[i], SF_STORED))
                    goto oom;
            }
            if (!S->no_l2)
                l2_write(&S->l2, sec[i], smask[i]);
        }
        /* write-through: every sector goes on to L2, one request per line */
        k->l2_requests += nl;
        k->l2_requests_min += nl;
        for (unsigned i = 0; i < ns; i++) {
            const uint64_t skey = (1ull << 63) | sec[i];   /* sectors and lines share the set */
            if (!sset_find(&S->wave, skey)) {
                k->l2_sectors_merged += 1;
                if (sset_add(&S->wave, skey, 1)) goto oom;
            }
            if (i > 0 && (sec[i] >> 2) == (sec[i - 1] >> 2)) continue;
            if (!sset_find(&S->wave, sec[i] >> 2)) {
                k->l2_requests_merged += 1;
                if (sset_add(&S->wave, sec[i] >> 2, 1)) goto oom;
            }
        }
        k->l2_sectors += ns;
        k->l2_sectors_min += ns;
        return 0;
    }
    uint64_t line = UINT64_MAX;
    int line_any = 0, line_sure = 0;
    for (unsigned i = 0; i <= ns; i++) {
        if (i == ns || (sec[i] >> 2) != line) { /* close the previous line */
            k->l2_requests += line_any;
            k->l2_requests_min += line_sure;
            if (line_any && line != UINT64_MAX) {
                if (S->cg) {
                    k->l2_requests_merged += 1;   /* no L1 between: nothing merges */
                } else if (!sset_find(&S->wave, line)) {
                    k->l2_requests_merged += 1;
                    if (sset_add(&S->wave, line, 1)) goto oom;
                }
                if (S->grid_on && !sset_find(&S->grid, (1ull << 63) | line)) {
                    k->l2_requests_grid += 1;
                    if (sset_add(&S->grid, (1ull << 63) | line, 1)) goto oom;
                }
            }
            if (i == ns)
                break;
            line = sec[i] >> 2;
            line_any = line_sure = 0;
        }
        int hit = 0, maybe = 0;
        if (!S->cg) {
            uint8_t *f = sset_find(&S->cur, sec[i]);
            if (f && (*f & SF_VALID)) {
                hit = 1;
            } else {
                uint8_t *p = sset_find(&S->prev, sec[i]);
                maybe = p && (*p & SF_VALID);
                if (sset_add(&S->cur, sec[i], SF_VALID))
                    goto oom;
            }
        }
        if (hit) {
            k->hits += 1;
            k->hits_max += 1;
            continue;
        }
        k->hits_max += maybe;
        k->l2_sectors += 1;
        k->l2_sectors_min += !maybe;
        if (S->grid_on && !sset_find(&S->grid, sec[i])) {
            k->l2_sectors_grid += 1;
            if (sset_add(&S->grid, sec[i], 1)) goto oom;
        }
        line_any = 1;
        line_sure |= !maybe;
        if (!S->no_l2) {
            if (S->rec)
                tbuf_put(S->rec, sec[i]);
            else
                l2_read(&S->l2, sec[i]);
        }
    }
    return 0;
oom:
    set_err(err, errlen, "out of memory for the L1 sector sets");
    return -1;
}

int sf_check_2d(const sf_params *p, char *err, size_t errlen)
{
    if (p->n0 < 1 || p->n1 < 1 || p->n0 > SF_MAX_N || p->n1 > SF_MAX_N ||
        p->n0 * p->n1 > SF_MAX_N) {
        set_err(err, errlen, "stencil %llu x %llu points: each and their product must be "
                "1..%llu", (unsigned long long)p->n0, (unsigned long long)p->n1,
                (unsigned long long)SF_MAX_N);
        return -1;
    }
    if (p->radius < 1 || p->radius > 4) {
        set_err(err, errlen, "stencil radius %u is not 1..4", p->radius);
        return -1;
    }
    return 0;
}

int sf_check_n_cfg(const sf_variant *v, const sf_params *p, char *err, size_t errlen)
{
    if (p->n < 1 || p->n > SF_MAX_N) {
        set_err(err, errlen, "N = %llu is outside 1..%llu (the model keeps a few bytes per "
                "128 B line)", (unsigned long long)p->n, (unsigned long long)SF_MAX_N);
        return -1;
    }
    switch (v->cfg) {
    case SF_CFG_STRIDE:
        if (p->cfg < 1 || p->cfg > p->n) {
            set_err(err, errlen, "%s: stride %llu is not 1..N", v->name, (unsigned long long)p->cfg);
            return -1;
        }
        break;
    case SF_CFG_BATCH:
        if (p->cfg < 1 || p->cfg > 1024 || p->cfg > p->n) {
            set_err(err, errlen, "%s: batch %llu is not 1..min(N, 1024)", v->name,
                    (unsigned long long)p->cfg);
            return -1;
        }
        break;
    case SF_CFG_OFFSET:
        if (p->cfg > 1024) {   /* the kernels' --offset limit */
            set_err(err, errlen, "%s: offset %llu is not 0..1024", v->name,
                    (unsigned long long)p->cfg);
            return -1;
        }
        break;
    default:
        break;
    }
    return 0;
}

/* The simulator's own checks, then the family's. */
static int check_params(const sf_variant *v, const sf_params *p, char *err, size_t errlen)
{
    if (!v || !p || !v->model) {
        set_err(err, errlen, "no variant or no parameters");
        return -1;
    }
    if (p->granule_bytes != 32 && p->granule_bytes != 64 && p->granule_bytes != 128) {
        set_err(err, errlen, "DRAM granularity %u B is not 32, 64 or 128", p->granule_bytes);
        return -1;
    }
    if (p->wpb < 1 || p->wpb > 32) {
        set_err(err, errlen, "warps per block %u is not 1..32", p->wpb);
        return -1;
    }
    if (p->l2_bytes < 128) {
        set_err(err, errlen, "L2 size %llu B is below one line", (unsigned long long)p->l2_bytes);
        return -1;
    }
    if (v->model->check)
        return v->model->check(v, p, err, errlen);
    return v->model->shape == SF_SHAPE_2D ? sf_check_2d(p, err, errlen)
                                          : sf_check_n_cfg(v, p, err, errlen);
}

/* The work of warp 0, the busiest of every generator (grid-stride loops give
 * it the most iterations): per instruction, one for the request and one per
 * distinct 128 B line its lanes touch (an L2 lookup each when they miss).
 * Counting stops once warps x work passes the limit (a grid of one block
 * gives warp 0 every iteration). */
static double warp0_work(const sf_ctx *c, uint64_t warps)
{
    sf_access a;
    double work = 0;
    for (unsigned k = 0; work * (double)warps <= SF_MAX_WORK && c->v->gen(c, 0, k, &a); k++) {
        uint64_t line[32];
        unsigned n = 0;
        for (unsigned l = 0; l < 32; l++)
            if (a.active & (1u << l))
                line[n++] = a.off[l] / 128;
        sort_distinct(line, n);
        work += 1;
        for (unsigned i = 0; i < n; i++)
            work += i == 0 || line[i] != line[i - 1];
    }
    return work;
}

/* 1 when the family counts this launch instead of walking it. */
static int counts(const sf_ctx *c, const sf_params *p)
{
    const struct fam_model *m = c->v->model;
    return !p->walk && m->count && m->count(c, NULL, NULL, NULL, 0) == 0;
}

/* Items, layout and array sizes (the family's setup), then the grid; 0 or -1
 * with err. */
static int setup_ctx(sf_ctx *c, const sf_variant *v, const sf_params *p, sf_prediction *out,
                     char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    c->p = p;
    c->n = p->n;
    c->cfg = v->cfg == SF_CFG_NONE ? 0 : p->cfg;
    c->array_bytes[0] = c->array_bytes[1] = 4 * p->n;
    if (v->cfg != SF_CFG_NONE)
        snprintf(out->config, sizeof out->config, "%s=%llu", sf_cfg_name(v->cfg),
                 (unsigned long long)p->cfg);
    else
        snprintf(out->config, sizeof out->config, "-");
    if (v->model->setup(c, v, p, out, err, errlen))
        return -1;
    const uint64_t threads = c->threads ? c->threads : c->items;
    if (c->items == 0) {
        set_err(err, errlen, "%s %s: no thread has work (N = %llu)", v->model->name, v->name,
                (unsigned long long)p->n);
        return -1;
    }
    const uint64_t tpb = 32ull * p->wpb;
    out->items = c->items;
    out->blocks = c->blocks_floor ? threads / tpb : (threads + tpb - 1) / tpb;
    out->warps = out->blocks * p->wpb;
    out->sms = p->sms;
    if (counts(c, p))
        return 0;   /* counted, not walked: no limit */
    const double work = (double)out->warps * warp0_work(c, out->warps);
    if (work > SF_MAX_WORK) {
        set_err(err, errlen, "at N = %llu (%s, WPB %u) the model would walk about %.2g requests "
                "and line lookups (%llu warps), more than its limit of %.3g (under a minute): "
                "give a smaller N", (unsigned long long)p->n, out->config, p->wpb, work,
                (unsigned long long)out->warps, SF_MAX_WORK);
        return -1;
    }
    return 0;
}

int sf_check(const sf_variant *v, const sf_params *p, char *err, size_t errlen)
{
    sf_ctx c;
    sf_prediction pr;
    if (check_params(v, p, err, errlen))
        return -1;
    memset(&pr, 0, sizeof pr);
    return setup_ctx(&c, v, p, &pr, err, errlen);
}

int sf_would_count(const sf_variant *v, const sf_params *p)
{
    sf_ctx c;
    sf_prediction pr;
    char err[256];
    memset(&pr, 0, sizeof pr);
    if (check_params(v, p, err, sizeof err) || setup_ctx(&c, v, p, &pr, err, sizeof err))
        return 0;
    return counts(&c, p);
}

void sim_free(sim *S)
{
    sset_free(&S->ocur);
    sset_free(&S->cur);
    sset_free(&S->prev);
    sset_free(&S->wave);
    sset_free(&S->grid);
    l2_free(&S->l2);
}

/* Blocks walked by the last sf_predict (sf_blocks_walked). */
static _Thread_local uint64_t blocks_walked;

uint64_t sf_blocks_walked(void) { return blocks_walked; }

void sf_blocks_walked_set(uint64_t n) { blocks_walked = n; }

/* Block b: the previous block's sectors become prev, then instruction k of
 * each warp before instruction k+1 (with S->orders, then its loads in the
 * three other orders). */
int walk_block(sim *S, uint64_t b, char *err, size_t errlen)
{
    blocks_walked++;
    const sf_variant *v = S->c.v;
    const unsigned wpb = S->c.p->wpb;
    int rc = 0;
    sf_access a;
    sset t = S->prev;
    S->prev = S->cur;
    S->cur = t;
    sset_clear(&S->cur);
    sset_clear(&S->wave);
    for (unsigned k = 0; rc == 0; k++) {
        int any = 0;
        for (unsigned wi = 0; wi < wpb && rc == 0; wi++) {
            if (!v->gen(&S->c, b * wpb + wi, k, &a))
                continue;
            any = 1;
            if (a.active)
                rc = do_request(S, &a, err, errlen);
        }
        if (!any)
            break;
    }
    if (rc == 0 && S->orders)
        rc = walk_orders(S, b, err, errlen);
    return rc;
}

/* Every block in turn. */
static int walk(sim *S, char *err, size_t errlen)
{
    int rc = 0;
    for (uint64_t b = 0; b < S->out->blocks && rc == 0; b++)
        rc = walk_block(S, b, err, errlen);
    return rc;
}

/* The count branch of sf_predict: S's launch through its family's count
 * hook (which calls sector_count.c): S set up (ctx, line bases, cg), its sets
 * not yet allocated; the arrays have lines0 and lines1 lines.  0, or -1 with
 * err. */
static int sim_count(sim *S0, uint64_t lines0, uint64_t lines1, char *err, size_t errlen)
{
    const sf_variant *v = S0->c.v;
    const sf_params *p = S0->c.p;
    sf_prediction *out = S0->out;
    sf_blocks B;
    memset(&B, 0, sizeof B);
    B.S = *S0;
    B.S.no_l2 = 1;
    B.out = out;
    B.p = p;
    B.lines0 = lines0;
    B.lines1 = lines1;
    int rc = sset_init(&B.S.cur, 1024) || sset_init(&B.S.prev, 1024) || sset_init(&B.S.wave, 256) ||
             (B.S.orders && sset_init(&B.S.ocur, 1024));
    if (rc)
        set_err(err, errlen, "out of memory for the L1 sector sets");
    else
        rc = v->model->count(&B.S.c, &B, out, err, errlen);
    if (rc > 0)
        set_err(err, errlen, "internal: %s %s: the count declined what it accepted",
                v->model->name, v->name);
    if (rc == 0 && B.l2_ready) {   /* runs walked through the L2 (sf_count_run) */
        if (B.next != out->blocks) {
            set_err(err, errlen, "internal: %s %s: the runs end at block %llu of %llu",
                    v->model->name, v->name, (unsigned long long)B.next,
                    (unsigned long long)out->blocks);
            rc = -1;
        }
        out->dram_read_sectors = B.S.l2.dram_read;
        out->dram_write_sectors = B.S.l2.dram_write;
        out->dram_partial_sectors = B.S.l2.dram_partial;
        out->dram_read_sectors += sf_open_partial_fills(p, out);
    }
    sim_free(&B.S);
    return rc ? -1 : 0;
}

int sf_predict(const sf_variant *v, const sf_params *p, sf_prediction *out, char *err,
               size_t errlen)
{
    if (!out || check_params(v, p, err, errlen))
        return -1;
    memset(out, 0, sizeof *out);
    blocks_walked = 0;
    sim S;
    memset(&S, 0, sizeof S);
    S.out = out;
    if (setup_ctx(&S.c, v, p, out, err, errlen))
        return -1;
    S.cg = v->path == SF_PATH_CG;
    /* the loads in the other orders too where the family's setup asks
     * (sf_ctx.orders); without L1 (cg) the order changes nothing */
    S.orders = S.c.orders && !S.cg;
    const uint64_t lines0 = (S.c.array_bytes[0] + 127) / 128;
    const uint64_t lines1 = (S.c.array_bytes[1] + 127) / 128;
    S.line_base[0] = 0;
    S.line_base[1] = lines0;
    if (counts(&S.c, p)) {
        const int rc = sim_count(&S, lines0, lines1, err, errlen);
        out->has_load = out->op[SF_LD].requests > 0;
        out->has_store = out->op[SF_ST].requests > 0;
        return rc;
    }
    /* the launch's distinct L2 sectors and lines where the family's setup
     * asks (sf_ctx.grid): walked launches only, through L1 */
    S.grid_on = S.c.grid && !S.cg;
    if (sset_init(&S.cur, 1024) || sset_init(&S.prev, 1024) || sset_init(&S.wave, 256) ||
        (S.orders && sset_init(&S.ocur, 1024)) || (S.grid_on && sset_init(&S.grid, 4096)) ||
        l2_init(&S.l2, lines0 + lines1, p->l2_bytes / 128, p->granule_bytes)) {
        sim_free(&S);
        set_err(err, errlen, "out of memory for the model of %llu lines",
                (unsigned long long)(lines0 + lines1));
        return -1;
    }
    const int rc = walk(&S, err, errlen);
    out->dram_read_sectors = S.l2.dram_read;
    out->dram_write_sectors = S.l2.dram_write;
    out->dram_partial_sectors = S.l2.dram_partial;
    out->dram_read_sectors += sf_open_partial_fills(p, out);
    out->has_load = out->op[SF_LD].requests > 0;
    out->has_store = out->op[SF_ST].requests > 0;
    sim_free(&S);
    return rc;
}

/* ------------------------------------------------------------ random draws */

void sf_draw_begin(sf_draw *out, uint64_t *rng)
{
    sf_params_default(&out->p);
    out->p.n = sf_draw_n(rng);
    out->p.wpb = sf_draw_wpb(rng);
    out->p.cfg = 0;
}

void sf_draw_line(sf_draw *out, const sf_variant *v, const char *opt)
{
    const int k = snprintf(out->args, sizeof out->args, "%llu 0 %u --kernel %s", (unsigned long long)out->p.n,
                           out->p.wpb, v->name);
    if (opt && k > 0 && (size_t)k < sizeof out->args)
        snprintf(out->args + k, sizeof out->args - (size_t)k, " %s %llu", opt, (unsigned long long)out->p.cfg);
}
