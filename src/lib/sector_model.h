/*
 * sector_model.h - what the memory system moves for a warp's global load,
 * and for whole readonly kernels: L1 requests, 32 B sectors, 128 B lines,
 * L2 sectors and DRAM sectors, predicted from the addresses alone.
 *
 * The model (docs/sectors.md has the long form and the reasons):
 *
 *   - one warp-level load instruction is one L1 request (sm_70 and later),
 *     whatever its width (4, 8 or 16 B per lane);
 *   - a request touches the distinct aligned 32 B sectors that its active
 *     lanes' bytes fall in: that is l1tex__t_sectors_..._ld per request;
 *   - L1 never hits (every sector a request touches is asked of L2), so L2
 *     sectors = L1 sectors;
 *   - an L2 miss fetches the aligned DRAM granule (32, 64 or 128 B, the L2
 *     fetch granularity) that holds the sector, so DRAM sectors count
 *     granules times granule/32;
 *   - whether a granule fetched once is still in L2 when it is touched again
 *     is the reuse assumption (sm_reuse), a parameter;
 *   - the caches start cold: ncu flushes them before every profiled pass
 *     (--cache-control all, its default).
 *
 * Counts are doubles, exact integers up to 2^53.  Every pattern is
 * enumerated address by address, random_access too (its permutation is a
 * deterministic function of n and the seed, src/lib/patterns.h), so the L1
 * and L2 columns are exact; the DRAM column is exact given the reuse
 * assumption.
 * All sizes are in bytes unless a name says otherwise.
 */
#ifndef SECTOR_MODEL_H
#define SECTOR_MODEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SM_SECTOR_BYTES 32u
#define SM_LINE_BYTES   128u
#define SM_WARP_LANES   32u
/* H100 (SXM and PCIe): cudaDevAttrL2CacheSize reports 50 MiB. */
#define SM_L2_BYTES_H100 (50ull * 1024 * 1024)
/* What the LRU reuse model uses by default: one of the two L2 partitions,
 * 25 MiB.  Data that SMs on both sides of the chip read is held in both
 * partitions, so that is the capacity all SMs share; the H100 sweeps
 * (data/reference/h100/sectors_readonly.tsv) and docs/sectors.md say why. */
#define SM_L2_EFFECTIVE_BYTES_H100 (25ull * 1024 * 1024)
/* The seed readonly_profile gives ro_perm for random_access's c[]. */
#define SM_SEED_DEFAULT 12345ull
/* The L2 fetch granularity an H100 uses by default (background note 000:
 * an isolated 32 B miss fetches 64 B).  ncu_profile.sh measures it. */
#define SM_GRANULE_DEFAULT 64u

/* ------------------------------------------------------------ one warp */

typedef struct sm_warp {
    unsigned active_lanes;  /* lanes that load */
    unsigned l1_requests;   /* 1 when any lane loads, else 0 */
    unsigned sectors;       /* distinct 32 B sectors: L1 sectors per request */
    unsigned lines;         /* distinct 128 B lines */
    unsigned l2_sectors;    /* = sectors (L1 is assumed to miss) */
    unsigned dram_sectors;  /* distinct granules * granule_bytes / 32 (cold) */
    unsigned bytes_used;    /* distinct bytes the active lanes asked for */
    double   sector_util;   /* bytes_used / (sectors * 32): L1<->L2 bus */
    double   dram_util;     /* bytes_used / (dram_sectors * 32) */
} sm_warp;

/* 1 if g is a DRAM granularity the model knows (32, 64, 128), else 0. */
int sm_granule_ok(unsigned granule_bytes);

/*
 * One warp loading elem_bytes (1..32) at each of addr_bytes[0..lanes-1]
 * (byte addresses, lanes <= 32; duplicates allowed: a broadcast).
 * Returns 0, or -1 when an argument is out of range.
 */
int sm_warp_from_addrs(const uint64_t *addr_bytes, unsigned lanes,
                       unsigned elem_bytes, unsigned granule_bytes, sm_warp *out);

/*
 * One warp of a strided load: lane l (0 <= l < active_lanes) loads
 * elem_bytes at offset_bytes + l * stride_elems * elem_bytes.  The base of
 * the array is taken as 128 B aligned (cudaMalloc gives 256 B).
 */
int sm_warp_strided(unsigned elem_bytes, uint64_t stride_elems, uint64_t offset_bytes,
                    unsigned active_lanes, unsigned granule_bytes, sm_warp *out);

/* ------------------------------------------------------- whole kernels */

/* The readonly_profile kernels (their CUDA names are readonly_<name>). */
typedef enum sm_kernel {
    SM_BASELINE = 0,     /* float a[i], N threads */
    SM_FLOAT4,           /* float4 b[i], N/4 threads */
    SM_NONDIVERGING,     /* a[c[i]], c[i] = i, N threads */
    SM_RANDOM_ACCESS,    /* a[c[i]], c a random permutation, N threads */
    SM_STRIDED,          /* float a[(stride*i) % N], N threads */
    SM_STRIDED_FLOAT4,   /* float4 b[(stride*i) % (N/4)], N/4 threads */
    SM_KERNEL_COUNT
} sm_kernel;

