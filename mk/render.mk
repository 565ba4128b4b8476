# skyisles renderer additions (included by the Makefile): the build-time packer that embeds
# shaders_es2/ and packs the aircraft model, and the libraries the GL side needs.

# The packer runs on the build machine, so it is built with the host compiler even when
# cross-compiling.
HOSTCC ?= gcc
RENDER_SHADERS := $(sort $(wildcard shaders_es2/*.vert shaders_es2/*.frag shaders_es2/*.glsl))
RENDER_MODEL := assets/models/aircraft.txt
RENDER_DATA_C := $(BUILD)/gen/render_data.c
RENDER_DATA_O := $(BUILD)/obj/$(BUILD)/gen/render_data.o

$(BUILD)/host/render_pack: src/render/pack/render_pack.c
	@mkdir -p $(dir $@)
	$(say) HOSTCC $<
	$(Q)$(HOSTCC) -std=c11 -O1 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -o $@ $< -lm

$(RENDER_DATA_C): $(BUILD)/host/render_pack $(RENDER_MODEL) $(RENDER_SHADERS) mk/render.mk
	@mkdir -p $(dir $@)
	$(say) PACK $@
	$(Q)$(BUILD)/host/render_pack $@ $(RENDER_MODEL) $(RENDER_SHADERS)

$(RENDER_DATA_O): CFLAGS += $(SDL_CFLAGS)
$(BUILD)/lib/libsk_gl.a: $(RENDER_DATA_O)

# `make shaders-check`: the text each program's stages hand to the GPU (file + prelude +
# defines, assembled by the renderer's own function) validated as ESSL 1.00 by glslangValidator,
# with the precision rules; this is tests/test_render_shaders.c, which needs no display.
shaders-check: $(BUILD)/tests/test_render_shaders
	@$(BUILD)/tests/test_render_shaders
