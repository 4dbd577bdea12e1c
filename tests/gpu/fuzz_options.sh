#!/usr/bin/env bash
# GPU test (make test-gpu; skipped without a GPU): every value an option
# accepts runs correctly or is refused before any GPU work.
#
# bin/optfuzz draws WARPLAT_FUZZ_COUNT (default 320) command lines from a
# printed seed (WARPLAT_FUZZ_SEED, default the clock), spread over every
# family (bin/names families) and ./latency, from what each program says it
# accepts (--list-options, --list-kernels): each option's whole range, its
# edges and just past them, at small sizes.  Each line runs under
# compute-sanitizer --tool memcheck (WARPLAT_FUZZ_JOBS at once, default 8) and
# must end in one of two ways:
#   exit 0: no sanitizer finding, a table whose every row is valid "ok", a
#           log for every probed row, no temporary file left;
#   exit 2: a sentence naming the program, and nothing written.
# Anything else (a finding, exit 1, a crash, a wrong result, a time-out)
# fails, naming the line to reproduce it.  Then one line per program that ran
# is run again under racecheck and initcheck.
# WARPLAT_FUZZ_KEEP=DIR keeps the outcomes (outcomes.tsv, summary.tsv).
source "$(dirname "$0")/../lib.sh"
require_gpu
require_bin bin/optfuzz bin/names bin/tsv latency

SAN=$(command -v compute-sanitizer || true)
for d in "${CUDA_HOME:-}" /usr/local/cuda; do
    [ -n "$SAN" ] || [ -z "$d" ] || [ ! -x "$d/bin/compute-sanitizer" ] || SAN=$d/bin/compute-sanitizer
done
[ -n "$SAN" ] || skip "compute-sanitizer not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin)"

SEED=${WARPLAT_FUZZ_SEED:-$(date +%s)}
COUNT=${WARPLAT_FUZZ_COUNT:-320}
JOBS=${WARPLAT_FUZZ_JOBS:-8}
LIMIT=${WARPLAT_FUZZ_TIMEOUT:-600}
echo "fuzz_options: seed $SEED, $COUNT lines, $JOBS at once (rerun: WARPLAT_FUZZ_SEED=$SEED)"

mapfile -t programs < <("$ROOT"/bin/names families)
[ ${#programs[@]} -gt 0 ] || fail "no kernel family in src/families/"
programs+=(latency)
mkdir -p "$TMP/lists"
specs=()
for p in "${programs[@]}"; do
    require_bin "$p"
    "$ROOT/$p" --list-options >"$TMP/lists/$p.options" || fail "$p --list-options"
    "$ROOT/$p" --list-kernels >"$TMP/lists/$p.kernels" 2>/dev/null || rm -f "$TMP/lists/$p.kernels"
    specs+=("$p=$TMP/lists/$p")
done
"$ROOT"/bin/optfuzz --seed "$SEED" --count "$COUNT" "${specs[@]}" >"$TMP/lines.tsv" ||
    { fail "bin/optfuzz"; done_testing; }

# One line under a sanitizer tool: its folder holds out/ (what it wrote), log
# (stdout and stderr), rc and secs.
run_line() { # INDEX TOOL
    local i=$1 tool=$2 dir=$TMP/run/$1.$2 args extra t0=$SECONDS
    IFS=$'\t' read -r -a args < <(sed -n "${i}p" "$TMP/lines.tsv")
    mkdir -p "$dir/out"
    if [ "${args[0]}" = latency ]; then extra=(--out "$dir/out/latency.tsv")
    else extra=(--reps 2 --warmup 0 -q --out "$dir/out/logs" --table "$dir/out/table.tsv"); fi
    # the program's own exit status through a shell under the tool: the tool
    # answers 255, not the program's 2, when a program exits before its first
    # CUDA call.  API errors are the program's to report (it checks every
    # call), so only the memory findings are the tool's.
    (cd "$dir" && timeout "$LIMIT" "$SAN" --tool "$tool" --error-exitcode 99 --print-limit 20 \
        --report-api-errors no --target-processes all \
        bash -c '"$@"; echo $? >rc' "$ROOT/${args[0]}" "$ROOT/${args[0]}" "${args[@]:1}" "${extra[@]}") \
        >"$dir/log" 2>&1
    local san=$?
    [ -s "$dir/rc" ] || echo "$san" >"$dir/rc"   # killed, or the tool failed
    echo "$san" >"$dir/san_rc"
    echo $((SECONDS - t0)) >"$dir/secs"
}

# The verdict of a finished line: "ok-run", "ok-refused", or "FAIL: why".
judge() { # INDEX TOOL
    local i=$1 tool=$2 dir=$TMP/run/$1.$2 rc prog written probed nlogs bad key clean summary
    case $tool in
    racecheck) clean="RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"; key="RACECHECK SUMMARY:" ;;
    *) clean="ERROR SUMMARY: 0 errors"; key="ERROR SUMMARY:" ;;
    esac
    rc=$(cat "$dir/rc")
    [ "$(cat "$dir/san_rc")" != 99 ] || { echo "FAIL: $tool found errors: $(grep -a "$key\|ERROR SUMMARY" "$dir/log" | tail -n 1)"; return; }
    prog=$(sed -n "${i}p" "$TMP/lines.tsv" | cut -f1)
    written=$(find "$dir/out" -type f | grep -cv '/rc$')
    summary=$(grep -a "$key" "$dir/log" | tail -n 1)
    if [ "$rc" = 2 ]; then
        grep -aq "^$prog: " "$dir/log" || { echo "FAIL: exit 2 without a sentence"; return; }
        [ "$written" -eq 0 ] || { echo "FAIL: exit 2 but $written file(s) written"; return; }
        # a refusal before the first CUDA call leaves the tool nothing to summarise
        case "$summary" in ""|*"$clean"*) echo ok-refused ;; *) echo "FAIL: refused, yet $tool says: $summary" ;; esac
        return
    fi
    [ "$rc" = 0 ] || { echo "FAIL: exit status $rc: $(grep -av '^=========' "$dir/log" | tail -n 2 | tr '\n' ' ')"; return; }
    case "$summary" in *"$clean"*) ;; *) echo "FAIL: $tool: ${summary:-no summary line}"; return ;; esac
    if [ "$prog" = latency ]; then
        [ -s "$dir/out/latency.tsv" ] || { echo "FAIL: no table"; return; }
        echo ok-run; return
    fi
    [ -s "$dir/out/table.tsv" ] || { echo "FAIL: exit 0 without a table"; return; }
    if ! "$ROOT"/bin/tsv columns "$dir/out/table.tsv" | grep -qx valid; then
        # a sweep: validated once before its points (a failure exits 1), one log a point
        grep -q '^# sweep_points' "$dir/out/table.tsv" || { echo "FAIL: a table without 'valid'"; return; }
        [ -z "$(find "$dir/out" -name '*.tmp*')" ] || { echo "FAIL: a temporary file was left"; return; }
        echo ok-run; return
    fi
    bad=$("$ROOT"/bin/tsv get "$dir/out/table.tsv" valid 2>&1 | grep -cvx ok)
    [ "$bad" -eq 0 ] || { echo "FAIL: $bad row(s) not valid ok"; return; }
    probed=$("$ROOT"/bin/tsv get "$dir/out/table.tsv" sample | grep -cvx -- -)
    nlogs=$(find "$dir/out" -name '*.bin' | wc -l)
    [ "$nlogs" -ge "$probed" ] || { echo "FAIL: $probed probed row(s) but $nlogs log(s)"; return; }
    [ -z "$(find "$dir/out" -name '*.tmp*')" ] || { echo "FAIL: a temporary file was left"; return; }
    echo ok-run
}

