#!/usr/bin/env bash
# The four examples of your own kernel (examples/, docs/your-kernel.md) on the
# GPU: installed into a temporary PREFIX, built from outside the tree with
# nvcc + pkg-config, run; each validates its result against the CPU (exit 0),
# and each log passes warplog check, is read by latency_stats (a row per
# region) and gets a verdict per region, with the measured overhead at the
# default sampling at most 2 % (read from the log header by bin/verdict).
# Each log also gets the report of its kernel (scripts/report.sh --log), with a
# verdict in numbers per region.
# WARPLAT_EXAMPLES_KEEP=DIR keeps each log's verdict, statistics, header and report.
source "$(dirname "$0")/../lib.sh"
require_gpu
require_bin bin/warplog bin/latency_stats bin/verdict
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || skip "nvcc not found: the examples cannot be built"
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config not installed"
ARCH=${CUDA_ARCH:-sm_90}

P=$TMP/prefix
make -s install PREFIX="$P" >/dev/null || { fail "make install"; done_testing; }
export PKG_CONFIG_PATH=$P/lib/pkgconfig
E=$TMP/user
mkdir -p "$E" && cp examples/*.cu examples/*.h "$E/"
for ex in spmv histogram transpose reduce; do
    (cd "$E" && "$NVCC" -arch="$ARCH" -O3 -o "$ex" "$ex.cu" $(pkg-config --cflags --libs warplat)) \
        >"$TMP/$ex.build" 2>&1 || { fail "building $ex: $(tail -n 5 "$TMP/$ex.build")"; continue; }
    (cd "$E" && "./$ex") >"$TMP/$ex.out" 2>&1 || { fail "$ex: $(tail -n 5 "$TMP/$ex.out")"; continue; }
    cat "$TMP/$ex.out"
done

nlogs=0
for log in "$E"/spmv.bin "$E"/histogram.bin "$E"/transpose_naive.bin "$E"/transpose_tiled.bin \
           "$E"/reduce.bin; do
    [ -f "$log" ] || { fail "no log $log"; continue; }
    nlogs=$((nlogs + 1))
    out=$(bin/warplog check "$log" --quiet 2>&1) || fail "warplog check $log: $out"
    bin/latency_stats "$log" >"$TMP/ls.tsv" 2>"$TMP/ls.err" || fail "latency_stats $log: $(cat "$TMP/ls.err")"
    out=$(cat "$TMP/ls.tsv")
    # one row per region beside the row of all records (read by column name;
    # a note on stderr, such as "no measured SM clock", is not a row)
    nreg=$(bin/warplog info "$log" | awk -F'\t' '$1 == "region_count" { print $2 }')
    rows=$(bin/tsv get "$TMP/ls.tsv" region | grep -vcx all)
    [ "$rows" = "$nreg" ] || fail "latency_stats $log: $rows region rows for $nreg regions"
    bin/verdict "$log" --ref data/reference/h100 --max-overhead 2 >"$TMP/v.tsv" 2>"$TMP/v.err" ||
        fail "verdict $log: $(cat "$TMP/v.err")"
    cat "$TMP/v.tsv"
    # the report of the kernel (make report REPORT_ARGS="--log LOG"), charts where gnuplot is
    b=$(basename "$log" .bin)
    nochart=()
    command -v gnuplot >/dev/null 2>&1 || nochart=(--no-charts)
    bash scripts/report.sh --log "$log" --ref data/reference/h100 --out "$TMP/report_$b" "${nochart[@]}" \
        >"$TMP/report_$b.log" 2>&1 || fail "report --log $log: $(tail -n 3 "$TMP/report_$b.log")"
    grep -q 'failed parts: none' "$TMP/report_$b.log" || fail "report --log $log has failed parts"
    for r in $(bin/verdict "$log" --list-regions); do
        grep -q "^> region $r: p50 [0-9]* cycles" "$TMP/report_$b/index.md" ||
            fail "report --log $log: no verdict in numbers for region $r"
    done
    if [ -n "${WARPLAT_EXAMPLES_KEEP:-}" ]; then   # the reference set's examples/ summaries
        mkdir -p "$WARPLAT_EXAMPLES_KEEP"
        cp "$TMP/report_$b/index.md" "$WARPLAT_EXAMPLES_KEEP/${b}_report.md"
        cp "$TMP/v.tsv" "$WARPLAT_EXAMPLES_KEEP/${b}_verdict.tsv"
        printf '%s\n' "$out" >"$WARPLAT_EXAMPLES_KEEP/${b}_latency_stats.tsv"
        bin/warplog info "$log" >"$WARPLAT_EXAMPLES_KEEP/${b}_info.tsv"
    fi
done
[ $nlogs -eq 5 ] || fail "expected 5 logs, found $nlogs"
done_testing
