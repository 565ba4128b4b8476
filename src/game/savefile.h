/* skyisles save files: what the game writes into its config folder (settings, Continue,
 * screenshots) goes through one atomic writer: a temporary file beside the target, synced,
 * renamed over it, the folder synced. A failure leaves the old file and no temporary one. */
#ifndef SKYISLES_GAME_SAVEFILE_H
#define SKYISLES_GAME_SAVEFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

/* Makes DIR and every missing folder above it (0755); false with errno when one cannot be. */
bool save_make_dirs(const char *dir);
/* Writes DIR/NAME (DIR made when missing). `what` names it in err's one line. */
bool save_file_atomic(const char *dir, const char *name, const void *data, size_t len, const char *what,
                      SkyError *err);
/* Can files be written in DIR (or, when it is not there yet, made in the nearest folder above
 * it)? False on a read-only file system or a folder the game may not write; `why` says which. */
bool save_dir_writable(const char *dir, char *why, size_t why_n);
/* Test seam: the next writes fail with "no space left" once `bytes` more have been written
 * (SIZE_MAX: never, the default). */
void save_fail_after(size_t bytes);

#endif
