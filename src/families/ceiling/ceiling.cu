/*
 * ceiling.cu - the ceiling family: how close to the physical limit this GPU's
 * memory gets.  The theoretical peak (2 x memory clock x bus width) mixes
 * what a kernel leaves on the table with what no kernel can get; the
 * achievable ceiling, measured here in the same conditions as the other
 * experiments, separates the two.
 *
 * Run (with a GPU): make ceiling && ./ceiling 512M 0 8
 *   (N elements, SMEM bytes, warps per block; the defaults.  ./ceiling --help: variants, options)
 *
 * Operations (STREAM-like, over arrays b, c (inputs) and a (output) of N
 * floats; grid-stride loops):
 *   read     sum += b[i]                (a reduction: bytes read only)
 *   write    a[i] = s
 *   copy     a[i] = b[i]
 *   triad    a[i] = b[i] + s c[i]
 *   dot      sum += b[i] c[i]
 *   memcpy   cudaMemcpyAsync a <- b: the runtime's copy, in the same run
 * Each kernel is searched over (one configuration each, the cartesian
 * product of the lists): --width (bytes per access: 4, 8, 16; Hopper has no
 * 32-byte access), --unroll (accesses in flight per thread before the first
 * use: 1..16), --hint (0: plain; 1: streaming, ld.global.cs and st.global.cs:
 * evict first; 2: read-only loads with a 256-byte L2 prefetch), --pass (0: a
 * grid-stride loop over --grid blocks per SM, 0 = as many as are resident;
 * 1: one pass, a grid as large as the data), and the run's WPB.  scripts/ceiling.sh runs the search
 * in two steps and bin/ceiling picks the best per operation.
 *
 * Bandwidth counts bytes read plus bytes written.  No probes: this family
 * measures throughput only.  Validation: every output element (write, copy,
 * triad) or the sum of every thread's partial sum (read, dot; the inputs are
 * small integers so every partial sum is exact) against the CPU.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.cuh"
#include "kernels.cuh"
#include "patterns.h"

/* [op][width] -> [hint][unroll][mode] */
#define CE_WIDTHS(OPN) {&ce_kernels_##OPN##_w1, &ce_kernels_##OPN##_w2, &ce_kernels_##OPN##_w4}
static ce_table *const CE_KERNELS[5][3] = {CE_WIDTHS(read), CE_WIDTHS(write), CE_WIDTHS(copy),
                                           CE_WIDTHS(triad), CE_WIDTHS(dot)};

static __host__ __device__ __forceinline__ float ce_value(uint64_t i, int which)
{
    return (float)(ro_mix64(i * 2 + (uint64_t)which) & 31);
}

__global__ void ce_init_kernel(float *b, float *c, uint64_t n)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        b[i] = ce_value(i, 0);
        c[i] = ce_value(i, 1);
    }
}

/* ------------------------------------------------------------ the table */

static cli_list opt_width = {{8, 16}, 2};
static cli_list opt_unroll = {{1, 4, 16}, 3};
static cli_list opt_hint = {{0, 1, 2}, 3};
static cli_list opt_grid = {{0}, 1};
static cli_list opt_pass = {{0, 1}, 2};

/* the widths and unrolls that have kernels (CE_KERNELS): --width 5 is refused
 * while parsing */
static const char *const CE_WIDTH_SET[] = {"4", "8", "16", NULL};
static const char *const CE_UNROLL_SET[] = {"1", "2", "4", "8", "16", NULL};

