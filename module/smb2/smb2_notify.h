/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CHANGE_NOTIFY watches (smb2_notify.c): the file table's close hook and
 * module exit. The handler itself is declared in smb2_dispatch.h.
 */
#ifndef KSMBD_SMB2_NOTIFY_H
#define KSMBD_SMB2_NOTIFY_H

struct inode;
struct ksmbd_file;

/*
 * fp left the file table: its waiting CHANGE_NOTIFYs end with
 * STATUS_NOTIFY_CLEANUP and its watch goes. Idempotent.
 */
void ksmbd_notify_file_closed(struct ksmbd_file *fp);
/* A handle of delete-pending directory inode closed. */
void ksmbd_notify_dir_deleted(struct inode *inode);
/* For the file table (main.c registers it): the two above. */
extern struct ksmbd_file_hooks ksmbd_notify_file_hooks;
int ksmbd_notify_init(void);
/* Module exit, after every connection is gone. */
void ksmbd_notify_exit(void);

#endif
