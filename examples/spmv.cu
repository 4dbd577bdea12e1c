/*
 * spmv.cu - CSR sparse matrix-vector product y = A x, one thread per row, on
 * a matrix it generates (8..24 nonzeros a row at random columns): the loads
 * of x[col] are irregular gathers.  Region "row": one thread's whole row.
 *   ./spmv [LOG]        (default spmv.bin)
 */
#include "example.h"

struct args { int n; const int *rowp, *col; const float *val, *x; float *y; unsigned grid; };

template <class W>
__global__ void spmv(int n, const int *rowp, const int *col, const float *val, const float *x,
                     float *y, W wl)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = r < n ? r : n - 1;        /* no branch around the region */
    const int b = rowp[row], e = rowp[row + 1];
    warplat_t t = warplat_begin(wl);
    float s = 0;
    for (int j = b; j < e; j++) s += val[j] * x[col[j]];
    warplat_end(wl, 0, t, s);
    if (r < n) y[r] = s;
}

static int launch_clean(void *u, warplat_dev)
{
    args *a = (args *)u;
    spmv<<<a->grid, 256>>>(a->n, a->rowp, a->col, a->val, a->x, a->y, warplat_off());
    return (int)cudaGetLastError();
}
static int launch_probed(void *u, warplat_dev d)
{
    args *a = (args *)u;
    spmv<<<a->grid, 256>>>(a->n, a->rowp, a->col, a->val, a->x, a->y, d);
    return (int)cudaGetLastError();
}

int main(int argc, char **argv)
{
    example_need_gpu("spmv");
    const int n = 1 << 21;
    int *rowp = (int *)malloc((n + 1) * sizeof(int)), *col = (int *)malloc(24 * (size_t)n * sizeof(int));
    float *val = (float *)malloc(24 * (size_t)n * sizeof(float)), *x = (float *)malloc(n * sizeof(float));
    float *y = (float *)malloc(n * sizeof(float));
    if (!rowp || !col || !val || !x || !y) { fprintf(stderr, "spmv: out of memory\n"); return 1; }
    unsigned s = 12345;                                   /* a fixed LCG: reproducible */
    rowp[0] = 0;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        const int len = 8 + (int)(s >> 28);               /* 8..23 */
        for (int k = 0; k < len; k++) {
            s = s * 1664525u + 1013904223u;
            col[rowp[i] + k] = (int)(s % (unsigned)n);
            val[rowp[i] + k] = (float)((s >> 8) % 7) - 3;  /* small integers: exact sums */
        }
        rowp[i + 1] = rowp[i] + len;
        x[i] = (float)(i % 5);
    }
    const int nnz = rowp[n];
    args a;
    int *d_rowp, *d_col;
    float *d_val, *d_x, *d_y;
    CK(cudaMalloc(&d_rowp, (n + 1) * sizeof(int)));
    CK(cudaMalloc(&d_col, nnz * sizeof(int)));
    CK(cudaMalloc(&d_val, nnz * sizeof(float)));
    CK(cudaMalloc(&d_x, n * sizeof(float)));
    CK(cudaMalloc(&d_y, n * sizeof(float)));
    CK(cudaMemcpy(d_rowp, rowp, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_col, col, nnz * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_val, val, nnz * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
    a = {n, d_rowp, d_col, d_val, d_x, d_y, (unsigned)((n + 255) / 256)};

    warplat_options o;
    warplat_options_init(&o);
    o.kernel = "spmv";
    o.blocks = a.grid;
    o.threads_per_block = 256;
    o.kernel_fn = (const void *)spmv<warplat_dev>;
    o.useful_bytes = (double)nnz * 12 + (n + 1) * 4.0;
    o.bytes_written = n * 4.0;
    warplat_region(&o, "row", 32 * 16 * 12);   /* 32 rows of ~16 (val, col, x) */
    example_profile(argc > 1 ? argv[1] : "spmv.bin", &o, launch_clean, launch_probed, &a);

    CK(cudaMemcpy(y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
    long bad = 0;
    for (int i = 0; i < n; i++) {
        float ref = 0;
        for (int j = rowp[i]; j < rowp[i + 1]; j++) ref += val[j] * x[col[j]];
        bad += ref != y[i];
    }
    if (bad) { fprintf(stderr, "spmv: %ld of %d rows differ from the CPU\n", bad, n); return 1; }
    printf("spmv: %d rows, %d nonzeros, all equal to the CPU's\n", n, nnz);
    return 0;
}
