/* SPDX-License-Identifier: GPL-2.0-or-later WITH Linux-syscall-note */
/*
 * The netlink ABI between ksmbd.ko and its daemon, ksmbd.mountd.
 *
 * Transport: generic netlink family KSMBD_GENL_NAME, version
 * KSMBD_GENL_VERSION, no family header. Every message carries exactly one
 * attribute whose type number equals the command (event) number; the
 * attribute's payload is one of the structs below. Fields are host-endian
 * (netlink never leaves the machine).
 *
 * Rules both sides rely on:
 *  - Every struct has explicit padding (reserved fields, always zero) so its
 *    layout is the same on every ABI; tests pin sizes and offsets.
 *  - Strings live in fixed char arrays and must be NUL-terminated inside
 *    them; a receiver rejects a string without its NUL.
 *  - Every variable part is described by its own byte count, and the sum of
 *    the fixed part and all counts must equal the attribute length exactly.
 *  - A request that expects an answer carries a __u32 handle, fresh for each
 *    request; the answer echoes it and its event number is the request's + 1.
 *    The kernel drops an answer whose handle is unknown, whose event is not
 *    the awaited one, or which does not come from the registered daemon.
 *  - The daemon registers with STARTING_UP, which carries KSMBD_ABI_MAGIC and
 *    KSMBD_ABI_VERSION; the kernel answers with STARTING_UP_RESPONSE and
 *    refuses a daemon built from another version of this header.
 *
 * Two events were added after the historical numbering was fixed, so they
 * are the exception to "response = request + 1": HEARTBEAT_RESPONSE answers
 * HEARTBEAT_REQUEST, STARTING_UP_RESPONSE answers STARTING_UP.
 */
#ifndef _UAPI_KSMBD_NETLINK_H
#define _UAPI_KSMBD_NETLINK_H

#include <linux/types.h>

#define KSMBD_GENL_NAME		"SMBD_GENL"
#define KSMBD_GENL_VERSION	0x01

/* 'KSMB': tells our daemon apart from one speaking the historical layout. */
#define KSMBD_ABI_MAGIC		0x4b534d42
/* Bump on any change to this file that alters a layout or a meaning. */
#define KSMBD_ABI_VERSION	6

/* Sizes include the terminating NUL. */
#define KSMBD_REQ_MAX_ACCOUNT_NAME_SZ	48
#define KSMBD_REQ_MAX_SHARE_NAME	64
#define KSMBD_REQ_MAX_HASH_SZ		16	/* the NT hash */
#define KSMBD_NETBIOS_NAME_MAX		16
#define KSMBD_WORKGROUP_MAX		64
#define KSMBD_SERVER_STRING_MAX		64
#define KSMBD_PEER_ADDR_MAX		64

/* Entries of the cipher and signing preference lists (startup). */
#define KSMBD_MAX_ALGS			4

/* Limits on the variable parts (a netlink attribute holds < 64 KiB). */
#define KSMBD_IFC_LIST_MAX		1024	/* startup interface list */
#define KSMBD_VETO_LIST_MAX		4096	/* share veto list */
#define KSMBD_SHARE_PATH_MAX		4096	/* share path, with its NUL */
#define KSMBD_RPC_MAX_PAYLOAD		(60 * 1024)
#define KSMBD_SPNEGO_MAX_BLOB		(32 * 1024)
#define KSMBD_SESSION_KEY_MAX		64
#define KSMBD_LOGIN_MAX_GROUPS		64	/* supplementary groups of a user */
#define KSMBD_MAX_SESSIONS_PER_CONN	1024	/* max_sessions_per_conn bound */

