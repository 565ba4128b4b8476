# skyisles `make test` (included last by the Makefile, after every mk/*.mk has named its stages).
#
# The stages, each a build and the programs it runs:
#   native        make all (the game, the tools, the bench, every test program) and every test
#   asan+ubsan    the tests built with AddressSanitizer and UBSan at -O1 (only what they link), and
#                 the fuzz corpora replayed (mk/fuzz.mk); not the GL programs (Mesa is not
#                 sanitized) nor ASAN_SKIP_PROGS
#   tsan          the tests that start threads (TSAN_TESTS) under ThreadSanitizer
#   aarch64-qemu  the aarch64 cross build of every test, run under qemu-user: every golden hash is
#                 checked on a second architecture (the determinism guarantee); on an aarch64 host
#                 the native stage already ran them there, and the stage is recorded as skipped
#   delivery      the release packages and what they hold (mk/delivery.mk)
#   lint          tools/lint on the tree and on the native objects (tests/lint/test_lint.sh)
#   window        the game in a real X server (mk/window.mk)
#
# How they run: one make graph with -j$(TEST_JOBS) (default: the online cores) and --output-sync.
# Each stage's build is a recursive make that shares the job slots; each program is a target of
# its own that starts as soon as its stage's build is done, so the cores stay busy (the native
# programs run while the cross build compiles). The pool takes targets in the order of
# TEST_BUILD_ORDER and TEST_SLOW_FIRST (below). Each program's block is printed whole and writes
# one record (tests/run.sh: passed, failed, wall and CPU seconds); tests/collect.sh gathers them
# and tests/summary.sh prints each stage's CPU against its budget.
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
#   TEST_BUDGET_s   CPU seconds its build and programs may take before the summary flags it
# A new stage: name it in TEST_STAGE_NAMES, set these, give it a budget and a place in
# TEST_BUILD_ORDER. `make check-s` runs one stage alone (the same rules, only that stage's
# targets), and prints its CPU: the figure to measure a change by.
#
# What a test costs here: its CPU in every stage that runs it; under qemu-user ten to thirty
# times its native CPU, and the qemu programs are most of make test's CPU. A test that walks many
# cases can walk fewer under emulation (tests/support/emulated.h) while it checks the same
# property and every golden; its native run keeps every case.

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

# The sanitizer builds make only what their programs link (no tools, no bench: nothing here runs
# them). ASAN_SKIP_PROGS start build/skyisles, the native game (the sanitizer builds have none):
# under the sanitizers only their own few lines of process handling would run sanitized, while
# the game they test is the one the native stage runs them on.
ASAN_SKIP_PROGS := test_game_boot test_game_stall
STAGE_LABEL_asan := asan+ubsan
STAGE_DIR_asan := build-asan
STAGE_MAKE_asan = SANITIZE=address,undefined OPT=-O1 $(STAGE_PROGS_asan)
STAGE_NEEDS_asan := native
STAGE_PROGS_asan = $(patsubst $(BUILD)/%,build-asan/%,$(filter-out $(BUILD)/tests/test_render% \
  $(addprefix $(BUILD)/tests/,$(ASAN_SKIP_PROGS)),$(TESTS)) $(FUZZ_REPLAYS))

STAGE_LABEL_tsan := tsan
STAGE_DIR_tsan := build-tsan
STAGE_MAKE_tsan = SANITIZE=thread OPT=-O1 $(addprefix build-tsan/tests/,$(TSAN_TESTS))
STAGE_PROGS_tsan = $(addprefix build-tsan/tests/,$(TSAN_TESTS))

TEST_STAGE_NAMES += lint
STAGE_LABEL_lint := lint
STAGE_DIR_lint := build
STAGE_AFTER_lint := native
STAGE_MAKE_lint :=
STAGE_PROGS_lint := tests/lint/test_lint.sh
STAGE_ENV_lint := LINT_BUILD=$(BUILD)

# The cross build makes the test programs and the game they start (test_game_boot,
# test_game_sound), not the tools and the bench, which nothing here runs (the native build checks
# they compile). GL programs draw on Mesa's llvmpipe: its JIT compiles a shader once and then runs
# translated code, where softpipe's interpreter would run every vertex through emulation (three
# to five times slower under qemu-user); LP_NUM_THREADS=0 keeps a program on one core, as the
# pool already fills them all.
# QEMU_SKIP_PROGS test timing and threads, which emulation does not check for aarch64: qemu-user
# runs the guest's threads in the host's memory order and catches every signal itself, so there
# they would test the emulator (at some 25-40 s of CPU each). They hold no golden; the native
# stage runs them, the sanitizer stages run test_world_stream, and on an aarch64 host the native
# stage runs both as aarch64. The archipelago's streaming tests wait on bakes and chunk jobs
# of worker threads for hundreds of frames the same way (no golden either: the island bits are
# test_island_archipelago's, the world's under them test_world's).
QEMU_SKIP_PROGS := test_game_stall test_world_stream test_home_archipelago test_course_archipelago
STAGE_LABEL_aarch64 := aarch64-qemu
STAGE_DIR_aarch64 := build-aarch64
ifneq ($(shell uname -m),aarch64)
STAGE_MAKE_aarch64 = CROSS_COMPILE=aarch64-linux-gnu- $(STAGE_PROGS_aarch64) build-aarch64/skyisles
STAGE_PROGS_aarch64 = $(patsubst $(BUILD)/%,build-aarch64/%,$(filter-out \
  $(addprefix $(BUILD)/tests/,$(QEMU_SKIP_PROGS)),$(TESTS)))
