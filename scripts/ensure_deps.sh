#!/usr/bin/env bash
# scripts/ensure_deps.sh - are the run-time dependencies here?  gnuplot (the
# charts) and zlib's headers (the C tools).
#
#   scripts/ensure_deps.sh            say what is missing and how to get it
#   scripts/ensure_deps.sh --offer    the same, then offer to install it with
#                                     apt-get: asks on a terminal; installs
#                                     without asking when WARPLAT_INSTALL=yes;
#                                     otherwise only says the command
#
# `make report` runs it with --offer (a report without gnuplot has no
# charts); `make test` never runs it, so no test installs anything.
# Exit status: 0 when everything is here (or was installed), 1 when
# something is still missing, 2 usage error.
set -u
offer=0
case ${1:-} in
    "") ;;
    --offer) offer=1 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "ensure_deps.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac
need=()
command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox)
echo '#include <zlib.h>' | ${CC:-gcc} -E -x c - >/dev/null 2>&1 || need+=(zlib1g-dev)
[ ${#need[@]} -eq 0 ] && exit 0

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
cmd="$SUDO${SUDO:+ }apt-get install ${need[*]}"
echo "ensure_deps: missing ${need[*]} (gnuplot draws the charts; zlib1g-dev is needed to build the C tools)" >&2
if [ $offer = 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_deps: install with: $cmd" >&2
    exit 1
fi
answer=${WARPLAT_INSTALL:-}
if [ -z "$answer" ] && [ -t 0 ]; then
    printf 'ensure_deps: install them now with "%s"? [y/N] ' "$cmd" >&2
    read -r answer || answer=
fi
case $answer in
    y|Y|yes)
        export DEBIAN_FRONTEND=noninteractive
        $SUDO apt-get update -qq >/dev/null && $SUDO apt-get install -y -qq "${need[@]}" >/dev/null && exit 0
        echo "ensure_deps: apt-get could not install ${need[*]}" >&2
        exit 1 ;;
    *)
        echo "ensure_deps: not installed; to install: $cmd" >&2
        exit 1 ;;
esac
