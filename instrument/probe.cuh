/*
 * probe.cuh - the device-side probes of the toolkit's own kernels (the
 * families through engine.cuh's ENG_TIMED_*, the ladder, the engine's timer
 * read): the SM clock, the SM id and the global timer are the probe API's
 * primitives (include/warplat/warplat.cuh), so that one probe is written
 * once; what is added here is the families' ALU "use" (probe_use_f32).
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
#include "warplat/warplat.cuh"
#include "warplog.h"

/* The reads are the probe API's (warplat.cuh), written once. */
static __device__ __forceinline__ uint64_t probe_clock64(void) { return warplat_clock64(); }
static __device__ __forceinline__ uint32_t probe_smid(void) { return warplat_smid(); }
static __device__ __forceinline__ uint64_t probe_globaltimer(void) { return warplat_globaltimer(); }

/* The first use of a loaded value: forces the scoreboard wait here. */
static __device__ __forceinline__ float probe_use_f32(float v)
{
    float r;
    asm volatile("add.f32 %0, %1, 0f00000000;" : "=f"(r) : "f"(v));
    return r;
}

/*
 * The first use of a loaded value as a memory instruction: a volatile store to
 * shared memory (warplat_use_u32, the probe API's use).  ptxas schedules ALU
 * instructions across clock reads (seen with nvcc 13.0: an add of the chased
 * pointer landed after the end clock), but keeps memory instructions in place
 * relative to them, as every LDG between two CS2R reads in this toolkit shows;
 * so this use stays inside the region.  tests/gpu/sass.sh checks it in the
 * SASS of every timed kernel.
 */
static __device__ __forceinline__ void probe_consume_shared(uint32_t v) { warplat_use_u32(v); }

#endif /* PROBE_CUH */
