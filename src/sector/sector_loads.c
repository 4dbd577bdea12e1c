/*
 * sector_loads.c - sf_count_loads (sector_family.h): a launch of loads only,
 * every block counted or walked on every core, the walk's L2 run over
 * chunks of their touches on every core.  Why it is the walk's to the
 * sector: the comments below.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_sim.h"
#include "err.h"
#include "par.h"

#include <stdlib.h>
#include <string.h>

/*
 * sf_count_loads, in three passes, each on every core (par_for), with the
 * walk's numbers:
 *
 * 1. The touches.  The L1 side of a block (its requests, the previous
 *    block's sectors) never reads the L2, so tasks of consecutive blocks
 *    find each block's counts and its L2 touches (the sectors that go on to
 *    L2, in the walk's order) on their own, each into its own buffer; laid
 *    end to end they are the walk's touches of the L2, and a touch's time is
 *    its place among them.
 * 2. The L2, a task's touches at a time (a chunk).  The L2 is a fully
 *    associative LRU: the lines it holds at a time are the cap lines touched
 *    most recently before it, in that order, whatever came earlier.  So a
 *    chunk reads the touches before it backwards until it has cap lines (or
 *    none are left), and runs the LRU over its own touches from there: every
 *    hit and miss is the walk's.  Only what those inherited lines hold is
 *    unknown: the chunk counts their reads as if they held nothing, records
 *    per inherited line the granules it touched before its first miss (a
 *    line comes back empty), and per line resident at its end what it holds
 *    (or that it was inherited: what it held at the start and what it
 *    touched).
 * 3. The fix, chunk after chunk: a line holds at the start of chunk k what it
 *    held at the end of chunk k - 1, and each granule an inherited line
 *    touched while it already held it was counted once too many.
 *
 * The counts are integers, so summing them by task instead of in order
 * gives the same doubles.
 *
 * Cost: every lane once (pass 1), every touch once (pass 2, its line's
 * entries asked for ahead), and per chunk a look back of about the L2's
 * lines in touches (of every touch before it where all the launch's lines
 * fit in the L2: then there are few).  Memory: 4 B a touch (450 MB for
 * random_access at N = 1e8) and 5 B a line per chunk running (31 MB).
 */

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

/* A set of lines for lblock_plain, cleared in O(1) by a generation number
 * and inlined: two probes a line of a random gather's blocks (sset's three
 * calls took a sixth of the time at N = 1e8).  Room for 8 times a block's
 * lines: it never fills, and a probe seldom meets a taken slot (a branch
 * mispredicted each time); the generations (one per two blocks) never wrap
 * (fewer than 2^32 blocks). */
typedef struct lslot {
    uint32_t line, gen;
} lslot;

typedef struct lset {
    lslot *e;
    uint32_t mask, shift, g;
} lset;

/* Room for n lines, empty.  0, or -1 out of memory. */
static int lset_init(lset *s, size_t n)
{
    unsigned bits = 4;
    while ((1ull << bits) < 8 * n)
        bits++;
    s->e = calloc((size_t)1 << bits, sizeof *s->e);
    s->mask = (uint32_t)((1ull << bits) - 1);
    s->shift = 32 - bits;
    s->g = 1;
    return s->e ? 0 : -1;
}

static inline uint32_t lset_slot(const lset *s, uint32_t x)
{
    return (x * 0x9e3779b9u) >> s->shift;
}

/* Add line x; 1 when it was in already. */
static inline int lset_put(lset *s, uint32_t x)
{
    for (uint32_t i = lset_slot(s, x);; i = (i + 1) & s->mask) {
        if (s->e[i].gen != s->g) {
            s->e[i] = (lslot){x, s->g};
            return 0;
        }
        if (s->e[i].line == x)
            return 1;
    }
}

static inline int lset_has(const lset *s, uint32_t x)
{
    for (uint32_t i = lset_slot(s, x);; i = (i + 1) & s->mask) {
        if (s->e[i].gen != s->g)
            return 0;
        if (s->e[i].line == x)
            return 1;
    }
}

