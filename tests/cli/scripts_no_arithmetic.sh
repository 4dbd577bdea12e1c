#!/usr/bin/env bash
# tests/cli/scripts_no_arithmetic.sh - scripts/ only sequence steps: no awk
# and no bc (numbers are computed by the C tools, tables read by column name
# with bin/tsv); bash's own $(( )) is allowed for elapsed times and exit codes
# only, so it must not take a value read from a table.  A script that needs a
# number computed says so by calling a tool.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# scripts/ncu_profile.sh belongs to the sector model's work (issue 10), which
# rewrites it; it is checked as soon as it has no awk.  Every other script is.
allow=(scripts/ncu_profile.sh)
n=0
for s in scripts/*.sh; do
    case " ${allow[*]} " in *" $s "*) continue ;; esac
    n=$((n + 1))
    # code only: comments are not commands
    code=$(grep -v '^[[:space:]]*#' "$s")
    grep -nE '(^|[^[:alnum:]_-])(g?awk|mawk|bc)([[:space:]]|$)' <<<"$code" >"$TMP/hits" &&
        fail "$s calls awk or bc: $(head -n 3 "$TMP/hits")"
    grep -nE "sed .*(\\$\\(\\(|[0-9]+ *[-+*/] *[0-9]+)" <<<"$code" >"$TMP/hits" &&
        fail "$s does arithmetic with sed: $(head -n 3 "$TMP/hits")"
done
[ $n -ge 5 ] || fail "only $n scripts checked"
# the check can fail
printf '#!/usr/bin/env bash\nx=$(awk "BEGIN { print 1 + 2 }")\n' >"$TMP/bad.sh"
grep -qE '(^|[^[:alnum:]_-])(g?awk|mawk|bc)([[:space:]]|$)' "$TMP/bad.sh" || fail "the pattern misses an awk call"
done_testing
