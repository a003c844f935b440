// SPDX-License-Identifier: GPL-2.0
/*
 * Tree connect and disconnect. The access decision is the core library's
 * (ksmbd_share_check_access); what we add is the bookkeeping of connected
 * trees, which "max connections" per share needs and which disconnects
 * undo.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "handlers_int.h"
#include "../module/uapi/ksmbd_netlink.h"

unsigned int mountd_share_trees(const struct mountd_state *st,
				const char *share)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < st->ntrees; i++)
		if (!strcasecmp(st->trees[i].share, share))
			n++;
	return n;
}

static struct mountd_tree *tree_find(struct mountd_state *st, uint64_t sess,
				     uint64_t tree)
{
	size_t i;

	for (i = 0; i < st->ntrees; i++)
		if (st->trees[i].session_id == sess && st->trees[i].tree_id == tree)
			return &st->trees[i];
	return NULL;
}

static int tree_add(struct mountd_state *st, uint64_t sess, uint64_t tree,
		    const char *share)
{
	struct mountd_tree *t;

	if (st->ntrees == st->trees_cap) {
		size_t cap = st->trees_cap ? st->trees_cap * 2 : 16;

		if (cap > MOUNTD_MAX_TREES)
			cap = MOUNTD_MAX_TREES;
		if (cap == st->trees_cap)
			return -ENOSPC;
		t = realloc(st->trees, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		st->trees = t;
		st->trees_cap = cap;
	}
	t = &st->trees[st->ntrees++];
	t->session_id = sess;
	t->tree_id = tree;
	snprintf(t->share, sizeof(t->share), "%s", share);
	return 0;
}

static uint16_t verdict_status(enum ksmbd_tree_verdict v)
{
	switch (v) {
	case KSMBD_TREE_OK:
		return KSMBD_TREE_CONN_STATUS_OK;
	case KSMBD_TREE_NO_SHARE:
		return KSMBD_TREE_CONN_STATUS_NO_SHARE;
	case KSMBD_TREE_DENIED_USER:
		return KSMBD_TREE_CONN_STATUS_INVALID_USER;
	case KSMBD_TREE_DENIED_HOST:
		return KSMBD_TREE_CONN_STATUS_HOST_DENIED;
	case KSMBD_TREE_TOO_MANY:
		return KSMBD_TREE_CONN_STATUS_TOO_MANY_CONNS;
	}
	return KSMBD_TREE_CONN_STATUS_ERROR;
}

/* Status and connection flags for one request. */
static void tree_decide(struct mountd_state *st,
			const struct ksmbd_tree_connect_request *req,
			struct ksmbd_tree_connect_response *r)
{
	const struct ksmbd_share *s = ksmbd_config_find_share(st->cfg, req->share);
	bool guest = req->account_flags & KSMBD_USER_FLAG_GUEST_ACCOUNT;
	bool writable = false, admin = false;
	enum ksmbd_tree_verdict v;

	v = ksmbd_share_check_access(s, req->account, guest, req->peer_addr,
				     &writable, &admin);
	if (v == KSMBD_TREE_OK)
		v = ksmbd_share_check_connections(s, mountd_share_trees(st, s->name));
	r->status = verdict_status(v);
	if (v != KSMBD_TREE_OK)
		return;
	if (tree_find(st, req->session_id, req->connect_id)) {
		r->status = KSMBD_TREE_CONN_STATUS_CONN_EXIST;
		return;
	}
	switch (tree_add(st, req->session_id, req->connect_id, s->name)) {
	case 0:
		break;
	case -ENOSPC:
		r->status = KSMBD_TREE_CONN_STATUS_TOO_MANY_CONNS;
		return;
	default:
		r->status = KSMBD_TREE_CONN_STATUS_NOMEM;
		return;
	}
	r->connection_flags = writable ? KSMBD_TREE_CONN_FLAG_WRITABLE :
					 KSMBD_TREE_CONN_FLAG_READ_ONLY;
	if (admin)
		r->connection_flags |= KSMBD_TREE_CONN_FLAG_ADMIN_ACCOUNT;
	if (guest)
		r->connection_flags |= KSMBD_TREE_CONN_FLAG_GUEST_ACCOUNT;
	if (s->is_pipe)
		r->connection_flags |= KSMBD_TREE_CONN_FLAG_IPC;
}

int mountd_handle_tree_connect(struct mountd_state *st, const void *data,
			       size_t len, struct mountd_reply *reply)
{
	struct ksmbd_tree_connect_request req;
	struct ksmbd_tree_connect_response *r;

	if (len != sizeof(req))
		return mountd_drop(KSMBD_EVENT_TREE_CONNECT_REQUEST, len, "size");
	memcpy(&req, data, sizeof(req));
	if (!mountd_str_ok(req.account, sizeof(req.account)) ||
	    !mountd_str_ok(req.share, sizeof(req.share)) ||
	    !mountd_str_ok(req.peer_addr, sizeof(req.peer_addr)))
		return mountd_drop(KSMBD_EVENT_TREE_CONNECT_REQUEST, len,
				   "unterminated string");
	r = mountd_reply_alloc(reply, KSMBD_EVENT_TREE_CONNECT_RESPONSE,
			       sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->handle = req.handle;
	tree_decide(st, &req, r);
	mountd_log(LOG_DEBUG, "tree connect %s by %s from %s: status %u flags 0x%x",
		   req.share, req.account, req.peer_addr, r->status,
		   r->connection_flags);
	return 0;
}

int mountd_handle_tree_disconnect(struct mountd_state *st, const void *data,
				  size_t len)
{
	struct ksmbd_tree_disconnect_request req;
	struct mountd_tree *t;

	if (len != sizeof(req))
		return mountd_drop(KSMBD_EVENT_TREE_DISCONNECT_REQUEST, len, "size");
	memcpy(&req, data, sizeof(req));
	t = tree_find(st, req.session_id, req.connect_id);
	if (!t) {
		mountd_log(LOG_DEBUG, "tree disconnect of unknown tree %llu",
			   (unsigned long long)req.connect_id);
		return 0;
	}
	*t = st->trees[--st->ntrees];
	return 0;
}
