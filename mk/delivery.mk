# skyisles delivery (included by the Makefile): the three ways people get skyisles and their checks.
#
#   make install [PREFIX=/usr/local] [DESTDIR=]  the game, its data in PREFIX/share/skyisles (found
#                                                 from the binary's place: ../share/skyisles), licences
#   make install-service                          the boot-to-sim unit (tty1) for PREFIX/bin/skyisles
#   make uninstall-service                        the unit and its polkit rule removed
#   make dist                                     tarball of this build (build/dist/)
#   make dist-aarch64                             tarball of the aarch64 release build (build/dist/)
#   make portmaster                               PortMaster zip (build/portmaster/skyisles.zip)
#   make portmaster-pr                            the zip laid out as ports/skyisles/ for a pull request
#                                                 to PortMaster-New (build/portmaster-pr/)
#   make sysroot                                  the Debian 11 arm64 sysroot release builds link against
#   make boot-test                                boots the aarch64 dist in a Debian arm64 VM (minutes;
#                                                 not part of make test)
#   make check-delivery                           the delivery stage of make test (mk/test.mk)
#
# Release builds for aarch64 link against an old Debian (RELEASE_SUITE, default bullseye: glibc
# 2.31, SDL 2.0.14) so the binary runs on older handheld firmwares; RELEASE_SYSROOT= (empty) uses
# the multiarch cross build instead (the native build on an aarch64 host). docs/building.md.

HOST_ARCH := $(shell uname -m)
PREFIX ?= /usr/local
DESTDIR ?=
# Fixed under PREFIX: the game finds its data from its own place (bin/../share/skyisles), so the
# two folders move together (SKYISLES_DATA_DIR names another at run time).
BINDIR := $(PREFIX)/bin
DATADIR := $(PREFIX)/share/skyisles
DOCDIR := $(PREFIX)/share/doc/skyisles
ifeq ($(origin VERSION),undefined)
  VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
endif
RELEASE_SUITE ?= bullseye
RELEASE_SYSROOT ?= build-sysroot/$(RELEASE_SUITE)-arm64
RELEASE_BUILD := build-release-aarch64
# The settings file's libyaml goes into the release game itself: handheld firmwares and minimal
# Pi images often have no libyaml-0.so.2 (the game then needs only libc, libm, SDL2, GLESv2).
RELEASE_YAML_LIBS := -Wl,-Bstatic -lyaml -Wl,-Bdynamic
DIST_DIR := build/dist
# What a release ships comes from the release sysroot's build. Without one (RELEASE_SYSROOT=, as
# make test's delivery stage runs on a machine that has none) the packages are built from the
# multiarch cross build, which needs the build machine's glibc: they go to build/delivery-test/,
# never where a release's zip and tarball are.
NON_RELEASE_DIR := build/delivery-test
AARCH64_DIST_DIR = $(if $(RELEASE_SYSROOT),$(DIST_DIR),$(NON_RELEASE_DIR)/dist)
PORTMASTER_DIR = $(if $(RELEASE_SYSROOT),build/portmaster,$(NON_RELEASE_DIR)/portmaster)
PORTMASTER_PR_DIR := build/portmaster-pr
# The source the port's README links to: the checkout's origin, if it has one (make portmaster
# SOURCE_URL=... names another). The zip does not carry the source: its README names the version
# and commit, and this address.
SOURCE_URL ?= $(shell git remote get-url origin 2>/dev/null | sed -n 's|^git@\([^:]*\):|https://\1/|; s|\.git$$||; /^https\?:\/\//p')
# qemu-user runs the aarch64 binary on other hosts; an aarch64 host runs it itself.
AARCH64_RUNNER := $(if $(filter aarch64,$(HOST_ARCH)),,qemu-aarch64)

# Without a release sysroot: the multiarch cross build (on an aarch64 host the native one) linked
# as the release game is, libyaml inside (the same objects as its skyisles).
AARCH64_FALLBACK_BUILD := $(if $(filter aarch64,$(HOST_ARCH)),build,build-aarch64)
AARCH64_FALLBACK_BIN := $(AARCH64_FALLBACK_BUILD)/skyisles-yaml-inside
AARCH64_RELEASE_BIN = $(if $(RELEASE_SYSROOT),$(RELEASE_BUILD)/skyisles,$(AARCH64_FALLBACK_BIN))

