#!/usr/bin/env bash
# tests/cli/docs_commands.sh - every command shown in a ```sh block of
# README.md and docs/*.md runs as written, in a copy of this checkout (its
# tracked and untracked files, with the build outputs, as a fresh clone
# after `make` has them), and exits 0.
#
# A line whose comment contains [gpu] needs a GPU (or Nsight Compute) and is
# not run here (tests/gpu and the device runs cover those); one whose comment
# contains "[not run: REASON]" is not run for that reason, and so is a
# command named before its block, out of the reader's sight, by an HTML
# comment `<!-- not run "COMMAND": REASON -->` (`make test` itself: the
# command as written, without its comment); a ./program of the CUDA build runs only where nvcc built it.  Blocks fenced ``` without "sh" are output and listings, not
# commands.  docs/report.md, "Docs that run", says the same to writers.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed: the documented charts need it"
command -v git >/dev/null 2>&1 && git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 || skip "not a git checkout"
require_bin bin/report bin/warplog

# the copy: the files git knows (tracked, or untracked and not ignored), then
# the build outputs (bin/, build/, the programs at the top)
T=$TMP/tree
mkdir -p "$T"
git -C "$ROOT" ls-files -z -co --exclude-standard | (cd "$ROOT" && tar --null -T - -cf -) | tar -C "$T" -xf - ||
    { fail "could not copy the checkout"; done_testing; }
cp -a "$ROOT/bin" "$ROOT/build" "$T/"
for f in "$ROOT"/*; do
    [ -f "$f" ] && [ -x "$f" ] && ! git -C "$ROOT" ls-files --error-unmatch "$(basename "$f")" >/dev/null 2>&1 && cp -a "$f" "$T/"
done

ran=0 gpu=0 notrun=0
run_cmd() {   # run_cmd FILE LINE COMMAND
    local out=$TMP/cmd.out rc t0=$SECONDS
    (cd "$T" && WARPLAT_INSTALL=no timeout 300 bash -c "$3" </dev/null >"$out" 2>&1)
    rc=$?
    ran=$((ran + 1))
    echo "$1:$2: $((SECONDS - t0)) s: $3"
    [ $rc -eq 0 ] || fail "$1:$2: '$3' exited $rc: $(tail -n 4 "$out")"
}
for doc in README.md docs/*.md; do
    n=0 fence="" cmd="" start=0 skips=() pending=()
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        case $line in
            '<!-- not run "'*'"'*)
                [ -z "$fence" ] && { w=${line#'<!-- not run "'}; pending+=("${w%%\"*}"); }
                continue ;;
            '```'*)
                if [ -z "$fence" ]; then fence=${line#\`\`\`}; fence=${fence%% *}; [ -n "$fence" ] || fence=text
                    skips=("${pending[@]}") pending=()
                else fence="" skips=(); fi
                continue ;;
        esac
        [ "$fence" = sh ] || continue
        # a line ending in \ continues on the next
        if [ -n "$cmd" ]; then cmd+=$'\n'$line; else cmd=$line start=$n; fi
        case $line in *\\) continue ;; esac
        c=$cmd
        cmd=""
        trimmed=${c#"${c%%[![:space:]]*}"}
        case $trimmed in ''|'#'*) continue ;; esac
        case $c in
            *'# [gpu]'*|*'#'*'[gpu]'*) gpu=$((gpu + 1)); continue ;;
            *'[not run: '*) notrun=$((notrun + 1)); continue ;;
        esac
        bare=${trimmed%%#*}
        bare=${bare%"${bare##*[![:space:]]}"}
        skip=0
        for w in "${skips[@]}"; do [ "$bare" = "$w" ] && skip=1; done
        [ $skip = 1 ] && { notrun=$((notrun + 1)); echo "not run (HTML comment): $bare"; continue; }
        # ./<program> of the CUDA build: only where nvcc built it
        first=${trimmed%% *}
        case $first in ./*) [ -x "$T/$first" ] || { notrun=$((notrun + 1)); echo "not built here: $first"; continue; } ;; esac
        run_cmd "$doc" "$start" "$c"
    done <"$doc"
    [ -z "$fence" ] || fail "$doc: a code block is not closed"
done
echo "ran $ran documented command(s); $gpu need a GPU, $notrun marked not run"
[ $ran -ge 15 ] || fail "only $ran documented commands ran: are the blocks fenced \`\`\`sh?"
# the report's commands in the docs are there: the docs show how to make one
[ -s "$T/report/index.html" ] || fail "no documented command wrote report/index.html (make report)"

done_testing
