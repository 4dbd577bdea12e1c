#!/usr/bin/env bash
# The size rules of src/, instrument/, include/ and scripts/: no function over
# 120 lines, no .c/.cu/.cuh/.h/.sh file over 800 (bin/srcsize measures; tests/style/size_allow.txt lists the known
# offenders, and an entry that no longer offends fails, so the list only
# shrinks).  Then srcsize itself on small files made here.
source "$(dirname "$0")/../lib.sh"
require_bin bin/srcsize
expect_exit 0 bin/srcsize --allow tests/style/size_allow.txt src instrument include scripts
[ "$nfail" -eq 0 ] || echo "$OUTTXT" | grep -v '^allowed: ' >&2

# a file of 5 lines with a function of 4: over --max-func 3 and --max-lines 4
printf 'int f(void)\n{\n    return 0;\n}\n/* end */\n' >"$TMP/a.c"
expect_exit 0 bin/srcsize "$TMP/a.c"
expect_exit 1 bin/srcsize --max-func 3 "$TMP/a.c"
expect_says "$TMP/a.c:f: 4 lines from line 1 (limit 3)"
expect_exit 1 bin/srcsize --max-lines 4 "$TMP/a.c"
expect_says "$TMP/a.c: 5 lines (limit 4)"
# allowed offenders pass; an allowed entry that no longer offends fails
printf '# known\n%s:f\n%s\n' "$TMP/a.c" "$TMP/a.c" >"$TMP/allow"
expect_exit 0 bin/srcsize --allow "$TMP/allow" --max-func 3 --max-lines 4 "$TMP/a.c"
expect_says "allowed: $TMP/a.c:f: 4 lines"
expect_exit 1 bin/srcsize --allow "$TMP/allow" --max-func 3 "$TMP/a.c"
expect_says "$TMP/a.c: no longer over the limit (or gone): remove it from $TMP/allow"
# folders are walked for .c/.cu/.cuh/.h/.sh only
mkdir "$TMP/d" && cp "$TMP/a.c" "$TMP/d/k.cu" && cp "$TMP/a.c" "$TMP/d/notes.txt"
expect_exit 1 bin/srcsize --max-func 3 "$TMP/d"
expect_says "$TMP/d/k.cu:f: 4 lines"
case "$OUTTXT" in *notes.txt*) fail "srcsize measured a .txt file: $OUTTXT";; esac
# usage and runtime failures
expect_exit 2 bin/srcsize
expect_exit 2 bin/srcsize --max-func 0 src
expect_exit 1 bin/srcsize "$TMP/missing.c"
expect_says "no file or folder $TMP/missing.c"
expect_exit 1 bin/srcsize --allow "$TMP/missing" src
expect_exit 0 bin/srcsize --help
expect_says "usage: srcsize"
done_testing
