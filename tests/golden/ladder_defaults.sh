#!/usr/bin/env bash
# The latency ladder as the default reference latency of the post-processors:
#   plot_throughput DATA OUT --ladder TSV (or $WARPLAT_LADDER): the bound at
#     the ladder's DRAM plateau when LATENCY is not given;
#   latency_stats LOG... --ladder TSV: p50_x_dram and mean_x_dram columns.
# Uses the real H100 ladders (tests/fixtures/ladder/h100_real_{ca,cg}.tsv,
# DRAM plateaus 690.38 / 690.99 cycles at 1995 MHz) and the post fixtures.
# Golden files: tests/golden/ladder_defaults/ (UPDATE_GOLDEN=1 rewrites them).
# The chart checks need gnuplot; without it the rest runs and the test skips.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/tests/golden/post/common.sh"
GOLDEN_DIR=$ROOT/tests/golden/ladder_defaults   # golden() of common.sh compares here
need_tools
B=$ROOT/bin
SW=$FIX/sweep_baseline_4.tsv
unset WARPLAT_LADDER   # the defaults below must not depend on the caller's environment
cd "$TMP"
# Relative names, so that the paths the tools print are the same everywhere.
cp "$ROOT/tests/fixtures/ladder/h100_real_ca.tsv" ca.tsv
cp "$ROOT/tests/fixtures/ladder/h100_real_cg.tsv" cg.tsv
cp "$ROOT/tests/fixtures/ladder/flat.tsv" flat.tsv
printf 'not\ta ladder\n1\t2\n' >junk.tsv
mklog_fixture known known.bin --kernel baseline --wpb 2 --n 320 --sm-count 3 --clock-mhz 2000
mklog_fixture float4 float4.bin --kernel float4 --wpb 2 --n 192 --elem-bytes 16 --clock-mhz 2000
mkdir out

# The DRAM plateau these tests are built on (independent of the tools below).
expect_exit 0 "$B/plot_ladder" ca.tsv --dram-latency
[ "$OUTTXT" = "$(printf '690.4\t346.1')" ] || fail "h100_real_ca DRAM plateau: '$OUTTXT'"

# ============================ latency_stats ===================================
# --- without --ladder: byte-identical to the table without the option --------
"$B/latency_stats" known.bin --per-sm >plain.tsv || fail "latency_stats known.bin failed"
cmp -s plain.tsv "$ROOT/tests/golden/post/latency_stats_known_per_sm.tsv" \
    || fail "latency_stats without --ladder differs from tests/golden/post/latency_stats_known_per_sm.tsv"
grep -q 'x_dram' plain.tsv && fail "x_dram columns appear without --ladder"

# --- with --ladder: two more columns, by hand: x / 690.38 ---------------------
# all:  p50 550 -> 0.797,  mean 3360 -> 4.867
# SM 0 and 1: p50 = mean = 450 -> 0.652;  SM 2: 15000 -> 21.727
expect_exit 0 "$B/latency_stats" known.bin --per-sm --ladder ca.tsv
[ "$(printf '%s\n' "$OUTTXT" | grep -c 'note:')" = 0 ] || fail "unexpected note: $OUTTXT"
"$B/latency_stats" known.bin --per-sm --ladder ca.tsv >known_x.tsv 2>/dev/null
hdr=$(grep -v '^#' known_x.tsv | head -n 1)
[ "$hdr" = "$(head -n 1 <(grep -v '^#' plain.tsv))	p50_x_dram	mean_x_dram" ] \
    || fail "header with --ladder: $hdr"
want() { # SM "p50_x_dram mean_x_dram"
    local got
    got=$(awk -F'\t' -v sm="$1" '!/^#/ && $4 == sm { print $20, $21 }' known_x.tsv)
    [ "$got" = "$2" ] || fail "x_dram sm $1: got '$got', want '$2'"
}
want all "0.797 4.867"
want 0 "0.652 0.652"
want 1 "0.652 0.652"
want 2 "21.727 21.727"
grep -q '^# dram_latency_cycles	690.38$' known_x.tsv || fail "no '# dram_latency_cycles 690.38' line"
grep -q '^# ladder	ca.tsv$' known_x.tsv || fail "no '# ladder ca.tsv' line"
# every column but the two new ones is what the plain table says
diff <(grep -v '^# \(ladder\|dram_latency_\)' known_x.tsv | cut -f 1-19) plain.tsv >/dev/null \
    || fail "--ladder changed the existing columns"
golden latency_stats_known_per_sm_x_dram.tsv known_x.tsv

# two logs, --out, the L1-bypassed ladder (690.99 cycles): float4's latencies
# 900 1000 1100 1200 1200 1300 -> p50 1150 -> 1150 / 690.99 = 1.664
expect_exit 0 "$B/latency_stats" known.bin float4.bin --ladder=cg.tsv --out two_x.tsv
[ -z "$OUTTXT" ] || fail "--out printed: $OUTTXT"
golden latency_stats_two_logs_x_dram.tsv two_x.tsv
got=$(awk -F'\t' '!/^#/ && $1 == "float4.bin" { print $8, $20 }' two_x.tsv)
[ "$got" = "1150.000 1.664" ] || fail "float4 p50_cycles and p50_x_dram: got '$got'"

# a log at a very different SM clock: a note, the ratio still in cycles
mklog_fixture known slow.bin --clock-mhz 1500
expect_exit 0 "$B/latency_stats" slow.bin --ladder ca.tsv
expect_says "note: the ladder ca.tsv ran at about 1995 MHz, slow.bin at 1500 MHz"

