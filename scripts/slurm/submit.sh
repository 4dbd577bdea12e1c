#!/usr/bin/env bash
# scripts/slurm/submit.sh - measure a fleet of GPUs through Slurm: a job
# array with one task per GPU (or per node) running scripts/reference.sh into
# one shared results folder, and a collect job, run when every task has
# succeeded, that writes the fleet report (docs/fleet.md).
#
#   scripts/slurm/submit.sh --results DIR --tasks N [options] [-- SBATCH_OPTION...]
#   scripts/slurm/submit.sh --results DIR --replay DIR [--replay DIR]... [options]
#
#   --results DIR        the shared results folder: RESULTS/<host>-<gpu key>/
#                        per GPU, then RESULTS/fleet.tsv (on a file system that
#                        every node sees, as this checkout must be)
#   --tasks N            array tasks: GPUs (--per gpu) or nodes (--per node)
#   --per gpu|node       gpu (default): one GPU per task, --gres=gpu:1;
#                        node: every GPU of a node per task (--exclusive,
#                        --gres=gpu:G with --gpus-per-node G)
#   --gpus-per-node G    the GPUs of a node, for --per node (default 8)
#   --gres SPEC          the GPU request of a task instead of gpu:1 (gpu:G);
#                        'none' where the site asks for GPUs some other way
#                        (give that way after --)
#   --reference-args A   more options for scripts/reference.sh, one word list
#                        (e.g. "--quick")
#   --fleet-args A       more options for bin/fleet collect (e.g. "--k 4")
#   --replay DIR         measure nothing: task i copies the i-th DIR (a results
#                        folder, e.g. data/reference/h100) as if its GPU had
#                        written it; the number of tasks is the number of DIRs.
#                        The environment's WARPLAT_FLEET_REPLAY=DIR:DIR:... does
#                        the same.  For tests and demonstrations without GPUs.
#   --collect-after ok|any  run the collect job after every task succeeded
#                        (ok, the default: sbatch --dependency=afterok) or
#                        after every task ended (any: afterany, which reports
#                        the GPUs whose task failed as missing)
#   --dry-run            print the sbatch commands, submit nothing
#   -- SBATCH_OPTION...  passed to both sbatch commands (--partition,
#                        --account, --time, ...)
#
# Output: the sbatch commands and what they did on stderr; on stdout two
# lines "array_job<TAB>ID" and "collect_job<TAB>ID" for scripts.
# Exit status: 0 submitted, 1 sbatch failed (or the checkout is not built),
# 2 usage error.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
usage_error() { echo "submit.sh: $*" >&2; echo "Try 'scripts/slurm/submit.sh --help'." >&2; exit 2; }
say() { echo "submit.sh: $*" >&2; }

RESULTS="" TASKS="" PER=gpu GPN=8 GRES="" REF_ARGS="" FLEET_ARGS="" AFTER=ok DRY=0
REPLAY=()
if [ -n "${WARPLAT_FLEET_REPLAY:-}" ]; then IFS=: read -r -a REPLAY <<<"$WARPLAT_FLEET_REPLAY"; fi
SBATCH_EXTRA=()
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --dry-run) DRY=1; shift ;;
        --) shift; SBATCH_EXTRA=("$@"); break ;;
        --results|--tasks|--per|--gpus-per-node|--gres|--reference-args|--fleet-args|--replay|--collect-after)
            [ $# -ge 2 ] || usage_error "$1 needs a value"
            case $1 in
                --results) RESULTS=$2 ;;
                --tasks) TASKS=$2 ;;
                --per) PER=$2 ;;
                --gpus-per-node) GPN=$2 ;;
                --gres) GRES=$2 ;;
                --reference-args) REF_ARGS=$2 ;;
                --fleet-args) FLEET_ARGS=$2 ;;
                --replay) REPLAY+=("$2") ;;
                --collect-after) AFTER=$2 ;;
            esac
            shift 2 ;;
        *) usage_error "unknown argument '$1'" ;;
    esac