/* Whether block L is plain (below): none of its lines is in two of its
 * requests or in the previous block's (the set prev); its lines go to cur
 * (emptied first).  1 plain, 0 not. */
static int lblock_plain(const lblock *L, lset *cur, const lset *prev)
{
    int plain = 1;
    cur->g++;
    for (size_t j = 0; j < L->na; j++)
        for (unsigned i = 0; i < L->shape[j][0]; i++) {
            const uint64_t *sec = L->sec[j];
            if (i > 0 && sec[i] >> 2 == sec[i - 1] >> 2)
                continue;   /* a request's sectors are in order: its own line again */
            const uint32_t x = (uint32_t)(sec[i] >> 2);
            /* in an earlier request of this block, or in the previous block */
            if (lset_put(cur, x) || lset_has(prev, x))
                plain = 0;
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
 * block (l2_requests, its minimum and the merged ones nl, and so in every
 * order of the warps: l2_requests_rev, _wm, _wm_rev), and the L2 sees
 * the sectors in the walk's order (recorded in rec).
 */
static void lblock_count(const lblock *L, tbuf *rec, sf_counts *k)
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
        k->l2_requests_rev += nl;   /* every order of the warps alike: no line in two requests */
        k->l2_requests_wm += nl;
        k->l2_requests_wm_rev += nl;
        k->l2_sectors += ns;
        k->l2_sectors_min += ns;
        for (unsigned i = 0; i < ns; i++)
            tbuf_put(rec, L->sec[j][i]);
    }
}

/* A line and a nibble of its sectors (lchunk), LINH marking an inherited
 * line's: the granules it touched since the chunk began, not what it holds. */
typedef struct lrec {
    uint32_t line;
    uint8_t bits;
} lrec;

#define LINH 0x80u

/* One task: consecutive blocks (pass 1), their touches a chunk (pass 2). */
typedef struct ltask {
    uint64_t first, nb;      /* blocks first .. first + nb - 1 */
    tbuf rec;                /* their L2 touches, in order */
    uint64_t t0;             /* the time of the first: the touches of the tasks before */
    sf_prediction pred;      /* their counts (the L1 side) */
    uint64_t walked;         /* the blocks walked for them (sf_blocks_walked) */
    int rc;
    char err[256];
    uint64_t reads;          /* DRAM sectors, the inherited lines counted as holding nothing */
    lrec *tg, *end;          /* inherited lines' touched granules (LINH, not 0); resident at the end */
    size_t ntg, nend;
} ltask;

/* What the passes share. */
typedef struct lctx {
    sf_blocks *B;
    ltask *task;
    size_t ntask;
    unsigned ninstr;
    uint64_t lines, cap;
    unsigned gsect;
} lctx;

/* Walk block b as the walk does: block b - 1 first, for its sectors (the
 * brackets; no L2), then b, its counts to the task and its L2 touches to
 * the task's. */
static int ltask_walk(sim *S, ltask *T, uint64_t b)
{
    sf_prediction x;
    memset(&x, 0, sizeof x);
    S->rec = NULL;
    S->no_l2 = 1;
    S->out = &x;
    sset_clear(&S->cur);
    if (b > 0 && walk_block(S, b - 1, T->err, sizeof T->err))
        return -1;
    S->no_l2 = 0;
    S->rec = &T->rec;
    S->out = &T->pred;
    return walk_block(S, b, T->err, sizeof T->err);
}

/* The task's blocks in order: a plain one counted (every one on the .cg
 * path: no L1), the others walked.  The block before the first is gathered
 * too, for its lines (lblock_plain).  ln: two line sets.  0, or -1 with err
 * in the task. */
