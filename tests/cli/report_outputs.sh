#!/usr/bin/env bash
# scripts/report.sh's outputs and its set-up checks, on a small copy of the
# bundled H200 results (no GPU needed):
#   - without gnuplot it stops before anything is measured or written, with
#     one sentence naming the package, the command and --no-charts;
#   - a gnuplot that cannot start is named with its own message;
#   - --no-charts writes the report without charts, and says so per chart;
#   - --out refuses a non-empty folder that is no warplat report, and
#     touches nothing in it;
#   - a run stopped mid-way (SIGTERM) leaves the previous report as it was, and
#     no staging folder.
source "$(dirname "$0")/../lib.sh"
require_bin bin/report bin/tsv
S=$TMP/h200
mkdir -p "$S"
# the H200 set less its readonly sector table (its ncu comparison alone
# takes 25 s) and its big logs: a report in a few seconds
tar -C data/reference/h200 --exclude=./sectors_readonly.tsv --exclude=./logs_1e6 --exclude=./ncu -cf - . |
    tar -C "$S" -xf -

# ---- a PATH without gnuplot
# (report.sh runs make in this tree: the nvcc it resolves must stay the one
# the tree was built with, or the flags stamp changes and make rebuilds
# everything while the other tests use it; /usr/local/bin/nvcc, where there
# is one, would be found there instead of /usr/local/cuda/bin's)
nv=$(command -v nvcc 2>/dev/null) && export NVCC=$nv
# (one ln a folder: a basename and an ln for each of the thousands of
# programs took 20 s)
mkdir -p "$TMP/nognu"
declare -A linked=()
for d in /usr/local/bin /usr/bin /bin; do
    links=()
    for f in "$d"/*; do
        [ -e "$f" ] || [ -L "$f" ] || continue
        b=${f##*/}
        [ "$b" = gnuplot ] || [ "$b" = gnuplot-nox ] || [ -n "${linked[$b]:-}" ] || { linked[$b]=1; links+=("$f"); }
    done
    [ ${#links[@]} -eq 0 ] || ln -s -t "$TMP/nognu" -- "${links[@]}"
done
PATH=$TMP/nognu expect_exit 1 bash scripts/report.sh --data "$S" --out "$TMP/r1"
expect_says "gnuplot is not installed, so the charts cannot be drawn"
expect_says "apt-get install gnuplot-nox"
expect_says "REPORT_ARGS=--no-charts"
[ "$(printf '%s\n' "$OUTTXT" | grep -c .)" = 1 ] || fail "more than one line: $OUTTXT"
[ -e "$TMP/r1" ] && fail "a folder was created although nothing could be reported"

# ---- a gnuplot that cannot start: its own message
mkdir -p "$TMP/broken"
printf '#!/bin/sh\necho "gnuplot: error while loading shared libraries: libavif.so.15: cannot open shared object file" >&2\nexit 127\n' \
    >"$TMP/broken/gnuplot"
chmod +x "$TMP/broken/gnuplot"
PATH=$TMP/broken:$PATH expect_exit 1 bash scripts/report.sh --data "$S" --out "$TMP/r2"
expect_says "gnuplot is installed but cannot run (gnuplot: error while loading shared libraries: libavif.so.15"
case $OUTTXT in *"not installed"*|*"not found"*) fail "a broken gnuplot was called missing: $OUTTXT" ;; esac

# ---- --no-charts
PATH=$TMP/nognu expect_exit 0 bash scripts/report.sh --data "$S" --out "$TMP/r3" --no-charts
[ -s "$TMP/r3/index.html" ] && [ -s "$TMP/r3/index.md" ] || fail "--no-charts wrote no report"
[ -z "$(find "$TMP/r3" -name '*.svg')" ] || fail "--no-charts drew charts"
grep -q 'not drawn: the report was made with --no-charts' "$TMP/r3/index.md" ||
    fail "the report does not say why its charts are missing"
[ -f "$TMP/r3/.warplat-report" ] || fail "no marker in the report folder"

# ---- --out: a folder that is no report is refused and left alone
mkdir -p "$TMP/mine/logs"
echo precious >"$TMP/mine/notes.txt"
echo mine >"$TMP/mine/logs/keep.log"
expect_exit 1 bash scripts/report.sh --data "$S" --out "$TMP/mine" --no-charts
expect_says "not empty and holds no warplat report"
[ "$(cat "$TMP/mine/notes.txt")" = precious ] && [ "$(cat "$TMP/mine/logs/keep.log")" = mine ] ||
    fail "the refused folder was changed"
[ "$(ls -A "$TMP/mine" | wc -l)" = 2 ] || fail "files appeared in the refused folder: $(ls -A "$TMP/mine")"
ls -d "$TMP"/mine.new.* >/dev/null 2>&1 && fail "a staging folder was left beside the refused one"
# an empty folder is fine, and so is a report folder (rebuilt whole)
mkdir -p "$TMP/empty"
expect_exit 0 bash scripts/report.sh --data "$S" --out "$TMP/empty" --no-charts
expect_exit 0 bash scripts/report.sh --data "$S" --out "$TMP/r3" --no-charts

# ---- interrupted: the previous report stays, whole
cp "$TMP/r3/index.html" "$TMP/before.html"
mkdir -p "$TMP/slow"
printf '#!/bin/sh\ncase "$*" in *"-e"*) exit 0 ;; esac\nsleep 30\n' >"$TMP/slow/gnuplot"
chmod +x "$TMP/slow/gnuplot"
PATH=$TMP/slow:$PATH setsid bash scripts/report.sh --data "$S" --out "$TMP/r3" >"$TMP/int.log" 2>&1 &
pid=$!
wait_until 60 grep -q 'draw the charts \.\.\.' "$TMP/int.log"
# TERM: a background job of a script starts with SIGINT ignored, so a test
# cannot send the Ctrl-C of a terminal; the same trap handles both
kill -TERM -- -"$pid" 2>/dev/null || kill -TERM "$pid"
wait "$pid"
rc=$?
[ $rc = 143 ] || fail "a terminated report exited $rc, expected 143: $(tail -n 3 "$TMP/int.log")"
grep -q 'the previous report in .* is left as it was' "$TMP/int.log" || fail "no word on the interruption: $(tail -n 3 "$TMP/int.log")"
cmp -s "$TMP/before.html" "$TMP/r3/index.html" || fail "the previous report changed"
ls -d "$TMP"/r3.new.* "$TMP"/r3.old.* 2>/dev/null && fail "a staging folder was left"
done_testing
