/*
 * readonly.cu - the readonly family: how long does one global load take, warp
 * by warp, and what bandwidth follows from it?  Reproduces the "readonly"
 * experiments of the original study (shared/background/003): each thread
 * loads one element; in the probe kernel, the warps of one block in K read
 * the SM clock before the load and after the first use of the loaded value,
 * and lane 0 stores it with the SM id and the global timer.
 *
 * Run (with a GPU): make readonly && ./readonly 1e8 0 4
 *   (N elements, SMEM bytes, warps per block; the defaults.  ./readonly --help: variants, options)
 *
 * Variants (three kernels each, engine.cuh: NAME, NAME_probe, NAME_check):
 *   readonly_baseline         float a[i]                    coalesced, 128 B/warp
 *   readonly_float4           float4 a4[i]                  LDG.E.128, 512 B/warp
 *   readonly_nondiverging     a[c[i]], c[i] = i             two dependent loads
 *   readonly_random_access    a[c[i]], c random permutation diverging gather
 *   readonly_strided          a[(stride*i) % N]             sectors grow with stride
 *   readonly_strided_float4   a4[(stride*i) % (N/4)]
 *
 * The timed region holds only the load(s) and the first use: index arithmetic
 * that does not depend on loaded data (the 64-bit modulo of the strided
 * variants, the clamp of the tail) is done before the first clock read and
 * pinned there with eng_pin().  Threads past the end load the last element
 * (no branch in the timed region) and count 0 in the check kernel's sums.
 *
 * Validation: the CHECK kernels store each warp's sum of the values it
 * loaded; every value is a small integer (patterns.h), so the sums are exact
 * and are compared with the CPU's bit for bit.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.cuh"
#include "patterns.h"
#include "sector_perm.h"

#include "variants.h"   /* the one list of variants, shared with the sector model */

#define RO_ID(ID, NAME, ABOUT, CFG, CFGD, RULE) ID,
enum { READONLY_VARIANTS(RO_ID) RO_NVARIANTS };
#undef RO_ID

struct ro_args {
    const float *a;        /* N floats (float4 variants read them as N/4 float4) */
    const uint32_t *c;     /* N indices (gathers only) */
    uint64_t items;        /* elements the kernel reads: N or N/4 */
    uint64_t stride;       /* strided variants */
    float *warp_sum;       /* CHECK kernels: one sum per warp */
    eng_dev E;
};

static __device__ __forceinline__ uint64_t ro_tid(void)
{
    return (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
}

static __device__ __forceinline__ uint64_t ro_clamp(uint64_t i, uint64_t items)
{
    return i < items ? i : items - 1;
}

/* After the load: the check kernel sums, the others consume. */
template <eng_mode M>
static __device__ __forceinline__ void ro_finish(const ro_args &A, uint64_t i, float v, uint32_t bits)
{
    if (M == ENG_CHECK) eng_warp_sum_store(i < A.items ? v : 0.f, A.warp_sum);
    else eng_consume(A.E, bits);
}

template <eng_mode M>
static __device__ __forceinline__ void ro_scalar(const ro_args &A, const float *p, uint64_t i)
{
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        float v = *p;
        v = probe_use_f32(v);
        ENG_TIMED_END();
        ENG_RECORD(A.E);
        eng_consume(A.E, __float_as_uint(v));
        return;
    }
    const float v = *p;
    ro_finish<M>(A, i, v, __float_as_uint(v));
}

template <eng_mode M>
static __device__ __forceinline__ void ro_vector(const ro_args &A, const float4 *p, uint64_t i)
{
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        const float4 q = *p;
        /* one LDG.E.128 has one scoreboard: waiting for .x waits for all four */
        const float x = probe_use_f32(q.x);
        ENG_TIMED_END();
        ENG_RECORD(A.E);
        eng_consume(A.E, __float_as_uint(x) ^ __float_as_uint(q.y) ^ __float_as_uint(q.z) ^
                             __float_as_uint(q.w));
        return;
    }
    const float4 q = *p;
    ro_finish<M>(A, i, (q.x + q.y) + (q.z + q.w),
                 __float_as_uint(q.x) ^ __float_as_uint(q.y) ^ __float_as_uint(q.z) ^
                     __float_as_uint(q.w));
}

