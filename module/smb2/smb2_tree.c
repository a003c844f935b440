// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TREE_CONNECT (MS-SMB2 3.3.5.7) and TREE_DISCONNECT (3.3.5.8).
 *
 * The share's description comes from the daemon (share.c), the verdict
 * on this user from this address too; the root directory is opened here
 * and held for the tree's life. A share with "smb3 encryption = required"
 * answers ShareFlags ENCRYPT_DATA to a client that negotiated a cipher
 * (then every request on the tree must come encrypted, see attach in
 * smb2_session.c) and STATUS_ACCESS_DENIED to one that did not; one with
 * "smb3 encryption = yes" answers ENCRYPT_DATA too, but takes plain
 * requests and clients without a cipher.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/err.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include "connection.h"
#include "debug.h"
#include "ipc.h"
#include "ksmbd_trace.h"
#include "proto/utf16.h"
#include "session.h"
#include "share.h"
#include "smb2_dispatch.h"
#include "tree.h"

/* MS-SMB2 2.2.10 ShareFlags (caching policy, bits 4-5). */
#define SHAREFLAG_MANUAL_CACHING	0x00000000
#define SHAREFLAG_NO_CACHING		0x00000030
#define SHAREFLAG_ACCESS_BASED_DIRECTORY_ENUM	0x00000800
#define SHAREFLAG_ENCRYPT_DATA		0x00008000

/* "\\server\share", at most this much as UTF-8 (server names included). */
#define TCON_PATH_MAX	(2 + 256 + 1 + KSMBD_SHARE_NAME_MAX * 4 + 1)

struct tcon_req {
	char path[TCON_PATH_MAX];
	const char *share;		/* points into path */
};

/* Split "\\server\share"; the share name is 1..80 characters, no '\'. */
static int parse_unc(struct tcon_req *tr)
{
	char *p = tr->path, *share;
	size_t chars = 0;
	const char *c;

	if (p[0] != '\\' || p[1] != '\\')
		return -EINVAL;
	share = strchr(p + 2, '\\');
	if (!share || share == p + 2)
		return -EINVAL;
	share++;
	if (!*share || strchr(share, '\\'))
		return -EINVAL;
	/* Count characters, not bytes: UTF-8 continuation bytes are 10xxxxxx. */
	for (c = share; *c; c++)
		if ((*c & 0xc0) != 0x80)
			chars++;
	if (chars > KSMBD_SHARE_NAME_MAX ||
	    strlen(share) >= KSMBD_REQ_MAX_SHARE_NAME)
		return -ENAMETOOLONG;
	tr->share = share;
	return 0;
}

static int decode_tcon(const struct ksmbd_req *req, struct tcon_req *tr)
{
	struct ksmbd_tree_connect_req tc;
	int ret;

	if (ksmbd_tree_connect_decode(req, &tc))
		return -EINVAL;
	ret = ksmbd_utf16_to_utf8(tc.path.p, tc.path.len, tr->path,
				  sizeof(tr->path));
	if (ret < 0)
		return ret == -ENAMETOOLONG ? ret : -EINVAL;
	return parse_unc(tr);
}

static void peer_text(const struct ksmbd_conn *conn, char *out, size_t cap)
{
	const struct sockaddr_in6 *s6 = (const void *)&conn->peer;

	/* The daemon's host rules are written with plain IPv4 addresses. */
	if (conn->peer.ss_family == AF_INET6 &&
	    ipv6_addr_v4mapped(&s6->sin6_addr))
		snprintf(out, cap, "%pI4", &s6->sin6_addr.s6_addr32[3]);
	else
		snprintf(out, cap, "%pISc", &conn->peer);
}

/* The daemon's verdict on this tree; flags its connection flags. */
static u32 ask_daemon(struct ksmbd_smb2_ctx *ctx, struct ksmbd_tree *tree,
		      u16 *flags)
{
	struct ksmbd_session *sess = ctx->sess;
	struct ksmbd_tree_connect_response *rsp;
	char peer[KSMBD_PEER_ADDR_MAX];
	u16 req_flags = KSMBD_TREE_CONN_FLAG_REQUEST_SMB2;
	u32 st;

	if (ctx->conn->peer.ss_family == AF_INET6)
		req_flags |= KSMBD_TREE_CONN_FLAG_REQUEST_IPV6;
	peer_text(ctx->conn, peer, sizeof(peer));
	rsp = ksmbd_ipc_tree_connect(sess->id, sess->account, sess->user_flags,
				     tree->share->name, peer, tree->id,
				     req_flags);
	if (IS_ERR(rsp))
		return STATUS_ACCESS_DENIED;
	st = ksmbd_ntstatus_from_errno(ksmbd_ipc_tree_errno(rsp->status));
	*flags = rsp->connection_flags;
	kvfree(rsp);
	return st;
}

