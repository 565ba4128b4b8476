/* Test support: counts heap calls made by any thread while counting is on.
 * Every test program links with -Wl,--wrap=malloc,calloc,realloc,free. */
#ifndef SKYISLES_TEST_ALLOC_COUNT_H
#define SKYISLES_TEST_ALLOC_COUNT_H
#include <stdint.h>
void alloc_count_start(void);          /* resets the count and starts counting */
uint64_t alloc_count_stop(void);       /* stops and returns malloc+calloc+realloc calls seen */
#endif
