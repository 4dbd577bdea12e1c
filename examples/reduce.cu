/*
 * reduce.cu - a block reduction: each thread loads 4 unsigned ints with one
 * 16-byte load, the block sums them (warp shuffles, then shared memory) and
 * thread 0 adds the block's sum to a 64-bit total with one atomic.
 * Regions: "load" (the uint4 load) and "reduce" (the sum across the block,
 * ended by the use of the block's sum that every thread reads back).
 *   ./reduce [LOG]      (default reduce.bin)
 */
#include "example.h"

struct args { int n4; const uint4 *in; unsigned long long *total; unsigned grid; };

template <class W> __global__ void reduce(int n4, const uint4 *in, unsigned long long *total, W wl)
{
    __shared__ unsigned part[32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const uint4 *p = warplat_pin(in + (i < n4 ? i : n4 - 1));
    warplat_t t = warplat_begin(wl);
    const uint4 q = *p;
    warplat_end(wl, 0, t, q);
    unsigned s = i < n4 ? q.x + q.y + q.z + q.w : 0;
    warplat_t r = warplat_begin(wl);
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
    __syncthreads();
    s = threadIdx.x < (blockDim.x >> 5) ? part[threadIdx.x] : 0;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    warplat_end(wl, 1, r, s);
    if (threadIdx.x == 0) atomicAdd(total, (unsigned long long)s);
}

static int launch_clean(void *u, warplat_dev)
{
    args *a = (args *)u;
    reduce<<<a->grid, 256>>>(a->n4, a->in, a->total, warplat_off());
    return (int)cudaGetLastError();
}
static int launch_probed(void *u, warplat_dev d)
{
    args *a = (args *)u;
    reduce<<<a->grid, 256>>>(a->n4, a->in, a->total, d);
    return (int)cudaGetLastError();
}

int main(int argc, char **argv)
{
    example_need_gpu("reduce");
    const int n = 1 << 26, n4 = n / 4;
    unsigned *in = (unsigned *)malloc(n * sizeof(unsigned));
    if (!in) { fprintf(stderr, "reduce: out of memory\n"); return 1; }
    unsigned long long ref = 0, got = 0;
    for (int i = 0; i < n; i++) ref += in[i] = (unsigned)(i % 1009);
    uint4 *d_in;
    unsigned long long *d_total;
    CK(cudaMalloc(&d_in, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_total, sizeof got));
    CK(cudaMemcpy(d_in, in, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    args a = {n4, d_in, d_total, (unsigned)((n4 + 255) / 256)};

    warplat_options o;
    warplat_options_init(&o);
    o.kernel = "reduce";
    o.blocks = a.grid;
    o.threads_per_block = 256;
    o.kernel_fn = (const void *)reduce<warplat_dev>;
    o.useful_bytes = n * 4.0;
    warplat_region(&o, "load", 512);     /* 32 lanes x 16 bytes */
    warplat_region(&o, "reduce", 0);     /* shared memory and shuffles */
    example_profile(argc > 1 ? argv[1] : "reduce.bin", &o, launch_clean, launch_probed, &a);

    /* validation: one clean launch on a zeroed total (the timed ones add up) */
    CK(cudaMemset(d_total, 0, sizeof got));
    CK((cudaError_t)launch_clean(&a, warplat_dev()));
    CK(cudaMemcpy(&got, d_total, sizeof got, cudaMemcpyDeviceToHost));
    if (got != ref) { fprintf(stderr, "reduce: sum %llu, the CPU's %llu\n", got, ref); return 1; }
    printf("reduce: %d values, sum %llu equal to the CPU's\n", n, ref);
    return 0;
}
