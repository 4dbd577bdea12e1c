# tests/lib.sh - helpers for the shell tests (source it).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warplat-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
nfail=0

fail() { echo "FAIL: $*" >&2; nfail=$((nfail + 1)); }
skip() { echo "$*"; exit 77; }
done_testing() { [ "$nfail" -eq 0 ] || { echo "$nfail check(s) failed" >&2; exit 1; }; echo ok; exit 0; }

# expect_exit CODE CMD...: run CMD, check its exit status; stdout+stderr in $OUTTXT.
expect_exit() {
    local want=$1; shift
    OUTTXT=$("$@" 2>&1); local got=$?
    [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want; said: $OUTTXT"
}
# expect_says TEXT: the last expect_exit's output contains TEXT.
expect_says() { case "$OUTTXT" in *"$1"*) ;; *) fail "expected output to contain '$1'; got: $OUTTXT";; esac; }

# golden NAME CMD...: the stdout of CMD must equal the file $G/NAME (G: the
# test's golden folder); UPDATE_GOLDEN=1 rewrites the file instead.
golden() { # NAME CMD...: stdout of CMD must equal $G/NAME
    local name=$1; shift
    if ! "$@" >"$TMP/$name" 2>"$TMP/$name.err"; then
        fail "'$*' failed: $(cat "$TMP/$name.err")"; return
    fi
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then cp "$TMP/$name" "$G/$name"; return; fi
    [ -f "$G/$name" ] || { fail "missing golden file $G/$name"; return; }
    diff -u "$G/$name" "$TMP/$name" >"$TMP/$name.diff" ||
        fail "'$*' differs from $G/$name:
$(head -n 40 "$TMP/$name.diff")"
}

# have_gpu: true when a CUDA device is usable here.
have_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; }
require_gpu() { have_gpu || skip "no CUDA GPU on this machine"; }
require_bin() { for b in "$@"; do [ -x "$ROOT/$b" ] || skip "$b was not built (nvcc missing?)"; done; }