$(BUILD)/skyisles-yaml-inside: $(GAME_MAIN_OBJ) $(GAME_LIB) $(BUILD)/lib/libsk_gl.a $(PURE_LIBS) $(EMBED_OBJS)
	$(say) LINK $@
	$(Q)$(CC) $(LDFLAGS) -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc -o $@ $(GAME_MAIN_OBJ) $(GAME_LIB) $(EMBED_OBJS) \
	  $(GL_LINK) $(RELEASE_YAML_LIBS)

# Tests of the platform layer link its plain-C parts (no SDL) with core.
TEST_LINK_platform = $(BUILD)/obj/platform/console.o $(BUILD)/obj/platform/signals.o $(LIBCHAIN_core)

# The attract mode's replay (docs/replay.md): the course pilot flies the default seed's sky course
# in the game, unpaced; the same build writes the same bytes. Run it when the sim, the pilot, the
# courses or the world's defaults change (test_game_attract says so when the file stops fitting).
ATTRACT_REPLAY := assets/replays/attract-sky.skyr
.PHONY: attract-replay
attract-replay: $(BUILD)/skyisles
	SKYISLES_LOG=warn $(BUILD)/skyisles --record-attract $(ATTRACT_REPLAY)

.PHONY: install install-service uninstall-service dist dist-aarch64 portmaster portmaster-pr sysroot release-aarch64 boot-test

