/*
 * copy.cu - the copy family: data copies with LDG/STG, what strides, batches,
 * unrolling, __restrict__ and vector widths cost, and how close a copy gets to
 * cudaMemcpy (seed labs 000 parts I and II, and 004).
 *
 * Run (with a GPU): make copy && ./copy 1e8 0 4
 *   (N elements, SMEM bytes, warps per block; the defaults.  ./copy --help: variants, options)
 *
 * Variants (int32 arrays in and out of N elements; three kernels each,
 * engine.cuh; per-configuration kernels are named NAME_b<B>):
 *   stride           out[t] = in[t*S]            strided loads, coalesced stores (--stride)
 *   stride_store     out[t*S] = in[t]            coalesced loads, strided stores
 *   stride16         out4[t] = in4[t*S]          16-byte elements (int4)
 *   batch            B elements per thread, a rolled loop (#pragma unroll 1) (--batch)
 *   batch_unrolled   the same loop unrolled: without __restrict__ the compiler
 *                    must keep each load after the previous store (LDG/STG interleaved)
 *   batch_restrict   unrolled, __restrict__ pointers: the B loads, then the B stores
 *   int4             B/4 int4 per thread: one LDG.E.128/STG.E.128 per 4 elements
 *   grid_scalar      grid-stride loop over N, grid = SMs x resident blocks (004)
 *   grid_vector2     the same with int2 (LDG.E.64), the odd element by thread 0
 *   grid_vector4     the same with int4 (LDG.E.128), N mod 4 elements by threads 0..2
 *   vector2          one int2 per thread, the remainder by the thread after the last
 *   vector4          one int4 per thread, likewise
 *   memcpy           cudaMemcpyAsync device to device: the ceiling beside them
 *
 * Effective bandwidth counts bytes read plus bytes written (lab 001).  The
 * probe kernels time, in one block of K, from the clock before a warp's first
 * load to the first use of its last load (for the batches: the whole batch,
 * the interleaved stores included); the store of the value is that use where
 * the kernel stores it at once.
 *
 * Validation: every element of out is compared with the CPU's copy; elements
 * a kernel must not write must still hold the poison, so a store out of place
 * fails too.  A misaligned base (--offset E elements into both arrays) is
 * refused for the vector kernels with a sentence, never a crash.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.cuh"
#include "patterns.h"

#include "variants.h"   /* the one list of variants, shared with the sector model */

#define CP_ID(ID, NAME, ABOUT, CFG, CFGD, RULE, GEN, PARAM) ID,
#define CP_ID_U(ID, NAME, ABOUT) ID,
enum { COPY_VARIANTS(CP_ID, CP_ID_U) CP_NVARIANTS };
#undef CP_ID
#undef CP_ID_U

struct cp_args {
    const int *in;
    int *out;
    uint64_t n;       /* elements of in and out (past the offset) */
    uint64_t items;   /* threads that work */
    uint64_t stride;  /* stride variants */
    uint32_t batch;   /* batch (rolled) */
    eng_dev E;
};

static __device__ __forceinline__ uint64_t cp_tid(void)
{
    return (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
}

/* The first use of a loaded int: an FADD of +0.0 to its bits, whose result is
 * what gets stored, so ptxas keeps it (an unused result is dead code in SASS,
 * whatever the inline asm says).  The data are finite non-negative floats'
 * bit patterns (cp_value), for which x + 0.0 is x, bit for bit. */
static __device__ __forceinline__ int cp_use(int v) { return __float_as_int(probe_use_f32(__int_as_float(v))); }

/* ------------------------------------------------------------ strides */

/* One int from p to q; the probe times the load to its first use. */
template <eng_mode M>
static __device__ __forceinline__ void cp_copy_one(const cp_args &A, const int *p, int *q)
{
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        const int v = cp_use(*p);
        ENG_TIMED_END();
        *q = v;
        ENG_RECORD(A.E);
        return;
    }
    *q = *p;
}