template <eng_mode M> static __device__ __forceinline__ void ro_baseline(const ro_args &A)
{
    const uint64_t i = ro_tid();
    ro_scalar<M>(A, eng_pin(A.a + ro_clamp(i, A.items)), i);
}

template <eng_mode M> static __device__ __forceinline__ void ro_float4(const ro_args &A)
{
    const uint64_t i = ro_tid();
    ro_vector<M>(A, eng_pin(reinterpret_cast<const float4 *>(A.a) + ro_clamp(i, A.items)), i);
}

/* Both gathers: the timed region covers the load of c[i] and the dependent
 * load of a[c[i]] (2 x 128 B per warp when coalesced), as in the original. */
template <eng_mode M> static __device__ __forceinline__ void ro_gather(const ro_args &A)
{
    const uint64_t i = ro_tid();
    const uint32_t *pc = eng_pin(A.c + ro_clamp(i, A.items));
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        const uint32_t j = *pc;
        float v = A.a[j];
        v = probe_use_f32(v);
        ENG_TIMED_END();
        ENG_RECORD(A.E);
        eng_consume(A.E, __float_as_uint(v));
        return;
    }
    const float v = A.a[*pc];
    ro_finish<M>(A, i, v, __float_as_uint(v));
}

template <eng_mode M> static __device__ __forceinline__ void ro_strided(const ro_args &A)
{
    const uint64_t i = ro_tid();
    ro_scalar<M>(A, eng_pin(A.a + (A.stride * ro_clamp(i, A.items)) % A.items), i);
}

template <eng_mode M> static __device__ __forceinline__ void ro_strided_float4(const ro_args &A)
{
    const uint64_t i = ro_tid();
    ro_vector<M>(A, eng_pin(reinterpret_cast<const float4 *>(A.a) +
                            (A.stride * ro_clamp(i, A.items)) % A.items), i);
}

ENG_KERNELS(readonly_baseline, ro_baseline, ro_args)
ENG_KERNELS(readonly_float4, ro_float4, ro_args)
ENG_KERNELS(readonly_nondiverging, ro_gather, ro_args)
ENG_KERNELS(readonly_random_access, ro_gather, ro_args)
ENG_KERNELS(readonly_strided, ro_strided, ro_args)
ENG_KERNELS(readonly_strided_float4, ro_strided_float4, ro_args)

static const void *const RO_KERNELS[RO_NVARIANTS][ENG_NMODES] = {
    ENG_KERNEL_TRIO(readonly_baseline),     ENG_KERNEL_TRIO(readonly_float4),
    ENG_KERNEL_TRIO(readonly_nondiverging), ENG_KERNEL_TRIO(readonly_random_access),
    ENG_KERNEL_TRIO(readonly_strided),      ENG_KERNEL_TRIO(readonly_strided_float4),
};

/* ------------------------------------------------------------ inputs */

__global__ void ro_init_a_kernel(float *a, uint64_t n)
{
    for (uint64_t i = ro_tid(); i < n; i += (uint64_t)gridDim.x * blockDim.x) a[i] = ro_value(i);
}

__global__ void ro_init_c_kernel(uint32_t *c, uint64_t n, int random, uint32_t half, uint64_t seed)
{
    for (uint64_t i = ro_tid(); i < n; i += (uint64_t)gridDim.x * blockDim.x)
        c[i] = (uint32_t)(random ? ro_perm(i, n, half, seed) : i);
}

/* ------------------------------------------------------------ the table */

static uint64_t opt_stride = 8;

static const cli_opt RO_OPTIONS[] = {
    {"--stride", 0, CLI_U64, 1, 1u << 30, 0, 0, &opt_stride, "S",
     "element stride of the strided variants (default 8)", 0, 0},
    CLI_END,
};

static const int RO_VEC4[RO_NVARIANTS] = {0, 1, 0, 0, 0, 1};
static const int RO_GATHER[RO_NVARIANTS] = {0, 0, 1, 1, 0, 0};
static const int RO_STRIDED_[RO_NVARIANTS] = {0, 0, 0, 0, 1, 1};

