#!/usr/bin/env bash
# What lab 000 (part II) and 004 say of the copy kernels' machine code,
# asserted: the rolled batch loop keeps a loop (a backward branch) that the
# unrolled one does not; without __restrict__ the unrolled loads and stores
# interleave (each load waits for the store before it), with it the loads are
# grouped before the stores; int4 moves 16 bytes per instruction, one
# LDG.E.128 and one STG.E.128 per 4 elements; the vector copies use 8- and
# 16-byte accesses.  Checked on ./copy when cuobjdump exists, else on the
# committed H100 listing.
source "$(dirname "$0")/../lib.sh"
require_bin bin/sass_check
if command -v cuobjdump >/dev/null 2>&1 && [ -x ./copy ]; then
    S=$TMP/copy.sass
    cuobjdump -sass ./copy >"$S" 2>/dev/null || fail "cuobjdump -sass ./copy failed"
elif [ -f data/reference/h100/sass_copy.txt ]; then
    S=data/reference/h100/sass_copy.txt
else
    skip "cuobjdump not found and no committed SASS listing of copy"
fi
sc() { bin/sass_check "$@"; }
eq() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }

eq "$(sc loops "$S" copy_batch)" 1 "the rolled loop (copy_batch) has one backward branch"
for b in 1 2 4 8; do
    eq "$(sc loops "$S" copy_batch_unrolled_b$b)" 0 "copy_batch_unrolled_b$b has no loop"
done
eq "$(sc pattern "$S" copy_batch_unrolled_b4)" LSLSLSLS "no __restrict__: loads and stores interleave"
eq "$(sc pattern "$S" copy_batch_unrolled_b8)" LSLSLSLSLSLSLSLS "no __restrict__, batch 8"
eq "$(sc pattern "$S" copy_batch_restrict_b4)" LLLLSSSS "__restrict__: the loads first"
eq "$(sc pattern "$S" copy_batch_restrict_b8)" LLLLLLLLSSSSSSSS "__restrict__, batch 8"
eq "$(sc pattern "$S" copy_int4_b4)" LS "int4, batch 4: one load, one store"
eq "$(sc count "$S" copy_int4_b4 LDG.E.128)$(sc count "$S" copy_int4_b4 STG.E.128)" 11 "int4: 16-byte accesses"
eq "$(sc count "$S" copy_int4_b8 LDG.E.128)" 2 "int4, batch 8: two LDG.E.128"
eq "$(sc count "$S" copy_batch_unrolled_b4 LDG.E.128)" 0 "the scalar batch uses 4-byte loads"
eq "$(sc count "$S" copy_vector2 LDG.E.64)" 1 "vector2: one LDG.E.64"
eq "$(sc count "$S" copy_vector4 LDG.E.128)" 1 "vector4: one LDG.E.128"
eq "$(sc count "$S" copy_stride16 LDG.E.128)" 1 "stride16: 16-byte loads"
# the batch instructions: the rolled loop runs more of them per element
r=$(sc count "$S" copy_batch LDG) u=$(sc count "$S" copy_batch_unrolled_b4 LDG)
eq "$r/$u" 1/4 "LDG instructions in the code: rolled 1 (run B times), unrolled B=4"
done_testing
