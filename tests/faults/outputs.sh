#!/usr/bin/env bash
# tests/faults/outputs.sh - outputs that nothing can corrupt (issue 24): a
# signal mid-write, two writers of one output, a FIFO as output, a full disk
# (ulimit -f), a directory or an unwritable folder as output, a failed write
# to stdout.  Each time: no partial file under the final name, no temporary
# file left (NAME.XXXXXX.tmp, instrument/outfile.h), the right exit status and
# one sentence.
. "$(dirname "$0")/../lib.sh"
require_bin bin/tsv_scale bin/tsv bin/mklog bin/sector_compare bin/fleet bin/ceiling bin/plot_warps

FIX=tests/fixtures
IN=$FIX/ladder/h100_ca.tsv
cd "$TMP" || exit 1
B=$ROOT/bin
mkdir out

# no_temporaries DIR: no NAME.XXXXXX.tmp (nor an old NAME.tmp) under DIR
no_temporaries() {
    local left
    left=$(find "$1" -name '*.tmp' 2>/dev/null)
    [ -z "$left" ] || fail "temporary files left: $left"
}
# one_sentence: the last expect_exit said exactly one line
one_sentence() {
    [ "$(printf '%s\n' "$OUTTXT" | grep -c .)" -eq 1 ] || fail "expected one sentence, got: $OUTTXT"
}
# wait_for GLOB: until a file matching GLOB exists (30 s at most)
wait_for() { wait_until 30 compgen -G "$1"; }

# ---- a signal mid-write: the input is a FIFO that the test holds open, so
# the tool has its temporary file open and waits, deterministically.  A
# background job of a script starts with SIGINT ignored (and the suite may
# run under nohup): env sets every signal back to its default.
DFL="env --default-signal"
ulimit -c 0                               # SIGQUIT would dump a core
for sig in INT TERM HUP QUIT ALRM USR1 USR2 PIPE XFSZ; do
    rm -f in.fifo; mkfifo in.fifo
    exec 7<>in.fifo                       # keep the FIFO open for writing
    head -n 20 "$ROOT/$IN" >&7            # some rows, then nothing more
    $DFL "$B/tsv_scale" in.fifo --columns cycles_per_load --factor 2 --out out/s.tsv 2>err.txt &
    pid=$!
    wait_for 'out/s.tsv.*.tmp' || fail "SIG$sig: tsv_scale never opened its temporary file"
    kill -s "$sig" "$pid"
    wait "$pid"; rc=$?
    exec 7>&-
    want=$((128 + $(kill -l "$sig")))     # died of the signal itself
    [ "$rc" -eq "$want" ] || fail "SIG$sig: tsv_scale exited $rc, expected $want"
    [ ! -e out/s.tsv ] || fail "SIG$sig: a partial out/s.tsv was left"
    no_temporaries out
done

# the same for tsv cat and sector_compare --out
rm -f in.fifo; mkfifo in.fifo
exec 7<>in.fifo
printf '# a\tb\nx\ty\n' >&7
"$B/tsv" cat in.fifo --out out/c.tsv 2>/dev/null &
pid=$!
wait_for 'out/c.tsv.*.tmp' || fail "tsv cat never opened its temporary file"
kill -TERM "$pid"; wait "$pid"; rc=$?
exec 7>&-
[ "$rc" -eq 143 ] || fail "tsv cat: exited $rc after SIGTERM, expected 143"
[ ! -e out/c.tsv ] || fail "tsv cat left a partial out/c.tsv"
no_temporaries out

