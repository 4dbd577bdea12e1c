#!/usr/bin/env bash
# The atomics family's validation on a GPU (make test-gpu): the words the
# threads add to are gathered on the GPU and compared with the CPU's counts,
# and the sum of every counter must be N (at_check).  A wrong word must fail
# either way: WARPLAT_INJECT_WRONG_RESULT=K sets counter 1 to 7 in the K-th
# check (lane_spread: thread 1's word, caught by the gathered words;
# line_spread: a word no thread adds to, caught by the total).
# Exit 0 pass, 1 fail, 77 skipped (no GPU).
source "$(dirname "$0")/../../../tests/lib.sh"
require_gpu
require_bin atomics bin/tsv
N=100003   # 3125 full warps and one of 3 lanes
run() { # run K TABLE: lane_spread then line_spread (RED), K injected ("" none)
    WARPLAT_INJECT_WRONG_RESULT=$1 ./atomics "$N" 0 4 --kernel lane_spread_red,line_spread_red \
        --reps 2 --warmup 1 --no-probes --table "$2" -q
}
valid_of() { bin/tsv get "$1" valid | paste -sd' '; }

expect_exit 0 run "" "$TMP/clean.tsv"
[ "$(valid_of "$TMP/clean.tsv")" = "ok ok" ] || fail "no wrong word: valid $(valid_of "$TMP/clean.tsv"), expected ok ok"

expect_exit 1 run 0 "$TMP/lane.tsv"
expect_says "lane_spread_red FAILED validation"
expect_says "counter 1 holds 7, the CPU expects 1"
[ "$(valid_of "$TMP/lane.tsv")" = "FAIL ok" ] || fail "lane_spread: valid $(valid_of "$TMP/lane.tsv"), expected FAIL ok"

expect_exit 1 run 1 "$TMP/line.tsv"
expect_says "line_spread_red FAILED validation"
expect_says "add up to $((N + 7)), the CPU's N is $N"
[ "$(valid_of "$TMP/line.tsv")" = "ok FAIL" ] || fail "line_spread: valid $(valid_of "$TMP/line.tsv"), expected ok FAIL"
echo "atomics: a wrong word is caught by the gathered words and by the total"
done_testing
