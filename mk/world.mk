# World additions: the threaded streaming test also runs under ThreadSanitizer.
TSAN_TESTS += test_world_stream

# test_world_far sweeps the collision and tries a restart far out, so the world tests link the
# sim library's chain (an archive: the other world tests pull nothing from it).
TEST_LINK_world = $(LIBCHAIN_sim)
