/* SPDX-License-Identifier: GPL-2.0 */
/* Whole-file reads and atomic replacement, shared by config, userdb and tools. */
#ifndef KSMBD_FILEIO_H
#define KSMBD_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/* A configuration or user database larger than this is certainly not one. */
#define KSMBD_CONFIG_MAX_BYTES	(4u << 20)

/*
 * Reads the regular file @path (at most @max bytes) into a new
 * NUL-terminated buffer. 0, or -errno (-EFBIG when too large).
 */
int ksmbd_read_file(const char *path, size_t max, char **text, size_t *len);

/*
 * Replaces @path with @len bytes of @data: writes a temp file in the same
 * folder with @mode, fsyncs it, renames it over @path and fsyncs the
 * folder, so readers see either the old or the new file. 0 or -errno.
 */
int ksmbd_write_file_atomic(const char *path, const void *data, size_t len,
			    mode_t mode);

#endif
