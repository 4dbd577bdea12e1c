#!/usr/bin/env bash
# ./readonly moved onto the engine with its columns and log header fields
# kept: every column of the summary as it was before (tests/golden/engine/
# readonly_columns_v1.txt) is still there, by name, in a summary the engine
# wrote on the H100 (tests/fixtures/engine/) and in the bundled reference
# summaries; every header field of a version-1 log (less profile_kernel_ms,
# which was never written and is gone) is still printed for a version-2 log.
# New columns and fields may be added, never taken away.
source "$(dirname "$0")/../lib.sh"
require_bin bin/tsv bin/warplog bin/mklog
has_all() { # WANT_FILE HAVE_TEXT WHAT
    local k
    while read -r k; do
        grep -qx -- "$k" <<<"$2" || fail "$3 lacks '$k'"
    done <"$1"
}
cols=$(bin/tsv columns tests/fixtures/engine/readonly_1e8_wpb4.tsv)
has_all tests/golden/engine/readonly_columns_v1.txt "$cols" "the engine's readonly summary"
for f in data/reference/*/readonly_1e8_wpb4.tsv; do
    [ -f "$f" ] || continue
    has_all tests/golden/engine/readonly_columns_v1.txt "$(bin/tsv columns "$f")" "$f"
done
# a version-2 log written through the library, and every bundled log
printf '100\t800\t1000\t0\t0\t3\n' | bin/mklog "$TMP/v2.bin" >/dev/null 2>&1 ||
    fail "mklog could not write a log"
keys=$(bin/warplog info "$TMP/v2.bin" | cut -f1)
has_all tests/golden/engine/log_header_keys_v1.txt "$keys" "a version-2 log's header"
for k in sample_blocks sample_offset sampled_blocks clean_kernel_ms overhead_pct record_covers; do
    grep -qx "$k" <<<"$keys" || fail "a version-2 log's header lacks the new field '$k'"
done
for f in data/reference/*/logs_1e6/*.bin; do
    [ -f "$f" ] || continue
    has_all tests/golden/engine/log_header_keys_v1.txt "$(bin/warplog info "$f" | cut -f1)" "$f"
done
done_testing
