/*
 * kernels.cuh - the ceiling family's kernels (ceiling.cu is the family):
 * one template body per operation, width, unroll and hint.  Each operation
 * and width is instantiated in a file of its own (k_read_w1.cu ...
 * k_dot_w4.cu, 15 files), so that nvcc compiles them in parallel: in one
 * file, their 450 kernels took 22 s, the longest step of the build; in a
 * file per operation 10 to 12 s each.  Each file exports its table of
 * kernels, [hint][unroll][mode: clean, check].
 */
#ifndef CEILING_KERNELS_CUH
#define CEILING_KERNELS_CUH

#include "engine.cuh"

enum { CE_READ, CE_WRITE, CE_COPY, CE_TRIAD, CE_DOT, CE_MEMCPY, CE_NVARIANTS };
#define CE_S 3.0f

struct ce_args {
    float *a;
    const float *b, *c;
    uint64_t n;
    float *partial;     /* CHECK of read and dot: one sum per thread */
    eng_dev E;
};

template <int W> struct ce_vec;
template <> struct ce_vec<1> { typedef float T; };
template <> struct ce_vec<2> { typedef float2 T; };
template <> struct ce_vec<4> { typedef float4 T; };

/* Hints: 0 plain; 1 streaming (ld/st.global.cs: evict first); 2 read-only
 * path with a 256-byte L2 prefetch (ld.global.nc.L2::256B), stores plain. */