done
[ -n "$RESULTS" ] || usage_error "--results DIR is missing"
case $PER in gpu|node) ;; *) usage_error "--per must be gpu or node (got '$PER')" ;; esac
case $AFTER in ok|any) ;; *) usage_error "--collect-after must be ok or any (got '$AFTER')" ;; esac
case $GPN in ''|*[!0-9]*|0) usage_error "--gpus-per-node must be a positive number (got '$GPN')" ;; esac
if [ ${#REPLAY[@]} -gt 0 ]; then
    [ -z "$TASKS" ] || [ "$TASKS" = ${#REPLAY[@]} ] ||
        usage_error "--tasks $TASKS but ${#REPLAY[@]} folders to replay: one task per folder"
    TASKS=${#REPLAY[@]}
    abs=()
    for d in "${REPLAY[@]}"; do
        [ -d "$d" ] || usage_error "--replay $d: no such folder"
        case $d in *:*) usage_error "--replay $d: a folder name with ':' cannot be passed on" ;; esac
        abs+=("$(cd "$d" && pwd)")
    done
    REPLAY=("${abs[@]}")
fi
[ -n "$TASKS" ] || usage_error "--tasks N is missing (GPUs, or nodes with --per node)"
case $TASKS in ''|*[!0-9]*|0) usage_error "--tasks must be a positive number (got '$TASKS')" ;; esac

[ -x bin/fleet ] || { say "bin/fleet is missing: run make in $ROOT first"; exit 1; }
if [ ${#REPLAY[@]} -eq 0 ]; then
    for b in readonly latency; do
        [ -x "./$b" ] || { say "./$b is missing: run make (with nvcc) in $ROOT first"; exit 1; }
    done
fi
mkdir -p "$RESULTS/.logs"
RESULTS=$(cd "$RESULTS" && pwd)

# what the jobs read from the environment (sbatch --export=ALL passes it on,
# values with commas included)
export WARPLAT_ROOT=$ROOT WARPLAT_FLEET_RESULTS=$RESULTS WARPLAT_FLEET_PER=$PER
export WARPLAT_FLEET_REFERENCE_ARGS=$REF_ARGS WARPLAT_FLEET_OPTIONS=$FLEET_ARGS
if [ ${#REPLAY[@]} -gt 0 ]; then
    WARPLAT_FLEET_REPLAY=$(IFS=:; echo "${REPLAY[*]}")
    export WARPLAT_FLEET_REPLAY
else
    unset WARPLAT_FLEET_REPLAY
fi

array_opts=(--parsable --export=ALL --chdir="$ROOT" --array="0-$((TASKS - 1))"
            --output="$RESULTS/.logs/task-%A_%a.out")
if [ "$PER" = node ]; then
    array_opts+=(--exclusive --gres="${GRES:-gpu:$GPN}")
elif [ -n "$GRES" ]; then
    array_opts+=(--gres="$GRES")
fi
array_cmd=(sbatch "${array_opts[@]}" "${SBATCH_EXTRA[@]}" scripts/slurm/fleet_task.sh)
say "${array_cmd[*]}"
if [ $DRY = 1 ]; then
    array_id=ARRAY
else
    command -v sbatch >/dev/null 2>&1 || { say "sbatch not found: is this a Slurm login node?"; exit 1; }
    array_id=$("${array_cmd[@]}") || { say "sbatch failed for the job array"; exit 1; }
    array_id=${array_id%%;*}    # --parsable: "ID" or "ID;cluster"
fi
what="one GPU per task"
[ "$PER" = node ] && what="one node per task"
[ ${#REPLAY[@]} -gt 0 ] && what="$what, replaying ${#REPLAY[@]} results folders"
say "array job $array_id: $TASKS tasks ($what), results under $RESULTS"

collect_cmd=(sbatch --parsable --export=ALL --chdir="$ROOT" --dependency="after$AFTER:$array_id"
             --output="$RESULTS/.logs/collect-%j.out" "${SBATCH_EXTRA[@]}" scripts/slurm/fleet_collect.sh)
say "${collect_cmd[*]}"
if [ $DRY = 1 ]; then
    collect_id=COLLECT
else
    collect_id=$("${collect_cmd[@]}") || {
        say "sbatch failed for the collect job; the array job $array_id runs anyway:"
        say "collect by hand with: bin/fleet collect $RESULTS"
        exit 1
    }
    collect_id=${collect_id%%;*}
fi
say "collect job $collect_id (after$AFTER:$array_id) writes $RESULTS/fleet.tsv"
printf 'array_job\t%s\ncollect_job\t%s\n' "$array_id" "$collect_id"
