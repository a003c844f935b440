/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Durable handles: grant, reconnect, replay, lock sequences and the
 * scavenger. Their states and what they mean: durable_state.h.
 */
#ifndef KSMBD_DURABLE_H
#define KSMBD_DURABLE_H

#include <linux/spinlock.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include "durable_state.h"
#include "proto/validate.h"
#include "uapi/ksmbd_netlink.h"

struct ksmbd_conn;
struct ksmbd_file;
struct ksmbd_caller;
struct ksmbd_oplock_req;
struct ksmbd_oplock_grant;

/* What CREATE answers: DHnQ or DH2Q response context, or nothing. */
struct ksmbd_durable_grant {
	enum ksmbd_durable_kind kind;	/* KSMBD_DH_V1_REQ, _V2_REQ or NONE */
	u32 timeout_ms;
};

/*
 * CREATE, after the oplock grant: make fp durable when rq asks for it and
 * the grant allows it.
 */
void ksmbd_durable_grant(struct ksmbd_caller *caller, struct ksmbd_file *fp,
			 const struct ksmbd_durable_req *rq,
			 const struct ksmbd_oplock_grant *og,
			 struct ksmbd_durable_grant *out);

/*
 * CREATE with DHnC or DH2C: find the disconnected handle and give it to
 * the request's session and tree. A counted fp in *out on success, with
 * the oplock or lease answer in og; else the status to answer. name is
 * the request's (NULL if invalid): a lease's handle must be reopened by
 * its name (INVALID_PARAMETER), an oplock's by anything.
 */
u32 ksmbd_durable_reconnect(struct ksmbd_caller *caller,
			    const struct ksmbd_durable_req *rq,
			    const struct ksmbd_oplock_req *op,
			    const char *name, struct ksmbd_file **out,
			    struct ksmbd_oplock_grant *og);

/*
 * CREATE replay (SMB2_FLAGS_REPLAY_OPERATION with DH2Q): the open this
 * client already made with that CreateGuid, counted, or NULL.
 */
struct ksmbd_file *ksmbd_durable_replay(struct ksmbd_caller *caller,
					const struct ksmbd_durable_req *rq);

/*
 * A CREATE with DH2Q between its start and its answer: a replay of it
 * (same client, same CreateGuid) meanwhile is refused at once with
 * STATUS_FILE_NOT_AVAILABLE (the client tries again later) instead of
 * opening a second time or waiting behind the first's oplock break, as
 * Samba answers (smbtorture smb2.replay.dhv2-pending*-sane).
 */
struct ksmbd_durable_inflight {
	struct list_head node;
	u8 client_guid[16];
	u8 create_guid[16];
};

/*
 * Enter CREATE's DH2Q (nothing for other kinds) in flight; -EBUSY when
 * the client has one in flight under that CreateGuid, or, for a request
 * that is no replay, an open still replayable under it (MS-SMB2 3.3.5.9.10:
 * STATUS_DUPLICATE_OBJECTID, smb2.replay.replay6). Before
 * ksmbd_durable_replay(): the first leaves the table only once its
 * handle is found by CreateGuid, so a replay sees one or the other.
 */
int ksmbd_durable_inflight_begin(struct ksmbd_caller *caller,
				 const struct ksmbd_durable_req *rq,
				 struct ksmbd_durable_inflight *in);
void ksmbd_durable_inflight_end(struct ksmbd_durable_inflight *in);

/*
 * The answer to that replay (MS-SMB2 3.3.5.9.10): a lease request must
 * name fp's own lease, by the client that holds it (ACCESS_DENIED
 * otherwise), and gets its state now; an oplock request gets the level
 * it asks for, as the first answer did, with the durable context only
 * when that level could have made the open durable (BATCH), as Samba
 * answers. Breaks then go to the replaying connection.
 */
u32 ksmbd_durable_replay_grant(struct ksmbd_caller *caller,
			       struct ksmbd_file *fp,
			       const struct ksmbd_oplock_req *op,
			       struct ksmbd_oplock_grant *og,
			       struct ksmbd_durable_grant *dh);

/*
 * LOCK on a durable handle of a 3.x connection, or on any handle of a
 * connection that negotiated multichannel: true when LockSequence
 * repeats the last successful one of its index (answer SUCCESS without
 * locking again); otherwise its slot is invalidated until
 * ksmbd_durable_lock_done() records the success.
 */
bool ksmbd_durable_lock_replayed(struct ksmbd_caller *caller,
				 struct ksmbd_file *fp, u32 lock_sequence);
void ksmbd_durable_lock_done(struct ksmbd_caller *caller, struct ksmbd_file *fp,
			     u32 lock_sequence);

/* What the file table asks of durable handles (durable_state.h). */
extern const struct ksmbd_durable_policy ksmbd_durable_policy;

/*
 * Transport start / stop: stop closes every disconnected handle and keeps
 * no more; called before the transport waits for its connections and
 * again after (a handle kept by a teardown racing with the first call is
 * closed by the scavenger meanwhile, so the wait ends).
 */
void ksmbd_durable_start(void);
void ksmbd_durable_stop(void);

#endif