# a chart mid-draw: a gnuplot that hangs; SIGINT to the tool removes the
# data, the script and the chart's temporaries
mkdir -p fakebin
printf '#!/bin/sh\necho $$ > "%s/gnuplot.pid"\nexec sleep 30\n' "$TMP" >fakebin/gnuplot
chmod +x fakebin/gnuplot
"$B/mklog" known.bin <"$ROOT/$FIX/post/known.tsv" 2>/dev/null || fail "mklog known.bin failed"
PATH="$TMP/fakebin:$PATH" $DFL "$B/plot_warps" known.bin out/w.svg 2>/dev/null &
pid=$!
wait_for gnuplot.pid || fail "plot_warps never started gnuplot"
compgen -G 'out/w.dat.*.tmp' >/dev/null || fail "plot_warps: no temporary data file while drawing"
kill -INT "$pid"; wait "$pid"; rc=$?
[ -f gnuplot.pid ] && kill "$(cat gnuplot.pid)" 2>/dev/null
[ "$rc" -eq 130 ] || fail "plot_warps: exited $rc after SIGINT, expected 130"
[ -z "$(ls out)" ] || fail "plot_warps left files after SIGINT: $(ls out)"

# ---- two writers of one output: each run's file is whole, the last wins
"$B/tsv_scale" "$ROOT/$IN" --columns cycles_per_load --factor 2 --out want2.tsv 2>/dev/null
"$B/tsv_scale" "$ROOT/$IN" --columns cycles_per_load --factor 3 --out want3.tsv 2>/dev/null
for i in $(seq 10); do
    "$B/tsv_scale" "$ROOT/$IN" --columns cycles_per_load --factor 2 --out out/r.tsv 2>/dev/null & a=$!
    "$B/tsv_scale" "$ROOT/$IN" --columns cycles_per_load --factor 3 --out out/r.tsv 2>/dev/null & b=$!
    wait $a || fail "concurrent run $i: the first writer failed"
    wait $b || fail "concurrent run $i: the second writer failed"
    cmp -s out/r.tsv want2.tsv || cmp -s out/r.tsv want3.tsv || fail "concurrent run $i: out/r.tsv is a mix"
done
no_temporaries out
rm -f out/r.tsv

# ---- a FIFO as output: written in place, still a FIFO afterwards
mkfifo out/o.fifo
cat out/o.fifo >got.tsv & reader=$!
expect_exit 0 "$B/tsv" cat "$ROOT/$IN" --out out/o.fifo
wait $reader
[ -p out/o.fifo ] || fail "tsv cat replaced the FIFO out/o.fifo"
cmp -s got.tsv "$ROOT/$IN" || fail "the FIFO did not carry the table"
cat out/o.fifo >got.bin & reader=$!
expect_exit 0 "$B/mklog" out/o.fifo <"$ROOT/$FIX/post/known.tsv"
wait $reader
[ -p out/o.fifo ] || fail "mklog replaced the FIFO out/o.fifo"
[ -s got.bin ] || fail "mklog wrote nothing into the FIFO"
no_temporaries out
rm -f out/o.fifo

# ---- a directory as output: refused with a sentence
mkdir out/d
expect_exit 1 "$B/tsv" cat "$ROOT/$IN" --out out/d;   expect_says "is a directory"; one_sentence
expect_exit 1 "$B/tsv_scale" "$ROOT/$IN" --columns cycles_per_load --factor 2 --out out/d
expect_says "is a directory"
[ -d out/d ] || fail "out/d is no longer a directory"
no_temporaries out
rmdir out/d

# ---- a full disk (no file may grow: ulimit -f 0, SIGXFSZ ignored)
small_disk() { (ulimit -f 0; trap '' XFSZ; "$@"); }
echo old >out/keep.tsv
expect_exit 1 small_disk "$B/tsv_scale" "$ROOT/$IN" --columns cycles_per_load --factor 2 --out out/keep.tsv
expect_says "cannot write out/keep.tsv"; one_sentence
[ "$(cat out/keep.tsv)" = old ] || fail "a failed write changed out/keep.tsv"
expect_exit 1 small_disk "$B/sector_compare" "$ROOT/$FIX/post/float4.tsv" --out out/sc.tsv
[ ! -e out/sc.tsv ] || fail "sector_compare left out/sc.tsv on a full disk"
expect_exit 1 small_disk "$B/fleet" report "$ROOT/data/reference/h100" --out out/fleet
[ ! -e out/fleet ] || fail "fleet left out/fleet (made for the report) on a full disk"
no_temporaries out
rm -rf out/fleet
# a file that grows past ulimit -f (64 KiB here): with SIGXFSZ at its default
# the tool dies of it (153), with it ignored the write fails (EFBIG, exit 1);
# either way no temporary file and no partial output is left
seq 1 40000 | awk 'BEGIN { print "# a\tb" } { print $1 "\t" $1 * 3 }' >big.tsv
expect_exit 153 bash -c 'ulimit -f 64; exec env --default-signal "$0" cat "$1" --out out/big.tsv' "$B/tsv" big.tsv
[ ! -e out/big.tsv ] || fail "SIGXFSZ: a partial out/big.tsv was left"
no_temporaries out
expect_exit 1 bash -c 'ulimit -f 64; trap "" XFSZ; exec "$0" cat "$1" --out out/big.tsv' "$B/tsv" big.tsv
expect_says "cannot write out/big.tsv: File too large"; one_sentence
[ ! -e out/big.tsv ] || fail "EFBIG: a partial out/big.tsv was left"
no_temporaries out

