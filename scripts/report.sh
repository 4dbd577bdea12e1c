#!/usr/bin/env bash
# scripts/report.sh - one command for the whole study: measure this GPU, or
# take the bundled reference results, and write a report with every chart.
#
#   scripts/report.sh [--quick] [--device D] [--out DIR] [--data DIR] [--no-gpu]
#   make report REPORT_ARGS="--quick --out /tmp/r"
#
#   --quick       shorter GPU runs (scripts/reference.sh --quick: N = 1e7,
#                 the quick ladder, one sweep)
#   --device D    CUDA device ordinal of the GPU runs (default 0)
#   --out DIR     where the report goes (default report): DIR/index.html,
#                 DIR/index.md, DIR/charts/ (each SVG with its gnuplot script
#                 and data), DIR/data/<gpu>/ (the results shown), DIR/logs/
#   --data DIR    report results already on disk, run nothing: one GPU's
#                 results folder (docs/naming.md) or a folder of such folders
#                 (as data/reference), shown side by side
#   --no-gpu      do not measure even where a GPU is present: report the
#                 bundled results of data/reference/*/
#   -h, --help    this text
#
# This script only sequences; what to draw and every number of the report
# come from bin/report (src/tools/report.c).  Steps:
#   1. with a usable GPU (nvidia-smi lists one, ./readonly is built):
#      scripts/reference.sh DIR/data/<gpu> measures the reference set (and
#      scripts/ncu_profile.sh the sector table, where ncu is installed);
#      otherwise the results are copied into DIR/data/<gpu>/;
#   2. bin/report plan DIR lists the charts; they are drawn on every core;
#   3. bin/report render DIR writes index.html and index.md.
# Progress goes to stderr: a line when a step starts and one when it ends,
# with its time, and while charts are drawn at least one line every 5 s.
# A chart that fails is named in the report with its error; the rest is
# there.  Exit status: 0 the report was written (failed parts are listed at
# the end), 1 nothing could be written, 2 usage error.  See docs/report.md.
set -uo pipefail
CALLER_PWD=$PWD
cd "$(dirname "$0")/.."

# Overridable for tests of the GPU path on machines without one.
NVIDIA_SMI=${NVIDIA_SMI:-nvidia-smi}
READONLY=${READONLY:-./readonly}
REFERENCE_SCRIPT=${REFERENCE_SCRIPT:-scripts/reference.sh}
NCU_SCRIPT=${NCU_SCRIPT:-scripts/ncu_profile.sh}
REFERENCE=${WARPLAT_REFERENCE:-data/reference}

usage() { sed -n '2,/^set -uo/p' "$0" | sed -e '/^set -uo/d' -e 's/^# \{0,1\}//'; }
usage_error() { echo "report.sh: $*" >&2; echo "Try 'scripts/report.sh --help'." >&2; exit 2; }

QUICK=0 DEVICE=0 OUTDIR=report DATA="" NOGPU=0
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --quick) QUICK=1; shift ;;
        --no-gpu) NOGPU=1; shift ;;
        --device|--out|--data)
            [ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 needs a value"
            case $1 in --device) DEVICE=$2 ;; --out) OUTDIR=$2 ;; --data) DATA=$2 ;; esac
            shift 2 ;;
        --device=*) DEVICE=${1#*=}; shift ;;
        --out=*) OUTDIR=${1#*=}; shift ;;
        --data=*) DATA=${1#*=}; shift ;;
        *) usage_error "unknown argument '$1'" ;;
    esac
