// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Validation of daemon-to-kernel netlink payloads.
 *
 * The kernel trusts nothing the daemon sends: a buggy or hostile daemon
 * must not make it read past an attribute (CVE-2024-26811) or accept a
 * truncated message (CVE-2025-68263's 4-byte handle read). Every length
 * field is compared with the attribute length before any variable part is
 * touched, sums are formed only from values already bounded by small
 * limits, and strings must end inside their arrays.
 *
 * The fixed part is copied out with memcpy: the fuzzer hands us unaligned
 * buffers, and the kernel copy costs nothing next to a netlink round trip.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#endif
#include "ipc_validate.h"

static const char * const event_names[KSMBD_EVENT_MAX] = {
	[KSMBD_EVENT_UNSPEC] = "unspec",
	[KSMBD_EVENT_HEARTBEAT_REQUEST] = "heartbeat-request",
	[KSMBD_EVENT_STARTING_UP] = "starting-up",
	[KSMBD_EVENT_SHUTTING_DOWN] = "shutting-down",
	[KSMBD_EVENT_LOGIN_REQUEST] = "login-request",
	[KSMBD_EVENT_LOGIN_RESPONSE] = "login-response",
	[KSMBD_EVENT_SHARE_CONFIG_REQUEST] = "share-config-request",
	[KSMBD_EVENT_SHARE_CONFIG_RESPONSE] = "share-config-response",
	[KSMBD_EVENT_TREE_CONNECT_REQUEST] = "tree-connect-request",
	[KSMBD_EVENT_TREE_CONNECT_RESPONSE] = "tree-connect-response",
	[KSMBD_EVENT_TREE_DISCONNECT_REQUEST] = "tree-disconnect-request",
	[KSMBD_EVENT_LOGOUT_REQUEST] = "logout-request",
	[KSMBD_EVENT_RPC_REQUEST] = "rpc-request",
	[KSMBD_EVENT_RPC_RESPONSE] = "rpc-response",
	[KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST] = "spnego-request",
	[KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE] = "spnego-response",
	[KSMBD_EVENT_HEARTBEAT_RESPONSE] = "heartbeat-response",
	[KSMBD_EVENT_STARTING_UP_RESPONSE] = "starting-up-response",
};

const char *ksmbd_ipc_event_name(unsigned int type)
{
	if (type < KSMBD_EVENT_MAX && event_names[type])
		return event_names[type];
	return "event-unknown";
}

static int bad(const char **why, const char *reason)
{
	*why = reason;
	return -EINVAL;
}

/* A string field must hold its NUL inside the array. */
static int str_ok(const char *s, size_t cap)
{
	return memchr(s, '\0', cap) != NULL;
}

/* A list of NUL-terminated items: empty, or ending in a NUL. */
static int list_ok(const unsigned char *p, size_t len)
{
	return len == 0 || p[len - 1] == '\0';
}

/* At most KSMBD_MAX_ALGS ids, each in [lo, hi], none twice. */
static int alg_list_ok(const __u8 *ids, __u8 n, __u8 lo, __u8 hi)
{
	unsigned int i, j;

	if (n > KSMBD_MAX_ALGS)
		return 0;
	for (i = 0; i < n; i++) {
		if (ids[i] < lo || ids[i] > hi)
			return 0;
		for (j = 0; j < i; j++)
			if (ids[j] == ids[i])
				return 0;
	}
	return 1;
}

static int check_startup(const unsigned char *data, size_t len,
			 const char **why)
{
	struct ksmbd_startup_request r;

	/* The ABI words come first so any daemon can be told apart. */
	if (len < 2 * sizeof(__u32))
		return bad(why, "shorter than the ABI words");
	memcpy(&r, data, 2 * sizeof(__u32));
	if (r.abi_magic != KSMBD_ABI_MAGIC || r.abi_version != KSMBD_ABI_VERSION) {
		*why = "ABI magic or version mismatch";
		return -EPROTO;
	}
	if (len < sizeof(r))
		return bad(why, "shorter than the startup struct");
	memcpy(&r, data, sizeof(r));
	if (r.ifc_list_sz > KSMBD_IFC_LIST_MAX)
		return bad(why, "interface list too long");
	if (len != sizeof(r) + r.ifc_list_sz)
		return bad(why, "interface list size does not match the attribute");
	if (!list_ok(data + sizeof(r), r.ifc_list_sz))
		return bad(why, "interface list not NUL-terminated");
	if (!str_ok(r.netbios_name, sizeof(r.netbios_name)) ||
	    !str_ok(r.work_group, sizeof(r.work_group)) ||
	    !str_ok(r.server_string, sizeof(r.server_string)))
		return bad(why, "unterminated name");
	if (!r.tcp_port)
		return bad(why, "tcp port 0");
	if (r.min_dialect > r.max_dialect)
		return bad(why, "min dialect above max dialect");
	/* The module keeps it in seconds. */
	if (r.deadtime > 0xffffffffu / 60)
		return bad(why, "deadtime too large");
	if (r.max_sessions_per_conn > KSMBD_MAX_SESSIONS_PER_CONN)
		return bad(why, "max sessions per connection too large");
	if (r.oplock_break_timeout > 3600)
		return bad(why, "oplock break timeout above an hour");
	if (r.signing < KSMBD_CONFIG_OPT_DISABLED ||
	    r.signing > KSMBD_CONFIG_OPT_MANDATORY)
		return bad(why, "signing option out of range");
	if (!alg_list_ok(r.ciphers, r.nr_ciphers, 1, 4))
		return bad(why, "bad cipher list");
	if (!alg_list_ok(r.signing_algs, r.nr_signing_algs, 0, 2))
		return bad(why, "bad signing algorithm list");
	return 0;
}

static int check_login(const unsigned char *data, size_t len, const char **why)
{
	struct ksmbd_login_response r;

	if (len != sizeof(r))
		return bad(why, "login response size");
	memcpy(&r, data, sizeof(r));
	if (!str_ok(r.account, sizeof(r.account)))
		return bad(why, "unterminated account");
	if (r.hash_sz != 0 && r.hash_sz != KSMBD_REQ_MAX_HASH_SZ)
		return bad(why, "hash size");
	if (r.ngroups > KSMBD_LOGIN_MAX_GROUPS)
		return bad(why, "too many groups");
	return 0;
}

static int check_share(const unsigned char *data, size_t len, const char **why)
{
	struct ksmbd_share_config_response r;
	const unsigned char *path;

	if (len < sizeof(r))
		return bad(why, "shorter than the share struct");
	memcpy(&r, data, sizeof(r));
	if (r.veto_list_sz > KSMBD_VETO_LIST_MAX ||
	    r.path_sz > KSMBD_SHARE_PATH_MAX)
		return bad(why, "veto list or path too long");
	/* Both sizes are bounded above, so the sum cannot wrap. */
	if (len != sizeof(r) + r.veto_list_sz + r.path_sz)
		return bad(why, "veto list and path sizes do not match the attribute");
	if (!list_ok(data + sizeof(r), r.veto_list_sz))
		return bad(why, "veto list not NUL-terminated");
	if (r.flags == KSMBD_SHARE_FLAG_INVALID)
		return len == sizeof(r) ? 0 : bad(why, "payload on an invalid share");
	if (!r.path_sz)
		return (r.flags & KSMBD_SHARE_FLAG_PIPE) ? 0 :
			bad(why, "share without a path");
	path = data + sizeof(r) + r.veto_list_sz;
	if (memchr(path, '\0', r.path_sz) != path + r.path_sz - 1)
		return bad(why, "path not a single NUL-terminated string");
	if (path[0] != '/')
		return bad(why, "path not absolute");
	return 0;
}

static int check_tree(const unsigned char *data, size_t len, const char **why)
{
	struct ksmbd_tree_connect_response r;

	if (len != sizeof(r))
		return bad(why, "tree connect response size");
	memcpy(&r, data, sizeof(r));
	if (r.status > KSMBD_TREE_CONN_STATUS_ERROR)
		return bad(why, "tree connect status out of range");
	return 0;
}

static int check_rpc(const unsigned char *data, size_t len, const char **why)
{
	struct ksmbd_rpc_command r;

	if (len < sizeof(r))
		return bad(why, "shorter than the rpc struct");
	memcpy(&r, data, sizeof(r));
	if (r.payload_sz > KSMBD_RPC_MAX_PAYLOAD)
		return bad(why, "rpc payload too large");
	if (len != sizeof(r) + r.payload_sz)
		return bad(why, "rpc payload size does not match the attribute");
	return 0;
}

static int check_spnego(const unsigned char *data, size_t len,
			const char **why)
{
	struct ksmbd_spnego_authen_response r;

	if (len < sizeof(r))
		return bad(why, "shorter than the spnego struct");
	memcpy(&r, data, sizeof(r));
	if (r.session_key_len > KSMBD_SESSION_KEY_MAX ||
	    r.spnego_blob_len > KSMBD_SPNEGO_MAX_BLOB)
		return bad(why, "session key or blob too long");
	if (len != sizeof(r) + r.session_key_len + r.spnego_blob_len)
		return bad(why, "key and blob sizes do not match the attribute");
	if (r.status > KSMBD_SPNEGO_STATUS_MAX)
		return bad(why, "spnego status out of range");
	if (r.status != KSMBD_SPNEGO_OK && len != sizeof(r))
		return bad(why, "payload on a failed authentication");
	if (r.status == KSMBD_SPNEGO_OK && !r.session_key_len)
		return bad(why, "authentication without a session key");
	if (!str_ok(r.login_response.account, sizeof(r.login_response.account)))
		return bad(why, "unterminated account");
	if (r.login_response.hash_sz > KSMBD_REQ_MAX_HASH_SZ)
		return bad(why, "hash size");
	if (r.login_response.ngroups > KSMBD_LOGIN_MAX_GROUPS)
		return bad(why, "too many groups");
	return 0;
}

int ksmbd_ipc_msg_validate(unsigned int type, const void *data, size_t len,
			   const char **why)
{
	const unsigned char *p = data;

	*why = "";
	switch (type) {
	case KSMBD_EVENT_HEARTBEAT_RESPONSE:
		return len == sizeof(struct ksmbd_heartbeat) ? 0 :
			bad(why, "heartbeat size");
	case KSMBD_EVENT_STARTING_UP:
		return check_startup(p, len, why);
	case KSMBD_EVENT_SHUTTING_DOWN:
		return len == sizeof(struct ksmbd_shutdown_request) ? 0 :
			bad(why, "shutdown size");
	case KSMBD_EVENT_LOGIN_RESPONSE:
		return check_login(p, len, why);
	case KSMBD_EVENT_SHARE_CONFIG_RESPONSE:
		return check_share(p, len, why);
	case KSMBD_EVENT_TREE_CONNECT_RESPONSE:
		return check_tree(p, len, why);
	case KSMBD_EVENT_RPC_RESPONSE:
		return check_rpc(p, len, why);
	case KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE:
		return check_spnego(p, len, why);
	default:
		return bad(why, "not an event the daemon sends");
	}
}