static const cli_opt CE_OPTIONS[] = {
    {"--width", 0, CLI_LIST, 4, 16, 0, 0, &opt_width, "LIST", "bytes per access: 4, 8, 16 (default 8,16)",
     CE_WIDTH_SET, 0},
    {"--unroll", 0, CLI_LIST, 1, 16, 0, 0, &opt_unroll, "LIST",
     "accesses in flight per thread: 1, 2, 4, 8, 16 (default 1,4,16)", CE_UNROLL_SET, 0},
    {"--hint", 0, CLI_LIST, 0, 2, 0, 0, &opt_hint, "LIST",
     "0 plain, 1 streaming (ld/st.global.cs), 2 read-only loads with a 256-byte\n"
     "L2 prefetch (ld.global.nc.L2::256B) (default 0,1,2)", 0, 0},
    {"--pass", 0, CLI_LIST, 0, 1, 0, 0, &opt_pass, "LIST",
     "0: a grid-stride loop over --grid blocks per SM; 1: one pass, a grid as\n"
     "large as the data (each thread its U accesses) (default 0,1)", 0, 0},
    {"--grid", 0, CLI_LIST, 0, 64, 0, 0, &opt_grid, "LIST",
     "blocks per SM launched by the grid-stride loop; 0 = as many as are\n"
     "resident (default 0)", 0, 0},
    CLI_END,
};

static int ce_index(uint64_t v, const uint64_t *allowed, int n)
{
    for (int i = 0; i < n; i++)
        if (allowed[i] == v) return i;
    return -1;
}
static const uint64_t CE_WIDTHS[3] = {4, 8, 16};
static const uint64_t CE_UNROLLS[5] = {1, 2, 4, 8, 16};

typedef struct ce_conf {
    int w, u, h;       /* indices into the kernel table */
    uint64_t grid;
    int pass;          /* 1: one pass over the data */
} ce_conf;

/* one-pass configurations take no --grid: they are counted once */
static int ce_configs(const eng_ctx *, int v)
{
    if (v == CE_MEMCPY) return 1;
    int per = 0;
    for (size_t p = 0; p < opt_pass.n; p++) per += opt_pass.v[p] ? 1 : (int)opt_grid.n;
    return (int)(opt_width.n * opt_unroll.n * opt_hint.n) * per;
}

static ce_conf ce_conf_of(int cfg)
{
    ce_conf c;
    int per = 0;
    for (size_t p = 0; p < opt_pass.n; p++) per += opt_pass.v[p] ? 1 : (int)opt_grid.n;
    int k = cfg / per, j = cfg % per;
    c.pass = 0;
    c.grid = 0;
    for (size_t p = 0; p < opt_pass.n; p++) {
        const int span = opt_pass.v[p] ? 1 : (int)opt_grid.n;
        if (j < span) {
            c.pass = (int)opt_pass.v[p];
            c.grid = c.pass ? 0 : opt_grid.v[j];
            break;
        }
        j -= span;
    }
    c.h = (int)opt_hint.v[k % (int)opt_hint.n];
    k /= (int)opt_hint.n;
    c.u = ce_index(opt_unroll.v[k % (int)opt_unroll.n], CE_UNROLLS, 5);
    k /= (int)opt_unroll.n;
    c.w = ce_index(opt_width.v[k % (int)opt_width.n], CE_WIDTHS, 3);
    return c;
}

static const void *ce_kernel(int v, int cfg, eng_mode m)
{
    if (v == CE_MEMCPY || m == ENG_PROBE) return NULL;
    const ce_conf c = ce_conf_of(cfg);
    if (c.w < 0 || c.u < 0) return NULL;
    return (*CE_KERNELS[v][c.w])[c.h][c.u][m == ENG_CHECK ? 1 : 0];
}

static const double CE_BYTES[CE_NVARIANTS][2] = {  /* per element: read, written */
    {4, 0}, {0, 4}, {4, 4}, {8, 4}, {8, 0}, {4, 4}};