install: $(BUILD)/skyisles
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/controllers $(DESTDIR)$(DATADIR)/replays $(DESTDIR)$(DOCDIR)/licenses
	install -m 0755 $(BUILD)/skyisles $(DESTDIR)$(BINDIR)/skyisles
	install -m 0644 assets/controllers/gamecontrollerdb.txt assets/controllers/LICENSE.gamecontrollerdb \
	  assets/controllers/SOURCE $(DESTDIR)$(DATADIR)/controllers/
	install -m 0644 $(ATTRACT_REPLAY) $(DESTDIR)$(DATADIR)/replays/
	install -m 0644 LICENSE README.md $(DESTDIR)$(DOCDIR)/
	install -m 0644 platform/licenses/* assets/controllers/LICENSE.gamecontrollerdb $(DESTDIR)$(DOCDIR)/licenses/

# The user, the unit pointing at BINDIR/skyisles, enabled (into DESTDIR's system when given).
install-service:
	@bash platform/pi/install-service.sh $(if $(DESTDIR),--root $(DESTDIR)) $(BINDIR)/skyisles

uninstall-service:
	@bash platform/pi/install-service.sh $(if $(DESTDIR),--root $(DESTDIR)) --uninstall

dist: $(BUILD)/skyisles
	@bash tools/delivery/dist.sh $(BUILD)/skyisles $(TARGET_ARCH_NAME) $(VERSION) $(DIST_DIR)

# The aarch64 game a release ships (see the top of this file).
release-aarch64:
ifneq ($(RELEASE_SYSROOT),)
	@bash tools/deps.sh native sysroot
	@if [ ! -d $(RELEASE_SYSROOT)/usr/include ]; then \
	   bash tools/delivery/sysroot.sh $(RELEASE_SUITE) $(RELEASE_SYSROOT) || exit 1; \
	 fi
	+@$(MAKE) --no-print-directory CROSS_COMPILE=aarch64-linux-gnu- SYSROOT=$(abspath $(RELEASE_SYSROOT)) \
	   BUILD=$(RELEASE_BUILD) SANITIZE= YAML_LIBS="$(RELEASE_YAML_LIBS)" $(RELEASE_BUILD)/skyisles
else ifeq ($(HOST_ARCH),aarch64)
	+@$(MAKE) --no-print-directory CROSS_COMPILE= SYSROOT= BUILD=build SANITIZE= $(AARCH64_FALLBACK_BIN)
else
	@bash tools/deps.sh cross
	+@$(MAKE) --no-print-directory CROSS_COMPILE=aarch64-linux-gnu- SYSROOT= BUILD=build-aarch64 SANITIZE= $(AARCH64_FALLBACK_BIN)
endif

sysroot:
	@bash tools/deps.sh sysroot
	@bash tools/delivery/sysroot.sh $(RELEASE_SUITE) $(RELEASE_SYSROOT)

dist-aarch64: release-aarch64
	@bash tools/delivery/dist.sh $(AARCH64_RELEASE_BIN) aarch64 $(VERSION) $(AARCH64_DIST_DIR)
	@echo "skyisles: the aarch64 game needs glibc $$(bash tools/delivery/glibc_floor.sh $(AARCH64_RELEASE_BIN)) or newer"

# The screenshot is rendered by the native build (quick); the zip holds the aarch64 game.
portmaster: release-aarch64
	@bash tools/deps.sh delivery
	+@$(MAKE) --no-print-directory CROSS_COMPILE= SYSROOT= BUILD=build SANITIZE= build/skyisles
	@bash tools/delivery/portmaster.sh $(AARCH64_RELEASE_BIN) build/skyisles "" $(VERSION) $(PORTMASTER_DIR) $(SOURCE_URL)

# ports/skyisles/ as PortMaster-New keeps a port: copy it into a clone of that repository. Its
# README must link the source (the zip does not carry it), so a build with no address stops here.
portmaster-pr:
	@if [ -z "$(SOURCE_URL)" ]; then \
	   echo "portmaster-pr: no source address for the port's README: run make portmaster-pr SOURCE_URL=https://... (the public repository)" >&2; \
	   exit 1; \
	 fi
	+@$(MAKE) --no-print-directory portmaster SOURCE_URL=$(SOURCE_URL)
	@bash tools/delivery/portmaster_pr.sh $(PORTMASTER_DIR)/skyisles.zip $(PORTMASTER_PR_DIR)

# Minutes, a Debian mirror and root (for the image's owners and binfmt); docs/pi.md.
# Everything it needs is installed first (a fresh machine has none of it), then the release build.
boot-test:
	@bash tools/deps.sh native sysroot boot
	+@$(MAKE) --no-print-directory dist-aarch64
	@bash tools/delivery/boot_test.sh $(AARCH64_DIST_DIR)/skyisles-$(VERSION)-aarch64.tar.gz build-boot

# ---------------------------------------------------------------------------
# make test's delivery stage (mk/test.mk runs it). With the release sysroot (make sysroot) it
# checks the very zip and tarball a release ships; without one, packages of the multiarch cross
# build linked the release's way, written to build/delivery-test/ (a fresh machine needs no
# Debian download for it). Its build only packs what the native and the aarch64 stages built
# (they come first: the packing makes would otherwise build the same files beside them).
DELIVERY_SYSROOT := $(if $(wildcard $(RELEASE_SYSROOT)/usr/include),$(RELEASE_SYSROOT))
DELIVERY_OUT := $(if $(DELIVERY_SYSROOT),build,$(NON_RELEASE_DIR))
TEST_STAGE_NAMES += delivery
STAGE_LABEL_delivery := delivery
STAGE_DIR_delivery := build
STAGE_AFTER_delivery := native $(if $(filter aarch64,$(HOST_ARCH)),,aarch64)
STAGE_NOTE_delivery := $(if $(DELIVERY_SYSROOT),,[delivery] no release sysroot ($(RELEASE_SYSROOT)): checking packages of $(AARCH64_FALLBACK_BIN) in $(NON_RELEASE_DIR)/ instead (make sysroot builds against Debian 11))
STAGE_MAKE_delivery := dist-aarch64 portmaster RELEASE_SYSROOT=$(DELIVERY_SYSROOT) VERSION=$(VERSION) >/dev/null
STAGE_PROGS_delivery := tests/delivery/test_delivery.sh
STAGE_ENV_delivery := DELIVERY_DIST=$(DELIVERY_OUT)/dist/skyisles-$(VERSION)-aarch64.tar.gz \
  DELIVERY_ZIP=$(DELIVERY_OUT)/portmaster/skyisles.zip DELIVERY_RUNNER=$(AARCH64_RUNNER) \
  DELIVERY_RELEASE=$(if $(DELIVERY_SYSROOT),1,0)
