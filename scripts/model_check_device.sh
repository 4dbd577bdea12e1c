#!/usr/bin/env bash
# scripts/model_check_device.sh - issue 36 on a bare GPU host, end to end:
# build; the calibration probes (scripts/model_check.sh --calib: the fixed
# configurations of src/families/*/calib.tsv, each batch profiled R times);
# then the judged model check (scripts/model_check.sh --repeat R) of every
# family the check draws (the sector model's four and atomics), on a seed
# drawn from the frozen model commit; all within a wall-time budget.
#
#   scripts/model_check_device.sh [--commit HASH] [--second-seed] [--random K] [--repeat R]
#                                 [--budget S]
#
#   --commit HASH   the frozen model commit whose hash gives the seeds
#                   (scripts/model_check.sh --seed-from-commit); default: the
#                   last commit that changed the model's files (git), and
#                   where there is no git repository FROZEN_COMMIT below (a
#                   test keeps it the last commit that changed them)
#   --second-seed   the commit's second seed (its hash's next 8 hex digits)
#   --random K      configurations per family (default 15).  The sizing:
#                   on the H100 one configuration and ncu run took about
#                   0.7 s, ncu's start and the model's prediction included
#                   (4 families x 25 configurations took 71 s at R = 1), so
#                   5 families x 15 x 3 runs are about 160 s; the 139
#                   calibration probes x 3 runs took 162 s on an H200 (the
#                   stencil's 71 small ones 68 s); with the build (6 s on
#                   16 cores) about 6 minutes
#   --repeat R      ncu runs of each batch (default 3)
#   --budget S      seconds for the probes and the check after the build
#                   (default 330; the probes start only in its first 45 %):
#                   a family is started only while the budget lasts, and
#                   stopped 60 s past it, so the whole run stays near 7
#                   minutes; the families left out are said in status.txt
#   --no-calib      the check alone
#
# Writes to $OUT (default ./out_model_check), at most 8 files:
#   status.txt                 each step, its exit and seconds; the families
#                              checked and skipped; the seeds and commit
#   run.log                    everything the steps said
#   model_check_tol_summary.tsv, model_check_worst.tsv, model_check_summary.tsv
#                              the judged rule's and the strict rule's
#                              summaries, the worst rows (copies)
#   calib_tol_summary.tsv      the probes' summary under the judged rule
#   model_check.tar.gz         the whole results folder (per family the
#                              judged and strict tables, draws, batch, the R
#                              comparison tables, ncu's raw log of run 1;
#                              the probes' the same under results/calib/)
# Needs nvcc, make, ncu on PATH (or under /usr/local/cuda/bin), a GPU and
# counter access.  Exit: 0 the check ran for every family; 1 a step failed
# or a family was left out; 2 usage.
set -u
cd "$(dirname "$0")/.."
FROZEN_COMMIT=4b8abb342827e6ec720ed4665c9779a80fbe3df4
OUT=${OUT:-$PWD/out_model_check}
COMMIT="" SECOND=() K=15 REPEAT=3 BUDGET=330 CALIB=1
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; exit 0 ;;
        --commit|--random|--repeat|--budget)
            [ $# -ge 2 ] && [ -n "$2" ] || { echo "model_check_device.sh: $1 needs a value" >&2; exit 2; }
            case $1 in --commit) COMMIT=$2 ;; --random) K=$2 ;; --repeat) REPEAT=$2 ;; --budget) BUDGET=$2 ;; esac
            shift 2 ;;
        --second-seed) SECOND=(--second-seed); shift ;;
        --no-calib) CALIB=0; shift ;;
        *) echo "model_check_device.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
