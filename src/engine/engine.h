/*
 * engine.h - the experiment engine: what a kernel family declares, and what
 * the engine does with it.
 *
 * A family's kernels are one .cu file (src/families/NAME/NAME.cu) holding them, their
 * launchers, a CPU reference, and one table, `const eng_family eng_family`,
 * that names its variants and points at a few hooks.  The engine (the .c
 * files of src/engine/, plain C against the CUDA runtime; eng_run.h lists its
 * rooms) owns everything else, the same way for every family:
 *
 *   command line   PROG N SMEM WPB [options]: the same spellings everywhere
 *                  (--kernel, --reps, --sample, --out, --device, ...), plus
 *                  the family's own options from its table; --help and
 *                  --list-kernels are generated from the table
 *   occupancy      SMEM opt-in, carveout, the occupancy API's resident blocks,
 *                  --list-occupancy, and --sweep (every resident-block count)
 *   validation     poison the outputs, one launch of the CHECK kernel, compare
 *                  with the CPU reference; never the timed launch
 *   timing         CUDA events after a warm-up; the clean twin and the
 *                  instrumented kernel interleaved launch by launch; median,
 *                  min and max of each; their ratio is the probes' overhead
 *   sampling       every K-th block records its warps (--sample K); by default
 *                  the smallest K whose measured overhead is at most
 *                  --max-overhead percent (1)
 *   the log        header, background writer threads, no partial file on any
 *                  failure (CUDA error, signal, validation failure)
 *   the summary    one TSV row per variant (and configuration) on stdout;
 *                  its columns are one table (columns.c, --list-columns)
 *
 * Each variant is compiled as three kernels (engine.cuh, ENG_KERNELS):
 *   NAME          the clean twin: the loads (and the stores that are the
 *                 kernel's work), nothing else that outlives them; what Nsight
 *                 Compute profiles and what bandwidth is computed from
 *   NAME_probe    the same kernel; in every K-th block, lane 0 of each warp
 *                 records %clock64 around the timed region and stores one
 *                 16-byte probe (warplog.h)
 *   NAME_check    the kernel that leaves something to validate (a per-warp
 *                 checksum for read-only kernels; the clean kernel itself when
 *                 the kernel's stores are its result)
 *
 * Hooks return 0 or a cudaError_t (as int); the engine reports the error with
 * the hook's name and exits 1, after removing every temporary log file.
 */
#ifndef WARPLAT_ENGINE_H
#define WARPLAT_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "cli.h"
#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum eng_mode { ENG_CLEAN = 0, ENG_PROBE = 1, ENG_CHECK = 2, ENG_NMODES = 3 } eng_mode;

#define ENG_MAX_POS 4

/* What the engine hands to every hook. */
typedef struct eng_ctx {
    uint64_t pos[ENG_MAX_POS];   /* positional arguments, in the family's order */
    uint64_t n;                  /* the positional named "N" (0 if none) */
    uint32_t smem_bytes;         /* "SMEM" */
    uint32_t wpb;                /* "WPB": warps per block */
    uint32_t tpb;                /* threads per block = 32 * wpb */
    uint64_t seed;               /* --seed */
    int device;
    const warplog_header *dev;   /* the device's facts (devinfo) */
    const int *selected;         /* selected[v] != 0: variant v runs */
    void *state;                 /* the family's own (set by setup) */
    int carveout_pct;            /* the carveout the engine sets on kernels: --carveout,
                                    100 in sweeps, or -1: per kernel, the smallest that
                                    keeps its resident blocks (eng_resident_blocks) */
} eng_ctx;

