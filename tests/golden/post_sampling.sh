#!/usr/bin/env bash
# bin/sampling (src/lib/sampling.h): the launches to run, their logs pooled
# into one row per K with percentiles worked by hand, and the convergence
# verdict on the bundled H100 table (which has not converged: that is why
# the sparse K are now pooled).
source "$(dirname "$0")/../lib.sh"
source "$ROOT/tests/golden/post/common.sh"
need_tools
[ -x "$ROOT/bin/sampling" ] || make -s -C "$ROOT" bin/sampling >/dev/null || skip "make bin/sampling failed"
S=$ROOT/bin/sampling
cd "$TMP"

# --- plan: K / 32 launches at each K, at least one, seeds 1, 2, ...
expect_exit 0 "$S" plan 1,64,256
[ "$OUTTXT" = "$(printf '1\t1\n64\t1\n64\t2\n256\t1\n256\t2\n256\t3\n256\t4\n256\t5\n256\t6\n256\t7\n256\t8')" ] ||
    fail "plan 1,64,256: $OUTTXT"
expect_exit 0 "$S" plan 8 --base 4
[ "$OUTTXT" = "$(printf '8\t1\n8\t2')" ] || fail "plan 8 --base 4: $OUTTXT"
expect_exit 2 "$S" plan 3
expect_says "power of two"
expect_exit 2 "$S" plan
expect_exit 2 "$S" nosuch
expect_exit 2 "$S"

# --- pool: two launches at K = 4 (latencies 100, 200 and 300, 400: pooled
# mean 250, p50 250, p95 h = 3 x .95 = 2.85 -> 300 + .85 x 100 = 385;
# overheads 1 and 3: 2) and one at K = 8 (latency 50)
printf '0\t100\t0\t0\t0\t0\n0\t200\t0\t0\t1\t0\n' | "$ROOT/bin/mklog" a.bin --wpb 2 --sample 4 --overhead-pct 1 || fail mklog
printf '0\t300\t0\t4\t0\t1\n0\t400\t0\t4\t1\t1\n' | "$ROOT/bin/mklog" b.bin --wpb 2 --sample 4 --overhead-pct 3 || fail mklog
printf '0\t50\t0\t0\t0\t0\n' | "$ROOT/bin/mklog" c.bin --wpb 2 --sample 8 || fail mklog
expect_exit 0 "$S" pool a.bin b.bin c.bin --out pool.tsv
row() { grep -v '^#' pool.tsv | awk -F'\t' -v k="$1" '$3 == k' | cut -f1-11; }
[ "$(row 4)" = "$(printf 'baseline\t2\t4\t2\t1\t4\t250.0\t250.0\t385.0\t2.00\tfixed')" ] || fail "pooled K = 4: $(row 4)"
[ "$(row 8)" = "$(printf 'baseline\t2\t8\t1\t1\t1\t50.0\t50.0\t50.0\t0.00\tfixed')" ] || fail "K = 8: $(row 8)"
golden sampling_pool.tsv pool.tsv
expect_exit 0 "$S" pool --label default c.bin
expect_says $'\tdefault'
expect_exit 1 "$S" pool a.bin nosuch.bin --out bad.tsv
[ -e bad.tsv ] && fail "a failed pool wrote bad.tsv"
expect_exit 2 "$S" pool

# --- check: the bundled H100 table, one launch per K: 2 of 6 converged
expect_exit 0 "$S" check "$ROOT/tests/fixtures/post/sampling_h100.tsv"
"$S" check "$ROOT/tests/fixtures/post/sampling_h100.tsv" >check.tsv || fail "check failed"
golden sampling_check.tsv check.tsv
grep -q $'^baseline\t256\t64\t711.0\t905.0\t+0.14\t+3.98\t12204\t1\tno$' check.tsv || fail "baseline's verdict"
grep -q $'^nondiverging\t256\t64\t1422.0\t1825.0\t-0.28\t-0.02\t12204\t1\tyes$' check.tsv || fail "nondiverging's verdict"
grep -q "agree within 1% for 2 of 6 variants" check.tsv || fail "the sentence"
expect_exit 0 "$S" check "$ROOT/tests/fixtures/post/sampling_h100.tsv" --tol 5
expect_says "for 5 of 6 variants (not strided: p95 6.6% apart)"
expect_exit 1 "$S" check nosuch.tsv
done_testing
