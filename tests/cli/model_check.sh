#!/usr/bin/env bash
# tests/cli/model_check.sh - the random model check without a GPU:
#   draws    bin/model_check draw gives back, byte for byte, the --batch-file
#            and draws' table the H100 run of each committed seed profiled
#            (a seed draws the same configurations on every machine);
#   replay   scripts/model_check.sh all on stand-ins for ncu and the
#            <family>_profile programs that replay that run's raw ncu log and
#            runs table: every step after the measurement (metrics, ncu_extract,
#            the sector join, the strict judging, the summary) runs for real,
#            and the judged tables and the summary equal the committed ones;
#   usage    errors exit 2, a family without draws is refused.
source "$(dirname "$0")/../lib.sh"
require_bin bin/model_check bin/sector_model bin/sector_compare bin/ncu_extract bin/tsv
R=$ROOT/data/reference/h100/model_check
STUB=$TMP/stub
mkdir -p "$STUB"

# --- usage
expect_exit 2 bin/model_check
expect_exit 2 bin/model_check draw nosuch --random 3 --seed 1 --batch-file "$TMP/b" --draws "$TMP/d"
expect_exit 2 bin/model_check draw copy --seed 1 --batch-file "$TMP/b" --draws "$TMP/d"
expect_exit 0 bin/model_check --help
[ "$(bin/model_check families | paste -sd' ')" = "copy patterns readonly stencil atomics" ] ||
    fail "families with draws: $(bin/model_check families | paste -sd' ')"
