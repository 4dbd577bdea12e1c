/*
 * atomics.cu - the atomics family: how fast, and how long, is a global
 * atomicAdd when many threads want the same word?  Every thread adds 1 to
 * one 32-bit counter in global memory; the variants (variants.h) differ in
 * which counter: all threads one word (same_address), a warp one word
 * (warp_address), each thread its own word packed (lane_spread) or on a line
 * of its own (line_spread).  Atomics are performed at L2, so the contention
 * they measure is L2's (docs/atomics.md; the counts: atomics_model.h).
 *
 * Run (with a GPU): make atomics && ./atomics 1e7 0 4
 *   (N elements, SMEM bytes, warps per block; the defaults.  ./atomics --help: variants, options)
 *
 * Each pattern in two forms (three kernels each, engine.cuh):
 *   atomics_PATTERN_red   the result unused: REDG.E.ADD, fire and forget; the
 *                         throughput form (no probe: no value ends a region)
 *   atomics_PATTERN_atom  the result used: ATOMG.E.ADD; in the probe kernel
 *                         the clock is read before it and after the first use
 *                         of the old value it returns: its latency
 *
 * The word's index is computed from two runtime arguments (words between
 * warps, between lanes), never from constants: with a constant address nvcc
 * may aggregate a warp's atomics into one (a vote and a population count
 * before a single atomic), and same_address would no longer be 32 lanes on
 * one word.  The SASS shows one RED or ATOMG per thread (docs/atomics.md).
 *
 * Validation: the counters are zeroed, the CHECK kernel (the clean kernel
 * itself: the counts are its result) runs once, and every word of the
 * variant's counter array must equal the number of threads that map to it
 * (atm_expected, atomics_model.c): exact integers, compared exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.cuh"
#include "atomics_model.h"

struct at_args {
    uint32_t *ctr;         /* the counters (atm_footprint_words) */
    uint64_t items;        /* threads that add: N */
    uint64_t warp_words;   /* words between neighbouring warps' first lanes */
    uint64_t lane_words;   /* words between neighbouring lanes */
    eng_dev E;
};

template <eng_mode M, int RET> static __device__ __forceinline__ void at_body(const at_args &A)
{
    const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= A.items) return;
    uint32_t *p = eng_pin_mut(A.ctr + (t >> 5) * A.warp_words + (t & 31) * A.lane_words);
    if (!RET) {
        atomicAdd(p, 1u);   /* unused result: RED */
        return;
    }
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        const uint32_t old = atomicAdd(p, 1u);
        const float u = probe_use_f32(__uint_as_float(old));
        ENG_TIMED_END();
        ENG_RECORD(A.E);
        eng_consume(A.E, __float_as_uint(u));
        return;
    }
    /* the clean twin uses the old value too, so that it stays an ATOMG.  A
     * counter that reaches E.never (all ones: 2^32 - 1 adds to one word over
     * the launches, some 43 launches of same_address at N = 1e8) makes the
     * one thread that sees it store it to the sink, which nobody reads */
    eng_consume(A.E, atomicAdd(p, 1u));
}

template <eng_mode M> static __device__ __forceinline__ void at_red(const at_args &A) { at_body<M, 0>(A); }
template <eng_mode M> static __device__ __forceinline__ void at_atom(const at_args &A) { at_body<M, 1>(A); }

/* The kernels of every variant in variants.h: RED forms without a probe
 * kernel, ATOM forms with one.  The bodies are alike; the names let Nsight
 * Compute and cuobjdump tell the variants apart. */
#define AT_KERNELS_0(NAME) ENG_KERNELS_NOPROBE(NAME, at_red, at_args)
#define AT_KERNELS_1(NAME) ENG_KERNELS(NAME, at_atom, at_args)
#define AT_X_KERNELS(E, id, pat, ret, about) AT_KERNELS_##ret(atomics_##id)
ATOMICS_VARIANTS(AT_X_KERNELS)

