/*
 * histogram.cu - a 256-bin histogram with global atomics: every thread loads
 * one value and adds 1 to its bin with atomicAdd.  The values are skewed
 * (half of them fall in 8 bins), so some bins see heavy contention.
 * Regions: "load" (the value) and "atomic" (the atomicAdd, ended by the use
 * of the old value it returns: in the probed kernel the atomic returns a
 * value, ATOMG instead of the clean kernel's RED; that is part of the
 * measured overhead).
 *   ./histogram [LOG]   (default histogram.bin)
 */
#include "example.h"

struct args { int n; const unsigned *data; unsigned *hist; unsigned grid; };

template <class W> __global__ void histogram(int n, const unsigned *data, unsigned *hist, W wl)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned *p = warplat_pin(data + (i < n ? i : n - 1));
    warplat_t t = warplat_begin(wl);
    const unsigned v = *p;
    warplat_end(wl, 0, t, v);
    if (i >= n) return;
    unsigned *bin = warplat_pin(hist + (v & 255));
    warplat_t a = warplat_begin(wl);
    const unsigned old = atomicAdd(bin, 1u);
    warplat_end(wl, 1, a, old);
}

static int launch_clean(void *u, warplat_dev)
{
    args *a = (args *)u;
    histogram<<<a->grid, 256>>>(a->n, a->data, a->hist, warplat_off());
    return (int)cudaGetLastError();
}
static int launch_probed(void *u, warplat_dev d)
{
    args *a = (args *)u;
    histogram<<<a->grid, 256>>>(a->n, a->data, a->hist, d);
    return (int)cudaGetLastError();
}

int main(int argc, char **argv)
{
    example_need_gpu("histogram");
    const int n = 1 << 24;
    unsigned *data = (unsigned *)malloc(n * sizeof(unsigned)), ref[256] = {0}, got[256];
    if (!data) { fprintf(stderr, "histogram: out of memory\n"); return 1; }
    unsigned s = 777;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        data[i] = (s >> 31) ? (s >> 8) % 8 : (s >> 8) % 256;   /* skewed */
    }
    args a;
    unsigned *d_data, *d_hist;
    CK(cudaMalloc(&d_data, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_hist, 256 * sizeof(unsigned)));
    CK(cudaMemcpy(d_data, data, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    a = {n, d_data, d_hist, (unsigned)((n + 255) / 256)};

    warplat_options o;
    warplat_options_init(&o);
    o.kernel = "histogram";
    o.blocks = a.grid;
    o.threads_per_block = 256;
    o.kernel_fn = (const void *)histogram<warplat_dev>;
    o.useful_bytes = n * 4.0;
    warplat_region(&o, "load", 128);     /* 32 lanes x 4 bytes */
    warplat_region(&o, "atomic", 128);
    example_profile(argc > 1 ? argv[1] : "histogram.bin", &o, launch_clean, launch_probed, &a);

    /* validation: one more clean launch on a zeroed histogram */
    CK(cudaMemset(d_hist, 0, 256 * sizeof(unsigned)));
    CK((cudaError_t)launch_clean(&a, warplat_dev()));
    CK(cudaMemcpy(got, d_hist, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) ref[data[i]]++;
    int bad = 0;
    for (int b = 0; b < 256; b++) bad += got[b] != ref[b];
    if (bad) { fprintf(stderr, "histogram: %d of 256 bins differ from the CPU\n", bad); return 1; }
    printf("histogram: %d values, all 256 bins equal to the CPU's\n", n);
    return 0;
}
