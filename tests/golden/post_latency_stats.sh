#!/usr/bin/env bash
# latency_stats on logs with known latencies: exact hand-computed values, a
# golden TSV, atomic --out, and every bad input (exit code, message, no file).
source "$(dirname "$0")/../lib.sh"
source "$ROOT/tests/golden/post/common.sh"
need_tools
LS=$ROOT/bin/latency_stats
cd "$TMP"

mklog_fixture known known.bin --kernel baseline --wpb 2 --n 320 --sm-count 3 --clock-mhz 2000
mklog_fixture float4 float4.bin --kernel float4 --wpb 2 --n 192 --elem-bytes 16 --clock-mhz 2000

# --- exact values, worked by hand (type 7: h = (n-1)p) -----------------------
# all 10: 100 200 300 400 500 600 700 800 10000 20000
#   mean 33600/10 = 3360; p5 h=.45 -> 145; p50 h=4.5 -> 550;
#   p95 h=8.55 -> 10000+.55*10000 = 15500; p99 h=8.91 -> 19100
# SM 0: 300 400 500 600  -> mean 450, p5 315, p50 450, p95 585, p99 597
# SM 1: 100 200 700 800  -> mean 450, p5 115, p50 450, p95 785, p99 797
# SM 2: 10000 20000      -> mean 15000, p5 10500, p50 15000, p95 19500, p99 19900
# ns = cycles / 2000 MHz * 1000 = cycles / 2
expect_exit 0 "$LS" known.bin --per-sm
"$LS" known.bin --per-sm >known.tsv 2>known.err
want() { # SM COLUMNS-AS-TEXT
    local got
    got=$(awk -F'\t' -v sm="$1" '!/^#/ && $4 == sm { print $5, $6, $7, $8, $9, $10, $11, $12, $13, $15, $16 }' known.tsv)
    [ "$got" = "$2" ] || fail "sm $1: got '$got', want '$2'"
}
#        count mean p5 p50 p95 p99 min max mean_ns p50_ns p95_ns
want all "10 3360.000 145.000 550.000 15500.000 19100.000 100 20000 1680.000 275.000 7750.000"
want 0   "4 450.000 315.000 450.000 585.000 597.000 300 600 225.000 225.000 292.500"
want 1   "4 450.000 115.000 450.000 785.000 797.000 100 800 225.000 225.000 392.500"
want 2   "2 15000.000 10500.000 15000.000 19500.000 19900.000 10000 20000 7500.000 7500.000 9750.000"
[ -s known.err ] && fail "unexpected stderr: $(cat known.err)"
grep -q '^# sm_clock_measured_MHz	2000$' known.tsv || fail "metadata lines missing"
grep -q '^log	kernel	wpb	sm	count	mean_cycles	p5_cycles	p50_cycles	p95_cycles	p99_cycles	min_cycles	max_cycles	mean_ns' known.tsv \
    || fail "header row differs"
golden latency_stats_known_per_sm.tsv known.tsv

# --- several logs, --out written atomically ----------------------------------
expect_exit 0 "$LS" known.bin float4.bin --out two.tsv
[ -z "$OUTTXT" ] || fail "--out printed: $OUTTXT"
[ -f two.tsv ] || fail "--out two.tsv not written"
no_files_like . 'two.tsv.tmp'
[ "$(grep -vc '^#' two.tsv)" = 3 ] || fail "want header + 2 rows in two.tsv"
golden latency_stats_two_logs.tsv two.tsv

# --- clock fallback: no measured clock -> nominal, with a note ---------------
mklog_fixture known noclock.bin --clock-mhz 0 --nominal-khz 1000000
expect_exit 0 "$LS" noclock.bin
expect_says "no measured SM clock"
expect_says "1000 MHz"
"$LS" noclock.bin 2>/dev/null | awk -F'\t' '!/^#/ && $4 == "all" { if ($13 != "3360.000") exit 1 }' \
    || fail "nominal clock 1000 MHz: mean_ns should equal mean_cycles"

# --- usage ---------------------------------------------------------------------
expect_exit 0 "$LS" --help
expect_says "usage: latency_stats"
expect_exit 2 "$LS"
expect_says "no LOG given"
expect_exit 2 "$LS" known.bin --bogus
expect_says "unknown option '--bogus'"
expect_exit 2 "$LS" known.bin --out
expect_says "option --out needs a value"

# --- runtime failures: exit 1, a clear message, no output file -----------------
expect_exit 1 "$LS" missing.bin --out bad1.tsv
expect_says "cannot open missing.bin"
head -c $(($(wc -c <known.bin) - 12)) known.bin >truncated.bin   # cut inside the gzip stream
expect_exit 1 "$LS" truncated.bin --out bad2.tsv
expect_says "truncated.bin is truncated"
echo "not a log" >text.bin
expect_exit 1 "$LS" text.bin --out bad3.tsv
expect_says "is not a warp log"
: >empty.bin
expect_exit 1 "$LS" empty.bin
expect_says "empty"
# a good log then a bad one: still no table at all
expect_exit 1 "$LS" known.bin truncated.bin --out bad4.tsv
expect_exit 1 "$LS" known.bin --out no/such/dir/out.tsv
expect_says "cannot write no/such/dir/out.tsv"
expect_says "does the output directory exist"
no_files_like . 'bad*.tsv*' 'no'
done_testing
