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
#include "par.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ counting */

/* out += m x the L1 side of one block (its counts in x). */
static void add_counts(sf_prediction *out, const sf_prediction *x, double m)
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
        o->l2_sectors_merged += m * k->l2_sectors_merged;
        o->l2_requests_merged += m * k->l2_requests_merged;
        o->l2_sectors += m * k->l2_sectors;
        o->l2_sectors_min += m * k->l2_sectors_min;
        o->bytes += m * k->bytes;
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
        add_counts(B->out, &x, m);
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
    for (uint32_t x = m->head; x != NIL; x = m->next[x], n++) {
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

/* 1 when the L2 now is snap (n lines) moved by d lines per array. */
static int l2_is_moved(const sf_blocks *B, const l2ent *snap, size_t n, const int64_t d[2])
{
    const l2sim *m = &B->S.l2;
    if (m->count != n)
        return 0;
    size_t i = 0;
    for (uint32_t x = m->head; x != NIL; x = m->next[x], i++)
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
    const size_t n = l2_list(m, e);
    for (size_t i = 0; i < n; i++) {
        m->res[e[i].x] = 0;
        m->vd[e[i].x] = 0;
        memset(&m->bytes[4 * (size_t)e[i].x], 0, sizeof e[i].bytes);
    }
    m->head = m->tail = NIL;
    m->count = 0;
    for (size_t i = n; i-- > 0;) {
        const uint32_t x = (uint32_t)line_moved(B, e[i].x, d);
        m->res[x] = 1;
        m->vd[x] = e[i].vd;
        memcpy(&m->bytes[4 * (size_t)x], e[i].bytes, sizeof e[i].bytes);
        l2_push_front(m, x);
        m->count++;
    }
    free(e);
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
        const double r0 = S->l2.dram_read, w0 = S->l2.dram_write, p0 = S->l2.dram_partial;
        sf_prediction x;
        memset(&x, 0, sizeof x);
        S->out = &x;
        rc = walk_block(S, j++, err, errlen);
        S->out = B->out;
        add_counts(B->out, &x, 1);
        if (rc || !l2_is_moved(B, snap, n, d))
            continue;
        const uint64_t rest = end - j;
        const double dr = S->l2.dram_read - r0, dw = S->l2.dram_write - w0, dp = S->l2.dram_partial - p0;
        add_counts(B->out, &x, (double)rest);
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
    B->next = end;
    return rc;
}

/* ------------------------------------------------------------ loads only */

void tlru_read(tlru *m, uint64_t sector)
{
    tline *e = &m->line[sector >> 2];
    const unsigned s = sector & 3;
    if (e->last > m->theta) {   /* resident: its latest touch, last - 1, at or after theta */
        const uint64_t old = e->last - 1;
        m->live[old >> 6] &= ~(1ull << (old & 63));
        m->resident--;
    } else {
        e->valid = 0;   /* evicted (or never in): it comes back empty, as l2_touch's */
        if (m->resident >= m->cap) {   /* evict the least recent: the next mark from theta */
            uint64_t w = m->theta >> 6, bits = m->live[w] & (~0ull << (m->theta & 63));
            while (!bits)
                bits = m->live[++w];
            m->theta = (w << 6) + (uint64_t)__builtin_ctzll(bits) + 1;
            m->resident--;
        }
    }
    m->live[m->t >> 6] |= 1ull << (m->t & 63);
    e->last = (uint32_t)(++m->t);
    m->resident++;
    if (!(e->valid & (1u << s))) {
        const unsigned first = s & ~(m->gsect - 1);
        e->valid |= (uint8_t)(((1u << m->gsect) - 1) << first);
        m->dram_read += m->gsect;
    }
}

/* The instructions of warp w (gen until it gives none). */
static unsigned warp_instructions(const sf_ctx *c, uint64_t w)
{
    sf_access a;
    unsigned k = 0;
    while (c->v->gen(c, w, k, &a))
        k++;
    return k;
}

/* One block's requests, as sf_count_loads sees them. */
typedef struct lblock {
    sf_access *acc;         /* the requests with active lanes, in the walk's order */
    uint64_t (*sec)[32];    /* each one's distinct sectors, in order */
    unsigned (*shape)[3];   /* each one's sectors, lines and distinct offsets */
    size_t na, nacc;        /* requests, room */
    unsigned ninstr;        /* the most instructions of a warp */
} lblock;

/* Block b's requests in the walk's order (instruction k of each warp before
 * k + 1) into L.  0, or -1 with err. */
static int lblock_gather(const sim *S, lblock *L, uint64_t b, char *err, size_t errlen)
{
    const sf_ctx *c = &S->c;
    const unsigned wpb = c->p->wpb;
    L->na = 0;
    for (unsigned k = 0;; k++) {
        int any = 0;
        for (unsigned wi = 0; wi < wpb; wi++) {
            sf_access spare;   /* past the room: must stay empty */
            sf_access *a = L->na < L->nacc ? &L->acc[L->na] : &spare;
            if (!c->v->gen(c, b * wpb + wi, k, a))
                continue;
            if (L->na == L->nacc || a->op != SF_LD) {
                set_err(err, errlen, "internal: %s: warp %llu has a store or more than %u "
                        "instructions", c->v->name, (unsigned long long)(b * wpb + wi), L->ninstr);
                return -1;
            }
            any = 1;
            if (a->active)
                L->na++;
        }
        if (!any)
            return 0;
    }
}

/* The sectors, lines and distinct offsets of L's requests (request_shape):
 * what lblock_plain and lblock_count read.  0, or -1 with err. */
static int lblock_shape(const sim *S, lblock *L, char *err, size_t errlen)
{
    uint32_t smask[32];
    for (size_t j = 0; j < L->na; j++) {
        unsigned *sh = L->shape[j];
        if (request_shape(S, &L->acc[j], L->sec[j], smask, &sh[0], &sh[1], &sh[2], err, errlen))
            return -1;
    }
    return 0;
}

/* Ask memory for the lines' entries of L's sectors (a random gather's lines
 * are far apart: waiting for each in turn was most of the time at N = 1e8;
 * sf_count_loads asks a few blocks ahead). */
static void lblock_prefetch(const lblock *L, const tlru *T)
{
    for (size_t j = 0; j < L->na; j++)
        for (unsigned i = 0; i < L->shape[j][0]; i++)
            __builtin_prefetch(&T->line[L->sec[j][i] >> 2], 1);
}

/* Whether block b (its requests shaped in L) is plain (below): each line's
 * stamp says which block touched it last.  1 plain, 0 not. */
static int lblock_plain(const lblock *L, tlru *T, uint64_t b)
{
    int plain = 1;
    for (size_t j = 0; j < L->na; j++)
        for (unsigned i = 0; i < L->shape[j][0]; i++) {
            const uint64_t *sec = L->sec[j];
            if (i > 0 && sec[i] >> 2 == sec[i - 1] >> 2)
                continue;
            tline *e = &T->line[sec[i] >> 2];
            if (e->last > T->theta)   /* the live mark a touch will clear */
                __builtin_prefetch(&T->live[(e->last - 1) >> 6], 1);
            if (e->stamp == b + 1 || (b > 0 && e->stamp == b))
                plain = 0;   /* in an earlier request of this block, or in the previous block */
            e->stamp = (uint32_t)(b + 1);
        }
    return plain;
}

/*
 * Why a plain block's counts are these: every sector of its requests is met
 * by do_request for the first time in the block (no line of it is in two of
 * its requests), and no sector of it is in the previous block's set (no line
 * of it was touched by the previous block).  So each distinct sector misses
 * L1, with no neighbour's bracket (hits 0, hits_max 0, the L2 sectors and
 * their minimum ns), each line is one L2 request, sure, and the first of the
 * block (l2_requests, its minimum and the merged ones nl), and the L2 sees
 * the sectors in the walk's order.
 */
static void lblock_count(const lblock *L, tlru *T, sf_counts *k)
{
    for (size_t j = 0; j < L->na; j++) {
        const unsigned ns = L->shape[j][0], nl = L->shape[j][1], nu = L->shape[j][2];
        k->requests += 1;
        k->sectors += ns;
        k->lines += nl;
        k->wavefronts += (nl + 3) / 4;
        k->bytes += (double)nu * L->acc[j].bytes;
        k->l2_requests += nl;
        k->l2_requests_min += nl;
        k->l2_requests_merged += nl;
        k->l2_sectors += ns;
        k->l2_sectors_min += ns;
        for (unsigned i = 0; i < ns; i++)
            tlru_read(T, L->sec[j][i]);
    }
}

/* The most blocks sf_count_loads gathers and shapes at once, on every
 * core (par_for): each block's requests depend on the block alone. */
#define LCHUNK 1024u

/* One chunk of blocks: their requests, and each one's gathering's outcome. */
typedef struct lbuf {
    lblock L[LCHUNK];
    int rc[LCHUNK];
    char (*err)[256];
    uint64_t first, nb;   /* blocks first .. first + nb - 1 */
} lbuf;

/* A step of sf_count_loads: item 0 takes chunk `take` in order (the L2 and
 * the L1 sets are its alone), items 1.. gather chunk `fill` meanwhile. */
typedef struct lstep {
    sf_blocks *B;
    tlru *T;
    lbuf *take, *fill;
    int rc;
    uint64_t walked;      /* blocks item 0 walked (counted on its thread) */
    char *err;
    size_t errlen;
} lstep;

/* Chunk X's blocks in order: a plain one counted, the others the walk's (the
 * previous block walked for its set, then this one, its L2 touches going to
 * T).  0, or -1 with err. */
static int ltake(sf_blocks *B, tlru *T, const lbuf *X, char *err, size_t errlen)
{
    sim *S = &B->S;
    for (uint64_t i = 0; i < X->nb; i++) {
        const uint64_t b = X->first + i;
        if (X->rc[i]) {
            set_err(err, errlen, "%s", X->err[i]);
            return -1;
        }
        if (i + 2 < X->nb)
            lblock_prefetch(&X->L[i + 2], T);
        if (lblock_plain(&X->L[i], T, b) || S->cg) {
            lblock_count(&X->L[i], T, &B->out->op[SF_LD]);   /* .cg: no L1, every block plain */
            continue;
        }
        S->no_l2 = 1;
        sset_clear(&S->cur);
        if (b > 0 && count_block(B, b - 1, 0, err, errlen))
            return -1;
        S->no_l2 = 0;
        S->out = B->out;
        if (walk_block(S, b, err, errlen))
            return -1;
    }
    return 0;
}

static void lstep_item(void *ctx, size_t i)
{
    lstep *k = ctx;
    if (i == 0) {
        if (k->take) {
            const uint64_t w0 = sf_blocks_walked();
            k->rc = ltake(k->B, k->T, k->take, k->err, k->errlen);
            k->walked = sf_blocks_walked() - w0;
        }
        return;
    }
    lbuf *X = k->fill;
    const sim *S = &k->B->S;
    i--;
    X->rc[i] = lblock_gather(S, &X->L[i], X->first + i, X->err[i], sizeof X->err[i]) ||
               lblock_shape(S, &X->L[i], X->err[i], sizeof X->err[i]) ? -1 : 0;
}

/* Every block, a chunk at a time: the chunk's requests gathered on every
 * core while one core takes the chunk before in order (ltake), which alone
 * touches the L2 and the L1 sets.  The same counts as one block after
 * another: a block's requests depend on it alone. */
int sf_count_loads(sf_blocks *B, char *err, size_t errlen)
{
    sim *S = &B->S;
    const sf_ctx *c = &S->c;
    const sf_params *p = B->p;
    sf_prediction *out = B->out;
    const unsigned ninstr0 = warp_instructions(c, 0), nlast = warp_instructions(c, out->warps - 1);
    const unsigned ninstr = nlast > ninstr0 ? nlast : ninstr0;
    const uint64_t lines = B->lines0 + B->lines1, times = out->warps * ninstr * 32;
    if (times >= UINT32_MAX || out->blocks >= UINT32_MAX) {
        set_err(err, errlen, "%s at N = %llu: more than 2^32 touches of the L2", c->v->name,
                (unsigned long long)p->n);
        return -1;
    }
    tlru T;
    memset(&T, 0, sizeof T);
    T.line = calloc(lines ? lines : 1, sizeof *T.line);
    T.live = calloc(times / 64 + 2, sizeof *T.live);
    T.ntimes = times;
    T.cap = p->l2_bytes / 128 ? p->l2_bytes / 128 : 1;
    T.gsect = p->granule_bytes / 32;
    /* a chunk of about 8192 requests (1024 blocks of WPB 4, two loads a warp):
     * enough to keep every core busy, little memory at WPB 32 */
    const size_t nacc = (size_t)p->wpb * ninstr;
    const uint64_t chunk = 8192 / nacc < 16 ? 16 : 8192 / nacc > LCHUNK ? LCHUNK : 8192 / nacc;
    const size_t room = 2 * chunk * nacc;
    lbuf *X = calloc(2, sizeof *X);
    sf_access *acc = malloc(room * sizeof *acc);
    uint64_t (*sec)[32] = malloc(room * sizeof *sec);
    unsigned (*shape)[3] = malloc(room * sizeof *shape);
    char (*kerr)[256] = malloc(2 * chunk * sizeof *kerr);
    int rc = 0;
    if (!T.line || !T.live || !X || !acc || !sec || !shape || !kerr) {
        set_err(err, errlen, "out of memory for the L2 of %llu lines", (unsigned long long)lines);
        rc = -1;
    }
    for (size_t i = 0; i < 2 * chunk && rc == 0; i++)
        X[i / chunk].L[i % chunk] = (lblock){.acc = acc + i * nacc, .sec = sec + i * nacc,
                                             .shape = shape + i * nacc, .nacc = nacc, .ninstr = ninstr};
    if (rc == 0)
        X[0].err = kerr, X[1].err = kerr + chunk;
    S->tl = &T;
    lstep K = {.B = B, .T = &T, .err = err, .errlen = errlen};
    uint64_t walked = sf_blocks_walked();   /* this thread's, and then item 0's */
    /* step j gathers chunk j and takes chunk j - 1 */
    for (uint64_t j = 0, b0 = 0; rc == 0 && (j == 0 || K.fill); j++, b0 += chunk) {
        K.take = K.fill;
        K.fill = NULL;
        size_t nb = 0;
        if (b0 < out->blocks) {
            K.fill = &X[j % 2];
            nb = out->blocks - b0 < chunk ? out->blocks - b0 : chunk;
            K.fill->first = b0, K.fill->nb = nb;
        }
        K.rc = 0, K.walked = 0;
        par_for(1 + nb, 0, lstep_item, &K);
        rc = K.rc;
        walked += K.walked;   /* on this thread too, when it ran item 0: set below, not added */
    }
    sf_blocks_walked_set(walked);
    S->tl = NULL;
    if (rc == 0 && T.t > T.ntimes) {
        set_err(err, errlen, "internal: %s: %llu touches of the L2, past the %llu counted",
                c->v->name, (unsigned long long)T.t, (unsigned long long)T.ntimes);
        rc = -1;
    }
    out->dram_read_sectors = T.dram_read;
    out->dram_write_sectors = 0;
    out->dram_partial_sectors = 0;
    free(T.line);
    free(T.live);
    free(X);
    free(acc);
    free(sec);
    free(shape);
    free(kerr);
    return rc;
}
