/*
 * tiling.cu - the tiling family: what shared-memory tiles do to global-load
 * latency and bandwidth in a matrix multiply (seed 002: DSIZE 8192, 32 x 32
 * blocks; the author measured 16.6 s naive against 3.5 s tiled).  The first
 * family whose kernels compute: where does the speed-up come from, in loads
 * in flight, latency and bytes moved?
 *
 * Run (with a GPU): make tiling && ./tiling 8192
 *   (DSIZE: the matrices are DSIZE x DSIZE; the defaults.  ./tiling --help: variants, options)
 *
 * C = A B, DSIZE x DSIZE floats, row-major; one thread per element of C, in
 * blocks of T x T threads (1-D launches: thread x = tid % T, y = tid / T, so a
 * warp covers 32/T consecutive rows of T columns, as the seed's 2-D blocks):
 *   naive        T = 32: temp += A[row*ds + i] * B[i*ds + col] for every i
 *                (the seed's first kernel)
 *   tiled8, tiled16, tiled32
 *                tiles of T x T in shared memory: each step loads one element
 *                of A and one of B per thread, __syncthreads, T multiply-adds
 *                from shared memory (the seed's second kernel, T = 32)
 *
 * Probes (one block in K records; several regions per warp): for the tiled
 * kernels every tile step, from the clock before its two global loads to
 * their use (the stores to shared memory); for the naive kernel one
 * iteration in 64 of its inner loop (regions 0, 1, ...: iterations 0, 64,
 * ...), so that the log stays small.  The sum over a warp's regions is how
 * long it waited for global data.
 *
 * Validation: at DSIZE <= 1024 random small-integer matrices against a CPU
 * multiply (exact in float: every product and sum is an integer < 2^24); at
 * any size the seed's constant matrices, A = 3 and B = 2, against the closed
 * form C = 6 DSIZE (--constant).  Work: 2 DSIZE^3 flops; the ideal traffic
 * reads A and B once and writes C once.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.cuh"
#include "patterns.h"

enum { TL_NAIVE, TL_T8, TL_T16, TL_T32, TL_NVARIANTS };
static const int TL_TILE[TL_NVARIANTS] = {32, 8, 16, 32};

#define TL_NAIVE_EVERY 64   /* the naive kernel records one iteration in 64 */

struct tl_args {
    const float *A, *B;
    float *C;
    uint32_t ds;
    uint32_t steps;     /* regions per warp */
    eng_dev E;
};

template <eng_mode M> static __device__ __forceinline__ void tl_naive_body(const tl_args &A)
{
    constexpr int T = 32;
    const uint32_t gx = A.ds / T;
    const uint32_t tx = threadIdx.x % T, ty = threadIdx.x / T;
    const uint32_t col = (blockIdx.x % gx) * T + tx, row = (blockIdx.x / gx) * T + ty;
    const float *a = A.A + (uint64_t)row * A.ds;
    const float *b = A.B + col;
    float temp = 0;
    ENG_IF_RECORDING(M, A.E) {
        for (uint32_t i0 = 0; i0 < A.ds; i0 += TL_NAIVE_EVERY) {
            const float *pa = eng_pin(a + i0), *pb = eng_pin(b + (uint64_t)i0 * A.ds);
            ENG_TIMED_BEGIN();
            const float x = pa[0], y = pb[0];
            temp = probe_use_f32(temp + x * y);
            ENG_TIMED_END();
            eng_record(A.E, eng_t0_, eng_t1_, eng_gt0_, eng_sm_, i0 / TL_NAIVE_EVERY, A.steps);
            for (uint32_t i = i0 + 1; i < i0 + TL_NAIVE_EVERY && i < A.ds; i++)
                temp += a[i] * b[(uint64_t)i * A.ds];
        }
        A.C[(uint64_t)row * A.ds + col] = temp;
        return;
    }
    for (uint32_t i = 0; i < A.ds; i++) temp += a[i] * b[(uint64_t)i * A.ds];
    A.C[(uint64_t)row * A.ds + col] = temp;
}

template <int T, eng_mode M> static __device__ __forceinline__ void tl_tiled_body(const tl_args &A)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    const uint32_t gx = A.ds / T;
    const uint32_t tx = threadIdx.x % T, ty = threadIdx.x / T;
    const uint32_t col = (blockIdx.x % gx) * T + tx, row = (blockIdx.x / gx) * T + ty;
    float temp = 0;
    const bool rec = M == ENG_PROBE && eng_records(A.E);
    for (uint32_t i = 0; i < A.ds / T; i++) {
        const float *pa = A.A + (uint64_t)row * A.ds + i * T + tx;
        const float *pb = A.B + (uint64_t)(i * T + ty) * A.ds + col;
        if (rec) {
            pa = eng_pin(pa);
            pb = eng_pin(pb);
            ENG_TIMED_BEGIN();
            const float x = *pa, y = *pb;
            As[ty][tx] = x;   /* the stores to shared memory are the loads' first use */
            Bs[ty][tx] = y;
            ENG_TIMED_END();
            eng_record(A.E, eng_t0_, eng_t1_, eng_gt0_, eng_sm_, i, A.steps);
        } else {
            As[ty][tx] = *pa;
            Bs[ty][tx] = *pb;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++) temp += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    A.C[(uint64_t)row * A.ds + col] = temp;
}

