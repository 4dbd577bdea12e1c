#!/usr/bin/env bash
# scripts/ensure_deps.sh - make sure the run-time dependencies are here:
# gnuplot (charts) and zlib's headers (the C tools).  Installs them from
# Debian's packages when missing and allowed (root, apt-get); otherwise says
# exactly what is missing and how to get it.  Exit 0 when all are present.
set -u
need=()
command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox)
echo '#include <zlib.h>' | ${CC:-gcc} -E -x c - >/dev/null 2>&1 || need+=(zlib1g-dev)
[ ${#need[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "ensure_deps: installing ${need[*]} from Debian's packages" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null && exit 0
    echo "ensure_deps: apt-get could not install ${need[*]}" >&2
    exit 1
fi
echo "ensure_deps: missing ${need[*]}. Install with: sudo apt-get install ${need[*]}" >&2
echo "             (gnuplot draws the charts; zlib1g-dev is needed to build the C tools)" >&2
exit 1