#define AT_TRIO_0(NAME) {(const void *)NAME, NULL, (const void *)NAME##_check},
#define AT_TRIO_1(NAME) ENG_KERNEL_TRIO(NAME),
#define AT_X_TRIO(E, id, pat, ret, about) AT_TRIO_##ret(atomics_##id)
static const void *const AT_KERNELS[AT_NVARIANTS][ENG_NMODES] = {ATOMICS_VARIANTS(AT_X_TRIO)};

/* ------------------------------------------------------------ the table */

struct at_state {
    uint32_t *ctr;         /* the largest footprint of the selected variants */
    uint32_t *sink;
    uint64_t words;
    uint32_t *hit;         /* at_gather_kernel's words (at_check), room for nhit */
    uint64_t nhit;
    unsigned long long *total;   /* at_sum_kernel's sum */
};

static int at_geometry(const eng_ctx *c, int v, int, eng_geom *g, char *err, size_t errlen)
{
    if (c->n == 0) {
        snprintf(err, errlen, "N must be at least 1 (one atomicAdd per thread)");
        return -1;
    }
    if (c->n > UINT32_MAX) {   /* same_address adds all N to one word */
        snprintf(err, errlen, "N = %llu: the counters are 32-bit words, and one may take all N "
                 "increments; N must be at most 4294967295", (unsigned long long)c->n);
        return -1;
    }
    const int p = atomics_variant_pattern(v);
    const double mib = 4.0 * (double)atm_footprint_words(p, c->n) / (1 << 20);
    if (mib > 64.0 * 1024) {
        snprintf(err, errlen, "N = %llu needs %.0f MiB of counters for %s: too many",
                 (unsigned long long)c->n, mib, atomics_variant_name(v));
        return -1;
    }
    g->items = c->n;
    g->blocks = (c->n + c->tpb - 1) / c->tpb;
    g->tail_idle = 1;
    g->elem_bytes = 4;
    g->loads_per_warp = 1;
    g->bytes_per_warp_load = 128;
    g->stride = atomics_lane_words(p);
    /* what the kernel asks of memory: each atomic reads its 4-byte word and
     * writes it back, so bw_GBps / 8 is the rate in G atomics per second */
    g->bytes_read = 4.0 * (double)c->n;
    g->bytes_written = 4.0 * (double)c->n;
    g->record_covers = atomics_variant_ret(v) ? "one atomicAdd (ATOMG) to the first use of the old value it returns"
                                              : "no probes (RED returns nothing)";
    return 0;
}

static const void *at_kernel(int v, int, eng_mode m) { return AT_KERNELS[v][m]; }

static int at_setup(eng_ctx *c)
{
    at_state *s = (at_state *)calloc(1, sizeof *s);
    if (!s) return (int)cudaErrorMemoryAllocation;
    c->state = s;
    for (int v = 0; v < AT_NVARIANTS; v++) {
        const uint64_t w = atm_footprint_words(atomics_variant_pattern(v), c->n);
        if (c->selected[v] && w > s->words) s->words = w;
    }
    ENG_TRY(cudaMalloc((void **)&s->ctr, s->words * sizeof(uint32_t)));
    ENG_TRY(cudaMalloc((void **)&s->sink, sizeof(uint32_t)));
    return cudaMemset(s->ctr, 0, s->words * sizeof(uint32_t));
}

static int at_launch(const eng_ctx *c, int v, int, eng_mode m, const eng_launch *L)
{
    const at_state *s = (const at_state *)c->state;
    const int p = atomics_variant_pattern(v);
    at_args A;
    A.ctr = s->ctr;
    A.items = c->n;
    A.warp_words = atomics_warp_words(p);
    A.lane_words = atomics_lane_words(p);
    A.E = eng_dev_args(L, 0xffffffffu, s->sink);
    void *args[] = {&A};
    return cudaLaunchKernel(AT_KERNELS[v][m], dim3((unsigned)L->blocks), dim3(L->threads), args,
                            L->smem_bytes, L->stream);
}

