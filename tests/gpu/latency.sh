#!/usr/bin/env bash
# tests/gpu/latency.sh - the latency ladder on a real GPU: ./latency --quick
# must finish, pass its own chain check, and show L1 < L2 < DRAM; with the L1
# bypassed the first level must be an L2 level.  Skips without a GPU.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_gpu
require_bin latency bin/plot_ladder

num_ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }

# --- L1-cached chase: L1, one or two L2 levels, DRAM, increasing
t0=$SECONDS
expect_exit 0 "$ROOT/latency" --quick --out "$TMP/ca.tsv"
dt=$((SECONDS - t0))
echo "latency --quick took ${dt}s"
[ "$dt" -le 30 ] || fail "--quick took ${dt}s (the goal is under 15 s)"
[ -s "$TMP/ca.tsv" ] || fail "no table written"
[ -e "$TMP/ca.tsv.tmp" ] && fail "the .tmp file was left behind"
grep -q '^# experiment	latency$' "$TMP/ca.tsv" || fail "metadata: experiment"
grep -q '^# kernel	chase_ca$' "$TMP/ca.tsv" || fail "metadata: kernel"
mhz=$(awk -F'\t' '$1 == "# sm_clock_measured_MHz" { print $2 }' "$TMP/ca.tsv")
num_ge "${mhz:-0}" 300 && num_ge 4000 "${mhz:-0}" || fail "measured SM clock '$mhz' MHz is not plausible"

# draw the chart where gnuplot exists; elsewhere (the GPU machines) write only its script
DRAW=(); command -v gnuplot >/dev/null 2>&1 || DRAW=(--script-only)
expect_exit 0 "$ROOT/bin/plot_ladder" "$TMP/ca.tsv" "$TMP/ca.svg" --levels-out "$TMP/ca.levels" ${DRAW[@]+"${DRAW[@]}"}
cat "$TMP/ca.levels"
names=$(awk -F'\t' 'NR > 1 { printf "%s ", $1 }' "$TMP/ca.levels")
case "$names" in
    "L1 L2 DRAM "|"L1 L2-near L2-far DRAM ") ;;
    *) fail "levels found: '$names' (expected L1 L2 DRAM, or L1 L2-near L2-far DRAM)";;
esac
# latencies strictly increase from level to level
awk -F'\t' 'NR > 1 { if (NR > 2 && $4 <= prev) bad = 1; prev = $4 } END { exit bad }' \
    "$TMP/ca.levels" || fail "level latencies do not increase"
l1=$(awk -F'\t' '$1 == "L1" { print $4 }' "$TMP/ca.levels")
dram=$(awk -F'\t' '$1 == "DRAM" { print $4 }' "$TMP/ca.levels")
num_ge 100 "${l1:-1000}" || fail "L1 latency ${l1:-?} cycles (expected well under 100)"
num_ge "${dram:-0}" 300 || fail "DRAM latency ${dram:-?} cycles (expected over 300)"
expect_exit 0 "$ROOT/bin/plot_ladder" "$TMP/ca.tsv" --dram-latency
echo "DRAM: $OUTTXT (cycles, ns)"

# --- L1 bypassed: the first level is L2, well above the L1 latency
expect_exit 0 "$ROOT/latency" --quick --bypass-l1 --max 256M --out "$TMP/cg.tsv"
grep -q '^# kernel	chase_cg$' "$TMP/cg.tsv" || fail "metadata: kernel chase_cg"
expect_exit 0 "$ROOT/bin/plot_ladder" "$TMP/cg.tsv" --levels-out "$TMP/cg.levels"
cat "$TMP/cg.levels"
first=$(awk -F'\t' 'NR == 2 { print $1 "\t" $4 }' "$TMP/cg.levels")
case "$first" in L2*) ;; *) fail "--bypass-l1: first level is '$first', expected L2 or L2-near";; esac
num_ge "$(echo "$first" | cut -f2)" "$(awk -v x="${l1:-0}" 'BEGIN { print 2 * x }')" ||
    fail "--bypass-l1: first level ($first) is not well above L1 (${l1:-?} cycles)"
done_testing