struct ro_state {
    float *a;
    uint32_t *c;
    float *warp_sum;
    uint32_t *sink;
    float *h_sum;
    int c_state;       /* -1 unset, 0 identity, 1 random */
    uint64_t max_warps;
};

static uint64_t ro_items(const eng_ctx *c, int v) { return RO_VEC4[v] ? c->n / 4 : c->n; }

static int ro_geometry(const eng_ctx *c, int v, int, eng_geom *g, char *err, size_t errlen)
{
    const uint64_t items = ro_items(c, v);
    if (items == 0) {
        snprintf(err, errlen, "N=%llu is less than 4 floats", (unsigned long long)c->n);
        return -1;
    }
    if (RO_GATHER[v] && c->n > 0xffffffffull) {
        snprintf(err, errlen, "the gathers index with 32-bit c[i]: N must be below 2^32");
        return -1;
    }
    const uint32_t eb = RO_VEC4[v] ? 16 : 4;
    g->items = items;
    g->blocks = (items + c->tpb - 1) / c->tpb;
    g->elem_bytes = eb;
    g->loads_per_warp = RO_GATHER[v] ? 2 : 1;
    g->bytes_per_warp_load = 32 * eb + (RO_GATHER[v] ? 128 : 0);
    g->stride = RO_STRIDED_[v] ? (uint32_t)opt_stride : 1;
    g->seed = v == RO_RANDOM_ACCESS ? c->seed : 0;
    g->bytes_read = (double)items * eb + (RO_GATHER[v] ? 4.0 * (double)items : 0);
    g->bytes_written = 0;
    if (RO_STRIDED_[v]) snprintf(g->config, sizeof g->config, "stride=%llu", (unsigned long long)opt_stride);
    g->record_covers = RO_GATHER[v] ? "load of c[i], dependent load of a[c[i]], first use"
                                    : "one load of a[i] to its first use";
    return 0;
}

static const void *ro_kernel(int v, int, eng_mode m) { return RO_KERNELS[v][m]; }

static int ro_setup(eng_ctx *c)
{
    ro_state *s = (ro_state *)calloc(1, sizeof *s);
    if (!s) return (int)cudaErrorMemoryAllocation;
    c->state = s;
    s->c_state = -1;
    int need_c = 0;
    for (int v = 0; v < RO_NVARIANTS; v++) need_c |= c->selected[v] && RO_GATHER[v];
    s->max_warps = (c->n + c->tpb - 1) / c->tpb * c->wpb;
    ENG_TRY(cudaMalloc((void **)&s->a, c->n * sizeof(float)));
    if (need_c) ENG_TRY(cudaMalloc((void **)&s->c, c->n * sizeof(uint32_t)));
    ENG_TRY(cudaMalloc((void **)&s->warp_sum, s->max_warps * sizeof(float)));
    ENG_TRY(cudaMalloc((void **)&s->sink, sizeof(uint32_t)));
    s->h_sum = (float *)malloc(s->max_warps * sizeof(float));
    if (!s->h_sum) return (int)cudaErrorMemoryAllocation;
    ro_init_a_kernel<<<4096, 256>>>(s->a, c->n);
    ENG_TRY(cudaGetLastError());
    return cudaDeviceSynchronize();
}

