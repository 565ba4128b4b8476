# skyisles noise: build flags for src/noise (included by the Makefile).
# The SIMD kernels are long straight-line blocks with many live vectors; GCC's first
# scheduling pass with register-pressure awareness (off by default on x86) keeps them out
# of spills: about 10-20% less time per sample on SSE2, AVX2 and the plain C path. It only
# reorders instructions, so results are unchanged (tests/test_noise* check every path).
NOISE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard src/noise/*.c))
$(NOISE_OBJS): CFLAGS += -fschedule-insns -fsched-pressure
# The kernels exceed GCC's variable-tracking limit for debug info (it prints a note and retries
# without); ask for the cheaper debug info up front so the build stays quiet.
$(NOISE_OBJS): CFLAGS += -fno-var-tracking-assignments
