# World additions: the threaded streaming test also runs under ThreadSanitizer.
TSAN_TESTS += test_world_stream