template <eng_mode M> static __device__ __forceinline__ void cp_stride_body(const cp_args &A)
{
    const uint64_t t = cp_tid();
    if (t >= A.items) return;
    const int *p = eng_pin(A.in + t * A.stride);
    int *q = eng_pin_mut(A.out + t);
    cp_copy_one<M>(A, p, q);
}

template <eng_mode M> static __device__ __forceinline__ void cp_stride_store_body(const cp_args &A)
{
    const uint64_t t = cp_tid();
    if (t >= A.items) return;
    const int *p = eng_pin(A.in + t);
    int *q = eng_pin_mut(A.out + t * A.stride);
    cp_copy_one<M>(A, p, q);
}

template <eng_mode M> static __device__ __forceinline__ void cp_stride16_body(const cp_args &A)
{
    const uint64_t t = cp_tid();
    if (t >= A.items) return;
    const int4 *p = eng_pin(reinterpret_cast<const int4 *>(A.in) + t * A.stride);
    int4 *q = eng_pin_mut(reinterpret_cast<int4 *>(A.out) + t);
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        int4 v = *p;
        v.x = cp_use(v.x);   /* one LDG.E.128, one scoreboard: .x waits for all four */
        ENG_TIMED_END();
        *q = v;
        ENG_RECORD(A.E);
        return;
    }
    *q = *p;
}

ENG_KERNELS(copy_stride, cp_stride_body, cp_args)
ENG_KERNELS(copy_stride_store, cp_stride_store_body, cp_args)
ENG_KERNELS(copy_stride16, cp_stride16_body, cp_args)

/* ------------------------------------------------------------ batches */

/* B elements per thread, thread t the elements t*B .. t*B+B-1. */
template <eng_mode M> static __device__ __forceinline__ void cp_batch_body(const cp_args &A)
{
    const uint64_t t = cp_tid();
    if (t >= A.items) return;
    const int *p = eng_pin(A.in + t * A.batch);
    int *q = eng_pin_mut(A.out + t * A.batch);
    const uint32_t B = A.batch;
    ENG_IF_RECORDING(M, A.E) {
        /* each store is the first use of its load: the last store waits
         * for the last load, and the clock is read after it */
        ENG_TIMED_BEGIN();
#pragma unroll 1
        for (uint32_t k = 0; k < B; k++) q[k] = p[k];
        ENG_TIMED_END();
        ENG_RECORD(A.E);
        return;
    }
#pragma unroll 1
    for (uint32_t k = 0; k < B; k++) q[k] = p[k];
}

template <int B, eng_mode M> static __device__ __forceinline__ void cp_unrolled(const cp_args &A)
{
    const uint64_t t = cp_tid();
    if (t >= A.items) return;
    const int *p = eng_pin(A.in + t * B);
    int *q = eng_pin_mut(A.out + t * B);
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
#pragma unroll
        for (int k = 0; k < B; k++) q[k] = p[k];   /* each store waits for its load */
        ENG_TIMED_END();
        ENG_RECORD(A.E);
        return;
    }
#pragma unroll
    for (int k = 0; k < B; k++) q[k] = p[k];
}

/* The word of a loaded element that its use reads: an int4's .x (one
 * scoreboard per LDG.E.128, so .x waits for all four). */
static __device__ __forceinline__ int cp_word(int v) { return v; }
static __device__ __forceinline__ int cp_word(const int4 &v) { return v.x; }

/* __restrict__ on the kernel's pointer parameters (nvcc honours it there, not
 * on local pointers: measured in the SASS): no store can change what a later
 * load reads, so the compiler may issue every load first.  V elements of type
 * T per thread. */
template <typename T, int V, eng_mode M>
static __device__ __forceinline__ void cp_restrict_n(const cp_args &A, const T *__restrict__ in,
                                                     T *__restrict__ out)
{
    const uint64_t t = cp_tid();
    if (t >= A.items) return;
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        T v[V];
#pragma unroll
        for (int k = 0; k < V; k++) v[k] = in[t * V + k];
        /* the loads may issue in any order: the use depends on all of them */
        int x = cp_word(v[0]);
#pragma unroll
        for (int k = 1; k < V; k++) x ^= cp_word(v[k]);
        x = cp_use(x);
        ENG_TIMED_END();
#pragma unroll
        for (int k = 0; k < V; k++) out[t * V + k] = v[k];
        ENG_RECORD(A.E);
        eng_consume(A.E, (uint32_t)x);
        return;
    }