static int ro_prepare(eng_ctx *c, int v, int)
{
    ro_state *s = (ro_state *)c->state;
    if (!RO_GATHER[v] || s->c_state == (v == RO_RANDOM_ACCESS)) return 0;
    s->c_state = v == RO_RANDOM_ACCESS;
    ro_init_c_kernel<<<4096, 256>>>(s->c, c->n, s->c_state, ro_perm_half_bits(c->n), c->seed);
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

static int ro_launch(const eng_ctx *c, int v, int, eng_mode m, const eng_launch *L)
{
    const ro_state *s = (const ro_state *)c->state;
    ro_args A;
    A.a = s->a;
    A.c = s->c;
    A.items = ro_items(c, v);
    A.stride = RO_STRIDED_[v] ? opt_stride : 1;
    A.warp_sum = s->warp_sum;
    A.E = eng_dev_args(L, 0xffffffffu, s->sink);   /* no value or index is all ones */
    void *args[] = {&A};
    return cudaLaunchKernel(RO_KERNELS[v][m], dim3((unsigned)L->blocks), dim3(L->threads), args,
                            L->smem_bytes, L->stream);
}

static int ro_poison(const eng_ctx *c, int, int)
{
    const ro_state *s = (const ro_state *)c->state;
    /* NaN sums: a warp that stored nothing fails */
    return cudaMemset(s->warp_sum, 0xff, s->max_warps * sizeof(float));
}

struct ro_ref {
    int v;
    const float *got;
    uint64_t items, stride;
    const sf_perm *perm;   /* random_access: ro_perm of many indices at once */
};

/* What warp w must have summed. */
static float ro_reference_sum(const ro_ref *r, uint64_t w)
{
    float sum = 0;
    if (r->v == RO_RANDOM_ACCESS) {
        /* the warp's 32 indices permuted together (sector_perm.h: the same
         * values as ro_perm, a tenth of the time; at N = 1e8 ro_perm made
         * this check 0.55 s of each readonly run on 16 cores), summed in
         * the same order */
        uint64_t x[32];
        unsigned k = 0;
        for (uint64_t t = w * 32; t < w * 32 + 32 && t < r->items; t++) x[k++] = t;
        sf_perm_many(r->perm, x, k);
        for (unsigned i = 0; i < k; i++) sum += ro_value(x[i]);
        return sum;
    }
    for (uint64_t t = w * 32; t < w * 32 + 32 && t < r->items; t++) {
        switch (r->v) {
        case RO_BASELINE:
        case RO_NONDIVERGING: sum += ro_value(t); break;
        case RO_STRIDED: sum += ro_value((r->stride * t) % r->items); break;
        default: {
            const uint64_t e = r->v == RO_FLOAT4 ? t : (r->stride * t) % r->items;
            sum += (ro_value(4 * e) + ro_value(4 * e + 1)) + (ro_value(4 * e + 2) + ro_value(4 * e + 3));
        }
        }
    }
    return sum;
}

/* The CPU's warp sums, kept for the process.  A batch validates the same
 * variant at the same N line after line (the summaries' five WPBs, the
 * sampling's Ks and seeds, the logs' WPBs: 22 lines at N = 1e8 in the full
 * main job), and warp w sums items 32 w .. 32 w + 31 whatever the WPB (the
 * warps past the items sum nothing), so each (variant, N, stride, and for
 * random_access the seed) is computed once and every line compared with it.
 * The oldest is dropped beyond RO_NEXPECT (at N = 1e8 each is 12.5 MB). */
#define RO_NEXPECT 8
typedef struct ro_expect {
    int v;
    uint64_t n, items, stride, seed, nw;   /* nw: the warps with items */
    float *sum;
} ro_expect;
static ro_expect ro_expected[RO_NEXPECT];
static unsigned ro_nexpected;   /* filled so far; the next slot is ro_nexpected % RO_NEXPECT */

struct ro_cmp {
    const ro_ref *r;
    float *want;   /* filled (fill = 1) or read */
    uint64_t nw;
    int fill;
};

static uint64_t ro_check_range(void *ctx, uint64_t lo, uint64_t hi, uint64_t *first)
{
    const ro_cmp *c = (const ro_cmp *)ctx;
    uint64_t bad = 0;
    for (uint64_t w = lo; w < hi; w++) {
        float want = 0;
        if (w < c->nw) {
            if (!c->want) want = ro_reference_sum(c->r, w);   /* nowhere to keep it */
            else {
                if (c->fill) c->want[w] = ro_reference_sum(c->r, w);
                want = c->want[w];
            }
        }
        if (c->r->got[w] != want) {
            if (!bad) *first = w;
            bad++;
        }
    }
    return bad;
}

/* the kept sums of this variant and size, or NULL (*slot: where to keep
 * them, NULL where the host has no room) */
static ro_expect *ro_expect_find(int v, uint64_t n, uint64_t items, uint64_t stride, uint64_t seed,
                                 ro_expect **slot)
{
    for (unsigned i = 0; i < RO_NEXPECT; i++) {
        ro_expect *e = &ro_expected[i];
        if (e->sum && e->v == v && e->n == n && e->items == items && e->stride == stride && e->seed == seed)
            return e;
    }
    ro_expect *e = &ro_expected[ro_nexpected++ % RO_NEXPECT];
    free(e->sum);
    memset(e, 0, sizeof *e);
    const uint64_t nw = (items + 31) / 32;
    e->sum = eng_host_room((nw ? nw : 1) * sizeof(float)) ? (float *)malloc((nw ? nw : 1) * sizeof(float)) : NULL;
    if (e->sum) *e = (ro_expect){v, n, items, stride, seed, nw, e->sum};
    *slot = e->sum ? e : NULL;
    return NULL;
}

static int ro_check(const eng_ctx *c, int v, int, eng_check *out)
{
    const ro_state *s = (const ro_state *)c->state;
    const uint64_t items = ro_items(c, v);
    const uint64_t warps = (items + c->tpb - 1) / c->tpb * c->wpb;
    ENG_TRY(cudaMemcpy(s->h_sum, s->warp_sum, warps * sizeof(float), cudaMemcpyDeviceToHost));
    const uint64_t stride = RO_STRIDED_[v] ? opt_stride : 1, seed = v == RO_RANDOM_ACCESS ? c->seed : 0;
    ro_expect *slot = NULL, *e = ro_expect_find(v, c->n, items, stride, seed, &slot);
    sf_perm *perm = NULL;
    if (!e && v == RO_RANDOM_ACCESS) {
        perm = (sf_perm *)malloc(sizeof *perm);
        if (!perm) {
            if (slot) {   /* nothing was kept */
                free(slot->sum);
                memset(slot, 0, sizeof *slot);
            }
            return (int)cudaErrorMemoryAllocation;
        }
        sf_perm_init(perm, c->n, c->seed);
    }
    ro_ref r = {v, s->h_sum, items, stride, perm};
    /* computed now (into the slot, or, where the host had no room for one,
     * for each warp as it is compared), or the kept sums */
    ro_cmp cmp = {&r, e ? e->sum : slot ? slot->sum : NULL, (items + 31) / 32, !e};
    uint64_t first;
    out->checked = warps;
    out->bad = eng_parallel_check(warps, ro_check_range, &cmp, &first);
    if (out->bad)
        snprintf(out->first, sizeof out->first, "warp %llu summed %g, the CPU %g", (unsigned long long)first,
                 (double)s->h_sum[first], first >= cmp.nw ? 0.0
                 : cmp.want ? (double)cmp.want[first] : (double)ro_reference_sum(&r, first));
    free(perm);
    return 0;
}

static void ro_teardown(eng_ctx *c)
{
    ro_state *s = (ro_state *)c->state;
    if (!s) return;
    cudaFree(s->a);
    cudaFree(s->c);
    cudaFree(s->warp_sum);
    cudaFree(s->sink);
    free(s->h_sum);
    free(s);
    c->state = NULL;
}

static const char *const RO_POS[] = {"N", "SMEM", "WPB", NULL};
static const char *const RO_POSDEF[] = {"1e8", "0", "4", NULL};

#define RO_NAME(ID, NAME, ABOUT, CFG, CFGD, RULE) {NAME, ABOUT},
static const eng_variant RO_VARIANTS[RO_NVARIANTS] = {READONLY_VARIANTS(RO_NAME)};
#undef RO_NAME

extern "C" const eng_family eng_family_table = {
    .name = "readonly",
    .about = "How long one global load takes, warp by warp, and the bandwidth that follows\n"
             "(Little's law): one load per thread, six access patterns.",
    .posnames = RO_POS,
    .posdefaults = RO_POSDEF,
    .variants = RO_VARIANTS,
    .nvariants = RO_NVARIANTS,
    .options = RO_OPTIONS,
    .geometry = ro_geometry,
    .kernel = ro_kernel,
    .setup = ro_setup,
    .prepare = ro_prepare,
    .launch = ro_launch,
    .poison = ro_poison,
    .check = ro_check,
    .teardown = ro_teardown,
};
