/*
 * stencil.cu - the stencil family: finite-difference derivatives, lead
 * padding, a padded leading dimension and the L1 hit rate (seed lab 000,
 * part 3).  Why does a stencil that starts one RADIUS into a padded array load
 * a fifth sector per warp, what do lead padding (the first updated element
 * on a 128-byte line) and a leading dimension padded to 128 bytes buy, and
 * how often do the halo loads hit in L1?
 *
 * Run (with a GPU): make stencil && ./stencil 1024 97656 0 4
 *   (N0 x N1 floats, SMEM bytes, warps per block; the defaults.  ./stencil --help: variants, options)
 *
 * Layout (in and out alike): leading dimension ld = N0 + 2R, rounded up to a
 * multiple of 32 floats with --pad-leading-dim; H halo rows (R for deriv1, 0
 * for the others); element (i0, i1), halos included, at
 *     lead + (i1 + H) * ld + (i0 + R)
 * where lead = 0, or with --lead-pad the smallest lead that puts element
 * (0, 0) at a multiple of 32 floats.  One thread per element: t = i1*N0 + i0.
 *
 * Variants (three kernels each, engine.cuh):
 *   deriv_copy    out[idx] = in[idx]: the stencil's copy without arithmetic
 *   deriv0        staggered first derivative along i0 (contiguous):
 *                 sum_{k=1..R} c_k (in[idx+k-1] - in[idx-k]); loads in the
 *                 order in[idx], in[idx-1], in[idx+1], in[idx-2], ... (for R = 1,
 *                 lab 000's "second LDG with an index shift of -1")
 *   deriv1        the same along i1 (stride ld)
 *   deriv0_halo   deriv0 with R = 1 whose probe times the halo load in[idx-1]
 *                 alone, issued after in[idx] has arrived: where the model
 *                 predicts an L1 hit, the record shows L1 latency
 * --all-layouts runs every variant in the four layouts (lead pad off/on x
 * leading-dimension padding off/on).
 *
 * Coefficients: the staggered-grid ones of order 2R (R = 1: 1; R = 2: 9/8,
 * -1/24; ...).  Validation: every output element against a CPU reference in
 * double, relative error below 1e-5; unwritten elements (halos, padding)
 * must still hold the poison.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.cuh"
#include "patterns.h"

#include "variants.h"   /* the one list of variants (ST_*), shared with the sector model */

#define ST_MAX_R 4
static const double ST_COEF[ST_MAX_R + 1][ST_MAX_R] = {
    {0, 0, 0, 0},
    {1.0, 0, 0, 0},
    {9.0 / 8, -1.0 / 24, 0, 0},
    {75.0 / 64, -25.0 / 384, 3.0 / 640, 0},
    {1225.0 / 1024, -245.0 / 3072, 49.0 / 5120, -5.0 / 7168},
};

struct st_args {
    const float *in;
    float *out;
    uint64_t n0, n1, items;
    uint64_t ld, lead;
    uint32_t R, H;
    float c[ST_MAX_R];
    eng_dev E;
};

/* A load that keeps its place: volatile asms are issued in program order, so
 * the stencil's loads reach L1 in the order the model (and lab 000) assume:
 * in[idx], in[idx-1], in[idx+1], in[idx-2], ...  (plain C++ loads of
 * different addresses may be reordered by ptxas, and were for R >= 2). */
