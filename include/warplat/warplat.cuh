/*
 * warplat.cuh - probe your own CUDA kernel: the device side.
 *
 * Mark a region around one or more global loads:
 *
 *   template <class W> __global__ void k(const float *x, float *y, W wl)
 *   {
 *       const float *p = warplat_pin(x + i);      // address math before the clock
 *       warplat_t t = warplat_begin(wl);          // timer, clock
 *       float v = *p;                              // the load(s) ...
 *       warplat_end(wl, 0, t, v);                  // ... first use, clock, record
 *       y[i] = 2 * v;
 *   }
 *   k<<<g, b>>>(x, y, warplat_off());              // clean launch: no probe code
 *   k<<<g, b>>>(x, y, dev);                        // probed launch (warplat.h)
 *
 * One source, two kernels: with warplat_off() the begin/end calls compile to
 * nothing, so the clean launch is your kernel as it ships, and warplat_time
 * (warplat.h) measures what the probes cost against it.
 *
 * What a region records (one 16-byte probe, in the log a 32-byte record):
 *   - warplat_begin reads the SM clock in every block (one instruction that
 *     depends on nothing, so the load is not held back) and keeps its low
 *     word, one register, across the region;
 *   - warplat_end decides whether this block records, one block in K (the
 *     device view's mask/offset): ((block ^ offset) & mask) == 0, one LOP3;
 *     the other blocks branch past the rest, without waiting for the value;
 *   - in a recording block: the first use of the loaded value, the SM clock
 *     after it, %globaltimer (so a version-3 record's timer is the end's)
 *     and %smid;
 *   - stored by lane 0 of the warp with one 16-byte store, at index
 *       ((block >> log2 K) * warps_per_block + warp) * nregions + region,
 *     so a region that a warp runs several times (a loop) keeps its last pass,
 *     and a region lane 0 does not run (divergent code) records nothing.
 *     Keep regions warp-uniform.
 *
 * Why the reads are ordered as they are (the same probes as the toolkit's
 * families, instrument/probe.cuh; docs/your-kernel.md shows the SASS):
 *   - every clock read is `asm volatile` with a "memory" clobber: nvcc may
 *     neither delete nor merge it, nor move a global load or store across it;
 *   - a load does not block; the warp stalls at the first instruction that
 *     reads the loaded register.  warplat_end makes that instruction a
 *     volatile store of the value's first 32-bit word to shared memory:
 *     ptxas moves ALU instructions across clock reads (an add landed after
 *     the end clock with nvcc 13.0) but keeps memory instructions in place,
 *     so the wait for the data stays inside the region;
 *   - address arithmetic computed before warplat_begin and pinned with
 *     warplat_pin() stays ahead of the first clock read (an empty volatile
 *     asm that takes the pointer in and out).
 *
 * Grids and blocks may have up to 3 dimensions: block and thread ids are
 * linearised x-fastest.  The log stores blockIdx as that linear id.
 */
#ifndef WARPLAT_CUH
#define WARPLAT_CUH

#include <stdint.h>
#include <string.h>
#include "warplat.h"

/*
 * What warplat_begin hands to warplat_end: one 32-bit register, live across
 * the region.  Why no more: a region may hold a loop, and every register the
 * probe keeps live is one the compiler takes from the loop's loads in
 * flight.  On the H100 the CSR example cost 5.6 % with a 64-bit clock, the
 * timer, the SM id and the decision kept live (5 registers), 2.8 % with the
 * clock's and the timer's low words (2 registers).  So the SM id (a block
 * never moves), the decision and %globaltimer are all taken at the end: the
 * record's timer is the end's (warplog.h says so of version-3 logs).
 */
struct warplat_t {
    uint32_t t0;      /* %clock64's low word before the load */
};

/* The clean launch's view: every probe call compiles to nothing. */
struct warplat_off_t {};
static __host__ __device__ __forceinline__ warplat_off_t warplat_off(void) { return warplat_off_t(); }

static __device__ __forceinline__ uint64_t warplat_clock64(void)
{
    uint64_t c;
    /* memory clobber: no global load or store moves across the read */
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) : : "memory");
    return c;
}

static __device__ __forceinline__ uint64_t warplat_globaltimer(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
    return t;
}