STAGE_RUNNER_aarch64 := qemu-aarch64
STAGE_ENV_aarch64 := GALLIUM_DRIVER=llvmpipe LP_NUM_THREADS=0
endif

# Budgets: the CPU seconds (user + system) of a stage's build and programs, as tests/summary.sh
# prints them; unlike wall time they hardly depend on what else the machine runs. Each is the
# stage's cost in a fresh clone's make test on a quiet 2-core machine (in the pool, so a little
# above the sum of its programs run one at a time) plus about a fifth, so a stage that grows shows:
#   stage          CPU s  budget
#   native            94     120
#   asan+ubsan       162     195
#   tsan              64      80
#   aarch64-qemu     626     750
#   delivery          11      20
#   lint               5      10
# window's is in mk/window.mk. Over budget is a warning line in the summary that names the stage,
# not a failure (a test that grew is not a broken one). TEST_BUDGET_TOTAL is make test's own wall
# time goal on 2 cores, 11 minutes: the stages' CPU (some 965 s) halved, plus the waits no core
# fills (real-time soaks, the end of the pool), about 9 minutes, has to stay under it with room
# for a loaded machine.
# To re-measure a stage, `make check-STAGE` after `make clean`; a program alone,
# `/usr/bin/time -f '%U %S'` on it (under qemu-aarch64 with STAGE_ENV_aarch64 for that stage).
TEST_BUDGET_native ?= 120
TEST_BUDGET_asan ?= 195
TEST_BUDGET_tsan ?= 80
TEST_BUDGET_aarch64 ?= 750
TEST_BUDGET_delivery ?= 20
TEST_BUDGET_lint ?= 10
TEST_BUDGET_TOTAL ?= 660

# The programs that take the most CPU, started first so that the pool ends together; the rest
# follow in stage order. stage:program, most first: under qemu-aarch64 and the sanitizers, as
# measured one program at a time (`/usr/bin/time`, user + system). A new slow test belongs here.
# Programs that wait on real time (native:test_game_stall's soaks) are early too: their waits
# overlap the builds.
TEST_SLOW_FIRST ?= aarch64:test_game_boot aarch64:test_game_console aarch64:test_render_position \
  aarch64:test_render_text aarch64:test_course_world aarch64:test_sim_spawn aarch64:test_render_battery \
  aarch64:test_game_island_jobs tsan:test_world_stream aarch64:test_audio \
  native:test_game_stall aarch64:test_game_sound aarch64:test_game_attract aarch64:test_render_jitter \
  aarch64:test_game_tour aarch64:test_game_ghost aarch64:test_world aarch64:test_world_caves aarch64:test_world_lod \
  aarch64:test_game_replay aarch64:test_render_overlay aarch64:test_game_pad aarch64:test_world_params \
  asan:test_course_world native:test_course_world aarch64:test_home_island aarch64:test_noise_field \
  aarch64:test_world_far aarch64:test_render aarch64:test_render_lod aarch64:test_noise_rows asan:test_noise_rows \
  aarch64:test_render_hud aarch64:test_render_console aarch64:test_world_biome aarch64:test_world_mesh \
  asan:test_world_stream asan:test_world_caves delivery:test_delivery.sh

# Every stage the mk files named (the Makefile and mk/delivery.mk); TEST_STAGES=... runs some.
TEST_STAGES ?= $(TEST_STAGE_NAMES)

test_rec = $(TEST_RUNS)/$(1)/$(notdir $(2)).rec
stage_recs = $(foreach p,$(STAGE_PROGS_$(1)),$(call test_rec,$(1),$(p)))

# The children's line of bash's `times` ("0m1.250s 0m0.040s") as CPU seconds: what a stage's build
# took (tests/run.sh measures each program the same way).
TIMES_CPU = awk 'NR == 2 { split($$1, u, /[ms]/); split($$2, s, /[ms]/); printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'

# $(1): stage. Its build stamp (with a "(build)" record: its time, and 0 1 if it failed) and one
# record per program. A record is written to .tmp and renamed, so a killed run leaves none.
define stage_rules
$(TEST_RUNS)/$(1).built: $(STAGE_HOSTPACK) $(foreach s,$(STAGE_AFTER_$(1)),$(TEST_RUNS)/$(s).built)
	@mkdir -p $(TEST_RUNS)/$(1)
	+@start=$$$$(date +%s); \
	 $(if $(STAGE_NOTE_$(1)),echo "$(STAGE_NOTE_$(1))";) \
	 if [ -z "$(strip $(STAGE_MAKE_$(1)))" ] || $(MAKE) --no-print-directory -k $(STAGE_MAKE_$(1)); then f=0; else f=1; fi; \
	 times > $(TEST_RUNS)/$(1)/build.times; \
	 echo "$(STAGE_LABEL_$(1)) (build) 0 $$$$f $$$$(( $$$$(date +%s) - start )) $$$$start $$$$(date +%s)" \
	   "$$$$($$(TIMES_CPU) $(TEST_RUNS)/$(1)/build.times)" > $(TEST_RUNS)/$(1)/build.rec; \
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
# test_game_stall's stop-signal storm runs beside load: in the pool the other programs are the
# load, so it starts no CPU hog of its own (which would only take their time).
test-pool: export SKYISLES_STORM_HOGS ?= 0
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
