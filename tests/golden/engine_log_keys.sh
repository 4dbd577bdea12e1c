#!/usr/bin/env bash
# Every header field of a version-1 log (tests/golden/engine/log_header_keys_v1.txt;
# less profile_kernel_ms, which was never written and is gone) is still
# printed for a version-2 log written through the library and for every
# bundled log, beside the fields version 2 added.  New fields may be added,
# never taken away.  (The summary's columns: engine_columns.sh.)
source "$(dirname "$0")/../lib.sh"
require_bin bin/warplog bin/mklog
has_all() { # WANT_FILE HAVE_TEXT WHAT
    local k
    while read -r k; do
        grep -qx -- "$k" <<<"$2" || fail "$3 lacks '$k'"
    done <"$1"
}
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
