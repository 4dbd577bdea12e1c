#!/usr/bin/env bash
# GPU test (make test-gpu; skipped without a GPU): every kernel family
# (src/families/NAME/NAME.cu -> ./NAME) runs once on a small N under
# compute-sanitizer, with memcheck (out-of-bounds and misaligned accesses,
# bad frees, CUDA API errors) and racecheck (shared-memory hazards; a family
# that uses no shared memory passes it trivially, so it runs for all).
# Clean means the tool's summary line with no finding (memcheck: "ERROR
# SUMMARY: 0 errors"; racecheck: "RACECHECK SUMMARY: 0 hazards displayed (0
# errors, 0 warnings)") and exit status 0: a program that crashed can still
# print a clean summary.
source "$(dirname "$0")/../lib.sh"
require_gpu

SAN=$(command -v compute-sanitizer || true)
for d in "${CUDA_HOME:-}" /usr/local/cuda; do
    [ -n "$SAN" ] || [ -z "$d" ] || [ ! -x "$d/bin/compute-sanitizer" ] || SAN=$d/bin/compute-sanitizer
done
[ -n "$SAN" ] || skip "compute-sanitizer not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin)"

mapfile -t families < <("$ROOT"/bin/names families)
[ ${#families[@]} -gt 0 ] || fail "no kernel family in src/families/"
for f in "${families[@]}"; do require_bin "$f"; done

for f in "${families[@]}"; do
    # a small size for whatever the family's positionals are; the first two
    # configurations of each variant, every block recorded (one probe launch)
    args=()
    for p in $("$ROOT/$f" --list-positional); do
        case $p in N) args+=(--n 100003) ;; N0) args+=(96) ;; N1) args+=(37) ;; DSIZE) args+=(128) ;; esac
    done
    # every block recorded, where the family has probes (the ceiling has none,
    # and refuses --sample)
    [ -n "$("$ROOT/$f" --list-probed)" ] && args+=(--sample 1)
    for tool in memcheck racecheck; do
        out=$TMP/$f.$tool
        mkdir -p "$TMP/x.$f.$tool"
        # --error-exitcode: a finding fails the run even if the program exits 0
        "$SAN" --tool "$tool" --error-exitcode 99 \
            "$ROOT/$f" "${args[@]}" --reps 1 --warmup 0 --configs-max 2 \
            --out "$TMP/x.$f.$tool" --table "$TMP/x.$f.$tool.tsv" -q >"$out" 2>&1
        rc=$?
        if [ $tool = racecheck ]; then key="RACECHECK SUMMARY:"; clean="RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
        else key="ERROR SUMMARY:"; clean="ERROR SUMMARY: 0 errors"; fi
        summary=$(grep -a "$key" "$out" | tail -n 1)
        case "$summary" in
        *"$clean"*)
            [ $rc -eq 0 ] || fail "$f under $tool: a clean summary but exit status $rc: $(tail -n 5 "$out")" ;;
        "")
            fail "$f under $tool: no '$key' line (exit status $rc): $(tail -n 5 "$out")" ;;
        *)
            fail "$f under $tool: $summary"
            grep -a -m 20 "=========" "$out" >&2 ;;
        esac
        echo "$f $tool: ${summary#*========= }"
        # the run was a real one: every row that recorded (sample not '-') wrote
        # its log, and none is half-written
        probed=$("$ROOT/bin/tsv" get "$TMP/x.$f.$tool.tsv" sample | grep -cv '^-$')
        nlogs=$(ls "$TMP/x.$f.$tool"/*.bin 2>/dev/null | wc -l)
        [ "$probed" -gt 0 ] && [ "$nlogs" -lt "$probed" ] && fail "$f under $tool: $probed probed rows but $nlogs logs"
        [ -s "$TMP/x.$f.$tool.tsv" ] || fail "$f under $tool wrote no table"
        ls "$TMP/x.$f.$tool"/*.tmp >/dev/null 2>&1 && fail "$f under $tool left a .tmp log"
    done
done
done_testing
