// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The requests the SMB engine makes of the daemon: each builds its message
 * from the caller's arguments (refusing what does not fit the ABI rather
 * than truncating a name) and returns the validated answer.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/err.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ipc.h"
#include "ipc_internal.h"
#include "ipc_validate.h"
#include "proto/ksmbd_errno.h"

static DEFINE_IDA(ipc_pipe_ida);

/* Copies @src into @dst[@size] or fails: a truncated name is another name. */
static int copy_name(char *dst, const char *src, size_t size)
{
	if (!src || strscpy(dst, src, size) < 0)
		return -EINVAL;
	return 0;
}

struct ksmbd_login_response *ksmbd_ipc_login(const char *account, u32 flags)
{
	struct ksmbd_login_request req = { .flags = flags };
	size_t len;

	if (copy_name(req.account, account, sizeof(req.account)))
		return ERR_PTR(-EINVAL);
	return ksmbd_ipc_transact(KSMBD_EVENT_LOGIN_REQUEST, &req, sizeof(req),
				  KSMBD_IPC_LOGIN_MAX, &len);
}

struct ksmbd_share_config_response *ksmbd_ipc_share_config(const char *name)
{
	struct ksmbd_share_config_request req = {};
	size_t len;

	if (copy_name(req.share_name, name, sizeof(req.share_name)))
		return ERR_PTR(-EINVAL);
	return ksmbd_ipc_transact(KSMBD_EVENT_SHARE_CONFIG_REQUEST, &req,
				  sizeof(req), KSMBD_IPC_SHARE_MAX, &len);
}

struct ksmbd_tree_connect_response *
ksmbd_ipc_tree_connect(u64 session_id, const char *account, u16 account_flags,
		       const char *share, const char *peer_addr, u64 tree_id,
		       u16 flags)
{
	struct ksmbd_tree_connect_request *req;
	void *resp;
	size_t len;

	/* 200 bytes: keep it off the stack of deep SMB call chains. */
	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return ERR_PTR(-ENOMEM);
	if (copy_name(req->account, account, sizeof(req->account)) ||
	    copy_name(req->share, share, sizeof(req->share)) ||
	    copy_name(req->peer_addr, peer_addr, sizeof(req->peer_addr))) {
		resp = ERR_PTR(-EINVAL);
		goto out_free_req;
	}
	req->account_flags = account_flags;
	req->flags = flags;
	req->session_id = session_id;
	req->connect_id = tree_id;
	resp = ksmbd_ipc_transact(KSMBD_EVENT_TREE_CONNECT_REQUEST, req,
				  sizeof(*req), KSMBD_IPC_TREE_MAX, &len);
out_free_req:
	kfree(req);
	return resp;
}

int ksmbd_ipc_tree_disconnect(u64 session_id, u64 tree_id)
{
	struct ksmbd_tree_disconnect_request req = {
		.session_id = session_id,
		.connect_id = tree_id,
	};

	return ksmbd_ipc_notify(KSMBD_EVENT_TREE_DISCONNECT_REQUEST, &req,
				sizeof(req));
}

int ksmbd_ipc_logout(const char *account, u32 account_flags)
{
	struct ksmbd_logout_request req = { .account_flags = account_flags };

	if (copy_name(req.account, account, sizeof(req.account)))
		return -EINVAL;
	return ksmbd_ipc_notify(KSMBD_EVENT_LOGOUT_REQUEST, &req, sizeof(req));
}

int ksmbd_ipc_pipe_id_alloc(void)
{
	return ida_alloc_min(&ipc_pipe_ida, 1, GFP_KERNEL);
}

void ksmbd_ipc_pipe_id_free(int id)
{
	ida_free(&ipc_pipe_ida, id);
}

/* One pipe operation: @len bytes of @data in, at most @max_out back. */
static struct ksmbd_rpc_command *rpc_call(u32 pipe_id, u32 flags,
					  const void *data, size_t len,
					  size_t max_out)
{
	struct ksmbd_rpc_command *req;
	void *resp;
	size_t resp_len;

	if (len > KSMBD_RPC_MAX_PAYLOAD)
		return ERR_PTR(-EINVAL);
	max_out = min_t(size_t, max_out, KSMBD_RPC_MAX_PAYLOAD);
	req = kvzalloc(sizeof(*req) + len, GFP_KERNEL);
	if (!req)
		return ERR_PTR(-ENOMEM);
	req->pipe_id = pipe_id;
	req->flags = flags;
	req->payload_sz = len;
	req->max_out = max_out;
	if (len)
		memcpy(req->payload, data, len);
	resp = ksmbd_ipc_transact(KSMBD_EVENT_RPC_REQUEST, req,
				  sizeof(*req) + len, sizeof(*req) + max_out,
				  &resp_len);
	kvfree(req);
	return resp;
}