t_start=$SECONDS
n=$(wc -l <"$TMP/lines.tsv")
for ((i = 1; i <= n; i++)); do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    run_line "$i" memcheck &
done
wait

printf 'line\tprogram\ttool\trc\tsecs\toutcome\tcommand\n' >"$TMP/outcomes.tsv"
record() { # INDEX TOOL VERDICT
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$(sed -n "$1p" "$TMP/lines.tsv" | cut -f1)" "$2" \
        "$(cat "$TMP/run/$1.$2/rc")" "$(cat "$TMP/run/$1.$2/secs")" "$3" \
        "$(sed -n "$1p" "$TMP/lines.tsv" | tr '\t' ' ')" >>"$TMP/outcomes.tsv"
}
declare -A first_run
for ((i = 1; i <= n; i++)); do
    v=$(judge "$i" memcheck)
    record "$i" memcheck "$v"
    prog=$(sed -n "${i}p" "$TMP/lines.tsv" | cut -f1)
    case $v in
    FAIL*) fail "line $i: $v: ./$(sed -n "${i}p" "$TMP/lines.tsv" | tr '\t' ' ') (under compute-sanitizer --tool memcheck)"
           grep -a -m 12 '^=========' "$TMP/run/$i.memcheck/log" >&2 ;;
    ok-run) [ -n "${first_run[$prog]:-}" ] || first_run[$prog]=$i ;;
    esac
done

# racecheck and initcheck on one line per program that ran
for prog in "${programs[@]}"; do
    i=${first_run[$prog]:-}
    [ -n "$i" ] || { echo "note: no line of $prog ran to the end; racecheck and initcheck skipped for it"; continue; }
    for tool in racecheck initcheck; do
        run_line "$i" "$tool"
        v=$(judge "$i" "$tool")
        record "$i" "$tool" "$v"
        case $v in FAIL*) fail "line $i under $tool: $v: ./$(sed -n "${i}p" "$TMP/lines.tsv" | tr '\t' ' ')"
                          grep -a -m 12 '^=========' "$TMP/run/$i.$tool/log" >&2 ;; esac
    done
done

secs=$((SECONDS - t_start))
runs=$(grep -c $'\tmemcheck\t[0-9]*\t[0-9]*\tok-run\t' "$TMP/outcomes.tsv")
refused=$(grep -c $'\tmemcheck\t[0-9]*\t[0-9]*\tok-refused\t' "$TMP/outcomes.tsv")
failed=$(grep -c $'\tFAIL' "$TMP/outcomes.tsv")
{
    printf 'key\tvalue\n'
    printf 'seed\t%s\nlines\t%s\nran\t%s\nrefused\t%s\nfailed\t%s\nseconds\t%s\njobs\t%s\n' \
        "$SEED" "$n" "$runs" "$refused" "$failed" "$secs" "$JOBS"
    printf 'device\t%s\n' "$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -n 1)"
    printf 'sanitizer\t%s\n' "$(timeout 20 "$SAN" --version 2>/dev/null | grep -i version | head -n 1)"
} >"$TMP/summary.tsv"
cat "$TMP/summary.tsv"
if [ -n "${WARPLAT_FUZZ_KEEP:-}" ]; then
    mkdir -p "$WARPLAT_FUZZ_KEEP"
    cp "$TMP/outcomes.tsv" "$TMP/summary.tsv" "$WARPLAT_FUZZ_KEEP/"
fi
[ "$n" -ge 300 ] || [ -n "${WARPLAT_FUZZ_COUNT:-}" ] || fail "only $n lines drawn"
done_testing
