# warplat - one non-recursive Makefile.
#
#   make               build everything this machine can build (C tools always;
#                      the CUDA experiments when nvcc is found)
#   make test          unit, golden and CLI tests; GPU tests report "skipped"
#                      when no GPU is present
#   make test-gpu      the GPU test set (needs a CUDA device)
#   make report        the whole study (with a GPU) or the bundled reference data
#   make fuzz          build the libFuzzer harnesses (tests/fuzz/, clang) and run
#                      each for FUZZ_SECONDS (default 60) from the committed seeds
#   make test SANITIZE=1
#                      everything built with -fsanitize=address,undefined (the
#                      flags stamp rebuilds all of it; a later plain make rebuilds
#                      without), then the tests; any sanitizer report fails
#   make deps          install what the report needs (gnuplot, zlib headers)
#   make clean
#
# Variables: CUDA_ARCH (default sm_90), NVCC, CC, CFLAGS, NVCCFLAGS (yours:
# the flags the build needs are kept apart, as git's ALL_CFLAGS), V=1 for full
# command lines.  A change of compiler, flags or CUDA_ARCH rebuilds everything
# (build/flags.stamp).
#
# Layout: instrument/*.c and src/lib/*.c form libwarplat.a (plain C11);
# every src/tools/NAME.c is a tool bin/NAME; every tests/unit/test_NAME.c is a
# unit test.  Every kernel family src/families/NAME.cu becomes two programs,
# ./NAME and ./NAME_profile (clean kernels only, for Nsight Compute), linked
# with the experiment engine (src/engine/): adding a family is adding its
# .cu, nothing here.  ./latency (the ladder) is src/latency.c with
# src/kernels/latency.cu, on the engine's command line and log code.

CC        ?= gcc
NVCC      ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
CUDA_ARCH ?= sm_90
CUDA_HOME ?= $(if $(NVCC),$(patsubst %/bin/nvcc,%,$(NVCC)),/usr/local/cuda)