static int ltask_blocks(ltask *T, sim *S, lblock *L, lset *ln[2])
{
    const uint64_t end = T->first + T->nb;
    for (uint64_t b = T->first > 0 && !S->cg ? T->first - 1 : T->first; b < end; b++) {
        if (lblock_gather(S, L, b, T->err, sizeof T->err) || lblock_shape(S, L, T->err, sizeof T->err))
            return -1;
        int plain = 1;
        if (!S->cg) {
            lset *t = ln[0];   /* ln[0]: the previous block's lines, ln[1]: this one's */
            ln[0] = ln[1], ln[1] = t;
            plain = lblock_plain(L, ln[1], ln[0]);
        }
        if (b < T->first)
            continue;
        if (plain)
            lblock_count(L, &T->rec, &T->pred.op[SF_LD]);
        else if (ltask_walk(S, T, b))
            return -1;
    }
    return 0;
}

/* Pass 1, task i: its own copy of the walk's L1 state and a block's room;
 * its touches' room is the most a block can give (a sector per lane). */
static void ltouch_item(void *ctx, size_t i)
{
    lctx *X = ctx;
    ltask *T = &X->task[i];
    sim S = X->B->S;
    const size_t nacc = (size_t)S.c.p->wpb * X->ninstr;
    lblock L = {.nacc = nacc, .ninstr = X->ninstr};
    L.acc = malloc(nacc * sizeof *L.acc);
    L.sec = malloc(nacc * sizeof *L.sec);
    L.shape = malloc(nacc * sizeof *L.shape);
    T->rec.cap = T->nb * nacc * 32;
    T->rec.v = malloc((T->rec.cap ? T->rec.cap : 1) * sizeof *T->rec.v);
    lset ls[2] = {{0}}, *ln[2] = {&ls[0], &ls[1]};
    memset(&S.cur, 0, sizeof S.cur), memset(&S.prev, 0, sizeof S.prev), memset(&S.wave, 0, sizeof S.wave);
    memset(&S.ocur, 0, sizeof S.ocur);   /* the orders' set too: the task's own (sector_orders.c) */
    const uint64_t w0 = sf_blocks_walked();
    if (!L.acc || !L.sec || !L.shape || !T->rec.v || sset_init(&S.cur, 1024) ||
        sset_init(&S.prev, 1024) || sset_init(&S.wave, 256) || (S.orders && sset_init(&S.ocur, 1024)) ||
        lset_init(&ls[0], nacc * 32) ||
        lset_init(&ls[1], nacc * 32)) {
        set_err(T->err, sizeof T->err, "out of memory for the touches of %llu blocks",
                (unsigned long long)T->nb);
        T->rc = -1;
    } else {
        T->rc = ltask_blocks(T, &S, &L, ln);
    }
    if (T->rc == 0 && T->rec.n > T->rec.cap) {
        set_err(T->err, sizeof T->err, "internal: %llu touches of the L2 in blocks from %llu, "
                "past their room of %llu", (unsigned long long)T->rec.n,
                (unsigned long long)T->first, (unsigned long long)T->rec.cap);
        T->rc = -1;
    }
    T->walked = sf_blocks_walked() - w0;
    sset_free(&S.cur), sset_free(&S.prev), sset_free(&S.wave), sset_free(&S.ocur);
    free(ls[0].e), free(ls[1].e);
    free(L.acc), free(L.sec), free(L.shape);
}

/* A chunk's LRU, kept as times (as the walk's list, without pointers):
 * every touch gets its time; a line is resident while its latest touch is
 * among the cap latest touches that are their lines' latest: at or after
 * theta, before which every such touch has been evicted (it only grows).
 * live marks the touches that are their lines' latest, from time t0 (the
 * earliest inherited line's); evicting the least recent line is moving
 * theta past the next mark. */
typedef struct lchunk {
    uint32_t *last;    /* per line: 1 + the time of its latest touch; 0: none seen */
    uint8_t *st;       /* per line: the sectors it holds; LINH: inherited (lrec) */
    uint64_t *live;
    uint64_t t0, theta, resident, cap;
    unsigned gsect;
    uint64_t reads;
    lrec *tg;          /* the inherited lines' touched granules, at their first miss */
    size_t ntg;
} lchunk;

