#!/usr/bin/env bash
# tests/cli/occupancy_profile.sh - scripts/occupancy_profile.sh without a
# GPU: stand-ins for the experiment, its clean twin and ncu
# (tests/fixtures/sweep/) report the numbers of points.tsv.  The script is a
# thin wrapper: the sweep, the bound and the closure error are the
# experiment's (checked here: the table is the experiment's, byte for byte
# but for what --ncu adds); the variants come from --list-kernels; the name
# from bin/names; --ncu merges ncu's values through bin/sweep_ncu (with ncu,
# without it, without counter permission); the chart is drawn; a failed
# sweep leaves no table and no temporary file; usage errors exit 2.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_bin bin/names bin/tsv bin/sweep_ncu bin/plot_throughput
S=$ROOT/scripts/occupancy_profile.sh
FX=$ROOT/tests/fixtures/sweep
export WARPLAT_EXPERIMENT=$FX/experiment WARPLAT_PROFILE=$FX/profile SWEEP_FX_CALLS=$TMP/calls
unset WARPLAT_NCU SWEEP_FX_FAIL SWEEP_FX_USAGE SWEEP_FX_NCU SWEEP_FX_NCU_RC WARPLAT_LADDER
export TMPDIR=$TMP/tmp          # where the script makes its temporary folder
mkdir -p "$TMPDIR"
cd "$TMP" || exit 1             # relative paths are taken from here
have_gnuplot() { command -v gnuplot >/dev/null 2>&1; }
no_leftovers() {
    [ -z "$(ls -A "$TMPDIR")" ] || fail "temporary files left in TMPDIR: $(ls -A "$TMPDIR")"
    [ -z "$(find "$@" -name '*.tmp' 2>/dev/null)" ] || fail "temporary files left: $(find "$@" -name '*.tmp')"
}
rows() { grep -v '^#' "$1"; }

# --- help, usage errors (exit 2, nothing written)
expect_exit 0 "$S" --help
expect_says "KERNEL WPB"
expect_says "--ncu"
expect_exit 2 "$S" readonly_frobnicate 4 --out u
expect_says "unknown kernel 'readonly_frobnicate': readonly's variants are baseline float4"
expect_exit 2 "$S" readonly_baseline --out u
expect_says "expected KERNEL WPB"
expect_exit 2 "$S" readonly_baseline 4 --frob
expect_says "unknown option '--frob'"
expect_exit 2 "$S" readonly_baseline 40 --out u
expect_says "WPB must be a number of warps per block, 1..32"
expect_exit 2 "$S" readonly_baseline 4 --out
expect_says "--out needs a value"
SWEEP_FX_USAGE=1 expect_exit 2 "$S" baseline 4 --reps 0 --out u
expect_says "no table written"
[ -e u/sweep_readonly_baseline_4.tsv ] && fail "a usage error wrote a table"
no_leftovers u

# --- a sweep: the experiment's table, its command line, the chart
: >"$SWEEP_FX_CALLS"
cp "$ROOT/tests/fixtures/ladder/h100_real_ca.tsv" lad.tsv
expect_exit 0 "$S" readonly_baseline 4 --n 1e7 --reps 5 --ladder lad.tsv --device 1 --out res
T=res/sweep_readonly_baseline_4.tsv
[ -s "$T" ] || fail "no table $T"
# (the log column names the temporary folder: everything else is the same)
diff <(rows "$T" | cut -f1-17,19-) <(rows "$FX/sweep_table.tsv" | cut -f1-17,19-) >/dev/null ||
    fail "the table is not the experiment's: $(diff <(rows "$T" | cut -f1-17,19-) <(rows "$FX/sweep_table.tsv" | cut -f1-17,19-) | head -n 4)"
grep -qx "experiment 1e7 0 4 --kernel baseline --sweep --sample 1 --out $TMP/tmp/occupancy_profile.[A-Za-z0-9]*/logs --table $TMP/$T --reps 5 --ladder $TMP/lad.tsv --device 1" \
    <(grep -v list-kernels "$SWEEP_FX_CALLS") || fail "the experiment got the wrong command line: $(grep -v list-kernels "$SWEEP_FX_CALLS")"
expect_says "readonly: [4] 4 blocks/SM"        # the experiment's own progress passes through
expect_says "sweep done ("
[ "$(bin_get() { "$ROOT/bin/tsv" get "$T" bound_GBps | paste -sd' ' -; }; bin_get)" = "100.0 128.0 180.0 180.0" ] ||
    fail "the bound column is not the experiment's"
[ "$("$ROOT/bin/tsv" get "$T" achieved_occupancy_pct | paste -sd' ' -)" = "nan nan nan nan" ] ||
    fail "without --ncu the ncu columns must stay nan"
if have_gnuplot; then
    [ -s res/sweep_readonly_baseline_4.svg ] && [ -s res/sweep_readonly_baseline_4.gp ] || fail "no chart beside the table"
    expect_says "res/sweep_readonly_baseline_4.svg"
else
    expect_says "no chart: gnuplot is not installed"
fi
no_leftovers res

