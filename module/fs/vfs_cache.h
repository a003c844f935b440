/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the page cache holds of a file: whether a read would wait for the
 * disk (the receive thread serves READs that would not, conn/work.c).
 */
#ifndef KSMBD_VFS_CACHE_H
#define KSMBD_VFS_CACHE_H

#include <linux/types.h>

struct file;

/*
 * Every page from pos to the end of the len bytes (or of the file) is in
 * the page cache and up to date, on a file system that serves reads from
 * it without asking anyone. A range at or past the end: true.
 */
bool ksmbd_vfs_range_cached(struct file *filp, loff_t pos, u32 len);

#endif
