#!/usr/bin/env bash
# scripts/report.sh - one command for the whole study: measure this GPU, or
# take the bundled reference results, and write a report with every chart.
#
#   scripts/report.sh [--quick] [--device D] [--out DIR] [--data DIR] [--no-gpu] [--no-charts]
#   scripts/report.sh --log FILE [--ref DIR] [--out DIR] [--no-charts]
#   make report REPORT_ARGS="--quick --out /tmp/r"
#
#   --quick       shorter GPU runs (scripts/reference.sh --quick: N = 1e7,
#                 the quick ladder, one sweep)
#   --device D    the GPUs of the GPU runs: an ordinal (0, 1, ...), a list
#                 (0,2) or all (default: all; on a host with one GPU that is
#                 GPU 0).  Several GPUs are measured at once, one folder
#                 each (scripts/reference.sh --device LIST), then compared
#                 (bin/fleet collect): the first screen shows the fleet
#   --out DIR     where the report goes (default report): DIR/index.html,
#                 DIR/index.md, DIR/charts/ (each SVG with its gnuplot script
#                 and data), DIR/data/<gpu>/ (the results shown), DIR/logs/
#   --data DIR    report results already on disk, run nothing: one GPU's
#                 results folder (docs/naming.md) or a folder of such folders
#                 (as data/reference), shown side by side
#   --no-gpu      do not measure even where a GPU is present: report the
#                 bundled results of data/reference/*/
#   --log FILE    the report of your own kernel: a log written through the
#                 probe API (include/warplat, docs/your-kernel.md); for each
#                 region its latency distribution, its timeline and the
#                 verdict of bin/verdict; nothing is measured
#   --ref DIR     with --log: the results folder whose ceiling.tsv and
#                 latency_ca.tsv set what Little's law needs (default: the
#                 first folder of the log's GPU in DIR/data, then data/reference)
#   --no-charts   write the report without charts (where gnuplot cannot be
#                 had); without it, a machine whose gnuplot is missing or
#                 cannot start stops here before anything is measured
#   -h, --help    this text
#
# DIR is a report folder: a new report is built beside it (DIR.new.XXXXXX)
# and swapped in whole at the end, so an interrupted run (INT, TERM, HUP,
# QUIT or an error) leaves the previous report as it was, and no DIR.new.*.
# A folder that is not empty and holds no earlier report (its marker,
# DIR/.warplat-report) is refused: nothing in it is touched.  So is, before
# any work (exit 2), a DIR that cannot be swapped: the current folder or one
# above it, /, or this checkout.
#
# This script only sequences; what to draw and every number of the report
# come from bin/report (src/tools/report.c).  Steps:
#   1. with a usable GPU (nvidia-smi lists one, ./readonly is built):
#      scripts/reference.sh DIR/data/<gpu> measures the reference set (and
#      scripts/ncu_profile.sh all the sector tables of every family with a
#      model, where ncu is installed); with several GPUs, each into its
#      DIR/data/gpu<k>-<uuid>-<name>/ at once, and bin/fleet collect DIR/data
#      writes the fleet tables beside them (the GPUs come from nvidia-smi -L
#      through bin/fleet devices: NVIDIA_SMI names another program);
#      otherwise the results are copied into DIR/data/<gpu>/;
#   2. bin/report plan DIR lists the charts; bin/report run-plan draws them
#      on every core (each job an argv, never a shell string: a path may
#      hold any byte);
#   3. bin/report render DIR writes index.html and index.md.
# Progress goes to stderr: a line when a step starts and one when it ends,
# with its time, and while charts are drawn at least one line every 5 s.
# A chart that fails is named in the report with its error; the rest is
# there.  Exit status: 0 the report was written (failed parts are listed at
# the end), 1 nothing could be written, 2 usage error.  See docs/report.md.
set -uo pipefail
CALLER_PWD=$PWD
cd "$(dirname "$0")/.." || exit 1

