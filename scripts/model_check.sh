#!/usr/bin/env bash
# scripts/model_check.sh - the sector model on configurations nobody picked:
# K random configurations per family, each batch profiled R times with Nsight
# Compute and judged against the model's expected count within each row's
# own tolerance (issue 36), and strictly as before (issue 25)
# (docs/model_check.md).
#
#   scripts/model_check.sh FAMILY|LIST|all --random K (--seed S | --seed-from-commit [REV] [--second-seed])
#                          [--out DIR] [--repeat R]
#   scripts/model_check.sh FAMILY|LIST|all --calib [--out DIR] [--repeat R]
#
#   FAMILY       a family the check draws (bin/model_check families: the
#                sector model's and atomics), a comma-separated LIST of them,
#                or all
#   --random K   configurations per family (the family's variants in turn)
#   --seed S     the seed: the same seed draws the same configurations
#   --seed-from-commit [REV]
#                held-out seeds: the seed is the number of the first 8 hex
#                digits of REV's hash (--second-seed: of the next 8), REV a
#                commit, or "model" (the default): the last commit that
#                changed the model's files (bin/model_check model-paths), so
#                that any change to the model draws new seeds.  The commit
#                and whether the seeds are held out (no change to the
#                model's files since REV, in git's work tree) are in every
#                table's header; a change is marked "no: ...", and said
#   --out DIR    the results folder (default data/model_check)
#   --calib      instead of drawing: the family's calibration probes, the
#                fixed configurations of src/families/FAMILY/calib.tsv (a
#                family without one is left out); no --random, no seed
#   --repeat R   profile each family's batch R times (default 3): the
#                judged rule takes each row's median and spread over the R
#                runs; the strict table judges run 1
#
# For each family: bin/model_check draw writes an engine --batch-file (one
# configuration a line: N, WPB, the variant and its options) and the draws'
# table; R ncu runs profile ./FAMILY_profile --batch-file over every line (ncu
# flushes the caches before each kernel; it profiles the variants' kernels,
# bin/model_check kernels FAMILY, and lets the validation kernels beside
# them run unprofiled, which halves its launches); bin/ncu_extract and
# bin/sector_compare --family (atomics: bin/model_check atomics-compare) join
# the launches with the model; bin/model_check tolerate judges the R tables
# (one expected count per quantity, tolerance the largest of 5 % of the
# median, twice the row's spread and 0.1 % of its L1 sectors) and
# bin/model_check judge applies the strict rule to run 1 (L1 requests and
# sectors exact, no bracket wider than 5 % of its point prediction, "not
# judged" never agreement) and classes each mismatch.  Writes, each whole or
# not at all:
#   DIR/model_check_tol_<family>.tsv    the judged rule: per configuration,
#                                       variant and op, each quantity's
#                                       expected count, bracket (shown),
#                                       median, spread, tolerance and its
#                                       source, and the strict verdict beside
#   DIR/model_check_tol_summary.tsv     per family and quantity: agreement
#                                       under the judged and the strict rule,
#                                       rows that needed the spread
#   DIR/model_check_worst.tsv           the 20 worst rows, with their args
#   DIR/model_check_<family>.tsv        the strict table (run 1): agree, class,
#                                       predicted and measured
#   DIR/model_check_summary.tsv         rows, agreeing, %, each class, per family
#                                       and in all; seed and ranges in its header
#   DIR/model_check/<family>_draws.tsv  the draws (id, variant, n, WPB, args)
#   DIR/model_check/<family>.batch      the engine's --batch-file
#   DIR/model_check/<family>_runs.tsv   the engine's table of the profiled run
#   DIR/model_check/<family>.csv.gz     ncu's raw log of run 1, gzipped (the
#                                       comparison can be made again from it)
#   DIR/model_check/<family>_compare.tsv  the comparison table of run 1
#   with R > 1, also:
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

FAMILY="" K="" SEED="" OUTDIR=data/model_check REPEAT=3 FROM_COMMIT="" SECOND=0 CALIB=0
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --seed-from-commit)
            FROM_COMMIT=model
            case ${2:-} in -*|"") ;; *[!0-9A-Za-z_^~./-]*) ;; *)
                # a REV, unless it names the family to check
                case ,$2, in ,all,|*,copy,*|*,patterns,*|*,readonly,*|*,stencil,*|*,atomics,*) ;;
                    *) FROM_COMMIT=$2; shift ;; esac ;;
            esac
            shift ;;
        --second-seed) SECOND=1; shift ;;
        --calib) CALIB=1; shift ;;
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
fams=${FAMILY//,/ }
[ "$FAMILY" = all ] && fams=$DRAWN
for f in $fams; do
    case " $DRAWN " in *" $f "*) ;; *) usage_error "unknown FAMILY '$f' (${DRAWN// /, } or all)" ;; esac
done
if [ "$CALIB" = 1 ]; then
    [ -z "$K$SEED$FROM_COMMIT" ] || usage_error "--calib takes no --random, --seed or --seed-from-commit"
    [ "$SECOND" = 0 ] || usage_error "--calib takes no --second-seed"
    cal=""
    for f in $fams; do [ -s "src/families/$f/calib.tsv" ] && cal="$cal $f"; done
    [ -n "$cal" ] || usage_error "no family of '$FAMILY' has calibration probes (src/families/FAMILY/calib.tsv)"
    fams=$cal K=probes SEED=none
