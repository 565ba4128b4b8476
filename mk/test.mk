# skyisles `make test` (included last by the Makefile, after every mk/*.mk has named its stages).
#
# The stages (native, asan+ubsan, tsan, aarch64-qemu, delivery) are one make graph run with
# -j$(TEST_JOBS) (default: the online cores) and --output-sync: each stage's build is a
# recursive make that shares the job slots, and each test program is a target of its own that
# starts as soon as its stage's build is done. So the cores stay busy: the native tests run
# while the cross build compiles, and the qemu programs, the long poles, start first and end
# together with the rest. Each program's block is printed whole (output-sync), and writes one
# record file; the summary is their concatenation.
#
# A stage is described by variables (the delivery stage's live in mk/delivery.mk):
#   STAGE_LABEL_s   its name in the output and the summary
#   STAGE_DIR_s     its build folder (test-logs/ go there)
#   STAGE_MAKE_s    the arguments of its build (a recursive make, -k: one broken target does
#                   not hide the other tests, and a failed build is counted as a failed test)
#   STAGE_AFTER_s   what must be built before its build starts
#   STAGE_NEEDS_s   what must be built before its programs run (besides its own build)
#   STAGE_PROGS_s   its programs, STAGE_RUNNER_s what runs them, STAGE_ENV_s their environment
#   STAGE_NOTE_s    a line printed before its build, if any
#   TEST_BUDGET_s   seconds its build and programs may run (summed) before the summary flags
#                   it
# `make check-s` runs one stage alone (the same rules, only that stage's targets).

TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
TEST_RUNS := build/test-runs

# The host packer first: every other build calls it (mk/island.mk), and a cross or sanitizer
# build that found it missing would build it itself, racing the native build over build/obj.
STAGE_HOSTPACK := $(TEST_RUNS)/hostpack.built
$(STAGE_HOSTPACK):
	@mkdir -p $(@D)
	+@$(MAKE) --no-print-directory BUILD=build CROSS_COMPILE= SANITIZE= SYSROOT= OPT=-O2 \
	  EXTRA_CPPFLAGS= EXTRA_CFLAGS= EXTRA_LDFLAGS= $(ISLAND_HOST_PACK) && touch $@

STAGE_LABEL_native := native
STAGE_DIR_native := build
STAGE_MAKE_native := all
STAGE_PROGS_native := $(TESTS)

# Sanitizer runs skip the GL side (Mesa). The programs whose subject is the game binary itself
# (ASAN_SKIP_PROGS: they start build/skyisles, the native game, as the sanitizer builds have
# none) are left out: under the sanitizers only their own few lines of process handling would
# run sanitized, while the game they test is the one the native stage already ran them on
# (test_game_stall's real-time soaks and storm were the stage's longest program, 34 s of it).
# The build makes only what the programs link (no tools, no bench: nothing here runs them).
ASAN_SKIP_PROGS := test_game_boot test_game_stall
STAGE_LABEL_asan := asan+ubsan
STAGE_DIR_asan := build-asan
STAGE_MAKE_asan = SANITIZE=address,undefined OPT=-O1 $(STAGE_PROGS_asan)
STAGE_NEEDS_asan := native
STAGE_PROGS_asan = $(patsubst $(BUILD)/%,build-asan/%,$(filter-out $(BUILD)/tests/test_render% \
  $(addprefix $(BUILD)/tests/,$(ASAN_SKIP_PROGS)),$(TESTS)) $(FUZZ_REPLAYS))

# Tests that exercise threads (TSAN_TESTS) also run under ThreadSanitizer.
STAGE_LABEL_tsan := tsan
STAGE_DIR_tsan := build-tsan
STAGE_MAKE_tsan = SANITIZE=thread OPT=-O1 $(addprefix build-tsan/tests/,$(TSAN_TESTS))
STAGE_PROGS_tsan = $(addprefix build-tsan/tests/,$(TSAN_TESTS))

