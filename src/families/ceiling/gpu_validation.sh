#!/usr/bin/env bash
# The ceiling's validation on a GPU (make test-gpu): write, copy and triad
# check their first configuration's a[] against the CPU, element by
# element, and every later one against that checked output on the device
# (ce_check).  A wrong element must fail either way: WARPLAT_INJECT_WRONG_RESULT=K
# corrupts one element of the K-th output validated (0: the CPU's check
# catches it; 1: the device's).  Exit 0 pass, 1 fail, 77 skipped (no GPU).
source "$(dirname "$0")/../../../tests/lib.sh"
require_gpu
require_bin ceiling bin/tsv
N=1000003   # not a multiple of 4: the remainders run
run() { # run K TABLE: copy at two unrolls (two configurations), K injected ("" none)
    WARPLAT_INJECT_WRONG_RESULT=$1 ./ceiling --n "$N" --kernel copy,triad --width 8 --unroll 1,4 \
        --hint 0 --pass 0 --wpb 4 --reps 2 --warmup 1 --table "$2" -q
}
valid_of() { bin/tsv get "$1" valid | paste -sd' '; }

expect_exit 0 run "" "$TMP/clean.tsv"
[ "$(valid_of "$TMP/clean.tsv")" = "ok ok ok ok" ] ||
    fail "without a wrong element: valid $(valid_of "$TMP/clean.tsv"), expected ok ok ok ok"

expect_exit 1 run 0 "$TMP/cpu.tsv"
expect_says "copy w=8,u=1,h=0,p=0,g=0,wpb=4 FAILED validation: 1 of $N items disagree"
expect_says "a[$((N / 2))] = 12.0"
# the first failed, so the second configuration was checked on the CPU too
[ "$(valid_of "$TMP/cpu.tsv")" = "FAIL ok ok ok" ] ||
    fail "wrong element in the first output: valid $(valid_of "$TMP/cpu.tsv"), expected FAIL ok ok ok"

expect_exit 1 run 1 "$TMP/dev.tsv"
expect_says "copy w=8,u=4,h=0,p=0,g=0,wpb=4 FAILED validation: 1 of $N items disagree"
[ "$(valid_of "$TMP/dev.tsv")" = "ok FAIL ok ok" ] ||
    fail "wrong element in the second output (the device's check): valid $(valid_of "$TMP/dev.tsv"), expected ok FAIL ok ok"

expect_exit 1 run 3 "$TMP/triad.tsv"
[ "$(valid_of "$TMP/triad.tsv")" = "ok ok ok FAIL" ] ||
    fail "wrong element in triad's second output: valid $(valid_of "$TMP/triad.tsv"), expected ok ok ok FAIL"
# a batch's lines keep the checked copy: the second line's copy is compared
# on the device, and caught there
printf '%s\n' "--n $N --kernel copy --width 8 --unroll 1 --hint 0 --pass 0 --wpb 4" \
    "--n $N --kernel copy --width 8 --unroll 4 --hint 0 --pass 0 --wpb 8" >"$TMP/two.batch"
expect_exit 0 ./ceiling --batch-file "$TMP/two.batch" --reps 2 --warmup 1 --table "$TMP/batch.tsv" -q
[ "$(valid_of "$TMP/batch.tsv")" = "ok ok" ] || fail "a batch of two lines: valid $(valid_of "$TMP/batch.tsv"), expected ok ok"
expect_exit 1 env WARPLAT_INJECT_WRONG_RESULT=1 ./ceiling --batch-file "$TMP/two.batch" --reps 2 --warmup 1 \
    --table "$TMP/batch_bad.tsv" -q
expect_says "copy w=8,u=4,h=0,p=0,g=0,wpb=8 FAILED validation: 1 of $N items disagree"
[ "$(valid_of "$TMP/batch_bad.tsv")" = "ok FAIL" ] ||
    fail "a wrong element in the batch's second line: valid $(valid_of "$TMP/batch_bad.tsv"), expected ok FAIL"
echo "ceiling: a wrong element is caught by the CPU's check and by the device's, within a line and across a batch's lines"
done_testing