expect_exit 2 scripts/model_check.sh copy --seed 1
expect_exit 2 scripts/model_check.sh tiling --random 3 --seed 1
expect_exit 2 scripts/model_check.sh copy,tiling --random 3 --seed 1
[ -e "$TMP/b" ] && fail "a refused draw left a file"
# the batch and its draws are a pair: one that cannot be written (here the
# draws, onto a full device) leaves neither, and an old batch as it was
expect_exit 1 bin/model_check draw copy --random 3 --seed 1 --batch-file "$TMP/b" --draws /dev/full
expect_says "cannot write /dev/full"
[ -e "$TMP/b" ] && fail "a draw whose draws failed committed its batch $TMP/b"
echo old >"$TMP/b"
expect_exit 1 bin/model_check draw copy --random 3 --seed 1 --batch-file "$TMP/b" --draws /dev/full
[ "$(cat "$TMP/b")" = old ] || fail "a draw whose draws failed replaced the batch $TMP/b"
expect_exit 1 bin/model_check draw copy --random 3 --seed 1 --batch-file /dev/full --draws "$TMP/d"
[ -e "$TMP/d" ] && fail "a draw whose batch failed committed its draws $TMP/d"
rm -f "$TMP/b"
ls "$TMP"/*.tmp >/dev/null 2>&1 && fail "a failed draw left a temporary file: $(ls "$TMP"/*.tmp)"

# --- draws: the committed seeds' lines, byte for byte
for seed in 2025 4242; do
    for f in copy patterns readonly stencil; do
        bin/model_check draw "$f" --random 100 --seed "$seed" --batch-file "$TMP/$f.batch" --draws "$TMP/${f}_draws.tsv" ||
            fail "draw $f seed $seed failed"
        cmp -s "$TMP/$f.batch" "$R/seed$seed/model_check/$f.batch" || fail "seed $seed $f: the batch differs from the H100 run's"
        cmp -s "$TMP/${f}_draws.tsv" "$R/seed$seed/model_check/${f}_draws.tsv" || fail "seed $seed $f: the draws differ"
    done
done

# --- replay: ncu writes the recorded raw log, the program the recorded runs table
cat >"$STUB/ncu" <<'EOF'
#!/usr/bin/env bash
case "$*" in
    *--version*) echo "NVIDIA (R) Nsight Compute Command Line Profiler"; echo "Version 2025.3.1.0 (stub)"; exit 0 ;;
    *--query-metrics*) cat "$STUB_QUERY"; exit 0 ;;
esac
log="" prog=""
while [ $# -gt 0 ]; do
    case $1 in
        --log-file) log=$2; shift 2 ;;
        --metrics|--kernel-name|--print-units|--clock-control|--cache-control) shift 2 ;;
        --csv) shift ;;
        -*) echo "stub ncu: unexpected option $1" >&2; exit 3 ;;
        *) prog=$1; shift; break ;;
    esac
done
"$prog" "$@" || exit 1
f=$(basename "$prog"); f=${f%_profile}
gzip -dc "$STUB_SEED/model_check/$f.csv.gz" >"$log"
EOF
for f in copy patterns readonly stencil; do
    cat >"$STUB/${f}_profile" <<EOF
#!/usr/bin/env bash
# the recorded run's table, after checking the batch is the recorded one
args=("\$@")
for ((i = 0; i < \${#args[@]}; i++)); do
    case \${args[i]} in
        --batch-file) [ -n "\${STUB_ANY:-}" ] || cmp -s "\${args[i+1]}" "\$STUB_SEED/model_check/$f.batch" || { echo "stub: another batch" >&2; exit 1; } ;;
        --table) cp "\$STUB_SEED/model_check/${f}_runs.tsv" "\${args[i+1]}" ;;
    esac
done
EOF
done
cp "$ROOT/tests/fixtures/ncu/query_metrics_h100.txt" "$STUB/query.txt"
chmod +x "$STUB"/*
strip() { grep -v -e '^# date' -e '^# ncu' "$1"; }
# (seed 2025 only: the model's walk of 400 launches takes minutes; 4242's
# tables come from the same code, and its draws are checked above)
for seed in 2025; do
    OUT=$TMP/out$seed
    PATH=$STUB:$PATH WARPLAT_PROFILE_DIR=$STUB STUB_SEED=$R/seed$seed STUB_QUERY=$STUB/query.txt \
        expect_exit 0 scripts/model_check.sh copy,patterns,readonly,stencil --random 100 --seed "$seed" --repeat 1 --out "$OUT"
    for t in model_check_copy.tsv model_check_patterns.tsv model_check_readonly.tsv model_check_stencil.tsv \
             model_check_summary.tsv; do
        diff <(strip "$R/seed$seed/$t") <(strip "$OUT/$t") >"$TMP/d" ||
            fail "seed $seed: $t differs from the committed one:
$(head -n 20 "$TMP/d")"
    done
    ls "$OUT" "$OUT/model_check" | grep -q '\.tmp$' && fail "seed $seed: a .tmp file was left behind"
    # the judged rule of one run (spread 0): the committed tables of that run
    for t in model_check_tol_copy.tsv model_check_tol_patterns.tsv model_check_tol_readonly.tsv \
             model_check_tol_stencil.tsv; do
        diff <(strip "$R/seed$seed/r1/$t") <(strip "$OUT/$t") >"$TMP/d" ||
            fail "seed $seed: $t differs from the committed one (r1/):
$(head -n 20 "$TMP/d")"
    done
done
# --repeat: the batch profiled twice (the stand-in replays the same log, so
# nothing moves); the second run's table and the repeat table are published.
# The sequencing is the script's, the same for every sector family: stencil's
# comparison takes well under a second where patterns' takes 15 s a run
OUT=$TMP/rep
PATH=$STUB:$PATH WARPLAT_PROFILE_DIR=$STUB STUB_SEED=$R/seed2025 STUB_QUERY=$STUB/query.txt \
    expect_exit 0 scripts/model_check.sh stencil --random 100 --seed 2025 --repeat 2 --out "$OUT"
[ -s "$OUT/model_check/stencil_compare_run2.tsv" ] || fail "--repeat 2: no table of run 2"
[ "$(bin/tsv get "$OUT/model_check_repeat_stencil.tsv" varying --where quantity=any_judged)" = 0 ] ||
    fail "--repeat 2 of one replayed log: a count moved"
# (100 configurations, a load row and a store row each, as in the H100's
# committed repeat of this seed)
[ "$(bin/tsv get "$OUT/model_check_repeat_stencil.tsv" rows --where quantity=any_judged)" = 200 ] ||
    fail "--repeat 2: not 200 rows judged"
expect_exit 2 scripts/model_check.sh patterns --random 3 --seed 1 --repeat 0
[ -s "$OUT/model_check_tol_stencil.tsv" ] || fail "--repeat 2: no judged table"
[ "$(bin/tsv get "$OUT/model_check_tol_summary.tsv" by_spread --where family=all --where quantity=every)" = 0 ] ||
    fail "--repeat 2 of one replayed log: a tolerance came from a spread"
[ "$(bin/tsv get "$OUT/model_check_tol_stencil.tsv" runs | sort -u)" = 2 ] || fail "--repeat 2: not 2 runs in the judged table"
# held-out seeds: the seed is the model's last commit's first 8 hex digits,
# and the commit is in the tables' heads (the stand-in replays seed 2025's
# runs, so the rows do not join the draws: only the sequencing is checked)
expect_exit 2 scripts/model_check.sh patterns --random 3 --seed 1 --seed-from-commit
expect_exit 2 scripts/model_check.sh patterns --random 3 --second-seed --seed 1
if git rev-parse --git-dir >/dev/null 2>&1; then
    mapfile -t MP < <(bin/model_check model-paths)
    C=$(git log -1 --format=%H -- "${MP[@]}")
    read -r S1 S2 <<<"$(bin/model_check seeds "$C")"
    [ "$S1" = $((16#${C:0:8})) ] && [ "$S2" = $((16#${C:8:8})) ] || fail "seeds of $C: $S1 $S2"
    OUT=$TMP/held
    PATH=$STUB:$PATH WARPLAT_PROFILE_DIR=$STUB STUB_SEED=$R/seed2025 STUB_QUERY=$STUB/query.txt STUB_ANY=1 \
        expect_exit 0 scripts/model_check.sh stencil --random 4 --seed-from-commit --second-seed --repeat 1 --out "$OUT"
    grep -q "^# commit	$C\$" "$OUT/model_check_tol_stencil.tsv" || fail "--seed-from-commit: no commit line"
    grep -q "^# held_out	" "$OUT/model_check_tol_stencil.tsv" || fail "--seed-from-commit: no held_out line"
    grep -q "^# seed	$S2\$" "$OUT/model_check_stencil.tsv" || fail "--second-seed: not seed $S2"
    grep -q "^# commit	$C\$" "$OUT/model_check_tol_summary.tsv" || fail "tsummary: no commit line"
    # a full hash this repository lacks (a tree copied with an older .git,
    # as on the GPU hosts): its seeds, held out unknown, not a usage error
    U=0123456789abcdef0123456789abcdef01234567
    OUT=$TMP/unknown
    PATH=$STUB:$PATH WARPLAT_PROFILE_DIR=$STUB STUB_SEED=$R/seed2025 STUB_QUERY=$STUB/query.txt STUB_ANY=1 \
        expect_exit 0 scripts/model_check.sh stencil --random 4 --seed-from-commit $U --repeat 1 --out "$OUT"
    grep -q "^# held_out	unknown: this repository does not have the commit" "$OUT/model_check_tol_stencil.tsv" ||
        fail "--seed-from-commit with an unknown full hash: not held out unknown"
    grep -q "^# seed	$((16#01234567))\$" "$OUT/model_check_stencil.tsv" || fail "unknown full hash: not its seed"
    expect_exit 2 scripts/model_check.sh stencil --random 4 --seed-from-commit 0123456 --repeat 1 --out "$OUT"
    # the device script's commit for hosts without git is the model's last
    grep -q "^FROZEN_COMMIT=$C\$" scripts/model_check_device.sh ||
        fail "scripts/model_check_device.sh: FROZEN_COMMIT is not $C, the last commit that changed the model's files"
fi
# atomics (its own model): the committed H100 run at N = 1e7, compared in
# the sector comparison's columns, agrees on every count
A=$ROOT/data/reference/h100/atomics
bin/ncu_extract "$A/ncu_1e7.csv" --metrics "$(bin/model_check metrics atomics)" --kernel atomics_ >"$TMP/at.tsv" ||
    fail "ncu_extract of the atomics run"
expect_exit 0 bin/model_check atomics-compare --runs "$A/runs_1e7.tsv" --ncu "$TMP/at.tsv" --out "$TMP/at_cmp.tsv"
[ "$(bin/tsv get "$TMP/at_cmp.tsv" agree --where agree=yes | wc -l)" = 8 ] || fail "atomics: not 8 rows agreeing"
expect_exit 0 bin/model_check tolerate --out "$TMP/at_tol.tsv" "$TMP/at_cmp.tsv"
[ "$(bin/tsv get "$TMP/at_tol.tsv" agree --where agree=yes | wc -l)" = 8 ] || fail "atomics: the judged rule disagrees"
[ "$(bin/model_check kind atomics)" = atomics ] && [ "$(bin/model_check kind copy)" = sector ] || fail "kind"
# the judged rule on the committed repeats of seed 2025 (three runs a
# family): the committed tables again
for f in copy patterns readonly stencil; do
    d=$R/seed2025/repeat
    runs=()
    for z in "$d/${f}"_compare_run*.tsv.gz; do gzip -dc "$z" >"$TMP/$(basename "$z" .gz)"; runs+=("$TMP/$(basename "$z" .gz)"); done
    bin/model_check tolerate --draws "$R/seed2025/model_check/${f}_draws.tsv" --out "$TMP/tol_$f.tsv" "${runs[@]}" ||
        fail "$f: tolerate failed"
    diff "$R/seed2025/model_check_tol_$f.tsv" "$TMP/tol_$f.tsv" >"$TMP/d" ||
        fail "$f: the committed judged table is not its runs':
$(head -n 10 "$TMP/d")"
done
bin/model_check tsummary --out "$TMP/tsum.tsv" --worst 20 --worst-out "$TMP/worst.tsv" "$TMP"/tol_{copy,patterns,readonly,stencil}.tsv ||
    fail "tsummary failed"
diff "$R/seed2025/model_check_tol_summary.tsv" "$TMP/tsum.tsv" >"$TMP/d" || fail "the committed tsummary differs: $(head "$TMP/d")"
diff "$R/seed2025/model_check_worst.tsv" "$TMP/worst.tsv" >"$TMP/d" || fail "the committed worst rows differ: $(head "$TMP/d")"
# the committed repeats (docs/model_check.md): the tables of the runs again
# give the committed spreads
for f in copy patterns readonly stencil; do
    d=$R/seed2025/repeat
    [ -s "$R/seed2025/model_check_repeat_$f.tsv" ] || fail "no committed repeat of $f"
    runs=()
    for z in "$d/${f}"_compare_run*.tsv.gz; do gzip -dc "$z" >"$TMP/$(basename "$z" .gz)"; runs+=("$TMP/$(basename "$z" .gz)"); done
    [ ${#runs[@]} -ge 2 ] || fail "$f: fewer than two committed runs"
    bin/model_check repeat --out "$TMP/repeat_$f.tsv" "${runs[@]}" || fail "$f: bin/model_check repeat failed"
    diff <(grep -v '^# device' "$R/seed2025/model_check_repeat_$f.tsv") <(grep -v '^# device' "$TMP/repeat_$f.tsv") >"$TMP/d" ||
        fail "$f: the committed repeat table is not its runs':
$(head -n 10 "$TMP/d")"
done
# the summary's figures are the judged rows' own
[ "$(bin/tsv get "$R/seed2025/model_check_summary.tsv" rows --where family=all)" = 600 ] ||
    fail "seed 2025: 600 rows in all"
n_yes=$(cat "$R"/seed2025/model_check_{copy,patterns,readonly,stencil}.tsv | grep -v '^#' | awk -F'\t' '$8 == "yes"' | wc -l)
[ "$(bin/tsv get "$R/seed2025/model_check_summary.tsv" agree --where family=all)" = "$n_yes" ] ||
    fail "seed 2025: the summary's agreeing rows are not the tables' ($n_yes)"
# the calibration probes: each family's table makes a batch, one line a probe
for c in "$ROOT"/src/families/*/calib.tsv; do
    f=$(basename "$(dirname "$c")")
    expect_exit 0 bin/model_check batch --draws "$c" --batch-file "$TMP/calib_$f.batch"
    [ "$(grep -vc '^#' "$TMP/calib_$f.batch")" = "$(bin/tsv get "$c" id | wc -l)" ] || fail "$f: calib batch lines"
    [ "$(bin/tsv get "$c" family | sort -u)" = "$f" ] || fail "$c: another family's rows"