# --- errors: usage 2; unreadable ladder or no DRAM level 1, and no table -------
expect_exit 2 "$B/latency_stats" known.bin --ladder
expect_says "option --ladder needs a value"
expect_exit 2 "$B/latency_stats" known.bin --ladder=
expect_exit 1 "$B/latency_stats" known.bin --ladder missing.tsv --out bad1.tsv
expect_says "latency ladder: cannot open missing.tsv"
expect_exit 1 "$B/latency_stats" known.bin --ladder flat.tsv --out bad2.tsv
expect_says "flat.tsv: found 1 plateau"
expect_exit 1 "$B/latency_stats" known.bin --ladder junk.tsv --out bad3.tsv
expect_says "junk.tsv"
OUTTXT=$("$B/latency_stats" known.bin --ladder missing.tsv 2>/dev/null)
[ -z "$OUTTXT" ] || fail "a bad ladder still printed a table: $OUTTXT"
no_files_like . 'bad*'

# ============================ plot_throughput =================================
# --- errors first: they need no gnuplot. Exit 1, a message, no file at all ----
expect_exit 1 "$B/plot_throughput" "$SW" out/e1.svg --ladder missing.tsv
expect_says "latency ladder (from --ladder): cannot open missing.tsv"
expect_exit 1 "$B/plot_throughput" "$SW" out/e2.svg --ladder flat.tsv
expect_says "found 1 plateau, need at least a cache level and DRAM"
expect_exit 1 "$B/plot_throughput" "$SW" out/e3.svg --ladder junk.tsv
expect_exit 1 env WARPLAT_LADDER=missing.tsv "$B/plot_throughput" "$SW" out/e4.svg
expect_says "latency ladder (from WARPLAT_LADDER): cannot open missing.tsv"
# --ladder wins over the environment, also when the environment's is bad
expect_exit 1 env WARPLAT_LADDER=ca.tsv "$B/plot_throughput" "$SW" out/e5.svg --ladder flat.tsv
expect_says "flat.tsv: found 1 plateau"
expect_exit 2 "$B/plot_throughput" "$SW" out/e6.svg --ladder
expect_says "option --ladder needs a value"
no_files_like out '*'

[ "$nfail" -eq 0 ] || done_testing
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot is not installed: latency_stats checked, plot_throughput charts not"

# --- --ladder: the bound at the DRAM plateau, and the label says so ------------
expect_exit 0 "$B/plot_throughput" "$SW" out/tp_ladder.svg --ladder ca.tsv
# the ladder ran at 1995 MHz, the sweep at 1755: said, not hidden
expect_says "note: the ladder ca.tsv ran at about 1995 MHz, the sweep at 1755 MHz"
[ -s out/tp_ladder.svg ] || fail "no chart out/tp_ladder.svg"
golden throughput_ladder_ca.gp out/tp_ladder.gp
golden throughput_ladder_ca.dat out/tp_ladder.dat
grep -q "Little''s law bound at 690.38 cycles: DRAM plateau of the latency ladder" out/tp_ladder.gp \
    || fail "label should name the DRAM plateau of the latency ladder"
grep -q '^# index 1: bound at 690.38 cycles$' out/tp_ladder.dat || fail "bound not at 690.38 cycles"
# 132 * 4 warps * 128 B * 1755e6 / 690.38 / 1e9 = 171.804 GB/s
grep -q '^4	171.804$' out/tp_ladder.dat || fail "bound at w=4 should be 171.804 GB/s"

# The scripts name their own files, so the charts compared below are written
# under the same names as the ones they are compared with, in other folders.
# --- WARPLAT_LADDER names the ladder when --ladder is not given: same chart -----
mkdir env
expect_exit 0 env WARPLAT_LADDER=ca.tsv "$B/plot_throughput" "$SW" env/tp_ladder.svg
cmp -s env/tp_ladder.gp out/tp_ladder.gp || fail "WARPLAT_LADDER chart script differs from --ladder's"
cmp -s env/tp_ladder.dat out/tp_ladder.dat || fail "WARPLAT_LADDER chart data differ from --ladder's"
# --ladder wins over WARPLAT_LADDER: the L1-bypassed ladder, 690.99 cycles
expect_exit 0 env WARPLAT_LADDER=ca.tsv "$B/plot_throughput" "$SW" out/tp_cg.svg --ladder cg.tsv
grep -q "bound at 690.99 cycles: DRAM plateau of the latency ladder" out/tp_cg.gp \
    || fail "--ladder cg.tsv should beat WARPLAT_LADDER"

# --- explicit LATENCY wins over both; the ladder is not even read ---------------
mkdir given
expect_exit 0 env WARPLAT_LADDER=missing.tsv "$B/plot_throughput" "$SW" 622 given/tp.svg \
    --ladder flat.tsv
expect_says "LATENCY 622 is given, so the ladder flat.tsv is not used"
cmp -s given/tp.gp "$ROOT/tests/golden/post/throughput_622.gp" \
    || fail "explicit LATENCY with a ladder: script differs from tests/golden/post/throughput_622.gp"
cmp -s given/tp.dat "$ROOT/tests/golden/post/throughput_622.dat" \
    || fail "explicit LATENCY with a ladder: data differ from tests/golden/post/throughput_622.dat"

# --- neither (an empty WARPLAT_LADDER counts as unset): today's default ---------
expect_exit 0 env WARPLAT_LADDER= "$B/plot_throughput" "$SW" out/tp_auto.png
cmp -s out/tp_auto.gp "$ROOT/tests/golden/post/throughput_auto.gp" \
    || fail "no ladder: script differs from tests/golden/post/throughput_auto.gp"
grep -q "620 cycles (lowest measured p50)" out/tp_auto.gp || fail "no ladder: want the lowest p50"
no_files_like . 'out/*.tmp' 'env/*.tmp' 'given/*.tmp'
done_testing
