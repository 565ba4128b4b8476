# skyisles island: the default codex pack, packed at build time from assets/codex/*.yaml by the
# host packer and embedded into the game, every tool, the bench and every test (EMBED_OBJS).
#
# The pack bytes do not depend on the platform, so the packer always runs natively:
#   build/host/pack   the host packer: tools/pack.c + the codex front end (tools/codex), island,
#                     noise, core, WITHOUT EMBED_OBJS.
#                     build/pack (the generic tool, which embeds the default pack) depends on the
#                     pack, the pack on build/host/pack: no cycle.
# In a cross or sanitizer build (BUILD != build) build/host/pack comes from a recursive native
# make, so build-aarch64/skyisles.pak is written by an x86 packer.

# The Japanese names are built into the game (mk/text.mk), not packed: a language added to the
# pack would change its checksum, which every recorded replay and ghost carries.
ISLAND_CODEX_BUILTIN := assets/codex/locale_ja.yaml
ISLAND_CODEX := $(filter-out $(ISLAND_CODEX_BUILTIN),$(sort $(wildcard assets/codex/*.yaml)))
ISLAND_HOST_PACK := build/host/pack
ISLAND_PAK := $(BUILD)/skyisles.pak
ISLAND_EMBED_OBJ := $(BUILD)/obj/island/pak_embed.o

ifeq ($(BUILD)|$(CROSS_COMPILE)|$(SANITIZE),build||)
$(ISLAND_HOST_PACK): $(BUILD)/obj/tools/pack.o $(CODEX_LINK) $(LIBCHAIN_island)
	@mkdir -p $(dir $@)
	$(say) LINK $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(CODEX_LINK) $(LIBCHAIN_island) $(YAML_LIBS) $(LIBM)
else
# Rebuilt when any source it is made of changes; the native make knows the exact rules.
$(ISLAND_HOST_PACK): tools/pack.c $(wildcard src/core/*.[ch] src/noise/*.[ch] src/island/*.[ch] src/world/*.[ch] tools/codex/*.[ch]) mk/island.mk
	+$(MAKE) --no-print-directory BUILD=build CROSS_COMPILE= SANITIZE= SYSROOT= OPT=-O2 \
	  EXTRA_CPPFLAGS= EXTRA_CFLAGS= EXTRA_LDFLAGS= $(ISLAND_HOST_PACK)
	@touch $@
endif

# The pack is replaced only when its bytes change (the stamp records the run), so a relinked
# packer does not relink every binary.
$(ISLAND_PAK).stamp: $(ISLAND_CODEX) $(ISLAND_HOST_PACK)
	@mkdir -p $(dir $@)
	$(say) PACK $(ISLAND_PAK)
	$(Q)$(ISLAND_HOST_PACK) -o $(ISLAND_PAK).new $(ISLAND_CODEX)
	@if cmp -s $(ISLAND_PAK).new $(ISLAND_PAK); then rm -f $(ISLAND_PAK).new; else mv -f $(ISLAND_PAK).new $(ISLAND_PAK); fi
	@touch $@
$(ISLAND_PAK): $(ISLAND_PAK).stamp ;

$(ISLAND_EMBED_OBJ): src/island/pak_embed.S $(ISLAND_PAK)
	@mkdir -p $(dir $@)
	$(say) AS $<
	$(Q)$(CC) $(CFLAGS_BASE) -DSKYISLES_PAK_PATH='"$(ISLAND_PAK)"' -c $< -o $@

EMBED_OBJS += $(ISLAND_EMBED_OBJ)

.PHONY: island-pak
island-pak: $(ISLAND_PAK)
# The field bake's and the strips' long per-cell chains: -O3 (no -ffast-math; -ffp-contract=off
# stays) keeps every IEEE operation as written, so the baked bits are the same as at -O2. Only in
# an -O2 build: the sanitizer stages keep the OPT they chose (-O1).
ifeq ($(OPT),-O2)
ISLAND_BAKE_OBJS := $(BUILD)/obj/src/island/field.o $(BUILD)/obj/src/island/field_grid.o $(BUILD)/obj/src/island/detmath.o $(BUILD)/obj/src/island/strips.o
$(ISLAND_BAKE_OBJS): CFLAGS += -O3
endif
