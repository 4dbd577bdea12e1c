#!/usr/bin/env bash
# tests/cli/famtext.sh - build/gen/famtext, the build's generator of a
# family's words (src/report/famtext.h): make runs it on every report.txt, so
# here only what make never shows: --help, the usage error, a refused file
# named with its line and no output left behind, and an output written whole
# where a file stood.  The format's rules are tests/unit/test_famtext.c's.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
gen=build/gen/famtext
[ -x "$gen" ] || skip "$gen was not built (make builds it)"
expect_exit 0 "$gen" --help;       expect_says "usage: famtext NAME IN OUT"
expect_exit 2 "$gen";              expect_says "usage: famtext NAME IN OUT"
expect_exit 2 "$gen" a b;          expect_says "usage: famtext NAME IN OUT"
expect_exit 1 "$gen" x "$TMP/none.txt" "$TMP/out.c"; expect_says "famtext: $TMP/none.txt: cannot open it"
printf '[about]\nfirst\n\nsecond\n' >"$TMP/two.txt"
expect_exit 1 "$gen" x "$TMP/two.txt" "$TMP/out.c"; expect_says "famtext: $TMP/two.txt:4: a second paragraph in [about]"
[ ! -e "$TMP/out.c" ] || fail "a refused file left $TMP/out.c"
printf '[title]\nT "1"\n[intro]\nline one\n  line two\n' >"$TMP/ok.txt"
echo "old" >"$TMP/out.c"
expect_exit 1 "$gen" "x-y" "$TMP/ok.txt" "$TMP/out.c"; expect_says "'x-y' is not a family name"
[ "$(cat "$TMP/out.c")" = old ] || fail "a refused name changed $TMP/out.c"
expect_exit 0 "$gen" demo "$TMP/ok.txt" "$TMP/out.c"
grep -qxF '    .title = "T \"1\"",' "$TMP/out.c" || fail "title not written: $(cat "$TMP/out.c")"
grep -qxF '    .intro = "line one line two",' "$TMP/out.c" || fail "intro not joined: $(cat "$TMP/out.c")"
grep -qxF '    .about = 0,' "$TMP/out.c" || fail "a missing field is not 0: $(cat "$TMP/out.c")"
ls "$TMP"/out.c.*.tmp >/dev/null 2>&1 && fail "a temporary file was left"
# what it writes compiles against family.h, as make compiles it
if command -v "${CC:-gcc}" >/dev/null 2>&1; then
    "${CC:-gcc}" -std=c11 -Wall -Werror -Isrc/lib -c "$TMP/out.c" -o "$TMP/out.o" 2>"$TMP/cc.err" ||
        fail "the generated C does not compile: $(cat "$TMP/cc.err")"
fi
done_testing