enum ksmbd_event {
	KSMBD_EVENT_UNSPEC			= 0,	/* never sent */
	KSMBD_EVENT_HEARTBEAT_REQUEST,		/* K->D ksmbd_heartbeat */
	KSMBD_EVENT_STARTING_UP,		/* D->K ksmbd_startup_request */
	KSMBD_EVENT_SHUTTING_DOWN,		/* D->K ksmbd_shutdown_request */
	KSMBD_EVENT_LOGIN_REQUEST,		/* K->D ksmbd_login_request */
	KSMBD_EVENT_LOGIN_RESPONSE		= 5,	/* D->K ksmbd_login_response */
	KSMBD_EVENT_SHARE_CONFIG_REQUEST,	/* K->D ksmbd_share_config_request */
	KSMBD_EVENT_SHARE_CONFIG_RESPONSE,	/* D->K ksmbd_share_config_response */
	KSMBD_EVENT_TREE_CONNECT_REQUEST,	/* K->D ksmbd_tree_connect_request */
	KSMBD_EVENT_TREE_CONNECT_RESPONSE,	/* D->K ksmbd_tree_connect_response */
	KSMBD_EVENT_TREE_DISCONNECT_REQUEST	= 10,	/* K->D, no answer */
	KSMBD_EVENT_LOGOUT_REQUEST,		/* K->D ksmbd_logout_request, no answer */
	KSMBD_EVENT_RPC_REQUEST,		/* K->D ksmbd_rpc_command */
	KSMBD_EVENT_RPC_RESPONSE,		/* D->K ksmbd_rpc_command */
	KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST,	/* K->D ksmbd_spnego_authen_request */
	KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE	= 15,	/* D->K ksmbd_spnego_authen_response */
	KSMBD_EVENT_HEARTBEAT_RESPONSE,		/* D->K ksmbd_heartbeat */
	KSMBD_EVENT_STARTING_UP_RESPONSE,	/* K->D ksmbd_startup_response */

	KSMBD_EVENT_MAX				/* one past the last event */
};

/*
 * HEARTBEAT_REQUEST (K->D) and HEARTBEAT_RESPONSE (D->K). The kernel sends
 * one every ipc_timeout/2 seconds; the daemon echoes the handle. Any
 * message from the daemon counts as a sign of life; a daemon silent for
 * longer than ipc_timeout is considered lost (new logins fail).
 */
struct ksmbd_heartbeat {
	__u32 handle;
	__u32 reserved;
};

/* KSMBD_GLOBAL_FLAG_*: ksmbd_startup_request.flags */
#define KSMBD_GLOBAL_FLAG_INVALID		0
#define KSMBD_GLOBAL_FLAG_SMB2_LEASES		0x1
#define KSMBD_GLOBAL_FLAG_SMB2_ENCRYPTION	0x2	/* offer encryption */
#define KSMBD_GLOBAL_FLAG_SMB3_MULTICHANNEL	0x4
#define KSMBD_GLOBAL_FLAG_ENCRYPTION_REQUIRED	0x8	/* refuse clients without it */
#define KSMBD_GLOBAL_FLAG_MAP_TO_GUEST		0x10	/* unknown users become guest */
#define KSMBD_GLOBAL_FLAG_NULL_SESSIONS		0x20	/* anonymous logons allowed */
#define KSMBD_GLOBAL_FLAG_KERBEROS		0x40	/* daemon accepts krb5 (SPNEGO_AUTHEN) */
#define KSMBD_GLOBAL_FLAG_DIR_LEASES		0x80	/* "smb3 directory leases" */

/* Tri/quad-state settings, e.g. ksmbd_startup_request.signing. */
#define KSMBD_CONFIG_OPT_DISABLED	0
#define KSMBD_CONFIG_OPT_ENABLED	1
#define KSMBD_CONFIG_OPT_AUTO		2
#define KSMBD_CONFIG_OPT_MANDATORY	3

/*
 * STARTING_UP (D->K): the daemon registers itself (its netlink port becomes
 * the only one the kernel listens to) and hands over the [global] section.
 * abi_magic and abi_version come first so that any daemon's message can be
 * checked for them before the rest of the layout is trusted.
 * Followed by ifc_list_sz bytes: interface names, each NUL-terminated;
 * 0 bytes means every interface.
 */
