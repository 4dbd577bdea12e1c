#!/usr/bin/env bash
# The atomics family on a GPU (make test-gpu): every variant at a small N
# (a tail warp of 3 lanes included) validated against its CPU reference (the
# exact final counts) and timed; then, where Nsight Compute (ncu) is on PATH and may read the
# counters, what the memory system counted beside the model's prediction
# (atomics_model.h): L1 and L2 requests and sectors of RED and ATOM exactly,
# DRAM reads within 10 % or 4 KiB where judged (atm_pred.dram_judged).  The
# comparison is C (build/tests/test_atomics compare, the replay rule); its
# table is printed here, and when the L2 requests disagree it says what the
# per-address rule would have predicted.  Exit 0 pass, 1 fail, 77 skipped (no GPU; ncu without
# permission to read the counters).
source "$(dirname "$0")/../../../tests/lib.sh"
require_gpu
require_bin atomics atomics_profile bin/tsv bin/ncu_extract build/tests/test_atomics
N=100003      # 3125 full warps and one of 3 lanes
WPB=4
FETCH=64      # L2's DRAM fetch on the H100 under the driver's default (docs/sectors.md)

expect_exit 0 ./atomics "$N" 0 "$WPB" --reps 3 --warmup 1 --out "$TMP/logs" --table "$TMP/atomics.tsv" -q
rows=$(bin/tsv get "$TMP/atomics.tsv" valid | wc -l)
ok=$(bin/tsv get "$TMP/atomics.tsv" valid --where valid=ok 2>/dev/null | wc -l)
nvar=$(./atomics --list-kernels | wc -l)
if [ "$rows" != "$nvar" ] || [ "$ok" != "$rows" ]; then
    fail "atomics: $ok of $rows rows valid ($nvar variants)"
fi
# (the logs are checked by tests/gpu/families.sh, which runs every family)
echo "atomics: $ok of $rows variants valid"

if ! command -v ncu >/dev/null 2>&1; then
    echo "ncu not on PATH: the counters were not compared with the model"
    done_testing
fi
METRICS=$(build/tests/test_atomics metrics) || fail "test_atomics metrics failed"
ncu --csv --log-file "$TMP/ncu.csv" --print-units base --clock-control none --cache-control all \
    --kernel-name regex:atomics_ --metrics "$METRICS" \
    ./atomics_profile "$N" 0 "$WPB" --reps 1 --warmup 0 --table "$TMP/runs.tsv" >"$TMP/ncu.out" 2>&1
rc=$?
if grep -qs ERR_NVGPUCTRPERM "$TMP/ncu.csv" "$TMP/ncu.out"; then
    [ "$nfail" -eq 0 ] || done_testing
    skip "ncu may not read the GPU counters (ERR_NVGPUCTRPERM): the validation passed, the counters were not compared"
fi
if [ $rc -ne 0 ] || [ ! -s "$TMP/ncu.csv" ]; then
    tail -n 20 "$TMP/ncu.out" >&2
    fail "ncu ./atomics_profile failed (exit $rc)"
    done_testing
fi
bin/ncu_extract "$TMP/ncu.csv" --metrics "$METRICS" --kernel atomics_ >"$TMP/ncu.tsv" ||
    { fail "bin/ncu_extract could not read the ncu log"; done_testing; }
build/tests/test_atomics compare "$TMP/ncu.tsv" "$N" "$WPB" "$FETCH" >"$TMP/compare.tsv"
rc=$?
cat "$TMP/compare.tsv"
case $rc in
    0) echo "ncu agrees with the model on every count" ;;
    1) fail "ncu disagrees with the model (the rows with agree = no above)" ;;
    *) fail "test_atomics compare failed (exit $rc)" ;;
esac
done_testing
