/*
 * patterns.cu - the patterns family: access patterns across the cache paths
 * (seed 001, a lecture, and seed 002).  What does each pattern cost the
 * hardware, in sectors and bus utilization at L1, L2 and DRAM, and in
 * per-warp latency, through L1 (ld.global.ca), around it (ld.global.cg) and
 * through the read-only path (ld.global.nc)?  And what do writes and
 * array-of-structs layouts cost?
 *
 * Run (with a GPU): make patterns && ./patterns 1e8 0 4
 *   (N elements, SMEM bytes, warps per block; the defaults.  ./patterns --help: variants, options)
 *
 * Load patterns (float a[N]; thread t, warp w, lane l), each in three
 * variants NAME_ca, NAME_cg, NAME_nc whose loads are inline PTX with exactly
 * that cache operator:
 *   coalesced   a[t]
 *   permuted    a[(t & ~31) | ((7 l + 3) & 31)]   the warp's 32 words, shuffled
 *   offset      a[t + off]                        misaligned by --offset elements
 *   broadcast   a[32 w]                           one address for the whole warp
 *   random      a[perm(t)]                        32 random addresses (patterns.h)
 *   spread      seed 002, scenario 5: warp w's 128 bytes in four 32-byte pieces
 *               over its 512-byte window (words 0-7, 32-39, 64-71, 120-127)
 *   straddle    scenario 3: bytes 96..223 of the window, two lines
 *   reread      scenario 4: even warps bytes 96..223, odd warps bytes 0..127 of
 *               the same window: lines the even warp brought into L2 (N/4
 *               threads: windows over the first half of a)
 * Write patterns (out[N]; stores through L2): write_coalesced, write_scatter192
 * (bytes 0-31, 64-127 and 160-191 of a 256-byte window: the lecture's "1- and
 * 2-segment transactions"), write_range64 (two lanes per word: 64 bytes),
 * write_offset (--offset), write_strided (--stride).
 * Structs of F = 2, 4, 8 floats: aosF_one (field 0 of each struct), aosF_all
 * (every field, one load each), soaF_one, soaF_all, and aos_vec2/aos_vec4
 * (the struct loaded as one float2/float4, seed 004).
 *
 * The probe kernels time the load(s) to their use (loads only; a store does
 * not make a warp wait, so the write patterns are timed, not probed).
 * Validation: the check kernels store each warp's sum of what it loaded
 * (values are small integers: exact), compared with the CPU's; the write
 * patterns' outputs are compared element by element, unwritten ones must
 * still hold the poison.
 */
#include <stdlib.h>
#include <string.h>
#include <type_traits>

#include "engine.cuh"
#include "par.h"
#include "patterns.h"

/* ------------------------------------------------------------ the table of patterns */

enum { PA_CA, PA_CG, PA_NC, PA_DEFAULT };   /* cache paths */

#include "variants.h"   /* the one list of variants (and PT_*), shared with the sector model */

struct pa_args {
    const float *a;
    float *out;
    uint64_t n;        /* floats in a and out */
    uint64_t items;    /* threads that work */
    uint64_t param;    /* offset, stride, or the struct size F */
    uint64_t seed;
    uint32_t half;     /* ro_perm_half_bits(n) */
    float *warp_sum;
    eng_dev E;
};

/* ------------------------------------------------------------ loads by path */

template <int P> static __device__ __forceinline__ float pa_ld(const float *p)
{
    float v;
    if (P == PA_CA) asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
    else if (P == PA_CG) asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
    else if (P == PA_NC) asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    else v = *p;
    return v;
}

/* The word a lane of a load pattern reads (the same function on the host). */
static __host__ __device__ __forceinline__ uint64_t pa_index(int pt, uint64_t t, const pa_args &A)
{
    const uint64_t w = t >> 5, l = t & 31;
    switch (pt) {
    case PT_COALESCED: return t;
    case PT_PERMUTED: return (t & ~31ull) | ((7 * l + 3) & 31);
    case PT_OFFSET: return t + A.param;
    case PT_BROADCAST: return 32 * w;
    case PT_RANDOM: return ro_perm(t, A.n, A.half, A.seed);
    case PT_SPREAD: {
        const uint64_t base = l < 8 ? 0 : l < 16 ? 32 : l < 24 ? 64 : 120;
        return 128 * w + base + (l & 7);
    }
    case PT_STRADDLE: return 128 * w + 24 + l;
    case PT_REREAD: return 128 * (w >> 1) + ((w & 1) ? l : 24 + l);
    case PT_W_COALESCED: return t;
    case PT_W_SCATTER192: return 64 * w + (l < 8 ? l : l < 24 ? l + 8 : l + 16);
    case PT_W_RANGE64: return 16 * w + l / 2;
    case PT_W_OFFSET: return t + A.param;
    case PT_W_STRIDED: return t * A.param;
    default: return t;
    }
}

