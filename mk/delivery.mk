# skyisles delivery (included by the Makefile): the three ways people get skyisles and their checks.

# Tests of the platform layer link its plain-C parts (no SDL) with core.
TEST_LINK_platform = $(BUILD)/obj/platform/console.o $(BUILD)/obj/platform/signals.o $(LIBCHAIN_core)
