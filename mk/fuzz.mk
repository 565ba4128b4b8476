# skyisles fuzzing (included by the Makefile). A fuzz target is tests/fuzz/NAME.c defining
# LLVMFuzzerTestOneInput, with its seed corpus in tests/fuzz/NAME/ (and, if useful, a libFuzzer
# dictionary tests/fuzz/NAME.dict); tests/fuzz/common/ holds what the targets share. Each target
# is built twice:
#   $(BUILD)/tests/fuzz_NAME  gcc + tests/fuzz/common/replay.c: replays every file of the corpus
#                             (seeds, minimised finds, regress-* crash cases) as a cmocka
#                             program; check-asan runs it under ASan + UBSan, no clang needed
#   build-fuzz/fuzz_NAME      clang + libFuzzer + ASan + UBSan, for `make fuzz FUZZ_SECONDS=N`
# Targets link the pure libraries, the codex front end and libyaml; a target that needs more
# names its extra sources in FUZZ_SRCS_NAME here (compiled for both builds), and FUZZ_LIB_DIRS
# lists the source folders compiled into the libFuzzer build's library.

FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(sort $(wildcard tests/fuzz/*.c)))
FUZZ_COMMON := $(sort $(wildcard tests/fuzz/common/*.c))
FUZZ_SHARED := $(filter-out tests/fuzz/common/replay.c,$(FUZZ_COMMON))
FUZZ_SECONDS ?= 60

$(BUILD)/obj/tests/fuzz/%.o: CPPFLAGS += -Itests/fuzz

# ---------------------------------------------------------------- replay (gcc, make test)
FUZZ_REPLAYS := $(patsubst %,$(BUILD)/tests/fuzz_%,$(FUZZ_TARGETS))
# Targets beyond the pure libraries name the sources they need; both builds compile them.
FUZZ_SRCS_settings := src/render/render_params.c src/game/settings.c src/game/savefile.c src/game/setting_table.c src/game/input.c platform/names.c
FUZZ_SRCS_pad_db := platform/pad_db.c
FUZZ_SRCS_replay := src/game/replay.c src/game/replay_file.c
FUZZ_SRCS_logbook := src/game/logbook.c src/game/savefile.c
# The objects of a target's extra sources in a build folder: $(call fuzz_objs,BUILD_DIR,TARGET_FILE).
fuzz_objs = $(patsubst %.c,$(1)/obj/%.o,$(FUZZ_SRCS_$(patsubst fuzz_%,%,$(notdir $(2)))))

# (second expansion is on: the Makefile turns it on before the test rules)
$(FUZZ_REPLAYS): $(BUILD)/tests/fuzz_%: $(BUILD)/obj/tests/fuzz/%.o $(patsubst %.c,$(BUILD)/obj/%.o,$(FUZZ_COMMON)) \
                 $$(call fuzz_objs,$(BUILD),$$@) $(CODEX_LIB) $(PURE_LIBS)
	@mkdir -p $(dir $@)
	$(say) LINK $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(CODEX_LIB) $(PURE_LIBS) $(CMOCKA_LIBS) $(YAML_LIBS) $(LIBM)

all tests headless: $(FUZZ_REPLAYS)

# ---------------------------------------------------------------- libFuzzer (clang, make fuzz)
FUZZ_BUILD := build-fuzz
FUZZ_CC ?= clang
FUZZ_LIB_DIRS := src/core src/island tools/codex
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(sort $(foreach d,$(FUZZ_LIB_DIRS),$(wildcard $(d)/*.c))) $(FUZZ_SHARED))
FUZZ_BINS := $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_TARGETS))
# UBSan reports abort, so libFuzzer keeps the input as a crash instead of printing and going on.
FUZZ_CFLAGS := $(CPPFLAGS_BASE) -Itests/fuzz -std=c11 -O1 -g -Wall -Wextra -Werror -ffp-contract=off -pthread \
               -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(say) FUZZCC $<
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/libsk_fuzz.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	$(Q)ar rcs $@ $^

# The world and noise libraries come from the plain native build (not instrumented: the targets'
# own sources are what the coverage is for), after the target's objects, in one group with the
# fuzz library: the codex front end in it looks landmark and flora names up in the world's tables.
FUZZ_PLAIN_LIBS := build/lib/libsk_world.a build/lib/libsk_noise.a
$(FUZZ_BINS): $(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/tests/fuzz/%.o $$(call fuzz_objs,$(FUZZ_BUILD),$$@) \
              $(FUZZ_BUILD)/libsk_fuzz.a $(FUZZ_PLAIN_LIBS)
	$(say) LINK $@
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $(filter %.o,$^) \
	  -Wl,--start-group $(FUZZ_PLAIN_LIBS) $(FUZZ_BUILD)/libsk_fuzz.a -Wl,--end-group $(YAML_LIBS) $(LIBM)

.PHONY: fuzz fuzz-build fuzz-merge fuzz-clean
# Installs clang and libFuzzer on demand (make test never needs them), builds every target and
# runs each for FUZZ_SECONDS (FUZZ_TARGETS=NAME for one); new finds go to build-fuzz/corpus/NAME.
fuzz:
	@bash tools/deps.sh fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@bash tests/fuzz/fuzz.sh run $(FUZZ_SECONDS) $(FUZZ_BUILD) $(FUZZ_TARGETS)
fuzz-build: $(FUZZ_BINS)
# Folds the finds of build-fuzz/corpus/NAME into tests/fuzz/NAME/, minimised (libFuzzer -merge=1):
# named files (seed-*, regress-*) stay, the rest is the smallest set that keeps the coverage.
fuzz-merge:
	@bash tools/deps.sh fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@bash tests/fuzz/fuzz.sh merge 0 $(FUZZ_BUILD) $(FUZZ_TARGETS)
fuzz-clean:
	rm -rf $(FUZZ_BUILD)
clean: fuzz-clean

-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)