static __device__ __forceinline__ uint64_t pa_tid(void)
{
    return (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
}

/* One load of pattern PT through path P. */
template <int PT, int P, eng_mode M> static __device__ __forceinline__ void pa_load_body(const pa_args &A)
{
    const uint64_t t = pa_tid();
    const bool active = t < A.items;
    if (M != ENG_CHECK && !active) return;
    const float *p = eng_pin(A.a + (active ? pa_index(PT, t, A) : 0));
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        float v = pa_ld<P>(p);
        v = probe_use_f32(v);
        ENG_TIMED_END();
        ENG_RECORD(A.E);
        eng_consume(A.E, __float_as_uint(v));
        return;
    }
    const float v = pa_ld<P>(p);
    if (M == ENG_CHECK) eng_warp_sum_store(active ? v : 0.f, A.warp_sum);
    else eng_consume(A.E, __float_as_uint(v));
}

/* The value every write pattern stores at word i. */
static __host__ __device__ __forceinline__ float pa_wvalue(uint64_t i) { return (float)(i & 1023); }

template <int PT, eng_mode M> static __device__ __forceinline__ void pa_write_body(const pa_args &A)
{
    const uint64_t t = pa_tid();
    if (t >= A.items) return;
    const uint64_t i = pa_index(PT, t, A);
    A.out[i] = pa_wvalue(i);
}

/* Structs of F floats: one field, all fields, array of structs or struct of arrays. */
template <int F, int PT, eng_mode M> static __device__ __forceinline__ void pa_struct_body(const pa_args &A)
{
    const uint64_t t = pa_tid();
    const bool active = t < A.items;
    if (M != ENG_CHECK && !active) return;
    const uint64_t tt = active ? t : 0;
    const int nl = PT == PT_AOS_ONE || PT == PT_SOA_ONE ? 1 : F;
    const float *base = eng_pin(A.a);
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        float v[F];
#pragma unroll
        for (int k = 0; k < nl; k++)
            v[k] = PT == PT_AOS_ONE || PT == PT_AOS_ALL ? base[tt * F + k] : base[k * A.items + tt];
        float s = v[0];
#pragma unroll
        for (int k = 1; k < nl; k++) s += v[k];
        s = probe_use_f32(s);
        ENG_TIMED_END();
        ENG_RECORD(A.E);
        eng_consume(A.E, __float_as_uint(s));
        return;
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < nl; k++)
        s += PT == PT_AOS_ONE || PT == PT_AOS_ALL ? base[tt * F + k] : base[k * A.items + tt];
    if (M == ENG_CHECK) eng_warp_sum_store(active ? s : 0.f, A.warp_sum);
    else eng_consume(A.E, __float_as_uint(s));
}

static __device__ __forceinline__ float pa_vsum(float2 q) { return q.x + q.y; }
static __device__ __forceinline__ float pa_vsum(float4 q) { return (q.x + q.y) + (q.z + q.w); }

/* The struct of F = 2 or 4 floats loaded as one vector (LDG.E.64/.128). */
template <int F, eng_mode M> static __device__ __forceinline__ void pa_vec_body(const pa_args &A)
{
    typedef typename std::conditional<F == 2, float2, float4>::type V;
    const uint64_t t = pa_tid();
    const bool active = t < A.items;
    if (M != ENG_CHECK && !active) return;
    const V *p = eng_pin(reinterpret_cast<const V *>(A.a) + (active ? t : 0));
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        V q = *p;
        const float x = probe_use_f32(q.x);   /* one scoreboard for the whole vector */
        ENG_TIMED_END();
        ENG_RECORD(A.E);
        q.x = x;
        eng_consume(A.E, __float_as_uint(pa_vsum(q)));
        return;
    }
    const V q = *p;
    if (M == ENG_CHECK) eng_warp_sum_store(active ? pa_vsum(q) : 0.f, A.warp_sum);
    else eng_consume(A.E, __float_as_uint(pa_vsum(q)));
}

