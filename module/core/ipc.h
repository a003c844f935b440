/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Requests from the SMB engine to the user-space daemon (ksmbd.mountd) over
 * generic netlink; the ABI is uapi/ksmbd_netlink.h.
 *
 * Calls that expect an answer sleep until it arrives or the IPC timeout
 * (the daemon's "ipc timeout", 5 s when that is 0) passes, so they must be
 * called from process context without spinlocks held. They return the
 * daemon's answer, already validated (sizes, NUL-terminated strings,
 * payload within what the request allowed), in a buffer the caller owns
 * and releases with kvfree(); or an ERR_PTR, never NULL:
 *   -ENOTCONN   no daemon is registered (one is waited for as long as the
 *               timeout while the server runs), or it has been silent too
 *               long
 *   -ETIMEDOUT  no answer in time (a late answer is dropped)
 *   -ECONNRESET the daemon went away while we waited
 *   -ESHUTDOWN  the module is being unloaded
 *   -EINVAL     an argument does not fit the ABI (name too long, ...)
 *   -EINTR      the calling task was killed
 * A login answer holds the user's NT hash: wipe it before freeing
 * (ksmbd_ipc_free_sensitive()).
 */
#ifndef KSMBD_IPC_H
#define KSMBD_IPC_H

#include <linux/types.h>
#include "uapi/ksmbd_netlink.h"

int ksmbd_ipc_init(void);
void ksmbd_ipc_exit(void);

/* True while a registered daemon answers; new logins need it. */
bool ksmbd_ipc_daemon_alive(void);
/* The registered daemon's pid, 0 when none (stats). */
pid_t ksmbd_ipc_daemon_pid(void);

/* flags: KSMBD_LOGIN_FLAG_GUEST asks for the guest account (account ""). */
struct ksmbd_login_response *ksmbd_ipc_login(const char *account, u32 flags);
struct ksmbd_share_config_response *ksmbd_ipc_share_config(const char *name);
struct ksmbd_tree_connect_response *
ksmbd_ipc_tree_connect(u64 session_id, const char *account, u16 account_flags,
		       const char *share, const char *peer_addr, u64 tree_id,
		       u16 flags);
/* Notifications: 0 once sent, or a negative errno as above. */
int ksmbd_ipc_tree_disconnect(u64 session_id, u64 tree_id);
int ksmbd_ipc_logout(const char *account, u32 account_flags);

/*
 * Named pipes. The engine draws a pipe id per opened pipe and returns it
 * when the pipe is closed. @flags carry the service's *_METHOD_INVOKE bit
 * (and KSMBD_RPC_RESTRICTED_CONTEXT for guests); the operation bit is
 * added here. The answer's flags field is a KSMBD_RPC_* status.
 * read/ioctl answers carry at most @max_out bytes of payload.
 */
int ksmbd_ipc_pipe_id_alloc(void);
void ksmbd_ipc_pipe_id_free(int id);
/* @account: the session user, told to the RPC services (may be NULL). */
struct ksmbd_rpc_command *ksmbd_ipc_rpc_open(u32 pipe_id, u32 flags,
					    const char *account);
struct ksmbd_rpc_command *ksmbd_ipc_rpc_close(u32 pipe_id, u32 flags);
struct ksmbd_rpc_command *ksmbd_ipc_rpc_write(u32 pipe_id, u32 flags,
					     const void *data, size_t len);
struct ksmbd_rpc_command *ksmbd_ipc_rpc_read(u32 pipe_id, u32 flags,
					    size_t max_out);
struct ksmbd_rpc_command *ksmbd_ipc_rpc_ioctl(u32 pipe_id, u32 flags,
					     const void *data, size_t len,
					     size_t max_out);

/*
 * The daemon's verdicts as errnos (proto/ksmbd_errno.h codes included),
 * for the handler to answer through ksmbd_ntstatus_from_errno(): an RPC
 * answer's KSMBD_RPC_* flags (-EOVERFLOW: more data follows; -EPROTO, no
 * status of its own, for one we do not know) and a tree connect's
 * KSMBD_TREE_CONN_STATUS_* (anything but the named refusals is -EACCES).
 */
int ksmbd_ipc_rpc_errno(u32 rpc_status);
int ksmbd_ipc_tree_errno(u16 tree_status);

struct ksmbd_spnego_authen_response *ksmbd_ipc_spnego_authen(const void *blob,
							     size_t len);

/* kvfree() after wiping @len bytes: for answers carrying secrets. */
void ksmbd_ipc_free_sensitive(void *resp, size_t len);

/* Diagnostic interface (ipc_probe.c), debugfs only. */
int ksmbd_ipc_probe_init(void);
void ksmbd_ipc_probe_exit(void);

#endif
