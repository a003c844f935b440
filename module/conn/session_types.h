/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's structures (session.h says how they live), with the key
 * state they embed: a signer per session and per channel (signing.h), the
 * cipher keys (smb2_transform.h). Signing and encryption run on these
 * fields below the session table, and the table calls them, so the
 * structures sit apart from both, including nothing of this module's but
 * the netlink ABI.
 */
#ifndef KSMBD_SESSION_TYPES_H
#define KSMBD_SESSION_TYPES_H

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include "uapi/ksmbd_netlink.h"

struct crypto_aead;
struct crypto_shash;
struct ksmbd_auth_state;
struct ksmbd_conn;

/* A signing key in use (signing.h). */
struct ksmbd_signer {
	struct crypto_shash *tfm;	/* keyed HMAC/CMAC; NULL: none */
	struct crypto_aead *gmac;	/* keyed gcm(aes) for AES-GMAC */
	struct ksmbd_conn *conn;	/* GMAC's buffers; the session's conn */
	u16 alg;			/* SMB2_SIGNING_* */
};

/* A session's encryption state (MS-SMB2 3.3.1.8 Session.Encrypt*). */
struct ksmbd_sess_crypto {
	struct crypto_aead *enc;	/* ServerOut key; NULL: none */
	struct crypto_aead *dec;	/* ServerIn key */
	u16 cipher;			/* SMB2_ENCRYPTION_* */
	atomic64_t nonce_counter;	/* never reused within the session */
	u8 nonce_salt[4];
	bool encrypt_data;		/* Session.EncryptData: we asked for it */
	bool reject_unencrypted;	/* "smb3 encryption = required" */
	bool tree_encrypts;		/* a tree connect answered ENCRYPT_DATA */
	bool client_encrypts;		/* a request came encrypted (-o seal) */
};

/*
 * Does the session encrypt? It has cipher keys and encryption was asked
 * for by us (EncryptData, a tree's ENCRYPT_DATA) or by the client, which
 * sent a request in a transform header: everything the server sends for
 * such a session, unsolicited breaks included, goes out encrypted or not
 * at all. Once true, true for the session's life.
 */
static inline bool ksmbd_sess_encrypts(const struct ksmbd_sess_crypto *c)
{
	return c->enc && (c->encrypt_data || READ_ONCE(c->tree_encrypts) ||
			  READ_ONCE(c->client_encrypts));
}

/*
 * A connection bound to a session (not the one that set it up). Created
 * by the first binding leg; found by requests once bound.
 */
struct ksmbd_channel {
	struct list_head node;		/* on sess->channels */
	struct ksmbd_conn *conn;	/* counted reference */
	bool bound;			/* under chan_lock */
	bool gone;			/* connection closed; under chan_lock */
	/* 3.x: the channel's key (MS-SMB2 3.3.5.5.3); set before bound. */
	struct ksmbd_signer signer;
	/* The binding exchange, under the session's auth_lock. */
	struct ksmbd_auth_state *auth;
	u8 preauth_hash[64];		/* 3.1.1: this connection's chain */
};

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
	/*
	 * When a Kerberos logon's ticket ends (get_jiffies_64()); 0: never.
	 * Set by each successful SESSION_SETUP, read locklessly
	 * (Session.ExpirationTime, MS-SMB2 3.3.5.5.3).
	 */
	u64 expires;
	/* On the age-ordered list of half-done setups while IN_PROGRESS. */
	struct list_head pending_node;

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

	/*
	 * Ended by a reconnect naming it as PreviousSessionId: its durable
	 * handles are kept as when its connection drops (MS-SMB2 3.3.5.5.3).
	 */
	bool keep_durable;

	/* Sign every response and demand signed requests. */
	bool signing_required;
	struct ksmbd_signer signer;	/* valid once VALID */
	struct ksmbd_sess_crypto crypto;	/* cipher keys, EncryptData */
	u8 preauth_hash[64];		/* 3.1.1 Session.PreauthIntegrityHashValue */

	/* Channels: see the top. The lock nests inside the table's. */
	spinlock_t chan_lock;
	struct list_head channels;
	u32 nr_channels;		/* list length, closed ones included */
	bool conn_gone;		/* sess->conn closed; under chan_lock */

	struct ksmbd_auth_state *auth;	/* NTLMSSP exchange; NULL when VALID */

	/* Tree connects by TreeId; each entry owns a tree reference. */
	struct xarray trees;
	u32 next_tree_id;		/* cyclic allocation hint */
	u32 nr_trees;			/* under lock */
	/* Handles charged to it, and to conn (file_limit.c) */
	atomic_t nr_files;

	/* smb2_notify.c's CHANGE_NOTIFY watches held by the session. */
	atomic_t nr_notify;
};

#endif
