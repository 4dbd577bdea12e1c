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
# Layout (docs/engine.md, "The map of folders"): instrument/*.c (the log
# library), src/lib/*.c (the generic helpers), src/report/*.c (the report)
# and src/sector/*.c (the sector model) form the toolkit's archive
# build/libwarplat.a (plain C11); every src/tools/NAME.c is a tool bin/NAME,
# and src/report/main.c is bin/report; every tests/unit/test_NAME.c is a unit
# test.  A kernel family is one folder, src/families/NAME/: its NAME.cu
# becomes two programs, ./NAME and ./NAME_profile (clean kernels only, for
# Nsight Compute), linked with the experiment engine (src/engine/); its host
# C files (the sector model, the report section and its arithmetic) go into
# the archive, with its words in the report (report.txt, made C by
# build/gen/famtext), and build/gen/families.c, written here from the
# folders, registers them (src/lib/family.h): adding a family is adding its
# folder, nothing here.  ./latency (the ladder) is src/ladder/: its host
# driver main.c and its kernels latency.cu, on the engine's command line and
# log code.  make install installs a lean libwarplat.a: the API, the log
# library and the helpers they call (API_LIB_OBJ).

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
FUZZ_CFLAGS  := -std=c11 -g -O1 -MMD -MP -Iinstrument -Isrc/lib -Isrc/report -Isrc/sector $(FUZZ_SAN) -fsanitize=fuzzer-no-link
BASIC_CFLAGS  := -std=c11 -Wall -Wextra -Wshadow -MMD -MP -Iinstrument -Isrc/lib -Isrc/report -Isrc/sector
ALL_CFLAGS     = $(BASIC_CFLAGS) $(CFLAGS) $(SAN_FLAGS)
ALL_LDFLAGS    = $(LDFLAGS) $(SAN_FLAGS)
BASIC_NVCCFLAGS := -arch=$(CUDA_ARCH) -std=c++17 -Iinclude -Iinstrument -Isrc/lib -Isrc/report -Isrc/sector -Isrc/engine -Isrc/cudahost -MMD -MP
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

