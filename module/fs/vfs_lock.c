// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * POSIX record locks on the backing file for SMB byte-range locks
 * (see lock.h): the VFS side, kept with the other vfs_* callers' rules.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include "file.h"
#include "lock.h"

int ksmbd_vfs_posix_lock(struct ksmbd_file *fp, void *owner, u64 start,
			 u64 end, int type)
{
	struct file_lock fl;
	int ret;

	if (!fp->filp || start > OFFSET_MAX || end > OFFSET_MAX || end < start)
		return -EINVAL;
	locks_init_lock(&fl);
	fl.fl_owner = owner;
	fl.fl_pid = current->tgid;
	fl.fl_file = fp->filp;
	fl.fl_flags = FL_POSIX;
	fl.fl_type = type;
	fl.fl_start = start;
	fl.fl_end = end;
	/* F_SETLK: never sleeps; a conflicting local lock is -EAGAIN. */
	ret = vfs_lock_file(fp->filp, F_SETLK, &fl, NULL);
	locks_release_private(&fl);
	return ret;
}
