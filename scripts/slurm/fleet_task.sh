#!/usr/bin/env bash
# scripts/slurm/fleet_task.sh - one task of the fleet's job array: measure
# this task's GPU (or every GPU of this task's node) with
# scripts/reference.sh into the shared results folder, as
# RESULTS/<host>-<gpu key>/ (<gpu key>: gpu<ordinal>-<8 hex of the
# UUID>-<name>, docs/naming.md).  docs/fleet.md explains the whole run.
#
# scripts/slurm/submit.sh submits it; the settings come through the
# environment (sbatch --export=ALL):
#   WARPLAT_ROOT                  the warplat checkout, built, on a file system
#                                 every node sees (default: the submit folder)
#   WARPLAT_FLEET_RESULTS         the shared results folder (required)
#   WARPLAT_FLEET_PER             gpu: one GPU per task (default);
#                                 node: every GPU of the node (--device all)
#   WARPLAT_FLEET_REFERENCE_ARGS  more options for scripts/reference.sh (--quick)
#   WARPLAT_FLEET_REPLAY          DIR:DIR:...: measure nothing; task i copies
#                                 the i-th DIR (a results folder) as if its GPU
#                                 had written it, with ordinal i (for tests and
#                                 demonstrations without GPUs)
#
# A task writes into RESULTS/.task-<job>_<task>/ and renames each GPU's
# folder into place only when it is complete: the collect step never reads
# half a folder, and folders whose names start with '.' are never collected.
# Exit status: 0 when every GPU's folder was published (sections that
# reference.sh could not run are named above, and their figures are "nan"
# in the fleet report), 1 when a folder could not be made.
#SBATCH --job-name=warplat-fleet
#SBATCH --ntasks=1
#SBATCH --gres=gpu:1
set -euo pipefail

say() { echo "fleet_task: $*" >&2; }
die() { say "$*"; exit 1; }

ROOT=${WARPLAT_ROOT:-${SLURM_SUBMIT_DIR:-}}
[ -n "$ROOT" ] && [ -d "$ROOT" ] || die "WARPLAT_ROOT is not set (the warplat checkout)"
cd "$ROOT"
RESULTS=${WARPLAT_FLEET_RESULTS:-}
[ -n "$RESULTS" ] || die "WARPLAT_FLEET_RESULTS is not set (the shared results folder)"
mkdir -p "$RESULTS"
[ -x bin/fleet ] || die "$ROOT/bin/fleet is missing: run make in $ROOT first"

TASK=${SLURM_ARRAY_TASK_ID:-0}
JOB=${SLURM_ARRAY_JOB_ID:-${SLURM_JOB_ID:-$$}}
HOST=${SLURMD_NODENAME:-$(hostname -s)}
PER=${WARPLAT_FLEET_PER:-gpu}
PARTIAL=$RESULTS/.task-${JOB}_$TASK
rm -rf "$PARTIAL"
mkdir -p "$PARTIAL"
trap 'rm -rf "$PARTIAL"' EXIT

# publish DIR ORDINAL: rename DIR to RESULTS/<host>-<gpu key>
publish() {
    local key dest
    key=$(bin/fleet key "$1" --ordinal "$2") || die "cannot name the results in $1"
    dest=$RESULTS/$HOST-$key
    rm -rf "$dest"
    mv "$1" "$dest"
    say "task $TASK: $dest"
}

if [ -n "${WARPLAT_FLEET_REPLAY:-}" ]; then
    IFS=: read -r -a replay <<<"$WARPLAT_FLEET_REPLAY"
    [ "$TASK" -lt "${#replay[@]}" ] ||
        die "task $TASK has no folder to replay (WARPLAT_FLEET_REPLAY names ${#replay[@]})"
    src=${replay[$TASK]}
    [ -d "$src" ] || die "task $TASK: replay folder $src does not exist"
    say "task $TASK on $HOST: replaying $src (no measurement)"
    cp -R "$src/." "$PARTIAL/gpu"
    publish "$PARTIAL/gpu" "$TASK"
    exit 0
fi

# shellcheck disable=SC2206  # the options are words, as on a command line
args=(${WARPLAT_FLEET_REFERENCE_ARGS:-})
rc=0
case $PER in
    gpu)
        # the ordinal on the node: the GPU Slurm gave this task
        ord=${SLURM_JOB_GPUS:-${CUDA_VISIBLE_DEVICES:-0}}
        ord=${ord%%,*}
        case $ord in ''|*[!0-9]*) ord=0 ;; esac
        say "task $TASK on $HOST: GPU $ord (CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset})"
        scripts/reference.sh "$PARTIAL/gpu" --device 0 "${args[@]}" || rc=$?
        [ $rc -eq 0 ] || say "task $TASK: reference.sh exited $rc: some sections failed (above)"
        publish "$PARTIAL/gpu" "$ord" ;;
    node)
        say "task $TASK on $HOST: every GPU of the node"
        scripts/reference.sh "$PARTIAL/node" --device all "${args[@]}" || rc=$?
        [ $rc -eq 0 ] || say "task $TASK: reference.sh exited $rc: some sections failed (above)"
        n=0
        for d in "$PARTIAL"/node/gpu*/; do
            [ -d "$d" ] || continue
            d=${d%/}
            dest=$RESULTS/$HOST-$(basename "$d")
            rm -rf "$dest"
            mv "$d" "$dest"
            say "task $TASK: $dest"
            n=$((n + 1))
        done
        [ $n -gt 0 ] || die "task $TASK: reference.sh --device all wrote no GPU folder" ;;
    *) die "WARPLAT_FLEET_PER must be gpu or node (got '$PER')" ;;
esac
exit 0
