/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by oplock.c (owners, grants, breaks) and smb2_oplock_break.c
 * (notifications on the wire, acknowledgements). Not for other files.
 */
#ifndef KSMBD_OPLOCK_INTERNAL_H
#define KSMBD_OPLOCK_INTERNAL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/stringhash.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct ksmbd_conn;
struct file;
struct inode;

/* Guards every owner, both hashes and ksmbd_file.oplock (see oplock.h). */
extern struct mutex ksmbd_owner_lock;

struct ksmbd_oplock {
	struct hlist_node inode_node;	/* by inode */
	struct hlist_node key_node;	/* leases: by (ClientGuid, key) */
	struct inode *inode;		/* pinned by the handles' files */
	u32 stream;			/* ksmbd_oplock_stream() of the handles */
	struct ksmbd_conn *conn;	/* counted: where breaks are sent */
	u32 nr_handles;
	u32 access, share;		/* union of access, common share modes */

	bool lease;
	u8 version;			/* lease 1 or 2 */
	u8 key[16];
	u8 guid[16];			/* the client's ClientGuid */
	kuid_t uid;			/* the opener's user: a lease is (guid, key, uid) */
	u8 parent_key[16];
	u32 lflags;			/* PARENT_LEASE_KEY_SET */
	bool dir;			/* a directory's lease, watched (oplock_dir.c) */
	u16 epoch;

	/* Oplocks: the one handle, for the notification's FileId. */
	u64 pid, vid, sess_id;
	/*
	 * A handle came on a session that encrypts: every break goes out
	 * encrypted, through an encrypting session, or not at all.
	 */
	bool sealed;

	u32 state;			/* R/H/W bits, also for oplocks */
	bool breaking;			/* waiting for an acknowledgement */
	bool noack_break;		/* oplocks: last break needed no ack */
	u32 break_to;
	u32 need;			/* what waiters leave after break_to */
	u64 break_ns;			/* ktime when the break was sent */
	unsigned long deadline;		/* jiffies */

	struct file *klease;		/* counted: holds our kernel lease */
};

/*
 * Which stream of its file an open caches: 0 for the file's data, else
 * (never 0) its name's hash. Each stream has its own oplocks and leases,
 * as on NTFS (smb2.oplock.batch26, stream1, smb2.lease.request).
 */
static inline u32 ksmbd_oplock_stream(const char *stream)
{
	return stream ? full_name_hash(NULL, stream, strlen(stream)) | 1 : 0;
}

u32 ksmbd_oplock_level_to_bits(u8 level);
u8 ksmbd_oplock_bits_to_level(u32 bits);
u64 ksmbd_oplock_trace_id(const struct ksmbd_oplock *o);
/*
 * Under the lock: the client's lease with this key, or NULL. The user is
 * part of the key: a ClientGuid is the client's word, and another user
 * naming it neither joins, acknowledges nor breaks-as-self our lease.
 */
struct ksmbd_oplock *ksmbd_lease_find(const u8 *guid, const u8 *key,
				      kuid_t uid);
/* Under the lock: end o's break with the given state, wake waiters. */
void ksmbd_oplock_resolve(struct ksmbd_oplock *o, u32 state);
/*
 * Under the lock: the client acknowledged o's break with state; resolve
 * it and start the further break its waiters need, if any, queueing its
 * notification on notes for ksmbd_oplock_send_notes() once unlocked.
 */
void ksmbd_oplock_acked(struct ksmbd_oplock *o, u32 state,
			struct list_head *notes);
void ksmbd_oplock_send_notes(struct list_head *notes);
/* Under the lock: queue the break o has under way again (a new path). */
void ksmbd_oplock_resend(struct ksmbd_oplock *o, struct list_head *notes);
/* Under the lock: fn on every owner. */
void ksmbd_oplock_for_each(void (*fn)(struct ksmbd_oplock *o, void *arg),
			   void *arg);

/*
 * oplock_klease.c, under the lock: take a kernel lease for o (which has
 * read caching) on filp where the file system allows; drop it.
 */
void ksmbd_klease_take(struct ksmbd_oplock *o, struct file *filp);
void ksmbd_klease_drop(struct ksmbd_oplock *o);
/* A local process breaks the kernel lease: break the inode's owners to none, wait. */
void ksmbd_oplock_break_local(struct inode *inode);

/* oplock.c, for oplock_handle.c */
struct ksmbd_file;
struct ksmbd_oplock_grant;
/* What o grants, into the CREATE's answer (oplock_handle.c). */
void ksmbd_oplock_fill_grant(const struct ksmbd_oplock *o,
			     struct ksmbd_oplock_grant *out);
/* A lease request answered with state None (oplock_handle.c). */
void ksmbd_oplock_no_lease_grant(const struct ksmbd_oplock_req *rq,
				 struct ksmbd_oplock_grant *out);
/* An open of fp (overwriting or not) makes the other owners break. */
bool ksmbd_oplock_open_breaks(const struct ksmbd_file *fp, bool overwrite);

#endif
