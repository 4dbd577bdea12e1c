/*
 * variants.h - the copy family's one list of variants, in the order of
 * ./copy --list-kernels.  Included by copy.cu (the enum and the engine's
 * table) and by model.c (the sector model's table), each defining X and U:
 *
 *   X(ID, NAME, ABOUT, CFG, CFG_DEFAULT, RULE, GEN, PARAM)   a modelled variant
 *   U(ID, NAME, ABOUT)                                        one without a model
 *
 * ID: the kernels' enum; NAME: --kernel NAME (CUDA kernel copy_NAME);
 * ABOUT: --list-kernels; CFG: what its configuration list means (sf_cfg);
 * CFG_DEFAULT: the model's default list; RULE: its addresses, in one line;
 * GEN: the model's address generator; PARAM: a small constant of the
 * generator (model.c says which).
 */
#ifndef COPY_VARIANTS_H
#define COPY_VARIANTS_H

#include <stdint.h>

#define COPY_STRIDES "1-8,16,32,64,128"
/* --batch: every batch variant has a kernel for each B in 1..COPY_BATCH_MAX
 * (the rolled loop takes any; the unrolled, restrict and int4 ones are
 * instantiated per B); int4 copies B/4 int4, so only the multiples of 4. */
#define COPY_BATCH_MAX 16
static inline int copy_batch_ok(int is_int4, uint64_t B)
{
    return B >= 1 && B <= COPY_BATCH_MAX && (!is_int4 || B % 4 == 0);
}
#define COPY_BATCHES "1,2,4,8"

#define COPY_VARIANTS(X, U)                                                                       \
    X(CP_STRIDE, "stride", "out[t] = in[t*S]: strided 4-byte loads, coalesced stores (--stride)", \
      SF_CFG_STRIDE, COPY_STRIDES, "items N/S: out[t] = in[t*S]", g_copy_stride, 0)              \
    X(CP_STRIDE_STORE, "stride_store",                                                            \
      "out[t*S] = in[t]: coalesced loads, strided 4-byte stores (--stride)", SF_CFG_STRIDE,       \
      COPY_STRIDES, "items N/S: out[t*S] = in[t]", g_copy_stride, 2)                              \
    X(CP_STRIDE16, "stride16", "out4[t] = in4[t*S]: strided 16-byte loads (--stride)",            \
      SF_CFG_STRIDE, COPY_STRIDES, "int4, items (N/4)/S: out4[t] = in4[t*S]", g_copy_stride, 1)   \
    X(CP_BATCH, "batch", "B consecutive elements per thread in a rolled loop (--batch)",          \
      SF_CFG_BATCH, COPY_BATCHES,                                                                 \
      "items N/B: element t*B+k, k = 0..B-1, LDG k then STG k (rolled loop)", g_copy_batch, 0)    \
    X(CP_BATCH_UNROLLED, "batch_unrolled", "the loop unrolled, no __restrict__: LDG and STG interleaved", \
      SF_CFG_BATCH, COPY_BATCHES, "items N/B: element t*B+k, LDG k then STG k (unrolled)",        \
      g_copy_batch, 0)                                                                            \
    X(CP_BATCH_RESTRICT, "batch_restrict", "unrolled with __restrict__: the loads, then the stores", \
      SF_CFG_BATCH, COPY_BATCHES, "items N/B: element t*B+k, the B LDGs, then the B STGs",         \
      g_copy_batch, 1)                                                                            \
    X(CP_INT4, "int4", "B/4 int4 per thread: LDG.E.128 and STG.E.128 (--batch 4, 8, 12, 16)",         \
      SF_CFG_BATCH, "4,8", "items N/B: int4 elements t*(B/4)+j, LDG.E.128/STG.E.128",             \
      g_copy_int4, 0)                                                                             \
    X(CP_GRID_SCALAR, "grid_scalar", "grid-stride loop, 4-byte copies, grid = SMs x resident blocks", \
      SF_CFG_NONE, NULL, "grid-stride loop over N elements", g_copy_grid, 1)                     \
    X(CP_GRID_VECTOR2, "grid_vector2", "grid-stride loop of int2 (LDG.E.64), any N", SF_CFG_NONE, \
      NULL, "grid-stride loop over N/2 int2, then N mod 2 scalars by the first threads",          \
      g_copy_grid, 2)                                                                             \
    X(CP_GRID_VECTOR4, "grid_vector4", "grid-stride loop of int4 (LDG.E.128), any N", SF_CFG_NONE, \
      NULL, "grid-stride loop over N/4 int4, then N mod 4 scalars by the first threads",          \
      g_copy_grid, 4)                                                                             \
    X(CP_VECTOR2, "vector2", "one int2 per thread, the remainder by one more thread", SF_CFG_NONE, \
      NULL, "one int2 per thread, plus the remainder thread", g_copy_vector, 2)                   \
    X(CP_VECTOR4, "vector4", "one int4 per thread, the remainder by one more thread", SF_CFG_NONE, \
      NULL, "one int4 per thread, plus the remainder thread", g_copy_vector, 4)                   \
    U(CP_MEMCPY, "memcpy", "cudaMemcpyAsync device to device: the runtime's copy")

#endif