# Every test under qemu-user, render tests on Mesa's llvmpipe with no raster threads (its JIT
# compiles each shader once, then runs as translated code: under qemu a GL test program takes a
# third to a fifth of its time on softpipe, whose shader interpreter runs every vertex through
# emulation: test_render_lod 414 s -> 61 s, test_render 128 -> 48, test_render_hud 74 -> 13,
# the GL programs together 988 -> 368 s, measured one after the other on this 2-core machine;
# both drivers pass every assertion). LP_NUM_THREADS=0: the pool already fills the cores, and
# a program's load stays one core. On an aarch64 host (a Pi) the
# native stage already ran every test as aarch64: no emulation, the stage is recorded as skipped.
# The code rules a compiler does not check (tools/lint): function lengths on the tree, call
# circles between a module's files on the native build's objects.
TEST_STAGE_NAMES += lint
STAGE_LABEL_lint := lint
STAGE_DIR_lint := build
STAGE_AFTER_lint := native
STAGE_MAKE_lint :=
STAGE_PROGS_lint := tests/lint/test_lint.sh
STAGE_ENV_lint := LINT_BUILD=$(BUILD)

STAGE_LABEL_aarch64 := aarch64-qemu
STAGE_DIR_aarch64 := build-aarch64
ifneq ($(shell uname -m),aarch64)
STAGE_MAKE_aarch64 := CROSS_COMPILE=aarch64-linux-gnu- all
STAGE_PROGS_aarch64 = $(patsubst $(BUILD)/%,build-aarch64/%,$(TESTS))
STAGE_RUNNER_aarch64 := qemu-aarch64
STAGE_ENV_aarch64 := GALLIUM_DRIVER=llvmpipe LP_NUM_THREADS=0
endif

# Budgets, in seconds a stage's build and programs run (summed: in the pool the stages share the
# cores, so one stage's first start to last end says more about the pool's order than about the
# stage): what each took in a fresh clone on a quiet 2-core machine plus about a tenth, so a stage
# that grows shows. TEST_BUDGET_TOTAL is the goal for make test's own wall time, 11 minutes. Over
# budget is a warning line in the summary that names the stage, not a failure: on a shared or
# noisy machine a slow run is not a broken test, but the line makes a stage that keeps growing
# visible in every log, and says which one to look at.
# History: issue 17 measured native 74, asan+ubsan 186, tsan 65, aarch64-qemu 994, delivery 14;
# issues 19-21 added 216 tests (replays, stalls and soaks, courses, the console's pacing) and a
# fresh clone measured native 148, asan+ubsan 293 (its build 142), tsan 94, aarch64-qemu 911,
# delivery 14, lint 7 (24.5 core-minutes on 2 cores: 12.5-13 minutes). Issue 17's last item then
# took out (each program measured alone, before and after, natively and under qemu):
#   test_sim_collision  its wall and tunnel searches start from where they found them (qemu 75 -> 7 s)
#   test_game_stall     its runner found by starting the game (under qemu-user without a binfmt
#                       entry every case failed after 180 s); natively its soaks fly beside the
#                       stop and the storm, the stop is 1.5 s, the storm has one CPU hog, not two
#   asan+ubsan          no test_game_boot and test_game_stall (they test the native game again:
#                       ASAN_SKIP_PROGS), no tools and bench built
#   test_world_stream   fewer frames where its counts had the margin, each rig's budget sized by
#                       its pool (ThreadSanitizer shadows all of it: tsan 59-73 -> 41-43 s)
#   test_render_lod     80x60 frames (its checks count, or compare two frames of one size)
#   test_game_console, test_game_boot: a 1 s frame-cap window, stop-signal runs at view radius 2
#   test_noise_rows, test_sim_spawn, test_world_caves: under emulation fewer points, seeds and
#                       chunks of the same checks (tests/support/emulated.h; qemu 74 -> 33 s)
# The next fresh clone (1468 tests, on a quiet 2-core machine) measured native 99, asan+ubsan 159,
# tsan 58, aarch64-qemu 623, delivery 11, lint 6, window 4: make test 8m16s. The budgets are
# those figures plus about a fifth (a shared machine is noisier); the whole run's stays 11 minutes.
# test_game_attract joined the tsan stage (the attract preparation's thread): a fresh clone's tsan
# took 62 s with it (37 tests), so its budget is 90.
TEST_BUDGET_native ?= 120
TEST_BUDGET_asan ?= 190
TEST_BUDGET_tsan ?= 90
TEST_BUDGET_aarch64 ?= 750
TEST_BUDGET_delivery ?= 20
TEST_BUDGET_lint ?= 15
TEST_BUDGET_TOTAL ?= 660

