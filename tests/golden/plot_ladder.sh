#!/usr/bin/env bash
# tests/golden/plot_ladder.sh - bin/plot_ladder on the fixture ladders in
# tests/fixtures/ladder/: the level table, the gnuplot script and its data
# file are diffed against tests/golden/ladder/; then the chart is rendered.
# Without gnuplot the diffs still run, and the test then skips (exit 77)
# because the rendering was not checked.
# UPDATE_GOLDEN=1 rewrites the golden files (review the diff by eye).
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_bin bin/plot_ladder

F=tests/fixtures/ladder
G=tests/golden/ladder
PL=$ROOT/bin/plot_ladder

golden_file() {   # golden_file NAME FILE: compare FILE with $G/NAME
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then cp "$2" "$G/$1"; return; fi
    diff -u "$G/$1" "$2" >&2 || fail "$2 differs from $G/$1"
}

# --- level tables, scripts and data files
for name in h100_ca h100_cg_quick; do
    if ! "$PL" "$F/$name.tsv" "$TMP/$name.svg" --script-only >"$TMP/$name.levels.tsv" 2>"$TMP/err"; then
        fail "plot_ladder $name failed: $(cat "$TMP/err")"
        continue
    fi
    [ -s "$TMP/err" ] && fail "plot_ladder $name wrote to stderr: $(cat "$TMP/err")"
    [ -e "$TMP/$name.svg" ] && fail "--script-only ran gnuplot ($TMP/$name.svg exists)"
    golden_file "$name.levels.tsv" "$TMP/$name.levels.tsv"
    golden_file "$name.gp" "$TMP/$name.gp"
    golden_file "$name.dat" "$TMP/$name.dat"
done

# the four levels of the H100-like ladder, by name and order (independent of the golden files)
got=$(cut -f1 "$TMP/h100_ca.levels.tsv" | tr '\n' ' ')
[ "$got" = "level L1 L2-near L2-far DRAM " ] || fail "h100_ca levels: $got"
# the L1-bypassed (chase_cg) ladder starts at L2
got=$(cut -f1 "$TMP/h100_cg_quick.levels.tsv" | tr '\n' ' ')
[ "$got" = "level L2-near L2-far DRAM " ] || fail "h100_cg_quick levels: $got"

# --- --levels-out: the table goes to the file, nothing to stdout
expect_exit 0 "$PL" "$F/h100_ca.tsv" --levels-out "$TMP/lv.tsv"
[ -z "$OUTTXT" ] || fail "--levels-out still printed: $OUTTXT"
cmp -s "$TMP/lv.tsv" "$G/h100_ca.levels.tsv" || fail "--levels-out table differs from the golden table"

# --- --dram-latency: the last plateau, one line "cycles<TAB>ns"
expect_exit 0 "$PL" "$F/h100_ca.tsv" --dram-latency
[ "$OUTTXT" = "$(printf '819.2\t413.7')" ] || fail "--dram-latency printed '$OUTTXT'"
expect_exit 1 "$PL" "$F/flat.tsv" --dram-latency
expect_says "found 1 plateau"

# --- errors: usage (2) and runtime (1)
expect_exit 2 "$PL"
expect_says "missing the latency table"
expect_exit 2 "$PL" "$F/h100_ca.tsv" "$TMP/x.jpg"
expect_says "must end in .svg, .png or .pdf"
expect_exit 2 "$PL" "$F/h100_ca.tsv" --frobnicate
expect_says "unknown option '--frobnicate'"
expect_exit 2 "$PL" "$F/h100_ca.tsv" --tol 2
expect_exit 1 "$PL" "$TMP/missing.tsv"
expect_says "cannot open"
expect_exit 1 "$PL" "$G/h100_ca.gp"
expect_says "no 'bytes' column"

# --- gnuplot missing: a clear message, exit 1, script and data still written
mkdir -p "$TMP/nognuplot"
expect_exit 1 env PATH=/nonexistent "$PL" "$F/h100_ca.tsv" "$TMP/nognuplot/l.svg"
expect_says "gnuplot not found"
[ -s "$TMP/nognuplot/l.gp" ] && [ -s "$TMP/nognuplot/l.dat" ] || fail "no .gp/.dat without gnuplot"

[ "$nfail" -eq 0 ] || done_testing
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed: golden files match, chart rendering not tested"

# --- rendering, one file per terminal
mkdir -p "$TMP/r"
for ext in svg png pdf; do
    expect_exit 0 "$PL" "$F/h100_ca.tsv" "$TMP/r/ladder.$ext"
    [ -s "$TMP/r/ladder.$ext" ] || fail "no $TMP/r/ladder.$ext"
done
grep -q '<svg' "$TMP/r/ladder.svg" || fail "ladder.svg is not SVG"
grep -q 'L2-far: 398 cycles, 201 ns' "$TMP/r/ladder.svg" || fail "ladder.svg lacks the L2-far label"
grep -q '4 GiB' "$TMP/r/ladder.svg" || fail "ladder.svg lacks the 4 GiB tic label"
[ "$(head -c 4 "$TMP/r/ladder.png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "ladder.png is not PNG"
[ "$(head -c 4 "$TMP/r/ladder.pdf")" = '%PDF' ] || fail "ladder.pdf is not PDF"
# the script draws the same chart from another folder (it names files relative to itself)
(cd "$TMP/r" && rm -f ladder.pdf && gnuplot -d -c ladder.gp) || fail "ladder.gp does not run on its own"
[ -s "$TMP/r/ladder.pdf" ] || fail "re-running ladder.gp wrote no ladder.pdf"

done_testing
