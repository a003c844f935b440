/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Between vfs.c and vfs_stat.c. */
#ifndef KSMBD_VFS_INT_H
#define KSMBD_VFS_INT_H

struct path;

/* A mountpoint on the way: step into what is mounted there (vfs.c). */
void ksmbd_vfs_cross_mounts(struct path *p);

#endif
