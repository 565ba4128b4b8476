# skyisles build.
#
#   make            native build into build/
#   make run        install missing deps, build, start the sim
#   make test       install missing deps (native + aarch64), run every test natively,
#                   under sanitizers and under qemu-aarch64; ends with "N passed, N failed"
#   make cross      aarch64 build into build-aarch64/ (CROSS_COMPILE=aarch64-linux-gnu-, SYSROOT=...)
#   make bench      build build/bench (run: build/bench jobs|noise|chunk|stream|island|boot ...)
#   make deps       apt-get only what is missing
#   make fuzz       fuzz every target with libFuzzer (clang, installed on demand) for FUZZ_SECONDS
#                   each (default 60); make test replays the committed corpora (mk/fuzz.mk)
#   make install / install-service / dist / dist-aarch64 / portmaster / boot-test: mk/delivery.mk
#   make clean
#
# Variants: SANITIZE=address,undefined (into build-asan/), SANITIZE=thread (build-tsan/).

.DEFAULT_GOAL := all
SHELL := /bin/bash

CROSS_COMPILE ?=
SYSROOT ?=
SANITIZE ?=
CC := $(CROSS_COMPILE)gcc
AR := $(CROSS_COMPILE)ar

ifeq ($(CROSS_COMPILE),)
  ifeq ($(SANITIZE),)
    BUILD ?= build
  else ifeq ($(SANITIZE),thread)
    BUILD ?= build-tsan
  else
    BUILD ?= build-asan
  endif
  PKG_CONFIG := pkg-config
  TARGET_ARCH_NAME := $(shell uname -m)
else
  BUILD ?= build-aarch64
  TARGET_TRIPLE := $(patsubst %-,%,$(CROSS_COMPILE))
  TARGET_ARCH_NAME := $(firstword $(subst -, ,$(TARGET_TRIPLE)))
  ifeq ($(SYSROOT),)
    PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(TARGET_TRIPLE)/pkgconfig:/usr/share/pkgconfig pkg-config
  else
    PKG_CONFIG := PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(TARGET_TRIPLE)/pkgconfig:$(SYSROOT)/usr/lib/pkgconfig:$(SYSROOT)/usr/share/pkgconfig pkg-config
  endif
endif

# V=1 prints full command lines.
V ?= 0
ifeq ($(V),1)
  Q :=
  say = @true
else
  Q := @
  say = @printf '  %-6s %s\n'
endif

OPT ?= -O2
CPPFLAGS_BASE := -Isrc -Iplatform -Itests -Itools -D_DEFAULT_SOURCE -DSKYISLES_ARCH=\"$(TARGET_ARCH_NAME)\"
CFLAGS_BASE := -std=c11 $(OPT) -g -Wall -Wextra -Werror -ffp-contract=off -pthread -fno-strict-aliasing
LDFLAGS_BASE := -pthread
ifneq ($(SYSROOT),)
  CFLAGS_BASE += --sysroot=$(SYSROOT)
  LDFLAGS_BASE += --sysroot=$(SYSROOT)
endif
ifneq ($(SANITIZE),)
  CFLAGS_BASE += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
  LDFLAGS_BASE += -fsanitize=$(SANITIZE)
endif

SDL_CFLAGS = $(shell $(PKG_CONFIG) --cflags sdl2 2>/dev/null)
SDL_LIBS = $(shell $(PKG_CONFIG) --libs sdl2 2>/dev/null)
GLES_LIBS = $(shell $(PKG_CONFIG) --libs glesv2 2>/dev/null || echo -lGLESv2)
YAML_LIBS = $(shell $(PKG_CONFIG) --libs yaml-0.1 2>/dev/null || echo -lyaml)
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
CGLM_CFLAGS = $(shell $(PKG_CONFIG) --cflags cglm 2>/dev/null)