template <eng_mode M> static __device__ __forceinline__ void tl_t8(const tl_args &A) { tl_tiled_body<8, M>(A); }
template <eng_mode M> static __device__ __forceinline__ void tl_t16(const tl_args &A) { tl_tiled_body<16, M>(A); }
template <eng_mode M> static __device__ __forceinline__ void tl_t32(const tl_args &A) { tl_tiled_body<32, M>(A); }
ENG_KERNELS(tiling_naive, tl_naive_body, tl_args)
ENG_KERNELS(tiling_tiled8, tl_t8, tl_args)
ENG_KERNELS(tiling_tiled16, tl_t16, tl_args)
ENG_KERNELS(tiling_tiled32, tl_t32, tl_args)

static const void *const TL_KERNELS[TL_NVARIANTS][3] = {
    ENG_KERNEL_TRIO(tiling_naive), ENG_KERNEL_TRIO(tiling_tiled8), ENG_KERNEL_TRIO(tiling_tiled16),
    ENG_KERNEL_TRIO(tiling_tiled32),
};

/* Random small integers (exact products and sums), or the seed's constants. */
static __host__ __device__ __forceinline__ float tl_a(uint64_t i, int constant)
{
    return constant ? 3.0f : (float)(ro_mix64(i) & 7);
}
static __host__ __device__ __forceinline__ float tl_b(uint64_t i, int constant)
{
    return constant ? 2.0f : (float)(ro_mix64(i ^ 0x5bd1e995ull) & 7);
}

__global__ void tl_init_kernel(float *A, float *B, uint64_t n, int constant)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        A[i] = tl_a(i, constant);
        B[i] = tl_b(i, constant);
    }
}

/* ------------------------------------------------------------ the table */

static int opt_constant;

static const cli_opt TL_OPTIONS[] = {
    {"--constant", 0, CLI_FLAG, 0, 0, 0, 0, &opt_constant, 0,
     "the seed's matrices, A = 3 and B = 2, checked against C = 6 DSIZE (the\n"
     "default above DSIZE 1024, where the CPU cannot multiply)", 0, 0},
    CLI_END,
};

struct tl_state {
    float *A, *B, *C;
    float *hA, *hB, *hC;
    uint32_t ds;
    int constant;
};

static int tl_geometry(const eng_ctx *c, int v, int, eng_geom *g, char *err, size_t errlen)
{
    const uint64_t ds = c->pos[0];
    const int T = TL_TILE[v];
    if (ds % 32 || ds > 32768) {
        snprintf(err, errlen, "DSIZE must be a multiple of 32, at most 32768 (got %llu)", (unsigned long long)ds);
        return -1;
    }
    g->wpb = (uint32_t)(T * T / 32);
    g->blocks = (ds / T) * (ds / T);
    g->items = ds * ds;
    g->elem_bytes = 4;
    g->loads_per_warp = 2;
    g->bytes_per_warp_load = 2 * 128;
    g->records_per_warp = v == TL_NAIVE ? (uint32_t)((ds + TL_NAIVE_EVERY - 1) / TL_NAIVE_EVERY)
                                        : (uint32_t)(ds / T);
    g->bytes_read = 2.0 * 4.0 * (double)ds * ds;
    g->bytes_written = 4.0 * (double)ds * ds;
    g->flops = 2.0 * (double)ds * ds * ds;
    snprintf(g->config, sizeof g->config, "dsize=%llu,tile=%d", (unsigned long long)ds, T);
    g->record_covers = v == TL_NAIVE ? "one inner-loop iteration in 64: the loads of A and B to their FMA"
                                     : "one tile step: the loads of A and B to their stores to shared memory";
    return 0;
}

static const void *tl_kernel(int v, int, eng_mode m) { return TL_KERNELS[v][m]; }

static int tl_setup(eng_ctx *c)
{
    tl_state *s = (tl_state *)calloc(1, sizeof *s);
    if (!s) return (int)cudaErrorMemoryAllocation;
    c->state = s;
    s->ds = (uint32_t)c->pos[0];
    s->constant = opt_constant || s->ds > 1024;
    const uint64_t n = (uint64_t)s->ds * s->ds;
    ENG_TRY(cudaMalloc((void **)&s->A, n * sizeof(float)));
    ENG_TRY(cudaMalloc((void **)&s->B, n * sizeof(float)));
    ENG_TRY(cudaMalloc((void **)&s->C, n * sizeof(float)));
    s->hC = (float *)malloc(n * sizeof(float));
    if (!s->hC) return (int)cudaErrorMemoryAllocation;
    if (!s->constant) {
        s->hA = (float *)malloc(n * sizeof(float));
        s->hB = (float *)malloc(n * sizeof(float));
        if (!s->hA || !s->hB) return (int)cudaErrorMemoryAllocation;
        for (uint64_t i = 0; i < n; i++) s->hA[i] = tl_a(i, 0), s->hB[i] = tl_b(i, 0);
    }
    tl_init_kernel<<<4096, 256>>>(s->A, s->B, n, s->constant);
    ENG_TRY(cudaGetLastError());
    return cudaDeviceSynchronize();
}