/* Zero: the check launch must bring every counter to exactly its count. */
static int at_poison(const eng_ctx *c, int v, int)
{
    const at_state *s = (const at_state *)c->state;
    return cudaMemset(s->ctr, 0, atm_footprint_words(atomics_variant_pattern(v), c->n) * sizeof(uint32_t));
}

/* Validation.  The expected counts are nonzero only on the words the
 * threads add to: one a thread (t -> (t / 32) W + (t % 32) L, W and L the
 * pattern's warp and lane strides), one a warp (L = 0), or one word in all
 * (W = L = 0).  Those words are gathered on the GPU (at_gather_kernel, by
 * that formula) and come back in chunks (eng_check_device), each compared
 * with the CPU's count (atm_expected, which inverts the formula on its own);
 * and every counter of the footprint is summed on the GPU (at_sum_kernel,
 * exact in 64 bits), which must give N, the sum of the expected counts: with
 * the gathered words right, an add anywhere else would raise the total above
 * N, so every other word is 0.  line_spread's footprint is 32 words a thread
 * (12.8 GB at N = 1e8), which copied back whole took 1.7 s a check on the
 * H200; its gathered words are a 32nd of it. */
__global__ void at_gather_kernel(const uint32_t *ctr, uint64_t nhit, uint64_t ww, uint64_t lw, uint32_t *hit)
{
    for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < nhit;
         k += (uint64_t)gridDim.x * blockDim.x)
        hit[k] = ctr[lw ? (k >> 5) * ww + (k & 31) * lw : k * ww];
}

__global__ void at_sum_kernel(const uint32_t *ctr, uint64_t words, unsigned long long *total)
{
    unsigned long long s = 0;
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < words;
         j += (uint64_t)gridDim.x * blockDim.x)
        s += ctr[j];
    if (s) atomicAdd(total, s);
}

struct at_ref {
    int pattern;
    uint64_t n, ww, lw;
    int whole;   /* the whole footprint came back, not the gathered words */
};

/* the word gathered k-th: the formula at_gather_kernel uses; or, where
 * the whole footprint came back (r->whole), word k itself */
static uint64_t at_hit_word(const at_ref *r, uint64_t k)
{
    if (r->whole) return k;
    return r->lw ? (k >> 5) * r->ww + (k & 31) * r->lw : k * r->ww;
}

static uint64_t at_check_range(void *ctx, uint64_t lo, uint64_t hi, uint64_t *first)
{
    const eng_chunk *ch = (const eng_chunk *)ctx;
    const at_ref *r = (const at_ref *)ch->user;
    const uint32_t *got = (const uint32_t *)ch->got - ch->base;
    uint64_t bad = 0;
    for (uint64_t k = lo; k < hi; k++)
        if (got[k] != atm_expected(r->pattern, r->n, at_hit_word(r, k))) {
            if (!bad) *first = k;
            bad++;
        }
    return bad;
}

/* room on the GPU for nhit gathered words and the total: 1, or 0 */
static int at_room(at_state *s, uint64_t nhit)
{
    if (!s->total && cudaMalloc((void **)&s->total, sizeof *s->total) != cudaSuccess) {
        cudaGetLastError();
        s->total = NULL;
        return 0;
    }
    if (s->nhit >= nhit) return 1;
    cudaFree(s->hit);
    s->nhit = 0;
    if (cudaMalloc((void **)&s->hit, nhit * sizeof(uint32_t)) != cudaSuccess) {
        cudaGetLastError();
        s->hit = NULL;
        return 0;
    }
    s->nhit = nhit;
    return 1;
}

