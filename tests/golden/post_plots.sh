#!/usr/bin/env bash
# The chart tools render (needs gnuplot: skipped without it) and write the
# expected gnuplot scripts and chart data (golden files; images are only
# checked to be well-formed, since their bytes depend on the gnuplot build).
source "$(dirname "$0")/../lib.sh"
source "$ROOT/tests/golden/post/common.sh"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
need_tools
B=$ROOT/bin
cd "$TMP"
mklog_fixture known known.bin --kernel baseline --wpb 2 --n 320 --sm-count 3 --clock-mhz 2000
mklog_fixture float4 float4.bin --kernel float4 --wpb 2 --n 192 --elem-bytes 16 --clock-mhz 2000
mkdir out

is_svg() { head -c 200 "$1" | grep -q '<svg\|<?xml' || fail "$1 is not an SVG"; }
is_png() { [ "$(head -c 4 "$1" | tail -c 3)" = PNG ] || fail "$1 is not a PNG"; }
is_pdf() { [ "$(head -c 4 "$1")" = %PDF ] || fail "$1 is not a PDF"; }
# The binary warp data as text: x_start y length rgb per warp.
dump_warps() { od -A n -v -t f8 -w32 "$1" | awk '{ printf "%s %s %s #%06x\n", $1, $2, $3, $4 }'; }

# --- plot_warps: default SMs (the first four in the log: 0 1 2) ---------------
expect_exit 0 "$B/plot_warps" known.bin out/warps.svg
is_svg out/warps.svg
golden warps_known.gp out/warps.gp
dump_warps out/warps.dat >warps.txt
golden warps_known.dat.txt warps.txt
# Each SM starts at x = 0 (its own clock), rank by SM then start; warp 0 black.
[ "$(awk '$1 == 0' warps.txt | wc -l)" = 3 ] || fail "want one warp at x=0 per SM: $(cat warps.txt)"
# the script redraws by itself from its directory
(cd out && rm warps.svg && gnuplot -c warps.gp) || fail "gnuplot -c warps.gp failed"
[ -s out/warps.svg ] || fail "gnuplot -c warps.gp did not write warps.svg"
# --sms order sets the colours; --max-warps truncates
expect_exit 0 "$B/plot_warps" known.bin out/w2.png --sms 1,0 --max-warps 6
is_png out/w2.png
expect_says "drawing only the first 6 warps"
golden warps_sms_1_0.gp out/w2.gp
dump_warps out/w2.dat >w2.txt
golden warps_sms_1_0.dat.txt w2.txt
expect_exit 0 "$B/plot_warps" known.bin out/w3.pdf --sms 2
is_pdf out/w3.pdf
no_files_like out '*.tmp'

# --- plot_latency ----------------------------------------------------------------
expect_exit 0 "$B/plot_latency" known.bin float4.bin out/lat.svg
is_svg out/lat.svg
golden latency_cdf.gp out/lat.gp
golden latency_cdf.dat out/lat.dat
# the CDF reaches 1 at the maximum of each log
awk 'BEGIN { RS = ""; n = 0 } { n++; k = split($0, l, "\n"); split(l[k], f, "\t"); if (f[2] != 1) bad = 1 }
     END { exit bad || n != 2 }' out/lat.dat || fail "lat.dat: want two blocks ending at fraction 1"

# --- plot_throughput ---------------------------------------------------------------
SW=$FIX/sweep_baseline_4.tsv
expect_exit 0 "$B/plot_throughput" "$SW" 622 1 out/tp.svg   # the original's 4-argument form
expect_says "ignoring the third argument"
is_svg out/tp.svg
golden throughput_622.gp out/tp.gp
golden throughput_622.dat out/tp.dat
# bound at 4 warps/SM, 622 cycles: 132*4*128 B * 1755e6/s / 622 / 1e9 = 190.691 GB/s
grep -q '^4	190.691$' out/tp.dat || fail "bound at w=4 should be 190.691 GB/s"
expect_exit 0 "$B/plot_throughput" "$SW" out/tp_auto.png   # LATENCY from the data
is_png out/tp_auto.png
golden throughput_auto.gp out/tp_auto.gp
grep -q "620 cycles (lowest measured p50)" out/tp_auto.gp || fail "label should name the lowest p50"
expect_exit 0 "$B/plot_throughput" "$SW" 700 out/tp3.svg
grep -q "700 cycles (given)" out/tp3.gp || fail "label should name the given latency"
# --ceiling: the achievable bandwidth as a line beside the peak
expect_exit 0 "$B/plot_throughput" "$SW" 622 out/tp_ceiling.svg --ceiling 3194.1
is_svg out/tp_ceiling.svg
golden throughput_ceiling.gp out/tp_ceiling.gp
cmp -s out/tp_ceiling.dat out/tp.dat || fail "--ceiling changed the chart's data"
expect_exit 2 "$B/plot_throughput" "$SW" 622 out/tp_bad.svg --ceiling -5
expect_says "--ceiling must be a bandwidth in GB/s > 0"
expect_exit 2 "$B/plot_throughput" "$SW" out/tp_bad.svg --ceiling
expect_says "option --ceiling needs a value"
[ ! -e out/tp_bad.svg ] || fail "a usage error wrote a chart"
# a sweep that recorded every block: the bound with the warps measured in
# flight (index 3, drawn beside the others); the point without it is left out
expect_exit 0 "$B/plot_throughput" "$FIX/sweep_inflight_4.tsv" 622 out/tp_inflight.svg
is_svg out/tp_inflight.svg
golden throughput_inflight.gp out/tp_inflight.gp
golden throughput_inflight.dat out/tp_inflight.dat
grep -q "bytes measured in flight / measured latency" out/tp_inflight.gp || fail "no in-flight curve in the chart"
grep -q '^8	5.1	334.1$' out/tp_inflight.dat || fail "in-flight bound at 8 warps/SM should be 334.1 GB/s"
# ... and tables without the column (every sweep before it) draw exactly as before
grep -q 'index 3' out/tp.dat out/tp.gp && fail "a sweep without in-flight columns drew index 3"
no_files_like out '*.tmp'
done_testing