/* One configuration of one variant: its grid and what it moves. */
typedef struct eng_geom {
    uint64_t blocks;             /* grid size (blocks of tpb threads) */
    uint64_t items;              /* work items (threads that do work) */
    uint32_t elem_bytes;         /* bytes one thread loads in a timed load */
    uint32_t loads_per_warp;     /* loads inside one timed region */
    uint32_t bytes_per_warp_load;/* bytes a warp requests per timed region */
    uint32_t stride;             /* elements between neighbouring threads (1) */
    uint32_t records_per_warp;   /* timed regions recorded per warp (1) */
    uint64_t seed;               /* recorded in the log when it matters, else 0 */
    double bytes_read;           /* bytes the kernel asks to read */
    double bytes_written;        /* bytes the kernel asks to write */
    char config[32];             /* parameters for humans: "stride=8", "" */
    char label[24];              /* for file names: "s8" -> NAME_variant-s8_WPB.bin */
    const char *record_covers;   /* what one record's start..end covers */
    int tail_idle;               /* 1: threads t >= items return at once, so the
                                    trailing warps of the last block record nothing */
    uint32_t wpb;                /* warps per block of this variant, when it fixes
                                    its own (a 32 x 32 tile: 32); 0 = the run's WPB */
    double flops;                /* floating-point operations of one launch (0: none) */
} eng_geom;

/* How one kernel is launched. */
typedef struct eng_launch {
    uint64_t blocks;
    uint32_t threads;
    uint32_t smem_bytes;
    uint32_t sample;             /* K: one block in K records (probe kernels) */
    uint32_t sample_offset;      /* ... the one at this offset of its group */
    warp_probe *probes;          /* device array for the probe kernel, else NULL */
    cudaStream_t stream;
} eng_launch;

/* The result of a validation. */
typedef struct eng_check {
    uint64_t checked;            /* items compared */
    uint64_t bad;                /* items that differ from the CPU reference */
    char first[200];             /* the first difference, in words */
} eng_check;

typedef struct eng_variant {
    const char *name;            /* as given to --kernel, in file names */
    const char *about;           /* one line for --list-kernels */
} eng_variant;

typedef struct eng_family {
    const char *name;            /* "readonly": program, log and table names */
    const char *about;           /* what the family measures (--help) */
    const char *const *posnames; /* positional names, e.g. {"N","SMEM","WPB",NULL} */
    const char *const *posdefaults; /* their defaults when all are omitted */
    const eng_variant *variants;
    int nvariants;
    const cli_opt *options;      /* the family's own options (may be NULL) */

    /* Number of configurations of variant v (NULL: 1), e.g. one per --stride. */
    int (*configs)(const eng_ctx *c, int v);
    /* The geometry of configuration cfg of variant v.  0, or -1 with err. */
    int (*geometry)(const eng_ctx *c, int v, int cfg, eng_geom *g, char *err, size_t errlen);
    /* The kernel function of configuration cfg of variant v in mode m
     * (attributes, occupancy, name).  NULL for every mode: the variant is not
     * a kernel (cudaMemcpy): it is validated and timed, never probed.  NULL
     * for ENG_PROBE only: timed, not probed. */
    const void *(*kernel)(int v, int cfg, eng_mode m);
    /* Allocate and fill the inputs of every selected variant (c->state). */
    int (*setup)(eng_ctx *c);
    /* Before configuration cfg of v runs (NULL: nothing). */
    int (*prepare)(eng_ctx *c, int v, int cfg);
    /* Launch v in mode m. */
    int (*launch)(const eng_ctx *c, int v, int cfg, eng_mode m, const eng_launch *L);
    /* Poison what the CHECK launch writes; then, after it, compare. */
    int (*poison)(const eng_ctx *c, int v, int cfg);
    int (*check)(const eng_ctx *c, int v, int cfg, eng_check *r);
    void (*teardown)(eng_ctx *c);
    /* How many leading positionals go together (0: all of them): given all
     * or none; the ones after them may be given one by one. */
    int pos_group;
    /* Which positionals are the data's sizes, when there is no "N": bit i for
     * posnames[i]; n (eng_ctx.n, the summary's n) is their product.  0: the
     * positionals whose name starts with N (N0, N1). */
    unsigned size_pos;
} eng_family;

/* Each family defines exactly one. */
extern const eng_family eng_family_table;