CFLAGS    ?= -O2 -g
NVCCFLAGS ?= -O3 -lineinfo
ifeq ($(SANITIZE),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# nvcc links the CUDA programs: -Xcompiler splits its value at commas, so
# each sanitizer is passed on its own.
NV_SAN_FLAGS := -Xcompiler -fsanitize=address -Xcompiler -fsanitize=undefined
endif

# libFuzzer harnesses: clang only, their own build directory (other flags,
# other compiler), so a fuzz build never disturbs build/.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FB           := build-fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=c11 -g -O1 -MMD -MP -Iinstrument -Isrc/lib $(FUZZ_SAN) -fsanitize=fuzzer-no-link
BASIC_CFLAGS  := -std=c11 -Wall -Wextra -Wshadow -MMD -MP -Iinstrument -Isrc/lib
ALL_CFLAGS     = $(BASIC_CFLAGS) $(CFLAGS) $(SAN_FLAGS)
ALL_LDFLAGS    = $(LDFLAGS) $(SAN_FLAGS)
BASIC_NVCCFLAGS := -arch=$(CUDA_ARCH) -std=c++17 -Iinstrument -Isrc/lib -Isrc/engine -Isrc/cudahost -MMD -MP
ALL_NVCCFLAGS  = $(BASIC_NVCCFLAGS) $(NVCCFLAGS)
LDLIBS    += -lz -lm -lpthread

ifeq ($(V),1)
Q :=
else
Q := @
endif

B := build

# Rebuild everything when the compilers, the flags or the target change.
FLAGS_STAMP := $(B)/flags.stamp
FLAGS_NOW := $(CC) $(ALL_CFLAGS) | $(NVCC) $(ALL_NVCCFLAGS) | $(CUDA_ARCH) | $(ALL_LDFLAGS)
$(shell mkdir -p $(B) && { test -f $(FLAGS_STAMP) && [ "$$(cat $(FLAGS_STAMP))" = '$(FLAGS_NOW)' ] || echo '$(FLAGS_NOW)' > $(FLAGS_STAMP); })

LIB_SRC   := $(wildcard instrument/*.c) $(wildcard src/lib/*.c)
LIB_OBJ   := $(LIB_SRC:%.c=$(B)/%.o)
LIB       := $(B)/libwarplat.a

TOOL_SRC  := $(wildcard src/tools/*.c)
TOOLS     := $(TOOL_SRC:src/tools/%.c=bin/%)

TEST_SRC  := $(wildcard tests/unit/test_*.c)
TESTS     := $(TEST_SRC:tests/unit/%.c=$(B)/tests/%)

# Kernel families: src/families/NAME.cu -> ./NAME and ./NAME_profile.
FAMILIES  := $(patsubst src/families/%.cu,%,$(wildcard src/families/*.cu))
CUDA_CFLAGS := -I$(CUDA_HOME)/include -Isrc/cudahost -Isrc/engine -Isrc/kernels -DWARPLAT_CUDA_ARCH=\"$(CUDA_ARCH)\"
ENGINE_C_OBJ := $(patsubst %.c,$(B)/%.o,$(filter-out src/engine/main.c,$(wildcard src/engine/*.c)) $(wildcard src/cudahost/*.c))
ENGINE_CU_OBJ := $(patsubst %.cu,$(B)/%.o,$(wildcard src/engine/*.cu))
ENGINE_OBJ := $(ENGINE_C_OBJ) $(ENGINE_CU_OBJ)

ifneq ($(NVCC),)
CUDA_BINS := $(FAMILIES) $(FAMILIES:%=%_profile) latency
else
CUDA_BINS :=
endif

.PHONY: all tools test test-gpu clean deps report fuzz fuzz-build
all: $(LIB) $(TOOLS) $(CUDA_BINS)
ifeq ($(NVCC),)
	@echo "make: nvcc not found: skipped the CUDA experiments ($(FAMILIES) latency)." >&2
	@echo "      The C tools (bin/) are built and can analyse and chart existing logs." >&2
	@echo "      Install the CUDA Toolkit, or point NVCC=/path/to/nvcc, to build them." >&2
endif

tools: $(LIB) $(TOOLS)

$(B)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

bin/%: $(B)/src/tools/%.o $(LIB)
	@mkdir -p bin
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(B)/tests/%: $(B)/tests/unit/%.o $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# ---- CUDA ------------------------------------------------------------------
# Host code (engine, drivers) is C compiled by gcc against the CUDA runtime
# API; kernels are compiled by nvcc.
$(B)/src/engine/%.o: src/engine/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (CUDA host)")
	$(Q)$(CC) $(ALL_CFLAGS) $(CUDA_CFLAGS) -c $< -o $@

$(B)/src/engine/main_profile.o: src/engine/main.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (profile)")
	$(Q)$(CC) $(ALL_CFLAGS) $(CUDA_CFLAGS) -DPROFILE_ONLY=1 -c $< -o $@

$(B)/src/cudahost/%.o: src/cudahost/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (CUDA host)")
	$(Q)$(CC) $(ALL_CFLAGS) $(CUDA_CFLAGS) -c $< -o $@

$(B)/src/latency.o: src/latency.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (CUDA host)")
	$(Q)$(CC) $(ALL_CFLAGS) $(CUDA_CFLAGS) -c $< -o $@

$(B)/%.o: %.cu $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NVCC    $<")
	$(Q)$(NVCC) $(ALL_NVCCFLAGS) -c $< -o $@

define family_link
$(1): $(B)/src/engine/main.o $(B)/src/families/$(1).o $(ENGINE_OBJ) $(LIB)
	@$$(if $$(Q),echo "  NVLINK  $$@")
	$$(Q)$$(NVCC) -arch=$$(CUDA_ARCH) $$(NV_SAN_FLAGS) -o $$@ $$^ $$(LDLIBS)
$(1)_profile: $(B)/src/engine/main_profile.o $(B)/src/families/$(1).o $(ENGINE_OBJ) $(LIB)
	@$$(if $$(Q),echo "  NVLINK  $$@")
	$$(Q)$$(NVCC) -arch=$$(CUDA_ARCH) $$(NV_SAN_FLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach f,$(FAMILIES),$(eval $(call family_link,$(f))))

latency: $(B)/src/latency.o $(B)/src/kernels/latency.o $(ENGINE_OBJ) $(LIB)
	@$(if $(Q),echo "  NVLINK  $@")
	$(Q)$(NVCC) -arch=$(CUDA_ARCH) $(NV_SAN_FLAGS) -o $@ $^ $(LDLIBS)

# ---- tests, report ---------------------------------------------------------
# `make test`, `make report` and `make fuzz` first install what they need
# (scripts/ensure_deps.sh JOB: apt-get, where this user is root or has sudo
# without a password; one line says so) or say what is missing and how to
# get it.  A test whose tool is still missing then skips with its reason;
# the report stops before measuring (REPORT_ARGS=--no-charts goes on
# without charts).  WARPLAT_INSTALL=no installs nothing.
deps:
	$(Q)bash scripts/ensure_deps.sh report

# With SANITIZE=1 every report goes to build/sanitizer/ (a test that expects
# exit 1 would otherwise hide one) and any report there fails the run.
# Leaks are not reported unless SAN_LEAKS=1: the tools exit right after
# their work, and memory a process hands back at exit is no error.
# protect_shadow_gap=0: the CUDA driver maps memory where ASan would
# otherwise reserve its shadow gap (only matters with a GPU).
# The dependencies are installed before anything is built (zlib's headers
# are among them), so the build runs in a second make.
SAN_LOGS := $(B)/sanitizer
SAN_LEAKS ?= 0
# the build of `make test` on every core unless the caller gave -j
SUBMAKE_J = $(if $(filter -j% j%,$(MAKEFLAGS)),,-j$(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2))
test:
	$(Q)bash scripts/ensure_deps.sh test || true
	$(Q)$(MAKE) --no-print-directory $(SUBMAKE_J) all $(TESTS)
ifeq ($(SANITIZE),1)
	$(Q)rm -rf $(SAN_LOGS) && mkdir -p $(SAN_LOGS)
	$(Q)ASAN_OPTIONS=log_path=$(CURDIR)/$(SAN_LOGS)/asan:detect_leaks=$(SAN_LEAKS):exitcode=86:protect_shadow_gap=0 \
	    UBSAN_OPTIONS=log_path=$(CURDIR)/$(SAN_LOGS)/ubsan:print_stacktrace=1:halt_on_error=1:exitcode=87 \
	    bash tests/run.sh; rc=$$?; \
	    if [ -n "$$(ls -A $(SAN_LOGS))" ]; then \
	        echo "sanitizer reports (in $(SAN_LOGS)):"; head -n 40 $(SAN_LOGS)/*; exit 1; fi; \
	    echo "sanitizers: no report"; exit $$rc
else
	$(Q)bash tests/run.sh
endif

test-gpu:
	$(Q)bash scripts/ensure_deps.sh test || true
	$(Q)$(MAKE) --no-print-directory $(SUBMAKE_J) all $(TESTS)
	$(Q)WARPLAT_GPU_TESTS=only bash tests/run.sh

# scripts/report.sh builds what it needs (the C tools; everything with a
# GPU), and stops before measuring when it cannot draw the charts.
report:
	$(Q)bash scripts/ensure_deps.sh report || true
	$(Q)bash scripts/report.sh $(REPORT_ARGS)

clean:
	rm -rf $(B) $(FB) bin $(FAMILIES) $(FAMILIES:%=%_profile) latency

# ---- fuzzing ---------------------------------------------------------------
FUZZ_SRC     := $(wildcard tests/fuzz/fuzz_*.c)
FUZZERS      := $(FUZZ_SRC:tests/fuzz/%.c=$(FB)/%)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FB)/%.o)

$(FB)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FB)/fuzz_%: $(FB)/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ)
	@$(if $(Q),echo "  FUZZLD  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lz -lm -lpthread

fuzz-build: $(FUZZERS)

fuzz:
	$(Q)bash scripts/ensure_deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory fuzz-build
	$(Q)bash tests/fuzz/run.sh $(FUZZ_SECONDS)

# objects are kept (not deleted as intermediates), so a second make is a no-op
.SECONDARY:

-include $(shell find $(B) $(FB) -name '*.d' 2>/dev/null)

# ---- install: the probe API for your own kernel (docs/your-kernel.md) ------
#   make install PREFIX=DIR     DIR/include/warplat/warplat.{h,cuh},
#                               DIR/lib/libwarplat.a (the API, the log writer,
#                               the analysis library), DIR/lib/pkgconfig/warplat.pc,
#                               DIR/lib/cmake/warplat/warplatConfig.cmake
#   make uninstall PREFIX=DIR   removes exactly those files (and the folders
#                               they leave empty)
# The host API (src/api/) is plain C against the CUDA runtime: gcc builds it,
# with the CUDA headers; it needs nvcc's CUDA_HOME but never nvcc itself.
PREFIX ?= /usr/local
API_LIB := $(B)/api/libwarplat.a
API_OBJ := $(B)/src/api/warplat.o $(B)/src/cudahost/devinfo.o
API_HEADERS := include/warplat/warplat.h include/warplat/warplat.cuh
INSTALLED := include/warplat/warplat.h include/warplat/warplat.cuh lib/libwarplat.a \
             lib/pkgconfig/warplat.pc lib/cmake/warplat/warplatConfig.cmake

.PHONY: install uninstall api api-cuda-check
api: $(API_LIB)

# one sentence rather than a compiler error when the CUDA headers are missing
api-cuda-check:
	@test -f "$(CUDA_HOME)/include/cuda_runtime_api.h" || { \
	    echo "make: the CUDA Toolkit's headers are not in $(CUDA_HOME)/include: the probe API needs them (set CUDA_HOME=... or NVCC=...)" >&2; exit 1; }

$(API_OBJ): | api-cuda-check

$(B)/src/api/%.o: src/api/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (CUDA host)")
	$(Q)$(CC) $(ALL_CFLAGS) $(CUDA_CFLAGS) -Iinclude -c $< -o $@

$(API_LIB): $(API_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

install: $(API_LIB)
	$(Q)test -n "$(PREFIX)" || { echo "make install: PREFIX is empty" >&2; exit 2; }
	$(Q)mkdir -p "$(PREFIX)/include/warplat" "$(PREFIX)/lib/pkgconfig" "$(PREFIX)/lib/cmake/warplat"
	$(Q)cp $(API_HEADERS) "$(PREFIX)/include/warplat/"
	$(Q)cp $(API_LIB) "$(PREFIX)/lib/libwarplat.a"
	$(Q)sed -e 's|@PREFIX@|$(abspath $(PREFIX))|' \
	        -e 's|@VERSION@|'"$$(sed -n 's/^#define WARPLAT_VERSION_STRING "\(.*\)"/\1/p' include/warplat/warplat.h)"'|' \
	        src/api/warplat.pc.in > "$(PREFIX)/lib/pkgconfig/warplat.pc"
	$(Q)cp src/api/warplatConfig.cmake "$(PREFIX)/lib/cmake/warplat/"
	@echo "installed warplat into $(PREFIX); build with: nvcc ... \$$(pkg-config --cflags --libs warplat)"
	@echo "(PKG_CONFIG_PATH=$(abspath $(PREFIX))/lib/pkgconfig if $(PREFIX) is not a system prefix)"

uninstall:
	$(Q)test -n "$(PREFIX)" || { echo "make uninstall: PREFIX is empty" >&2; exit 2; }
	$(Q)for f in $(INSTALLED); do rm -f "$(PREFIX)/$$f"; done
	$(Q)for d in include/warplat lib/pkgconfig lib/cmake/warplat lib/cmake; do \
	        rmdir "$(PREFIX)/$$d" 2>/dev/null || true; done
