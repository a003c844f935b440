/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SMB2 sessions (MS-SMB2 3.3.1.8): one per successful SESSION_SETUP, and
 * one per setup still in progress.
 *
 * Lifetime: every session sits in one global table, keyed by its id, and
 * the table owns one reference. Lookups take the table lock and return a
 * counted reference (or NULL); callers ksmbd_session_put() it. A session
 * leaves the table exactly once, in ksmbd_session_teardown() (LOGOFF, a
 * failed or expired setup, its connection closing, module unload): that
 * marks it EXPIRED (lookups fail from then on), disconnects its trees,
 * closes its files through ksmbd_file_close_session(), and drops the
 * table's reference. Requests already holding a reference keep a valid
 * object until they put it; they see ksmbd_session_valid() turn false.
 *
 * A session holds a counted reference on its connection and is only ever
 * found on that connection (no multichannel).
 */
#ifndef KSMBD_SESSION_H
#define KSMBD_SESSION_H

#include <linux/cred.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include "signing.h"
#include "smb2_transform.h"
#include "uapi/ksmbd_netlink.h"

struct ksmbd_conn;
struct ksmbd_auth_state;

/* Trees one session may have connected at a time. */
#define KSMBD_SESSION_MAX_TREES		256
/*
 * Sessions (valid or in progress) for the server; per connection it is
 * ksmbd_server_conf.max_sessions_per_conn ("max sessions per connection").
 */
#define KSMBD_SESSION_MAX_GLOBAL	4096
/* Half-done setups per connection and for the server. */
#define KSMBD_SESSION_MAX_PENDING_CONN	4
#define KSMBD_SESSION_MAX_PENDING	256
/* A setup not finished in this time is expired to make room. */
#define KSMBD_SESSION_SETUP_TIMEOUT_S	30

enum ksmbd_session_state {
	KSMBD_SESS_IN_PROGRESS,	/* NTLMSSP CHALLENGE sent, AUTHENTICATE due */
	KSMBD_SESS_VALID,	/* authenticated: commands may use it */
	KSMBD_SESS_EXPIRED,	/* torn down; only references remain */
};

struct ksmbd_session {
	refcount_t refs;
	u64 id;				/* SessionId on the wire */
	struct ksmbd_conn *conn;	/* counted reference */
	u16 dialect;			/* the connection's, at setup */

	/* Guards the tree table. */
	struct mutex lock;
	/*
	 * Serializes SESSION_SETUP steps on this session (auth, and the
	 * user fields while a setup fills them in).
	 */
	struct mutex auth_lock;
	/* Changed under the table lock (session.c); read with acquire. */
	enum ksmbd_session_state state;
	unsigned long created;		/* jiffies, for expiring setups */

	/* The user; fixed once VALID (a re-authentication must match it). */
	char account[KSMBD_REQ_MAX_ACCOUNT_NAME_SZ];
	u16 user_flags;			/* KSMBD_USER_FLAG_* from the daemon */
	u16 session_flags;		/* SMB2_SESSION_FLAG_IS_GUEST/IS_NULL */
	kuid_t uid;
	kgid_t gid;
	/*
	 * The user's credentials for VFS calls: override_creds(sess->cred)
	 * around them. Set once the session is VALID; never changes after.
	 */
	const struct cred *cred;

	/* Sign every response and demand signed requests. */
	bool signing_required;
	struct ksmbd_signer signer;	/* valid once VALID */
	struct ksmbd_sess_crypto crypto;	/* cipher keys, EncryptData */
	u8 preauth_hash[64];		/* 3.1.1 Session.PreauthIntegrityHashValue */

	struct ksmbd_auth_state *auth;	/* NTLMSSP exchange; NULL when VALID */

	/* Tree connects by TreeId; each entry owns a tree reference. */
	struct xarray trees;
	u32 next_tree_id;		/* cyclic allocation hint */
	u32 nr_trees;			/* under lock */
	/*
	 * Replaced by a new session of the same user (PreviousSessionId):
	 * torn down as if its connection dropped, durable handles kept.
	 */
	bool replaced;
};

/* Module exit: every connection, so every session, is gone by then. */
void ksmbd_session_exit(void);

/*
 * A VALID session of this connection with this id, or NULL (unknown,
 * another connection's, in progress or torn down).
 */
struct ksmbd_session *ksmbd_session_lookup(struct ksmbd_conn *conn, u64 id);
/* Any state but EXPIRED; for SESSION_SETUP continuing an exchange. */
struct ksmbd_session *ksmbd_session_lookup_any(struct ksmbd_conn *conn, u64 id);

void ksmbd_session_get(struct ksmbd_session *sess);
void ksmbd_session_put(struct ksmbd_session *sess);

static inline bool ksmbd_session_valid(const struct ksmbd_session *sess)
{
	return smp_load_acquire(&sess->state) == KSMBD_SESS_VALID;
}

/*
 * A new IN_PROGRESS session in the table for conn. ERR_PTR(-EAGAIN) when
 * the connection or the server has too many, -ESHUTDOWN when the
 * connection is closing.
 */
struct ksmbd_session *ksmbd_session_create(struct ksmbd_conn *conn);

/* IN_PROGRESS -> VALID; -ESHUTDOWN when it was torn down meanwhile. */
int ksmbd_session_activate(struct ksmbd_session *sess);

/* smb2_session.c: the NTLMSSP exchange state, wiped and freed (NULL ok). */
void ksmbd_auth_state_free(struct ksmbd_auth_state *auth);

/*
 * Take it out of the table and release everything it holds; idempotent.
 * why ("logoff", "logon failed", ...) goes to the session_end event.
 */
void ksmbd_session_teardown(struct ksmbd_session *sess, const char *why);

/*
 * MS-SMB2 3.3.5.5.3: a new session (VALID) names prev_id as its
 * PreviousSessionId; the session of that id, on any connection, is torn
 * down when the same user (not guest, not anonymous) owns it, keeping its
 * durable handles for a reconnect (3.3.7.1). Otherwise nothing happens.
 */
void ksmbd_session_replace_previous(struct ksmbd_session *sess, u64 prev_id);

/* The connection is going away: tear down every session it has. */
void ksmbd_session_conn_closed(struct ksmbd_conn *conn);

/*
 * Implemented by the file table: close every file opened through this
 * session (called once, from ksmbd_session_teardown(), after its trees
 * were disconnected).
 */
void ksmbd_file_close_session(struct ksmbd_session *sess);

#endif