static __device__ __forceinline__ uint32_t warplat_smid(void)
{
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* Linear block and thread ids (x fastest). */
static __device__ __forceinline__ uint32_t warplat_block_id(void)
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
static __device__ __forceinline__ uint32_t warplat_thread_id(void)
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* Keep the computation of p ahead of the next clock read: the compiler must
 * have p before this empty volatile asm, and volatile asms keep their order.
 * The asm hides where p points, so we say again that it is global memory
 * (else nvcc emits a generic LD instead of LDG). */
template <typename T>
static __device__ __forceinline__ T *warplat_pin(T *p)
{
    asm volatile("" : "+l"(p));
    __builtin_assume(__isGlobal(p));
    return p;
}

/* The first use of the loaded value: a volatile store of its first word to
 * shared memory (the scoreboard wait happens here, before the end clock). */
static __device__ __forceinline__ void warplat_use_u32(uint32_t v)
{
    __shared__ uint32_t warplat_sink;
    asm volatile("st.volatile.shared.u32 [%0], %1;"
                 :
                 : "r"((uint32_t)__cvta_generic_to_shared(&warplat_sink)), "r"(v)
                 : "memory");
}

/* The first 32-bit word of any loaded value (float, int, float4, double...):
 * a vector load has one scoreboard, so waiting for one word waits for all. */
template <typename T>
static __device__ __forceinline__ uint32_t warplat_word(const T &v)
{
    static_assert(sizeof(T) >= 4, "warplat_end: the value must be at least 32 bits");
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}

/*
 * Start a region: the clock, in every block.
 *
 * Why the reads are not behind the sampling decision: the load that follows
 * may not issue before the clock read (volatile asms keep their order), and
 * a clock read predicated on the decision waits for the block id, and so
 * for blockIdx.z and gridDim from the constant bank.  Measured on the H100,
 * that wait before every block's first load cost 6.2 % in the tiled
 * transpose even when one block in 65536 recorded.  Unconditional, the read
 * issues at once and depends on nothing; warplat_end, after the region,
 * takes the decision.
 */
static __device__ __forceinline__ warplat_t warplat_begin(const warplat_dev &w)
{
    (void)w;
    warplat_t t;
    t.t0 = (uint32_t)warplat_clock64();
    return t;
}

/*
 * End region `region` (0 .. nregions-1, as named on the host) whose load
 * produced `value`: does this block record (one block in K, one LOP3)?  If
 * so: first use of the value, end clock, %globaltimer, and lane 0 stores the
 * probe (start clock low word, 24-bit latency | smid << 24, timer low word,
 * linear block id) with one 16-byte store.
 */
template <typename T>
static __device__ __forceinline__ void warplat_end(const warplat_dev &w, uint32_t region,
                                                   const warplat_t &t, const T &value)
{
    const uint32_t blk = warplat_block_id();
    if (((blk ^ w.offset) & w.mask) != 0) return;
    warplat_use_u32(warplat_word(value));
    const uint32_t t1 = (uint32_t)warplat_clock64();
    const uint32_t gt1 = (uint32_t)warplat_globaltimer();
    const uint32_t tid = warplat_thread_id();
    /* only the grid and the block the host declared record: a larger
     * launch, or a region id past the named ones, writes nothing */
    if ((tid & 31) == 0 && region < w.nregions && w.probes && blk < w.blocks && (tid >> 5) < w.wpb) {
        const uint64_t idx = ((uint64_t)(blk >> w.shift) * w.wpb + (tid >> 5)) * w.nregions + region;
        const uint32_t lat = t1 - t.t0;   /* modulo 2^32: a region is shorter than 2 s */
        const uint32_t lat24 = lat > 0x00ffffffu ? 0x00ffffffu : lat;
        *reinterpret_cast<uint4 *>(w.probes + 4 * idx) =
            make_uint4(t.t0, lat24 | (warplat_smid() << 24), gt1, blk);
    }
}

/* The clean launch: nothing at all. */
static __device__ __forceinline__ warplat_t warplat_begin(const warplat_off_t &)
{
    warplat_t t;
    t.t0 = 0;
    return t;
}
template <typename T>
static __device__ __forceinline__ void warplat_end(const warplat_off_t &, uint32_t, const warplat_t &,
                                                   const T &)
{
}

#endif /* WARPLAT_CUH */