template <int H> static __device__ __forceinline__ float ce_ld(const float *p)
{
    if (H == 0) return *p;
    float v;
    if (H == 1) asm volatile("ld.global.cs.f32 %0, [%1];" : "=f"(v) : "l"(p));
    else asm volatile("ld.global.nc.L2::256B.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}
template <int H> static __device__ __forceinline__ float2 ce_ld(const float2 *p)
{
    if (H == 0) return *p;
    float2 v;
    if (H == 1) asm volatile("ld.global.cs.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "l"(p));
    else asm volatile("ld.global.nc.L2::256B.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "l"(p));
    return v;
}
template <int H> static __device__ __forceinline__ float4 ce_ld(const float4 *p)
{
    if (H == 0) return *p;
    float4 v;
    if (H == 1)
        asm volatile("ld.global.cs.v4.f32 {%0, %1, %2, %3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    else
        asm volatile("ld.global.nc.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}
template <int CS> static __device__ __forceinline__ void ce_st(float *p, float v)
{
    if (CS != 1) { *p = v; return; }
    asm volatile("st.global.cs.f32 [%0], %1;" : : "l"(p), "f"(v) : "memory");
}
template <int CS> static __device__ __forceinline__ void ce_st(float2 *p, float2 v)
{
    if (CS != 1) { *p = v; return; }
    asm volatile("st.global.cs.v2.f32 [%0], {%1, %2};" : : "l"(p), "f"(v.x), "f"(v.y) : "memory");
}
template <int CS> static __device__ __forceinline__ void ce_st(float4 *p, float4 v)
{
    if (CS != 1) { *p = v; return; }
    asm volatile("st.global.cs.v4.f32 [%0], {%1, %2, %3, %4};"
                 : : "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
}

static __device__ __forceinline__ float ce_sum(float v) { return v; }
static __device__ __forceinline__ float ce_sum(float2 v) { return v.x + v.y; }
static __device__ __forceinline__ float ce_sum(float4 v) { return (v.x + v.y) + (v.z + v.w); }
static __device__ __forceinline__ float ce_dot(float x, float y) { return x * y; }
static __device__ __forceinline__ float ce_dot(float2 x, float2 y) { return x.x * y.x + x.y * y.y; }
static __device__ __forceinline__ float ce_dot(float4 x, float4 y)
{
    return (x.x * y.x + x.y * y.y) + (x.z * y.z + x.w * y.w);
}
static __device__ __forceinline__ float ce_triad(float x, float y) { return x + CE_S * y; }
static __device__ __forceinline__ float2 ce_triad(float2 x, float2 y) { return make_float2(x.x + CE_S * y.x, x.y + CE_S * y.y); }
static __device__ __forceinline__ float4 ce_triad(float4 x, float4 y)
{
    return make_float4(x.x + CE_S * y.x, x.y + CE_S * y.y, x.z + CE_S * y.z, x.w + CE_S * y.w);
}
template <typename V> static __device__ __forceinline__ V ce_splat(float s);
template <> __device__ __forceinline__ float ce_splat<float>(float s) { return s; }
template <> __device__ __forceinline__ float2 ce_splat<float2>(float s) { return make_float2(s, s); }
template <> __device__ __forceinline__ float4 ce_splat<float4>(float s) { return make_float4(s, s, s, s); }

/* One operation, W floats per access, U accesses in flight per thread. */
template <int OP, int W, int U, int CS, eng_mode M>
static __device__ __forceinline__ void ce_body(const ce_args &A)
{
    typedef typename ce_vec<W>::T V;
    const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t nv = A.n / W;
    const V *b = reinterpret_cast<const V *>(A.b);
    const V *c = reinterpret_cast<const V *>(A.c);
    V *a = reinterpret_cast<V *>(A.a);
    float acc = 0;
    uint64_t i = t;
    for (; i + (uint64_t)(U - 1) * T < nv; i += (uint64_t)U * T) {
        V x[U], y[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            if (OP != CE_WRITE) x[u] = ce_ld<CS>(b + i + u * T);
            if (OP == CE_TRIAD || OP == CE_DOT) y[u] = ce_ld<CS>(c + i + u * T);
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            if (OP == CE_READ) acc += ce_sum(x[u]);
            if (OP == CE_DOT) acc += ce_dot(x[u], y[u]);
            if (OP == CE_WRITE) ce_st<CS>(a + i + u * T, ce_splat<V>(CE_S));
            if (OP == CE_COPY) ce_st<CS>(a + i + u * T, x[u]);
            if (OP == CE_TRIAD) ce_st<CS>(a + i + u * T, ce_triad(x[u], y[u]));
        }
    }
    for (; i < nv; i += T) {   /* the rest of the vectors, one at a time */
        V x = ce_splat<V>(0), y = ce_splat<V>(0);
        if (OP != CE_WRITE) x = ce_ld<CS>(b + i);
        if (OP == CE_TRIAD || OP == CE_DOT) y = ce_ld<CS>(c + i);
        if (OP == CE_READ) acc += ce_sum(x);
        if (OP == CE_DOT) acc += ce_dot(x, y);
        if (OP == CE_WRITE) ce_st<CS>(a + i, ce_splat<V>(CE_S));
        if (OP == CE_COPY) ce_st<CS>(a + i, x);
        if (OP == CE_TRIAD) ce_st<CS>(a + i, ce_triad(x, y));
    }
    const uint64_t rest = A.n - nv * W;   /* N mod W floats, by the first threads */
    if (t < rest) {
        const uint64_t k = nv * W + t;
        if (OP == CE_READ) acc += A.b[k];
        if (OP == CE_DOT) acc += A.b[k] * A.c[k];
        if (OP == CE_WRITE) A.a[k] = CE_S;
        if (OP == CE_COPY) A.a[k] = A.b[k];
        if (OP == CE_TRIAD) A.a[k] = A.b[k] + CE_S * A.c[k];
    }
    if (OP == CE_READ || OP == CE_DOT) {
        if (M == ENG_CHECK) A.partial[t] = acc;
        else eng_consume(A.E, __float_as_uint(acc));
    }
}

#define CE_K(OPN, OP, W, U, CS)                                                              \
    template <eng_mode M> static __device__ __forceinline__ void ce_##OPN##_w##W##_u##U##_h##CS(const ce_args &A) \
    { ce_body<OP, W, U, CS, M>(A); }                                                         \
    ENG_KERNELS_NOPROBE(ceiling_##OPN##_w##W##_u##U##_h##CS, ce_##OPN##_w##W##_u##U##_h##CS, ce_args)
#define CE_KU(OPN, OP, W, CS) CE_K(OPN, OP, W, 1, CS) CE_K(OPN, OP, W, 2, CS) CE_K(OPN, OP, W, 4, CS) \
    CE_K(OPN, OP, W, 8, CS) CE_K(OPN, OP, W, 16, CS)
/* one width of an operation: every hint and unroll */
#define CE_OPW(OPN, OP, W) CE_KU(OPN, OP, W, 0) CE_KU(OPN, OP, W, 1) CE_KU(OPN, OP, W, 2)

/* [hint][unroll index][mode: clean, check] of one operation and width */
#define CE_P(OPN, W, U, CS) {(const void *)ceiling_##OPN##_w##W##_u##U##_h##CS, \
                            (const void *)ceiling_##OPN##_w##W##_u##U##_h##CS##_check}
#define CE_PU(OPN, W, CS) {CE_P(OPN, W, 1, CS), CE_P(OPN, W, 2, CS), CE_P(OPN, W, 4, CS), \
                           CE_P(OPN, W, 8, CS), CE_P(OPN, W, 16, CS)}
#define CE_PH(OPN, W) {CE_PU(OPN, W, 0), CE_PU(OPN, W, 1), CE_PU(OPN, W, 2)}

typedef const void *const ce_table[3][5][2];
/* one operation's kernels of one width, defined in k_OPN_wW.cu: each file
 * is one nvcc job (a file per operation took 10 to 12 s, the build's
 * longest; the build runs them on every core) */
#define CE_TABLE(OPN, W) extern "C" ce_table ce_kernels_##OPN##_w##W
#define CE_TABLES(OPN) CE_TABLE(OPN, 1); CE_TABLE(OPN, 2); CE_TABLE(OPN, 4)
CE_TABLES(read);
CE_TABLES(write);
CE_TABLES(copy);
CE_TABLES(triad);
CE_TABLES(dot);

#endif