static int ce_geometry(const eng_ctx *c, int v, int cfg, eng_geom *g, char *err, size_t errlen)
{
    const uint64_t n = c->n;
    g->bytes_read = CE_BYTES[v][0] * (double)n;
    g->bytes_written = CE_BYTES[v][1] * (double)n;
    g->flops = v == CE_TRIAD || v == CE_DOT ? 2.0 * (double)n : v == CE_READ ? (double)n : 0;
    g->tail_idle = 0;
    if (v == CE_MEMCPY) {
        g->items = n;
        g->blocks = 1;
        return 0;
    }
    const ce_conf cc = ce_conf_of(cfg);
    if (cc.w < 0 || cc.u < 0) {
        snprintf(err, errlen, "--width takes 4, 8, 16 and --unroll 1, 2, 4, 8, 16");
        return -1;
    }
    if (cc.pass) {
        /* every thread its U vectors once: ceil(vectors / (U x threads per block)) blocks */
        const uint64_t per_block = CE_UNROLLS[cc.u] * c->tpb;
        const uint64_t nv = n / (CE_WIDTHS[cc.w] / 4);
        g->blocks = (nv + per_block - 1) / per_block;
        if (g->blocks == 0) g->blocks = 1;
    } else {
        uint64_t bps = cc.grid;
        if (bps == 0) bps = (uint64_t)eng_resident_blocks(c, ce_kernel(v, cfg, ENG_CLEAN));
        g->blocks = bps * (uint64_t)c->dev->sm_count;
    }
    g->items = g->blocks * c->tpb;
    g->elem_bytes = (uint32_t)CE_WIDTHS[cc.w];
    g->loads_per_warp = (uint32_t)CE_UNROLLS[cc.u];
    snprintf(g->config, sizeof g->config, "w=%llu,u=%llu,h=%d,p=%d,g=%llu,wpb=%u",
             (unsigned long long)CE_WIDTHS[cc.w], (unsigned long long)CE_UNROLLS[cc.u], cc.h, cc.pass,
             (unsigned long long)cc.grid, c->wpb);
    snprintf(g->label, sizeof g->label, "w%lluu%lluh%dp%dg%llu", (unsigned long long)CE_WIDTHS[cc.w],
             (unsigned long long)CE_UNROLLS[cc.u], cc.h, cc.pass, (unsigned long long)cc.grid);
    return 0;
}

/* The outputs a[] of write, copy (and memcpy) and triad do not depend on
 * the configuration: the first configuration of each is checked against the
 * CPU element by element, and once it passes, a copy of that checked output
 * stays on the device (gold); every later configuration is compared with it
 * there, bit for bit, by ce_diff_kernel.  Every element is still held to the
 * CPU's value, but a configuration costs a 2 ms pass over the GPU's memory
 * instead of 2 GB back over PCIe and a CPU pass (0.25 s for triad at 512M
 * on the H200: the ceiling search validated for 19 of its 30 s).  Where the
 * GPU has no room for the copy, every configuration is checked on the CPU. */
enum { CE_GOLD_WRITE, CE_GOLD_COPY, CE_GOLD_TRIAD, CE_NGOLD };

/* What outlives a batch's line (each line sets the family up again; the
 * search's second step is 15 lines at 512M): the gold copies and the CPU's
 * sums, for one N; another N drops them. */
static struct {
    uint64_t n;
    float *gold[CE_NGOLD];  /* a CPU-checked a[] of each output kind, or NULL */
    int sums;               /* sum_b and dot_bc are known */
    double sum_b, dot_bc;
    unsigned long long *diff;   /* ce_diff_kernel's result: mismatches, first */
} ce_keep;

static void ce_keep_for(uint64_t n)
{
    if (ce_keep.n == n) return;
    for (int k = 0; k < CE_NGOLD; k++) {
        cudaFree(ce_keep.gold[k]);
        ce_keep.gold[k] = NULL;
    }
    ce_keep.sums = 0;
    ce_keep.n = n;
}

struct ce_state {
    float *a, *b, *c, *partial;
    uint64_t max_threads;
    double sum_b, dot_bc;   /* exact: small integers */
};

static int ce_gold_of(int v)
{
    return v == CE_WRITE ? CE_GOLD_WRITE : v == CE_TRIAD ? CE_GOLD_TRIAD : CE_GOLD_COPY;
}