# The families (src/families/NAME/NAME.cu), their host C files, and the
# registry that lists them (family.h): written only when its text changes.
FAMILIES  := $(foreach d,$(patsubst src/families/%/,%,$(sort $(dir $(wildcard src/families/*/*.cu)))),$(if $(wildcard src/families/$(d)/$(d).cu),$(d)))
FAM_MODELS  := $(patsubst src/families/%/model.c,%,$(wildcard src/families/*/model.c))
FAM_REPORTS := $(patsubst src/families/%/report.c,%,$(wildcard src/families/*/report.c))
FAM_TEXTS   := $(patsubst src/families/%/report.txt,%,$(wildcard src/families/*/report.txt))
GEN_FAM   := $(B)/gen/families.c
# a family's words (report.txt) become build/gen/famtext_NAME.c through the
# generator build/gen/famtext (src/report/famtext_main.c), built before the library
FAMTEXT   := $(B)/gen/famtext
GEN_TEXT  := $(FAM_TEXTS:%=$(B)/gen/famtext_%.c)
define nl


endef
define FAM_GEN_TEXT
/* Generated by make from the folders src/families/NAME/: do not edit. */
#include "family.h"
#include "report_family.h"
$(foreach f,$(FAM_MODELS),extern const struct fam_model fam_model_$(f);$(nl))$(foreach f,$(FAM_REPORTS),extern const struct fam_report fam_report_$(f);$(nl))$(foreach f,$(FAM_TEXTS),extern const struct fam_text fam_text_$(f);$(nl))
const fam_entry fam_registry[] = {
$(foreach f,$(FAMILIES),    {"$(f)", $(if $(filter $(f),$(FAM_MODELS)),&fam_model_$(f),0), $(if $(filter $(f),$(FAM_REPORTS)),&fam_report_$(f),0), $(if $(filter $(f),$(FAM_TEXTS)),&fam_text_$(f),0), $(if $(filter $(f),$(FAM_REPORTS)),&fam_report_$(f).runs,0)},$(nl))    {0, 0, 0, 0, 0}
};
endef
$(shell mkdir -p $(B)/gen)
ifneq ($(file <$(GEN_FAM)),$(FAM_GEN_TEXT))
$(file >$(GEN_FAM),$(FAM_GEN_TEXT))
endif

# a family's unit tests (src/families/NAME/test_*.c) are tests, not library code
FAM_TEST_SRC := $(wildcard src/families/*/test_*.c)
# the mains of src/report/: the report tool (bin/report) and the generator
# of the families' words (build/gen/famtext)
REPORT_MAINS := src/report/main.c src/report/famtext_main.c
LIB_SRC   := $(wildcard instrument/*.c) $(wildcard src/lib/*.c) \
             $(filter-out $(REPORT_MAINS),$(wildcard src/report/*.c)) $(wildcard src/sector/*.c) \
             $(filter-out $(FAM_TEST_SRC),$(wildcard src/families/*/*.c)) $(GEN_FAM) $(GEN_TEXT)
LIB_OBJ   := $(LIB_SRC:%.c=$(B)/%.o)
LIB       := $(B)/libwarplat.a

TOOL_SRC  := $(wildcard src/tools/*.c)
TOOLS     := $(TOOL_SRC:src/tools/%.c=bin/%) bin/report

TEST_SRC  := $(wildcard tests/unit/test_*.c)
TESTS     := $(TEST_SRC:tests/unit/%.c=$(B)/tests/%) $(foreach t,$(FAM_TEST_SRC),$(B)/tests/$(basename $(notdir $(t))))

# Kernel families: src/families/NAME/NAME.cu -> ./NAME and ./NAME_profile.
CUDA_CFLAGS := -I$(CUDA_HOME)/include -Iinclude -Isrc/cudahost -Isrc/engine -DWARPLAT_CUDA_ARCH=\"$(CUDA_ARCH)\"
ENGINE_C_OBJ := $(patsubst %.c,$(B)/%.o,$(filter-out src/engine/main.c,$(wildcard src/engine/*.c)) $(wildcard src/cudahost/*.c))
ENGINE_CU_OBJ := $(patsubst %.cu,$(B)/%.o,$(wildcard src/engine/*.cu))
ENGINE_OBJ := $(ENGINE_C_OBJ) $(ENGINE_CU_OBJ)

ifneq ($(NVCC),)
CUDA_BINS := $(FAMILIES) $(FAMILIES:%=%_profile) latency p2p
else
CUDA_BINS :=
endif

# nvcc's objects first, each family's main file (the longest, 2-5 s) before
# the rest: make -j starts jobs in this order, so the short C files fill the
# cores around them (16 cores: 9 s as the C files went first, issue 37)
CU_MAIN_O := $(foreach f,$(FAMILIES),$(B)/src/families/$(f)/$(f).o)
CU_ALL_O  := $(patsubst %.cu,$(B)/%.o,$(wildcard src/families/*/*.cu src/engine/*.cu src/ladder/*.cu src/p2p/*.cu))
CU_FIRST  := $(if $(NVCC),$(CU_MAIN_O) $(filter-out $(CU_MAIN_O),$(CU_ALL_O)))

.PHONY: all tools test test-gpu clean deps report fuzz fuzz-build bench-host
all: $(CU_FIRST) $(LIB) $(TOOLS) $(CUDA_BINS)
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

$(FAMTEXT): $(B)/src/report/famtext_main.o $(B)/src/report/famtext.o $(B)/instrument/outfile.o $(B)/instrument/err.o
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ -lpthread

# the installed pkg-config file's writer (src/api/pcfile_main.c), run by make install
PCFILE    := $(B)/gen/pcfile
$(PCFILE): $(B)/src/api/pcfile_main.o $(B)/src/lib/pcfile.o $(B)/instrument/outfile.o $(B)/instrument/err.o
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ -lpthread

$(B)/gen/famtext_%.c: src/families/%/report.txt $(FAMTEXT)
	@$(if $(Q),echo "  FAMTEXT $<")
	$(Q)$(FAMTEXT) $* $< $@

$(LIB): $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

# a tool: src/tools/NAME.c -> bin/NAME; the report tool's main is its
# folder's, src/report/main.c
define link_tool
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)
endef
bin/%: $(B)/src/tools/%.o $(LIB)
	$(link_tool)
bin/report: $(B)/src/report/main.o $(LIB)
	$(link_tool)

# a unit test: tests/unit/test_X.c, or a family's own src/families/NAME/test_X.c,
# -> build/tests/test_X (the same link as a tool's)
$(B)/tests/%: $(B)/tests/unit/%.o $(LIB)
	$(link_tool)
# the host benchmark (tests/bench/bench_NAME.c): make bench-host, run by hand
$(B)/tests/bench_%: $(B)/tests/bench/bench_%.o $(LIB)
	$(link_tool)
bench-host: $(B)/tests/bench_host

define family_test
$(B)/tests/$(basename $(notdir $(1))): $(B)/$(1:.c=.o) $(LIB)
	$$(link_tool)
endef
$(foreach t,$(FAM_TEST_SRC),$(eval $(call family_test,$(t))))

# ---- CUDA ------------------------------------------------------------------
# Host code (the engine, the device's facts, the ladder's driver, the probe
# API) is C compiled by gcc against the CUDA runtime API, one rule for all
# of it; kernels are compiled by nvcc.
CUDA_HOST_OBJ := $(patsubst %.c,$(B)/%.o,$(wildcard src/engine/*.c src/cudahost/*.c src/ladder/*.c src/api/*.c))
$(CUDA_HOST_OBJ): $(B)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (CUDA host)")
	$(Q)$(CC) $(ALL_CFLAGS) $(CUDA_CFLAGS) -c $< -o $@

$(B)/src/engine/main_profile.o: src/engine/main.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (profile)")
	$(Q)$(CC) $(ALL_CFLAGS) $(CUDA_CFLAGS) -DPROFILE_ONLY=1 -c $< -o $@

$(B)/%.o: %.cu $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NVCC    $<")
	$(Q)$(NVCC) $(ALL_NVCCFLAGS) -c $< -o $@

# a family's program links every .cu of its folder: NAME.cu, and kernels
# split into files of their own so that nvcc compiles them in parallel
# (the ceiling's five operations)
fam_cu_obj = $(patsubst %.cu,$(B)/%.o,$(wildcard src/families/$(1)/*.cu))
define family_link
$(1): $(B)/src/engine/main.o $(call fam_cu_obj,$(1)) $(ENGINE_OBJ) $(LIB)
	@$$(if $$(Q),echo "  NVLINK  $$@")
	$$(Q)$$(NVCC) -arch=$$(CUDA_ARCH) $$(NV_SAN_FLAGS) -o $$@ $$^ $$(LDLIBS)
$(1)_profile: $(B)/src/engine/main_profile.o $(call fam_cu_obj,$(1)) $(ENGINE_OBJ) $(LIB)
	@$$(if $$(Q),echo "  NVLINK  $$@")
	$$(Q)$$(NVCC) -arch=$$(CUDA_ARCH) $$(NV_SAN_FLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach f,$(FAMILIES),$(eval $(call family_link,$(f))))

latency: $(B)/src/ladder/main.o $(B)/src/ladder/latency.o $(ENGINE_OBJ) $(LIB)
	@$(if $(Q),echo "  NVLINK  $@")
	$(Q)$(NVCC) -arch=$(CUDA_ARCH) $(NV_SAN_FLAGS) -o $@ $^ $(LDLIBS)

# ./p2p: one GPU reading another's memory (src/p2p/: its driver main.c and
# kernels p2p.cu; the chase is the ladder's kernel)
$(B)/src/p2p/main.o: src/p2p/main.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (CUDA host)")
	$(Q)$(CC) $(ALL_CFLAGS) $(CUDA_CFLAGS) -Isrc -c $< -o $@

p2p: $(B)/src/p2p/main.o $(B)/src/p2p/p2p.o $(B)/src/ladder/latency.o $(ENGINE_OBJ) $(LIB)
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
	rm -rf $(B) $(FB) bin $(FAMILIES) $(FAMILIES:%=%_profile) latency p2p

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
#                               DIR/lib/libwarplat.a (the API, the log library
#                               and the helpers they need), DIR/lib/pkgconfig/warplat.pc,
#                               DIR/lib/cmake/warplat/warplatConfig.cmake, and the
#                               examples in DIR/share/warplat/examples
#   make uninstall PREFIX=DIR   removes exactly those files (and the folders
#                               they leave empty, PREFIX/lib and PREFIX/include
#                               included)
# DIR may hold blanks, quotes, '&', '|' or '\'; one with '$', '(', ')', ';' or a
# control character is refused before anything is installed (src/lib/pcfile.h).
# The host API (src/api/) is plain C against the CUDA runtime: gcc builds it,
# with the CUDA headers; it needs nvcc's CUDA_HOME but never nvcc itself.
PREFIX ?= /usr/local
API_LIB := $(B)/api/libwarplat.a
API_OBJ := $(B)/src/api/warplat.o $(B)/src/cudahost/devinfo.o
API_HEADERS := include/warplat/warplat.h include/warplat/warplat.cuh
EXAMPLES := $(wildcard examples/*.cu examples/*.h)
INSTALLED := include/warplat/warplat.h include/warplat/warplat.cuh lib/libwarplat.a \
             lib/pkgconfig/warplat.pc lib/cmake/warplat/warplatConfig.cmake \
             $(patsubst examples/%,share/warplat/examples/%,$(EXAMPLES))

.PHONY: install uninstall api api-cuda-check
api: $(API_LIB)

# one sentence rather than a compiler error when the CUDA headers are missing
api-cuda-check:
	@test -f "$(CUDA_HOME)/include/cuda_runtime_api.h" || { \
	    echo "make: the CUDA Toolkit's headers are not in $(CUDA_HOME)/include: the probe API needs them (set CUDA_HOME=... or NVCC=...)" >&2; exit 1; }

$(API_OBJ): | api-cuda-check

# the installed library: the API, the log library (instrument/) and the
# generic helpers of src/lib/ that they call; nothing of the report or the
# sector model (the tools link the whole toolkit's archive, $(LIB))
API_HELPERS := probeset stats inflight littles
API_LIB_OBJ := $(API_OBJ) $(patsubst %.c,$(B)/%.o,$(wildcard instrument/*.c)) $(API_HELPERS:%=$(B)/src/lib/%.o)
$(API_LIB): $(API_LIB_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

# PREFIX reaches the recipes through the environment and is only ever used
# as "$$PREFIX": a blank, a quote, '&', '|' or '\' in it is then just a byte.
# The pkg-config file is written (and PREFIX checked) before anything is
# installed.
install uninstall: export PREFIX := $(PREFIX)
install: $(API_LIB) $(PCFILE)
	$(Q)test -n "$$PREFIX" || { echo "make install: PREFIX is empty" >&2; exit 2; }
	$(Q)mkdir -p $(B)/api && sed 's|@CUDA_HOME@|$(abspath $(CUDA_HOME))|g' src/api/warplat.pc.in >$(B)/api/warplat.pc.in
	$(Q)$(PCFILE) "$$PREFIX" $(B)/api/warplat.pc.in $(B)/api/warplat.pc
	$(Q)mkdir -p -- "$$PREFIX/include/warplat" "$$PREFIX/lib/pkgconfig" "$$PREFIX/lib/cmake/warplat" \
	    "$$PREFIX/share/warplat/examples"
	$(Q)cp $(API_HEADERS) "$$PREFIX/include/warplat/"
	$(Q)cp $(API_LIB) "$$PREFIX/lib/libwarplat.a"
	$(Q)cp $(B)/api/warplat.pc "$$PREFIX/lib/pkgconfig/warplat.pc"
	$(Q)cp src/api/warplatConfig.cmake "$$PREFIX/lib/cmake/warplat/"
	$(Q)cp $(EXAMPLES) "$$PREFIX/share/warplat/examples/"
	@printf '%s\n' "installed warplat into $$PREFIX; build with: nvcc -arch=$(CUDA_ARCH) -o k k.cu \$$(pkg-config --cflags --libs warplat)"
	@printf '%s\n' "(a plain C host file: gcc -c host.c ... the same flags; the examples: $$PREFIX/share/warplat/examples)"
	@printf '%s\n' "(PKG_CONFIG_PATH=$$(sed -n 's/^prefix=//p' $(B)/api/warplat.pc)/lib/pkgconfig if $$PREFIX is not a system prefix)"

# the folders install made (mkdir -p) go when they are left empty, the
# deepest first, up to PREFIX/include and PREFIX/lib; PREFIX itself stays
uninstall:
	$(Q)test -n "$$PREFIX" || { echo "make uninstall: PREFIX is empty" >&2; exit 2; }
	$(Q)for f in $(INSTALLED); do rm -f -- "$$PREFIX/$$f"; done
	$(Q)for d in include/warplat include lib/pkgconfig lib/cmake/warplat lib/cmake lib \
	             share/warplat/examples share/warplat share; do \
	        rmdir -- "$$PREFIX/$$d" 2>/dev/null || true; done