fi
[ -n "$K" ] || usage_error "--random K is missing"
[ -n "$SEED" ] && [ -n "$FROM_COMMIT" ] && usage_error "--seed and --seed-from-commit exclude each other"
[ "$SECOND" = 1 ] && [ -z "$FROM_COMMIT" ] && usage_error "--second-seed goes with --seed-from-commit"
[ -n "$SEED" ] || [ -n "$FROM_COMMIT" ] || usage_error "--seed S (or --seed-from-commit) is missing"
# held-out seeds: the commit's hash gives them, the model's files say whether
# they are held out (git only reads here)
COMMIT="" HELD=""
if [ -n "$FROM_COMMIT" ]; then
    mapfile -t MPATHS < <(bin/model_check model-paths)
    # a full hash this repository lacks (a copy of a tree whose .git is
    # older): its seeds, held out unknown, as without git
    full_unknown=0
    if [[ $FROM_COMMIT =~ ^[0-9a-fA-F]{40}$ ]] && git rev-parse --git-dir >/dev/null 2>&1 &&
       ! git rev-parse --verify --quiet "$FROM_COMMIT^{commit}" >/dev/null; then
        full_unknown=1
    fi
    if [ $full_unknown = 1 ]; then
        COMMIT=$FROM_COMMIT
        HELD="unknown: this repository does not have the commit (a copy whose .git is older)"
    elif git rev-parse --git-dir >/dev/null 2>&1; then
        if [ "$FROM_COMMIT" = model ]; then
            COMMIT=$(git log -1 --format=%H -- "${MPATHS[@]}") && [ -n "$COMMIT" ] ||
                die "no commit changed the model's files (git log -- ${MPATHS[*]})"
        else
            COMMIT=$(git rev-parse --verify --quiet "$FROM_COMMIT^{commit}") || usage_error "'$FROM_COMMIT' is not a commit"
        fi
        if [ -n "$(git status --porcelain -- "${MPATHS[@]}")" ] ||
           ! git diff --quiet "$COMMIT" -- "${MPATHS[@]}"; then
            HELD="no: the model's files changed since $COMMIT"
            echo "model_check.sh: NOT HELD OUT: the model's files changed since $COMMIT (git diff $COMMIT -- ${MPATHS[*]}); the tables say so" >&2
        else
            HELD=yes
        fi
    else
        case $FROM_COMMIT in
            [0-9a-fA-F]*) COMMIT=$FROM_COMMIT; HELD="unknown: no git repository to compare the model's files with" ;;
            *) die "--seed-from-commit $FROM_COMMIT needs a git repository (or give the full hash)" ;;
        esac
    fi
    read -r S1 S2 <<<"$(bin/model_check seeds "$COMMIT")" || die "bin/model_check seeds $COMMIT failed"
    [ -n "${S2:-}" ] || die "bin/model_check seeds $COMMIT failed"
    SEED=$S1
    [ "$SECOND" = 1 ] && SEED=$S2
    echo "model_check.sh: seed $SEED from commit $COMMIT (held out: $HELD)" >&2
fi
# the values themselves are checked by bin/model_check draw (the one number parser)
case $REPEAT in [1-9]|[1-9][0-9]) ;; *) usage_error "--repeat takes 1 to 64 (got '$REPEAT')" ;; esac
[ "$REPEAT" -le 64 ] || usage_error "--repeat takes 1 to 64 (got '$REPEAT')"

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
    local f=$1 prog=$2 metrics=$3 run=$4 t="" kernels
    [ "$run" -gt 1 ] && t=_run$run
    echo "model_check.sh: $f: $K configurations, ncu run $run of $REPEAT of $prog --batch-file" >&2
    # the variants' kernels only: the validation kernels beside them (NAME_check) would double
    # the profiled launches, and no comparison reads them
    kernels=$(bin/model_check kernels "$f") || die "$f: bin/model_check kernels failed"
    timeout 3000 ncu --csv --log-file "$WORK/$f$t.csv" --print-units base --clock-control none \
        --cache-control all --kernel-name "regex:$kernels" --metrics "$metrics" \
        "$prog" --batch-file "$WORK/$f.batch" --reps 1 --warmup 0 -q --table "$WORK/${f}${t}_runs.tsv" \
        >"$WORK/$f$t.out" 2>&1 || { tail -n 20 "$WORK/$f$t.out" >&2; die "$f: ncu or $prog failed"; }
    grep -qs ERR_NVGPUCTRPERM "$WORK/$f$t.csv" "$WORK/$f$t.out" &&
        die "ncu has no permission to read the GPU counters (ERR_NVGPUCTRPERM)"
    bin/ncu_extract "$WORK/$f$t.csv" --metrics "$metrics" --kernel "^${f}_" >"$WORK/$f$t.ext.tsv" ||
        die "$f: could not read the ncu log"
    if [ "$(bin/model_check kind "$f")" = atomics ]; then
        bin/model_check atomics-compare --runs "$WORK/${f}${t}_runs.tsv" --ncu "$WORK/$f$t.ext.tsv" \
            --dram-granularity 64 --out "$WORK/${f}${t}_compare.tsv" || die "$f: bin/model_check atomics-compare failed"
    else
        bin/sector_compare --family "$f" --runs "$WORK/${f}${t}_runs.tsv" --ncu "$WORK/$f$t.ext.tsv" \
            --dram-granularity 64 --out "$WORK/${f}${t}_compare.tsv" ||
            [ -s "$WORK/${f}${t}_compare.tsv" ] || die "$f: bin/sector_compare failed"
    fi
    { printf '# date\t%s\n# ncu\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$NCU_VERSION"
      cat "$WORK/${f}${t}_compare.tsv"; } >"$WORK/${f}${t}_cmp.tsv" || die "cannot write $WORK/${f}${t}_cmp.tsv"
}

