#!/usr/bin/env bash
# scripts/model_check.sh - the sector model on configurations nobody picked:
# K random configurations per family, profiled with Nsight Compute and judged
# strictly against the model's prediction (docs/model_check.md, issue 25).
#
#   scripts/model_check.sh FAMILY|all --random K --seed S [--out DIR] [--repeat R]
#
#   FAMILY       a family whose model draws configurations (bin/model_check
#                families), or all
#   --random K   configurations per family (the family's variants in turn)
#   --seed S     the seed: the same seed draws the same configurations
#   --out DIR    the results folder (default data/model_check)
#   --repeat R   profile each family's batch R times (default 1): the judging
#                uses the first run; bin/model_check repeat says how far every
#                measured count moved between the runs, the floor under any
#                point prediction (docs/model_check.md)
#
# For each family: bin/model_check draw writes an engine --batch-file (one
# configuration a line: N, WPB, the variant and its options) and the draws'
# table; ONE ncu run profiles ./FAMILY_profile --batch-file over every line (ncu
# flushes the caches before each kernel); bin/ncu_extract and
# bin/sector_compare --family join and judge the launches; bin/model_check
# judge applies the strict rule (L1 requests and sectors exact, no bracket
# wider than 5 % of its point prediction, "not judged" never agreement) and
# classes each mismatch.  Writes, each whole or not at all:
#   DIR/model_check_<family>.tsv        one row per configuration, variant and
#                                       op: agree, class, predicted and measured
#   DIR/model_check_summary.tsv         rows, agreeing, %, each class, per family
#                                       and in all; seed and ranges in its header
#   DIR/model_check/<family>_draws.tsv  the draws (id, variant, n, WPB, args)
#   DIR/model_check/<family>.batch      the engine's --batch-file
#   DIR/model_check/<family>_runs.tsv   the engine's table of the profiled run
#   DIR/model_check/<family>.csv.gz     ncu's raw log, gzipped (the comparison can
#                                       be made again from it without a GPU)
#   DIR/model_check/<family>_compare.tsv  bin/sector_compare's table
#   with --repeat R (R > 1), also:
#   DIR/model_check/<family>_compare_run<i>.tsv  the table of run i = 2..R
#   DIR/model_check_repeat_<family>.tsv  bin/model_check repeat of the R tables
# Needs ncu, ./<family>_profile (make), a GPU and counter access.
# WARPLAT_PROFILE_DIR (default .) is where the <family>_profile programs are.
# Exit: 0 written; 1 a step failed; 2 usage.
set -u
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; }
usage_error() { echo "model_check.sh: $*" >&2; echo "Try 'scripts/model_check.sh --help'." >&2; exit 2; }
die() { echo "model_check.sh: $*" >&2; exit 1; }

FAMILY="" K="" SEED="" OUTDIR=data/model_check REPEAT=1
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --random|--seed|--out|--repeat)
            [ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 needs a value"
            case $1 in --random) K=$2 ;; --seed) SEED=$2 ;; --out) OUTDIR=$2 ;; --repeat) REPEAT=$2 ;; esac
            shift 2 ;;
        -*) usage_error "unknown option '$1'" ;;
        *) [ -z "$FAMILY" ] || usage_error "one FAMILY only (got '$FAMILY' and '$1')"; FAMILY=$1; shift ;;
    esac
done
[ -x bin/model_check ] && [ -x bin/sector_compare ] || make -s tools >&2 || die "could not build the tools (make tools)"
DRAWN=$(bin/model_check families | paste -sd' ') || die "bin/model_check families failed"
[ -n "$FAMILY" ] || usage_error "FAMILY is missing (${DRAWN// /, } or all)"
case " $DRAWN all " in *" $FAMILY "*) ;; *) usage_error "unknown FAMILY '$FAMILY' (${DRAWN// /, } or all)" ;; esac
[ -n "$K" ] || usage_error "--random K is missing"
[ -n "$SEED" ] || usage_error "--seed S is missing"
# the values themselves are checked by bin/model_check draw (the one number parser)
case $REPEAT in [1-9]|[1-9][0-9]) ;; *) usage_error "--repeat takes 1 to 99 (got '$REPEAT')" ;; esac

command -v ncu >/dev/null 2>&1 ||
    die "ncu (Nsight Compute) is not on PATH: install it or add /usr/local/cuda/bin to PATH"
for b in bin/sector_model bin/ncu_extract bin/tsv; do
    [ -x "$b" ] || { make -s tools >&2 || die "could not build the tools (make tools)"; break; }
done
mkdir -p "$OUTDIR/model_check" || die "cannot create $OUTDIR/model_check"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/model_check.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$WORK"' EXIT
ncu --query-metrics >"$WORK/query_metrics.txt" 2>&1 || : >"$WORK/query_metrics.txt"
NCU_VERSION=$(ncu --version 2>/dev/null | tail -n 1)

# publish SRC DEST: copy through DEST.tmp and a rename.
publish() { cp "$1" "$2.tmp" && mv "$2.tmp" "$2" || { rm -f "$2.tmp"; die "cannot write $2"; }; }