#pragma unroll
    for (int k = 0; k < V; k++) out[t * V + k] = in[t * V + k];
}

template <int B, eng_mode M>
static __device__ __forceinline__ void cp_restrict(const cp_args &A, const int *__restrict__ in,
                                                   int *__restrict__ out)
{
    cp_restrict_n<int, B, M>(A, in, out);
}

/* B/4 int4 per thread. */
template <int B, eng_mode M>
static __device__ __forceinline__ void cp_int4(const cp_args &A, const int4 *__restrict__ in,
                                               int4 *__restrict__ out)
{
    cp_restrict_n<int4, B / 4, M>(A, in, out);
}

/* The restrict kernels take the arrays as __restrict__ parameters after the
 * arguments every kernel of the family takes (the launcher passes them to
 * all; the others ignore them). */
#define CP_RESTRICT_KERNELS(NAME, BODY, T)                                                        \
    extern "C" __global__ void NAME(cp_args A, const T *__restrict__ in, T *__restrict__ out)     \
    { BODY<ENG_CLEAN>(A, in, out); }                                                              \
    extern "C" __global__ void NAME##_probe(cp_args A, const T *__restrict__ in, T *__restrict__ out) \
    { BODY<ENG_PROBE>(A, in, out); }                                                              \
    extern "C" __global__ void NAME##_check(cp_args A, const T *__restrict__ in, T *__restrict__ out) \
    { BODY<ENG_CHECK>(A, in, out); }

