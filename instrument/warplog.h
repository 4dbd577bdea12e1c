/*
 * warplog.h - the on-disk and device-to-host contract of the toolkit.
 *
 * Data flows one way:
 *
 *   kernel --(warp_probe, 16 B, one per warp)--> host expands to warp_record
 *          --(warplog_writer: gzip stream)--> data/<experiment>_<kernel>_<wpb>.bin
 *          --(warplog_reader)--> analysis tools
 *
 * This header is plain C11 and is also included by CUDA code, so both sides
 * agree on every size and offset; the sizes are asserted at compile time.
 *
 * File layout (the whole file is one gzip stream, so `zcat FILE` works):
 *
 *   warplog_header                      (WARPLOG_HEADER_BYTES, little-endian)
 *   chunk*                              (until the end of the stream)
 *
 *   chunk = uint32 magic WARPLOG_CHUNK_MAGIC, uint32 nrec (1..chunk_records),
 *           then nrec records stored column by column and byte-plane by
 *           byte-plane (see warplog_int.h, "chunk encoding"), which is what lets
 *           deflate squeeze a record into a few bytes.  The decoded records
 *           are exactly the warp_record structs the writer was given.
 *
 * The reader accepts a file only if the magic, version, header and record
 * sizes match, the header's values are possible (warplog_header_check), every
 * chunk is well formed, the file is exactly one complete gzip stream (no
 * second member, nothing after it) and the records add up to
 * header.record_count.
 *
 * Bounds.  Whatever a file says, a reader holds at most
 * WARPLOG_READER_MAX_BYTES: the largest chunk it accepts is
 * WARPLOG_MAX_CHUNK_RECORDS records (40 bytes each while decoded), and it
 * allocates for the chunks it meets, not for what the header promises.
 * Per-SM state of the tools is sized by sm_count <= WARPLOG_MAX_SM_COUNT.
 */
#ifndef WARPLOG_H
#define WARPLOG_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WARPLOG_MAGIC        "WARPLOG"   /* 7 chars + NUL = 8 bytes */
#define WARPLOG_VERSION      2u      /* 1: every warp recorded; 2: sampled blocks */
#define WARPLOG_VERSION_REGIONS 3u   /* 3: named regions (a user's kernel, warplat.h) */
#define WARPLOG_VERSION_MAX  3u      /* the newest version this build reads */
#define WARPLOG_MAX_REGIONS  16u     /* named regions in one log (version 3) */
#define WARPLOG_REGION_NAME_BYTES 16u /* per name, NUL included */
#define WARPLOG_HEADER_BYTES 1024u
#define WARPLOG_CHUNK_MAGIC  0x4b4e4843u /* "CHNK" little-endian */
#define WARPLOG_CHUNK_RECORDS 65536u     /* writer's default records per chunk */
#define WARPLOG_TOOLKIT_VERSION "0.1.0"

#if defined(__cplusplus)
#define WARPLOG_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define WARPLOG_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif

/*
 * What the kernel writes: one 16-byte probe per recorded warp (and timed
 * region, when a warp has several), stored by lane 0 with a single 16-byte
 * store.  Only the warps of one block in K are recorded (K =
 * header.sample_blocks, a power of two, 1 = all; which block of each group
 * of K: header.sample_offset, see warplog_block_sampled), at index
 *     ((blockIdx.x / K) * warps_per_block + warp) * records_per_warp + r.
 * It is kept this small because every byte a warp writes lengthens its life
 * (the warp holds its slot until its stores drain) and costs DRAM write
 * bandwidth: on the H100 a 32-byte record per warp slowed the baseline kernel
 * by 20%.  Validation is never done by the recording launch.
 *
 *   start_lo     low 32 bits of %clock64, read just before the timed load
 *   lat_smid     bits 0..23: end - start in cycles, saturated at
 *                WARP_PROBE_LAT_MAX; bits 24..31: %smid
 *   gtimer_lo    low 32 bits of %globaltimer (ns), read just before start
 *                (the probe API, include/warplat/warplat.cuh, reads it just
 *                after the end clock: one register less live in the region)
 *   block        blockIdx.x of the warp
 */
typedef struct warp_probe {
    uint32_t start_lo;
    uint32_t lat_smid;
    uint32_t gtimer_lo;
    uint32_t block;
} warp_probe;

