/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Between the handle table (file.c) and the share modes (file_share.c). */
#ifndef KSMBD_FILE_INT_H
#define KSMBD_FILE_INT_H

#include <linux/types.h>

struct ksmbd_file;

/* What the last open of an entry leaves to delete. */
enum {
	KSMBD_LEAVE_REMOVE_STREAM	= 1,
	KSMBD_LEAVE_REMOVE_FILE		= 2,
};

/*
 * Leave the inode's entry (at the handle's last put); what is to be
 * deleted now that it is left. *pending: the entry left is delete-pending.
 */
int ksmbd_file_share_leave(struct ksmbd_file *fp, bool *pending);
/*
 * Up to max other opens of fp's inode that want() picks (called under the
 * share lock), each with a reference for the caller.
 */
u32 ksmbd_file_share_collect(struct ksmbd_file *fp,
			      bool (*want)(struct ksmbd_file *other, void *arg),
			      void *arg, struct ksmbd_file **found, u32 max);

#endif
