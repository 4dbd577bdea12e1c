/*
 * probe.cuh - device-side probes: the SM clock, the SM id, the global timer,
 * and the "use" that ends a timed region.
 *
 * Why inline PTX rather than clock64()/__nanosleep-style intrinsics: each probe
 * is `asm volatile` so the compiler neither deletes it nor merges two reads,
 * and the "memory" clobber on the clock reads stops nvcc from moving loads or
 * stores of global memory across them (a load hoisted above the first clock
 * read, or a store sunk below the last one, would fall outside the timed
 * region).  ptxas keeps the order of these reads relative to memory
 * instructions; the SASS excerpt in docs/sass.md shows it for every kernel.
 *
 * A load does not block: the warp stalls only at the first instruction that
 * reads the loaded register.  probe_use_f32 is that instruction.  It is an
 * add of +0.0 in inline PTX, so it cannot be folded away (x + 0.0 is not an
 * identity for x = -0.0), and its result feeds the kernel's checksum, so it is
 * not dead code.  The end clock is read after it in program order; warps issue
 * in order, so the end clock cannot be read before the data has arrived.
 */
#ifndef PROBE_CUH
#define PROBE_CUH

#include <stdint.h>
#include "warplog.h"

static __device__ __forceinline__ uint64_t probe_clock64(void)
{
    uint64_t c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) : : "memory");
    return c;
}

static __device__ __forceinline__ uint32_t probe_smid(void)
{
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

static __device__ __forceinline__ uint64_t probe_globaltimer(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
    return t;
}

/* The first use of a loaded value: forces the scoreboard wait here. */
static __device__ __forceinline__ float probe_use_f32(float v)
{
    float r;
    asm volatile("add.f32 %0, %1, 0f00000000;" : "=f"(r) : "f"(v));
    return r;
}

/*
 * The first use of a loaded value as a memory instruction: a volatile store to
 * shared memory.  ptxas schedules ALU instructions across clock reads (seen
 * with nvcc 13.0: an add of the chased pointer landed after the end clock), but
 * keeps memory instructions in place relative to them, as every LDG between
 * two CS2R reads in this toolkit shows; so this use stays inside the region.
 * tests/gpu/sass.sh checks it in the SASS of every timed kernel.
 */
static __device__ __forceinline__ void probe_consume_shared(uint32_t v)
{
    __shared__ uint32_t probe_sink;
    asm volatile("st.volatile.shared.u32 [%0], %1;"
                 :
                 : "r"((uint32_t)__cvta_generic_to_shared(&probe_sink)), "r"(v)
                 : "memory");
}

/* Pack one warp's probe; lane 0 of the warp stores it with one 16-byte store. */
static __device__ __forceinline__ void probe_store(warp_probe *dst, uint64_t t0, uint64_t t1,
                                                   uint64_t gt0, uint32_t smid, float checksum)
{
    const uint64_t lat = t1 - t0;
    const uint32_t lat24 = lat > WARP_PROBE_LAT_MAX ? WARP_PROBE_LAT_MAX : (uint32_t)lat;
    *reinterpret_cast<uint4 *>(dst) =
        make_uint4((uint32_t)t0, lat24 | (smid << 24), (uint32_t)gt0, __float_as_uint(checksum));
}

#endif /* PROBE_CUH */
