#!/usr/bin/env bash
# GPU test (make test-gpu; skipped without a GPU): the probe API under
# hostile use (tests/fixtures/api_hostile.cu: a launch larger than declared,
# region ids past nregions, a launcher that fails or launches nothing,
# warplat_close twice), built from outside the tree against the installed
# files, run under compute-sanitizer memcheck: every case ends in its
# WARPLAT_E* code, nothing is written outside the probe buffer (0 errors),
# no half-written log is left, and the one log written passes warplog check.
source "$(dirname "$0")/../lib.sh"
require_gpu
require_bin bin/warplog
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || skip "nvcc not found"
SAN=$(command -v compute-sanitizer || true)
for d in "${CUDA_HOME:-}" /usr/local/cuda; do
    [ -n "$SAN" ] || [ -z "$d" ] || [ ! -x "$d/bin/compute-sanitizer" ] || SAN=$d/bin/compute-sanitizer
done
[ -n "$SAN" ] || skip "compute-sanitizer not found"

P=$TMP/prefix
make -s install PREFIX="$P" >/dev/null || { fail "make install"; done_testing; }
export PKG_CONFIG_PATH=$P/lib/pkgconfig
# the installed flags (pkg-config where it is, else the same flags by hand)
flags=(-I"$P/include" -L"$P/lib" -lwarplat -lz -lm -lpthread)
command -v pkg-config >/dev/null 2>&1 && read -r -a flags < <(pkg-config --cflags --libs warplat)
mkdir -p "$TMP/user" "$TMP/logs"
cp tests/fixtures/api_hostile.cu "$TMP/user/"
(cd "$TMP/user" && "$NVCC" -arch="${CUDA_ARCH:-sm_90}" -O2 -o api_hostile api_hostile.cu "${flags[@]}") \
    >"$TMP/build" 2>&1 || { fail "build: $(tail -n 5 "$TMP/build")"; done_testing; }
"$SAN" --tool memcheck --error-exitcode 99 --report-api-errors no "$TMP/user/api_hostile" "$TMP/logs" >"$TMP/out" 2>&1
rc=$?
cat "$TMP/out"
[ $rc -eq 0 ] || fail "api_hostile exited $rc"
grep -q 'ERROR SUMMARY: 0 errors' "$TMP/out" || fail "memcheck: $(grep 'ERROR SUMMARY' "$TMP/out")"
grep -q 'api_hostile: all cases ok' "$TMP/out" || fail "a case failed"
ls "$TMP/logs" | grep -q tmp && fail "a temporary log was left: $(ls "$TMP/logs")"
out=$(bin/warplog check "$TMP/logs/bigger.bin" --quiet 2>&1) || fail "warplog check bigger.bin: $out"
# the larger launch recorded only the declared grid: 64 blocks x 4 warps x 2 regions
recs=$(bin/warplog info "$TMP/logs/bigger.bin" | awk -F'\t' '$1 == "record_count" { print $2 }')
[ "$recs" = 512 ] || fail "bigger.bin holds $recs records, expected 512 (64 blocks x 4 warps x 2 regions)"
done_testing
