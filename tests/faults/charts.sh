#!/usr/bin/env bash
# tests/faults/charts.sh - a chart that gnuplot could not finish is a failure
# (issue 35).  gnuplot ignores a failed write (a full disk) and exits 0, so
# the tools check the chart itself: an SVG ends with </svg>, a PNG with its
# IEND chunk, a PDF with %%EOF.  A cut-short chart, gnuplot's failure or a
# full disk under the data file: exit 1, one sentence, nothing left (no
# chart, no script, no data, no NAME.XXXXXX.tmp).  Needs no gnuplot: fake
# ones on PATH stand in for it.
. "$(dirname "$0")/../lib.sh"
require_bin bin/mklog bin/plot_warps bin/plot_latency bin/report

FIX=$ROOT/tests/fixtures
B=$ROOT/bin
cd "$TMP" || exit 1
"$B/mklog" known.bin <"$FIX/post/known.tsv" 2>/dev/null || fail "mklog known.bin failed"
LADDER=$FIX/ladder/h100_ca.tsv

# fake NAME BODY: a gnuplot (sh script) in fake-NAME/; $4 is the chart's name
fake() {
    mkdir -p "fake-$1"
    printf '#!/bin/sh\n%s\n' "$2" >"fake-$1/gnuplot"
    chmod +x "fake-$1/gnuplot"
}
# nothing_left DIR: DIR is empty (no chart, script, data or temporary)
nothing_left() { [ -z "$(ls -A "$1")" ] || fail "$2: files were left: $(ls -A "$1")"; }
one_sentence() {
    [ "$(printf '%s\n' "$OUTTXT" | grep -c .)" -eq 1 ] || fail "expected one sentence, got: $OUTTXT"
}

# a whole chart of each format passes: the check rejects only what is cut short
fake whole 'case "$4" in
  *.svg.*) printf "<svg>\n<g/>\n</svg>\n\n" >"$4" ;;
  *.png.*) printf "\211PNG\r\n\032\n\000\000\000\000IEND\256B\140\202" >"$4" ;;
  *.pdf.*) printf "%%PDF-1.5\n%%%%EOF\n" >"$4" ;;
esac'
mkdir out
for ext in svg png pdf; do
    expect_exit 0 env PATH="$TMP/fake-whole:$PATH" "$B/plot_warps" known.bin out/w.$ext
    [ -s out/w.$ext ] && [ -s out/w.gp ] && [ -s out/w.dat ] || fail "a whole $ext chart was not kept: $(ls out)"
done
rm -f out/*

# cut short at a block boundary, exit 0 (what gnuplot does on a full disk)
fake cut 'case "$4" in
  *.svg.*) printf "<svg>\n<g>\n<path d=\"M 1 2" >"$4" ;;
  *.png.*) printf "\211PNG\r\n\032\n\000\000\000\rIHDR" >"$4" ;;
  *.pdf.*) printf "%%PDF-1.5\n1 0 obj" >"$4" ;;
esac
exit 0'
for ext in svg png pdf; do
    expect_exit 1 env PATH="$TMP/fake-cut:$PATH" "$B/plot_warps" known.bin out/w.$ext
    expect_says "gnuplot exited 0 but its chart out/w.$ext is cut short"
    expect_says "is the disk full?"; one_sentence
    nothing_left out "plot_warps, a cut-short $ext"
done
expect_exit 1 env PATH="$TMP/fake-cut:$PATH" "$B/plot_latency" known.bin out/l.svg
expect_says "is cut short"
nothing_left out "plot_latency, a cut-short svg"
expect_exit 1 env PATH="$TMP/fake-cut:$PATH" "$B/report" chart-ladders out/lad.svg "H100=$LADDER"
expect_says "is cut short"
nothing_left out "report chart-ladders, a cut-short svg"
# an old chart under the name stays as it was
echo old >out/keep.svg
expect_exit 1 env PATH="$TMP/fake-cut:$PATH" "$B/report" chart-ladders out/keep.svg "H100=$LADDER"
[ "$(cat out/keep.svg)" = old ] || fail "a cut-short chart replaced out/keep.svg"
rm -f out/keep.svg

# gnuplot's own failure after half a chart: exit 1, nothing left
fake fails 'printf "<svg>\n<g>" >"$4"; echo "fake gnuplot: write error" >&2; exit 1'
expect_exit 1 env PATH="$TMP/fake-fails:$PATH" "$B/report" chart-ladders out/lad.svg "H100=$LADDER"
expect_says "gnuplot failed (exit status 1)"
expect_says "fake gnuplot: write error"
nothing_left out "report chart-ladders, gnuplot failed"

# ---- a real full disk: a 64 KiB tmpfs (needs root and mount; skipped
# otherwise).  A gnuplot that writes as gnuplot does, ignoring the error.
if [ "$(id -u)" -eq 0 ] && mkdir disk && mount -t tmpfs -o size=64k warplat-test "$TMP/disk" 2>/dev/null; then
    trap 'umount "$TMP/disk" 2>/dev/null; rm -rf "$TMP"' EXIT
    fake big 'awk "BEGIN { print \"<svg>\"; for (i = 0; i < 20000; i++) print \"<path d=\\\"M 1 2 L 3 4\\\"/>\"; print \"</svg>\" }" >"$4" 2>/dev/null
exit 0'
    expect_exit 1 env PATH="$TMP/fake-big:$PATH" "$B/plot_warps" known.bin disk/w.svg
    expect_says "is cut short"; one_sentence
    nothing_left disk "plot_warps on a full tmpfs"
    expect_exit 1 env PATH="$TMP/fake-big:$PATH" "$B/report" chart-ladders disk/lad.svg "H100=$LADDER"
    expect_says "is cut short"
    nothing_left disk "report chart-ladders on a full tmpfs"
    # the script and data do not fit (the disk is filled first): their
    # write error (ENOSPC) is the sentence
    cat /dev/zero >disk/fill 2>/dev/null
    expect_exit 1 env PATH="$TMP/fake-whole:$PATH" "$B/plot_warps" known.bin disk/w.svg
    expect_says "No space left on device"; one_sentence
    rm disk/fill
    nothing_left disk "plot_warps, its data on a full tmpfs"
    umount "$TMP/disk"
else
    echo "note: the full-tmpfs case is skipped (needs root and mount -t tmpfs)"
fi

done_testing
