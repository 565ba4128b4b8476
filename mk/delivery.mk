# skyisles delivery (included by the Makefile): the three ways people get skyisles and their checks.
#
#   make install [PREFIX=/usr/local] [DESTDIR=]  the game, its data in PREFIX/share/skyisles (found
#                                                 from the binary's place: ../share/skyisles), licences
#   make install-service                          the boot-to-sim unit (tty1) for PREFIX/bin/skyisles
#   make dist                                     tarball of this build (build/dist/)
#   make dist-aarch64                             tarball of the aarch64 release build (build/dist/)
#   make portmaster                               PortMaster zip (build/portmaster/skyisles.zip)
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
PORTMASTER_DIR := build/portmaster
# qemu-user runs the aarch64 binary on other hosts; an aarch64 host runs it itself.
AARCH64_RUNNER := $(if $(filter aarch64,$(HOST_ARCH)),,qemu-aarch64)

# Without a release sysroot: the multiarch cross build, or on an aarch64 host the native one.
AARCH64_FALLBACK_BIN := $(if $(filter aarch64,$(HOST_ARCH)),build/skyisles,build-aarch64/skyisles)
AARCH64_RELEASE_BIN := $(if $(RELEASE_SYSROOT),$(RELEASE_BUILD)/skyisles,$(AARCH64_FALLBACK_BIN))

# Tests of the platform layer link its plain-C parts (no SDL) with core.
TEST_LINK_platform = $(BUILD)/obj/platform/console.o $(BUILD)/obj/platform/signals.o $(LIBCHAIN_core)

.PHONY: install install-service dist dist-aarch64 portmaster sysroot release-aarch64 boot-test

install: $(BUILD)/skyisles
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/controllers $(DESTDIR)$(DOCDIR)/licenses
	install -m 0755 $(BUILD)/skyisles $(DESTDIR)$(BINDIR)/skyisles
	install -m 0644 assets/controllers/gamecontrollerdb.txt assets/controllers/LICENSE.gamecontrollerdb \
	  assets/controllers/SOURCE $(DESTDIR)$(DATADIR)/controllers/
	install -m 0644 LICENSE README.md $(DESTDIR)$(DOCDIR)/
	install -m 0644 platform/licenses/* assets/controllers/LICENSE.gamecontrollerdb $(DESTDIR)$(DOCDIR)/licenses/

# The user, the unit pointing at BINDIR/skyisles, enabled (into DESTDIR's system when given).
install-service:
	@bash platform/pi/install-service.sh $(if $(DESTDIR),--root $(DESTDIR)) $(BINDIR)/skyisles

dist: $(BUILD)/skyisles
	@bash tools/delivery/dist.sh $(BUILD)/skyisles $(TARGET_ARCH_NAME) $(VERSION) $(DIST_DIR)

# The aarch64 game a release ships (see the top of this file).
release-aarch64:
ifneq ($(RELEASE_SYSROOT),)
	@if [ ! -d $(RELEASE_SYSROOT)/usr/include ]; then \
	   bash tools/deps.sh sysroot && bash tools/delivery/sysroot.sh $(RELEASE_SUITE) $(RELEASE_SYSROOT) || exit 1; \
	 fi
	+@$(MAKE) --no-print-directory CROSS_COMPILE=aarch64-linux-gnu- SYSROOT=$(abspath $(RELEASE_SYSROOT)) \
	   BUILD=$(RELEASE_BUILD) SANITIZE= YAML_LIBS="$(RELEASE_YAML_LIBS)" $(RELEASE_BUILD)/skyisles
else ifeq ($(HOST_ARCH),aarch64)
	+@$(MAKE) --no-print-directory CROSS_COMPILE= SYSROOT= BUILD=build SANITIZE= build/skyisles
else
	+@$(MAKE) --no-print-directory CROSS_COMPILE=aarch64-linux-gnu- SYSROOT= BUILD=build-aarch64 SANITIZE= build-aarch64/skyisles
endif

sysroot:
	@bash tools/deps.sh sysroot
	@bash tools/delivery/sysroot.sh $(RELEASE_SUITE) $(RELEASE_SYSROOT)

dist-aarch64: release-aarch64
	@bash tools/delivery/dist.sh $(AARCH64_RELEASE_BIN) aarch64 $(VERSION) $(DIST_DIR)
	@echo "skyisles: the aarch64 game needs glibc $$(bash tools/delivery/glibc_floor.sh $(AARCH64_RELEASE_BIN)) or newer"

# The screenshot is rendered by the native build (quick); the zip holds the aarch64 game.
portmaster: release-aarch64
	@bash tools/deps.sh delivery
	+@$(MAKE) --no-print-directory CROSS_COMPILE= SYSROOT= BUILD=build SANITIZE= build/skyisles
	@bash tools/delivery/portmaster.sh $(AARCH64_RELEASE_BIN) build/skyisles "" $(VERSION) $(PORTMASTER_DIR)

# Minutes, a Debian mirror and root (for the image's owners and binfmt); docs/pi.md.
boot-test: dist-aarch64
	@bash tools/deps.sh boot
	@bash tools/delivery/boot_test.sh $(DIST_DIR)/skyisles-$(VERSION)-aarch64.tar.gz build-boot

# ---------------------------------------------------------------------------
# make test's delivery stage (mk/test.mk runs it). It uses the release sysroot when it is there
# already (make sysroot) and otherwise the multiarch cross build that the aarch64 stage made, so
# a fresh machine needs no Debian download for it. Its build only packs what the native and the
# aarch64 stages built (they come first: the packing makes would otherwise build the same files
# beside them).
DELIVERY_SYSROOT := $(if $(wildcard $(RELEASE_SYSROOT)/usr/include),$(RELEASE_SYSROOT))
TEST_STAGE_NAMES += delivery
STAGE_LABEL_delivery := delivery
STAGE_DIR_delivery := build
STAGE_AFTER_delivery := native $(if $(filter aarch64,$(HOST_ARCH)),,aarch64)
STAGE_NOTE_delivery := $(if $(DELIVERY_SYSROOT),,[delivery] no release sysroot ($(RELEASE_SYSROOT)): checking $(AARCH64_FALLBACK_BIN) instead (make sysroot builds against Debian 11))
STAGE_MAKE_delivery := dist-aarch64 portmaster RELEASE_SYSROOT=$(DELIVERY_SYSROOT) VERSION=$(VERSION) >/dev/null
STAGE_PROGS_delivery := tests/delivery/test_delivery.sh
STAGE_ENV_delivery := DELIVERY_DIST=$(DIST_DIR)/skyisles-$(VERSION)-aarch64.tar.gz DELIVERY_ZIP=$(PORTMASTER_DIR)/skyisles.zip \
  DELIVERY_RUNNER=$(AARCH64_RUNNER) DELIVERY_STATIC_YAML=$(if $(DELIVERY_SYSROOT),1,0)
