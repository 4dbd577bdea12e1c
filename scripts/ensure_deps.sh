#!/usr/bin/env bash
# scripts/ensure_deps.sh - install what a job needs, or say exactly what is
# missing and how to get it.
#
#   scripts/ensure_deps.sh JOB [--check]
#
#   JOB        report  gnuplot-nox (the charts), zlib1g-dev (the C tools)
#              test    the same, and chromium (the browser view of the
#                      report), slurm-wlm and munge (the fleet through
#                      Slurm); and NVIDIA's cuobjdump from PyPI where the
#                      CUDA Toolkit here lacks it (the SASS tests), best effort
#              fuzz    clang with its libFuzzer runtime (libclang-rt-dev)
#   --check    only say what is missing; install nothing
#
# `make report` and `make test` run it first, `make fuzz` too.  Where this
# user is root, or has sudo without a password, and apt-get is here, what is
# missing is installed from Debian's packages, after one line saying so.
# WARPLAT_INSTALL=no turns the installing off.  Where it cannot install,
# it names each missing package and the command that installs it.
# Exit status: 0 everything is here (or was installed), 1 something is
# still missing, 2 usage error.
set -u
cd "$(dirname "$0")/.."
JOB="" CHECK=0
for a in "$@"; do
    case $a in
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; exit 0 ;;
        --check) CHECK=1 ;;
        report|test|fuzz) [ -z "$JOB" ] || { echo "ensure_deps.sh: one JOB only" >&2; exit 2; }; JOB=$a ;;
        *) echo "ensure_deps.sh: unknown argument '$a' (JOB is report, test or fuzz; see --help)" >&2; exit 2 ;;
    esac
done
[ -n "$JOB" ] || { echo "ensure_deps.sh: JOB is missing (report, test or fuzz; see --help)" >&2; exit 2; }

# ---------------------------------------------------------------- checks
# A program that is on PATH but cannot start (a missing shared library)
# counts as missing: `gnuplot -e` must really run.
gnuplot_ok() { command -v gnuplot >/dev/null 2>&1 && gnuplot -d -e 'exit' >/dev/null 2>&1; }
zlib_ok() { echo '#include <zlib.h>' | ${CC:-gcc} -E -x c - >/dev/null 2>&1; }
chromium_ok() { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; }
slurm_ok() { for p in slurmctld slurmd sbatch; do command -v $p >/dev/null 2>&1 || return 1; done; }
munge_ok() { command -v munged >/dev/null 2>&1 || [ -x /usr/sbin/munged ]; }
fuzzer_ok() {
    command -v clang >/dev/null 2>&1 || return 1
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' |
        clang -fsanitize=fuzzer,address,undefined -x c - -o "${TMPDIR:-/tmp}/warplat-fuzz-probe.$$" >/dev/null 2>&1
    local rc=$?
    rm -f "${TMPDIR:-/tmp}/warplat-fuzz-probe.$$"
    return $rc
}

need=() why=()
want() { # PACKAGE CHECK WHY
    "$2" || { need+=("$1"); why+=("$1 ($3)"); }
}
case $JOB in
    report)
        want gnuplot-nox gnuplot_ok "draws the charts"
        want zlib1g-dev zlib_ok "builds the C tools" ;;
    test)
        want gnuplot-nox gnuplot_ok "the chart tests"
        want zlib1g-dev zlib_ok "builds the C tools"
        want chromium chromium_ok "the browser view test"
        want slurm-wlm slurm_ok "the Slurm fleet test"
        want munge munge_ok "the Slurm fleet test" ;;
    fuzz)
        want clang fuzzer_ok "builds the fuzz harnesses"
        fuzzer_ok || { command -v clang >/dev/null 2>&1 && need=(libclang-rt-dev) why=("libclang-rt-dev (libFuzzer for clang)"); } ;;
esac

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
can_install() {
    [ "$CHECK" = 0 ] && [ "${WARPLAT_INSTALL:-}" != no ] && command -v apt-get >/dev/null 2>&1 || return 1
    [ -z "$SUDO" ] || sudo -n true 2>/dev/null
}

rc=0
if [ ${#need[@]} -gt 0 ]; then
    cmd="${SUDO:+sudo }apt-get install ${need[*]}"
    if can_install; then
        echo "make $JOB: installing ${need[*]} from Debian's packages (apt-get) first" >&2
        export DEBIAN_FRONTEND=noninteractive
        if ! { $SUDO apt-get update -qq >/dev/null 2>&1 &&
               $SUDO apt-get install -y -qq "${need[@]}" >/dev/null 2>&1; }; then
            # some packages (libclang-rt-dev) have other names in older releases:
            # install what can be installed, one by one
            for p in "${need[@]}"; do
                $SUDO apt-get install -y -qq "$p" >/dev/null 2>&1 ||
                    echo "ensure_deps: apt-get could not install $p" >&2
            done
        fi
    fi
    # what is still missing after that, and how to get it
    still=()
    for w in "${why[@]}"; do
        p=${w%% *}
        case $p in
            gnuplot-nox) gnuplot_ok || still+=("$w") ;;
            zlib1g-dev) zlib_ok || still+=("$w") ;;
            chromium) chromium_ok || still+=("$w") ;;
            slurm-wlm) slurm_ok || still+=("$w") ;;
            munge) munge_ok || still+=("$w") ;;
            clang|libclang-rt-dev) fuzzer_ok || still+=("$w") ;;
        esac
    done
    if [ ${#still[@]} -gt 0 ]; then
        pk=()
        for w in "${still[@]}"; do pk+=("${w%% *}"); done
        echo "ensure_deps: missing: ${still[*]}; to install: ${SUDO:+sudo }apt-get install ${pk[*]}" >&2
        rc=1
    fi
fi

# NVIDIA's cuobjdump and nvdisasm, where the CUDA Toolkit here lacks them:
# NVIDIA ships them on PyPI too.  With them the SASS tests disassemble what
# this build made (without, they check the committed H100 listings).
if [ "$JOB" = test ] && [ "$CHECK" = 0 ] && [ "${WARPLAT_INSTALL:-}" != no ] &&
   ! command -v cuobjdump >/dev/null 2>&1 && ! [ -x /usr/local/cuda/bin/cuobjdump ] &&
   ! ls build/cuobj/x/*/*/bin/cuobjdump >/dev/null 2>&1 && ! ls build/cuobj/x/*/*/*/bin/cuobjdump >/dev/null 2>&1 &&
   command -v python3 >/dev/null 2>&1; then
    echo "make test: fetching NVIDIA's cuobjdump from PyPI into build/cuobj (the SASS tests)" >&2
    if python3 -m pip download -q --no-deps --only-binary=:all: -d build/cuobj \
           nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm >/dev/null 2>&1; then
        for w in build/cuobj/*.whl; do python3 -m zipfile -e "$w" build/cuobj/x; done
        find build/cuobj/x -path '*/bin/*' -type f -exec chmod +x {} +
    else
        echo "ensure_deps: could not fetch cuobjdump (pip); the SASS tests check the committed listings" >&2
    fi
fi
exit $rc