static int at_check(const eng_ctx *c, int v, int, eng_check *out)
{
    at_state *s = (at_state *)c->state;
    const int p = atomics_variant_pattern(v);
    const uint64_t words = atm_footprint_words(p, c->n);
    /* the words the threads add to: one a thread, a warp, or one in all */
    at_ref r = {p, c->n, atomics_warp_words(p), atomics_lane_words(p), 0};
    const uint64_t nhit = r.lw ? c->n : r.ww ? (c->n + 31) / 32 : 1;
    /* WARPLAT_INJECT_WRONG_RESULT=K (tests only, eng_inject_wrong_result):
     * the K-th check finds counter 1 holding 7 (lane_spread: thread 1's
     * word, which the gathered words catch; line_spread: a word no thread
     * adds to, which the total catches) */
    if (eng_inject_wrong_result() && words > 1) ENG_TRY(cudaMemset((char *)(s->ctr + 1), 7, 1));
    unsigned long long total = c->n;
    r.whole = !at_room(s, nhit);   /* no room: every counter comes back */
    if (!r.whole) {
        const unsigned grid = 4 * 2048 / 256 * (unsigned)c->dev->sm_count;
        ENG_TRY(cudaMemset(s->total, 0, sizeof *s->total));
        at_gather_kernel<<<grid, 256>>>(s->ctr, nhit, r.ww, r.lw, s->hit);
        ENG_TRY(cudaGetLastError());
        at_sum_kernel<<<grid, 256>>>(s->ctr, words, s->total);
        ENG_TRY(cudaGetLastError());
        ENG_TRY(cudaMemcpy(&total, s->total, sizeof total, cudaMemcpyDeviceToHost));
    }
    uint64_t first;
    cudaError_t err;
    out->checked = words;
    out->bad = eng_check_device(r.whole ? s->ctr : s->hit, r.whole ? words : nhit, sizeof(uint32_t),
                                at_check_range, &r, &first, &err);
    ENG_TRY(err);
    if (out->bad) {
        const uint64_t j = at_hit_word(&r, first);
        uint32_t got;
        ENG_TRY(cudaMemcpy(&got, s->ctr + j, sizeof got, cudaMemcpyDeviceToHost));
        snprintf(out->first, sizeof out->first, "counter %llu holds %u, the CPU expects %llu",
                 (unsigned long long)j, got, (unsigned long long)atm_expected(p, c->n, j));
    } else if (total != c->n) {   /* the threads' words are right: the rest went elsewhere */
        out->bad = total > c->n ? total - c->n : c->n - total;
        snprintf(out->first, sizeof out->first, "the %llu counters add up to %llu, the CPU's N is %llu: "
                 "adds went to words no thread maps to", (unsigned long long)words, total,
                 (unsigned long long)c->n);
    }
    return 0;
}

static void at_teardown(eng_ctx *c)
{
    at_state *s = (at_state *)c->state;
    if (!s) return;
    cudaFree(s->ctr);
    cudaFree(s->sink);
    cudaFree(s->hit);
    cudaFree(s->total);
    free(s);
    c->state = NULL;
}

static const char *const AT_POS[] = {"N", "SMEM", "WPB", NULL};
static const char *const AT_POSDEF[] = {"1e7", "0", "4", NULL};

#define AT_X_VARIANT(E, id, pat, ret, about) {#id, about},
static const eng_variant AT_VARIANTS[AT_NVARIANTS] = {ATOMICS_VARIANTS(AT_X_VARIANT)};

extern "C" const eng_family eng_family_table = {
    .name = "atomics",
    .about = "Global atomicAdd under contention: its throughput (RED, the result unused) and\n"
             "its latency (ATOMG, the result used), for four address patterns, from every\n"
             "thread on one word to every thread on a line of its own.",
    .posnames = AT_POS,
    .posdefaults = AT_POSDEF,
    .variants = AT_VARIANTS,
    .nvariants = AT_NVARIANTS,
    .geometry = at_geometry,
    .kernel = at_kernel,
    .setup = at_setup,
    .launch = at_launch,
    .poison = at_poison,
    .check = at_check,
    .teardown = at_teardown,
};
