#!/usr/bin/env bash
# tests/cli/occupancy_profile.sh - scripts/occupancy_profile.sh without a GPU:
# stand-ins for ./readonly, ./readonly_profile and ncu (tests/fixtures/sweep/)
# report the numbers of tests/fixtures/sweep/points.tsv and write real warp
# logs with bin/mklog, so every value of the sweep table is known by hand
# (expected_baseline_4.tsv).  Checked: the table (rows, columns, the
# Little's-law bound and closure error), metadata, progress lines, the
# commands the binaries get, usage errors (exit 2), missing binaries and an
# empty point list (exit 1), a failing or interrupted sweep (no data file,
# no temporary file), the warps-at-once check, --ncu with ncu, without it and
# without counter permission, --keep-logs, --points and --ladder.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_bin bin/warplog bin/mklog bin/plot_throughput bin/ncu_extract bin/plot_ladder
S=$ROOT/scripts/occupancy_profile.sh
FX=$ROOT/tests/fixtures/sweep
export WARPLAT_READONLY=$FX/readonly WARPLAT_READONLY_PROFILE=$FX/readonly_profile
export WARPLAT_BIN=$ROOT/bin SWEEP_FX_CALLS=$TMP/calls
unset WARPLAT_NCU WARPLAT_LADDER SWEEP_FX_FAIL_AT SWEEP_FX_SHORT_AT SWEEP_FX_OVER_AT \
      SWEEP_FX_SLEEP_AT SWEEP_FX_EMPTY_LIST SWEEP_FX_BPS_OFF SWEEP_FX_NCU SWEEP_FX_NCU_RC
export TMPDIR=$TMP/tmp          # where the script makes its temporary directory
mkdir -p "$TMPDIR"
cd "$TMP" || exit 1             # relative --out paths are taken from here
have_gnuplot() { command -v gnuplot >/dev/null 2>&1; }

# no_leftovers WHERE...: no temporary file of the script anywhere
no_leftovers() {
    [ -z "$(ls -A "$TMPDIR")" ] || fail "temporary files left in TMPDIR: $(ls -A "$TMPDIR")"
    for d in "$@"; do
        [ -d "$d" ] || continue
        local t
        t=$(find "$d" -name '*.tmp' -o -name '.occupancy_logs.*')
        [ -z "$t" ] || fail "temporary files left: $t"
    done
}
# col FILE NAME: the column NAME of the sweep table FILE, one value per row
col() { awk -F'\t' -v c="$2" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next } { print $k }' "$1" | paste -sd' ' -; }
meta() { awk -F'\t' -v k="# $2" '$1 == k { v = $2 } END { print v }' "$1"; }

# --- help: stdout, exit 0
expect_exit 0 "$S" --help
expect_says "KERNEL WPB"
expect_says "--keep-logs DIR"
[ -z "$("$S" -h 2>&1 >/dev/null)" ] || fail "--help wrote to stderr"

# --- usage errors: exit 2, a message, nothing created
expect_exit 2 "$S" readonly_frobnicate 4
expect_says "unknown kernel 'readonly_frobnicate'"
expect_exit 2 "$S" frobnicate 4
expect_says "unknown kernel"
expect_exit 2 "$S" readonly_baseline 0 --out u
expect_says "WPB must be 1..32"
expect_exit 2 "$S" readonly_baseline 33 --out u
expect_says "WPB must be 1..32"
expect_exit 2 "$S" readonly_baseline four --out u
expect_says "WPB must be a whole number"
expect_exit 2 "$S" readonly_baseline --out u
expect_says "expected KERNEL WPB"
expect_exit 2 "$S" readonly_baseline 4 --frob --out u
expect_says "unknown option '--frob'"
expect_exit 2 "$S" readonly_baseline 4 --reps 0 --out u
expect_says "--reps must be"
expect_exit 2 "$S" readonly_baseline 4 --n lots --out u
expect_says "--n must be a count"
expect_exit 2 "$S" readonly_baseline 4 --points 1,x --out u
expect_says "--points must list"
expect_exit 2 "$S" readonly_baseline 4 --out
expect_says "--out needs a value"
[ -e u ] && fail "a usage error created the output directory"
[ -e "$TMP/calls" ] && fail "a usage error ran a binary: $(cat "$TMP/calls")"

# --- missing binaries: exit 1, "run make first"
expect_exit 1 env WARPLAT_READONLY="$TMP/nope/readonly" "$S" readonly_baseline 4 --out m
expect_says "run make first"
expect_says "nope/readonly"
expect_exit 1 env WARPLAT_BIN="$TMP/nobin" "$S" readonly_baseline 4 --out m
expect_says "run make first"
expect_says "nobin/warplog"
[ -e m ] && fail "a run without binaries created the output directory"

