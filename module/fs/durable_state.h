/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Durable handles v1 (DHnQ/DHnC) and v2 (DH2Q/DH2C), MS-SMB2 3.3.5.9.6,
 * .7, .10, .12 and 3.3.7.1. Not persistent handles.
 *
 * A handle is made durable after its CREATE granted a batch oplock or a
 * lease with handle caching. When its connection drops (not on LOGOFF or
 * TREE_DISCONNECT) the session teardown leaves it in the file table,
 * "disconnected": session_id and tree_id become 0 so no lookup finds it,
 * its byte-range locks, share modes and oplock or lease stay.
 *
 * States, changed only under the file table's lock (file.c):
 *   ATTACHED  - an ordinary handle of a live session and tree;
 *   ORPHAN    - disconnected, still holding its old tree (so session and
 *               connection): requests of the dead connection may still
 *               hold the handle and use fp->tree;
 *   DETACHED  - disconnected, holding nothing of the old connection: the
 *               scavenger moved it here once the table's reference was the
 *               last one (nobody can take another without the table's
 *               lock), dropping the tree and pointing the oplock owner at
 *               an always-exiting placeholder connection;
 *   BUSY      - claimed: by a reconnect that is checking it, or by the
 *               scavenger detaching or closing it. A reconnect that meets
 *               it waits for the claim to end (durable.c claim_settled()).
 * The scavenger (a delayed work, armed while any handle is disconnected)
 * closes disconnected handles whose timeout passed, like a CLOSE: locks,
 * share modes, delete-on-close and the owner go with the last put. A
 * reconnect by the same user on a new connection claims the handle,
 * checks it, and attaches it to the new session and tree with the same
 * FileId. Server stop closes them all and keeps no more.
 */
#ifndef KSMBD_DURABLE_STATE_H
#define KSMBD_DURABLE_STATE_H

#include <linux/types.h>
#include <linux/uidgid.h>
#include "uapi/ksmbd_netlink.h"

struct ksmbd_file;

/*
 * Timeouts: v1 handles and v2 ones that ask for 0 get the default; a v2
 * request gets at most the maximum (Windows' and Samba's 300 s).
 */
#define KSMBD_DURABLE_TIMEOUT_S		60
#define KSMBD_DURABLE_MAX_TIMEOUT_S	300

enum ksmbd_durable_state {
	KSMBD_DH_S_ATTACHED,
	KSMBD_DH_S_ORPHAN,
	KSMBD_DH_S_DETACHED,
	KSMBD_DH_S_BUSY,
};

struct ksmbd_durable {
	enum ksmbd_durable_state state;	/* file.c's table lock */
	enum ksmbd_durable_state claimed_from;
	bool v2;
	u8 create_guid[16];
	u8 client_guid[16];
	u32 timeout_ms;
	unsigned long expires;		/* jiffies, once disconnected */
	u64 old_session_id;		/* for the trace events */
	kuid_t uid;			/* the opener: only it may reconnect */
	char account[KSMBD_REQ_MAX_ACCOUNT_NAME_SZ];
	char share[KSMBD_REQ_MAX_SHARE_NAME];
};

/*
 * The durable policy the file table asks at teardown, at a conflicting
 * open and when a handle becomes disconnected (durable.c registers it at
 * load, ksmbd_file_durable_policy(); file.c reaches durable.c only so).
 */
struct ksmbd_durable_policy {
	/* Teardown of fp's session by a dropped connection: keep fp? */
	bool (*keep)(const struct ksmbd_file *fp);
	/*
	 * An open of fp (overwriting or not) would break the caching of
	 * other, a handle of the same inode, and other is durable: when
	 * disconnected, it is closed instead (MS-SMB2 3.3.4.6,
	 * ksmbd_file_durable_purge()). Reads other without the table's
	 * lock: the purge checks again under it.
	 */
	bool (*purges)(const struct ksmbd_file *other,
		       const struct ksmbd_file *fp, bool overwrite);
	/* fp has just been disconnected (under the table's lock). */
	void (*disconnected)(struct ksmbd_file *fp);
	/* The handle's timeout in jiffies. */
	unsigned long (*timeout)(const struct ksmbd_file *fp);
};

#endif /* KSMBD_DURABLE_STATE_H */
