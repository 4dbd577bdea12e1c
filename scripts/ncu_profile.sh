#!/usr/bin/env bash
# scripts/ncu_profile.sh - measure what the hardware moves for each readonly
# access pattern with Nsight Compute, into one TSV that bin/sector_compare
# puts next to the model's predictions (docs/sectors.md).
#
#   scripts/ncu_profile.sh [--n N] [--out DIR] [--l2-fetch BYTES] [--wpb W]
#
#   --n N            floats in the array (default 1e8: 400 MB, 8x the H100 L2)
#   --out DIR        where the results go (default data)
#   --l2-fetch B     run the main table with cudaLimitMaxL2FetchGranularity = B
#                    (32, 64 or 128; default: the driver's default)
#   --wpb W          warps per block (default 4)
#
# Writes
#   DIR/sectors_<gpu>.tsv    pattern elem_bytes stride l1_requests l1_sectors
#                            l2_sectors dram_sectors time_ns, "#" metadata
#   DIR/l2_fetch_<gpu>.tsv   the DRAM fetch granularity: one isolated 4 B load
#                            per 128 B (strided, stride 32) under each
#                            cudaLimitMaxL2FetchGranularity; DRAM sectors per
#                            L2 sector = granule / 32 B
#   DIR/ncu_<gpu>/*.csv      the raw ncu logs (real fixtures for the tests)
# and nothing when it fails (exit 1).  About 12 ncu runs, 2-4 minutes on an
# H100 at N = 1e8.  Needs ./readonly_profile (make compile-profile), ncu and
# permission to read the GPU counters.
set -u
cd "$(dirname "$0")/.."

N=1e8 OUTDIR=data L2F="" WPB=4
usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; }
die() { echo "ncu_profile.sh: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --n|--out|--l2-fetch|--wpb)
            [ $# -ge 2 ] || { echo "ncu_profile.sh: $1 needs a value" >&2; exit 2; }
            case $1 in --n) N=$2 ;; --out) OUTDIR=$2 ;; --l2-fetch) L2F=$2 ;; --wpb) WPB=$2 ;; esac
            shift 2 ;;
        *) echo "ncu_profile.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case $L2F in ""|32|64|128) ;; *) echo "ncu_profile.sh: --l2-fetch must be 32, 64 or 128" >&2; exit 2 ;; esac
case $WPB in ''|*[!0-9]*) echo "ncu_profile.sh: --wpb must be a positive integer" >&2; exit 2 ;; esac
# N as an integer (1e8 -> 100000000), for the metadata and the model
NINT=$(awk -v n="$N" 'BEGIN { if (n + 0 < 4) exit 1; printf "%.0f", n }') ||
    { echo "ncu_profile.sh: --n must be a number of at least 4" >&2; exit 2; }

command -v ncu >/dev/null 2>&1 ||
    die "ncu (Nsight Compute) is not on PATH: install it or add /usr/local/cuda/bin to PATH"
[ -x ./readonly_profile ] || die "./readonly_profile is missing: build it with 'make compile-profile'"
command -v nvidia-smi >/dev/null 2>&1 || die "nvidia-smi not found: is there an NVIDIA GPU and driver here?"
if [ ! -x bin/ncu_extract ]; then
    make -s tools >&2 || die "could not build bin/ncu_extract (make tools)"
fi

GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
[ -n "$GPU" ] || die "nvidia-smi lists no GPU"
SLUG=$(printf '%s' "$GPU" | tr -c 'A-Za-z0-9' '_' | sed -e 's/__*/_/g' -e 's/^_//' -e 's/_$//')
METRICS=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__sectors_read.sum,gpu__time_duration.sum
NCU_VERSION=$(ncu --version 2>/dev/null | tail -n 1)

mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ncu_profile.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$WORK"' EXIT

# profile NAME N KERNELS STRIDE [L2FETCH]: one ncu run of readonly_profile;
# appends "pattern elem stride req l1 l2 dram time" rows to $WORK/NAME.rows.
# Only the kernels named readonly_* are profiled (not the init helpers), and
# with --warmup 0 --reps 1 each kernel launches once: ncu flushes the caches
# before every pass anyway (--cache-control all), so a warm-up changes nothing.
profile() {
    local name=$1 n=$2 kernels=$3 stride=$4 l2f=${5:-}
    local csv=$WORK/$name.csv
    local extra=()
    [ -n "$l2f" ] && extra=(--l2-fetch "$l2f")
    echo "ncu_profile.sh: $name: ./readonly_profile $n 0 $WPB --kernel $kernels --stride $stride ${extra[*]}" >&2
    timeout 600 ncu --csv --log-file "$csv" --print-units base --clock-control none \
        --kernel-name 'regex:^readonly_' --metrics "$METRICS" \
        ./readonly_profile "$n" 0 "$WPB" --kernel "$kernels" --stride "$stride" \
        --reps 1 --warmup 0 "${extra[@]}" >"$WORK/$name.out" 2>&1
    local rc=$?
    if grep -qs ERR_NVGPUCTRPERM "$csv" "$WORK/$name.out"; then
        die "ncu has no permission to read the GPU counters (ERR_NVGPUCTRPERM): run as root or enable access for all users, see https://developer.nvidia.com/ERR_NVGPUCTRPERM"
    fi
    if [ $rc -ne 0 ] || [ ! -s "$csv" ]; then
        tail -n 20 "$WORK/$name.out" >&2
        die "$name: ncu or readonly_profile failed (exit $rc)"
    fi
    cp "$csv" "$WORK/keep_$name.csv"
    bin/ncu_extract "$csv" --metrics "$METRICS" --kernel '^readonly_' >"$WORK/$name.tsv" ||
        die "$name: could not read the ncu log (kept in $WORK until exit)"
    # kernel id req l1 l2 dram time -> pattern elem stride req l1 l2 dram time;
    # the last launch of each kernel wins (there is one with --reps 1).
    awk -F'\t' -v stride="$stride" 'NR > 1 {
            k = $1; sub(/\(.*/, "", k); sub(/^readonly_/, "", k)
            elem = (k == "float4" || k == "strided_float4") ? 16 : 4
            s = (k == "strided" || k == "strided_float4") ? stride : 1
            row[k] = k "\t" elem "\t" s "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7
            if (!(k in seen)) { seen[k] = 1; order[++n] = k }
        }
        END { for (i = 1; i <= n; i++) print row[order[i]] }' "$WORK/$name.tsv" >"$WORK/$name.rows"
    [ -s "$WORK/$name.rows" ] || die "$name: ncu profiled no readonly_ kernel"
}

