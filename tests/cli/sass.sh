#!/usr/bin/env bash
# The timed regions, checked in the SASS (needs cuobjdump: the CUDA Toolkit's,
# as on the GPU machines; skipped where it is missing, as in CI).
# For every timed kernel, between the clock read that opens the region and the
# one that closes it there must be the load(s), and the last load's destination
# register must be read by an instruction before the closing clock read: a load
# does not block, only a use of its value does.
source "$(dirname "$0")/../lib.sh"
command -v cuobjdump >/dev/null 2>&1 || skip "cuobjdump not found (it comes with the CUDA Toolkit)"
require_bin readonly latency

# check_region BINARY FUNCTION OPEN CLOSE: OPEN/CLOSE are the ordinal numbers
# of the SR_CLOCKLO reads that bound the region inside FUNCTION.
check_region() {
    local bin=$1 fn=$2 open=$3 close=$4 out
    out=$(cuobjdump -sass -fun "$fn" "$bin" 2>/dev/null | awk -v o_n="$open" -v c_n="$close" '
        /^[ \t]+\/\*[0-9a-f]+\*\// {
            line = $0; sub(/^[ \t]+\/\*[0-9a-f]+\*\/[ \t]+/, "", line); sub(/ ;.*/, "", line)
            if (line ~ /SR_CLOCKLO/) { n++; if (n == c_n) { done = 1 } ; next }
            if (n >= o_n && !done) region[++m] = line
        }
        END {
            if (!done) { print "region not found (" n " clock reads)"; exit 1 }
            last = 0
            for (i = 1; i <= m; i++) if (region[i] ~ /^(@!?P[0-9] )?LDG/) last = i
            if (!last) { print "no LDG between the clock reads"; exit 1 }
            split(region[last], f, /[ ,]+/)
            dst = f[2]; if (dst ~ /^P/) dst = f[3]
            r = substr(dst, 2) + 0; w = 1
            if (region[last] ~ /\.64/) w = 2
            if (region[last] ~ /\.128/) w = 4
            for (i = last + 1; i <= m; i++) {
                ops = region[i]; sub(/^[^ ]+ [^ ,]+,?/, "", ops)   # drop opcode and destination
                if (region[i] ~ /^ST/) ops = region[i]             # stores: every operand is a source
                for (k = 0; k < w; k++) if (ops ~ ("(^|[^0-9A-Z])R" (r + k) "([^0-9]|$)")) { print "ok: " region[last] " used by " region[i]; exit 0 }
            }
            print "the value of \"" region[last] "\" is not used before the closing clock read"; exit 1
        }')
    local rc=$?
    echo "$fn: $out"
    [ $rc -eq 0 ] || fail "$bin $fn: $out"
}

for k in baseline float4 nondiverging random_access strided strided_float4; do
    check_region ./readonly "readonly_${k}_probe" 1 2
done
# the chase: clk_begin (1), then per repetition t0 (2) and t1 (3)
for fn in $(cuobjdump -sass ./latency | awk '/Function :/ && /chase_c[ag]/ {print $3}'); do
    check_region ./latency "$fn" 2 3
done
done_testing