# Overridable for tests of the GPU path on machines without one.
NVIDIA_SMI=${NVIDIA_SMI:-nvidia-smi}
READONLY=${READONLY:-./readonly}
REFERENCE_SCRIPT=${REFERENCE_SCRIPT:-scripts/reference.sh}
NCU_SCRIPT=${NCU_SCRIPT:-scripts/ncu_profile.sh}
REFERENCE=${WARPLAT_REFERENCE:-data/reference}

usage() { sed -n '2,/^set -uo/p' "$0" | sed -e '/^set -uo/d' -e 's/^# \{0,1\}//'; }
usage_error() { echo "report.sh: $*" >&2; echo "Try 'scripts/report.sh --help'." >&2; exit 2; }

QUICK=0 DEVICE="" OUTDIR=report DATA="" NOGPU=0 CHARTS=1 LOG="" REF=""
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --quick) QUICK=1; shift ;;
        --no-gpu) NOGPU=1; shift ;;
        --no-charts) CHARTS=0; shift ;;
        --device|--out|--data|--log|--ref)
            [ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 needs a value"
            case $1 in --device) DEVICE=$2 ;; --out) OUTDIR=$2 ;; --data) DATA=$2 ;; --log) LOG=$2 ;; --ref) REF=$2 ;; esac
            shift 2 ;;
        --device=*) DEVICE=${1#*=}; shift ;;
        --out=*) OUTDIR=${1#*=}; shift ;;
        --data=*) DATA=${1#*=}; shift ;;
        *) usage_error "unknown argument '$1'" ;;
    esac
done
# the form only (bin/fleet devices checks it against the GPUs once built)
case ${DEVICE:-all} in all) ;; ''|*[!0-9,]*) usage_error "--device must be a GPU ordinal (0, 1, ...), a list (0,2) or all, not '$DEVICE'" ;; esac
case $OUTDIR in /*) ;; *) OUTDIR=$CALLER_PWD/$OUTDIR ;; esac
if [ -n "$DATA" ]; then
    case $DATA in /*) ;; *) DATA=$CALLER_PWD/$DATA ;; esac
    [ -d "$DATA" ] || usage_error "--data $DATA is not a directory"
fi
if [ -n "$LOG" ]; then
    [ -z "$DATA" ] && [ $QUICK = 0 ] || usage_error "--log reports a log: it goes with neither --data nor --quick"
    case $LOG in /*) ;; *) LOG=$CALLER_PWD/$LOG ;; esac
    [ -f "$LOG" ] || usage_error "--log $LOG is not a file"
fi
if [ -n "$REF" ]; then
    [ -n "$LOG" ] || usage_error "--ref goes with --log"
    case $REF in /*) ;; *) REF=$CALLER_PWD/$REF ;; esac
    [ -d "$REF" ] || usage_error "--ref $REF is not a directory"
fi
# physical DIR: REPLY is DIR's name with every link, '.' and '..' resolved
# (cd and $PWD: a name ending in a newline stays whole); 1 if it is no folder
physical() { local here=$PWD; REPLY=; cd -P -- "$1" 2>/dev/null || return 1; REPLY=$PWD; cd -- "$here" || exit 1; }
# The report is swapped in by renaming: DIR must not be / (it has no side to
# build beside), the folder this was started from or one above it (the
# rename would take the caller's own folder away), or this checkout.
# (no trailing '/': the parent and the name are split at the last one below)
while [ "$OUTDIR" != / ] && [ "${OUTDIR%/}" != "$OUTDIR" ]; do OUTDIR=${OUTDIR%/}; done
refuse_out() {
    echo "report.sh: --out $OUTDIR cannot be swapped: it is the current folder or one above it (or /, or this checkout), and the new report is renamed into its place; name a folder below it" >&2
    exit 2
}
cwd_phys="" root_phys=""
if physical "$OUTDIR"; then
    out_phys=$REPLY
    [ "$out_phys" = / ] && refuse_out
    physical "$CALLER_PWD" && cwd_phys=$REPLY
    physical . && root_phys=$REPLY
    for inner in "$cwd_phys" "$root_phys"; do
        case "$inner/" in "$out_phys/"*) refuse_out ;; esac
    done
    # a name ending in '.' or '..' is renamed by its own name
    case ${OUTDIR##*/} in .|..) OUTDIR=$out_phys ;; esac