CPPFLAGS := $(CPPFLAGS_BASE) $(EXTRA_CPPFLAGS)
CFLAGS := $(CFLAGS_BASE) $(EXTRA_CFLAGS)
LDFLAGS := $(LDFLAGS_BASE) $(EXTRA_LDFLAGS)
LIBM := -lm

# ---------------------------------------------------------------------------
# Pure modules: one static library each, linked in dependency order
# (a module may only use the ones after it). Nothing here touches SDL or GL.
PURE_MODULES := audio course sim world island noise core
DEPS_core :=
DEPS_audio := core
DEPS_noise := core
DEPS_world := noise core
DEPS_island := noise core
DEPS_sim := world noise core
DEPS_course := sim world island noise core

define module_rules
SRCS_$(1) := $$(sort $$(wildcard src/$(1)/*.c))
OBJS_$(1) := $$(or $$(patsubst %.c,$(BUILD)/obj/%.o,$$(SRCS_$(1))),$(BUILD)/obj/empty.o)
$(BUILD)/lib/libsk_$(1).a: $$(OBJS_$(1)) | $(BUILD)/lib
	@rm -f $$@
	$$(Q)$$(AR) rcs $$@ $$^
LIBCHAIN_$(1) := $(BUILD)/lib/libsk_$(1).a $$(foreach d,$$(DEPS_$(1)),$(BUILD)/lib/libsk_$$(d).a)
endef
$(foreach m,$(PURE_MODULES),$(eval $(call module_rules,$(m))))

PURE_LIBS := $(foreach m,$(PURE_MODULES),$(BUILD)/lib/libsk_$(m).a)

# Files named *_avx2.c hold optional AVX2 paths picked at run time on x86_64.
ifeq ($(TARGET_ARCH_NAME),x86_64)
  AVX2_FLAGS := -mavx2
endif

$(BUILD)/obj/%_avx2.o: %_avx2.c | $(BUILD)/obj
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(CGLM_CFLAGS) $(CFLAGS) $(AVX2_FLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/%.o: %.c | $(BUILD)/obj
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(CGLM_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# GL side: renderer and platform layer (SDL2 + GLES2).
GL_SRCS := $(sort $(wildcard src/render/*.c) $(wildcard platform/*.c))
GL_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(GL_SRCS))
$(GL_OBJS): CFLAGS += $(SDL_CFLAGS)
$(BUILD)/lib/libsk_gl.a: $(or $(GL_OBJS),$(BUILD)/obj/empty.o) | $(BUILD)/lib
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

# The game: everything but main.c in libsk_game.a, so tests can drive the game's parts.
GAME_SRCS := $(sort $(wildcard src/game/*.c))
GAME_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(GAME_SRCS))
GAME_MAIN_OBJ := $(BUILD)/obj/src/game/main.o
GAME_LIB := $(BUILD)/lib/libsk_game.a
$(GAME_OBJS): CFLAGS += $(SDL_CFLAGS)
$(GAME_LIB): $(filter-out $(GAME_MAIN_OBJ),$(GAME_OBJS)) | $(BUILD)/lib
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

# The codex YAML front end (tools/codex): the only libyaml user of the build side, linked by the
# tools and the island tests; the game and the pure modules never link it.
CODEX_SRCS := $(sort $(wildcard tools/codex/*.c))
CODEX_LIB := $(BUILD)/lib/libsk_codex.a
$(CODEX_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(CODEX_SRCS)) | $(BUILD)/lib
	@rm -f $@
	$(Q)$(AR) rcs $@ $^
# The codex checks landmark and flora names against the world's tables: that one object, which
# references nothing else (a world change elsewhere does not relink the packer).
CODEX_LINK := $(CODEX_LIB) $(BUILD)/obj/src/world/prop_shapes.o

# Data embedded in the game and tools (the default pack). Section owned by the island pipeline.
EMBED_OBJS :=
-include mk/island.mk

GL_LINK = $(BUILD)/lib/libsk_gl.a $(PURE_LIBS) $(SDL_LIBS) $(GLES_LIBS) $(LIBM)

# The game counts its own heap calls (main.c) through the same --wrap the tests use.
$(BUILD)/skyisles: $(GAME_MAIN_OBJ) $(GAME_LIB) $(BUILD)/lib/libsk_gl.a $(PURE_LIBS) $(EMBED_OBJS)
	$(say) LINK $@
	$(Q)$(CC) $(LDFLAGS) -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc -o $@ $(GAME_MAIN_OBJ) $(GAME_LIB) $(EMBED_OBJS) \
	  $(GL_LINK) $(YAML_LIBS)

# Tools: tools/NAME.c -> $(BUILD)/NAME, linked with every pure module.
TOOL_SRCS := $(sort $(wildcard tools/*.c))
TOOLS := $(patsubst tools/%.c,$(BUILD)/%,$(TOOL_SRCS))
$(TOOLS): $(BUILD)/%: $(BUILD)/obj/tools/%.o $(CODEX_LIB) $(PURE_LIBS) $(EMBED_OBJS)
	$(say) LINK $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(EMBED_OBJS) $(CODEX_LIB) $(PURE_LIBS) $(YAML_LIBS) $(LIBM)

# Benchmarks: one program, one file per subject under tools/bench/.
BENCH_SRCS := $(sort $(wildcard tools/bench/*.c))
BENCH_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(BENCH_SRCS))
$(BUILD)/bench: $(BENCH_OBJS) $(PURE_LIBS) $(EMBED_OBJS)
	$(say) LINK $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $(BENCH_OBJS) $(EMBED_OBJS) $(PURE_LIBS) $(LIBM)

# ---------------------------------------------------------------------------
# Tests: tests/test_MODULE[_what].c -> $(BUILD)/tests/test_MODULE[_what], on cmocka.
# Every test links tests/support (heap-allocation counter via --wrap) and its module's
# library chain; test_render* link the GL side too, test_island* the codex front end.
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
# tests/support/home_world.c (the home island and world fixture) goes in an archive: a test
# that calls it pulls it in with the island and world libraries; the others link none of them.
SUPPORT_ARCHIVED := tests/support/home_world.c
SUPPORT_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out $(SUPPORT_ARCHIVED),$(sort $(wildcard tests/support/*.c))))
SUPPORT_LIB := $(BUILD)/lib/libsk_testsupport.a
$(SUPPORT_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(SUPPORT_ARCHIVED)) | $(BUILD)/lib
	@rm -f $@
	$(Q)$(AR) rcs $@ $^
# tests/support_gl: the headless platform + renderer fixture, for test_render* only; the game
# booted offscreen (game_gl.c) goes in the fixture archive, pulled in by the tests that call it.
SUPPORT_GL_ARCHIVED := $(BUILD)/obj/tests/support_gl/game_gl.o
SUPPORT_GL_OBJS := $(filter-out $(SUPPORT_GL_ARCHIVED),$(patsubst %.c,$(BUILD)/obj/%.o,$(sort $(wildcard tests/support_gl/*.c))))
$(SUPPORT_LIB): $(SUPPORT_GL_ARCHIVED)
$(SUPPORT_GL_OBJS) $(SUPPORT_GL_ARCHIVED): CFLAGS += $(SDL_CFLAGS)
WRAP_FLAGS := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
test_module = $(word 2,$(subst _, ,$(notdir $(1))))

$(BUILD)/obj/tests/test_render%.o $(BUILD)/obj/tests/test_game%.o: CFLAGS += $(SDL_CFLAGS)

.SECONDEXPANSION:
# What a test links besides tests/support, by its module: its library chain; render and game
# tests the GL side (and the game library) with SDL and GLES; island tests the codex front end.
TEST_LINK_render = $(SUPPORT_GL_OBJS) $(GAME_LIB) $(BUILD)/lib/libsk_gl.a $(PURE_LIBS)
TEST_LINK_game = $(GAME_LIB) $(BUILD)/lib/libsk_gl.a $(PURE_LIBS)
TEST_LINK_island = $(CODEX_LIB) $(BUILD)/lib/libsk_world.a $(LIBCHAIN_island)
# test_home_*: the home island in the world: sim, world and island together.
TEST_LINK_home = $(BUILD)/lib/libsk_sim.a $(BUILD)/lib/libsk_world.a $(LIBCHAIN_island)
test_link = $(or $(TEST_LINK_$(call test_module,$(1))),$(LIBCHAIN_$(call test_module,$(1))))
test_syslibs = $(if $(filter render game,$(call test_module,$(1))),$(SDL_LIBS) $(GLES_LIBS)) \
               $(if $(filter island game render,$(call test_module,$(1))),$(YAML_LIBS))
# The fixture archive first, then the island library (which a world or sim test's chain lacks),
# then the test's chain: a test that does not call the fixture pulls nothing from either.
$(TESTS): $(BUILD)/tests/test_%: $(BUILD)/obj/tests/test_%.o $(SUPPORT_OBJS) $(SUPPORT_LIB) \
          $(BUILD)/lib/libsk_island.a $$(call test_link,$$@) $(EMBED_OBJS)
	@mkdir -p $(dir $@)
	$(say) LINK $@
	$(Q)$(CC) $(LDFLAGS) $(WRAP_FLAGS) -o $@ $< $(SUPPORT_OBJS) $(EMBED_OBJS) $(SUPPORT_LIB) \
	  $(BUILD)/lib/libsk_island.a $(call test_link,$@) \
	  $(CMOCKA_LIBS) $(call test_syslibs,$@) $(LIBM)

$(BUILD)/obj $(BUILD)/lib:
	@mkdir -p $@

$(BUILD)/obj/empty.o: | $(BUILD)/obj
	echo 'typedef int skyisles_empty_unit;' | $(CC) -x c -c - -o $@

# ---------------------------------------------------------------------------
HEADLESS_BINS := $(PURE_LIBS) $(TOOLS) $(BUILD)/bench $(filter-out $(BUILD)/tests/test_render%,$(TESTS))
.PHONY: all headless tests bench cross run deps deps-cross clean shaders-check
all: $(HEADLESS_BINS) $(BUILD)/skyisles $(TESTS)
headless: $(HEADLESS_BINS)
tests: $(TESTS)
bench: $(BUILD)/bench

cross:
	$(MAKE) CROSS_COMPILE=$(or $(CROSS_COMPILE),aarch64-linux-gnu-) SYSROOT=$(SYSROOT) all

deps:
	@bash tools/deps.sh native

deps-cross:
	@bash tools/deps.sh cross

run: deps
	@$(MAKE) --no-print-directory all
	./$(BUILD)/skyisles $(ARGS)

# Tests that exercise threads also run under ThreadSanitizer.
TSAN_TESTS := test_core_jobs test_audio_handover test_game_attract test_game_course_cache test_game_island_jobs   # the attract preparation thread, courses laid ahead (over far islands too)
SUMMARY := $(CURDIR)/build/test-summary.txt
export SUMMARY

# make test's stages and the per-stage check-STAGE targets: mk/test.mk (each mk/*.mk may add a
# stage to TEST_STAGE_NAMES, as mk/delivery.mk does).
TEST_STAGE_NAMES := native asan tsan aarch64

clean:
	rm -rf build build-asan build-tsan build-aarch64 build-release-aarch64

# Per-subsystem additions (render tests and shader checks, noise flags, world extras, fuzzing,
# delivery); mk/test.mk last: it reads what the others add.
-include mk/noise.mk mk/world.mk mk/render.mk mk/text.mk mk/fuzz.mk mk/delivery.mk mk/window.mk
include mk/test.mk

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
