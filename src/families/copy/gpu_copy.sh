#!/usr/bin/env bash
# The copy family on the GPU: the vector copies are right for every N mod 4,
# a misaligned base is refused with a sentence (never a crash), and the
# summary holds cudaMemcpy beside the kernels.
source "$(dirname "$0")/../../../tests/lib.sh"
require_gpu
require_bin copy bin/tsv
for n in 1048576 1048577 1048578 1048579; do
    expect_exit 0 ./copy "$n" 0 4 --kernel grid_scalar,grid_vector2,grid_vector4,vector2,vector4,memcpy \
        --reps 2 --warmup 1 --out "$TMP/v$n" --table "$TMP/v$n.tsv" -q
    ok=$(bin/tsv get "$TMP/v$n.tsv" valid --where valid=ok | wc -l)
    [ "$ok" = 6 ] || fail "N = $n (N mod 4 = $((n % 4))): $ok of 6 vector copies valid"
done
expect_exit 2 ./copy 1e6 0 4 --kernel vector4 --offset 1 --out "$TMP/m"
expect_says "need aligned addresses"
expect_exit 2 ./copy 1e6 0 4 --kernel vector2 --offset 3 --out "$TMP/m"
expect_says "need aligned addresses"
# a scalar copy of a misaligned base is fine
expect_exit 0 ./copy 1e6 0 4 --kernel grid_scalar,batch --batch 4 --offset 1 --reps 2 --out "$TMP/m" -q
done_testing