else
    case ${OUTDIR##*/} in .|..) refuse_out ;; esac
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
    part "$what" $rc "$t0"
    return $rc
}
# part WHAT STATUS T0_US: one row of the run log, LOGDIR/steps.tsv (what ran,
# ok or failed, its start and end in microseconds: bin/report computes the
# times); a failed part is also named at the end
FAILED_PARTS=()
part() {
    local st=ok what=$1
    [ "$2" -eq 0 ] || { st=failed; FAILED_PARTS+=("$1"); }
    # a TAB or a newline (from a path) must not split the row: written as
    # outfile_put_field writes them (\x09, \x0a, \x0d)
    what=${what//$'\t'/\\x09} what=${what//$'\n'/\\x0a} what=${what//$'\r'/\\x0d}
    [ -n "${LOGDIR:-}" ] && [ -d "$LOGDIR" ] &&
        printf '%s\t%s\t%s\t%s\n' "$what" "$st" "$3" "$(now_us)" >>"$LOGDIR/steps.tsv"
}
# in_bg CMD...: run CMD in a process group of its own and wait for it.  Bash
# runs a trap only when a foreground command has ended; while it waits here
# a signal is handled at once, and the clean-up stops CMD with all that it
# started (kill of the group) before the staging folder is removed.
in_bg() {
    set -m
    "$@" &
    set +m
    wait "$!"
}

# ---------------------------------------------------------------- gnuplot
# Checked before anything is measured: a five-minute run must not end in a
# report whose every chart failed.  gnuplot must really start (a missing
# shared library is named with gnuplot's own message).
if [ $CHARTS = 1 ]; then
    if ! command -v gnuplot >/dev/null 2>&1; then
        say "gnuplot is not installed, so the charts cannot be drawn: install it with '$( [ "$(id -u)" -eq 0 ] || printf 'sudo ')apt-get install gnuplot-nox' (Debian package gnuplot-nox), or run 'make report REPORT_ARGS=--no-charts' for a report without charts"
        exit 1
    fi
    if ! gperr=$(gnuplot -d -e 'set terminal svg; exit' 2>&1 </dev/null); then
        say "gnuplot is installed but cannot run ($(printf '%s' "$gperr" | grep -v '^[[:space:]]*$' | tail -n 1)): reinstall it with 'apt-get install --reinstall gnuplot-nox', or run 'make report REPORT_ARGS=--no-charts' for a report without charts"
        exit 1
    fi
fi

# ---------------------------------------------------------------- the folders
# The report is built in STAGE, beside OUTDIR on the same file system, and
# swapped in at the end.  MARKER says that a folder is a warplat report.
MARKER=.warplat-report
if [ -e "$OUTDIR" ] && [ ! -d "$OUTDIR" ]; then say "--out $OUTDIR exists and is not a folder"; exit 1; fi
if [ -d "$OUTDIR" ] && [ ! -f "$OUTDIR/$MARKER" ] && [ -n "$(ls -A "$OUTDIR" 2>/dev/null)" ]; then
    say "--out $OUTDIR is a folder that is not empty and holds no warplat report ($MARKER): refusing to write there; name a new or empty folder"
    exit 1
fi
# the parent and the name, split without dirname/basename (whose $(...)
# would drop a trailing newline); OUTDIR ends in no '/' (above)
OUTBASE=${OUTDIR##*/} OUTPARENT=${OUTDIR%/*}
OUTPARENT=${OUTPARENT:-/}
mkdir -p -- "$OUTPARENT" 2>/dev/null && [ -w "$OUTPARENT" ] ||
    { say "cannot create or write $OUTPARENT"; exit 1; }
here=$PWD
cd -- "$OUTPARENT" && OUTDIR=${PWD%/}/$OUTBASE && cd -- "$here" || { say "cannot enter $OUTPARENT"; exit 1; }
# Every way out removes the staging folder, once nothing writes into it
# any more: a step still running in the background (in_bg) is stopped with
# its whole process group and waited for first.
STAGE="" WORK=""
cleanup() {
    trap '' INT TERM HUP QUIT
    local p
    for p in $(jobs -p); do kill -TERM -- -"$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf -- "$WORK" "$STAGE"
}
trap cleanup EXIT
stopped() { say "$1: the previous report in $OUTDIR is left as it was"; exit "$2"; }
trap 'stopped interrupted 130' INT
trap 'stopped terminated 143' TERM
trap 'stopped terminated 129' HUP
trap 'stopped terminated 131' QUIT
STAGE=$(mktemp -d "$OUTDIR.new.XXXXXX") || { say "cannot create a folder beside $OUTDIR"; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/warplat-report.XXXXXX") || { say "mktemp failed"; exit 1; }
printf 'warplat report folder: scripts/report.sh builds it whole and replaces it whole\n' >"$STAGE/$MARKER"
LOGDIR=$STAGE/logs
mkdir -p "$STAGE/data" "$LOGDIR" || { say "cannot create folders in $STAGE"; exit 1; }
printf 'step\tstatus\tstart_us\tend_us\n' >"$LOGDIR/steps.tsv"


# (grep reads every line: grep -q would stop at the first and, with
# pipefail, a list of several GPUs could fail on the writer's SIGPIPE)
have_gpu() { command -v "$NVIDIA_SMI" >/dev/null 2>&1 && "$NVIDIA_SMI" -L 2>/dev/null | grep '^GPU' >/dev/null; }
# the Makefile's own search for nvcc
have_nvcc() { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; }
MODE="" NOTE=""
if [ -n "$LOG" ]; then MODE=kernel NOTE=$LOG
elif [ -n "$DATA" ]; then MODE=data NOTE=$DATA
elif [ $NOGPU = 0 ] && have_gpu && { [ -x "$READONLY" ] || have_nvcc; }; then
    # a fresh clone has no ./readonly yet: the build step below makes it
    MODE=gpu   # NOTE: once the GPUs are known (after the build)
else
    MODE=reference
    if [ $NOGPU = 1 ]; then NOTE="No GPU used (--no-gpu)"
    elif have_gpu; then NOTE="A GPU is present but nvcc (the CUDA Toolkit) is not, so nothing was measured"
    else NOTE="No GPU found"; fi
fi

# ---------------------------------------------------------------- 1. tools
# make's own line per file keeps the step from going quiet on a fresh clone
build() {
    local target=tools
    [ $MODE = gpu ] && target=all
    make -s -j"$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" $target 2>&1 | tee "$LOGDIR/make.log" >&2
}
# what the installed ncu can collect (scripts/ncu_profile.sh asks once for
# every family): asked while make builds, when the GPU measures nothing yet,
# instead of one ncu start (1-2 s) between the reference set and the sector
# tables.  Only on a host of one GPU: with several, ncu_profile.sh asks for
# each GPU it profiles (its CUDA_VISIBLE_DEVICES), whose models may differ.
NCU_QUERY_PID=""
if [ $MODE = gpu ] && command -v ncu >/dev/null 2>&1 &&
   [ "$("$NVIDIA_SMI" -L 2>/dev/null | grep -c '^GPU ')" = 1 ]; then
    timeout 120 ncu --query-metrics >"$WORK/ncu_query_metrics.txt" 2>&1 </dev/null &
    NCU_QUERY_PID=$!
fi
step "build the tools (make)" in_bg build || { say "could not build bin/ (see $LOGDIR/make.log)"; exit 1; }
if [ -n "$NCU_QUERY_PID" ]; then
    wait "$NCU_QUERY_PID" && [ -s "$WORK/ncu_query_metrics.txt" ] &&
        export WARPLAT_NCU_QUERY=$WORK/ncu_query_metrics.txt
fi
# the kernel families: the registry says which (src/families/NAME/, never listed here)
FAMILIES=$(bin/names families | paste -sd,) && [ -n "$FAMILIES" ] || { say "bin/names families failed"; exit 1; }
if [ $MODE = gpu ] && [ ! -x "$READONLY" ]; then
    say "make did not build $READONLY (see $LOGDIR/make.log): nothing can be measured"
    exit 1
fi
# the GPUs to measure: those --device names (default all) among the ones
# nvidia-smi -L lists; one GPU is the run of one GPU, as it always was
GPUS=()
if [ $MODE = gpu ]; then
    "$NVIDIA_SMI" -L 2>/dev/null >"$WORK/smi_list.txt"
    mapfile -t GPUS < <(bin/fleet devices "${DEVICE:-all}" <"$WORK/smi_list.txt" 2>"$WORK/devices.err")
    if [ ${#GPUS[@]} -eq 0 ]; then say "--device ${DEVICE:-all}: $(cat "$WORK/devices.err")"; exit 2; fi
    DEVICE=${GPUS[0]}
    if [ ${#GPUS[@]} -eq 1 ]; then NOTE="device $DEVICE"
    else DEVICES=$(IFS=,; printf '%s' "${GPUS[*]}"); NOTE="devices $DEVICES (${#GPUS[@]} GPUs at once)"; fi
    [ $QUICK = 1 ] && NOTE+=", --quick (shorter runs)"
fi

# ---------------------------------------------------------------- 2. results
SOURCES=()   # LABEL=DIR: where each GPU's results came from
measure() {
    local name label dir q=()
    name=$("$NVIDIA_SMI" --query-gpu=name --format=csv,noheader -i "$DEVICE" 2>/dev/null | head -n 1)
    label=$(printf '%s' "${name:-gpu$DEVICE}" | tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '_')
    label=${label%_}
    dir=$STAGE/data/$label
    [ $QUICK = 1 ] && q=(--quick)
    SOURCES=("$label=$OUTDIR/data/$label")
    # reference.sh prints its own progress, a line per step start and end;
    # a failed section is named there and the report shows the others
    local t0 rc
    t0=$(now_us)
    in_bg bash "$REFERENCE_SCRIPT" "$dir" --device "$DEVICE" "${q[@]}"
    rc=$?
    part "measure: the reference set (scripts/reference.sh)" $rc "$t0"
    [ $rc -eq 0 ] || say "some measurements failed (above); reporting the others"
    if command -v ncu >/dev/null 2>&1 && [ -f "$NCU_SCRIPT" ]; then
        t0=$(now_us)
        CUDA_VISIBLE_DEVICES=$DEVICE in_bg bash "$NCU_SCRIPT" all --out "$dir" "${q[@]}"
        rc=$?
        part "measure: the sector tables (scripts/ncu_profile.sh all)" $rc "$t0"
        [ $rc -eq 0 ] || say "a sector table failed (above)"
    else
        say "ncu not found: no sector table (the report says which command makes it)"
    fi
    return 0
}
# several GPUs at once: scripts/reference.sh --device LIST writes one folder
# per GPU into data/ (and one log each, moved to logs/); then each GPU's
# sector tables, one GPU after the other (Nsight Compute on the GPU alone),
# and the fleet tables beside the folders (bin/fleet collect)
measure_all() {
    local q=() t0 rc d f dirs=() ord
    [ $QUICK = 1 ] && q=(--quick)
    t0=$(now_us)
    in_bg bash "$REFERENCE_SCRIPT" "$STAGE/data" --device "$DEVICES" "${q[@]}"
    rc=$?
    part "measure: the reference set on GPUs $DEVICES at once (scripts/reference.sh --device $DEVICES)" $rc "$t0"
    [ $rc -eq 0 ] || say "some measurements failed (above, and logs/reference_*.log); reporting the others"
    for f in "$STAGE"/data/*.log; do [ -f "$f" ] && mv -- "$f" "$LOGDIR/reference_${f##*/}"; done
    mapfile -d '' -t dirs < <(bin/report gpus "$STAGE/data" --nul)
    [ ${#dirs[@]} -gt 0 ] || { say "no GPU's results were written into $STAGE/data"; return 1; }
    for d in "${dirs[@]}"; do SOURCES+=("${d##*/}=$OUTDIR/data/${d##*/}"); done
    if command -v ncu >/dev/null 2>&1 && [ -f "$NCU_SCRIPT" ]; then
        for d in "${dirs[@]}"; do
            ord=$(bin/tsv get "$d/device.tsv" value --where key=device_ordinal) || continue
            t0=$(now_us)
            CUDA_VISIBLE_DEVICES=$ord in_bg bash "$NCU_SCRIPT" all --out "$d" "${q[@]}"
            rc=$?
            part "measure: the sector tables of GPU $ord (scripts/ncu_profile.sh all)" $rc "$t0"
            [ $rc -eq 0 ] || say "a sector table of GPU $ord failed (above)"
        done
    else
        say "ncu not found: no sector table (the report says which command makes it)"
    fi
    t0=$(now_us)
    bin/fleet collect "$STAGE/data" --depth 1 >&2
    rc=$?
    part "compare the GPUs (bin/fleet collect)" $rc "$t0"
    return 0
}
# copy SRC LABEL: the tables and the small logs (not logs_1e7, logs_1e8: they
# are large and the report does not read them)
copy_one() {
    local src=$1 label=$2 dst=$STAGE/data/$2
    [ "$(cd "$src" && pwd -P)" = "$(mkdir -p "$dst" && cd "$dst" && pwd -P)" ] && return 0
    rm -rf "$dst" && mkdir -p "$dst" &&
        tar -C "$src" --exclude=./logs_1e7 --exclude=./logs_1e8 -cf - . | tar -C "$dst" -xf -
}
collect() {
    local src=$REFERENCE d
    [ $MODE = data ] && src=$DATA
    local dirs=()
    mapfile -d '' -t dirs < <(bin/report gpus "$src" --nul)
    [ ${#dirs[@]} -gt 0 ] || { echo "no results found in $src" >&2; return 1; }
    for d in "${dirs[@]}"; do
        copy_one "$d" "${d##*/}" || { echo "could not copy $d" >&2; return 1; }
        SOURCES+=("${d##*/}=${d#"$PWD"/}")
    done
    # the fleet tables of a folder of several GPUs' folders (bin/fleet collect)
    for d in fleet.tsv fleet_summary.tsv fleet_chart.tsv; do
        [ ! -f "$src/$d" ] || cp -- "$src/$d" "$STAGE/data/" || { echo "could not copy $src/$d" >&2; return 1; }
    done
}
# your kernel's log: the verdict and the statistics (its charts: bin/report
# plan --log, step 3)
kernel_tables() {
    local refarg=(--ref-root "$OUTDIR/data:$REFERENCE") t
    [ -n "$REF" ] && refarg=(--ref "$REF")
    mkdir -p "$STAGE/tables" "$STAGE/charts" || return 1
    bin/verdict "$LOG" "${refarg[@]}" --out "$STAGE/tables/verdict.tsv" || return 1
    bin/latency_stats "$LOG" --out "$STAGE/tables/latency_stats.tsv" || return 1
}
if [ $MODE = kernel ]; then
    step "the verdict and statistics of $LOG (bin/verdict, bin/latency_stats)" kernel_tables ||
        { say "$LOG could not be read: nothing to report"; exit 1; }
elif [ $MODE = gpu ] && [ ${#GPUS[@]} -gt 1 ]; then
    step "measure GPUs $DEVICES at once (scripts/reference.sh --device $DEVICES), then compare them (bin/fleet)" measure_all
elif [ $MODE = gpu ]; then
    step "measure GPU $DEVICE (scripts/reference.sh)" measure
else
    if [ $MODE = reference ]; then
        say "nothing is measured here ($NOTE): the report shows the bundled results of $REFERENCE/"
    fi
    step "copy the results into the report's data/" collect || { say "no results to report"; exit 1; }
fi

# ---------------------------------------------------------------- 3. plan
plan() {
    if [ $MODE = kernel ]; then bin/report plan "$STAGE" --log "$LOG" --nul >"$WORK/plan.nul"
    else bin/report plan "$STAGE" --families "$FAMILIES" --nul >"$WORK/plan.nul"; fi
}
step "plan the charts (bin/report plan)" plan || { say "the plan failed: nothing to report"; exit 1; }

# ---------------------------------------------------------------- 4. charts
# bin/report run-plan runs the plan's jobs on every core (src/lib/jobrun.h):
# each job's stderr is kept in DIR/logs/, a failed one is recorded in
# DIR/logs/failures.tsv (output, error), which bin/report render reads, and
# each job is a row of DIR/logs/steps.tsv.  It names the failed ones on its
# stdout, NUL-ended: they are failed parts.
NFAILED=0
charts() {
    local nocharts=() failed=() rc
    [ $CHARTS = 1 ] || nocharts=(--no-charts)
    in_bg bin/report run-plan "$WORK/plan.nul" "$STAGE" --t0-us "$T0" "${nocharts[@]}" >"$WORK/failed.nul"
    rc=$?
    mapfile -d '' -t failed <"$WORK/failed.nul"
    NFAILED=${#failed[@]}
    FAILED_PARTS+=("${failed[@]}")
    return $rc
}
step "draw the charts" charts

# ---------------------------------------------------------------- 5. render
render() {
    if [ $MODE = kernel ]; then bin/report kernel "$STAGE"
    else bin/report render "$STAGE" "${SOURCES[@]}" --mode "$MODE" --note "$NOTE" --families "$FAMILIES"; fi
}
step "write index.html and index.md (bin/report render)" render

if [ ! -s "$STAGE/index.html" ] || [ ! -s "$STAGE/index.md" ]; then
    say "could not write the report; the previous one in $OUTDIR is left as it was"
    exit 1
fi
# ---------------------------------------------------------------- swap
# the old report moves aside, the new one takes its name, the old one goes
OLD=""
if [ -d "$OUTDIR" ]; then
    OLD=$(mktemp -u "$OUTDIR.old.XXXXXX")
    mv "$OUTDIR" "$OLD" || { say "cannot move the previous report $OUTDIR aside"; exit 1; }
fi
if ! mv "$STAGE" "$OUTDIR"; then
    [ -n "$OLD" ] && mv "$OLD" "$OUTDIR"
    say "cannot move the new report into $OUTDIR; the previous one is left as it was"
    exit 1
fi
[ -n "$OLD" ] && rm -rf "$OLD"
chmod 755 "$OUTDIR" 2>/dev/null
say "wrote $OUTDIR/index.html and $OUTDIR/index.md"
[ $NFAILED -eq 0 ] || say "$NFAILED chart(s) failed: they are named in the report ($OUTDIR/logs/failures.tsv)"
if [ ${#FAILED_PARTS[@]} -eq 0 ]; then say "failed parts: none (run log: $OUTDIR/logs/steps.tsv)"
else say "failed parts: ${#FAILED_PARTS[@]}: $(printf '%s; ' "${FAILED_PARTS[@]}")(run log: $OUTDIR/logs/steps.tsv)"; fi
exit 0
