#!/usr/bin/env bash
# Bad input to the chart tools: exit 2 for usage errors, 1 for runtime
# failures, a clear message, and no file (final or .tmp) left behind.
# Needs no gnuplot: a missing one and a failing one are simulated.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/tests/golden/post/common.sh"
need_tools
B=$ROOT/bin
cd "$TMP"
mklog_fixture known known.bin --kernel baseline --wpb 2 --clock-mhz 2000
SW=$FIX/sweep_baseline_4.tsv
mkdir out

# --- -h -------------------------------------------------------------------------
for t in plot_warps plot_latency plot_throughput mklog; do
    expect_exit 0 "$B/$t" --help
    expect_says "usage: $t"
    expect_exit 0 "$B/$t" -h
done

# --- usage errors: exit 2 --------------------------------------------------------
expect_exit 2 "$B/plot_warps" known.bin
expect_says "want LOG and OUT"
expect_exit 2 "$B/plot_warps" known.bin out/w.svg --bogus
expect_says "unknown option '--bogus'"
expect_exit 2 "$B/plot_warps" known.bin out/w.svg --sms 1,x
expect_says "--sms wants"
expect_exit 2 "$B/plot_warps" known.bin out/w.svg --max-warps 0
expect_exit 2 "$B/plot_warps" known.bin out/w.jpg
expect_says "must end in .svg, .png or .pdf"
expect_exit 2 "$B/plot_latency" out/l.svg
expect_exit 2 "$B/plot_latency" known.bin out/l.svg --bogus
expect_exit 2 "$B/plot_throughput" "$SW"
expect_says "want DATA [LATENCY] OUT"
for lat in 0 -5 -0.5 abc 12x nan inf; do
    expect_exit 2 "$B/plot_throughput" "$SW" "$lat" out/t.svg
    expect_says "LATENCY must be a number of cycles > 0; got $lat"
done
expect_exit 2 "$B/plot_throughput" "$SW" 622 out/t.svg --bogus
expect_exit 2 "$B/plot_throughput" "$SW" 622 1 out/t.svg extra
expect_says "too many arguments"
expect_exit 2 "$B/mklog"
expect_says "missing OUT.bin"

# --- runtime failures: exit 1 -----------------------------------------------------
expect_exit 1 "$B/plot_warps" missing.bin out/w.svg
expect_says "cannot open missing.bin"
head -c $(($(wc -c <known.bin) - 12)) known.bin >truncated.bin
expect_exit 1 "$B/plot_warps" truncated.bin out/w.svg
expect_says "truncated.bin is truncated"
echo "plain text" >text.bin
expect_exit 1 "$B/plot_latency" known.bin text.bin out/l.svg
expect_says "text.bin is not a warp log"
expect_exit 1 "$B/plot_warps" known.bin out/w.svg --sms 77
expect_says "no warps to draw"
expect_exit 1 "$B/plot_throughput" missing.tsv 622 out/t.svg
expect_says "cannot open missing.tsv"
printf '# sm_count\t132\nwarps_per_sm\tbw_GBps\n4\t100\n' >nopeak.tsv
expect_exit 1 "$B/plot_throughput" nopeak.tsv 622 out/t.svg
expect_says "lacks a positive '# peak_dram_GBps"
printf 'warps_per_sm\tbw_GBps\n4\t1e\n' >badnum.tsv
expect_exit 1 "$B/plot_throughput" badnum.tsv 622 out/t.svg
expect_says "badnum.tsv:2: column bw_GBps"
printf 'a\tb\n1\n' | "$B/mklog" x.bin 2>/dev/null && fail "mklog accepted a bad row"
no_files_like . 'x.bin*'

if command -v gnuplot >/dev/null 2>&1; then
    for t in "plot_warps known.bin" "plot_latency known.bin"; do
        expect_exit 1 "$B/"$t no/such/dir/c.svg
        expect_says "the output directory no/such/dir does not exist"
    done
    expect_exit 1 "$B/plot_throughput" "$SW" 622 no/such/dir/c.svg
    expect_says "does not exist"
fi

# gnuplot missing: PATH without it (the tools need nothing else from PATH)
expect_exit 1 env PATH="$TMP/empty" "$B/plot_warps" known.bin out/w.svg
expect_says "gnuplot not found: install it with apt-get install gnuplot-nox"
expect_exit 1 env PATH="$TMP/empty" "$B/plot_throughput" "$SW" 622 out/t.svg
expect_says "gnuplot not found"

# gnuplot that fails (as on a script error): nothing is left, not even .tmp;
# with --keep the script and data stay for debugging
mkdir fakebin
printf '#!/bin/sh\necho "fake gnuplot: line 1: error" >&2\nexit 1\n' >fakebin/gnuplot
chmod +x fakebin/gnuplot
expect_exit 1 env PATH="$TMP/fakebin:/usr/bin:/bin" "$B/plot_warps" known.bin out/w.svg
expect_says "gnuplot failed (exit status 1)"
expect_says "fake gnuplot: line 1: error"
expect_exit 1 env PATH="$TMP/fakebin:/usr/bin:/bin" "$B/plot_latency" known.bin out/l.png
expect_exit 1 env PATH="$TMP/fakebin:/usr/bin:/bin" "$B/plot_throughput" "$SW" out/t.pdf
# a gnuplot that exits 0 but draws nothing is a failure too
printf '#!/bin/sh\nexit 0\n' >fakebin/gnuplot
expect_exit 1 env PATH="$TMP/fakebin:/usr/bin:/bin" "$B/plot_warps" known.bin out/w.svg
expect_says "wrote no chart"
no_files_like out '*'
no_files_like . '*.tmp' 'w.*' 'l.*' 't.*'
expect_exit 1 env PATH="$TMP/fakebin:/usr/bin:/bin" "$B/plot_warps" known.bin out/w.svg --keep
expect_says "kept for debugging: out/w.gp."
compgen -G 'out/w.gp.??????.tmp' >/dev/null && compgen -G 'out/w.dat.??????.tmp' >/dev/null ||
    fail "--keep should keep out/w.gp.XXXXXX.tmp and out/w.dat.XXXXXX.tmp"
compgen -G 'out/w.svg.*' >/dev/null && fail "--keep must not keep the empty chart"
[ -e out/w.svg ] && fail "--keep must not leave a chart"
done_testing