struct ksmbd_startup_request {
	__u32 abi_magic;		/* KSMBD_ABI_MAGIC */
	__u32 abi_version;		/* KSMBD_ABI_VERSION */
	__u32 flags;			/* KSMBD_GLOBAL_FLAG_* */
	__s32 signing;			/* KSMBD_CONFIG_OPT_* */
	__u16 min_dialect;		/* SMB2 dialect revision, e.g. 0x0210 */
	__u16 max_dialect;		/* e.g. 0x0311; min <= max */
	__u16 tcp_port;			/* 1..65535 */
	__u16 ipc_timeout;		/* seconds; 0: no heartbeat check */
	char netbios_name[KSMBD_NETBIOS_NAME_MAX];
	char work_group[KSMBD_WORKGROUP_MAX];
	char server_string[KSMBD_SERVER_STRING_MAX];
	__u32 deadtime;			/* idle minutes; 0: never */
	__u32 file_max;			/* open files, whole server */
	__u32 smb2_max_write;		/* bytes; 0: module default */
	__u32 smb2_max_read;
	__u32 smb2_max_trans;
	__u32 share_fake_fscaps;	/* extra FS attribute bits to report */
	__u32 sub_auth[3];		/* server SID S-1-5-21-a-b-c */
	__u32 max_connections;		/* 0: unlimited */
	__u32 ifc_list_sz;		/* bytes of payload[] */
	/* Sessions one connection may hold; 0: the module's default (16). */
	__u32 max_sessions_per_conn;	/* <= KSMBD_MAX_SESSIONS_PER_CONN */
	__u32 oplock_break_timeout;	/* seconds; 0: 35 (MS-SMB2 default) */
	/*
	 * Server preference orders, most preferred first: SMB2 cipher ids
	 * (1..4) for the 3.1.1 encryption context and for 3.0/3.0.2 (which
	 * encrypt only when AES-128-CCM, 1, is listed), signing algorithm ids
	 * (0..2) for the 3.1.1 signing context. A count of 0 keeps the
	 * module's default order; no id twice.
	 */
	__u8 nr_ciphers;		/* 0..KSMBD_MAX_ALGS */
	__u8 nr_signing_algs;		/* 0..KSMBD_MAX_ALGS */
	__u8 ciphers[KSMBD_MAX_ALGS];
	__u8 signing_algs[KSMBD_MAX_ALGS];
	/* Connections one peer address may hold; 0: the module's default. */
	__u16 max_ip_connections;
	/*
	 * Per-client bounds (ABI 5); 0: the module's default. Open files
	 * one session and one connection may hold, CHANGE_NOTIFY watches
	 * one session may hold, byte-range locks one handle and one file
	 * may hold.
	 */
	__u32 max_open_files_per_session;
	__u32 max_open_files_per_conn;
	__u32 max_notify_watches_per_session;
	__u32 max_locks_per_handle;
	__u32 max_locks_per_file;
	/*
	 * MiB one connection may hold reserved beyond end of file through
	 * AllocationSize; 0: nothing is reserved (not a default).
	 */
	__u32 max_alloc_reservation_mib;
	__u8 payload[];			/* interface list */
};

/*
 * STARTING_UP_RESPONSE (K->D): the verdict on a STARTING_UP. status is 0
 * or a negative errno: -EPROTO (ABI mismatch; abi_* say what the module
 * speaks), -EBUSY (another daemon is registered and alive), -EINVAL (bad
 * configuration values).
 */
struct ksmbd_startup_response {
	__u32 abi_magic;
	__u32 abi_version;
	__s32 status;
	__u32 reserved;
};

/* SHUTTING_DOWN (D->K): the daemon is leaving; the server stops serving. */
struct ksmbd_shutdown_request {
	__u32 reserved;
};

/* KSMBD_USER_FLAG_*: ksmbd_login_response.status and account flags */
#define KSMBD_USER_FLAG_INVALID		0
#define KSMBD_USER_FLAG_OK		0x01
#define KSMBD_USER_FLAG_BAD_PASSWORD	0x02
#define KSMBD_USER_FLAG_BAD_UID		0x04	/* no Unix account behind it */
#define KSMBD_USER_FLAG_BAD_USER	0x08	/* not in the user database */
#define KSMBD_USER_FLAG_GUEST_ACCOUNT	0x10

/* ksmbd_login_request.flags */
#define KSMBD_LOGIN_FLAG_GUEST		0x1	/* the guest account's record */

/*
 * LOGIN_REQUEST (K->D): look up one account, or with KSMBD_LOGIN_FLAG_GUEST
 * the configured guest account (account is then empty and ignored).
 */
struct ksmbd_login_request {
	__u32 handle;
	char account[KSMBD_REQ_MAX_ACCOUNT_NAME_SZ];
	__u32 flags;			/* KSMBD_LOGIN_FLAG_* */
};