const char *sm_kernel_name(sm_kernel k);              /* "strided_float4" */
int sm_kernel_from_name(const char *name, sm_kernel *k); /* 0, or -1 unknown */
unsigned sm_kernel_elem_bytes(sm_kernel k);           /* 4 or 16 */

/*
 * When a granule already fetched is touched again by a later request:
 *   SM_REUSE_LRU   it hits if fewer than l2_bytes / 128 distinct 128 B
 *                  lines were touched in between (a fully associative LRU
 *                  L2 of l2_bytes that allocates whole 128 B lines; see
 *                  docs/sectors.md for how the distance is computed per
 *                  kernel).  The default.
 *   SM_REUSE_ALL   it always hits (L2 as large as the array): DRAM sectors
 *                  are the distinct granules of the whole kernel, the lower
 *                  bound.
 *   SM_REUSE_NONE  it never hits: every request fetches its own distinct
 *                  granules, the upper bound.
 */
typedef enum sm_reuse { SM_REUSE_LRU = 0, SM_REUSE_ALL, SM_REUSE_NONE } sm_reuse;
const char *sm_reuse_name(sm_reuse r);                /* "lru", "all", "none" */
int sm_reuse_from_name(const char *name, sm_reuse *r);

typedef struct sm_config {
    uint64_t n_floats;      /* N: floats in the array (float4 kernels use N/4) */
    uint64_t stride;        /* strided kernels: elements between threads (>= 1) */
    uint64_t offset_bytes;  /* added to every address into a/b (misalignment) */
    unsigned granule_bytes; /* DRAM fetch granularity: 32, 64 or 128 */
    uint64_t l2_bytes;      /* L2 capacity for SM_REUSE_LRU */
    sm_reuse reuse;
    unsigned index_bytes;   /* sizeof c[i] of the gathers (4) */
    unsigned threads_per_block; /* the kernels launch whole blocks; threads
                                   past the last item load the last item's
                                   address again (ro_clamp); 0 = exactly one
                                   thread per item.  readonly_profile N 0 WPB
                                   uses 32 * WPB. */
    uint64_t seed;          /* random_access: c[i] = ro_perm(i, n,
                               ro_perm_half_bits(n), seed) (patterns.h) */
} sm_config;

/* N = 1e8, stride 1, offset 0, granule SM_GRANULE_DEFAULT, L2
 * SM_L2_EFFECTIVE_BYTES_H100 (25 MiB), LRU, index 4 B, 128 threads per block
 * (WPB 4, as scripts/ncu_profile.sh runs), seed SM_SEED_DEFAULT. */
void sm_config_default(sm_config *c);

typedef struct sm_prediction {
    sm_kernel kernel;
    unsigned  elem_bytes;       /* bytes one thread loads from a/b */
    uint64_t  stride;           /* 1 for the unstrided kernels */
    uint64_t  threads;
    uint64_t  warps;
    double    l1_requests;      /* global load requests (instructions) */
    double    l1_sectors;
    double    lines;            /* 128 B lines, summed over requests */
    double    l2_sectors;
    double    dram_sectors;
    double    bytes_used;       /* bytes the threads asked for (a/b and c),
                                   summed over requests */
    double    unique_bytes;     /* distinct bytes read over the kernel */
    double    sectors_per_request;
    double    sector_util;      /* bytes_used / (l1_sectors * 32) */
    double    dram_util;        /* unique_bytes / (dram_sectors * 32) */
    int       exact;            /* 1: exact counts (all kernels now); 0 was
                                   random_access's old expected values */
} sm_prediction;

/*
 * Predict kernel k with configuration cfg (cfg->stride is used by the two
 * strided kernels only).  Returns 0, or -1 with a sentence in err (bad
 * argument, out of memory).  Cost: one pass over the threads for the
 * strided kernels (about a second at N = 1e8); for random_access one
 * ro_perm per thread (a few seconds at N = 1e8).
 */
int sm_predict(sm_kernel k, const sm_config *cfg, sm_prediction *out,
               char *err, size_t errlen);

/*
 * The same for a strided read of elements of any size (4, 8 or 16 B) over
 * n_elems elements with n_elems threads (rounded up to whole blocks):
 * thread i loads element (stride * i) % n_elems.  sm_predict's strided kernels call this.
 * out->kernel is SM_STRIDED (or SM_STRIDED_FLOAT4 for 16 B).
 */
int sm_predict_strided(uint64_t n_elems, unsigned elem_bytes, const sm_config *cfg,
                       sm_prediction *out, char *err, size_t errlen);

/* Sort a small array in place (insertion sort: n <= 64) and count its
 * distinct values. */
unsigned sm_sort_distinct(uint64_t *v, unsigned n);

#ifdef __cplusplus
}
#endif
#endif /* SECTOR_MODEL_H */