# check FAMILY: draw, profile (--repeat times), compare, judge; the judged
# table in $WORK.
check() {
    local f=$1 prog=${WARPLAT_PROFILE_DIR:-.}/$1_profile metrics run cmps=()
    [ -x "$prog" ] || die "$prog is missing: build it with 'make'"
    local held=()
    [ -z "$COMMIT" ] || held=(--commit "$COMMIT" --held-out "$HELD")
    if [ "$CALIB" = 1 ]; then
        cp "src/families/$f/calib.tsv" "$WORK/${f}_draws.tsv" &&
            bin/model_check batch --draws "$WORK/${f}_draws.tsv" --batch-file "$WORK/$f.batch" ||
            die "$f: bin/model_check batch of src/families/$f/calib.tsv failed"
    else
        bin/model_check draw "$f" --random "$K" --seed "$SEED" --batch-file "$WORK/$f.batch" \
            --draws "$WORK/${f}_draws.tsv" ${held[@]+"${held[@]}"} || die "$f: bin/model_check draw failed"
    fi
    if [ "$(bin/model_check kind "$f")" = atomics ]; then
        metrics=$(bin/model_check metrics atomics) || die "$f: metrics"
    elif [ -s "$WORK/query_metrics.txt" ]; then
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
    cmps=("$WORK/${f}_cmp.tsv")
    for ((run = 2; run <= REPEAT; run++)); do cmps+=("$WORK/${f}_run${run}_cmp.tsv"); done
    bin/model_check tolerate --draws "$WORK/${f}_draws.tsv" --out "$WORK/model_check_tol_$f.tsv" "${cmps[@]}" ||
        die "$f: bin/model_check tolerate failed"
    publish "$WORK/model_check_tol_$f.tsv" "$OUTDIR/model_check_tol_$f.tsv"
    [ "$REPEAT" -gt 1 ] || return 0
    bin/model_check repeat --out "$WORK/model_check_repeat_$f.tsv" "${cmps[@]}" ||
        die "$f: bin/model_check repeat failed"
    for ((run = 2; run <= REPEAT; run++)); do
        publish "$WORK/${f}_run${run}_cmp.tsv" "$OUTDIR/model_check/${f}_compare_run$run.tsv"
    done
    publish "$WORK/model_check_repeat_$f.tsv" "$OUTDIR/model_check_repeat_$f.tsv"
    bin/tsv get "$OUTDIR/model_check_repeat_$f.tsv" over_5pct --where quantity=any_judged |
        sed "s/^/model_check.sh: $f: rows whose judged counts moved more than 5 % between runs: /" >&2
}

judged=() tols=()
for f in $fams; do
    check "$f"
    judged+=("$OUTDIR/model_check_$f.tsv")
done
# the summaries of every family judged so far in DIR (a family run alone
# refreshes its own rows beside the others')
for f in $DRAWN; do
    case " ${judged[*]} " in *" $OUTDIR/model_check_$f.tsv "*) ;; *) [ -s "$OUTDIR/model_check_$f.tsv" ] && judged+=("$OUTDIR/model_check_$f.tsv") ;; esac
    [ -s "$OUTDIR/model_check_tol_$f.tsv" ] && tols+=("$OUTDIR/model_check_tol_$f.tsv")
done
bin/model_check summary --out "$OUTDIR/model_check_summary.tsv" "${judged[@]}" || die "bin/model_check summary failed"
bin/model_check tsummary --out "$OUTDIR/model_check_tol_summary.tsv" --worst 20 \
    --worst-out "$OUTDIR/model_check_worst.tsv" "${tols[@]}" || die "bin/model_check tsummary failed"
echo "model_check.sh: wrote $OUTDIR/model_check_tol_summary.tsv" >&2
bin/tsv get "$OUTDIR/model_check_tol_summary.tsv" agree_pct --where family=all --where quantity=every |
    sed "s/^/model_check.sh: agreement under the judged rule, R = $REPEAT (%): /" >&2
echo "model_check.sh: wrote $OUTDIR/model_check_summary.tsv" >&2
bin/tsv get "$OUTDIR/model_check_summary.tsv" agree_pct --where family=all | sed 's/^/model_check.sh: agreement (%): /' >&2
