/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Oplocks (level II, exclusive, batch) and leases v1/v2 (MS-SMB2 3.3.1.4,
 * 3.3.4.6, 3.3.4.7, 3.3.5.9.8, 3.3.5.9.11, 3.3.5.22).
 *
 * Model: an "owner" holds caching rights on one inode. An oplock owner
 * belongs to exactly one handle; a lease owner is shared by every handle
 * a client (ClientGuid) opened with the same lease key. Both keep their
 * rights as lease bits (R, H, W): level II = R, exclusive = RW,
 * batch = RWH, so one break engine serves both; the wire level is
 * derived from the bits at the edges.
 *
 * Locking and lifetime, by construction:
 *  - One mutex (oplock.c's owner_lock) guards every owner, the per-inode
 *    hash, the lease-key hash and ksmbd_file.oplock. Owners are created,
 *    changed, unhashed and freed only under it; nothing else points to
 *    them. A handle's link is cut in ksmbd_oplock_release() (its last
 *    put), under the same lock, so a break can never reach a freed
 *    handle or owner: break notifications are built from copies of the
 *    ids taken under the lock, and sent after it is dropped on a counted
 *    connection reference.
 *  - Nothing sleeps on I/O under owner_lock. The lock may be taken with
 *    no other ksmbd lock held, and file.c's share lock nests inside it
 *    (open counts), never the other way round.
 *  - An open that must wait for an acknowledgement waits without any
 *    lock, in short slices, re-checking: an acknowledgement, a close of
 *    the handle, a dropped connection (its teardown closes the handle;
 *    after a short grace the break resolves anyway) or the break timeout
 *    (the owner goes to none, MS-SMB2 3.3.2.1) each end the wait.
 *    Acknowledgements arrive as ordinary requests on another work item
 *    and take only owner_lock, so they never depend on the waiting
 *    worker. At most KSMBD_OPLOCK_MAX_WAITERS opens wait at a time (half
 *    of the io workqueue's concurrency): beyond that an open downgrades
 *    the owners it waits for at once instead of holding a worker, so
 *    waiting opens can never starve the acknowledgements.
 *
 * Switching the waiting open to an async (STATUS_PENDING) completion
 * later only replaces wait_for_breaks() in oplock.c: the break state
 * (breaking, break_to, deadline) already lives in the owner.
 */
#ifndef KSMBD_OPLOCK_H
#define KSMBD_OPLOCK_H

#include <linux/types.h>
#include "proto/buf.h"

struct inode;
struct ksmbd_file;
struct ksmbd_caller;
struct ksmbd_conn;
struct ksmbd_smb2_ctx;
enum ksmbd_smb2_verdict;

/* Lease state bits (MS-SMB2 2.2.13.2.8). */
#define KSMBD_LEASE_R		0x1
#define KSMBD_LEASE_H		0x2
#define KSMBD_LEASE_W		0x4
#define KSMBD_LEASE_RWH		0x7

/* Lease flags (2.2.13.2.8, 2.2.14.2.10). */
#define KSMBD_LEASE_FLAG_BREAK_IN_PROGRESS	0x2
#define KSMBD_LEASE_FLAG_PARENT_KEY_SET		0x4

/* Lease break notification flag (2.2.23.2). */
#define KSMBD_LEASE_BREAK_ACK_REQUIRED		0x1

#define KSMBD_LEASE_V1_SIZE	32
#define KSMBD_LEASE_V2_SIZE	52

/* Default break acknowledgement timeout (MS-SMB2 3.3.2.1: 35 s). */
#define KSMBD_OPLOCK_BREAK_TIMEOUT_S	35
#define KSMBD_OPLOCK_MAX_WAITERS	64

/* A CREATE's request: oplock level and/or lease context, decoded. */
struct ksmbd_oplock_req {
	u8 level;			/* RequestedOplockLevel */
	bool lease;			/* a usable RqLs context */
	u8 version;			/* 1 or 2 */
	u8 key[16];
	u8 parent_key[16];
	u32 state;			/* requested lease state */
	u32 flags;
	u16 epoch;
};

/* What CREATE's response carries. */
struct ksmbd_oplock_grant {
	u8 level;			/* OplockLevel; 0xff with a lease */
	bool lease;			/* answer with an RqLs context */
	u8 version;
	u8 key[16];
	u8 parent_key[16];
	u32 state;
	u32 flags;
	u16 epoch;
};

/*
 * Decode CREATE's RequestedOplockLevel and RqLs context data (NULL when
 * absent) for the connection's dialect. Unusable lease data is ignored
 * as MS-SMB2 3.3.5.9.8 says (no lease granted), never an error.
 */
void ksmbd_oplock_decode(const struct ksmbd_caller *caller, u8 level,
			 const struct ksmbd_buf *lease,
			 struct ksmbd_oplock_req *rq);

/*
 * CREATE, before anything is created or opened: a lease key the client
 * holds on another file (inode: the file found, NULL when it is to be
 * created) is refused with -EINVAL, STATUS_INVALID_PARAMETER (MS-SMB2
 * 3.3.5.9.8; smb2.lease.request, duplicate_create, duplicate_open).
 */
int ksmbd_oplock_lease_check(struct ksmbd_caller *caller,
			     const struct ksmbd_oplock_req *rq,
			     const struct inode *inode);
/*
 * CREATE, once the handle has joined the share modes, before any
 * truncation: break the
 * caching rights other owners hold that this open conflicts with (write
 * caching always; handle caching when the share modes conflict; all of
 * it on overwrite) and wait for the acknowledgements. Opens for
 * attributes only break nothing. A lone request that waits goes async
 * (ksmbd_smb2_go_async()); -ECANCELED when a CANCEL ended the wait.
 * spare_gone: owners whose connection is gone and torn down (what they
 * cache belongs to disconnected durable handles) are left as they are
 * and -EAGAIN says so, once the others are broken: the opener closes
 * those handles (MS-SMB2 3.3.4.6) and calls again without it.
 */
int ksmbd_oplock_break_for_open(struct ksmbd_caller *caller,
				struct ksmbd_file *fp,
				const struct ksmbd_oplock_req *rq,
				bool overwrite, bool spare_gone);
/*
 * CREATE whose share-mode check failed: when another owner caches
 * handles (batch oplock, lease with H), its client may only be keeping
 * a closed handle open, so break that caching, wait, and return true
 * for the check to be tried again (MS-FSA 2.1.5.1.2: such owners are
 * broken before a sharing violation; exclusive and level II ones are
 * not, and the open fails without a break: smb2.oplock.exclusive1).
 * 1: broken, try again; 0: nothing to break; -ECANCELED and -EAGAIN
 * (with spare_gone) as above.
 */
int ksmbd_oplock_break_for_share(struct ksmbd_caller *caller,
				  struct ksmbd_file *fp,
				  const struct ksmbd_oplock_req *rq,
				  bool spare_gone);
/*
 * CREATE, once the handle has joined the share modes and is published:
 * grant what can be granted (re-checking, and breaking again, owners that
 * appeared meanwhile) and fill the response's answer. new_data: the open
 * created or truncated the file, which makes even an open for attributes
 * only one that may cache.
 */
void ksmbd_oplock_grant(struct ksmbd_caller *caller, struct ksmbd_file *fp,
			const struct ksmbd_oplock_req *rq, bool new_data,
			struct ksmbd_oplock_grant *out);

/*
 * Data changes through fp (WRITE, truncation, allocation, byte-range
 * lock): other owners lose read caching (level II breaks to none). Does
 * not wait (MS-FSA: level II breaks need no acknowledgement).
 */
void ksmbd_oplock_break_for_write(struct ksmbd_file *fp);
/*
 * Rename or delete through fp: other owners lose handle caching; waits
 * for the acknowledgements, async as for an open (caller may be NULL:
 * synchronously); -ECANCELED when a CANCEL ended the wait.
 */
int ksmbd_oplock_break_for_namespace(struct ksmbd_caller *caller,
				     struct ksmbd_file *fp);
/* SET_INFO: the break the information class calls for, if any. */
int ksmbd_oplock_break_for_setinfo(struct ksmbd_caller *caller,
				   struct ksmbd_file *fp, u8 info_class);

/*
 * An entry of dir changed through an open whose lease v2 context named
 * key (of the client guid; NULL: none) as its ParentLeaseKey: break the
 * directory's leases but that one to none, without waiting.
 */
void ksmbd_oplock_break_parent(struct inode *dir, const u8 *guid,
			       const u8 *key);

/*
 * The owners of inode lose handle caching (their clients close the
 * handles they only keep cached); waits as for an open.
 */
int ksmbd_oplock_break_handles(struct ksmbd_caller *caller,
			       struct inode *inode);

/* ---- Directory leases (oplock_dir.c) ---- */

/* Some directory lease exists (a cheap test before looking for one). */
bool ksmbd_dirlease_any(void);
/*
 * A directory's open asks for a lease: false when it gets none (no v2
 * context, or the connection has no directory leasing); else out is the
 * request with read and handle caching at most.
 */
bool ksmbd_dirlease_request(const struct ksmbd_caller *caller,
			    const struct ksmbd_oplock_req *rq,
			    struct ksmbd_oplock_req *out);
/*
 * A directory lease on dir begins (under owner_lock: its local changes
 * are watched from now on), ends (its owner freed, unlocked).
 */
int ksmbd_dirlease_watch(struct inode *dir);
void ksmbd_dirlease_unwatch(struct inode *dir);
/*
 * CREATE, once granted: fp remembers its ParentLeaseKey; new_data (created
 * or overwritten) breaks its directory's leases.
 */
void ksmbd_dirlease_opened(const struct ksmbd_caller *caller,
			   struct ksmbd_file *fp,
			   const struct ksmbd_oplock_req *rq, bool new_data);
/* fp's entry changed (attributes, times): its directory's leases break. */
void ksmbd_dirlease_entry_changed(const struct ksmbd_file *fp);
/* An entry of dir changed through fp (rename, link): dir's leases break. */
void ksmbd_dirlease_changed(struct inode *dir, const struct ksmbd_file *fp);
/*
 * A rename of dir finds handles open below it: break the handle caching
 * of the directory leases below (clients keep such directories open, the
 * cifs client among them) and wait; > 0 when some were broken, for the
 * check to be made again.
 */
int ksmbd_dirlease_break_below(struct ksmbd_caller *caller,
			       struct dentry *dir);
/* For the file table (main.c): a delete on close, a written handle's close. */
extern struct ksmbd_file_hooks ksmbd_dirlease_file_hooks;
void ksmbd_dirlease_exit(void);

/* The handle's last put: leave its owner (freed with its last handle). */
void ksmbd_oplock_release(struct ksmbd_file *fp);
/*
 * conn closed while sessions it was a channel of live on: the owners
 * whose breaks went to it go to a live channel of their session from
 * now on, a break under way resent there.
 */
void ksmbd_oplock_conn_closed(struct ksmbd_conn *conn);
/* For the file table (main.c registers it): the above at the last put. */
extern struct ksmbd_file_hooks ksmbd_oplock_file_hooks;

/*
 * How a break notification goes out: the SMB2 layer's
 * (smb2_oplock_break.c), registered at load by main.c's objects_init()
 * so that the break engine names no wire code.
 */
struct ksmbd_oplock_wire {
	/*
	 * One notification frame, as session sess_id of conn; called
	 * without locks held. sealed: the owner's session encrypts, so the
	 * frame must go out encrypted or not at all. False when not sent.
	 */
	bool (*send_break)(struct ksmbd_conn *conn, bool lease,
			   bool ack_required, const u8 *key, u64 pid,
			   u64 vid, u64 sess_id, bool sealed, u32 from,
			   u32 to, u16 epoch);
};

void ksmbd_oplock_wire_register(const struct ksmbd_oplock_wire *w);

/* ---- Durable handles (durable.h) ---- */
struct ksmbd_conn;

/*
 * The owner keeps a batch oplock or handle caching and is not being
 * broken (the handle may stay durable when its connection drops).
 */
bool ksmbd_oplock_durable_ok(const struct ksmbd_file *fp);
/* An open through fp would break the caching of the handle durable. */
bool ksmbd_oplock_durable_breaks(const struct ksmbd_file *durable,
				 const struct ksmbd_file *fp, bool overwrite);
/* The placeholder connection of detached owners (always exiting). */
struct ksmbd_conn *ksmbd_oplock_nowhere(void);
/* Breaks of fp's owner go to conn (the placeholder when disconnected). */
void ksmbd_oplock_durable_move(struct ksmbd_file *fp, struct ksmbd_conn *conn,
			       u64 sess_id);
/*
 * Reconnect: the request's lease (key, client) or oplock must match fp's
 * owner (-ENOENT), and a lease's name_ok say the request named fp's file
 * (-EINVAL); the owner then belongs to the request's connection; out is
 * the CREATE answer.
 */
int ksmbd_oplock_durable_reclaim(struct ksmbd_caller *caller,
				 struct ksmbd_file *fp,
				 const struct ksmbd_oplock_req *rq,
				 bool name_ok, struct ksmbd_oplock_grant *out);

#endif
