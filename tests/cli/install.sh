#!/usr/bin/env bash
# make install / make uninstall of the probe API, and the four examples built
# from OUTSIDE the tree from the installed files alone, with nvcc and
# pkg-config; a plain C host file with gcc and pkg-config; a CMake project
# (the CMakeLists.txt of docs/your-kernel.md) (no GPU needed).  Where cuobjdump exists, the SASS of every probed
# kernel of the examples is checked as the families' is: the clock reads
# bracket the global load and the first use of its value.
source "$(dirname "$0")/../lib.sh"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || skip "nvcc not found: the examples cannot be built"
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config not installed"
# Under make test SANITIZE=1 the library is built with ASan and UBSan, and a
# user's plain nvcc link of it cannot resolve their runtime: the plain
# make test runs this one (nothing here reads input that a sanitizer watches)
grep -q -- '-fsanitize' build/flags.stamp 2>/dev/null &&
    skip "the library is built with sanitizers (SANITIZE=1): a user's build is tested by the plain make test"

P=$TMP/prefix
expect_exit 0 make -s install PREFIX="$P"
for f in include/warplat/warplat.h include/warplat/warplat.cuh lib/libwarplat.a \
         lib/pkgconfig/warplat.pc lib/cmake/warplat/warplatConfig.cmake \
         share/warplat/examples/example.h share/warplat/examples/spmv.cu; do
    [ -s "$P/$f" ] || fail "make install did not install $f"
done
# the archive holds the API and the log writer
nm "$P/lib/libwarplat.a" 2>/dev/null | grep -q ' T warplat_open$' || fail "libwarplat.a lacks warplat_open"
nm "$P/lib/libwarplat.a" 2>/dev/null | grep -q ' T warplog_writer_open$' || fail "libwarplat.a lacks the log writer"
# ... and nothing of the toolkit's report or sector model (the tools link those)
lean=$(nm "$P/lib/libwarplat.a" 2>/dev/null | grep -E ' (report_|sector_|sf_|rc_|rd_|fam_)' | head -n 3)
[ -z "$lean" ] || fail "libwarplat.a holds the report or the sector model: $lean"
export PKG_CONFIG_PATH=$P/lib/pkgconfig
flags=$(pkg-config --cflags --libs warplat) || fail "pkg-config does not know warplat"
case $flags in *"-I$P/include"*"-lwarplat"*) ;; *) fail "pkg-config flags: $flags" ;; esac

