#!/usr/bin/env bash
# tests/device/main_job.sh - issue 37's timing of the README's main job on a
# real GPU, each run in a fresh copy of this checkout (its files less every
# build output, as a clone would have them; the build is timed with it):
#
#   OUT=/some/dir bash tests/device/main_job.sh [full] [quick]
#
# full:  make report                      (the main job)
# quick: make report REPORT_ARGS=--quick
# (both by default, in that order).  Each run has WARPLAT_TRACE=1, so the
# engine's step times land in its trace (scripts/reference.sh's
# WARPLAT_TRACE_LOG).  Results under $OUT, at most 8 files:
#   summary.txt          one line per run: exit status, wall seconds, failed
#                        parts, and the report's drift line
#   <run>.tar.gz         the run's console, logs/steps.tsv, index.md,
#                        overhead.tsv, the engine trace
# gnuplot must be on PATH (shared/device/gnuplot.sh use), ncu too.
# Exit status: 0 when every run ended with "failed parts: none", 1 otherwise.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
OUT=${OUT:-/tmp/warplat-main-job}
mkdir -p "$OUT"
S=$OUT/summary.txt
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(full quick)
export PATH=$PATH:/usr/local/cuda/bin
note() { printf '%s\n' "$*" | tee -a "$S"; }
note "date: $(date -u +%FT%TZ)  gpu: $(nvidia-smi -L 2>&1 | head -n 1)  cores: $(nproc)"
fail=0
for run in "${runs[@]}"; do
    case $run in
        full) args="" ;;
        quick) args=--quick ;;
        *) echo "main_job.sh: unknown run '$run' (full or quick)" >&2; exit 2 ;;
    esac
    C=$(mktemp -d "${TMPDIR:-/tmp}/warplat-main-job.XXXXXX")
    tar -C "$ROOT" --exclude=./build --exclude=./build-fuzz --exclude=./bin --exclude='./report*' \
        --exclude=./.gp --exclude=./.dev --exclude=./.git --exclude='./data/[!r]*' -cf - . | tar -C "$C" -xf -
    for f in "$C"/*; do   # root-level programs are build outputs (.gitignore)
        [ -f "$f" ] && [ -x "$f" ] && rm -f "$f"
    done
    K=$OUT/$run
    mkdir -p "$K"
    t0=$(date +%s.%N)
    (cd "$C" && WARPLAT_TRACE=1 WARPLAT_TRACE_LOG="$K/trace.txt" make report REPORT_ARGS="$args") \
        >"$K/console.txt" 2>&1
    rc=$?
    wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    failed=$(grep -o 'failed parts: .*' "$K/console.txt" | tail -n 1)
    # the report's last line may go on after "none" (" (run log: ...)")
    case $rc/$failed in
        "0/failed parts: none" | "0/failed parts: none "*) ;;
        *) fail=1 ;;
    esac
    note "$run: make report${args:+ REPORT_ARGS=$args}: exit $rc, $wall s, ${failed:-no failed-parts line}"
    R=$C/report
    cp "$R/logs/steps.tsv" "$K/" 2>/dev/null
    cp "$R/index.md" "$K/" 2>/dev/null
    for d in "$R"/data/*/; do
        [ -f "$d/overhead.tsv" ] && cp "$d/overhead.tsv" "$K/"
        [ -f "$d/latency_ca.tsv" ] && cp "$d/latency_ca.tsv" "$d/latency_cg.tsv" "$K/" 2>/dev/null
        cp "$d"/sectors_*.tsv "$K/" 2>/dev/null
    done
    grep -i 'drift\|within\|outside' "$K/console.txt" | tail -n 3 | sed 's/^/    /' >>"$S"
    tar -C "$OUT" -czf "$OUT/$run.tar.gz" "$run" && rm -rf "$K"
    rm -rf "$C"
done
exit $fail
