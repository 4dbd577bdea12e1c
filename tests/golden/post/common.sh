# tests/golden/post/common.sh - helpers for the post-processor golden tests
# (source it after tests/lib.sh).
#
# golden NAME FILE: FILE must equal tests/golden/post/NAME.  With
# UPDATE_GOLDEN=1 in the environment, FILE is copied there instead: review
# the diff (git diff tests/golden/post) by eye before committing it.
GOLDEN_DIR=$ROOT/tests/golden/post
FIX=$ROOT/tests/fixtures/post

golden() {
    local name=$1 file=$2
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
        cp "$file" "$GOLDEN_DIR/$name" && echo "updated $GOLDEN_DIR/$name"
    elif [ ! -f "$GOLDEN_DIR/$name" ]; then
        fail "no golden file $GOLDEN_DIR/$name (make it with UPDATE_GOLDEN=1)"
    elif ! diff -u "$GOLDEN_DIR/$name" "$file" >&2; then
        fail "$file differs from golden $name (if intended: UPDATE_GOLDEN=1 bash $0)"
    fi
}

# no_files_like DIR PATTERN...: nothing matching is left in DIR.
no_files_like() {
    local dir=$1; shift
    local p left
    for p in "$@"; do
        left=$(cd "$dir" && ls -d $p 2>/dev/null)
        [ -z "$left" ] || fail "left behind in $dir: $left"
    done
}

# The post-processing tools are plain C: build them if needed.
need_tools() {
    local t
    for t in mklog latency_stats plot_latency plot_warps plot_throughput; do
        [ -x "$ROOT/bin/$t" ] || make -s -C "$ROOT" tools >/dev/null || skip "make tools failed"
    done
}

# mklog_fixture NAME OUT [options]: a log from tests/fixtures/post/NAME.tsv.
mklog_fixture() {
    local name=$1 out=$2; shift 2
    "$ROOT/bin/mklog" "$out" "$@" <"$FIX/$name.tsv" || fail "mklog $name failed"
}