done
case $DEVICE in ''|*[!0-9]*) usage_error "--device must be a GPU ordinal (0, 1, ...), not '$DEVICE'" ;; esac
case $OUTDIR in /*) ;; *) OUTDIR=$CALLER_PWD/$OUTDIR ;; esac
if [ -n "$DATA" ]; then
    case $DATA in /*) ;; *) DATA=$CALLER_PWD/$DATA ;; esac
    [ -d "$DATA" ] || usage_error "--data $DATA is not a directory"
fi

# ---------------------------------------------------------------- progress
# Elapsed time from bash's own clock: microseconds, printed as seconds with
# one decimal (no other arithmetic happens in this script).
now_us() { local t=${EPOCHREALTIME/[.,]/}; printf '%s' "$((10#$t))"; }
T0=$(now_us)
secs() { local d=$(( ($(now_us) - $1) / 100000 )); printf '%d.%d s' $((d / 10)) $((d % 10)); }
say() { echo "report.sh: [$(secs "$T0")] $*" >&2; }
NSTEPS=5 STEP=0
# step WHAT CMD...: one line when it starts, one when it ends (with its time)
step() {
    local what=$1 t0 rc
    shift
    STEP=$((STEP + 1))
    t0=$(now_us)
    say "[$STEP/$NSTEPS] $what ..."
    "$@"
    rc=$?
    if [ $rc -eq 0 ]; then say "[$STEP/$NSTEPS] $what: done ($(secs "$t0"))"
    else say "[$STEP/$NSTEPS] $what: FAILED ($(secs "$t0"))"; fi
    return $rc
}

mkdir -p "$OUTDIR" 2>/dev/null && [ -w "$OUTDIR" ] || { say "cannot create or write $OUTDIR"; exit 1; }
OUTDIR=$(cd "$OUTDIR" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/warplat-report.XXXXXX") || { say "mktemp failed"; exit 1; }
trap 'rm -rf "$WORK"' EXIT
LOGDIR=$OUTDIR/logs
# a report of an earlier run must not pass for this one's
rm -rf "$OUTDIR/index.html" "$OUTDIR/index.md" "$OUTDIR/charts" "$OUTDIR/tables" "$LOGDIR"
mkdir -p "$OUTDIR/data" "$LOGDIR" || { say "cannot create folders in $OUTDIR"; exit 1; }

FAMILIES=""
for f in src/families/*.cu; do [ -f "$f" ] && FAMILIES+="${FAMILIES:+,}$(basename "$f" .cu)"; done

have_gpu() { command -v "$NVIDIA_SMI" >/dev/null 2>&1 && "$NVIDIA_SMI" -L 2>/dev/null | grep -q '^GPU'; }
MODE="" NOTE=""
if [ -n "$DATA" ]; then MODE=data NOTE=$DATA
elif [ $NOGPU = 0 ] && have_gpu && [ -x "$READONLY" ]; then
    MODE=gpu NOTE="device $DEVICE"
    [ $QUICK = 1 ] && NOTE+=", --quick (shorter runs)"
else
    MODE=reference
    if [ $NOGPU = 1 ]; then NOTE="No GPU used (--no-gpu)"
    elif have_gpu; then NOTE="A GPU is present but $READONLY is not built (make), so nothing was measured"
    else NOTE="No GPU found"; fi
fi

# ---------------------------------------------------------------- 1. tools
# make's own line per file keeps the step from going quiet on a fresh clone
build() {
    local target=tools
    [ $MODE = gpu ] && target=all
    make -s -j"$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" $target 2>&1 | tee "$LOGDIR/make.log" >&2
}
step "build the tools (make)" build || { say "could not build bin/ (see $LOGDIR/make.log)"; exit 1; }
command -v gnuplot >/dev/null 2>&1 ||
    say "gnuplot not found: the charts will be missing (scripts/ensure_deps.sh installs it)"

# ---------------------------------------------------------------- 2. results
SOURCES=()   # LABEL=DIR: where each GPU's results came from
measure() {
    local name label dir q=() nq=()
    name=$("$NVIDIA_SMI" --query-gpu=name --format=csv,noheader -i "$DEVICE" 2>/dev/null | head -n 1)
    label=$(printf '%s' "${name:-gpu$DEVICE}" | tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '_')
    label=${label%_}
    dir=$OUTDIR/data/$label
    [ $QUICK = 1 ] && q=(--quick) nq=(--n 1e7)
    SOURCES=("$label=$dir")
    # reference.sh prints its own progress, a line per step start and end;
    # a failed section is named there and the report shows the others
    bash "$REFERENCE_SCRIPT" "$dir" --device "$DEVICE" "${q[@]}" || say "some measurements failed (above); reporting the others"
    if command -v ncu >/dev/null 2>&1 && [ -f "$NCU_SCRIPT" ]; then
        CUDA_VISIBLE_DEVICES=$DEVICE bash "$NCU_SCRIPT" --out "$dir" "${nq[@]}" ||
            say "the sector table failed (above)"
    else
        say "ncu not found: no sector table (the report says which command makes it)"
    fi
    return 0
}
# copy SRC LABEL: the tables and the small logs (not logs_1e7, logs_1e8: they
# are large and the report does not read them)
copy_one() {
    local src=$1 label=$2 dst=$OUTDIR/data/$2
    [ "$(cd "$src" && pwd -P)" = "$(mkdir -p "$dst" && cd "$dst" && pwd -P)" ] && return 0
    rm -rf "$dst" && mkdir -p "$dst" &&
        tar -C "$src" --exclude=./logs_1e7 --exclude=./logs_1e8 -cf - . | tar -C "$dst" -xf -
}
collect() {
    local src=$REFERENCE d
    [ $MODE = data ] && src=$DATA
    local dirs=()
    mapfile -t dirs < <(bin/report gpus "$src")
    [ ${#dirs[@]} -gt 0 ] || { echo "no results found in $src" >&2; return 1; }
    for d in "${dirs[@]}"; do
        copy_one "$d" "$(basename "$d")" || { echo "could not copy $d" >&2; return 1; }
        SOURCES+=("$(basename "$d")=${d#"$PWD"/}")
    done
}
if [ $MODE = gpu ]; then
    step "measure GPU $DEVICE (scripts/reference.sh)" measure
else
    step "copy the results into $OUTDIR/data" collect || { say "no results to report"; exit 1; }
fi

# ---------------------------------------------------------------- 3. plan
plan() { bin/report plan "$OUTDIR" --families "$FAMILIES" >"$WORK/plan.tsv"; }
step "plan the charts (bin/report plan)" plan || { say "bin/report plan failed: nothing to report"; exit 1; }

# ---------------------------------------------------------------- 4. charts
# Jobs of the plan on every core.  Each job's stderr is kept in
# DIR/logs/; a failed one is recorded in DIR/logs/failures.tsv (output,
# error), which bin/report render reads.
NJOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
FAILURES=$LOGDIR/failures.tsv
printf 'output\terror\n' >"$FAILURES"
NFAILED=0
run_job() {   # run_job INDEX LINE: run one job, then report "INDEX STATUS" on fd 3
    local i=$1 f rc
    IFS=$'\t' read -r -a f <<<"$2"
    mkdir -p "$(dirname "${f[0]}")"
    if [ "${f[1]}" = - ]; then
        "${f[@]:3}" >/dev/null 2>"$LOGDIR/job$i.err"
    else
        mkdir -p "$(dirname "${f[1]}")"
        "${f[@]:3}" >"${f[1]}.tmp" 2>"$LOGDIR/job$i.err" && mv "${f[1]}.tmp" "${f[1]}"
    fi
    rc=$?
    [ $rc -eq 0 ] || rm -f "${f[1]}.tmp"
    echo "$i $rc" >&3
}
charts() {
    local lines=() n next=0 running=0 finished=0 i rc f err k
    mapfile -t lines <"$WORK/plan.tsv"
    n=${#lines[@]}
    local -a started what
    mkfifo "$WORK/done" && exec 3<>"$WORK/done" || return 1
    say "  $n job(s) on $NJOBS core(s)"
    while [ $finished -lt $n ]; do
        while [ $running -lt "$NJOBS" ] && [ $next -lt $n ]; do
            IFS=$'\t' read -r -a f <<<"${lines[next]}"
            what[next]=${f[2]}
            started[next]=$(now_us)
            run_job "$next" "${lines[next]}" &
            running=$((running + 1)) next=$((next + 1))
        done
        while ! read -r -t 5 -u 3 i rc; do
            # nothing ended for 5 s: say what is still running
            for ((k = 0; k < next; k++)); do
                [ -n "${started[k]:-}" ] && say "  still running: ${what[k]} ($(secs "${started[k]}"))"
            done
        done
        running=$((running - 1)) finished=$((finished + 1))
        if [ "$rc" -eq 0 ]; then
            say "  [$finished/$n] ${what[i]} ($(secs "${started[i]}"))"
        else
            err=$(grep -v '^[[:space:]]*$' "$LOGDIR/job$i.err" | tail -n 2 | tr '\t\n' '  ')
            IFS=$'\t' read -r -a f <<<"${lines[i]}"
            printf '%s\t%s\n' "${f[0]}" "${err:-exit status $rc}" >>"$FAILURES"
            NFAILED=$((NFAILED + 1))
            say "  [$finished/$n] FAILED: ${what[i]}: ${err:-exit status $rc}"
        fi
        unset "started[i]"
    done
    exec 3>&-
    wait
    return 0
}
step "draw the charts" charts

# ---------------------------------------------------------------- 5. render
render() { bin/report render "$OUTDIR" "${SOURCES[@]}" --mode "$MODE" --note "$NOTE" --families "$FAMILIES"; }
step "write index.html and index.md (bin/report render)" render

if [ ! -s "$OUTDIR/index.html" ] || [ ! -s "$OUTDIR/index.md" ]; then
    say "could not write the report"
    exit 1
fi
say "wrote $OUTDIR/index.html and $OUTDIR/index.md"
[ $NFAILED -eq 0 ] || say "$NFAILED chart(s) failed: they are named in the report ($FAILURES)"
exit 0