# --- the sweep: every point, values known by hand
rm -f calls
expect_exit 0 "$S" readonly_baseline 4 --out out
D=out/readonly_baseline_4.txt
[ -f "$D" ] || fail "no $D"
diff <(grep -v '^#' "$FX/expected_baseline_4.tsv") <(grep -v '^#' "$D") >"$TMP/d" ||
    fail "the table differs from expected_baseline_4.tsv:
$(cat "$TMP/d")"
# the header of the (last) point's log, as "# key<TAB>value", and the sweep's own lines
[ "$(meta "$D" sm_count)" = 100 ] || fail "metadata sm_count: $(meta "$D" sm_count)"
[ "$(meta "$D" max_threads_per_sm)" = 2048 ] || fail "metadata max_threads_per_sm"
[ "$(meta "$D" kernel)" = baseline ] || fail "metadata kernel"
[ "$(meta "$D" blocks_per_sm)" = 4 ] || fail "metadata should come from the last point's log"
[ "$(meta "$D" sweep_command)" = "scripts/occupancy_profile.sh readonly_baseline 4 --out out" ] ||
    fail "sweep_command: $(meta "$D" sweep_command)"
[[ $(meta "$D" date) =~ ^20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T ]] || fail "no sweep date: $(meta "$D" date)"
# progress: one line per point, then the elapsed time
expect_says "[1/4] 1 blocks/SM (4 warps, SMEM 150000): 80.0 GB/s, lat 512 cycles, closure -20.0%"
expect_says "[2/4] 2 blocks/SM (8 warps, SMEM 100000): 160.0 GB/s, lat 800 cycles, closure +25.0%"
expect_says "[3/4] 3 blocks/SM (12 warps, SMEM 60000): 160.0 GB/s, lat 768 cycles, closure -11.1%"
expect_says "[4/4] 4 blocks/SM (16 warps, SMEM 0): 200.0 GB/s, lat 1024 cycles, closure +11.1%"
expect_says "done: 4 point(s) in"
# the commands the binaries got
grep -qx "readonly --list-occupancy 1e8 0 4" calls || fail "no list call: $(cat calls)"
grep -qx "readonly_profile 1e8 60000 4 --kernel baseline --reps 10 -q" calls ||
    fail "twin call: $(grep readonly_profile calls)"
grep -Eqx "readonly 1e8 60000 4 --kernel baseline --reps 3 --out $TMPDIR/occupancy_profile\.[^ ]+/logs/p3 -q" calls ||
    fail "instrumented call: $(grep '^readonly 1e8' calls)"
[ "$(grep -c '^readonly_profile' calls)" = 4 ] || fail "expected 4 twin runs"
no_leftovers out
if have_gnuplot; then
    for e in svg png; do [ -s out/readonly_baseline_4.$e ] || fail "no chart out/readonly_baseline_4.$e"; done
    grep -q "500 cycles (lowest measured p50)" out/readonly_baseline_4.gp ||
        fail "the chart's bound should use the lowest p50 (500 cycles) without a ladder"
else
    expect_says "gnuplot is not installed"
fi

# --- the bare variant name, --reps and --points; a second run replaces the table
rm -f calls
expect_exit 0 "$S" baseline 4 --reps 5 --points 2,4 --out out
[ "$(col "$D" blocks_per_sm)" = "2 4" ] || fail "--points 2,4 gave rows $(col "$D" blocks_per_sm)"
[ "$(col "$D" closure_err_pct)" = "25.00 11.11" ] || fail "--points closure: $(col "$D" closure_err_pct)"
grep -q -- "--reps 5 -q" calls || fail "--reps 5 was not passed to the twin"
expect_exit 0 "$S" baseline 4 --points 1-2,9 --out out
[ "$(col "$D" blocks_per_sm)" = "1 2" ] || fail "--points 1-2,9 gave rows $(col "$D" blocks_per_sm)"
expect_says "--points 9"
expect_exit 1 "$S" baseline 4 --points 7,9 --out p
expect_says "none of --points 7,9"
[ -e p/readonly_baseline_4.txt ] && fail "a sweep with no point wrote a table"
no_leftovers out p

# --- an empty list: exit 1
expect_exit 1 env SWEEP_FX_EMPTY_LIST=1 "$S" readonly_float4 8 --out e
expect_says "lists no point"
[ -e e/readonly_float4_8.txt ] && fail "an empty sweep wrote a table"
no_leftovers e