/* The operation bits are ours to set; the caller gives the service. */
#define RPC_OP_MASK	(KSMBD_RPC_IOCTL_METHOD | KSMBD_RPC_OPEN_METHOD | \
			 KSMBD_RPC_WRITE_METHOD | KSMBD_RPC_READ_METHOD | \
			 KSMBD_RPC_CLOSE_METHOD | KSMBD_RPC_RAP_METHOD)

struct ksmbd_rpc_command *ksmbd_ipc_rpc_open(u32 pipe_id, u32 flags,
					    const char *account)
{
	size_t len = account ? strnlen(account, KSMBD_REQ_MAX_ACCOUNT_NAME_SZ) : 0;

	if (len >= KSMBD_REQ_MAX_ACCOUNT_NAME_SZ)
		return ERR_PTR(-EINVAL);
	return rpc_call(pipe_id, (flags & ~RPC_OP_MASK) | KSMBD_RPC_OPEN_METHOD,
			account, account ? len + 1 : 0, 0);
}

struct ksmbd_rpc_command *ksmbd_ipc_rpc_close(u32 pipe_id, u32 flags)
{
	return rpc_call(pipe_id, (flags & ~RPC_OP_MASK) | KSMBD_RPC_CLOSE_METHOD,
			NULL, 0, 0);
}

struct ksmbd_rpc_command *ksmbd_ipc_rpc_write(u32 pipe_id, u32 flags,
					     const void *data, size_t len)
{
	return rpc_call(pipe_id, (flags & ~RPC_OP_MASK) | KSMBD_RPC_WRITE_METHOD,
			data, len, 0);
}

struct ksmbd_rpc_command *ksmbd_ipc_rpc_read(u32 pipe_id, u32 flags,
					    size_t max_out)
{
	return rpc_call(pipe_id, (flags & ~RPC_OP_MASK) | KSMBD_RPC_READ_METHOD,
			NULL, 0, max_out);
}

struct ksmbd_rpc_command *ksmbd_ipc_rpc_ioctl(u32 pipe_id, u32 flags,
					     const void *data, size_t len,
					     size_t max_out)
{
	return rpc_call(pipe_id, (flags & ~RPC_OP_MASK) | KSMBD_RPC_IOCTL_METHOD,
			data, len, max_out);
}

int ksmbd_ipc_rpc_errno(u32 rpc_status)
{
	switch (rpc_status) {
	case KSMBD_RPC_OK:
		return 0;
	case KSMBD_RPC_EMORE_DATA:
		return -EOVERFLOW;
	case KSMBD_RPC_EBAD_FID:
		return -EBADF;
	case KSMBD_RPC_EACCESS_DENIED:
		return -EACCES;
	case KSMBD_RPC_ENOMEM:
		return -ENOMEM;
	case KSMBD_RPC_ENOTIMPLEMENTED:
		return -EOPNOTSUPP;
	case KSMBD_RPC_EINVALID_PARAMETER:
		return -EINVAL;
	default:
		return -EPROTO;
	}
}

int ksmbd_ipc_tree_errno(u16 tree_status)
{
	switch (tree_status) {
	case KSMBD_TREE_CONN_STATUS_OK:
		return 0;
	case KSMBD_TREE_CONN_STATUS_NO_SHARE:
		return -KSMBD_EBAD_NETWORK_NAME;
	case KSMBD_TREE_CONN_STATUS_NOMEM:
		return -KSMBD_ENORESOURCES;
	case KSMBD_TREE_CONN_STATUS_TOO_MANY_CONNS:
	case KSMBD_TREE_CONN_STATUS_TOO_MANY_SESSIONS:
		return -KSMBD_ENOT_ACCEPTED;
	default:
		return -EACCES;
	}
}

struct ksmbd_spnego_authen_response *ksmbd_ipc_spnego_authen(const void *blob,
							     size_t len)
{
	struct ksmbd_spnego_authen_request *req;
	void *resp;
	size_t resp_len;

	if (!len || len > KSMBD_SPNEGO_MAX_BLOB)
		return ERR_PTR(-EINVAL);
	req = kvzalloc(sizeof(*req) + len, GFP_KERNEL);
	if (!req)
		return ERR_PTR(-ENOMEM);
	req->spnego_blob_len = len;
	memcpy(req->spnego_blob, blob, len);
	resp = ksmbd_ipc_transact(KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST, req,
				  sizeof(*req) + len, KSMBD_IPC_SPNEGO_MAX,
				  &resp_len);
	kvfree(req);
	return resp;
}

void ksmbd_ipc_free_sensitive(void *resp, size_t len)
{
	if (IS_ERR_OR_NULL(resp))
		return;
	memzero_explicit(resp, len);
	kvfree(resp);
}