/* diff[0] += elements where got and want differ (bit for bit), diff[1] =
 * min(diff[1], the first of them) */
__global__ void ce_diff_kernel(const uint32_t *got, const uint32_t *want, uint64_t n, unsigned long long *diff)
{
    unsigned long long bad = 0, first = ~0ull;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        if (got[i] != want[i]) {
            if (!bad) first = i;
            bad++;
        }
    if (bad) {
        atomicAdd(&diff[0], bad);
        atomicMin(&diff[1], first);
    }
}

static uint64_t ce_sum_range(void *, uint64_t lo, uint64_t hi, uint64_t *)
{
    uint64_t s = 0;
    for (uint64_t i = lo; i < hi; i++) s += (uint64_t)ce_value(i, 0);
    return s;
}

static uint64_t ce_dot_range(void *, uint64_t lo, uint64_t hi, uint64_t *)
{
    uint64_t s = 0;
    for (uint64_t i = lo; i < hi; i++) s += (uint64_t)ce_value(i, 0) * (uint64_t)ce_value(i, 1);
    return s;
}

static int ce_setup(eng_ctx *c)
{
    ce_state *s = (ce_state *)calloc(1, sizeof *s);
    if (!s) return (int)cudaErrorMemoryAllocation;
    c->state = s;
    const uint64_t n = c->n;
    ce_keep_for(n);   /* first: another N's copies go before this line allocates */
    ENG_TRY(cudaMalloc((void **)&s->a, n * sizeof(float)));
    ENG_TRY(cudaMalloc((void **)&s->b, n * sizeof(float)));
    ENG_TRY(cudaMalloc((void **)&s->c, n * sizeof(float)));
    /* the most threads a configuration launches: a one-pass grid of 4-byte
     * accesses, or 64 resident blocks per SM */
    s->max_threads = n + 64ull * 2048 * (uint64_t)c->dev->sm_count;
    ENG_TRY(cudaMalloc((void **)&s->partial, s->max_threads * sizeof(float)));
    /* the CPU's sums, on every core (eng_parallel_check adds up what each
     * range returns; the values are small integers, so the sums are exact) */
    uint64_t first;
    if (!ce_keep.sums) {
        ce_keep.sum_b = (double)eng_parallel_check(n, ce_sum_range, NULL, &first);
        ce_keep.dot_bc = (double)eng_parallel_check(n, ce_dot_range, NULL, &first);
        ce_keep.sums = 1;
    }
    s->sum_b = ce_keep.sum_b;
    s->dot_bc = ce_keep.dot_bc;
    ce_init_kernel<<<4096, 256>>>(s->b, s->c, n);
    ENG_TRY(cudaGetLastError());
    return cudaDeviceSynchronize();
}

static int ce_launch(const eng_ctx *c, int v, int cfg, eng_mode m, const eng_launch *L)
{
    const ce_state *s = (const ce_state *)c->state;
    if (v == CE_MEMCPY)
        return cudaMemcpyAsync(s->a, s->b, c->n * sizeof(float), cudaMemcpyDeviceToDevice, L->stream);
    ce_args A;
    A.a = s->a;
    A.b = s->b;
    A.c = s->c;
    A.n = c->n;
    A.partial = s->partial;
    A.E = eng_dev_args(L, 0xffffffffu, (uint32_t *)s->partial);   /* never written by the guard */
    void *args[] = {&A};
    return cudaLaunchKernel(ce_kernel(v, cfg, m), dim3((unsigned)L->blocks), dim3(L->threads), args,
                            L->smem_bytes, L->stream);
}

static int ce_poison(const eng_ctx *c, int v, int)
{
    const ce_state *s = (const ce_state *)c->state;
    if (v == CE_READ || v == CE_DOT) return cudaMemset(s->partial, 0xff, s->max_threads * sizeof(float));
    return cudaMemset(s->a, 0xff, c->n * sizeof(float));
}