# 1. The DRAM fetch granularity: strided, 4 B, stride 32 = one isolated 4 B
#    load per 128 B line.  N is at least 1e8 so that one sweep of the wrapped
#    index (N/32 lines, >= 100 MB at 32 B per line) does not fit in L2 and
#    every L2 miss is a DRAM fetch of one granule.
NG=$(awk -v n="$NINT" 'BEGIN { printf "%.0f", (n < 1e8 ? 1e8 : n) }')
for lim in default 32 64 128; do
    profile "gran_$lim" "$NG" strided 32 "$([ $lim = default ] || echo $lim)"
done
GRAN=$WORK/l2_fetch.tsv
{
    echo "# ncu_profile.sh: DRAM fetch granularity, one isolated 4 B load per 128 B line"
    echo "# device	$GPU"
    echo "# date	$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# n	$NG"
    echo "# ncu	$NCU_VERSION"
    echo "# l2_fetch_limit_bytes 0 = the driver's default; granule_bytes = 32 * dram_sectors / l2_sectors, rounded"
    printf 'l2_fetch_limit_bytes\tn\tstride\tl2_sectors\tdram_sectors\tdram_per_l2\tgranule_bytes\n'
    for lim in default 32 64 128; do
        awk -F'\t' -v lim="$([ $lim = default ] && echo 0 || echo $lim)" -v n="$NG" '$1 == "strided" {
            r = ($6 > 0) ? $7 / $6 : 0
            g = 32; if (r > 1.5) g = 64; if (r > 3) g = 128
            printf "%s\t%s\t%s\t%s\t%s\t%.4f\t%d\n", lim, n, $3, $6, $7, r, g }' "$WORK/gran_$lim.rows"
    done
} >"$GRAN"
want=$([ -n "$L2F" ] && echo "$L2F" || echo 0)
GRANULE=$(awk -F'\t' -v w="$want" '!/^#/ && $1 == w { print $7 }' "$GRAN")
[ -n "$GRANULE" ] || GRANULE=64

# 2. The strided tables, both element sizes per run.
for s in 1 2 4 8 16 32 64 128; do
    profile "strided_$s" "$N" strided,strided_float4 "$s" "$L2F"
done
# 3. The coalesced kernels and the gathers.
profile other "$N" baseline,float4,nondiverging,random_access 1 "$L2F"

TSV=$WORK/sectors.tsv
{
    echo "# ncu_profile.sh: sectors measured by Nsight Compute (compare: bin/sector_compare FILE)"
    echo "# device	$GPU"
    echo "# date	$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# n	$NINT"
    echo "# wpb	$WPB"
    echo "# l2_fetch_limit_bytes	${L2F:-0}"
    echo "# dram_granularity_bytes	$GRANULE"
    echo "# ncu	$NCU_VERSION"
    echo "# metrics	$METRICS"
    printf 'pattern\telem_bytes\tstride\tl1_requests\tl1_sectors\tl2_sectors\tdram_sectors\ttime_ns\n'
    for f in "$WORK"/strided_{1,2,4,8,16,32,64,128}.rows; do awk -F'\t' '$1 == "strided"' "$f"; done
    for f in "$WORK"/strided_{1,2,4,8,16,32,64,128}.rows; do awk -F'\t' '$1 == "strided_float4"' "$f"; done
    cat "$WORK/other.rows"
} >"$TSV"

# Publish: every file through NAME.tmp and a rename, so a failed run leaves
# no partial table.
RAW=$OUTDIR/ncu_$SLUG
mkdir -p "$RAW" || die "cannot create $RAW"
for f in "$WORK"/keep_*.csv; do
    b=$(basename "$f"); b=${b#keep_}
    cp "$f" "$RAW/$b.tmp" && mv "$RAW/$b.tmp" "$RAW/$b" || die "cannot write $RAW/$b"
done
cp "$GRAN" "$OUTDIR/l2_fetch_$SLUG.tsv.tmp" && mv "$OUTDIR/l2_fetch_$SLUG.tsv.tmp" "$OUTDIR/l2_fetch_$SLUG.tsv" ||
    die "cannot write $OUTDIR/l2_fetch_$SLUG.tsv"
cp "$TSV" "$OUTDIR/sectors_$SLUG.tsv.tmp" && mv "$OUTDIR/sectors_$SLUG.tsv.tmp" "$OUTDIR/sectors_$SLUG.tsv" ||
    die "cannot write $OUTDIR/sectors_$SLUG.tsv"
echo "ncu_profile.sh: wrote $OUTDIR/sectors_$SLUG.tsv and $OUTDIR/l2_fetch_$SLUG.tsv (raw logs in $RAW/)" >&2
echo "ncu_profile.sh: next: bin/sector_compare $OUTDIR/sectors_$SLUG.tsv --markdown --chart $OUTDIR/sectors_$SLUG.svg" >&2