# outside the tree: the installed examples and nothing else of the checkout
E=$TMP/user
mkdir -p "$E" && cp "$P"/share/warplat/examples/* "$E/"
for ex in spmv histogram transpose reduce; do
    [ "$(wc -l <"examples/$ex.cu")" -lt 100 ] || fail "examples/$ex.cu has 100 lines or more"
    (cd "$E" && "$NVCC" -arch=sm_90 -O3 -o "$ex" "$ex.cu" $(pkg-config --cflags --libs warplat)) \
        >"$TMP/$ex.log" 2>&1 || fail "building $ex outside the tree: $(tail -n 5 "$TMP/$ex.log")"
    [ -x "$E/$ex" ] || fail "no $ex binary"
done

# the host API's argument checks, no GPU needed (a C program, linked by nvcc)
cp tests/fixtures/api_errors.c "$E/"
(cd "$E" && "$NVCC" -o api_errors api_errors.c $(pkg-config --cflags --libs warplat)) >"$TMP/api.log" 2>&1 ||
    fail "building api_errors.c: $(tail -n 5 "$TMP/api.log")"
[ -x "$E/api_errors" ] && { "$E/api_errors" >"$TMP/api.out" 2>&1 || fail "api_errors: $(cat "$TMP/api.out")"; }

# a plain C host file, compiled and linked by gcc with pkg-config's flags alone
# (the CUDA runtime comes with them)
(cd "$E" && ${CC:-gcc} -o api_errors_gcc api_errors.c $(pkg-config --cflags --libs warplat)) >"$TMP/gcc.log" 2>&1 ||
    fail "gcc host.c \$(pkg-config --cflags --libs warplat): $(tail -n 5 "$TMP/gcc.log")"
[ -x "$E/api_errors_gcc" ] && { "$E/api_errors_gcc" >"$TMP/gcc.out" 2>&1 || fail "api_errors (gcc): $(cat "$TMP/gcc.out")"; }

# CMake users: find_package(warplat) and the imported target warplat::warplat,
# with the CMakeLists.txt docs/your-kernel.md shows (a kernel and a C host file)
grep -qF "$(sed -n '/^cmake_minimum_required/,$p' tests/fixtures/cmake_user/CMakeLists.txt)" docs/your-kernel.md ||
    fail "docs/your-kernel.md does not show tests/fixtures/cmake_user/CMakeLists.txt"
if command -v cmake >/dev/null 2>&1; then
    C=$TMP/cmake_user
    mkdir -p "$C" && cp tests/fixtures/cmake_user/CMakeLists.txt tests/fixtures/api_errors.c \
        "$P"/share/warplat/examples/reduce.cu "$P"/share/warplat/examples/example.h "$C/"
    (cd "$C" && cmake -S . -B build -DCMAKE_PREFIX_PATH="$P" -DCMAKE_CUDA_COMPILER="$NVCC" \
        -DCUDAToolkit_ROOT="$(dirname "$(dirname "$NVCC")")" && cmake --build build) >"$TMP/cmake.log" 2>&1 ||
        fail "a CMake project with find_package(warplat): $(tail -n 8 "$TMP/cmake.log")"
    [ -x "$C/build/api_errors" ] && { "$C/build/api_errors" >/dev/null 2>&1 || fail "api_errors built by CMake failed"; }
    [ -x "$C/build/reduce" ] || fail "CMake built no reduce"
else
    echo "cmake not found: find_package(warplat) not checked"
fi

CUOBJDUMP=$(command -v cuobjdump || find build/cuobj -name cuobjdump -type f 2>/dev/null | head -n 1)
if [ -n "$CUOBJDUMP" ] && [ -x bin/sass_check ]; then
    n=0
    for ex in spmv histogram transpose reduce; do
        [ -x "$E/$ex" ] || continue
        "$CUOBJDUMP" -sass "$E/$ex" >"$TMP/$ex.sass" || { fail "cuobjdump -sass $ex"; continue; }
        for fn in $(bin/sass_check functions "$TMP/$ex.sass" | grep 'I11warplat_dev'); do
            n=$((n + 1))
            bin/sass_check region "$TMP/$ex.sass" "$fn" >/dev/null ||
                fail "$ex: $fn: the first region's clocks do not bracket a load and its use"
        done
        # the clean kernels have no probe at all
        for fn in $(bin/sass_check functions "$TMP/$ex.sass" | grep 'I13warplat_off_t'); do
            awk -v f="$fn" '/Function : /{on = ($3 == f)} on' "$TMP/$ex.sass" |
                grep -q 'SR_CLOCKLO' && fail "$ex: clean kernel $fn reads the clock"
        done
    done
    [ $n -eq 5 ] || fail "expected 5 probed kernels in the examples, found $n"
else
    echo "cuobjdump not found: SASS of the examples not checked"
fi

expect_exit 0 make -s uninstall PREFIX="$P"
left=$(cd "$P" && find . -mindepth 1 | sort)
[ -z "$left" ] || fail "make uninstall left: $left"
[ -d "$P" ] || fail "make uninstall removed PREFIX itself"

# ---- prefixes with a blank, '&', '\', '|' or a quote: the pkg-config file
# gives the same path back (pkg-config prints it shell-quoted: eval reads
# it), and uninstall leaves PREFIX empty.  '$', '(', ')', ';' and a newline
# cannot be carried: refused with a sentence before anything is installed.
for name in 'with space' 'amp&ersand' 'back\slash' 'pi|pe' "quo'te"; do
    Q="$TMP/odd/$name"
    expect_exit 0 make -s install PREFIX="$Q"
    [ -s "$Q/lib/libwarplat.a" ] && [ -s "$Q/include/warplat/warplat.h" ] || fail "PREFIX '$name': not installed"
    cf=$(PKG_CONFIG_PATH="$Q/lib/pkgconfig" pkg-config --cflags warplat) || fail "PREFIX '$name': pkg-config failed"
    eval "set -- $cf"
    [ "$1" = "-I$Q/include" ] || fail "PREFIX '$name': pkg-config gives '$1', expected '-I$Q/include'"
    expect_exit 0 make -s uninstall PREFIX="$Q"
    [ -d "$Q" ] && [ -z "$(ls -A "$Q")" ] || fail "PREFIX '$name': uninstall left $(cd "$Q" && find . -mindepth 1)"
done
# '..' resolved, as make's abspath did
expect_exit 0 make -s install PREFIX="$TMP/odd/../rel"
grep -qxF "prefix=$TMP/rel" "$TMP/rel/lib/pkgconfig/warplat.pc" ||
    fail "a PREFIX with '..': $(grep ^prefix= "$TMP/rel/lib/pkgconfig/warplat.pc")"
expect_exit 0 make -s uninstall PREFIX="$TMP/rel"
for bad in 'dol$$lar' 'par(en' 'semi;colon' "new
line"; do
    Q="$TMP/bad/$bad"
    expect_exit 2 make -s install PREFIX="$Q"
    expect_says "make install: PREFIX"
    expect_says "cannot be installed"
    [ ! -e "$TMP/bad" ] || fail "a refused PREFIX '$bad' installed: $(find "$TMP/bad")"
done
expect_exit 2 make -s install PREFIX=
expect_says "make install: PREFIX is empty"
done_testing