/*
 * LOGIN_RESPONSE (D->K): the account's record. Login fails unless status
 * has KSMBD_USER_FLAG_OK. hash_sz is 0 (guest, or failure) or
 * KSMBD_REQ_MAX_HASH_SZ. groups[0..ngroups) are the Unix account's
 * supplementary groups (primary gid may be among them); entries past
 * ngroups are zero. A user in more groups than fit is refused by the
 * daemon (KSMBD_USER_FLAG_BAD_UID), never cut short: a dropped group can
 * grant more than it takes (mode bits of "other").
 */
struct ksmbd_login_response {
	__u32 handle;
	__u32 gid;
	__u32 uid;
	__u16 status;			/* KSMBD_USER_FLAG_* */
	__u16 hash_sz;
	char account[KSMBD_REQ_MAX_ACCOUNT_NAME_SZ];	/* as the database spells it */
	__u8 hash[KSMBD_REQ_MAX_HASH_SZ];
	__u32 ngroups;			/* <= KSMBD_LOGIN_MAX_GROUPS */
	__u32 groups[KSMBD_LOGIN_MAX_GROUPS];
};

/* KSMBD_SHARE_FLAG_*: ksmbd_share_config_response.flags */
#define KSMBD_SHARE_FLAG_INVALID		0	/* no such share */
#define KSMBD_SHARE_FLAG_AVAILABLE		0x0001
#define KSMBD_SHARE_FLAG_BROWSEABLE		0x0002
#define KSMBD_SHARE_FLAG_WRITEABLE		0x0004
#define KSMBD_SHARE_FLAG_READONLY		0x0008
#define KSMBD_SHARE_FLAG_GUEST_OK		0x0010
#define KSMBD_SHARE_FLAG_GUEST_ONLY		0x0020
#define KSMBD_SHARE_FLAG_STORE_DOS_ATTRS	0x0040
#define KSMBD_SHARE_FLAG_OPLOCKS		0x0080
#define KSMBD_SHARE_FLAG_PIPE			0x0100
#define KSMBD_SHARE_FLAG_HIDE_DOT_FILES		0x0200
#define KSMBD_SHARE_FLAG_INHERIT_OWNER		0x0400
#define KSMBD_SHARE_FLAG_STREAMS		0x0800
#define KSMBD_SHARE_FLAG_FOLLOW_SYMLINKS	0x1000	/* never honoured */
#define KSMBD_SHARE_FLAG_ACL_XATTR		0x2000
#define KSMBD_SHARE_FLAG_ENCRYPT		0x4000	/* smb3 encryption required */
#define KSMBD_SHARE_FLAG_ENCRYPT_DESIRED	0x8000	/* smb3 encryption = yes */
#define KSMBD_SHARE_FLAG_HIDE_UNREADABLE	0x10000	/* access-based enumeration */

/* force_uid / force_gid when nothing is forced */
#define KSMBD_SHARE_INVALID_ID			0xFFFFFFFFu

/* SHARE_CONFIG_REQUEST (K->D): describe one share. */
struct ksmbd_share_config_request {
	__u32 handle;
	char share_name[KSMBD_REQ_MAX_SHARE_NAME];
};

/*
 * SHARE_CONFIG_RESPONSE (D->K). payload[] holds veto_list_sz bytes of veto
 * patterns (each NUL-terminated), then path_sz bytes of the share's path
 * (NUL-terminated, path_sz counts the NUL). For an unknown share flags is
 * KSMBD_SHARE_FLAG_INVALID and both sizes are 0; the IPC$ pipe share has
 * no path (path_sz 0); every other share has an absolute path.
 */
struct ksmbd_share_config_response {
	__u32 handle;
	__u32 flags;			/* KSMBD_SHARE_FLAG_* */
	__u16 create_mask;
	__u16 directory_mask;
	__u16 force_create_mode;
	__u16 force_directory_mode;
	__u32 force_uid;		/* KSMBD_SHARE_INVALID_ID: not forced */
	__u32 force_gid;
	__u32 veto_list_sz;
	__u32 path_sz;
	__u8 payload[];
};

