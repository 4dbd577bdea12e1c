/*
 * p2p.h - the kernels of ./p2p (src/p2p/main.c): one GPU reading another's
 * memory through peer access.  The pointer chase is the latency ladder's
 * (latency.h); these are the bandwidth kernels.
 *
 * Plain C11: included by gcc (the host driver) and by nvcc (p2p.cu).  Every
 * launcher checks its launch (ENG_CUDA) and exits 1 with CUDA's error.
 * Launches go to the given stream of the current device.
 */
#ifndef P2P_H
#define P2P_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The 32-bit word i of every source buffer: the host computes the same
 * words for its reference. */
#define P2P_WORD(i) ((uint32_t)((uint64_t)(i) * 2654435761u) ^ 0x9e3779b9u)

/* Fill n32 words of d_buf with P2P_WORD(i) (on the device that owns it). */
void p2p_fill(uint32_t *d_buf, uint64_t n32, void *stream);

/* Readonly-style coalesced read: n16 16-byte loads of d_src (any device's
 * memory the current device may access), grid-stride, every word summed
 * into *d_sum (atomicAdd, 64-bit, wrapping) so that no load is dropped. */
void p2p_read(const void *d_src, uint64_t n16, unsigned long long *d_sum, unsigned blocks,
              unsigned threads, void *stream);

/* Copy n16 16-byte words from d_src (peer or local) to d_dst, grid-stride. */
void p2p_copy(void *d_dst, const void *d_src, uint64_t n16, unsigned blocks, unsigned threads,
              void *stream);

#ifdef __cplusplus
}
#endif
#endif /* P2P_H */