# The programs that take longest, started first so that the pool ends together; the rest follow
# in stage order. stage:program, longest first, as measured on main (seconds under qemu on a
# loaded 2-core machine, one program at a time). A new slow test belongs here. Programs that wait
# on real time (native:test_game_stall's soaks) are early too: their waits overlap the builds.
TEST_SLOW_FIRST ?= aarch64:test_game_boot aarch64:test_world_stream aarch64:test_game_stall tsan:test_world_stream \
  aarch64:test_world_caves aarch64:test_game_replay native:test_game_stall aarch64:test_game_console \
  aarch64:test_noise_rows aarch64:test_sim_spawn aarch64:test_course_world aarch64:test_world aarch64:test_render_lod \
  aarch64:test_audio aarch64:test_render aarch64:test_game_sound aarch64:test_game_ghost aarch64:test_game_attract \
  aarch64:test_render_battery aarch64:test_world_lod aarch64:test_home_island \
  aarch64:test_render_position aarch64:test_render_jitter \
  aarch64:test_render_overlay aarch64:test_game_tour aarch64:test_world_params aarch64:test_game_pad \
  aarch64:test_render_hud aarch64:test_render_console asan:test_world_stream asan:test_course_world \
  native:test_course_world asan:test_game_console asan:test_noise_rows delivery:test_delivery.sh

# Every stage the mk files named (the Makefile and mk/delivery.mk); TEST_STAGES=... runs some.
TEST_STAGES ?= $(TEST_STAGE_NAMES)

test_rec = $(TEST_RUNS)/$(1)/$(notdir $(2)).rec
stage_recs = $(foreach p,$(STAGE_PROGS_$(1)),$(call test_rec,$(1),$(p)))

# $(1): stage. Its build stamp (with a "(build)" record: its time, and 0 1 if it failed) and one
# record per program. A record is written to .tmp and renamed, so a killed run leaves none.
define stage_rules
$(TEST_RUNS)/$(1).built: $(STAGE_HOSTPACK) $(foreach s,$(STAGE_AFTER_$(1)),$(TEST_RUNS)/$(s).built)
	@mkdir -p $(TEST_RUNS)/$(1)
	+@start=$$$$(date +%s); \
	 $(if $(STAGE_NOTE_$(1)),echo "$(STAGE_NOTE_$(1))";) \
	 if [ -z "$(strip $(STAGE_MAKE_$(1)))" ] || $(MAKE) --no-print-directory -k $(STAGE_MAKE_$(1)); then f=0; else f=1; fi; \
	 echo "$(STAGE_LABEL_$(1)) (build) 0 $$$$f $$$$(( $$$$(date +%s) - start )) $$$$start $$$$(date +%s)" > $(TEST_RUNS)/$(1)/build.rec; \
	 touch $$@
