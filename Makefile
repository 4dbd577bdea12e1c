# warplat - one non-recursive Makefile.
#
#   make               build everything this machine can build (C tools always;
#                      the CUDA experiments when nvcc is found)
#   make test          unit, golden and CLI tests; GPU tests report "skipped"
#                      when no GPU is present
#   make test-gpu      the GPU test set (needs a CUDA device)
#   make compile       ./readonly           (instrumented experiment)
#   make compile-profile ./readonly_profile (uninstrumented twin, for ncu)
#   make clean
#
# Variables: CUDA_ARCH (default sm_90), NVCC, CC, V=1 for full command lines.
#
# Layout: instrument/*.c and src/lib/*.c form libwarplat.a (plain C11);
# every src/tools/NAME.c is a tool bin/NAME; every tests/unit/test_NAME.c is a
# unit test; every CUDA experiment NAME listed in CUDA_EXPERIMENTS is built
# from src/NAME.c (host driver, plain C against the CUDA runtime API) and
# src/kernels/NAME.cu (kernels and their launchers).

CC        ?= gcc
NVCC      ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
CUDA_ARCH ?= sm_90
CUDA_HOME ?= $(if $(NVCC),$(patsubst %/bin/nvcc,%,$(NVCC)),/usr/local/cuda)

CFLAGS    ?= -O2 -g
CFLAGS    += -std=c11 -Wall -Wextra -Wshadow -MMD -MP -Iinstrument -Isrc/lib
NVCCFLAGS ?= -O3 -lineinfo
NVCCFLAGS += -arch=$(CUDA_ARCH) -std=c++17 -Iinstrument -Isrc/lib -MMD -MP
LDLIBS    += -lz -lm -lpthread

ifeq ($(V),1)
Q :=
else
Q := @
endif

B := build

LIB_SRC   := $(wildcard instrument/*.c) $(wildcard src/lib/*.c)
LIB_OBJ   := $(LIB_SRC:%.c=$(B)/%.o)
LIB       := $(B)/libwarplat.a

TOOL_SRC  := $(wildcard src/tools/*.c)
TOOLS     := $(TOOL_SRC:src/tools/%.c=bin/%)

TEST_SRC  := $(wildcard tests/unit/test_*.c)
TESTS     := $(TEST_SRC:tests/unit/%.c=$(B)/tests/%)

# CUDA experiments: NAME -> ./NAME from src/NAME.c + src/kernels/NAME.cu.
CUDA_EXPERIMENTS := $(foreach e,readonly latency,$(if $(wildcard src/$(e).c),$(e)))
# Host code shared by the experiments that talks to the CUDA runtime.
CUDAHOST_SRC := $(wildcard src/cudahost/*.c)
CUDAHOST_OBJ := $(CUDAHOST_SRC:%.c=$(B)/%.o)
CUDA_CFLAGS  := -I$(CUDA_HOME)/include -Isrc/cudahost -Isrc/kernels -DWARPLAT_CUDA_ARCH=\"$(CUDA_ARCH)\"

ifneq ($(NVCC),)
CUDA_BINS := $(CUDA_EXPERIMENTS) readonly_profile
else
CUDA_BINS :=
endif

.PHONY: all compile compile-profile tools test test-gpu clean deps report
all: $(LIB) $(TOOLS) $(CUDA_BINS)
ifeq ($(NVCC),)
	@echo "make: nvcc not found: skipped the CUDA experiments ($(CUDA_EXPERIMENTS) readonly_profile)." >&2
	@echo "      The C tools (bin/) are built and can analyse and chart existing logs." >&2
	@echo "      Install the CUDA Toolkit, or point NVCC=/path/to/nvcc, to build them." >&2
endif

tools: $(LIB) $(TOOLS)

compile: readonly
compile-profile: readonly_profile

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

bin/%: $(B)/src/tools/%.o $(LIB)
	@mkdir -p bin
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(B)/tests/%: $(B)/tests/unit/%.o $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# ---- CUDA ------------------------------------------------------------------
# Host drivers are C compiled by gcc against the CUDA runtime API; kernels are
# compiled by nvcc twice: instrumented (WARP_INSTRUMENT=1) and, for the
# readonly family, as the uninstrumented twin (WARP_INSTRUMENT=0).
$(B)/cuda/%.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (CUDA host)")
	$(Q)$(CC) $(CFLAGS) $(CUDA_CFLAGS) -DWARP_INSTRUMENT=1 -c $< -o $@

$(B)/cuda/%_profile.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (CUDA host, profile)")
	$(Q)$(CC) $(CFLAGS) $(CUDA_CFLAGS) -DWARP_INSTRUMENT=0 -c $< -o $@

$(B)/src/cudahost/%.o: src/cudahost/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (CUDA host)")
	$(Q)$(CC) $(CFLAGS) $(CUDA_CFLAGS) -c $< -o $@

$(B)/kernels/%.o: src/kernels/%.cu
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVCCFLAGS) -DWARP_INSTRUMENT=1 -c $< -o $@

$(B)/kernels/%_profile.o: src/kernels/%.cu
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NVCC    $< (uninstrumented)")
	$(Q)$(NVCC) $(NVCCFLAGS) -DWARP_INSTRUMENT=0 -c $< -o $@

define cuda_link
$(1): $(B)/cuda/$(2).o $(B)/kernels/$(3).o $(CUDAHOST_OBJ) $(LIB)
	@$$(if $$(Q),echo "  NVLINK  $$@")
	$$(Q)$$(NVCC) -arch=$$(CUDA_ARCH) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach e,$(CUDA_EXPERIMENTS),$(eval $(call cuda_link,$(e),$(e),$(e))))
$(eval $(call cuda_link,readonly_profile,readonly_profile,readonly_profile))

# ---- tests -----------------------------------------------------------------
deps:
	$(Q)bash scripts/ensure_deps.sh

test: all $(TESTS) deps
	$(Q)bash tests/run.sh

test-gpu: all $(TESTS)
	$(Q)WARPLAT_GPU_TESTS=only bash tests/run.sh

report: all deps
	$(Q)bash scripts/report.sh $(REPORT_ARGS)

clean:
	rm -rf $(B) bin $(CUDA_EXPERIMENTS) readonly_profile

# objects are kept (not deleted as intermediates), so a second make is a no-op
.SECONDARY:

-include $(shell find $(B) -name '*.d' 2>/dev/null)
