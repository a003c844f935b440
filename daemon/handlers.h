/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ksmbd.mountd answers to the kernel: one handler per netlink event,
 * working on payload bytes only (no sockets), so that each is unit-tested
 * on the host. netlink.c moves the bytes; mountd.c owns the loop.
 *
 * Every kernel message is validated before a field is used (sizes against
 * the struct and the attribute, strings NUL-terminated inside their
 * arrays): the kernel is trusted, but a mismatch must cost one log line,
 * not the daemon.
 */
#ifndef KSMBD_MOUNTD_HANDLERS_H
#define KSMBD_MOUNTD_HANDLERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <syslog.h>

#include "config.h"
#include "userdb.h"
#include "rpc/rpc_backend.h"

/* Open pipes at most: a client opening pipes forever is refused. */
#define MOUNTD_MAX_PIPES	256
/* Tree connections remembered for "max connections" per share. */
#define MOUNTD_MAX_TREES	8192

struct rpc_pipe;

struct mountd_pipe {
	uint32_t id;			/* the kernel's pipe id */
	struct rpc_pipe *pipe;
};

struct mountd_tree {
	uint64_t session_id;
	uint64_t tree_id;
	char share[KSMBD_SHARE_NAME_SZ];
};

struct mountd_state {
	struct ksmbd_config *cfg;	/* owned */
	struct ksmbd_userdb *db;	/* owned */
	struct rpc_backend rpc;		/* over cfg and db (rpc_adapter.c) */
	struct mountd_pipe pipes[MOUNTD_MAX_PIPES];
	size_t npipes;
	struct mountd_tree *trees;
	size_t ntrees, trees_cap;
	bool spnego_warned;
};

/* A message for the kernel; type 0 means "nothing to send". */
struct mountd_reply {
	unsigned int type;
	uint8_t *data;			/* malloc'd */
	size_t len;
};

/* Takes ownership of @cfg and @db. */
void mountd_state_init(struct mountd_state *st, struct ksmbd_config *cfg,
		       struct ksmbd_userdb *db);
/* New configuration (SIGHUP): open pipes and trees stay. */
void mountd_state_replace(struct mountd_state *st, struct ksmbd_config *cfg,
			  struct ksmbd_userdb *db);
/* The module went away: close every pipe, forget every tree. */
void mountd_state_reset(struct mountd_state *st);
void mountd_state_free(struct mountd_state *st);

/*
 * Handles one kernel message of event @type. 0 with *@reply filled (type 0
 * when there is no answer), -EINVAL when the message is malformed or not
 * one the kernel sends (dropped, logged), -ENOMEM.
 */
int mountd_handle(struct mountd_state *st, unsigned int type,
		  const void *data, size_t len, struct mountd_reply *reply);

/* STARTING_UP for this configuration. 0, -E2BIG (interface list), -ENOMEM. */
int mountd_build_startup(const struct ksmbd_config *cfg,
			 struct mountd_reply *out);
/*
 * Checks a STARTING_UP_RESPONSE: 0 when the module accepted us, its
 * negative status otherwise, -EINVAL when malformed. On -EPROTO,
 * *@abi_version tells what the module speaks.
 */
int mountd_parse_startup_response(const void *data, size_t len,
				  uint32_t *abi_version);
/* Wipes (answers can hold a password hash) and frees. */
void mountd_reply_free(struct mountd_reply *r);

/* The server's SID sub-authorities, stable for a given name pair. */
void mountd_server_sid(const struct ksmbd_global *g, uint32_t sub[3]);
/* Trees currently connected to @share (case-insensitive). */
unsigned int mountd_share_trees(const struct mountd_state *st,
				const char *share);

/* rpc_adapter.c: fills st->rpc with callbacks over st's config and db. */
void mountd_rpc_backend_init(struct mountd_state *st);

/*
 * Logging: stderr ("ksmbd.mountd: ...") in the foreground, syslog
 * otherwise; LOG_DEBUG lines only with -v.
 */
void mountd_log_init(bool to_stderr, bool debug);
void mountd_log(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