/* KSMBD_TREE_CONN_STATUS_*: ksmbd_tree_connect_response.status */
enum KSMBD_TREE_CONN_STATUS {
	KSMBD_TREE_CONN_STATUS_OK		= 0,
	KSMBD_TREE_CONN_STATUS_NOMEM,
	KSMBD_TREE_CONN_STATUS_NO_SHARE,
	KSMBD_TREE_CONN_STATUS_NO_USER,
	KSMBD_TREE_CONN_STATUS_INVALID_USER,
	KSMBD_TREE_CONN_STATUS_HOST_DENIED	= 5,
	KSMBD_TREE_CONN_STATUS_CONN_EXIST,
	KSMBD_TREE_CONN_STATUS_TOO_MANY_CONNS,
	KSMBD_TREE_CONN_STATUS_TOO_MANY_SESSIONS,
	KSMBD_TREE_CONN_STATUS_ERROR,
};

/* ksmbd_tree_connect_request.flags */
#define KSMBD_TREE_CONN_FLAG_REQUEST_SMB1	0
#define KSMBD_TREE_CONN_FLAG_REQUEST_IPV6	0x1
#define KSMBD_TREE_CONN_FLAG_REQUEST_SMB2	0x2

/* ksmbd_tree_connect_response.connection_flags */
#define KSMBD_TREE_CONN_FLAG_GUEST_ACCOUNT	0x1
#define KSMBD_TREE_CONN_FLAG_READ_ONLY		0x2
#define KSMBD_TREE_CONN_FLAG_WRITABLE		0x4
#define KSMBD_TREE_CONN_FLAG_ADMIN_ACCOUNT	0x8
#define KSMBD_TREE_CONN_FLAG_IPC		0x10	/* the IPC$ pipe share */

/* TREE_CONNECT_REQUEST (K->D): may this session connect to this share? */
struct ksmbd_tree_connect_request {
	__u32 handle;
	__u16 account_flags;		/* the session user's KSMBD_USER_FLAG_* */
	__u16 flags;			/* KSMBD_TREE_CONN_FLAG_REQUEST_* */
	__u64 session_id;
	__u64 connect_id;		/* the tree id the kernel will use */
	char account[KSMBD_REQ_MAX_ACCOUNT_NAME_SZ];
	char share[KSMBD_REQ_MAX_SHARE_NAME];
	char peer_addr[KSMBD_PEER_ADDR_MAX];	/* client address as text */
};

/* TREE_CONNECT_RESPONSE (D->K): the verdict. */
struct ksmbd_tree_connect_response {
	__u32 handle;
	__u16 status;			/* KSMBD_TREE_CONN_STATUS_* */
	__u16 connection_flags;		/* KSMBD_TREE_CONN_FLAG_* */
};

/* TREE_DISCONNECT_REQUEST (K->D): a tree connection ended; no answer. */
struct ksmbd_tree_disconnect_request {
	__u64 session_id;
	__u64 connect_id;
};

/* LOGOUT_REQUEST (K->D): a user logged off; no answer. */
struct ksmbd_logout_request {
	char account[KSMBD_REQ_MAX_ACCOUNT_NAME_SZ];
	__u32 account_flags;		/* KSMBD_USER_FLAG_* */
	__u32 reserved;
};

/* ksmbd_rpc_command.flags in requests: the service and the operation */
#define KSMBD_RPC_METHOD_RETURN		0x001
#define KSMBD_RPC_SRVSVC_METHOD_INVOKE	0x002
#define KSMBD_RPC_SRVSVC_METHOD_RETURN	0x003
#define KSMBD_RPC_WKSSVC_METHOD_INVOKE	0x004
#define KSMBD_RPC_WKSSVC_METHOD_RETURN	0x005
#define KSMBD_RPC_IOCTL_METHOD		0x009	/* transact: write then read */
#define KSMBD_RPC_OPEN_METHOD		0x010
#define KSMBD_RPC_WRITE_METHOD		0x020
#define KSMBD_RPC_READ_METHOD		0x041
#define KSMBD_RPC_CLOSE_METHOD		0x080
#define KSMBD_RPC_RAP_METHOD		0x101
#define KSMBD_RPC_RESTRICTED_CONTEXT	0x200	/* guest session */
#define KSMBD_RPC_SAMR_METHOD_INVOKE	0x400
#define KSMBD_RPC_SAMR_METHOD_RETURN	0x401
#define KSMBD_RPC_LSARPC_METHOD_INVOKE	0x800
#define KSMBD_RPC_LSARPC_METHOD_RETURN	0x801