#define WARP_PROBE_LAT_MAX 0x00ffffffu
#define WARP_PROBE_MAX_SMS 256u

/*
 * What a header may say (warplog_header_check; the reader refuses anything
 * else, the writer will not write it).  The limits are far beyond any GPU
 * and exist so that no value read from a file can size memory or turn a
 * conversion into inf: a probe's smid has 8 bits, a block at most 1024
 * threads, and so on.  Doubles must be finite and not denormal; 0 means
 * "not measured" where a field allows it.
 */
#define WARPLOG_MAX_CHUNK_RECORDS    (1u << 17) /* records in one chunk (writer default 65536) */
#define WARPLOG_MAX_SM_COUNT         WARP_PROBE_MAX_SMS /* sm_count: 1 .. this */
#define WARPLOG_MAX_WARPS_PER_BLOCK  32u        /* warps_per_block: 1 .. this (1024 threads) */
#define WARPLOG_MAX_BLOCKS_PER_SM    2048u      /* blocks_per_sm: 0 (unknown) .. this */
#define WARPLOG_MAX_RECORDS_PER_WARP 65536u     /* records_per_warp: 1 .. this */
#define WARPLOG_MIN_CLOCK_MHZ        1.0        /* sm_clock_measured_MHz: 0 or this .. MAX */
#define WARPLOG_MAX_CLOCK_MHZ        1e5
#define WARPLOG_MAX_MS               1e9        /* kernel_ms* (and overhead_pct) */
#define WARPLOG_MAX_BYTES            1e18       /* useful_bytes, bytes_written */
#define WARPLOG_MAX_GBPS             1e7        /* peak_dram_GBps, bw_GBps, ceiling_GBps */
/* The most a reader allocates: the decoded chunk (40 B a record), its input
 * and byte-plane buffers (64 KiB each) and inflate's state (< 64 KiB). */
#define WARPLOG_READER_MAX_BYTES     (40u * WARPLOG_MAX_CHUNK_RECORDS + (256u << 10))

#if defined(__CUDACC__)
#define WARPLOG_HD __host__ __device__ __forceinline__
#else
#define WARPLOG_HD static inline
#endif

/*
 * Which blocks record (header.sample_blocks = K, a power of two, and
 * header.sample_offset = o < K): the grid is cut into groups of K consecutive
 * blocks, and in every group the block at offset o records.  So exactly one
 * block in K records, the probes stay a dense array indexed by the group, and
 * the kernel decides with one instruction, ((blockIdx ^ o) & (K - 1)) == 0:
 * every instruction on the path to the load of every warp shows in the
 * overhead (a 5-instruction hash cost 2-3% at 16+ warps per block on the H100).
 * The run picks o from its seed.  Measured on the H100, offset 0 and a hashed
 * offset per group gave the same latency percentiles (within 1%).
 */
WARPLOG_HD int warplog_block_sampled(uint32_t block, uint32_t K, uint32_t offset)
{
    return ((block ^ offset) & (K - 1)) == 0;
}

/* How many of `blocks` blocks record: every full group has its recorder; the
 * last, partial group only if the offset falls inside it.  The probe array
 * holds this many blocks' warps. */
WARPLOG_HD uint64_t warplog_sampled_blocks(uint64_t blocks, uint32_t K, uint32_t offset)
{
    const uint64_t full = blocks / K, rem = blocks % K;
    return full + ((offset & (K - 1)) < rem ? 1 : 0);
}

/*
 * What the log holds: one record per recorded warp (and timed region), in
 * launch order (block, warp, region); with sampling (header.sample_blocks =
 * K > 1) only one block of each group of K appears (warplog_block_sampled).
 * Clock values are SM cycles: compare them only between records with the same
 * smid.  gtimer_ns is the device-wide %globaltimer, comparable across SMs.
 *
 * warp and region share what versions 1 and 2 wrote as one 16-bit warp field
 * (little-endian, warp < 32): the region byte of those files is 0, so they
 * read unchanged.  A version-3 log (header.region_count > 0) gives each
 * record the region (0 .. region_count-1) whose begin..end it timed.
 */