/* Far enough ahead that a line's entries arrive before its touch. */
#define LAHEAD 32

/* The touch of sector at time t: l2_read's hit or miss, and its reads,
 * an inherited line's counted as if it held nothing. */
static inline void lchunk_touch(lchunk *C, uint64_t t, uint32_t sector)
{
    const uint32_t x = sector >> 2;
    const unsigned s = sector & 3;
    if (C->last[x] > C->theta) {   /* resident: its latest touch, last - 1, at or after theta */
        const uint64_t old = C->last[x] - 1 - C->t0;
        C->live[old >> 6] &= ~(1ull << (old & 63));
        C->resident--;
    } else {
        if ((C->st[x] & LINH) && (C->st[x] & 15))   /* what it touched while inherited */
            C->tg[C->ntg++] = (lrec){x, C->st[x]};
        C->st[x] = 0;   /* evicted (or never in): it comes back empty, as l2_touch's */
        if (C->resident >= C->cap) {   /* evict the least recent: the next mark from theta */
            const uint64_t r = C->theta - C->t0;
            uint64_t w = r >> 6, bits = C->live[w] & (~0ull << (r & 63));
            while (!bits)
                bits = C->live[++w];
            C->theta = C->t0 + (w << 6) + (uint64_t)__builtin_ctzll(bits) + 1;
            C->resident--;
        }
    }
    const uint64_t r = t - C->t0;
    C->live[r >> 6] |= 1ull << (r & 63);
    C->last[x] = (uint32_t)(t + 1);
    C->resident++;
    if (!(C->st[x] & (1u << s))) {
        const unsigned first = s & ~(C->gsect - 1);
        C->st[x] |= (uint8_t)(((1u << C->gsect) - 1) << first);
        C->reads += C->gsect;
    }
}

/* The lines resident at chunk k's start: the cap latest touched before it,
 * read backwards through the tasks before, into inh (most recent first),
 * marked inherited with their latest touches' times.  How many. */
static size_t lchunk_inherit(const lctx *X, size_t k, lchunk *C, uint32_t *inh)
{
    size_t m = 0;
    for (size_t j = k; j-- > 0 && m < C->cap;) {
        const ltask *T = &X->task[j];
        for (uint64_t i = T->rec.n; i-- > 0 && m < C->cap;) {
            if (i >= LAHEAD)
                __builtin_prefetch(&C->last[T->rec.v[i - LAHEAD] >> 2], 1);
            const uint32_t x = T->rec.v[i] >> 2;
            if (C->last[x])
                continue;
            C->last[x] = (uint32_t)(T->t0 + i + 1);
            C->st[x] = LINH;
            inh[m++] = x;
        }
    }
    return m;
}

/* The sector touched at time t; *j: a task at or after the one holding it
 * (moved to that one). */
static uint32_t ltouch_at(const lctx *X, size_t *j, uint64_t t)
{
    while (t < X->task[*j].t0)
        --*j;
    while (t >= X->task[*j].t0 + X->task[*j].rec.n)
        ++*j;
    return X->task[*j].rec.v[t - X->task[*j].t0];
}

/* The lines resident at chunk k's end (the marks from theta) into T->end,
 * each with what it holds, or LINH and what it touched.  0, or -1 out of
 * memory. */
static int lchunk_end(const lctx *X, size_t k, const lchunk *C, ltask *T)
{
    T->end = malloc((C->resident ? C->resident : 1) * sizeof *T->end);
    if (!T->end)
        return -1;
    const uint64_t end = T->t0 + T->rec.n - C->t0;   /* past the last mark */
    size_t j = k;
    for (uint64_t r = C->theta - C->t0; r < end; r++) {
        const uint64_t w = r >> 6, bits = C->live[w] & (~0ull << (r & 63));
        if (!bits) {
            r = (w << 6) + 63;   /* the next word */
            continue;
        }
        r = (w << 6) + (uint64_t)__builtin_ctzll(bits);
        const uint32_t x = ltouch_at(X, &j, C->t0 + r) >> 2;
        if (T->nend < C->resident)
            T->end[T->nend++] = (lrec){x, C->st[x]};
    }
    return 0;
}

