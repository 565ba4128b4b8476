# skyisles text (included by the Makefile): the Japanese rows and the glyphs they use, generated
# at build time from assets/text/ja.yaml, the codex's Japanese names and Debian's Misaki font by
# the host tool tools/text/textgen.c (run on the build machine, so built with the host compiler),
# into one object of the core library.
HOSTCC ?= gcc
MISAKI_TTF ?= /usr/share/fonts/truetype/misaki/misaki_gothic.ttf
TEXT_JA := assets/text/ja.yaml
TEXT_CODEX_JA := assets/codex/locale_ja.yaml
# The island names are packed in every language; their Japanese glyphs are built in.
TEXT_CODEX_NAMES := assets/codex/archipelago.yaml
TEXT_CODEX_CHECK := $(BUILD)/gen/codex_ja.checked
TEXT_GEN_C := $(BUILD)/gen/text_ja.c
TEXT_GEN_O := $(BUILD)/obj/$(BUILD)/gen/text_ja.o

$(BUILD)/host/textgen: tools/text/textgen.c src/core/text_rows.h
	@mkdir -p $(dir $@)
	$(say) HOSTCC $<
	$(Q)$(HOSTCC) -std=c11 -O1 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -Isrc -o $@ $< -lyaml -lm

# The packer reads the codex with the Japanese names as it reads the English: every location type
# and variant named, one line per missing name (file, line, id). Its pack is thrown away.
$(TEXT_CODEX_CHECK): $(ISLAND_CODEX) $(TEXT_CODEX_JA) $(ISLAND_HOST_PACK)
	@mkdir -p $(dir $@)
	$(say) CHECK $(TEXT_CODEX_JA)
	$(Q)$(ISLAND_HOST_PACK) -o $@.pak $(ISLAND_CODEX) $(TEXT_CODEX_JA)
	@rm -f $@.pak
	@touch $@

$(TEXT_GEN_C): $(BUILD)/host/textgen $(TEXT_JA) $(TEXT_CODEX_JA) $(TEXT_CODEX_NAMES) src/core/text_rows.h mk/text.mk
	@mkdir -p $(dir $@)
	$(say) TEXT $@
	$(Q)$(BUILD)/host/textgen $@ $(MISAKI_TTF) $(TEXT_JA) $(TEXT_CODEX_JA) $(TEXT_CODEX_NAMES)

$(BUILD)/lib/libsk_core.a: $(TEXT_GEN_O)
# The check after the build of the packer (which links core, so it cannot come before the text).
$(BUILD)/skyisles: $(TEXT_CODEX_CHECK)