typedef struct warp_record {
    uint64_t start_clk;  /* SM clock before the load, cycles */
    uint64_t end_clk;    /* SM clock after the first use of the loaded value */
    uint64_t gtimer_ns;  /* %globaltimer just before start_clk, ns (version 3: after end_clk) */
    uint32_t block;      /* blockIdx.x */
    uint8_t  warp;       /* warp index inside the block (< 32) */
    uint8_t  region;     /* version 3: index into header.region_names; else 0 */
    uint16_t smid;       /* %smid */
} warp_record;

WARPLOG_STATIC_ASSERT(sizeof(warp_record) == 32, "warp_record must be 32 bytes");
WARPLOG_STATIC_ASSERT(offsetof(warp_record, block) == 24, "warp_record layout");
WARPLOG_STATIC_ASSERT(offsetof(warp_record, region) == 29, "warp_record layout");
WARPLOG_STATIC_ASSERT(offsetof(warp_record, smid) == 30, "warp_record layout");

/*
 * The self-describing header.  Fixed size, natural alignment everywhere, the
 * tail reserved (zero) for later versions.  Strings are NUL-terminated.
 * Units are in the field names.
 */
typedef struct warplog_header {
    /* --- format ------------------------------------------------------ 32 B */
    char     magic[8];              /* WARPLOG_MAGIC */
    uint32_t version;               /* WARPLOG_VERSION */
    uint32_t header_bytes;          /* WARPLOG_HEADER_BYTES */
    uint32_t record_bytes;          /* sizeof(warp_record) */
    uint32_t chunk_records;         /* most records in one chunk */
    uint64_t record_count;          /* records in the file */

    /* --- experiment -------------------------------------------------- 136 B */
    char     experiment[32];        /* "readonly", "latency", ... */
    char     kernel[32];            /* variant: "baseline", "float4", ... */
    uint64_t n_elems;               /* N: elements of the array (floats) */
    uint64_t blocks;                /* grid size */
    uint64_t seed;                  /* RNG seed (random_access), else 0 */
    uint32_t elem_bytes;            /* bytes one thread loads in the timed load */
    uint32_t smem_bytes;            /* dynamic shared memory per block */
    uint32_t warps_per_block;
    uint32_t threads_per_block;
    uint32_t blocks_per_sm;         /* resident blocks per SM (occupancy API) */
    uint32_t bytes_per_warp_load;   /* bytes a warp requests per timed load */
    uint32_t stride;                /* elements between neighbouring threads */
    int32_t  carveout_pct;          /* shared-memory carveout asked for */
    uint32_t l2_fetch_bytes;        /* cudaLimitMaxL2FetchGranularity, 0 = default */
    uint32_t reps;                  /* timed repetitions */
    uint32_t loads_per_warp;        /* timed loads per warp (1 for readonly) */
    uint32_t reserved0;

    /* --- device ------------------------------------------------------ 168 B */
    char     device_name[96];
    int32_t  device_ordinal;
    int32_t  cc_major;
    int32_t  cc_minor;
    int32_t  sm_count;
    uint32_t l2_bytes;
    uint32_t bus_width_bits;
    uint32_t mem_clock_khz;         /* cudaDevAttrMemoryClockRate */
    uint32_t sm_clock_nominal_khz;  /* cudaDevAttrClockRate (the maximum) */
    uint32_t max_threads_per_sm;
    uint32_t max_smem_per_sm;       /* bytes */
    uint32_t max_smem_optin_per_block; /* bytes */
    uint32_t reserved_smem_per_block;  /* bytes the runtime keeps per block */
    int32_t  driver_version;
    int32_t  runtime_version;
    double   peak_dram_GBps;        /* 2 * mem_clock * bus_width / 8 */
    double   sm_clock_measured_MHz; /* SM clock during the run (from records) */

    /* --- timing ------------------------------------------------------ 64 B */
    double   kernel_ms;             /* instrumented kernel (wrote these records), median of reps */
    double   kernel_ms_min;
    double   kernel_ms_max;
    double   clean_kernel_ms;       /* the clean twin (no probes), median; 0 if not run */
    double   useful_bytes;          /* bytes the kernel asked to read */
    double   bw_GBps;               /* (useful_bytes + bytes_written) / clean_kernel_ms
                                       (version 1: useful_bytes / kernel_ms) */
    uint64_t gtimer_base_ns;        /* %globaltimer read just before the launch */
    uint64_t unix_time_s;           /* when the run was made */

    /* --- provenance -------------------------------------------------- 64 B */
    char     date[32];              /* ISO 8601 UTC, e.g. 2026-11-22T21:40:00Z */
    char     toolkit_version[16];
    char     host_arch[16];         /* sm_90, ... the code was built for */

    /* --- version 2: sampling, the clean twin, what a record covers --- 208 B
     * A version-1 file reads as sample_blocks = records_per_warp = 1 and
     * zeros elsewhere. */
    uint32_t sample_blocks;         /* K: one block in K is recorded (1 = all) */
    uint32_t records_per_warp;      /* timed regions recorded per warp (1) */
    double   clean_kernel_ms_min;
    double   clean_kernel_ms_max;
    double   overhead_pct;          /* 100 * (kernel_ms / clean_kernel_ms - 1) */
    double   bytes_written;         /* bytes the kernel asked to write */
    double   ceiling_GBps;          /* measured achievable DRAM bandwidth; 0 unknown */
    uint64_t sampled_blocks;        /* blocks recorded: ceil(blocks / sample_blocks) */
    char     record_covers[64];     /* what one record's start..end covers */
    char     config[32];            /* the variant's parameters: "stride=8", "" */
    uint32_t sample_offset;         /* which block of each group of K records */
    uint32_t reserved1;
    char     device_uuid[48];       /* "GPU-1ab6f806-59e0-1d99-da3f-a7d19c88934d" */

    /* --- version 3: named regions (warplat.h) ---------------------- 328 B
     * Versions 1 and 2 read as region_count = 0 (their tail was zero).  With
     * region_count > 0, records_per_warp = region_count and a record's region
     * field indexes region_names. */
    uint32_t region_count;          /* 0, or 1 .. WARPLOG_MAX_REGIONS */
    uint32_t reserved2;
    char     region_names[WARPLOG_MAX_REGIONS][WARPLOG_REGION_NAME_BYTES];
    uint32_t region_bytes_per_warp[WARPLOG_MAX_REGIONS]; /* bytes a warp loads in one
                                       pass of the region (user's word), 0 unknown */

    uint8_t  reserved[WARPLOG_HEADER_BYTES - 32 - 136 - 168 - 64 - 64 - 208 - 328];
} warplog_header;