$(foreach p,$(STAGE_PROGS_$(1)),
$(call test_rec,$(1),$(p)): $(TEST_RUNS)/$(1).built $(foreach s,$(STAGE_NEEDS_$(1)),$(TEST_RUNS)/$(s).built)
	@$(STAGE_ENV_$(1)) SUMMARY=$$(CURDIR)/$$@.tmp bash tests/run.sh $(STAGE_LABEL_$(1)) $(STAGE_DIR_$(1)) "$(STAGE_RUNNER_$(1))" $(p); \
	 mv -f $$@.tmp $$@
)
.PHONY: check-$(1)
check-$(1):
	@rm -rf $(TEST_RUNS)/$(1) $(TEST_RUNS)/*.built $(TEST_RUNS)/expected && mkdir -p $(TEST_RUNS)
	@$(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target test-pool TEST_STAGES=$(1); \
	 bash tests/collect.sh $(TEST_RUNS) $(1) > $(TEST_RUNS)/$(1).summary; \
	 bash tests/summary.sh $(TEST_RUNS)/$(1).summary
endef
$(foreach s,$(sort $(TEST_STAGE_NAMES)),$(eval $(call stage_rules,$(s))))

# A stage that does not apply on this host (no build) writes one SKIP record.
$(TEST_RUNS)/aarch64/skip.rec: $(TEST_RUNS)/aarch64.built
	@echo "[aarch64-qemu] skipped: this host is aarch64, so the native stage ran the aarch64 build"
	@echo "aarch64-qemu SKIP this host is aarch64: the native stage ran the aarch64 build" > $@
ifeq ($(shell uname -m),aarch64)
STAGE_EXTRA_aarch64 := $(TEST_RUNS)/aarch64/skip.rec
endif

# The pool's order is its priority: make starts the first ready target in this list whenever a
# slot frees. Builds on the long path first (the cross build feeds the longest programs), then
# the slow programs, then the rest.
TEST_BUILD_ORDER := aarch64 native lint asan tsan delivery
TEST_ALL_RECS = $(foreach s,$(TEST_STAGES),$(call stage_recs,$(s)) $(STAGE_EXTRA_$(s)))
TEST_SLOW_RECS = $(filter $(TEST_ALL_RECS),$(foreach t,$(TEST_SLOW_FIRST),$(TEST_RUNS)/$(subst :,/,$(t)).rec))
.PHONY: test-pool
test-pool: $(TEST_RUNS)/expected $(foreach s,$(filter $(TEST_STAGES),$(TEST_BUILD_ORDER)),$(TEST_RUNS)/$(s).built) \
           $(TEST_SLOW_RECS) $(filter-out $(TEST_SLOW_RECS),$(TEST_ALL_RECS))

# Every record the pool should write ("label program record"): tests/collect.sh counts one
# that is missing (its target failed, or the run was cut short) as a failed program.
define newline


endef
# (Written by make itself: the list is too long for one command line; the folder is made by
# the recipe that starts the pool.)
$(TEST_RUNS)/expected:
	$(file >$@,$(foreach s,$(TEST_STAGES),$(foreach p,$(STAGE_PROGS_$(s)),$(STAGE_LABEL_$(s)) $(notdir $(p)) $(call test_rec,$(s),$(p))$(newline))))
	@:

# The budgets for tests/summary.sh, "label=seconds ...".
export TEST_BUDGETS := $(foreach s,$(TEST_STAGE_NAMES),$(STAGE_LABEL_$(s))=$(TEST_BUDGET_$(s))) total=$(TEST_BUDGET_TOTAL)

.PHONY: test
test:
	@start=$$(date +%s); \
	 bash tools/deps.sh native cross delivery window || exit 1; \
	 rm -rf $(TEST_RUNS) && mkdir -p $(TEST_RUNS); \
	 echo "make test: $(words $(TEST_ALL_RECS)) programs in $(words $(TEST_STAGES)) stages, $(TEST_JOBS) at a time"; \
	 $(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target test-pool; \
	 bash tests/collect.sh $(TEST_RUNS) > $(SUMMARY); \
	 TEST_START=$$start bash tests/summary.sh $(SUMMARY)