static void encode_tcon(struct ksmbd_wbuf *w, struct ksmbd_session *sess,
			const struct ksmbd_tree *tree, bool can_encrypt)
{
	bool ipc = ksmbd_tree_is_ipc(tree);
	u32 flags = ipc ? SHAREFLAG_NO_CACHING : SHAREFLAG_MANUAL_CACHING;

	ksmbd_wbuf_put_le16(w, SMB2_TREE_CONNECT_RSP_SIZE);
	ksmbd_wbuf_put_u8(w, ipc ? SMB2_SHARE_TYPE_PIPE : SMB2_SHARE_TYPE_DISK);
	ksmbd_wbuf_put_u8(w, 0);
	/* Asked ("yes") or required: the client then encrypts on this tree. */
	if (can_encrypt &&
	    (ksmbd_share_has(tree->share, KSMBD_SHARE_FLAG_ENCRYPT) ||
	     ksmbd_share_has(tree->share, KSMBD_SHARE_FLAG_ENCRYPT_DESIRED))) {
		flags |= SHAREFLAG_ENCRYPT_DATA;
		/* Its oplock breaks go out encrypted from now on. */
		WRITE_ONCE(sess->crypto.tree_encrypts, true);
	}
	if (ksmbd_share_has(tree->share, KSMBD_SHARE_FLAG_HIDE_UNREADABLE))
		flags |= SHAREFLAG_ACCESS_BASED_DIRECTORY_ENUM;
	ksmbd_wbuf_put_le32(w, flags);
	ksmbd_wbuf_put_le32(w, 0);	/* Capabilities: none of DFS, CA, ... */
	ksmbd_wbuf_put_le32(w, tree->maximal_access);
}

static u32 connect_share(struct ksmbd_smb2_ctx *ctx, struct ksmbd_share *share)
{
	struct ksmbd_tree *tree;
	u16 flags = 0;
	u32 st;
	int ret;

	tree = ksmbd_tree_create(ctx->sess, share);
	if (IS_ERR(tree))
		return PTR_ERR(tree) == -ESHUTDOWN ? STATUS_USER_SESSION_DELETED :
						      STATUS_INSUFFICIENT_RESOURCES;
	st = ask_daemon(ctx, tree, &flags);
	if (st != STATUS_SUCCESS)
		goto out_teardown;
	ret = ksmbd_tree_publish(tree, flags);
	if (ret) {
		/* The daemon counted it as connected. */
		ksmbd_ipc_tree_disconnect(ctx->sess->id, tree->id);
		/* -ESHUTDOWN: the session ended meanwhile, nothing to report. */
		if (ret != -ESHUTDOWN)
			pr_warn_ratelimited("share %s: cannot open its path (%d)\n",
					    tree->share->name, ret);
		st = ret == -ESHUTDOWN ? STATUS_USER_SESSION_DELETED :
					 STATUS_BAD_NETWORK_NAME;
		goto out_teardown;
	}
	encode_tcon(&ctx->body, ctx->sess, tree, ctx->conn->neg.cipher != 0);
	ctx->tree_id = tree->id;
	trace_ksmbd_tree_connect(ctx->conn->id, ctx->sess->id, tree->id,
				 tree->share->name, tree->flags,
				 STATUS_SUCCESS);
	ksmbd_tree_put(tree);
	return STATUS_SUCCESS;

out_teardown:
	trace_ksmbd_tree_connect(ctx->conn->id, ctx->sess->id, tree->id,
				 tree->share->name, 0, st);
	ksmbd_tree_teardown(tree);
	ksmbd_tree_put(tree);
	return st;
}

enum ksmbd_smb2_verdict ksmbd_smb2_tree_connect(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_share *share;
	struct tcon_req *tr;
	int ret;

	tr = kmalloc(sizeof(*tr), GFP_KERNEL);
	if (!tr) {
		ctx->status = STATUS_INSUFFICIENT_RESOURCES;
		return KSMBD_SMB2_REPLY;
	}
	ret = decode_tcon(ctx->req, tr);
	if (ret) {
		ctx->status = ret == -ENAMETOOLONG ? STATUS_BAD_NETWORK_NAME :
						     STATUS_INVALID_PARAMETER;
		goto out_free;
	}
	share = ksmbd_share_get_config(tr->share);
	if (IS_ERR(share)) {
		ctx->status = PTR_ERR(share) == -ENOENT ?
			      STATUS_BAD_NETWORK_NAME : STATUS_ACCESS_DENIED;
		goto out_free;
	}
	if (ksmbd_share_has(share, KSMBD_SHARE_FLAG_ENCRYPT) &&
	    !ctx->conn->neg.cipher) {
		ksmbd_share_put(share);
		ctx->status = STATUS_ACCESS_DENIED;
		goto out_free;
	}
	ctx->status = connect_share(ctx, share);
out_free:
	kfree(tr);
	return KSMBD_SMB2_REPLY;
}

enum ksmbd_smb2_verdict ksmbd_smb2_tree_disconnect(struct ksmbd_smb2_ctx *ctx)
{
	if (ksmbd_simple_decode(ctx->req, SMB2_TREE_DISCONNECT)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	if (!ksmbd_tree_teardown(ctx->tree)) {
		ctx->status = STATUS_NETWORK_NAME_DELETED;
		return KSMBD_SMB2_REPLY;
	}
	ksmbd_wbuf_put_le16(&ctx->body, SMB2_SIMPLE_SIZE);
	ksmbd_wbuf_put_le16(&ctx->body, 0);
	return KSMBD_SMB2_REPLY;
}
