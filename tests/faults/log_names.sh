#!/usr/bin/env bash
# tests/faults/log_names.sh - a log from a stranger cannot write outside the
# report (issue 35).  The names a log carries (experiment, kernel, regions)
# become file names and chart titles, so the reader takes only the API's
# names (warplog_name_check: 1 to 15 characters of [A-Za-z0-9_.-] for a
# region, 31 for the others, never starting with '.') and no two regions of
# one name: every tool refuses the others with a sentence, and
# scripts/report.sh --log writes nothing, anywhere.  Then, with a good log,
# every file the report writes resolves (realpath) to a path under --out.
. "$(dirname "$0")/../lib.sh"
require_bin bin/mklog bin/warplog bin/verdict bin/latency_stats bin/plot_latency bin/plot_warps
B=$ROOT/bin
cd "$TMP" || exit 1
export TMPDIR=$TMP/tmpdir   # the report's own scratch folder, inside this test's
mkdir -p "$TMPDIR" logs plots

# patch FILE OFFSET TEXT: TEXT and a NUL over the bytes of FILE at OFFSET
patch() { printf '%s\0' "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
# crafted NAME OFFSET TEXT [OFFSET TEXT]: good.bin with header strings
# replaced (offsets: instrument/warplog.h; experiment 32, kernel 64,
# region_names 680 + 16 i), compressed again
crafted() {
    local name=$1; shift
    zcat logs/good.bin >"logs/$name.raw" || return 1
    while [ $# -ge 2 ]; do patch "logs/$name.raw" "$1" "$2"; shift 2; done
    gzip -n -c "logs/$name.raw" >"logs/$name.bin" && rm -f "logs/$name.raw"
}
"$B/mklog" logs/good.bin --kernel spmv --experiment user --regions gather,reduce --region-bytes 6144,0 \
    --wpb 2 --blocks-per-sm 2 --overhead-pct 1.25 <"$ROOT/tests/fixtures/regions.tsv" ||
    fail "mklog could not write the good log"

charts=()
command -v gnuplot >/dev/null 2>&1 && gnuplot -d -e exit >/dev/null 2>&1 || charts=(--no-charts)

# written_outside OUT: every file (or link) made since the marker anywhere
# under w/ resolves inside OUT; prints those that do not
touch marker
written_outside() {
    local out f real
    out=$(realpath -m "$1")
    find w -newer marker ! -type d -print0 | while IFS= read -r -d '' f; do
        real=$(realpath -m "$f")
        case $real in "$out"/*) ;; *) printf '%s\n' "$f" ;; esac
    done
}

# ---- hostile names: each refused by the reader with a sentence ------------
#        log          offset text                   the sentence
while IFS='|' read -r name off text says; do
    crafted "$name" "$off" "$text" || { fail "could not craft $name"; continue; }
    for cmd in "warplog info" "warplog check" "latency_stats" "verdict" "verdict --list-regions"; do
        expect_exit 1 $B/$cmd "logs/$name.bin"
        expect_says "logs/$name.bin is corrupt: its header's $says"
        [ "$(printf '%s\n' "$OUTTXT" | grep -c .)" -eq 1 ] || fail "$cmd $name: not one sentence: $OUTTXT"
    done
    expect_exit 1 "$B/plot_latency" "logs/$name.bin" "plots/$name.svg"
    expect_says "its header's $says"
    [ -z "$(ls -A plots)" ] || fail "plot_latency drew a refused log: $(ls -A plots)"
    mkdir -p "w/$name/a/b/c"
    expect_exit 1 bash "$ROOT/scripts/report.sh" --log "logs/$name.bin" --out "w/$name/a/b/c/report" "${charts[@]}"
    expect_says "could not be read: nothing to report"
    left=$(written_outside "w/$name/a/b/c/report")
    [ -z "$left" ] || fail "report.sh --log $name wrote outside --out: $left"
    [ ! -e "w/$name/a/b/c/report" ] || fail "report.sh --log $name left a report of a refused log"
done <<'EOF'
traversal|680|/../../../../x|region_names[0] "/../../../../x" holds a character outside [A-Za-z0-9_.-] at byte 0
dotdot|696|..|region_names[1] ".." starts with '.'
hidden|680|.x|region_names[0] ".x" starts with '.'
quote|680|a'b|region_names[0] "a'b" holds a character outside
dup|696|gather|regions 0 and 1 are both named "gather"; each region needs a name of its own
kernel|64|../../../../y|kernel "../../../../y" starts with '.'
kslash|64|k/../../z|kernel "k/../../z" holds a character outside [A-Za-z0-9_.-] at byte 1
exp|32|a b|experiment "a b" holds a character outside
EOF
# nothing landed above the report folders, whatever the names said
[ -z "$(find w -name 'x.*' -o -name 'y.*' -o -name 'z.*')" ] || fail "a chart of a hostile name was written: $(find w -name 'x.*')"

# bin/mklog cannot write such a log either (its header is checked as the reader's)
expect_exit 2 "$B/mklog" logs/m.bin --regions '/../../../../x' <"$ROOT/tests/fixtures/regions.tsv"
expect_says "region_names[0] \"/../../../../x\" holds a character outside"
expect_exit 2 "$B/mklog" logs/m.bin --regions gather,gather <"$ROOT/tests/fixtures/regions.tsv"
expect_says "regions 0 and 1 are both named \"gather\""
expect_exit 2 "$B/mklog" logs/m.bin --kernel ../k <"$ROOT/tests/fixtures/post/known.tsv"
expect_says "kernel \"../k\" starts with '.'"
[ ! -e logs/m.bin ] || fail "mklog wrote a log the reader refuses"

# ---- a good log: every file of the report lies under --out -----------------
mkdir -p w/good/a/b/c
expect_exit 0 bash "$ROOT/scripts/report.sh" --log logs/good.bin --out w/good/a/b/c/report "${charts[@]}"
expect_says "failed parts: none"
R=w/good/a/b/c/report
[ -s "$R/index.md" ] && [ -s "$R/tables/verdict.tsv" ] || fail "no report of the good log"
if [ ${#charts[@]} -eq 0 ]; then
    for f in latency_gather warps_gather latency_reduce warps_reduce; do
        for e in svg gp dat; do [ -s "$R/charts/$f.$e" ] || fail "the report has no charts/$f.$e"; done
    done
fi
n=$(find w/good -newer marker ! -type d | wc -l)
[ "$n" -ge 5 ] || fail "found only $n files of the good report"
left=$(written_outside "$R")
[ -z "$left" ] || fail "report.sh --log wrote outside --out: $left"
# regions are addressed by index, not by the first row with their name: a
# region called "all" shows its own 8 records, not the whole log's 16 (the
# row latency_stats.tsv names "all" first)
"$B/mklog" logs/all.bin --kernel spmv --experiment user --regions all,reduce --wpb 2 \
    <"$ROOT/tests/fixtures/regions.tsv" || fail "mklog could not write a region called all"
expect_exit 0 bash "$ROOT/scripts/report.sh" --log logs/all.bin --out w/all --no-charts
sec=$(sed -n '/^## Region all/,/^## /p' w/all/index.md)
case $sec in *"8 records; latency p5 808.750, p50 902.500"*) ;;
    *) fail "region all shows another row's numbers: $(printf '%s\n' "$sec" | grep records)" ;; esac
# nor did it leave anything in its scratch folder
[ -z "$(ls -A "$TMPDIR")" ] || fail "report.sh left files in TMPDIR: $(ls -A "$TMPDIR")"
done_testing