/* read and dot: the partial sums of [lo, hi), each a small whole number
 * (the inputs are), added exactly; *first the first that is not one (NaN:
 * a thread that wrote none) */
static uint64_t ce_sum_partials(void *ctx, uint64_t lo, uint64_t hi, uint64_t *first)
{
    const eng_chunk *ch = (const eng_chunk *)ctx;
    const float *got = (const float *)ch->got - ch->base;
    uint64_t s = 0;
    for (uint64_t t = lo; t < hi; t++) {
        const float v = got[t];
        if (!(v >= 0 && v < 16777216.0f) || v != (float)(uint32_t)v) {
            if (*first == UINT64_MAX) *first = t;
            continue;
        }
        s += (uint64_t)v;
    }
    return s;
}

/* write, copy, triad: a[i] against the CPU's value */
static uint64_t ce_check_range(void *ctx, uint64_t lo, uint64_t hi, uint64_t *first)
{
    const eng_chunk *ch = (const eng_chunk *)ctx;
    const int v = *(const int *)ch->user;
    const float *got = (const float *)ch->got - ch->base;
    uint64_t bad = 0;
    for (uint64_t i = lo; i < hi; i++) {
        const float want = v == CE_WRITE ? CE_S
                         : v == CE_TRIAD ? ce_value(i, 0) + CE_S * ce_value(i, 1)
                                         : ce_value(i, 0);
        if (got[i] != want) {
            if (!bad) *first = i;
            bad++;
        }
    }
    return bad;
}

/* room for a gold copy (and the diff counters): 1, or 0 where the GPU has
 * none to spare (then the CPU checks every configuration) */
static int ce_gold_alloc(const eng_ctx *c, float **gold)
{
    if (!ce_keep.diff && cudaMalloc((void **)&ce_keep.diff, 2 * sizeof(unsigned long long)) != cudaSuccess) {
        cudaGetLastError();
        ce_keep.diff = NULL;
        return 0;
    }
    if (cudaMalloc((void **)gold, c->n * sizeof(float)) != cudaSuccess) {
        cudaGetLastError();
        *gold = NULL;
        return 0;
    }
    return 1;
}

/* WARPLAT_INJECT_WRONG_RESULT=K (tests only, eng_inject_wrong_result): the
 * K-th output a[] validated by this process (write, copy, triad, memcpy; 0
 * the first) gets one wrong element, a[n / 2], after its check launch (K = 0:
 * the CPU's check catches it, K >= 1: the device's against the gold copy) */
static void ce_inject_wrong_result(const eng_ctx *c)
{
    const ce_state *s = (const ce_state *)c->state;
    if (eng_inject_wrong_result()) cudaMemset(s->a + c->n / 2, 0x41, sizeof(float));   /* 12.08..., never a value */
}