/* Chunk k: the inherited lines, then its touches through the LRU; its reads,
 * the inherited lines' touched granules and (but for the last chunk) the
 * lines resident at its end.  0, or -1 out of memory. */
static int lchunk_run(const lctx *X, size_t k, lchunk *C, uint32_t *inh)
{
    ltask *T = &X->task[k];
    const size_t m = lchunk_inherit(X, k, C, inh);
    C->t0 = m ? C->last[inh[m - 1]] - 1 : T->t0;
    C->theta = C->t0;
    C->resident = m;
    C->live = calloc((T->t0 + T->rec.n - C->t0) / 64 + 2, sizeof *C->live);
    C->tg = malloc((m ? m : 1) * sizeof *C->tg);
    if (!C->live || !C->tg)
        return -1;
    for (size_t i = 0; i < m; i++) {
        const uint64_t r = C->last[inh[i]] - 1 - C->t0;
        C->live[r >> 6] |= 1ull << (r & 63);
    }
    const uint32_t *v = T->rec.v;
    for (uint64_t i = 0; i < T->rec.n; i++) {
        if (i + LAHEAD < T->rec.n) {
            __builtin_prefetch(&C->last[v[i + LAHEAD] >> 2], 1);
            __builtin_prefetch(&C->st[v[i + LAHEAD] >> 2], 1);
        }
        lchunk_touch(C, T->t0 + i, v[i]);
    }
    for (size_t i = 0; i < m; i++)   /* the ones that never missed */
        if ((C->st[inh[i]] & LINH) && (C->st[inh[i]] & 15))
            C->tg[C->ntg++] = (lrec){inh[i], C->st[inh[i]]};
    T->reads = C->reads;
    return k + 1 < X->ntask ? lchunk_end(X, k, C, T) : 0;
}

/* Pass 2, chunk k: its own lines' entries, for its times. */
static void lchunk_item(void *ctx, size_t k)
{
    const lctx *X = ctx;
    ltask *T = &X->task[k];
    lchunk C = {.cap = X->cap, .gsect = X->gsect};
    const uint64_t room = X->cap < T->t0 ? X->cap : T->t0;
    C.last = calloc(X->lines ? X->lines : 1, sizeof *C.last);
    C.st = calloc(X->lines ? X->lines : 1, 1);
    uint32_t *inh = malloc((room < X->lines ? room : X->lines) * sizeof *inh + 1);
    if (!C.last || !C.st || !inh || lchunk_run(X, k, &C, inh)) {
        set_err(T->err, sizeof T->err, "out of memory for the L2 of %llu lines",
                (unsigned long long)X->lines);
        T->rc = -1;
    }
    T->tg = C.tg;
    T->ntg = C.ntg;
    free(C.last), free(C.st), free(C.live), free(inh);
}

/* Pass 3: the reads counted too many.  A line holds (held) at the start of
 * chunk k what it held at the end of chunk k - 1: an inherited line's
 * granules touched that it held were counted (each once) but not read. */
static uint64_t lfix(const lctx *X, uint8_t *held)
{
    uint64_t over = 0;
    for (size_t k = 0; k < X->ntask; k++) {
        const ltask *T = &X->task[k];
        for (size_t i = 0; i < T->ntg; i++)
            over += (uint64_t)__builtin_popcount(T->tg[i].bits & held[T->tg[i].line] & 15);
        for (size_t i = 0; i < T->nend; i++) {
            const lrec *e = &T->end[i];
            held[e->line] = e->bits & LINH ? (uint8_t)(held[e->line] | (e->bits & 15)) : e->bits;
        }
    }
    return over;
}