/* The whole program; profile_only: no probes, no logs (PROG_profile). */
int eng_main(const eng_family *f, int argc, char **argv, int profile_only);

/*
 * Validation on every host core: fn(ctx, lo, hi, &first) checks items
 * [lo, hi) against the CPU reference and returns how many differ, with the
 * smallest differing index in *first (UINT64_MAX when none).  Returns the
 * total; *first_bad the smallest over all threads.
 */
uint64_t eng_parallel_check(uint64_t n, uint64_t (*fn)(void *ctx, uint64_t lo, uint64_t hi,
                                                        uint64_t *first),
                            void *ctx, uint64_t *first_bad);

/*
 * Validation of a device array: its n items of elem bytes at dev come back to
 * the host ENG_CHECK_CHUNK bytes at a time through two page-locked buffers
 * (the engine's, allocated on first use and kept for the process), the next
 * chunk's copy running while every core checks this one.  fn is called as
 * with eng_parallel_check, with ctx an eng_chunk: items [lo, hi) are global
 * indices, item i is at chunk->got + (i - chunk->base) * elem.  Returns the
 * sum of what fn returned (the items that differ, or any count a family
 * adds up); *first_bad the smallest index fn reported (UINT64_MAX: none),
 * *err a CUDA error (cudaSuccess when every chunk came back).
 */
#define ENG_CHECK_CHUNK (256ull << 20)
typedef struct eng_chunk {
    const void *got;    /* the chunk's items, back on the host */
    uint64_t base;      /* the index of its first item */
    void *user;         /* the ctx given to eng_check_device */
} eng_chunk;
uint64_t eng_check_device(const void *dev, uint64_t n, size_t elem,
                          uint64_t (*fn)(void *chunk, uint64_t lo, uint64_t hi, uint64_t *first),
                          void *ctx, uint64_t *first_bad, cudaError_t *err);

/*
 * Host memory that validation copies device results into: page-locked where
 * the driver gives it (2 GB come back at the bus's speed, several times the
 * pageable copy's: on the H100 the ceiling's validation was 38 of its 41 s),
 * else malloc.  NULL when neither can.  Free it with eng_host_free.
 */
void *eng_host_alloc(size_t bytes);
void eng_host_free(void *p);

/* Whether the host can spare bytes for a table that only saves time (a CPU
 * reference's inputs or sums): at most half of its available memory.  With
 * overcommit malloc rarely fails, so a table the host cannot hold would be
 * found out by the OOM killer instead; without the table the reference is
 * computed as before. */
int eng_host_room(size_t bytes);

/* Tests only: with WARPLAT_INJECT_WRONG_RESULT=K, 1 on the K-th call of the
 * process (0 the first), else 0.  A family calls it once for each result it
 * is about to check and, on 1, corrupts that result, so that a test can see
 * the check catch it (src/families/ceiling/gpu_validation.sh). */
int eng_inject_wrong_result(void);

/* For geometry hooks: resident blocks per SM of kernel k at the run's block
 * size and SMEM (the engine sets the kernel's shared-memory attributes
 * first), e.g. to size a grid-stride loop's grid to SMs x resident blocks. */
int eng_resident_blocks(const eng_ctx *c, const void *k);

/* %globaltimer read on the device (src/engine/devtime.cu). */
cudaError_t eng_device_globaltimer(uint64_t *ns);

/* For families: a CUDA failure inside a hook they cannot return from.
 * Prints the call and the error, removes temporary logs, exits 1 (fail.c). */
void eng_cuda_fail(const char *file, int line, const char *call, cudaError_t e)
    __attribute__((noreturn));
#define ENG_CUDA(call) do { cudaError_t e_ = (call); \
        if (e_ != cudaSuccess) eng_cuda_fail(__FILE__, __LINE__, #call, e_); } while (0)
/* For hooks that return a CUDA error code (setup, check, ...): the call's
 * error returned from the hook when it fails; the engine reports it. */
#define ENG_TRY(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) return e_; } while (0)

#ifdef __cplusplus
}
#endif
#endif