done
expect_exit 2 scripts/model_check.sh copy --calib --seed 1
expect_exit 2 scripts/model_check.sh atomics --calib
# the kernels ncu profiles: every variant's, not the validation kernels
# beside them (NAME_check), which doubled the profiled launches
expect_exit 2 bin/model_check kernels
expect_exit 2 bin/model_check kernels tiling
for f in $(bin/model_check families); do
    re=$(bin/model_check kernels "$f") || fail "kernels $f failed"
    v=$(bin/tsv get "$ROOT/src/families/$f/calib.tsv" variant 2>/dev/null | head -n 1)
    [ -n "$v" ] || v=$(bin/model_check draw "$f" --random 1 --seed 7 --batch-file "$TMP/k.batch" \
                      --draws "$TMP/k_draws.tsv" >/dev/null && bin/tsv get "$TMP/k_draws.tsv" variant)
    [ -n "$v" ] || fail "$f: no variant to try the kernel regex on"
    printf '%s\n' "${f}_$v" | grep -Eq "$re" || fail "$f: '$re' does not match ${f}_$v"
    printf '%s\n' "${f}_${v}_check" | grep -Eq "$re" && fail "$f: '$re' matches ${f}_${v}_check"
done
printf 'copy_batch_b4\n' | grep -Eq "$(bin/model_check kernels copy)" || fail "copy: batch's templated kernel"
# and without the validation kernels' launches the comparison is the same:
# the committed H100 copy log, its _check rows taken out
M=$(bin/sector_model --metrics copy)
C=$R/seed2025/model_check
bin/ncu_extract "$C/copy.csv.gz" --metrics "$M" --kernel '^copy_' >"$TMP/k_all.tsv" || fail "ncu_extract"
gzip -dc "$C/copy.csv.gz" | grep -v '_check"' >"$TMP/k_nocheck.csv"
bin/ncu_extract "$TMP/k_nocheck.csv" --metrics "$M" --kernel '^copy_' >"$TMP/k_var.tsv" || fail "ncu_extract"
for t in all var; do
    bin/sector_compare --family copy --runs "$C/copy_runs.tsv" --ncu "$TMP/k_$t.tsv" --dram-granularity 64 \
        --out "$TMP/k_cmp_$t.tsv" 2>/dev/null
    grep -v '^# ncu_table' "$TMP/k_cmp_$t.tsv" >"$TMP/k_cmp_$t.body"
done
[ "$(grep -vc '^#' "$TMP/k_cmp_var.body")" -gt 100 ] || fail "copy: the comparison lost its rows"
cmp -s "$TMP/k_cmp_all.body" "$TMP/k_cmp_var.body" || fail "copy: the comparison needs the _check launches"
# the committed judged tables of seed 4242 and of seed 2025's first run (R = 1)
for d in seed4242 seed2025/r1; do
    s=${d%%/*}
    for f in copy patterns readonly stencil; do
        bin/model_check tolerate --draws "$R/$s/model_check/${f}_draws.tsv" --out "$TMP/t1_$f.tsv" \
            "$R/$s/model_check/${f}_compare.tsv" || fail "$d $f: tolerate failed"
        diff "$R/$d/model_check_tol_$f.tsv" "$TMP/t1_$f.tsv" >/dev/null || fail "$d: model_check_tol_$f.tsv is not its run's"
    done
done
done_testing
