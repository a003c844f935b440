/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Share configuration as the daemon describes it. Cached by name while
 * trees use it: ksmbd_share_get_config() returns a counted reference,
 * asking the daemon only when no live tree holds that share already; the
 * last ksmbd_share_put() removes it from the cache, so a changed
 * configuration is seen by the next connect after all trees are gone.
 * Everything but refs is read-only after creation.
 */
#ifndef KSMBD_SHARE_H
#define KSMBD_SHARE_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include "uapi/ksmbd_netlink.h"

/* MS-SMB2 does not bound it; we do (NetBIOS-era tools use 80). */
#define KSMBD_SHARE_NAME_MAX	80

struct ksmbd_share {
	refcount_t refs;
	struct list_head node;		/* in the cache, under its lock */
	char name[KSMBD_REQ_MAX_SHARE_NAME];	/* lower case */
	u32 flags;			/* KSMBD_SHARE_FLAG_* */
	char *path;			/* absolute; NULL for the IPC$ pipe share */
	u16 create_mask;
	u16 directory_mask;
	u16 force_create_mode;
	u16 force_directory_mode;
	u32 force_uid;			/* KSMBD_SHARE_INVALID_ID: not forced */
	u32 force_gid;
	/* NUL-separated veto patterns, veto_list_sz bytes (0: none). */
	char *veto_list;
	u32 veto_list_sz;
};

static inline bool ksmbd_share_has(const struct ksmbd_share *s, u32 flag)
{
	return s->flags & flag;
}

static inline bool ksmbd_share_is_pipe(const struct ksmbd_share *s)
{
	return s->flags & KSMBD_SHARE_FLAG_PIPE;
}

/*
 * The share named name (UTF-8, any case, already checked for length and
 * characters by the caller). ERR_PTR(-ENOENT) for an unknown share, or
 * an IPC error (see ipc.h).
 */
struct ksmbd_share *ksmbd_share_get_config(const char *name);
void ksmbd_share_put(struct ksmbd_share *share);

void ksmbd_share_exit(void);

#endif