# a bare variant is a readonly variant; --points goes to the experiment
: >"$SWEEP_FX_CALLS"
expect_exit 0 "$S" float4 4 --points 1,3 --out res2
[ -s res2/sweep_readonly_float4_4.tsv ] || fail "no table for the bare variant float4"
[ "$("$ROOT/bin/tsv" get res2/sweep_readonly_float4_4.tsv blocks_per_sm | paste -sd' ' -)" = "1 3" ] ||
    fail "--points 1,3 did not restrict the sweep"
grep -q -- "--kernel float4 --sweep .* --points 1,3" "$SWEEP_FX_CALLS" || fail "--points was not passed on"
# --sample: every block by default (above); another K is passed on as given
: >"$SWEEP_FX_CALLS"
expect_exit 0 "$S" float4 4 --points 1 --sample auto --out res3
grep -q -- "--kernel float4 --sweep --sample auto " "$SWEEP_FX_CALLS" || fail "--sample auto was not passed on"

# --keep-logs: the experiment writes the logs there
expect_exit 0 "$S" readonly_baseline 4 --keep-logs kept --out res3
grep -q "$TMP/kept/readonly_baseline_4_b1.bin" res3/sweep_readonly_baseline_4.tsv || fail "--keep-logs is not the experiment's --out"

# --- a failing sweep: no table, no temporary file, exit 1
SWEEP_FX_FAIL=1 expect_exit 1 "$S" readonly_baseline 4 --out bad
expect_says "the sweep failed (exit 1); no table written"
[ -e bad/sweep_readonly_baseline_4.tsv ] && fail "a failed sweep left a table"
no_leftovers bad

# --- --ncu: the stand-in ncu's values, through bin/sweep_ncu
: >"$SWEEP_FX_CALLS"
export WARPLAT_NCU=$FX/ncu
expect_exit 0 "$S" readonly_baseline 4 --ncu --out n1
T=n1/sweep_readonly_baseline_4.tsv
[ "$("$ROOT/bin/tsv" get "$T" achieved_occupancy_pct | paste -sd' ' -)" = "6.10 12.20 18.30 24.40" ] ||
    fail "achieved occupancy: $("$ROOT/bin/tsv" get "$T" achieved_occupancy_pct | paste -sd' ' -)"
[ "$("$ROOT/bin/tsv" get "$T" dram_read_GBps | paste -sd' ' -)" = "80.5 160.3 161.5 201.0" ] ||
    fail "DRAM read: $("$ROOT/bin/tsv" get "$T" dram_read_GBps | paste -sd' ' -)"
[ "$("$ROOT/bin/tsv" meta "$T" ncu)" = "$FX/ncu" ] || fail "the table does not say which ncu ran"
[ "$("$ROOT/bin/tsv" get "$T" bound_GBps | paste -sd' ' -)" = "100.0 128.0 180.0 180.0" ] || fail "--ncu changed the bound"
[ "$(grep -c '^ncu ' "$SWEEP_FX_CALLS")" = 4 ] || fail "ncu did not run once per point"
grep -q "^ncu --csv --log-file .*/b3.csv --print-units base --clock-control none --kernel-name readonly_baseline --metrics sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum.per_second $FX/profile 1e8 60000 4 --kernel baseline --reps 1 --warmup 0\$" "$SWEEP_FX_CALLS" ||
    fail "ncu got the wrong command line: $(grep '^ncu ' "$SWEEP_FX_CALLS" | head -n 2)"
no_leftovers n1

# ncu without counter permission: said once, nan, the sweep stands
: >"$SWEEP_FX_CALLS"
SWEEP_FX_NCU=perm expect_exit 0 "$S" readonly_baseline 4 --ncu --out n2
expect_says "ERR_NVGPUCTRPERM"
[ "$("$ROOT/bin/tsv" get n2/sweep_readonly_baseline_4.tsv achieved_occupancy_pct | paste -sd' ' -)" = "nan nan nan nan" ] ||
    fail "without permission the ncu columns must stay nan"
[ "$(grep -c '^ncu ' "$SWEEP_FX_CALLS")" = 1 ] || fail "ncu was tried again after a permission error"
[ "$("$ROOT/bin/tsv" meta n2/sweep_readonly_baseline_4.tsv ncu)" = "no counter permission (ERR_NVGPUCTRPERM)" ] ||
    fail "the table does not say why there are no ncu values"

# ncu not installed
WARPLAT_NCU=/nonexistent/ncu expect_exit 0 "$S" readonly_baseline 4 --ncu --out n3
expect_says "is not on PATH"
[ "$("$ROOT/bin/tsv" meta n3/sweep_readonly_baseline_4.tsv ncu)" = "not found: /nonexistent/ncu" ] || fail "no '# ncu not found' line"
unset WARPLAT_NCU

# --- bin/sweep_ncu on its own: usage, a table that is not a sweep
expect_exit 2 "$ROOT/bin/sweep_ncu"
expect_exit 2 "$ROOT/bin/sweep_ncu" "$T" --kernel x
expect_says "--csv-dir DIR is missing"
printf 'a\tb\n1\t2\n' >notsweep.tsv
expect_exit 1 "$ROOT/bin/sweep_ncu" notsweep.tsv --csv-dir . --kernel x
expect_says "is not an occupancy sweep"
compgen -G "notsweep.tsv*.tmp" >/dev/null && fail "sweep_ncu left a temporary file"
[ "$(cat notsweep.tsv)" = "$(printf 'a\tb\n1\t2')" ] || fail "sweep_ncu changed a table it refused"

done_testing
