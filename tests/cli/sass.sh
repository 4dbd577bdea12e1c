#!/usr/bin/env bash
# The timed regions, checked in the SASS: for every probe kernel of every
# family (found in the binaries, not listed here) and for the latency chase,
# the region between the clock reads holds the load(s), and the last load's
# value is read by an instruction before the closing clock read (a load does
# not block: only a use of its value does).  The binaries built here are
# disassembled when cuobjdump exists (the CUDA Toolkit's, or the one .ci/run
# installs); otherwise the committed H100 listings are checked.
source "$(dirname "$0")/../lib.sh"
require_bin bin/sass_check
listing() { # NAME: the SASS of ./NAME, built here or committed
    if command -v cuobjdump >/dev/null 2>&1 && [ -x "./$1" ]; then
        cuobjdump -sass "./$1" >"$TMP/$1.sass" 2>/dev/null && { echo "$TMP/$1.sass"; return; }
    fi
    [ -f "data/reference/h100/sass_$1.txt" ] && echo "data/reference/h100/sass_$1.txt"
}
n=0
for fam in $(bin/names families); do
    s=$(listing "$fam") || true
    [ -n "$s" ] || { echo "no SASS of $fam (no cuobjdump, none committed)"; continue; }
    probes=$(bin/sass_check functions "$s" | grep '_probe$') || true
    # a family that says it has no instrumented variants (the ceiling) must
    # have no probe kernels; every other one must have them
    [ -x "./$fam" ] || { echo "$fam was not built: its probes not checked"; continue; }
    probed=$("./$fam" --list-probed) || fail "$fam --list-probed failed"
    if [ -z "$probed" ]; then
        [ -z "$probes" ] || fail "$fam: --list-probed lists none, yet $s has $(echo $probes)"
        continue
    fi
    [ -n "$probes" ] || fail "$fam: no probe kernel in $s (--list-probed: $(echo $probed))"
    for fn in $probes; do
        out=$(bin/sass_check region "$s" "$fn" 2>&1) || fail "$out"
        n=$((n + 1))
    done
done
# the chase: clk_begin (1), then per repetition t0 (2) and t1 (3)
s=$(listing latency) || true
if [ -n "$s" ]; then
    for fn in chase_ca chase_cg; do
        out=$(bin/sass_check region "$s" "$fn" --open 2 --close 3 2>&1) || fail "$out"
        n=$((n + 1))
    done
fi
[ $n -gt 0 ] || skip "cuobjdump not found and no committed SASS listing"
echo "$n timed regions checked"
done_testing