# ---- a file the user may not write (mode 444; root too): refused, kept as
# it was, its hard link still the same file
echo old >out/ro.tsv; chmod 444 out/ro.tsv; ln out/ro.tsv ro-link.tsv
expect_exit 1 "$B/tsv" cat "$ROOT/$IN" --out out/ro.tsv
expect_says "cannot write out/ro.tsv: it is read-only (mode 0444)"; one_sentence
[ "$(cat ro-link.tsv)" = old ] && [ out/ro.tsv -ef ro-link.tsv ] || fail "tsv cat replaced the read-only out/ro.tsv"
no_temporaries out
rm -f out/ro.tsv ro-link.tsv

# ---- stdout that cannot be written: exit 1 and a sentence
expect_exit 1 bash -c '"$0" key "$1" >/dev/full' "$B/fleet" "$ROOT/data/reference/h100"
expect_says "standard output"
expect_exit 1 bash -c '"$0" cat "$1" >/dev/full' "$B/tsv" "$ROOT/$IN"
expect_says "standard output"
expect_exit 1 bash -c '"$0" next "$1" >/dev/full' "$B/ceiling" "$ROOT/data/reference/h100/ceiling_search/step1.tsv"
expect_says "standard output"
expect_exit 1 bash -c '"$0" gpus "$1" >/dev/full' "$ROOT/bin/report" "$ROOT/data/reference"
expect_says "standard output"
expect_exit 1 bash -c '"$0" "$1" >/dev/full' "$B/docfigs" "$ROOT/README.md"
expect_says "standard output"
# every program's --help, on a stdout that cannot take it (the CUDA programs
# too when built: --help needs no GPU)
for t in "$ROOT"/bin/*; do
    expect_exit 1 bash -c '"$0" --help >/dev/full' "$t"
    expect_says "standard output"
done
# a folder is not a Markdown file: docfigs fails (it read nothing)
expect_exit 1 "$B/docfigs" "$ROOT/docs";      expect_says "Is a directory"

# ---- an unwritable folder, as a user that is not root
if [ "$(id -u)" -eq 0 ]; then
    if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
        chmod 755 "$TMP"; mkdir ro; chmod 555 ro
        if setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$ROOT/$IN" -a -x "$B/tsv"; then
            expect_exit 1 setpriv --reuid=65534 --regid=65534 --clear-groups "$B/tsv" cat "$ROOT/$IN" --out ro/x.tsv
            expect_says "cannot write ro/x.tsv: Permission denied"; one_sentence
            [ -z "$(ls -A ro)" ] || fail "a write into an unwritable folder left $(ls -A ro)"
        else
            echo "note: the unwritable-folder case is skipped: nobody cannot read $ROOT"
        fi
    else
        echo "note: the unwritable-folder case is skipped: cannot run as another user (setpriv)"
    fi
else
    mkdir ro; chmod 555 ro
    expect_exit 1 "$B/tsv" cat "$ROOT/$IN" --out ro/x.tsv
    expect_says "cannot write ro/x.tsv: Permission denied"; one_sentence
    [ -z "$(ls -A ro)" ] || fail "a write into an unwritable folder left $(ls -A ro)"
    chmod 755 ro
fi

done_testing