# --- a point fails (validation at point 3): exit 1, no table, no temporary file
rm -f calls
mkdir -p keep
expect_exit 1 env SWEEP_FX_FAIL_AT=3 "$S" readonly_nondiverging 4 --out f --keep-logs keep
expect_says "[3/4] 3 blocks/SM (SMEM 60000)"
expect_says "FAILED validation"
expect_says "no data file written"
[ -e f/readonly_nondiverging_4.txt ] && fail "a failed sweep wrote a table"
grep -q "^readonly_profile 1e8 0 4" calls && fail "the sweep went on after the failing point"
[ -z "$(ls -A keep)" ] || fail "a failed sweep left logs in --keep-logs: $(ls -A keep)"
no_leftovers f keep

# --- interrupted (SIGTERM during point 2): exit 143, no table, no temporary file
SWEEP_FX_SLEEP_AT=2 SWEEP_FX_MARK=$TMP/mark SWEEP_FX_SLEEP_S=1 "$S" readonly_baseline 4 --out i \
    >"$TMP/i.out" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -e "$TMP/mark" ] && break; sleep 0.1; done
[ -e "$TMP/mark" ] || fail "the stand-in never reached point 2"
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "an interrupted sweep exited $rc, expected 143; said: $(cat "$TMP/i.out")"
grep -q "terminated; no data file written" "$TMP/i.out" || fail "no message on SIGTERM"
[ -e i/readonly_baseline_4.txt ] && fail "an interrupted sweep wrote a table"
no_leftovers i

# --- the warps at once disagree with blocks_per_sm x WPB: flagged, sweep goes on
expect_exit 0 env SWEEP_FX_SHORT_AT=3 SWEEP_FX_OVER_AT=2 "$S" readonly_baseline 4 --out c
expect_says "[3/4] warning: the log shows at most 11 warps at once on an SM, expected blocks_per_sm x WPB = 3 x 4 = 12"
expect_says "[2/4] warning: the log shows at most 9 warps at once on an SM, expected blocks_per_sm x WPB = 2 x 4 = 8; warplog check failed"
expect_says "more warps in flight"
expect_says "at 2 point(s)"
C=c/readonly_baseline_4.txt
[ "$(col "$C" max_concurrent_warps)" = "4 9! 11! 16" ] || fail "max_concurrent_warps: $(col "$C" max_concurrent_warps)"
[ "$(meta "$C" max_concurrent_warps_mismatches)" = 2 ] || fail "mismatch count"
# ... and the list and the run disagree on blocks per SM: a warning
expect_exit 0 env SWEEP_FX_BPS_OFF=1 "$S" readonly_baseline 4 --points 1 --out c
expect_says "1 blocks/SM was listed for SMEM 150000 but"
expect_says "ran with 2 blocks/SM"

# --- --ncu with ncu: the metrics in their columns, the exact ncu command
rm -f calls
expect_exit 0 env WARPLAT_NCU="$FX/ncu" "$S" readonly_baseline 4 --ncu --out n
N=n/readonly_baseline_4.txt
[ "$(col "$N" achieved_occupancy_pct)" = "6.10 12.20 18.30 24.40" ] ||
    fail "achieved_occupancy_pct: $(col "$N" achieved_occupancy_pct)"
[ "$(col "$N" dram_read_GBps)" = "80.5 160.3 161.5 201.0" ] || fail "dram_read_GBps: $(col "$N" dram_read_GBps)"
[ "$(col "$N" closure_err_pct)" = "-20.00 25.00 -11.11 11.11" ] || fail "closure with --ncu"
grep -Eqx "ncu --csv --log-file [^ ]+ --print-units base --clock-control none --kernel-name readonly_baseline --metrics sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum.per_second $FX/readonly_profile 1e8 100000 4 --kernel baseline --reps 1 --warmup 0" calls ||
    fail "ncu command: $(grep ^ncu calls | head -n 1)"
no_leftovers n

# --- --ncu without ncu: one message, nan columns, the sweep completes
expect_exit 0 env WARPLAT_NCU="$TMP/no/ncu" "$S" readonly_baseline 4 --ncu --out nn
expect_says "is not on PATH"
[ "$(grep -c 'not on PATH' <<<"$OUTTXT")" = 1 ] || fail "the missing-ncu message should appear once"
[ "$(col nn/readonly_baseline_4.txt achieved_occupancy_pct)" = "nan nan nan nan" ] || fail "no ncu: achieved not nan"
[ "$(col nn/readonly_baseline_4.txt dram_read_GBps)" = "nan nan nan nan" ] || fail "no ncu: dram not nan"
[ "$(col nn/readonly_baseline_4.txt closure_err_pct)" = "-20.00 25.00 -11.11 11.11" ] || fail "closure without ncu"
[[ $(meta nn/readonly_baseline_4.txt ncu) == "not found"* ]] || fail "metadata ncu: $(meta nn/readonly_baseline_4.txt ncu)"

