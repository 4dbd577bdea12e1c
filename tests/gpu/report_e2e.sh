#!/usr/bin/env bash
# The main job end to end on a GPU (make test-gpu; skipped without one):
# `make report REPORT_ARGS=--quick` in a fresh clone of this checkout (a
# copy of its files where there is no git), as a new user would run it.
# Asserts:
#   - exit 0, and "failed parts: none" (the run log logs/steps.tsv has no
#     failed step: every measurement, every sector table, every chart);
#   - the report says it measured this GPU, and every section of the report
#     of the bundled results is present in it, with the results folder's
#     files written by this run (not copied from data/reference);
#   - the sector table of every family with a model (bin/sector_model
#     --list-families) is present, written by ncu in this run;
#   - each headline figure is within its stated tolerance of the bundled
#     results of this GPU model (the drift table, src/lib/drift.h); a
#     figure this run cannot give is "not compared", never "within", and at
#     least three are compared.
# WARPLAT_E2E_LOG=FILE keeps the run's whole console log (the reference
# set's runlogs/ hold one per GPU); WARPLAT_E2E_KEEP=DIR keeps the report
# (less its charts and logs of warps) and the bundled report's headings.
source "$(dirname "$0")/../lib.sh"
require_gpu
command -v ncu >/dev/null 2>&1 || skip "ncu (Nsight Compute) is not on PATH: the report's sector tables need it"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot is not installed (make report would stop before measuring)"

# ---- a fresh clone
C=$TMP/clone
# a clone of HEAD where the checkout is HEAD; where its files differ from
# HEAD (uncommitted work, or a copy whose .git is older), a clone would test
# other code: then a copy of the files
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ -z "${WARPLAT_E2E_COPY:-}" ] &&
   [ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    git clone -q "$ROOT" "$C" || skip "git clone of $ROOT failed"
    how="git clone of $(git -C "$ROOT" rev-parse --short HEAD)"
else
    # no git here (a copy of a working tree): its files less every build
    # output and every earlier result, as a clone would have them
    mkdir -p "$C"
    tar -C "$ROOT" --exclude=./build --exclude=./build-fuzz --exclude=./bin --exclude='./report*' \
        --exclude=./.gp --exclude=./.git --exclude='./data/[!r]*' -cf - . | tar -C "$C" -xf -
    for f in "$C"/*; do   # root-level programs are build outputs (.gitignore)
        [ -f "$f" ] && [ -x "$f" ] && rm -f "$f"
    done
    how="copy of $ROOT without build outputs"
fi
echo "e2e: $how in $C"
start=$SECONDS
(cd "$C" && make report REPORT_ARGS=--quick) >"$TMP/report.log" 2>&1
rc=$?
wall=$((SECONDS - start))
[ -n "${WARPLAT_E2E_LOG:-}" ] && cp "$TMP/report.log" "$WARPLAT_E2E_LOG"
echo "e2e: make report REPORT_ARGS=--quick: exit $rc in ${wall} s (build included)"
[ $rc -eq 0 ] || fail "make report exited $rc: $(tail -n 20 "$TMP/report.log")"
R=$C/report
grep -q 'failed parts: none' "$TMP/report.log" ||
    fail "the run has failed parts: $(grep 'failed parts\|FAILED' "$TMP/report.log" | head -n 20)"
[ -f "$R/logs/steps.tsv" ] || fail "no run log $R/logs/steps.tsv"
if bin/tsv get "$R/logs/steps.tsv" step --where status=failed >"$TMP/failed.txt" 2>/dev/null; then
    fail "failed steps: $(cat "$TMP/failed.txt")"
fi
grep -q 'rm: invalid option' "$TMP/report.log" && fail "stray rm errors in the console"
grep -q 'gnuplot not found' "$TMP/report.log" && fail "a chart says gnuplot is missing"

# ---- measured here, every section
grep -q "This report shows the study run on this machine's" "$R/index.md" ||
    fail "the report does not say that it measured this GPU"
n=0
for d in "$R"/data/*/; do n=$((n + 1)); G=${d%/}; done
[ "$n" = 1 ] || fail "expected one GPU's results in $R/data, found $n"
label=$(basename "$G")
# every table of the results folder was written after the run began
newer=$(find "$G" -maxdepth 1 -name '*.tsv' ! -newer "$C/Makefile" | head -n 5)
[ -z "$newer" ] || fail "files not written by this run: $newer"
(cd "$C" && scripts/report.sh --no-gpu --out "$TMP/bundled") >"$TMP/bundled.log" 2>&1 ||
    fail "the report of the bundled results failed: $(tail -n 5 "$TMP/bundled.log")"
# a heading names its sizes ("readonly: summaries at N = 1e7"): a --quick
# run has other sizes than the bundled one, the same sections
sections() { grep '^## ' "$1" | sed -e 's/ at [0-9]* sizes, N = .*//' -e 's/ at N = .*//' | sort -u; }
sections "$TMP/bundled/index.md" >"$TMP/want.txt"
sections "$R/index.md" >"$TMP/have.txt"
missing=$(comm -23 "$TMP/want.txt" "$TMP/have.txt")
[ -z "$missing" ] || fail "sections of the bundled report missing here: $missing"
[ "$(wc -l <"$TMP/have.txt")" -ge 8 ] || fail "only $(wc -l <"$TMP/have.txt") sections: $(cat "$TMP/have.txt")"

# ---- the sector tables, measured by ncu in this run
for fam in $(bin/sector_model --list-families); do
    t=$G/$(bin/names sectors "$fam")
    [ -s "$t" ] || { fail "no sector table for $fam ($t)"; continue; }
    bin/tsv meta "$t" ncu >/dev/null 2>&1 || fail "$t does not say which ncu measured it"
done

# ---- drift: each headline figure within its tolerance of the bundled set
D=$R/tables/drift_$label.tsv
if [ ! -f "$D" ]; then
    fail "no drift table $D (no bundled results of this GPU model in data/reference?)"
else
    bin/tsv get "$D" figure >"$TMP/figs.txt" || fail "cannot read $D"
    compared=0
    while read -r fig; do
        v=$(bin/tsv get "$D" verdict --where figure="$fig")
        case $v in
            within) compared=$((compared + 1)) ;;
            outside) fail "drift: $fig is outside its tolerance: bundled $(bin/tsv get "$D" bundled --where figure="$fig"), today $(bin/tsv get "$D" today --where figure="$fig"), tolerance $(bin/tsv get "$D" tolerance --where figure="$fig") $(bin/tsv get "$D" tolerance_of --where figure="$fig")" ;;
            "not compared") echo "e2e: $fig not compared: $(bin/tsv get "$D" note --where figure="$fig")" ;;
            *) fail "drift: $fig has verdict '$v'" ;;
        esac
    done <"$TMP/figs.txt"
    [ $compared -ge 3 ] || fail "only $compared headline figures compared with the bundled set"
    cat "$D"
fi
if [ -n "${WARPLAT_E2E_KEEP:-}" ]; then
    mkdir -p "$WARPLAT_E2E_KEEP"
    tar -C "$R" --exclude=./charts --exclude='*.bin' -cf - . | tar -C "$WARPLAT_E2E_KEEP" -xf -
    cp "$TMP/want.txt" "$WARPLAT_E2E_KEEP/bundled_sections.txt"
fi
done_testing
