/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checks of every daemon-to-kernel netlink payload, before any field of it
 * is read by the IPC layer or handed to a caller. Plain C over the uapi
 * header so that the same file builds on the host for unit tests and the
 * fuzzer.
 */
#ifndef KSMBD_IPC_VALIDATE_H
#define KSMBD_IPC_VALIDATE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#endif
#include "uapi/ksmbd_netlink.h"

/* Largest attribute each D->K event may carry; the genl policy uses these. */
#define KSMBD_IPC_HEARTBEAT_MAX		sizeof(struct ksmbd_heartbeat)
#define KSMBD_IPC_STARTUP_MAX		(sizeof(struct ksmbd_startup_request) + \
					 KSMBD_IFC_LIST_MAX)
#define KSMBD_IPC_SHUTDOWN_MAX		sizeof(struct ksmbd_shutdown_request)
#define KSMBD_IPC_LOGIN_MAX		sizeof(struct ksmbd_login_response)
#define KSMBD_IPC_SHARE_MAX		(sizeof(struct ksmbd_share_config_response) + \
					 KSMBD_VETO_LIST_MAX + KSMBD_SHARE_PATH_MAX)
#define KSMBD_IPC_TREE_MAX		sizeof(struct ksmbd_tree_connect_response)
#define KSMBD_IPC_RPC_MAX		(sizeof(struct ksmbd_rpc_command) + \
					 KSMBD_RPC_MAX_PAYLOAD)
#define KSMBD_IPC_SPNEGO_MAX		(sizeof(struct ksmbd_spnego_authen_response) + \
					 KSMBD_SESSION_KEY_MAX + KSMBD_SPNEGO_MAX_BLOB)

/*
 * 0 when @data (@len bytes, the attribute of a D->K message of event
 * @type) is well formed; otherwise -EPROTO for a daemon built from another
 * ABI (STARTING_UP only), -EINVAL for anything else, with a short static
 * reason in *@why. Events the daemon never sends are -EINVAL.
 */
int ksmbd_ipc_msg_validate(unsigned int type, const void *data, size_t len,
			   const char **why);

/* Printable name of an event, for messages ("event-N" when unknown). */
const char *ksmbd_ipc_event_name(unsigned int type);

#endif