static __device__ __forceinline__ float st_ld(const float *p)
{
    float v;
    asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

static __device__ __forceinline__ uint64_t st_tid(void)
{
    return (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
}

static __host__ __device__ __forceinline__ uint64_t st_index(uint64_t i0, uint64_t i1, uint64_t ld,
                                                             uint64_t lead, uint32_t R, uint32_t H)
{
    return lead + (i1 + H) * ld + (i0 + R);
}

/* Thread t's element: false for a thread past the last. */
static __device__ __forceinline__ bool st_item(const st_args &A, uint64_t *idx)
{
    const uint64_t t = st_tid();
    if (t >= A.items) return false;
    *idx = st_index(t % A.n0, t / A.n0, A.ld, A.lead, A.R, A.H);
    return true;
}

/* The sum of the R weighted differences along `step` around p. */
static __device__ __forceinline__ float st_deriv_sum(const st_args &A, const float *p, int64_t step)
{
    float d = 0;
#pragma unroll
    for (int k = 1; k <= ST_MAX_R; k++)
        if (k <= (int)A.R) {
            const float hi = st_ld(p + (k - 1) * step);
            const float lo = st_ld(p - k * step);
            d += A.c[k - 1] * (hi - lo);
        }
    return d;
}

template <eng_mode M> static __device__ __forceinline__ void st_copy_body(const st_args &A)
{
    uint64_t idx;
    if (!st_item(A, &idx)) return;
    const float *p = eng_pin(A.in + idx);
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        float v = st_ld(p);
        v = probe_use_f32(v);
        ENG_TIMED_END();
        A.out[idx] = v;
        ENG_RECORD(A.E);
        return;
    }
    A.out[idx] = st_ld(p);
}

/* The derivative along a direction of step `step` (1 or ld). */
template <int DIR, eng_mode M> static __device__ __forceinline__ void st_deriv_body(const st_args &A)
{
    uint64_t idx;
    if (!st_item(A, &idx)) return;
    const int64_t step = DIR == 0 ? 1 : (int64_t)A.ld;
    const float *p = eng_pin(A.in + idx);
    ENG_IF_RECORDING(M, A.E) {
        ENG_TIMED_BEGIN();
        float d = st_deriv_sum(A, p, step);
        d = probe_use_f32(d);
        ENG_TIMED_END();
        A.out[idx] = d;
        ENG_RECORD(A.E);
        return;
    }
    A.out[idx] = st_deriv_sum(A, p, step);
}

/* R = 1 along i0; the probe times in[idx-1] alone, after in[idx] arrived. */
template <eng_mode M> static __device__ __forceinline__ void st_halo_body(const st_args &A)
{
    uint64_t idx;
    if (!st_item(A, &idx)) return;
    const float *p = eng_pin(A.in + idx);
    ENG_IF_RECORDING(M, A.E) {
        float centre = probe_use_f32(st_ld(p));   /* the centre has arrived: its use waits */
        const float *h = eng_pin(p - 1);
        ENG_TIMED_BEGIN();
        float halo = st_ld(h);
        halo = probe_use_f32(halo);
        ENG_TIMED_END();
        A.out[idx] = A.c[0] * (centre - halo);
        ENG_RECORD(A.E);
        return;
    }
    const float centre = st_ld(p);
    A.out[idx] = A.c[0] * (centre - st_ld(p - 1));
}

template <eng_mode M> static __device__ __forceinline__ void st_d0(const st_args &A) { st_deriv_body<0, M>(A); }
template <eng_mode M> static __device__ __forceinline__ void st_d1(const st_args &A) { st_deriv_body<1, M>(A); }
ENG_KERNELS(stencil_deriv_copy, st_copy_body, st_args)
ENG_KERNELS(stencil_deriv0, st_d0, st_args)
ENG_KERNELS(stencil_deriv1, st_d1, st_args)
ENG_KERNELS(stencil_deriv0_halo, st_halo_body, st_args)

static const void *const ST_KERNELS[ST_NVARIANTS][3] = {
    ENG_KERNEL_TRIO(stencil_deriv_copy), ENG_KERNEL_TRIO(stencil_deriv0),
    ENG_KERNEL_TRIO(stencil_deriv1), ENG_KERNEL_TRIO(stencil_deriv0_halo),
};

static __host__ __device__ __forceinline__ float st_value(uint64_t i) { return ro_value(i); }

__global__ void st_init_kernel(float *a, uint64_t n)
{
    for (uint64_t i = st_tid(); i < n; i += (uint64_t)gridDim.x * blockDim.x) a[i] = st_value(i);
}

/* ------------------------------------------------------------ layouts */

static uint64_t opt_radius = 1;
static int opt_lead_pad, opt_pad_ld, opt_all_layouts;

static const cli_opt ST_OPTIONS[] = {
    {"--radius", 0, CLI_U64, 1, ST_MAX_R, 0, 0, &opt_radius, "R",
     "half width of the stencil, 1..4 (default 1; deriv0_halo is always 1)", 0, 0},
    {"--lead-pad", 0, CLI_FLAG, 0, 0, 0, 0, &opt_lead_pad, 0,
     "pad the arrays' start so that element (0,0) begins a 128-byte line", 0, 0},
    {"--pad-leading-dim", 0, CLI_FLAG, 0, 0, 0, 0, &opt_pad_ld, 0,
     "pad the leading dimension to a multiple of 32 floats (128 bytes)", 0, 0},
    {"--all-layouts", 0, CLI_FLAG, 0, 0, 0, 0, &opt_all_layouts, 0,
     "run each variant in the four layouts (lead pad, leading-dimension pad)", 0, 0},
    CLI_END,
};

typedef stencil_layout st_layout;

static st_layout st_layout_of(const eng_ctx *c, int v, int cfg)
{
    return stencil_layout_of(v, c->pos[0], c->pos[1], (unsigned)opt_radius,
                             opt_all_layouts ? cfg & 1 : opt_lead_pad,
                             opt_all_layouts ? (cfg >> 1) & 1 : opt_pad_ld);
}

static int st_configs(const eng_ctx *, int) { return opt_all_layouts ? 4 : 1; }

static const void *st_kernel(int v, int, eng_mode m) { return ST_KERNELS[v][m]; }

static int st_geometry(const eng_ctx *c, int v, int cfg, eng_geom *g, char *err, size_t errlen)
{
    const st_layout L = st_layout_of(c, v, cfg);
    if (L.n0 * L.n1 > (1ull << 34)) {
        snprintf(err, errlen, "N0 x N1 = %llu is too large", (unsigned long long)(L.n0 * L.n1));
        return -1;
    }
    const uint32_t loads = v == ST_COPY ? 1 : v == ST_DERIV0_HALO ? 2 : 2 * L.R;
    g->items = L.n0 * L.n1;
    g->blocks = (g->items + c->tpb - 1) / c->tpb;
    g->tail_idle = 1;
    g->elem_bytes = 4;
    g->loads_per_warp = v == ST_DERIV0_HALO ? 1 : loads;
    g->bytes_per_warp_load = 128 * g->loads_per_warp;
    g->stride = 1;
    /* useful bytes: each input element read once, each output written once */
    g->bytes_read = 4.0 * (double)g->items;
    g->bytes_written = 4.0 * (double)g->items;
    snprintf(g->config, sizeof g->config, "%llux%llu,R=%u,lead=%d,padld=%d", (unsigned long long)L.n0,
             (unsigned long long)L.n1, L.R, L.lead_pad, L.pad_ld);
    if (opt_all_layouts) snprintf(g->label, sizeof g->label, "l%dp%d", L.lead_pad, L.pad_ld);
    g->record_covers = v == ST_DERIV0_HALO ? "the halo load in[idx-1], after in[idx] arrived, to its use"
                     : v == ST_COPY ? "one load to its use"
                                    : "every load of the stencil to the use of their sum";
    return 0;
}

struct st_state {
    float *in, *out;
    uint32_t *sink;
    uint64_t cap;     /* floats allocated */
};

static int st_setup(eng_ctx *c)
{
    st_state *s = (st_state *)calloc(1, sizeof *s);
    if (!s) return (int)cudaErrorMemoryAllocation;
    c->state = s;
    for (int v = 0; v < ST_NVARIANTS; v++)
        for (int cfg = 0; cfg < st_configs(c, v); cfg++) {
            const st_layout L = st_layout_of(c, v, cfg);
            if (L.size > s->cap) s->cap = L.size;
        }
    ENG_TRY(cudaMalloc((void **)&s->in, s->cap * sizeof(float)));
    ENG_TRY(cudaMalloc((void **)&s->out, s->cap * sizeof(float)));
    ENG_TRY(cudaMalloc((void **)&s->sink, sizeof(uint32_t)));
    st_init_kernel<<<4096, 256>>>(s->in, s->cap);
    ENG_TRY(cudaGetLastError());
    return cudaDeviceSynchronize();
}

static int st_launch(const eng_ctx *c, int v, int cfg, eng_mode m, const eng_launch *Lz)
{
    const st_state *s = (const st_state *)c->state;
    const st_layout L = st_layout_of(c, v, cfg);
    st_args A;
    A.in = s->in;
    A.out = s->out;
    A.n0 = L.n0;
    A.n1 = L.n1;
    A.items = L.n0 * L.n1;
    A.ld = L.ld;
    A.lead = L.lead;
    A.R = L.R;
    A.H = L.H;
    for (int k = 0; k < ST_MAX_R; k++) A.c[k] = (float)ST_COEF[L.R][k];
    A.E = eng_dev_args(Lz, 0xffffffffu, s->sink);
    void *args[] = {&A};
    return cudaLaunchKernel(ST_KERNELS[v][m], dim3((unsigned)Lz->blocks), dim3(Lz->threads), args,
                            Lz->smem_bytes, Lz->stream);
}

static int st_poison(const eng_ctx *c, int, int)
{
    const st_state *s = (const st_state *)c->state;
    return cudaMemset(s->out, 0xff, s->cap * sizeof(float));
}

/* The CPU's reference.  Its inputs st_value(i) are a host table for the
 * process, filled once on every core and grown when a line's array is
 * larger: the size sweep of the full main job validates 108 configurations
 * of 1e8 elements, and hashing each check's 2R inputs an element again was
 * 12.7 s of its 16 s on the H200 (filling the table on one core, 0.45 s,
 * cost more than one check).  Without room for it the inputs are hashed as
 * before.  The outputs come back in chunks (eng_check_device). */
static float *st_table;
static uint64_t st_table_n;

/* t[i] = st_value(i) for i in [lo, hi) of the part being filled */
static uint64_t st_fill_range(void *ctx, uint64_t lo, uint64_t hi, uint64_t *)
{
    float *t = (float *)ctx;
    for (uint64_t i = st_table_n + lo; i < st_table_n + hi; i++) t[i] = st_value(i);
    return 0;
}

/* the table of st_value(i), i < n, or NULL */
static const float *st_inputs(uint64_t n)
{
    if (st_table_n >= n) return st_table;
    if (!eng_host_room((n - st_table_n) * sizeof(float))) return NULL;
    float *t = (float *)realloc(st_table, n * sizeof(float));
    if (!t) return NULL;   /* the old, smaller table stays for smaller lines */
    uint64_t unused;
    eng_parallel_check(n - st_table_n, st_fill_range, t, &unused);   /* the new part, on every core */
    st_table = t;
    st_table_n = n;
    return t;
}

struct st_ref {
    int v;
    st_layout L;
    const float *got;   /* indexed by the array index */
    const float *in;    /* st_inputs, or NULL: st_value */
    uint64_t nin;       /* its length */
};

/* input i: the table's, or hashed (past the table too: the reference never
 * reads out of it) */
static inline double st_in(const st_ref *r, uint64_t i) { return i < r->nin ? r->in[i] : st_value(i); }

static int st_check_one(const st_ref *r, uint64_t i, double *rel)
{
    const st_layout &L = r->L;
    uint32_t gotbits;
    memcpy(&gotbits, &r->got[i], 4);
    *rel = 0;
    int inside = i >= L.lead + L.H * L.ld && i < L.lead + (L.H + L.n1) * L.ld;
    if (inside) {
        const uint64_t col = (i - L.lead - L.H * L.ld) % L.ld;
        inside = col >= L.R && col < L.R + L.n0;
    }
    if (!inside) return gotbits == 0xffffffffu;
    double want;
    if (r->v == ST_COPY) {
        want = st_in(r, i);
    } else {
        const int64_t step = r->v == ST_DERIV1 ? (int64_t)L.ld : 1;
        want = 0;
        for (uint32_t k = 1; k <= L.R; k++)
            want += ST_COEF[L.R][k - 1] * (st_in(r, i + (k - 1) * step) - st_in(r, i - k * step));
    }
    const double got = r->got[i];
    if (!(got == got)) return 0;
    *rel = fabs(got - want) / (1.0 + fabs(want));
    return *rel <= 1e-5;
}

static uint64_t st_check_range(void *ctx, uint64_t lo, uint64_t hi, uint64_t *first)
{
    const eng_chunk *ch = (const eng_chunk *)ctx;
    st_ref r = *(const st_ref *)ch->user;
    r.got = (const float *)ch->got - ch->base;
    uint64_t bad = 0;
    double rel;
    for (uint64_t i = lo; i < hi; i++)
        if (!st_check_one(&r, i, &rel)) {
            if (!bad) *first = i;
            bad++;
        }
    return bad;
}

static int st_check(const eng_ctx *c, int v, int cfg, eng_check *out)
{
    const st_state *s = (const st_state *)c->state;
    st_ref r;
    r.v = v;
    r.L = st_layout_of(c, v, cfg);
    r.got = NULL;
    r.in = st_inputs(s->cap);
    r.nin = r.in ? s->cap : 0;
    uint64_t first;
    cudaError_t err;
    out->checked = s->cap;
    out->bad = eng_check_device(s->out, s->cap, sizeof(float), st_check_range, &r, &first, &err);
    ENG_TRY(err);
    if (out->bad) {
        float got;
        ENG_TRY(cudaMemcpy(&got, s->out + first, sizeof got, cudaMemcpyDeviceToHost));
        snprintf(out->first, sizeof out->first, "out[%llu] = %g", (unsigned long long)first, (double)got);
    }
    return 0;
}

static void st_teardown(eng_ctx *c)
{
    st_state *s = (st_state *)c->state;
    if (!s) return;
    cudaFree(s->in);
    cudaFree(s->out);
    cudaFree(s->sink);
    free(s);
    c->state = NULL;
}

static const char *const ST_POS[] = {"N0", "N1", "SMEM", "WPB", NULL};
static const char *const ST_POSDEF[] = {"1024", "97656", "0", "4", NULL};

#define ST_NAME(ID, NAME, ABOUT, RULE) {NAME, ABOUT},
static const eng_variant ST_VARIANTS[ST_NVARIANTS] = {STENCIL_VARIANTS(ST_NAME)};
#undef ST_NAME

extern "C" const eng_family eng_family_table = {
    .name = "stencil",
    .about = "Finite-difference derivatives (lab 000, part 3): what a misaligned stencil\n"
             "over-fetches, what lead padding and a padded leading dimension buy, and the L1\n"
             "hit rate of the halo loads.  N0 is the contiguous (leading) dimension, N1 the\n"
             "slow one; bandwidth counts each input read once and each output written once.",
    .posnames = ST_POS,
    .posdefaults = ST_POSDEF,
    .variants = ST_VARIANTS,
    .nvariants = ST_NVARIANTS,
    .options = ST_OPTIONS,
    .configs = st_configs,
    .geometry = st_geometry,
    .kernel = st_kernel,
    .setup = st_setup,
    .launch = st_launch,
    .poison = st_poison,
    .check = st_check,
    .teardown = st_teardown,
    .pos_group = 2,   /* N0 N1 together; SMEM and WPB may follow */
};