WARPLOG_STATIC_ASSERT(sizeof(warplog_header) == WARPLOG_HEADER_BYTES,
                      "warplog_header must be WARPLOG_HEADER_BYTES");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, experiment) == 32, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, device_name) == 168, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, kernel_ms) == 336, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, date) == 400, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, sample_blocks) == 464, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, record_covers) == 520, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, sample_offset) == 616, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, device_uuid) == 624, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, region_count) == 672, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, region_names) == 680, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, region_bytes_per_warp) == 936, "header layout");
WARPLOG_STATIC_ASSERT(offsetof(warplog_header, reserved) == 1000, "header layout");

/*
 * Expand one device probe into a record.  The kernel keeps the low 32 bits of
 * the SM clock; start_clk is rebuilt as 2^32 + ref + (int32)(lo - ref) where
 * ref is the low word of the first probe of the same SM (sm_ref_lo[smid], set
 * from this probe when sm_seen[smid] is 0).  Differences between records of
 * one SM are exact as long as they are under 2^31 cycles (about a second);
 * the absolute value means nothing, as clocks of different SMs never did.
 * index is the probe's position in the probe array: the warp inside its
 * block is (index / records_per_warp) % warps_per_block; the block comes
 * from the probe itself.
 */
void warplog_expand_probe(const warp_probe *p, uint64_t index, uint32_t warps_per_block,
                          uint32_t records_per_warp, uint64_t gtimer_base_ns,
                          uint32_t *sm_ref_lo, uint8_t *sm_seen, warp_record *out);

/* Fill magic, version, sizes and toolkit version; zero everything else
 * (sm_count and warps_per_block must then be set before writing). */
void warplog_header_init(warplog_header *h);

/* Are the header's values possible (the limits above; strings terminated
 * and free of control characters; the experiment and the kernel names
 * (warplog_name_check); sample_blocks a power of two above sample_offset;
 * version 3: 1..16 regions, each a name (warplog_name_check) no other
 * region has, records_per_warp = region_count; versions 1-2: region_count 0)?  0, or -1 with the first problem in err as a phrase that
 * names the field ("sm_count is 0; it must be between 1 and 256"). */
