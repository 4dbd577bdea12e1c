#!/usr/bin/env bash
# scripts/report.sh --out refuses, before any work, a folder it could not
# swap: the current folder ('.', its absolute name, 'sub/..'), a folder above
# the current one ('..'), '/', and the checkout scripts/report.sh runs in.
# One sentence, exit 2, nothing created or built.  (Issue 35: '--out .'
# built the whole report, then failed at the final swap.)
source "$(dirname "$0")/../lib.sh"
R=$ROOT/scripts/report.sh
mkdir -p "$TMP/here/sub" "$TMP/old" "$TMP/empty"
printf 'warplat report folder: scripts/report.sh builds it whole and replaces it whole\n' >"$TMP/old/.warplat-report"
# refused WHERE OUT: run from WHERE with --out OUT
refused() {
    local where=$1 out=$2 before
    before=$(cd "$TMP" && find . | sort)
    # bounded: a refusal is immediate (the old code built a whole report first)
    OUTTXT=$(cd "$where" && timeout 60 bash "$R" --no-gpu --no-charts --out "$out" 2>&1)
    local rc=$?
    [ $rc = 2 ] || fail "--out '$out' from $where exited $rc, expected 2: $OUTTXT"
    case $OUTTXT in *"cannot be swapped"*) ;; *) fail "--out '$out' from $where: no reason given: $OUTTXT" ;; esac
    [ "$(printf '%s\n' "$OUTTXT" | grep -c .)" = 1 ] || fail "--out '$out': more than one line: $OUTTXT"
    case $OUTTXT in *"[1/5]"*) fail "--out '$out': work started before the refusal: $OUTTXT" ;; esac
    [ "$(cd "$TMP" && find . | sort)" = "$before" ] || fail "--out '$out' from $where created files: $(cd "$TMP" && find . | sort)"
}
refused "$TMP/empty" .
refused "$TMP/here" .
refused "$TMP/here" "$TMP/here"
refused "$TMP/here" sub/..
refused "$TMP/here/sub" ..
refused "$TMP/here/sub" ../..
refused "$TMP/old" .            # a report folder, but the one we stand in
refused "$TMP/here" /
refused "$TMP/here" "$ROOT"     # the checkout the script runs in
refused "$TMP/here" "$ROOT/scripts/.."
# a link to the current folder is the current folder
ln -s "$TMP/here" "$TMP/link"
refused "$TMP/here/sub" "$TMP/link"
rm "$TMP/link"
# not refused: a folder whose name only begins like the current one's, and
# one below it (a gnuplot that cannot start stops the run just after)
mkdir -p "$TMP/nogp"
printf '#!/bin/sh\necho "gnuplot: cannot start" >&2\nexit 1\n' >"$TMP/nogp/gnuplot"
chmod +x "$TMP/nogp/gnuplot"
for out in "$TMP/here2" sub/new; do
    OUTTXT=$(cd "$TMP/here" && PATH=$TMP/nogp:$PATH bash "$R" --no-gpu --out "$out" 2>&1)
    case $OUTTXT in *"gnuplot is installed but cannot run"*) ;; *) fail "--out $out was not taken: $OUTTXT" ;; esac
done
done_testing