/* ksmbd_rpc_command.flags in responses: a status */
#define KSMBD_RPC_OK			0x00000000
#define KSMBD_RPC_EBAD_FUNC		0x00000001
#define KSMBD_RPC_EACCESS_DENIED	0x00000005
#define KSMBD_RPC_EBAD_FID		0x00000006
#define KSMBD_RPC_ENOMEM		0x00000008
#define KSMBD_RPC_EBAD_DATA		0x0000000D
#define KSMBD_RPC_ENOTIMPLEMENTED	0x00000040
#define KSMBD_RPC_EINVALID_PARAMETER	0x00000057
#define KSMBD_RPC_EMORE_DATA		0x000000EA
#define KSMBD_RPC_EINVALID_LEVEL	0x0000007C
#define KSMBD_RPC_SOME_NOT_MAPPED	0x00000107

/*
 * RPC_REQUEST (K->D) and RPC_RESPONSE (D->K): one named-pipe operation.
 * handle is fresh per request (it is never the pipe id, so answers to
 * pipe operations and to logins can never be confused); pipe_id names the
 * pipe, chosen by the kernel at open and kept until close. payload_sz
 * bytes follow, at most KSMBD_RPC_MAX_PAYLOAD: for OPEN the session user's
 * account name with its NUL (or nothing), for WRITE and IOCTL the DCE/RPC
 * bytes the client wrote; in an answer to READ or IOCTL the bytes for the
 * client, at most the request's max_out (KSMBD_RPC_EMORE_DATA when more
 * are waiting).
 */
struct ksmbd_rpc_command {
	__u32 handle;
	__u32 pipe_id;
	__u32 flags;			/* request: method bits; answer: status */
	__u32 payload_sz;
	__u32 max_out;			/* request: answer payload limit; answer: 0 */
	__u32 reserved;
	__u8 payload[];
};

/* SPNEGO_AUTHEN_REQUEST (K->D): a GSS token from SESSION_SETUP. */
struct ksmbd_spnego_authen_request {
	__u32 handle;
	__u32 spnego_blob_len;		/* <= KSMBD_SPNEGO_MAX_BLOB */
	__u8 spnego_blob[];
};

/* ksmbd_spnego_authen_response.status */
#define KSMBD_SPNEGO_OK			0
#define KSMBD_SPNEGO_DENIED		1	/* checked and refused, reason below or other */
#define KSMBD_SPNEGO_NOT_SUPPORTED	2	/* this daemon has no Kerberos */
/* Refusals with a named reason (ABI 3), for the kernel's trace. */
#define KSMBD_SPNEGO_EXPIRED		3	/* ticket expired or not yet valid */
#define KSMBD_SPNEGO_SKEW		4	/* authenticator outside the clock skew */
#define KSMBD_SPNEGO_REPLAY		5	/* authenticator seen before */
#define KSMBD_SPNEGO_WRONG_PRINCIPAL	6	/* ticket for a service without our key */
#define KSMBD_SPNEGO_BAD_KEY		7	/* ticket does not open with our key */
#define KSMBD_SPNEGO_NO_USER		8	/* no local account for the principal */
#define KSMBD_SPNEGO_STATUS_MAX		8

/*
 * SPNEGO_AUTHEN_RESPONSE (D->K). On KSMBD_SPNEGO_OK, login_response is the
 * user's record and payload[] holds session_key_len bytes of session key
 * followed by spnego_blob_len bytes of reply token; otherwise both are 0.
 */
struct ksmbd_spnego_authen_response {
	__u32 handle;
	__u32 status;			/* KSMBD_SPNEGO_* */
	struct ksmbd_login_response login_response;
	__u32 session_key_len;		/* <= KSMBD_SESSION_KEY_MAX */
	__u32 spnego_blob_len;		/* <= KSMBD_SPNEGO_MAX_BLOB */
	/* Seconds the ticket is still valid for; 0: no end known */
	__u32 valid_secs;
	__u8 payload[];
};

#endif /* _UAPI_KSMBD_NETLINK_H */