int warplog_header_check(const warplog_header *h, char *err, size_t errlen);

/*
 * The one rule for a name that comes from a user or a log: the experiment,
 * the kernel and every region (the API, include/warplat/warplat.h, and the
 * reader apply it; nothing else may).  1 to max characters of
 * [A-Za-z0-9_.-], not starting with '.': so a name is data, never a path
 * (no '/', never "." or "..", never a hidden file) nor code (no quote,
 * space, newline, backslash, '$' or '(' for a script or gnuplot to
 * interpret).  max: WARPLOG_REGION_NAME_MAX for a region,
 * WARPLOG_NAME_MAX for the experiment and the kernel.  0, or -1 with the
 * reason in err as a phrase that names `what` ("region_names[0] \"/x\"
 * holds '/' at byte 0; a name is 1 to 15 characters of [A-Za-z0-9_.-], not
 * starting with '.'").
 */
#define WARPLOG_NAME_MAX        31u  /* experiment, kernel (their fields hold 32 bytes) */
#define WARPLOG_REGION_NAME_MAX (WARPLOG_REGION_NAME_BYTES - 1u)
int warplog_name_check(const char *what, const char *name, size_t max, char *err, size_t errlen);

/* Print the header as "# key<TAB>value" lines (prefix "# "), or as plain
 * "key<TAB>value" when prefix is "".  A version-3 header adds region_count
 * and one "region_<i><TAB>name" line per region.  Used by `warplog info` and by every
 * tool that writes a TSV, so their metadata lines agree. */
void warplog_header_print(FILE *f, const warplog_header *h, const char *prefix);

/* ---------------------------------------------------------------- writer */

typedef struct warplog_writer warplog_writer;

/*
 * Open PATH for writing.  The log is written to PATH.tmp and renamed onto
 * PATH by warplog_writer_close() only when every record promised by
 * h->record_count was written: an interrupted or failed run leaves no
 * half-written log.  level is the zlib level (1 = fast; 0 means default 1).
 * A header that warplog_header_check refuses is not written.  Returns NULL
 * and fills err (a sentence) on failure.
 */
warplog_writer *warplog_writer_open(const char *path, const warplog_header *h,
                                    int level, char *err, size_t errlen);
/* Append n records.  0 on success, -1 on failure (err filled). */
int warplog_writer_put(warplog_writer *w, const warp_record *r, size_t n,
                       char *err, size_t errlen);
/* Finish: 0 and the file exists at its path; -1 and no file (err filled). */
int warplog_writer_close(warplog_writer *w, char *err, size_t errlen);
/* Give up: remove the temporary file. */
void warplog_writer_abort(warplog_writer *w);

/* ---------------------------------------------------------------- reader */

typedef struct warplog_reader warplog_reader;

/*
 * Open PATH and read its header.  Returns NULL with a sentence in err when
 * the file is missing, a directory, not gzip, has the wrong magic or an
 * unknown version, or a header warplog_header_check refuses.  Memory use is
 * bounded (WARPLOG_READER_MAX_BYTES) whatever the file says.
 */
warplog_reader *warplog_reader_open(const char *path, char *err, size_t errlen);
/* The same for a log held in memory (buf[0..len), which must outlive the
 * reader); name is used in messages.  For tests and fuzzing. */
warplog_reader *warplog_reader_open_mem(const void *buf, size_t len, const char *name,
                                        char *err, size_t errlen);
const warplog_header *warplog_reader_header(const warplog_reader *r);
/*
 * Read up to max records into out.  Returns the number read (> 0), 0 at the
 * clean end of the log, or -1 on error (truncated, corrupt, data after the
 * gzip stream, record count that disagrees with the header; err filled).
 * Records are returned as decoded: their smid, block and warp are not
 * checked against the header (warplog check does that).
 */
long warplog_reader_next(warplog_reader *r, warp_record *out, size_t max,
                         char *err, size_t errlen);
/*
 * Borrow the next decoded chunk without copying: *recs points into the
 * reader's buffer until the next call.  Same return values as _next.
 */
long warplog_reader_chunk(warplog_reader *r, const warp_record **recs,
                          char *err, size_t errlen);
void warplog_reader_close(warplog_reader *r);

#ifdef __cplusplus
}
#endif
#endif /* WARPLOG_H */