/* ------------------------------------------------------------ the kernels */

#define PA_LOAD(NAME, PT, P, SUFFIX)                                                           \
    template <eng_mode M> static __device__ __forceinline__ void pa_##NAME##_##SUFFIX(const pa_args &A) \
    { pa_load_body<PT, P, M>(A); }                                                             \
    ENG_KERNELS(patterns_##NAME##_##SUFFIX, pa_##NAME##_##SUFFIX, pa_args)
#define PA_LOAD3(NAME, PT) PA_LOAD(NAME, PT, PA_CA, ca) PA_LOAD(NAME, PT, PA_CG, cg) PA_LOAD(NAME, PT, PA_NC, nc)
PA_LOAD3(coalesced, PT_COALESCED)
PA_LOAD3(permuted, PT_PERMUTED)
PA_LOAD3(offset, PT_OFFSET)
PA_LOAD3(broadcast, PT_BROADCAST)
PA_LOAD3(random, PT_RANDOM)
PA_LOAD3(spread, PT_SPREAD)
PA_LOAD3(straddle, PT_STRADDLE)
PA_LOAD3(reread, PT_REREAD)

#define PA_WRITE(NAME, PT)                                                                     \
    template <eng_mode M> static __device__ __forceinline__ void pa_##NAME(const pa_args &A)  \
    { pa_write_body<PT, M>(A); }                                                               \
    ENG_KERNELS_NOPROBE(patterns_##NAME, pa_##NAME, pa_args)
PA_WRITE(write_coalesced, PT_W_COALESCED)
PA_WRITE(write_scatter192, PT_W_SCATTER192)
PA_WRITE(write_range64, PT_W_RANGE64)
PA_WRITE(write_offset, PT_W_OFFSET)
PA_WRITE(write_strided, PT_W_STRIDED)

#define PA_STRUCT(NAME, F, PT)                                                                 \
    template <eng_mode M> static __device__ __forceinline__ void pa_##NAME(const pa_args &A)  \
    { pa_struct_body<F, PT, M>(A); }                                                           \
    ENG_KERNELS(patterns_##NAME, pa_##NAME, pa_args)
#define PA_STRUCT4(F)                                                                          \
    PA_STRUCT(aos##F##_one, F, PT_AOS_ONE) PA_STRUCT(aos##F##_all, F, PT_AOS_ALL)              \
    PA_STRUCT(soa##F##_one, F, PT_SOA_ONE) PA_STRUCT(soa##F##_all, F, PT_SOA_ALL)
PA_STRUCT4(2)
PA_STRUCT4(4)
PA_STRUCT4(8)
template <eng_mode M> static __device__ __forceinline__ void pa_aos_vec2(const pa_args &A) { pa_vec_body<2, M>(A); }
template <eng_mode M> static __device__ __forceinline__ void pa_aos_vec4(const pa_args &A) { pa_vec_body<4, M>(A); }
ENG_KERNELS(patterns_aos_vec2, pa_aos_vec2, pa_args)
ENG_KERNELS(patterns_aos_vec4, pa_aos_vec4, pa_args)

__global__ void pa_init_kernel(float *a, uint64_t n)
{
    for (uint64_t i = pa_tid(); i < n; i += (uint64_t)gridDim.x * blockDim.x) a[i] = ro_value(i);
}

/* ------------------------------------------------------------ the variants */

typedef struct pa_variant {
    const char *name;
    const char *about;
    int pt;       /* what it does */
    int path;     /* PA_CA, PA_CG, PA_NC or PA_DEFAULT */
    int F;        /* struct size (structs), 0 */
    const void *k[3];
} pa_variant;

#define PA_TRIO(N) {(const void *)patterns_##N, (const void *)patterns_##N##_probe, (const void *)patterns_##N##_check}
#define PA_DUO(N) {(const void *)patterns_##N, NULL, (const void *)patterns_##N##_check}
#define PA_V3(N, PT, ABOUT)                                                                   \
    {#N "_ca", ABOUT " (ld.global.ca: through L1)", PT, PA_CA, 0, PA_TRIO(N##_ca)},           \
    {#N "_cg", ABOUT " (ld.global.cg: L2 only)", PT, PA_CG, 0, PA_TRIO(N##_cg)},              \
    {#N "_nc", ABOUT " (ld.global.nc: the read-only path)", PT, PA_NC, 0, PA_TRIO(N##_nc)}

#define PA_L(N, PT, ABOUT, CFG, CFGD, RULE) PA_V3(N, PT, ABOUT),
#define PA_W(N, PT, ABOUT, CFG, CFGD, RULE) {#N, ABOUT, PT, PA_DEFAULT, 0, PA_DUO(N)},
#define PA_S(N, PT, F, ABOUT, RULE) {#N, ABOUT, PT, PA_DEFAULT, F, PA_TRIO(N)},
static const pa_variant PA[] = {PATTERNS_VARIANTS(PA_L, PA_W, PA_S)};
#undef PA_L
#undef PA_W
#undef PA_S
enum { PA_NVARIANTS = sizeof PA / sizeof PA[0] };
static eng_variant PA_NAMES[PA_NVARIANTS];

static cli_list opt_offsets = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}, 33};
static cli_list opt_strides = {{1, 2, 4, 8, 16, 32}, 6};

static const cli_opt PA_OPTIONS[] = {
    {"--offset", 0, CLI_LIST, 0, 1024, 0, 0, &opt_offsets, "LIST",
     "offsets in elements of the offset variants (default 0-32)", 0, 0},
    {"--stride", 0, CLI_LIST, 1, 4096, 0, 0, &opt_strides, "LIST",
     "strides of write_strided (default 1,2,4,8,16,32)", 0, 0},
    CLI_END,
};

static int pa_is_offset(int v) { return PA[v].pt == PT_OFFSET || PA[v].pt == PT_W_OFFSET; }
static int pa_is_write(int v) { return PA[v].pt >= PT_W_COALESCED && PA[v].pt <= PT_W_STRIDED; }

static int pa_configs(const eng_ctx *, int v)
{
    if (pa_is_offset(v)) return (int)opt_offsets.n;
    if (PA[v].pt == PT_W_STRIDED) return (int)opt_strides.n;
    return 1;
}

static uint64_t pa_param(int v, int cfg)
{
    if (pa_is_offset(v)) return opt_offsets.v[cfg];
    if (PA[v].pt == PT_W_STRIDED) return opt_strides.v[cfg];
    return (uint64_t)PA[v].F;
}

static uint64_t pa_items(int v, int cfg, uint64_t n)
{
    return patterns_items(PA[v].pt, pa_param(v, cfg), n);
}

static const void *pa_kernel(int v, int, eng_mode m) { return PA[v].k[m]; }

static int pa_geometry(const eng_ctx *c, int v, int cfg, eng_geom *g, char *err, size_t errlen)
{
    const uint64_t items = pa_items(v, cfg, c->n);
    if (items == 0) {
        snprintf(err, errlen, "N = %llu is too small for it", (unsigned long long)c->n);
        return -1;
    }
    if (PA[v].pt == PT_RANDOM && c->n > 0xffffffffull) {
        snprintf(err, errlen, "N must be below 2^32");
        return -1;
    }
    const int F = PA[v].F;
    const int all = PA[v].pt == PT_AOS_ALL || PA[v].pt == PT_SOA_ALL;
    g->items = items;
    g->blocks = (items + c->tpb - 1) / c->tpb;
    g->tail_idle = 1;
    g->elem_bytes = PA[v].pt == PT_AOS_VEC ? 4u * F : 4u;
    g->loads_per_warp = all ? (uint32_t)F : 1;
    g->bytes_per_warp_load = 32u * g->elem_bytes * g->loads_per_warp;
    g->stride = PA[v].pt == PT_W_STRIDED ? (uint32_t)pa_param(v, cfg)
              : PA[v].pt == PT_AOS_ONE || PA[v].pt == PT_AOS_ALL ? (uint32_t)F : 1;
    g->seed = PA[v].pt == PT_RANDOM ? c->seed : 0;
    const double bytes = (double)items * g->elem_bytes * g->loads_per_warp;
    g->bytes_read = pa_is_write(v) ? 0 : bytes;
    g->bytes_written = pa_is_write(v) ? 4.0 * items : 0;
    if (pa_is_offset(v)) {
        snprintf(g->config, sizeof g->config, "offset=%llu", (unsigned long long)pa_param(v, cfg));
        snprintf(g->label, sizeof g->label, "o%llu", (unsigned long long)pa_param(v, cfg));
    } else if (PA[v].pt == PT_W_STRIDED) {
        snprintf(g->config, sizeof g->config, "stride=%llu", (unsigned long long)pa_param(v, cfg));
        snprintf(g->label, sizeof g->label, "s%llu", (unsigned long long)pa_param(v, cfg));
    }
    g->record_covers = all ? "every field's load to the first use of their sum"
                           : "one load to its first use";
    return 0;
}

struct pa_state {
    float *a, *out, *warp_sum;
    uint32_t *sink;
    float *h_sum;
    unsigned char *mask;
    uint64_t max_warps;
    uint32_t *prefix;   /* host, n + 1 words, or NULL: pa_prefix_build */
};

static int pa_setup(eng_ctx *c)
{
    pa_state *s = (pa_state *)calloc(1, sizeof *s);
    if (!s) return (int)cudaErrorMemoryAllocation;
    c->state = s;
    s->max_warps = (c->n + c->tpb - 1) / c->tpb * c->wpb;
    int writes = 0;
    for (int v = 0; v < PA_NVARIANTS; v++) writes |= c->selected[v] && pa_is_write(v);
    ENG_TRY(cudaMalloc((void **)&s->a, c->n * sizeof(float)));
    ENG_TRY(cudaMalloc((void **)&s->warp_sum, s->max_warps * sizeof(float)));
    ENG_TRY(cudaMalloc((void **)&s->sink, sizeof(uint32_t)));
    s->h_sum = (float *)malloc(s->max_warps * sizeof(float));
    if (!s->h_sum) return (int)cudaErrorMemoryAllocation;
    if (writes) {
        ENG_TRY(cudaMalloc((void **)&s->out, c->n * sizeof(float)));
        s->mask = (unsigned char *)malloc(c->n);
        if (!s->mask) return (int)cudaErrorMemoryAllocation;
    }
    pa_init_kernel<<<4096, 256>>>(s->a, c->n);
    ENG_TRY(cudaGetLastError());
    return cudaDeviceSynchronize();
}

static pa_args pa_args_for(const eng_ctx *c, int v, int cfg)
{
    const pa_state *s = (const pa_state *)c->state;
    pa_args A;
    A.a = s->a;
    A.out = s->out;
    A.n = c->n;
    A.items = pa_items(v, cfg, c->n);
    A.param = pa_param(v, cfg);
    A.seed = c->seed;
    A.half = ro_perm_half_bits(c->n);
    A.warp_sum = s->warp_sum;
    return A;
}

static int pa_launch(const eng_ctx *c, int v, int cfg, eng_mode m, const eng_launch *L)
{
    const pa_state *s = (const pa_state *)c->state;
    pa_args A = pa_args_for(c, v, cfg);
    A.E = eng_dev_args(L, 0xffffffffu, s->sink);   /* no value is all ones */
    void *args[] = {&A};
    return cudaLaunchKernel(PA[v].k[m], dim3((unsigned)L->blocks), dim3(L->threads), args,
                            L->smem_bytes, L->stream);
}

static int pa_poison(const eng_ctx *c, int v, int)
{
    const pa_state *s = (const pa_state *)c->state;
    if (pa_is_write(v)) return cudaMemset(s->out, 0xff, c->n * sizeof(float));
    return cudaMemset(s->warp_sum, 0xff, s->max_warps * sizeof(float));
}

struct pa_ref {
    int v;
    pa_args A;
    const float *got;
    const unsigned char *mask;
    uint64_t warps;
    const uint32_t *prefix;   /* offset loads: pa_prefix_build's sums, or NULL */
};

/* prefix[i] = the sum of the values a[j], j < i, modulo 2^32, for i <= n.
 * An offset load's warp sums a run of consecutive words, so with it the
 * CPU's sum is two reads (every warp's sum is below 2^24: the difference
 * modulo 2^32 is the exact one) instead of 32 hashes: the offset sweep
 * validated 99 configurations at 1e8 for 5.4 s on the H200, most of the
 * patterns summary's CPU time.  Built once a process, on every core. */
typedef struct pa_prefix_job {
    uint32_t *p;
    uint64_t n;
    size_t parts;
    uint32_t base[PAR_MAX_THREADS * 4];
} pa_prefix_job;

static void pa_prefix_part(void *ctx, size_t k)
{
    pa_prefix_job *j = (pa_prefix_job *)ctx;
    const uint64_t lo = j->n * k / j->parts, hi = j->n * (k + 1) / j->parts;
    uint32_t acc = 0;
    for (uint64_t i = lo; i < hi; i++) j->p[i + 1] = acc += (uint32_t)ro_value(i);
}

static void pa_prefix_shift(void *ctx, size_t k)
{
    pa_prefix_job *j = (pa_prefix_job *)ctx;
    const uint64_t lo = j->n * k / j->parts, hi = j->n * (k + 1) / j->parts;
    for (uint64_t i = lo; i < hi; i++) j->p[i + 1] += j->base[k];
}

/* the prefix sums of a[] (NULL where the host has no room: then every lane
 * is summed as before) */
static const uint32_t *pa_prefix_build(pa_state *s, uint64_t n)
{
    if (s->prefix) return s->prefix;
    if (!eng_host_room((n + 1) * sizeof(uint32_t))) return NULL;
    pa_prefix_job *j = (pa_prefix_job *)calloc(1, sizeof *j);
    uint32_t *p = (uint32_t *)malloc((n + 1) * sizeof *p);
    if (!j || !p) {
        free(j);
        free(p);
        return NULL;
    }
    j->p = p;
    j->n = n;
    j->parts = n < 65536 ? 1 : (size_t)par_cores() * 4;
    par_for(j->parts, 0, pa_prefix_part, j);
    p[0] = 0;
    uint32_t run = 0;
    for (size_t k = 0; k < j->parts; k++) {   /* each part's start: the sum of the parts before */
        const uint32_t part = p[j->n * (k + 1) / j->parts];
        j->base[k] = run;
        run += part;
    }
    par_for(j->parts, 0, pa_prefix_shift, j);
    free(j);
    return s->prefix = p;
}

/* What lane t of a load variant contributes to its warp's sum. */
static float pa_lane_value(const pa_ref *r, uint64_t t)
{
    const pa_args &A = r->A;
    if (t >= A.items) return 0;
    const int pt = PA[r->v].pt;
    const uint64_t F = A.param;
    switch (pt) {
    case PT_AOS_ONE: return ro_value(t * F);
    case PT_SOA_ONE: return ro_value(t);
    case PT_AOS_ALL: case PT_AOS_VEC: {
        float s = 0;
        for (uint64_t k = 0; k < F; k++) s += ro_value(t * F + k);
        return s;
    }
    case PT_SOA_ALL: {
        float s = 0;
        for (uint64_t k = 0; k < F; k++) s += ro_value(k * A.items + t);
        return s;
    }
    default: return ro_value(pa_index(pt, t, A));
    }
}

static uint64_t pa_check_sums(void *ctx, uint64_t lo, uint64_t hi, uint64_t *first)
{
    const pa_ref *r = (const pa_ref *)ctx;
    uint64_t bad = 0;
    const uint64_t items = r->A.items, o = r->A.param;
    for (uint64_t w = lo; w < hi; w++) {
        float want = 0;
        if (r->prefix) {   /* the words t + o, 32 w <= t < min(32 w + 32, items) */
            const uint64_t t0 = 32 * w < items ? 32 * w : items, t1 = 32 * w + 32 < items ? 32 * w + 32 : items;
            want = (float)(r->prefix[t1 + o] - r->prefix[t0 + o]);
        } else {
            for (uint64_t t = 32 * w; t < 32 * w + 32; t++) want += pa_lane_value(r, t);
        }
        if (r->got[w] != want) {
            if (!bad) *first = w;
            bad++;
        }
    }
    return bad;
}

/* The elements the variant writes, marked in r->mask, on every core (a
 * pattern may write an element from several lanes: the stores are atomic
 * and all store 1). */
static uint64_t pa_mark(void *ctx, uint64_t lo, uint64_t hi, uint64_t *)
{
    const pa_ref *r = (const pa_ref *)ctx;
    unsigned char *mask = (unsigned char *)r->mask;
    const int pt = PA[r->v].pt;
    for (uint64_t t = lo; t < hi; t++) __atomic_store_n(&mask[pa_index(pt, t, r->A)], 1, __ATOMIC_RELAXED);
    return 0;
}

/* out[i] against the value stored there, or the poison where nothing writes */
static uint64_t pa_check_out(void *ctx, uint64_t lo, uint64_t hi, uint64_t *first)
{
    const eng_chunk *ch = (const eng_chunk *)ctx;
    const pa_ref *r = (const pa_ref *)ch->user;
    const float *got_at = (const float *)ch->got - ch->base;
    uint64_t bad = 0;
    for (uint64_t i = lo; i < hi; i++) {
        uint32_t got, want;
        const float wv = pa_wvalue(i);
        memcpy(&got, &got_at[i], 4);
        if (r->mask[i]) memcpy(&want, &wv, 4);
        else want = 0xffffffffu;
        if (got != want) {
            if (!bad) *first = i;
            bad++;
        }
    }
    return bad;
}

static int pa_check(const eng_ctx *c, int v, int cfg, eng_check *out)
{
    const pa_state *s = (const pa_state *)c->state;
    pa_ref r;
    r.v = v;
    r.A = pa_args_for(c, v, cfg);
    r.prefix = PA[v].pt == PT_OFFSET ? pa_prefix_build((pa_state *)s, c->n) : NULL;
    uint64_t first = 0;
    if (pa_is_write(v)) {
        memset(s->mask, 0, c->n);
        r.mask = s->mask;
        eng_parallel_check(r.A.items, pa_mark, &r, &first);
        cudaError_t err;
        out->checked = c->n;
        out->bad = eng_check_device(s->out, c->n, sizeof(float), pa_check_out, &r, &first, &err);
        ENG_TRY(err);
        if (out->bad) {
            float got;
            ENG_TRY(cudaMemcpy(&got, s->out + first, sizeof got, cudaMemcpyDeviceToHost));
            snprintf(out->first, sizeof out->first, "out[%llu] = %g, expected %s", (unsigned long long)first,
                     (double)got, s->mask[first] ? "the value stored there" : "the poison (nothing writes it)");
        }
        return 0;
    }
    const uint64_t warps = (r.A.items + c->tpb - 1) / c->tpb * c->wpb;
    ENG_TRY(cudaMemcpy(s->h_sum, s->warp_sum, warps * sizeof(float), cudaMemcpyDeviceToHost));
    r.got = s->h_sum;
    r.warps = warps;
    out->checked = warps;
    out->bad = eng_parallel_check(warps, pa_check_sums, &r, &first);
    if (out->bad)
        snprintf(out->first, sizeof out->first, "warp %llu summed %g", (unsigned long long)first,
                 (double)s->h_sum[first]);
    return 0;
}

static void pa_teardown(eng_ctx *c)
{
    pa_state *s = (pa_state *)c->state;
    if (!s) return;
    cudaFree(s->a);
    cudaFree(s->out);
    cudaFree(s->warp_sum);
    cudaFree(s->sink);
    free(s->h_sum);
    free(s->mask);
    free(s->prefix);
    free(s);
    c->state = NULL;
}

static const char *const PA_POS[] = {"N", "SMEM", "WPB", NULL};
static const char *const PA_POSDEF[] = {"1e8", "0", "4", NULL};

/* The variants' names and descriptions, from the one table above. */
static struct pa_names_init {
    pa_names_init()
    {
        for (int v = 0; v < PA_NVARIANTS; v++) PA_NAMES[v] = {PA[v].name, PA[v].about};
    }
} pa_names_init_;

extern "C" const eng_family eng_family_table = {
    .name = "patterns",
    .about = "Access patterns across the cache paths (seeds 001 and 002): cached (ld.global.ca),\n"
             "L2-only (ld.global.cg) and read-only (ld.global.nc) loads, aligned, permuted,\n"
             "misaligned, broadcast, random and the five coalescing scenarios; write patterns;\n"
             "arrays of structs against structs of arrays.  What each moves at L1, L2 and DRAM\n"
             "is predicted by bin/sector_model and measured by scripts/ncu_profile.sh.",
    .posnames = PA_POS,
    .posdefaults = PA_POSDEF,
    .variants = PA_NAMES,
    .nvariants = PA_NVARIANTS,
    .options = PA_OPTIONS,
    .configs = pa_configs,
    .geometry = pa_geometry,
    .kernel = pa_kernel,
    .setup = pa_setup,
    .launch = pa_launch,
    .poison = pa_poison,
    .check = pa_check,
    .teardown = pa_teardown,
};