case $K$REPEAT$BUDGET in *[!0-9]*) echo "model_check_device.sh: --random, --repeat, --budget take whole numbers" >&2; exit 2 ;; esac
mkdir -p "$OUT" || exit 1
STATUS=$OUT/status.txt LOG=$OUT/run.log
: >"$STATUS"
: >"$LOG"
say() { echo "$*" | tee -a "$STATUS" >&2; }
T0=$(date +%s)
# step NAME CMD...: run, log, record the exit and the seconds
step() {
    local name=$1 t=$(date +%s) rc
    shift
    echo "=== $name: $*" >>"$LOG"
    "$@" >>"$LOG" 2>&1
    rc=$?
    say "$name	exit $rc	$(( $(date +%s) - t )) s"
    return $rc
}
[ -d /usr/local/cuda/bin ] && PATH=$PATH:/usr/local/cuda/bin
say "host	$(hostname) $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say "gpu	$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
command -v nvcc >/dev/null && command -v ncu >/dev/null || { say "missing	nvcc or ncu not on PATH"; exit 1; }
say "ncu	$(ncu --version 2>/dev/null | tail -n 1)"
step build make -j"$(nproc)" all tools || { say "result	the build failed: see run.log"; exit 1; }

SEEDARGS=(--seed-from-commit)
if [ -z "$COMMIT" ] && ! git rev-parse --git-dir >/dev/null 2>&1; then
    COMMIT=$FROZEN_COMMIT
    say "commit	no git repository here: the seeds of FROZEN_COMMIT $COMMIT (held out: unknown)"
fi
[ -n "$COMMIT" ] && SEEDARGS+=("$COMMIT")
FAMS=$(bin/model_check families | paste -sd' ')
say "families	$FAMS"
say "configurations	$K a family, $REPEAT ncu runs each, budget $BUDGET s after the build"
RES=$OUT/results
rm -rf "$RES"
TB=$(date +%s) done_f=() left=()
# family STEP MAX ARGS...: one scripts/model_check.sh run, started only while
# the budget's first MAX seconds last, stopped 60 s past the budget
family() {
    local name=$1 max=$2 el
    shift 2
    el=$(( $(date +%s) - TB ))
    if [ "$el" -ge "$max" ]; then
        left+=("$name")
        return 1
    fi
    step "$name" timeout $(( BUDGET + 60 - el )) scripts/model_check.sh "$@" && done_f+=("$name") || left+=("$name")
}
if [ "$CALIB" = 1 ]; then
    for f in $FAMS; do
        [ -s "src/families/$f/calib.tsv" ] || continue
        family "probes $f" $(( BUDGET * 45 / 100 )) "$f" --calib --repeat "$REPEAT" --out "$RES/calib"
    done
fi
for f in $FAMS; do
    family "check $f" "$BUDGET" "$f" --random "$K" "${SEEDARGS[@]}" ${SECOND[@]+"${SECOND[@]}"} --repeat "$REPEAT" --out "$RES"
done
grep -m 1 'seed .* from commit' "$LOG" | sed 's/^model_check.sh: /seeds\t/' >>"$STATUS"
say "checked	${done_f[*]:-none}"
say "left out	${left[*]:-none}"
for t in model_check_tol_summary.tsv model_check_worst.tsv model_check_summary.tsv; do
    [ -s "$RES/$t" ] && cp "$RES/$t" "$OUT/$t"
done
[ -s "$RES/calib/model_check_tol_summary.tsv" ] && cp "$RES/calib/model_check_tol_summary.tsv" "$OUT/calib_tol_summary.tsv"
[ -d "$RES" ] && step pack tar -C "$OUT" -czf "$OUT/model_check.tar.gz" results && rm -rf "$RES"
if [ -s "$OUT/model_check_tol_summary.tsv" ]; then
    bin/tsv get "$OUT/model_check_tol_summary.tsv" agree_pct --where family=all --where quantity=every |
        sed 's/^/judged rule, every quantity at once (%)\t/' >>"$STATUS"
fi
say "total	$(( $(date +%s) - T0 )) s"
[ ${#left[@]} -eq 0 ] || exit 1
exit 0
