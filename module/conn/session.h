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
 * A session holds a counted reference on the connection that set it up
 * and is found on it, and on every connection bound to it as a channel
 * (MS-SMB2 3.3.5.5.2, SMB2_SESSION_FLAG_BINDING), each a counted
 * reference too. A connection that closes leaves the session's paths; the
 * session is torn down when its last path is gone. Channel objects (and
 * their signers) live until the session is freed: a request still
 * running on a closed connection may be signing with one.
 */
#ifndef KSMBD_SESSION_H
#define KSMBD_SESSION_H

#include <linux/cred.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include "session_types.h"
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
/*
 * Half-done setups per connection, per peer address and for the server.
 * A connection over its own bound is refused; a peer over its bound, or a
 * server over its own, makes room by ending the oldest half-done setup
 * (of that peer, or of anyone), so no client can keep the others out.
 */
#define KSMBD_SESSION_MAX_PENDING_CONN	4
#define KSMBD_SESSION_MAX_PENDING_PEER	16
#define KSMBD_SESSION_MAX_PENDING	256
/*
 * Paths a session may have had: its own connection and the channels bound
 * to it, closed ones included (Windows: 32; a 33rd binding is
 * INSUFFICIENT_RESOURCES, smbtorture multichannel.generic.num_channels).
 */
#define KSMBD_SESSION_MAX_CHANNELS	32

/* Module exit: every connection, so every session, is gone by then. */
void ksmbd_session_exit(void);

/* Every session in the table, under its lock (the clients listing). */
void ksmbd_session_for_each(void (*fn)(struct ksmbd_session *sess, void *arg),
			    void *arg);

/* Half-done setups on the server now (stats). */
unsigned int ksmbd_session_nr_pending(void);

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
 * Session.ExpirationTime (MS-SMB2 3.3.5.5.3): a Kerberos logon lasts as
 * long as its ticket, secs from now; 0 (NTLM, or no end known): for ever.
 */
static inline void ksmbd_session_set_expiry(struct ksmbd_session *sess,
					    u32 secs)
{
	WRITE_ONCE(sess->expires, secs ? get_jiffies_64() + (u64)secs * HZ : 0);
}

static inline bool ksmbd_session_expired(const struct ksmbd_session *sess)
{
	u64 end = READ_ONCE(sess->expires);

	return end && time_after64(get_jiffies_64(), end);
}

/*
 * A new IN_PROGRESS session in the table for conn. ERR_PTR(-EAGAIN) when
 * the connection or the server has too many, -ESHUTDOWN when the
 * connection is closing.
 */
struct ksmbd_session *ksmbd_session_create(struct ksmbd_conn *conn);

/* IN_PROGRESS -> VALID; -ESHUTDOWN when it was torn down meanwhile. */
int ksmbd_session_activate(struct ksmbd_session *sess);

/*
 * Take it out of the table and release everything it holds; idempotent.
 * why ("logoff", "logon failed", ...) goes to the session_end event.
 */
void ksmbd_session_teardown(struct ksmbd_session *sess, const char *why);

/*
 * SESSION_SETUP succeeded with a PreviousSessionId (MS-SMB2 3.3.5.5.3):
 * when that session (on any connection) is the same user's, tear it down
 * keeping its durable handles for a reconnect; otherwise ignore the id.
 */
void ksmbd_session_end_previous(struct ksmbd_session *sess, u64 prev_id);

/*
 * The connection is going away: it leaves every session it is a path of;
 * those left without a path are torn down (durable handles kept). True
 * when a session it was a path of lives on through another channel.
 */
bool ksmbd_session_conn_closed(struct ksmbd_conn *conn);

/*
 * True when session id is VALID and has a live path (its own connection
 * or a bound channel) other than conn.
 */
bool ksmbd_session_lives_beyond(u64 id, struct ksmbd_conn *conn);

/*
 * A VALID session by id whatever connection it is on (binding), or NULL.
 */
struct ksmbd_session *ksmbd_session_lookup_global(u64 id);
/*
 * Where a lease break of client_guid's lease owned by uid goes: the
 * VALID session of that user (set up by that client) with the client's
 * oldest live connection, its own or a bound channel; the session and
 * *conn counted, or NULL. The ClientGuid alone is only the client's word.
 * With sealed, only sessions that encrypt (ksmbd_sess_encrypts()) count:
 * a break for an encrypting session's lease never goes out in plain text.
 */
struct ksmbd_session *ksmbd_session_find_client(const u8 *client_guid,
						kuid_t uid, bool sealed,
						struct ksmbd_conn **conn);
/*
 * A live path of sess (counted): its own connection, else a bound
 * channel's (MS-SMB2 3.3.4.6/3.3.4.7: a notification may go on any
 * channel of the session); NULL when none is left.
 */
struct ksmbd_conn *ksmbd_session_live_conn(struct ksmbd_session *sess);
/* Is conn one of the session's live paths (its own or a bound channel)? */
bool ksmbd_session_on_conn(struct ksmbd_session *sess,
			   struct ksmbd_conn *conn);
/*
 * Under sess->auth_lock: the channel of conn being bound (created when
 * create is set), or NULL (none, the limit, no memory, or already bound:
 * *bound then says so).
 */
struct ksmbd_channel *ksmbd_channel_pending(struct ksmbd_session *sess,
					    struct ksmbd_conn *conn,
					    bool create, bool *bound);
/* The channel's signer is set: requests on its connection find sess. */
void ksmbd_channel_bind(struct ksmbd_session *sess, struct ksmbd_channel *ch);
/*
 * The signer of sess on conn: a bound channel's own, else the session's
 * (also while a binding is in progress, MS-SMB2 3.3.5.2.4). Valid while
 * the caller holds its session reference.
 */
const struct ksmbd_signer *ksmbd_session_signer(struct ksmbd_session *sess,
						const struct ksmbd_conn *conn);
/*
 * Sign a response element whose length, padding included, is final, and
 * drop the caller's reference on sess. conn NULL: with the session's own
 * key, not conn's channel key.
 */
void ksmbd_session_sign_rsp(struct ksmbd_session *sess,
			    const struct ksmbd_conn *conn, u8 *rsp, u32 len);

/*
 * What the layers above do for a session, registered at load (main.c's
 * objects_init(), before any session exists), so that this layer names
 * none of them.
 */
struct ksmbd_session_hooks {
	/*
	 * The file table: close every file opened through the session
	 * (called once, from ksmbd_session_teardown(), after its trees were
	 * disconnected).
	 */
	void (*close_files)(struct ksmbd_session *sess);
	/* SESSION_SETUP: its exchange state, wiped and freed (NULL ok). */
	void (*auth_free)(struct ksmbd_auth_state *auth);
};

void ksmbd_session_hooks_register(const struct ksmbd_session_hooks *h);

#endif