# --- --ncu without counter permission (ERR_NVGPUCTRPERM), whatever ncu's exit status
for rc in 0 1; do
    rm -f calls
    expect_exit 0 env WARPLAT_NCU="$FX/ncu" SWEEP_FX_NCU=perm SWEEP_FX_NCU_RC=$rc \
        "$S" readonly_baseline 4 --ncu --out np
    expect_says "ERR_NVGPUCTRPERM"
    [ "$(grep -c 'ERR_NVGPUCTRPERM' <<<"$OUTTXT")" = 1 ] || fail "the permission message should appear once"
    [ "$(grep -c '^ncu ' calls)" = 1 ] || fail "ncu was tried again after a permission error"
    [ "$(col np/readonly_baseline_4.txt achieved_occupancy_pct)" = "nan nan nan nan" ] || fail "perm: achieved not nan"
    [ "$(col np/readonly_baseline_4.txt dram_read_GBps)" = "nan nan nan nan" ] || fail "perm: dram not nan"
    [[ $(meta np/readonly_baseline_4.txt ncu) == "no counter permission"* ]] || fail "metadata ncu (perm)"
done
no_leftovers np
# ... an ncu that fails otherwise: a warning per point, nan, the sweep completes
expect_exit 0 env WARPLAT_NCU="$FX/ncu" SWEEP_FX_NCU=fail "$S" readonly_baseline 4 --ncu --points 1,2 --out nf
expect_says "[2/2] warning: ncu gave no metrics (exit 1)"
[ "$(col nf/readonly_baseline_4.txt dram_read_GBps)" = "nan nan" ] || fail "failing ncu: dram not nan"

# --- --keep-logs: the logs are kept, named, and the table points at them
expect_exit 0 "$S" readonly_baseline 4 --out k --keep-logs k/logs
K=k/readonly_baseline_4.txt
[ "$(col "$K" log)" = "k/logs/readonly_baseline_4_b1.bin k/logs/readonly_baseline_4_b2.bin k/logs/readonly_baseline_4_b3.bin k/logs/readonly_baseline_4_b4.bin" ] &&
    fail "log paths should be absolute when the script runs outside the checkout"
for b in 1 2 3 4; do
    L=$TMP/k/logs/readonly_baseline_4_b$b.bin
    [ -f "$L" ] || { fail "no kept log $L"; continue; }
    "$ROOT/bin/warplog" check "$L" --quiet | grep -q "max_concurrent_warps_per_sm	$((4 * b)) " ||
        fail "kept log $L: not $((4 * b)) warps at once"
done
[ "$(col "$K" log)" = "$TMP/k/logs/readonly_baseline_4_b1.bin $TMP/k/logs/readonly_baseline_4_b2.bin $TMP/k/logs/readonly_baseline_4_b3.bin $TMP/k/logs/readonly_baseline_4_b4.bin" ] ||
    fail "log column: $(col "$K" log)"
# every line of `warplog info` of the last point's log is in the metadata
"$ROOT/bin/warplog" info "$TMP/k/logs/readonly_baseline_4_b4.bin" | sed 's/^/# /' >"$TMP/info4"
[ "$(wc -l <"$TMP/info4")" -gt 40 ] || fail "warplog info printed too little"
while IFS= read -r line; do
    case $line in "# date"*) continue ;; esac   # the sweep's own date comes later and wins
    grep -qxF "$line" "$K" || fail "metadata lacks the log header line '$line'"
done <"$TMP/info4"
no_leftovers k

# --- --ladder: the DRAM plateau is the chart's unloaded latency
expect_exit 0 "$S" readonly_baseline 4 --out l --ladder "$ROOT/tests/fixtures/ladder/h100_real_cg.tsv"
[ "$(meta l/readonly_baseline_4.txt dram_latency_cycles)" = 691.0 ] ||
    fail "dram_latency_cycles: $(meta l/readonly_baseline_4.txt dram_latency_cycles)"
if have_gnuplot; then
    grep -Eq "(690\.99|691) cycles" l/readonly_baseline_4.gp || fail "the chart's bound is not at the ladder's 691 cycles"
fi
rm -f calls
expect_exit 1 "$S" readonly_baseline 4 --out lb --ladder "$ROOT/tests/fixtures/ladder/flat.tsv"
expect_says "no DRAM latency"
[ -e calls ] && fail "a bad --ladder should stop the sweep before it starts"
no_leftovers l lb

done_testing