static int ce_check(const eng_ctx *c, int v, int cfg, eng_check *out)
{
    ce_state *s = (ce_state *)c->state;
    cudaError_t err;
    uint64_t first;
    if (v == CE_READ || v == CE_DOT) {
        eng_geom g;
        char errs[128];
        memset(&g, 0, sizeof g);
        if (ce_geometry(c, v, cfg, &g, errs, sizeof errs) != 0) return (int)cudaErrorInvalidValue;
        const uint64_t threads = g.items;
        const double total = (double)eng_check_device(s->partial, threads, sizeof(float), ce_sum_partials,
                                                      NULL, &first, &err);
        ENG_TRY(err);
        const double want = v == CE_READ ? s->sum_b : s->dot_bc;
        out->checked = threads;
        out->bad = first != UINT64_MAX || total != want;
        if (first != UINT64_MAX) {
            float got;
            ENG_TRY(cudaMemcpy(&got, s->partial + first, sizeof got, cudaMemcpyDeviceToHost));
            snprintf(out->first, sizeof out->first, "thread %llu's partial sum is %g, not a whole number "
                     "(NaN: it wrote none)", (unsigned long long)first, (double)got);
        } else if (out->bad) {
            snprintf(out->first, sizeof out->first, "the partial sums add up to %.17g, the CPU's to %.17g",
                     total, want);
        }
        return 0;
    }
    ce_inject_wrong_result(c);
    out->checked = c->n;
    float **gold = &ce_keep.gold[ce_gold_of(v)];
    if (*gold) {   /* against the CPU-checked copy, on the device */
        unsigned long long d[2] = {0, ~0ull};
        ENG_TRY(cudaMemcpy(ce_keep.diff, d, sizeof d, cudaMemcpyHostToDevice));
        ce_diff_kernel<<<4 * 2048 / 256 * c->dev->sm_count, 256>>>((const uint32_t *)s->a,
                                                                   (const uint32_t *)*gold, c->n, ce_keep.diff);
        ENG_TRY(cudaGetLastError());
        ENG_TRY(cudaMemcpy(d, ce_keep.diff, sizeof d, cudaMemcpyDeviceToHost));
        out->bad = d[0];
        first = d[1];
    } else {
        out->bad = eng_check_device(s->a, c->n, sizeof(float), ce_check_range, &v, &first, &err);
        ENG_TRY(err);
        float *copy = NULL;
        if (!out->bad && ce_gold_alloc(c, &copy)) {
            const cudaError_t e = cudaMemcpy(copy, s->a, c->n * sizeof(float), cudaMemcpyDeviceToDevice);
            if (e != cudaSuccess) {
                cudaFree(copy);
                return e;
            }
            *gold = copy;   /* kept only once it holds the checked output */
        }
    }
    if (out->bad) {
        float got;
        ENG_TRY(cudaMemcpy(&got, s->a + first, sizeof got, cudaMemcpyDeviceToHost));
        snprintf(out->first, sizeof out->first, "a[%llu] = %g", (unsigned long long)first, (double)got);
    }
    return 0;
}

static void ce_teardown(eng_ctx *c)
{
    ce_state *s = (ce_state *)c->state;
    if (!s) return;
    cudaFree(s->a);
    cudaFree(s->b);
    cudaFree(s->c);
    cudaFree(s->partial);
    free(s);
    c->state = NULL;
}

static const char *const CE_POS[] = {"N", "SMEM", "WPB", NULL};
/* 512 Mi floats: 2 GiB per array, a kernel of about 0.7 ms, so the launch's own
 * microseconds stay under 1% of what is timed */
static const char *const CE_POSDEF[] = {"512M", "0", "8", NULL};

static const eng_variant CE_VARIANTS[CE_NVARIANTS] = {
    {"read", "sum += b[i]: read only (a reduction)"},
    {"write", "a[i] = s: write only"},
    {"copy", "a[i] = b[i]"},
    {"triad", "a[i] = b[i] + s c[i] (STREAM triad)"},
    {"dot", "sum += b[i] c[i]"},
    {"memcpy", "cudaMemcpyAsync device to device, in the same run"},
};

extern "C" const eng_family eng_family_table = {
    .name = "ceiling",
    .about = "The achievable DRAM bandwidth: read, write, copy, triad and dot searched over\n"
             "access width, accesses in flight per thread, streaming cache hints and grid\n"
             "size (scripts/ceiling.sh runs the search; bin/ceiling picks the best).\n"
             "Bandwidth counts bytes read plus bytes written.",
    .posnames = CE_POS,
    .posdefaults = CE_POSDEF,
    .variants = CE_VARIANTS,
    .nvariants = CE_NVARIANTS,
    .options = CE_OPTIONS,
    .configs = ce_configs,
    .geometry = ce_geometry,
    .kernel = ce_kernel,
    .setup = ce_setup,
    .launch = ce_launch,
    .poison = ce_poison,
    .check = ce_check,
    .teardown = ce_teardown,
};