/* The tasks sf_count_loads splits a launch into (0: one per core), for the
 * tests (sector_family.h). */
static unsigned lsplit;

void sf_count_loads_split(unsigned tasks) { lsplit = tasks; }

/* After pass 1: the first task's error, or the counts added to out, the
 * blocks walked to this thread's count (walked before pass 1: the tasks
 * that ran on this thread added theirs since) and each task's first time.
 * 0, or -1 with err. */
static int ltouch_done(lctx *X, uint64_t walked, uint64_t times, char *err, size_t errlen)
{
    uint64_t t = 0;
    int rc = 0;
    for (size_t i = 0; i < X->ntask; i++) {
        ltask *T = &X->task[i];
        walked += T->walked;
        if (T->rc && rc == 0) {
            set_err(err, errlen, "%s", T->err);
            rc = -1;
        }
        sim_add_counts(X->B->out, &T->pred, 1);
        T->t0 = t;
        t += T->rec.n;
    }
    sf_blocks_walked_set(walked);
    if (rc == 0 && t > times) {
        set_err(err, errlen, "internal: %s: %llu touches of the L2, past the %llu counted",
                X->B->S.c.v->name, (unsigned long long)t, (unsigned long long)times);
        rc = -1;
    }
    return rc;
}

/* The three passes (above) over X's tasks; the DRAM reads to out.  0, or -1
 * with err. */
static int lpasses(lctx *X, uint64_t times, char *err, size_t errlen)
{
    const uint64_t walked = sf_blocks_walked();
    par_for(X->ntask, 0, ltouch_item, X);
    if (ltouch_done(X, walked, times, err, errlen))
        return -1;
    par_for(X->ntask, 0, lchunk_item, X);
    uint64_t reads = 0;
    for (size_t i = 0; i < X->ntask; i++) {
        if (X->task[i].rc) {
            set_err(err, errlen, "%s", X->task[i].err);
            return -1;
        }
        reads += X->task[i].reads;
    }
    uint8_t *held = calloc(X->lines ? X->lines : 1, 1);
    if (!held) {
        set_err(err, errlen, "out of memory for the L2 of %llu lines", (unsigned long long)X->lines);
        return -1;
    }
    X->B->out->dram_read_sectors = (double)(reads - lfix(X, held));
    free(held);
    return 0;
}

/* Every block, in tasks of consecutive blocks (one per core), through the
 * three passes above. */
int sf_count_loads(sf_blocks *B, char *err, size_t errlen)
{
    const sf_ctx *c = &B->S.c;
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
    if (lines >= (1ull << 30)) {   /* a touch keeps its sector in 32 bits */
        set_err(err, errlen, "%s at N = %llu: more than 2^30 lines", c->v->name,
                (unsigned long long)p->n);
        return -1;
    }
    lctx X = {.B = B, .ninstr = ninstr, .lines = lines, .gsect = p->granule_bytes / 32,
              .cap = p->l2_bytes / 128 ? p->l2_bytes / 128 : 1};
    X.ntask = lsplit ? lsplit : par_cores();
    if (X.ntask > out->blocks)
        X.ntask = out->blocks ? out->blocks : 1;
    X.task = calloc(X.ntask, sizeof *X.task);
    if (!X.task) {
        set_err(err, errlen, "out of memory for %zu tasks", X.ntask);
        return -1;
    }
    for (size_t i = 0; i < X.ntask; i++) {
        X.task[i].first = out->blocks * i / X.ntask;
        X.task[i].nb = out->blocks * (i + 1) / X.ntask - X.task[i].first;
    }
    const int rc = lpasses(&X, times, err, errlen);
    out->dram_write_sectors = 0;
    out->dram_partial_sectors = 0;
    for (size_t i = 0; i < X.ntask; i++)
        free(X.task[i].rec.v), free(X.task[i].tg), free(X.task[i].end);
    free(X.task);
    return rc;
}