#define CP_BATCH_BODIES(B)                                                                  \
    template <eng_mode M> static __device__ __forceinline__ void cp_unrolled_##B(const cp_args &A) \
    { cp_unrolled<B, M>(A); }                                                               \
    template <eng_mode M>                                                                   \
    static __device__ __forceinline__ void cp_restrict_##B(const cp_args &A, const int *__restrict__ in, \
                                                           int *__restrict__ out)           \
    { cp_restrict<B, M>(A, in, out); }                                                      \
    ENG_KERNELS(copy_batch_unrolled_b##B, cp_unrolled_##B, cp_args)                         \
    CP_RESTRICT_KERNELS(copy_batch_restrict_b##B, cp_restrict_##B, int)
/* every batch --batch accepts (1..COPY_BATCH_MAX): an unrolled loop exists
 * for each, so that B = 3 runs the kernel of 3, never that of 4 on a grid
 * sized for 3 (which wrote past the output) */
CP_BATCH_BODIES(1)  CP_BATCH_BODIES(2)  CP_BATCH_BODIES(3)  CP_BATCH_BODIES(4)
CP_BATCH_BODIES(5)  CP_BATCH_BODIES(6)  CP_BATCH_BODIES(7)  CP_BATCH_BODIES(8)
CP_BATCH_BODIES(9)  CP_BATCH_BODIES(10) CP_BATCH_BODIES(11) CP_BATCH_BODIES(12)
CP_BATCH_BODIES(13) CP_BATCH_BODIES(14) CP_BATCH_BODIES(15) CP_BATCH_BODIES(16)
ENG_KERNELS(copy_batch, cp_batch_body, cp_args)

#define CP_INT4_BODY(B)                                                                     \
    template <eng_mode M>                                                                   \
    static __device__ __forceinline__ void cp_int4_##B(const cp_args &A, const int4 *__restrict__ in, \
                                                       int4 *__restrict__ out)              \
    { cp_int4<B, M>(A, in, out); }                                                          \
    CP_RESTRICT_KERNELS(copy_int4_b##B, cp_int4_##B, int4)
CP_INT4_BODY(4)
CP_INT4_BODY(8)
CP_INT4_BODY(12)
CP_INT4_BODY(16)

/* ------------------------------------------------------------ vector widths (004) */

/* Grid-stride loop over N/W vectors of W ints, then the N mod W remaining
 * ints, one per thread, by the first threads of the grid. */
template <int W> struct cp_vec;
template <> struct cp_vec<1> { typedef int T; };
template <> struct cp_vec<2> { typedef int2 T; };
template <> struct cp_vec<4> { typedef int4 T; };

static __device__ __forceinline__ int cp_first(int v) { return v; }
static __device__ __forceinline__ int cp_first(int2 v) { return v.x; }
static __device__ __forceinline__ int cp_first(int4 v) { return v.x; }
static __device__ __forceinline__ void cp_set_first(int &v, int x) { v = x; }
static __device__ __forceinline__ void cp_set_first(int2 &v, int x) { v.x = x; }
static __device__ __forceinline__ void cp_set_first(int4 &v, int x) { v.x = x; }

template <int W, eng_mode M> static __device__ __forceinline__ void cp_grid(const cp_args &A)
{
    typedef typename cp_vec<W>::T T;
    const uint64_t t = cp_tid();
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t nv = A.n / W;
    const T *p = reinterpret_cast<const T *>(A.in);
    T *q = reinterpret_cast<T *>(A.out);
    uint64_t i = t;
    ENG_IF_RECORDING(M, A.E) {
        /* the first iteration's load, timed */
        if (i < nv) {
            const T *pi = eng_pin(p + i);
            ENG_TIMED_BEGIN();
            T v = *pi;
            cp_set_first(v, cp_use(cp_first(v)));
            ENG_TIMED_END();
            q[i] = v;
            ENG_RECORD(A.E);
            i += step;
        }
    }
    for (; i < nv; i += step) q[i] = p[i];
    if (W > 1 && t < A.n - nv * W) A.out[nv * W + t] = A.in[nv * W + t];
}

/* One vector per thread; thread nv copies the N mod W remaining ints. */
template <int W, eng_mode M> static __device__ __forceinline__ void cp_onevec(const cp_args &A)
{
    typedef typename cp_vec<W>::T T;
    const uint64_t t = cp_tid();
    if (t >= A.items) return;
    const uint64_t nv = A.n / W;
    if (t == nv) {
#pragma unroll
        for (int k = 0; k < W - 1; k++)
            if (nv * W + k < A.n) A.out[nv * W + k] = A.in[nv * W + k];
        return;
    }
    const T *p = eng_pin(reinterpret_cast<const T *>(A.in) + t);
    T *q = eng_pin_mut(reinterpret_cast<T *>(A.out) + t);
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        T v = *p;
        cp_set_first(v, cp_use(cp_first(v)));
        ENG_TIMED_END();
        *q = v;
        ENG_RECORD(A.E);
        return;
    }
    *q = *p;
}

template <eng_mode M> static __device__ __forceinline__ void cp_grid1(const cp_args &A) { cp_grid<1, M>(A); }
template <eng_mode M> static __device__ __forceinline__ void cp_grid2(const cp_args &A) { cp_grid<2, M>(A); }
template <eng_mode M> static __device__ __forceinline__ void cp_grid4(const cp_args &A) { cp_grid<4, M>(A); }
template <eng_mode M> static __device__ __forceinline__ void cp_vec2(const cp_args &A) { cp_onevec<2, M>(A); }
template <eng_mode M> static __device__ __forceinline__ void cp_vec4(const cp_args &A) { cp_onevec<4, M>(A); }
ENG_KERNELS(copy_grid_scalar, cp_grid1, cp_args)
ENG_KERNELS(copy_grid_vector2, cp_grid2, cp_args)
ENG_KERNELS(copy_grid_vector4, cp_grid4, cp_args)
ENG_KERNELS(copy_vector2, cp_vec2, cp_args)
ENG_KERNELS(copy_vector4, cp_vec4, cp_args)

/* ------------------------------------------------------------ inputs */

/* in[i]: never the poison (all ones), and the bit pattern of a finite
 * non-negative float, so the probes' FADD of +0.0 leaves it as it is */
static __host__ __device__ __forceinline__ int cp_value(uint64_t i) { return (int)(ro_mix64(i) & 0x3fffffffu); }

__global__ void cp_init_kernel(int *in, uint64_t n)
{
    for (uint64_t i = cp_tid(); i < n; i += (uint64_t)gridDim.x * blockDim.x) in[i] = cp_value(i);
}

/* ------------------------------------------------------------ the table */

static cli_list opt_strides = {{1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 128}, 12};
static cli_list opt_batches = {{1, 2, 4, 8}, 4};
static uint64_t opt_offset = 0;

static const cli_opt CP_OPTIONS[] = {
    {"--stride", 0, CLI_LIST, 1, 4096, 0, 0, &opt_strides, "LIST",
     "strides of the stride variants, e.g. 1-32,64,128 (default 1-8,16,32,64,128)", 0, 0},
    {"--batch", 0, CLI_LIST, 1, COPY_BATCH_MAX, 0, 0, &opt_batches, "LIST",
     "elements per thread of the batch variants: any of 1-16 (default 1,2,4,8);\n"
     "int4 runs the multiples of 4 among them (4, 8, 12, 16)", 0, 0},
    {"--offset", 0, CLI_U64, 0, 1024, 0, 0, &opt_offset, "E",
     "start both arrays E elements past their aligned base (default 0); the\n"
     "vector kernels refuse a base that is not aligned to their width", 0, 0},
    CLI_END,
};

#define CP_NAME(ID, NAME, ABOUT, CFG, CFGD, RULE, GEN, PARAM) {NAME, ABOUT},
#define CP_NAME_U(ID, NAME, ABOUT) {NAME, ABOUT},
static const eng_variant CP_VARIANTS[CP_NVARIANTS] = {COPY_VARIANTS(CP_NAME, CP_NAME_U)};
#undef CP_NAME
#undef CP_NAME_U

struct cp_state {
    int *in_base, *out_base;   /* allocations */
    int *in, *out;             /* offset by --offset */
    uint32_t *sink;
    int *h_out;
    uint64_t n;
};

static int cp_is_stride(int v) { return v == CP_STRIDE || v == CP_STRIDE_STORE || v == CP_STRIDE16; }
static int cp_is_batch(int v) { return v == CP_BATCH || v == CP_BATCH_UNROLLED || v == CP_BATCH_RESTRICT; }

/* The batches a variant runs: int4 only the multiples of 4. */
static int cp_batch_at(int v, int cfg)
{
    if (!cp_is_batch(v) && v != CP_INT4) return 0;
    int k = 0;
    for (size_t i = 0; i < opt_batches.n; i++) {
        if (!copy_batch_ok(v == CP_INT4, opt_batches.v[i])) continue;
        if (k++ == cfg) return (int)opt_batches.v[i];
    }
    return 0;
}

static int cp_configs(const eng_ctx *, int v)
{
    if (cp_is_stride(v)) return (int)opt_strides.n;
    if (cp_is_batch(v) || v == CP_INT4) {
        int k = 0;
        while (cp_batch_at(v, k)) k++;
        return k;
    }
    return 1;
}

#define CP_TRIO(NAME) {(const void *)NAME, (const void *)NAME##_probe, (const void *)NAME##_check}
#define CP_BATCH_TRIOS(P) \
    CP_TRIO(P##1), CP_TRIO(P##2), CP_TRIO(P##3), CP_TRIO(P##4), CP_TRIO(P##5), CP_TRIO(P##6),      \
    CP_TRIO(P##7), CP_TRIO(P##8), CP_TRIO(P##9), CP_TRIO(P##10), CP_TRIO(P##11), CP_TRIO(P##12),   \
    CP_TRIO(P##13), CP_TRIO(P##14), CP_TRIO(P##15), CP_TRIO(P##16)
/* indexed by B - 1 (unrolled, restrict) and B / 4 - 1 (int4) */
static const void *const CP_UNROLLED[COPY_BATCH_MAX][3] = {CP_BATCH_TRIOS(copy_batch_unrolled_b)};
static const void *const CP_RESTRICT[COPY_BATCH_MAX][3] = {CP_BATCH_TRIOS(copy_batch_restrict_b)};
static const void *const CP_INT4K[COPY_BATCH_MAX / 4][3] = {
    CP_TRIO(copy_int4_b4), CP_TRIO(copy_int4_b8), CP_TRIO(copy_int4_b12), CP_TRIO(copy_int4_b16)};
/* in the order of the enum; the batch, int4 and memcpy rows are unused */
static const void *const CP_SIMPLE[CP_NVARIANTS][3] = {
    CP_TRIO(copy_stride), CP_TRIO(copy_stride_store), CP_TRIO(copy_stride16), CP_TRIO(copy_batch),
    {0, 0, 0}, {0, 0, 0}, {0, 0, 0},
    CP_TRIO(copy_grid_scalar), CP_TRIO(copy_grid_vector2), CP_TRIO(copy_grid_vector4),
    CP_TRIO(copy_vector2), CP_TRIO(copy_vector4), {0, 0, 0},
};

static const void *cp_kernel(int v, int cfg, eng_mode m)
{
    const int B = cp_batch_at(v, cfg);   /* copy_batch_ok: 1..16, int4 a multiple of 4 */
    if (v == CP_BATCH_UNROLLED) return B ? CP_UNROLLED[B - 1][m] : NULL;
    if (v == CP_BATCH_RESTRICT) return B ? CP_RESTRICT[B - 1][m] : NULL;
    if (v == CP_INT4) return B ? CP_INT4K[B / 4 - 1][m] : NULL;
    if (v == CP_MEMCPY) return NULL;
    return CP_SIMPLE[v][m];
}

static int cp_geometry(const eng_ctx *c, int v, int cfg, eng_geom *g, char *err, size_t errlen)
{
    const uint64_t n = c->n;
    const uint64_t S = cp_is_stride(v) ? opt_strides.v[cfg] : 1;
    const int B = cp_batch_at(v, cfg);
    const int width = v == CP_STRIDE16 || v == CP_INT4 || v == CP_GRID_VECTOR4 || v == CP_VECTOR4 ? 4
                    : v == CP_GRID_VECTOR2 || v == CP_VECTOR2 ? 2 : 1;
    if (width > 1 && opt_offset % (uint64_t)width) {
        snprintf(err, errlen, "--offset %llu puts the arrays %llu bytes past a %d-byte boundary; "
                 "its %d-byte loads need aligned addresses (use a multiple of %d)",
                 (unsigned long long)opt_offset, (unsigned long long)(4 * (opt_offset % width)),
                 4 * width, 4 * width, width);
        return -1;
    }
    uint64_t items = 0;
    double rd = 0;
    switch (v) {
    case CP_STRIDE: case CP_STRIDE_STORE: items = n / S; rd = 4.0 * items; break;
    case CP_STRIDE16: items = (n / 4) / S; rd = 16.0 * items; break;
    case CP_BATCH: case CP_BATCH_UNROLLED: case CP_BATCH_RESTRICT: case CP_INT4:
        items = n / (uint64_t)B; rd = 4.0 * items * B; break;
    case CP_GRID_SCALAR: case CP_GRID_VECTOR2: case CP_GRID_VECTOR4: {
        /* SMs x resident blocks, or fewer when there are fewer vectors */
        const int bps = eng_resident_blocks(c, cp_kernel(v, cfg, ENG_CLEAN));
        const uint64_t grid = (uint64_t)bps * c->dev->sm_count * c->tpb;
        items = n / width < grid ? n / width : grid;
        rd = 4.0 * n;
        break;
    }
    case CP_VECTOR2: case CP_VECTOR4: items = n / width; rd = 4.0 * n; break;
    case CP_MEMCPY: items = n; rd = 4.0 * n; break;
    }
    if (items == 0) {
        snprintf(err, errlen, "N = %llu is too small for it", (unsigned long long)n);
        return -1;
    }
    /* items: the threads that record (the prefix of the grid that does the
     * main work); the one-vector kernels launch one more thread for the
     * remainder, which records nothing */
    g->items = items;
    const uint64_t launched = items + ((v == CP_VECTOR2 || v == CP_VECTOR4) && n % width ? 1 : 0);
    g->blocks = (launched + c->tpb - 1) / c->tpb;
    g->tail_idle = 1;
    g->elem_bytes = 4 * width;
    g->stride = (uint32_t)S;
    g->bytes_read = rd;
    g->bytes_written = rd;
    g->loads_per_warp = cp_is_batch(v) ? (uint32_t)B : v == CP_INT4 ? (uint32_t)B / 4 : 1;
    g->bytes_per_warp_load = 32u * 4 * (cp_is_batch(v) || v == CP_INT4 ? (uint32_t)B : (uint32_t)width);
    if (cp_is_stride(v)) {
        snprintf(g->config, sizeof g->config, "stride=%llu", (unsigned long long)S);
        snprintf(g->label, sizeof g->label, "s%llu", (unsigned long long)S);
    } else if (cp_is_batch(v) || v == CP_INT4) {
        snprintf(g->config, sizeof g->config, "batch=%d", B);
        snprintf(g->label, sizeof g->label, "b%d", B);
    }
    if (opt_offset) {
        size_t k = strlen(g->config);
        snprintf(g->config + k, sizeof g->config - k, "%soffset=%llu", k ? "," : "",
                 (unsigned long long)opt_offset);
    }
    g->record_covers = cp_is_batch(v) || v == CP_INT4
                           ? "clock before the first load to the use of the last (stores between)"
                           : v >= CP_GRID_SCALAR ? "the first grid-stride iteration's load to its use"
                                                 : "one load to its use";
    return 0;
}

static int cp_setup(eng_ctx *c)
{
    cp_state *s = (cp_state *)calloc(1, sizeof *s);
    if (!s) return (int)cudaErrorMemoryAllocation;
    c->state = s;
    s->n = c->n;
    const uint64_t total = c->n + opt_offset;
    ENG_TRY(cudaMalloc((void **)&s->in_base, total * sizeof(int)));
    ENG_TRY(cudaMalloc((void **)&s->out_base, total * sizeof(int)));
    ENG_TRY(cudaMalloc((void **)&s->sink, sizeof(uint32_t)));
    s->in = s->in_base + opt_offset;
    s->out = s->out_base + opt_offset;
    s->h_out = (int *)eng_host_alloc(c->n * sizeof(int));
    if (!s->h_out) return (int)cudaErrorMemoryAllocation;
    cp_init_kernel<<<4096, 256>>>(s->in, c->n);
    ENG_TRY(cudaGetLastError());
    return cudaDeviceSynchronize();
}

static int cp_launch(const eng_ctx *c, int v, int cfg, eng_mode m, const eng_launch *L)
{
    const cp_state *s = (const cp_state *)c->state;
    if (v == CP_MEMCPY)
        return cudaMemcpyAsync(s->out, s->in, c->n * sizeof(int), cudaMemcpyDeviceToDevice, L->stream);
    cp_args A;
    A.in = s->in;
    A.out = s->out;
    A.n = c->n;
    A.stride = cp_is_stride(v) ? opt_strides.v[cfg] : 1;
    A.batch = (uint32_t)cp_batch_at(v, cfg);
    const uint64_t S = A.stride;
    const int B = (int)A.batch;
    switch (v) {
    case CP_STRIDE: case CP_STRIDE_STORE: A.items = c->n / S; break;
    case CP_STRIDE16: A.items = (c->n / 4) / S; break;
    case CP_VECTOR2: A.items = c->n / 2 + c->n % 2; break;
    case CP_VECTOR4: A.items = c->n / 4 + (c->n % 4 ? 1 : 0); break;
    default: A.items = B ? c->n / (uint64_t)B : c->n; break;
    }
    A.E = eng_dev_args(L, 0xffffffffu, s->sink);
    const int *in = s->in;
    int *out = s->out;
    void *args[] = {&A, (void *)&in, (void *)&out};
    return cudaLaunchKernel(cp_kernel(v, cfg, m), dim3((unsigned)L->blocks), dim3(L->threads), args,
                            L->smem_bytes, L->stream);
}

static int cp_poison(const eng_ctx *c, int, int)
{
    const cp_state *s = (const cp_state *)c->state;
    return cudaMemset(s->out, 0xff, c->n * sizeof(int));
}

struct cp_ref {
    int v;
    uint64_t n, S, B;
    const int *got;
};

/* What out[i] must hold after variant v: in[src] or the poison (-1). */
static int cp_expected(const cp_ref *r, uint64_t i)
{
    switch (r->v) {
    case CP_STRIDE: return i < r->n / r->S ? cp_value(i * r->S) : -1;
    case CP_STRIDE_STORE: return i % r->S == 0 && i / r->S < r->n / r->S ? cp_value(i / r->S) : -1;
    case CP_STRIDE16: {
        const uint64_t v4 = i / 4, items = (r->n / 4) / r->S;
        return v4 < items ? cp_value(4 * (v4 * r->S) + i % 4) : -1;
    }
    case CP_BATCH: case CP_BATCH_UNROLLED: case CP_BATCH_RESTRICT: case CP_INT4:
        return i < r->n / r->B * r->B ? cp_value(i) : -1;
    default: return cp_value(i);
    }
}

static uint64_t cp_check_range(void *ctx, uint64_t lo, uint64_t hi, uint64_t *first)
{
    const cp_ref *r = (const cp_ref *)ctx;
    uint64_t bad = 0;
    for (uint64_t i = lo; i < hi; i++)
        if (r->got[i] != cp_expected(r, i)) {
            if (!bad) *first = i;
            bad++;
        }
    return bad;
}

static int cp_check(const eng_ctx *c, int v, int cfg, eng_check *out)
{
    const cp_state *s = (const cp_state *)c->state;
    ENG_TRY(cudaMemcpy(s->h_out, s->out, c->n * sizeof(int), cudaMemcpyDeviceToHost));
    cp_ref r = {v, c->n, cp_is_stride(v) ? opt_strides.v[cfg] : 1, (uint64_t)cp_batch_at(v, cfg), s->h_out};
    if (!r.B) r.B = 1;
    uint64_t first = 0;
    out->checked = c->n;
    out->bad = eng_parallel_check(c->n, cp_check_range, &r, &first);
    if (out->bad)
        snprintf(out->first, sizeof out->first, "out[%llu] = %d, the CPU %d", (unsigned long long)first,
                 s->h_out[first], cp_expected(&r, first));
    return 0;
}

static void cp_teardown(eng_ctx *c)
{
    cp_state *s = (cp_state *)c->state;
    if (!s) return;
    cudaFree(s->in_base);
    cudaFree(s->out_base);
    cudaFree(s->sink);
    eng_host_free(s->h_out);
    free(s);
    c->state = NULL;
}

static const char *const CP_POS[] = {"N", "SMEM", "WPB", NULL};
static const char *const CP_POSDEF[] = {"1e8", "0", "4", NULL};

extern "C" const eng_family eng_family_table = {
    .name = "copy",
    .about = "Data copies with LDG/STG (labs 000 and 004): what strides cost in sectors,\n"
             "requests and wavefronts for loads and stores, what unrolling, __restrict__ and\n"
             "16-byte accesses change, and how close a copy gets to cudaMemcpy.  Bandwidth\n"
             "counts bytes read plus bytes written.",
    .posnames = CP_POS,
    .posdefaults = CP_POSDEF,
    .variants = CP_VARIANTS,
    .nvariants = CP_NVARIANTS,
    .options = CP_OPTIONS,
    .configs = cp_configs,
    .geometry = cp_geometry,
    .kernel = cp_kernel,
    .setup = cp_setup,
    .launch = cp_launch,
    .poison = cp_poison,
    .check = cp_check,
    .teardown = cp_teardown,
};