static int tl_launch(const eng_ctx *c, int v, int, eng_mode m, const eng_launch *L)
{
    const tl_state *s = (const tl_state *)c->state;
    tl_args A;
    A.A = s->A;
    A.B = s->B;
    A.C = s->C;
    A.ds = s->ds;
    A.steps = v == TL_NAIVE ? (s->ds + TL_NAIVE_EVERY - 1) / TL_NAIVE_EVERY : s->ds / TL_TILE[v];
    A.E = eng_dev_args(L, 0xffffffffu, NULL);
    void *args[] = {&A};
    return cudaLaunchKernel(TL_KERNELS[v][m], dim3((unsigned)L->blocks), dim3(L->threads), args,
                            L->smem_bytes, L->stream);
}

static int tl_poison(const eng_ctx *c, int, int)
{
    const tl_state *s = (const tl_state *)c->state;
    return cudaMemset(s->C, 0xff, (uint64_t)s->ds * s->ds * sizeof(float));
}

struct tl_ref {
    const tl_state *s;
};

static uint64_t tl_check_rows(void *ctx, uint64_t lo, uint64_t hi, uint64_t *first)
{
    const tl_state *s = ((const tl_ref *)ctx)->s;
    const uint64_t ds = s->ds;
    uint64_t bad = 0;
    float *row = s->constant ? NULL : (float *)malloc(ds * sizeof(float));
    for (uint64_t r = lo; r < hi; r++) {
        if (s->constant) {
            const float want = 6.0f * (float)ds;
            for (uint64_t c = 0; c < ds; c++)
                if (s->hC[r * ds + c] != want) {
                    if (!bad) *first = r * ds + c;
                    bad++;
                }
            continue;
        }
        for (uint64_t c = 0; c < ds; c++) row[c] = 0;
        for (uint64_t i = 0; i < ds; i++) {
            const float a = s->hA[r * ds + i];
            const float *b = s->hB + i * ds;
            for (uint64_t c = 0; c < ds; c++) row[c] += a * b[c];
        }
        for (uint64_t c = 0; c < ds; c++)
            if (s->hC[r * ds + c] != row[c]) {
                if (!bad) *first = r * ds + c;
                bad++;
            }
    }
    free(row);
    return bad;
}

static int tl_check(const eng_ctx *c, int, int, eng_check *out)
{
    const tl_state *s = (const tl_state *)c->state;
    const uint64_t n = (uint64_t)s->ds * s->ds;
    ENG_TRY(cudaMemcpy(s->hC, s->C, n * sizeof(float), cudaMemcpyDeviceToHost));
    tl_ref r = {s};
    uint64_t first = 0;
    out->checked = n;
    out->bad = eng_parallel_check(s->ds, tl_check_rows, &r, &first);
    if (out->bad)
        snprintf(out->first, sizeof out->first, "C[%llu][%llu] = %g%s", (unsigned long long)(first / s->ds),
                 (unsigned long long)(first % s->ds), (double)s->hC[first],
                 s->constant ? " where 6 DSIZE is expected" : "");
    return 0;
}

static void tl_teardown(eng_ctx *c)
{
    tl_state *s = (tl_state *)c->state;
    if (!s) return;
    cudaFree(s->A);
    cudaFree(s->B);
    cudaFree(s->C);
    free(s->hA);
    free(s->hB);
    free(s->hC);
    free(s);
    c->state = NULL;
}

static const char *const TL_POS[] = {"DSIZE", NULL};
static const char *const TL_POSDEF[] = {"8192", NULL};

static const eng_variant TL_VARIANTS[TL_NVARIANTS] = {
    {"naive", "C = A B, one thread per element, A and B from global memory (32 x 32 blocks)"},
    {"tiled8", "8 x 8 tiles of A and B in shared memory"},
    {"tiled16", "16 x 16 tiles in shared memory"},
    {"tiled32", "32 x 32 tiles in shared memory (the seed's kernel)"},
};

extern "C" const eng_family eng_family_table = {
    .name = "tiling",
    .about = "Matrix multiply, naive against shared-memory tiles (seed 002): time, GFLOP/s,\n"
             "how long warps wait for global data at each tile step, and (with Nsight\n"
             "Compute) the bytes moved against the ideal 2 x DSIZE^2 x 4 B read once.\n"
             "Each variant fixes its own block (T x T threads); WPB does not apply.",
    .posnames = TL_POS,
    .posdefaults = TL_POSDEF,
    .variants = TL_VARIANTS,
    .nvariants = TL_NVARIANTS,
    .options = TL_OPTIONS,
    .geometry = tl_geometry,
    .kernel = tl_kernel,
    .setup = tl_setup,
    .launch = tl_launch,
    .poison = tl_poison,
    .check = tl_check,
    .teardown = tl_teardown,
    .size_pos = 1u,   /* DSIZE is the size (the summary's n) */
};