# profile FAMILY PROG METRICS RUN: one ncu run of the family's batch, its
# comparison in $WORK/<family><tag>_cmp.tsv (tag: empty for run 1, _run<i>)
profile() {
    local f=$1 prog=$2 metrics=$3 run=$4 t=""
    [ "$run" -gt 1 ] && t=_run$run
    echo "model_check.sh: $f: $K configurations, ncu run $run of $REPEAT of $prog --batch-file" >&2
    timeout 3000 ncu --csv --log-file "$WORK/$f$t.csv" --print-units base --clock-control none \
        --cache-control all --kernel-name "regex:^${f}_" --metrics "$metrics" \
        "$prog" --batch-file "$WORK/$f.batch" --reps 1 --warmup 0 -q --table "$WORK/${f}${t}_runs.tsv" \
        >"$WORK/$f$t.out" 2>&1 || { tail -n 20 "$WORK/$f$t.out" >&2; die "$f: ncu or $prog failed"; }
    grep -qs ERR_NVGPUCTRPERM "$WORK/$f$t.csv" "$WORK/$f$t.out" &&
        die "ncu has no permission to read the GPU counters (ERR_NVGPUCTRPERM)"
    bin/ncu_extract "$WORK/$f$t.csv" --metrics "$metrics" --kernel "^${f}_" >"$WORK/$f$t.ext.tsv" ||
        die "$f: could not read the ncu log"
    bin/sector_compare --family "$f" --runs "$WORK/${f}${t}_runs.tsv" --ncu "$WORK/$f$t.ext.tsv" \
        --dram-granularity 64 --out "$WORK/${f}${t}_compare.tsv" ||
        [ -s "$WORK/${f}${t}_compare.tsv" ] || die "$f: bin/sector_compare failed"
    { printf '# date\t%s\n# ncu\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$NCU_VERSION"
      cat "$WORK/${f}${t}_compare.tsv"; } >"$WORK/${f}${t}_cmp.tsv" || die "cannot write $WORK/${f}${t}_cmp.tsv"
}

# check FAMILY: draw, profile (--repeat times), compare, judge; the judged
# table in $WORK.
check() {
    local f=$1 prog=${WARPLAT_PROFILE_DIR:-.}/$1_profile metrics run cmps=()
    [ -x "$prog" ] || die "$prog is missing: build it with 'make'"
    bin/model_check draw "$f" --random "$K" --seed "$SEED" --batch-file "$WORK/$f.batch" \
        --draws "$WORK/${f}_draws.tsv" || die "$f: bin/model_check draw failed"
    if [ -s "$WORK/query_metrics.txt" ]; then
        metrics=$(bin/sector_model --metrics "$f" --ncu-query "$WORK/query_metrics.txt") || die "$f: metrics"
    else
        metrics=$(bin/sector_model --metrics "$f") || die "$f: metrics"
    fi
    for ((run = 1; run <= REPEAT; run++)); do
        profile "$f" "$prog" "$metrics" "$run"
    done
    bin/model_check judge --compare "$WORK/${f}_cmp.tsv" --draws "$WORK/${f}_draws.tsv" \
        --out "$WORK/model_check_$f.tsv" || die "$f: bin/model_check judge failed"
    gzip -n -c "$WORK/$f.csv" >"$WORK/$f.csv.gz" || die "gzip failed"
    for x in "$f.batch" "${f}_draws.tsv" "${f}_runs.tsv" "$f.csv.gz"; do publish "$WORK/$x" "$OUTDIR/model_check/$x"; done
    publish "$WORK/${f}_cmp.tsv" "$OUTDIR/model_check/${f}_compare.tsv"
    publish "$WORK/model_check_$f.tsv" "$OUTDIR/model_check_$f.tsv"
    [ "$REPEAT" -gt 1 ] || return 0
    cmps=("$WORK/${f}_cmp.tsv")
    for ((run = 2; run <= REPEAT; run++)); do cmps+=("$WORK/${f}_run${run}_cmp.tsv"); done
    bin/model_check repeat --out "$WORK/model_check_repeat_$f.tsv" "${cmps[@]}" ||
        die "$f: bin/model_check repeat failed"
    for ((run = 2; run <= REPEAT; run++)); do
        publish "$WORK/${f}_run${run}_cmp.tsv" "$OUTDIR/model_check/${f}_compare_run$run.tsv"
    done
    publish "$WORK/model_check_repeat_$f.tsv" "$OUTDIR/model_check_repeat_$f.tsv"
    bin/tsv get "$OUTDIR/model_check_repeat_$f.tsv" over_5pct --where quantity=any_judged |
        sed "s/^/model_check.sh: $f: rows whose judged counts moved more than 5 % between runs: /" >&2
}

fams=$FAMILY
[ "$FAMILY" = all ] && fams=$DRAWN
judged=()
for f in $fams; do
    check "$f"
    judged+=("$OUTDIR/model_check_$f.tsv")
done
# the summary of every family judged so far in DIR (a family run alone
# refreshes its own row beside the others')
for f in $DRAWN; do
    case " ${judged[*]} " in *" $OUTDIR/model_check_$f.tsv "*) ;; *) [ -s "$OUTDIR/model_check_$f.tsv" ] && judged+=("$OUTDIR/model_check_$f.tsv") ;; esac
done
bin/model_check summary --out "$OUTDIR/model_check_summary.tsv" "${judged[@]}" || die "bin/model_check summary failed"
echo "model_check.sh: wrote $OUTDIR/model_check_summary.tsv" >&2
bin/tsv get "$OUTDIR/model_check_summary.tsv" agree_pct --where family=all | sed 's/^/model_check.sh: agreement (%): /' >&2
