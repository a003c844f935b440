/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksmbd.conf: the smb.conf dialect of ksmbd-tools and Samba.
 *
 * Syntax: "[section]" headers, "key = value" lines; ';' or '#' starts a
 * comment anywhere on a line (as ksmbd-tools reads it), a trailing '\'
 * joins the next line (as Samba does). Keys compare without case and
 * without blanks, so "read only", "readonly" and "Read Only" are one key.
 * Share-level keys written in [global] become the defaults of every share,
 * wherever [global] stands. As in ksmbd-tools: an empty value leaves a key
 * unset, a repeated section continues the first one, and a key given twice
 * in a section keeps its first value (both with a warning).
 *
 * Errors (bad values, a share without a path, ...) make loading fail;
 * unknown keys, and known ones whose value asks for something this server
 * does not do, are warned about. Every message lands in a struct
 * ksmbd_diag as "file:line: warning|error: text". man/ksmbd.conf.5 (from
 * the key table) lists every key.
 *
 * The parsed configuration is immutable: all accessors return const
 * pointers that live until ksmbd_config_free().
 */
#ifndef KSMBD_CONFIG_H
#define KSMBD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "diag.h"

/* Sizes include the terminating NUL; they match the netlink ABI fields. */
#define KSMBD_NETBIOS_NAME_SZ	16
#define KSMBD_WORKGROUP_SZ	64
#define KSMBD_SERVER_STRING_SZ	64
#define KSMBD_SHARE_NAME_SZ	64
#define KSMBD_ACCOUNT_NAME_SZ	48
#define KSMBD_KRB5_PATH_SZ	256
#define KSMBD_KRB5_SERVICE_SZ	256	/* "cifs" or a whole principal */

#define KSMBD_CONFIG_PATH	"/etc/ksmbd/ksmbd.conf"
#define KSMBD_IPC_SHARE		"IPC$"

/* SMB dialects by their wire value (MS-SMB2 2.2.3). */
enum ksmbd_dialect {
	KSMBD_DIALECT_SMB2_10 = 0x0210,
	KSMBD_DIALECT_SMB3_00 = 0x0300,
	KSMBD_DIALECT_SMB3_02 = 0x0302,
	KSMBD_DIALECT_SMB3_11 = 0x0311,
};

/* "server signing": auto (yes/no are accepted as auto/disabled). */
enum ksmbd_signing {
	KSMBD_SIGNING_AUTO,		/* sign when the client asks */
	KSMBD_SIGNING_MANDATORY,	/* refuse unsigned sessions */
	KSMBD_SIGNING_DISABLED,		/* never offer signing */
};

/* "smb3 encryption": no/off, yes/desired/auto, required/mandatory. */
enum ksmbd_encryption {
	KSMBD_ENCRYPTION_OFF,
	KSMBD_ENCRYPTION_DESIRED,	/* offered, used when the client can */
	KSMBD_ENCRYPTION_REQUIRED,	/* clients without it are refused */
};

/* "kerberos support": unset means offered when the keytab is readable. */
enum ksmbd_krb5_support {
	KSMBD_KRB5_AUTO,
	KSMBD_KRB5_YES,			/* offered; an unreadable keytab is an error at start */
	KSMBD_KRB5_NO,
};

/* "map to guest". */
enum ksmbd_map_to_guest {
	KSMBD_MAP_TO_GUEST_NEVER,
	KSMBD_MAP_TO_GUEST_BAD_USER,	/* unknown user names become guest */
};

/*
 * An algorithm preference list ("server smb3 encryption algorithms",
 * "server smb3 signing algorithms"): SMB2 ids, most preferred first;
 * count 0 means the module's default order.
 */
#define KSMBD_ALGLIST_MAX	4
struct ksmbd_alglist {
	unsigned int count;
	uint16_t ids[KSMBD_ALGLIST_MAX];
};

/* An owned array of owned strings; count 0 means "not set / empty". */
struct ksmbd_strlist {
	size_t count;
	char **items;
};

/*
 * [global]. Defaults (chosen to match what Samba users expect):
 *   netbios name    upper-cased host name up to the first '.', 15 chars
 *   server string   "SMB SERVER"
 *   workgroup       "WORKGROUP"
 *   tcp port        445
 *   server min/max protocol  SMB2_10 / SMB3_11
 *   server signing  auto          smb2 leases   yes
 *   server multi channel support  yes (Samba 4.15+ on Linux)
 *   smb3 directory leases  no (yes needs smb2 leases)
 *   smb3 encryption off           ipc timeout   10 s
 *   deadtime        0 (never)     max open files 10000
 *   smb2 max read/write/trans     4 MiB each (accepted 64 KiB .. 8 MiB)
 *   map to guest    never         guest account "nobody"
 *   restrict anonymous 0          bind interfaces only no
 *   interfaces      empty (all)   max connections 0 (unlimited)
 *   max sessions per connection  16 (1 .. 1024)
 *
 * Guests: "map to guest = bad user" logs unknown user names on as the
 * guest account (SMB2 IS_GUEST session); "restrict anonymous" 0 or 1
 * lets anonymous NTLMSSP logons in as the guest account (IS_NULL
 * session), 2 refuses them. Guest and anonymous sessions reach IPC$ and
 * shares with "guest ok" only; "server signing = mandatory" refuses
 * both (they have no key to sign with).
 *   oplock break timeout 35 s (MS-SMB2's default; 1 .. 3600)
 *   root directory  unset         share:fake_fscaps 0
 *   kerberos support unset (offered when the keytab is readable)
 */
struct ksmbd_global {
	char netbios_name[KSMBD_NETBIOS_NAME_SZ];
	char server_string[KSMBD_SERVER_STRING_SZ];
	char workgroup[KSMBD_WORKGROUP_SZ];
	uint16_t tcp_port;			/* 1..65535 */
	/*
	 * Aliases: "SMB2" is SMB2_10; "SMB3" is SMB3_00 as a minimum and
	 * SMB3_11 as a maximum. SMB2_02 as a minimum is raised to SMB2_10
	 * with a warning (we do not speak 2.02). min <= max is enforced.
	 */
	enum ksmbd_dialect min_protocol;
	enum ksmbd_dialect max_protocol;
	enum ksmbd_signing signing;
	bool smb2_leases;
	bool dir_leases;			/* smb3 directory leases */
	bool multi_channel;			/* session binding */
	enum ksmbd_encryption smb3_encryption;	/* also the share default */
	unsigned int ipc_timeout;		/* seconds, 0 = no heartbeat */
	unsigned int deadtime;			/* idle minutes, 0 = never */
	uint32_t max_open_files;		/* >= 1 */
	uint32_t smb2_max_read;			/* bytes */
	uint32_t smb2_max_write;		/* bytes */
	uint32_t smb2_max_trans;		/* bytes */
	enum ksmbd_map_to_guest map_to_guest;
	char guest_account[KSMBD_ACCOUNT_NAME_SZ];
	/*
	 * Kerberos (SPNEGO through the daemon): the keytab holding the
	 * service keys ("kerberos keytab", default /etc/krb5.keytab) and the
	 * service a ticket must be for ("kerberos service name", default
	 * cifs). Offered to clients when the keytab is readable at start.
	 */
	char krb5_keytab[KSMBD_KRB5_PATH_SZ];
	/* A service ("cifs") or a whole principal ("cifs/host@REALM"). */
	char krb5_service[KSMBD_KRB5_SERVICE_SZ];
	enum ksmbd_krb5_support krb5_support;
	/* Put in front of every share path ("root directory"); NULL: none. */
	char *root_dir;
	/* FileFsAttributeInformation bits added to what the file system has. */
	uint32_t fake_fscaps;
	unsigned int restrict_anonymous;	/* 0, 1 or 2 */
	bool bind_interfaces_only;
	struct ksmbd_strlist interfaces;	/* names or addresses */
	uint32_t max_connections;		/* whole server, 0 = unlimited */
	uint32_t max_ip_connections;		/* one peer address */
	uint32_t max_sessions_per_conn;		/* sessions on one connection */
	uint32_t max_open_files_per_session;
	uint32_t max_open_files_per_conn;
	uint32_t max_notify_watches_per_session;
	uint32_t max_locks_per_handle;
	uint32_t max_locks_per_file;	/* one file, every handle */
	uint64_t max_alloc_reservation;	/* bytes beyond EOF per connection */
	unsigned int oplock_break_timeout;	/* seconds, 1..3600 */
	/*
	 * Names as Samba spells them: AES-128-GCM, AES-128-CCM, AES-256-GCM,
	 * AES-256-CCM; AES-128-GMAC, AES-128-CMAC, HMAC-SHA256. Empty: the
	 * module's order (the ciphers in that order; GMAC, CMAC, HMAC).
	 */
	struct ksmbd_alglist encryption_algs;
	struct ksmbd_alglist signing_algs;
};

/*
 * One share. Defaults: read only yes, browseable yes, guest ok no,
 * guest only no, create mask 0744, directory mask 0755, force modes 0,
 * oplocks yes, store dos attributes yes, hide dot files yes,
 * max connections 0 (unlimited), smb3 encryption = the global setting.
 * The implicit IPC$ takes only "hosts allow" / "hosts deny" and
 * "smb3 encryption" from [global], so a host-restricted server stays
 * restricted for RPC too.
 */
struct ksmbd_share {
	char name[KSMBD_SHARE_NAME_SZ];	/* as written in the section header */
	char *path;			/* absolute (checked); NULL only for IPC$ */
	char *comment;			/* never NULL ("" when unset) */
	bool is_pipe;			/* true only for the implicit IPC$ */
	bool read_only;			/* "read only"; "writeable"/"writable"/"write ok" invert */
	bool browseable;		/* "browseable" / "browsable" */
	bool guest_ok;			/* "guest ok" / "public" */
	bool guest_only;		/* "guest only" / "only guest" */
	bool oplocks;
	bool store_dos_attributes;
	bool hide_dot_files;
	bool acl_xattr;			/* "acl xattr" or vfs objects = acl_xattr */
	bool hide_unreadable;		/* listings leave out what the user cannot read */
	/* User lists: names (case-insensitive) or @group / +group (Unix group). */
	struct ksmbd_strlist valid_users;	/* empty = everyone */
	struct ksmbd_strlist invalid_users;
	struct ksmbd_strlist read_list;		/* forced read-only */
	struct ksmbd_strlist write_list;	/* forced writable, wins over read list */
	struct ksmbd_strlist admin_users;	/* *admin in check_access; read only still applies */
	/*
	 * Host lists: "ALL", IPv4/IPv6 addresses, IPv4 prefixes ("10.",
	 * "192.168.1."), CIDR ("10.0.0.0/8", "fe80::/10"), address/netmask
	 * ("10.0.0.0/255.0.0.0"), and "A EXCEPT B". Host names are not
	 * resolved (they never match, and a warning is given when parsing).
	 */
	struct ksmbd_strlist hosts_allow;
	struct ksmbd_strlist hosts_deny;
	struct ksmbd_strlist veto_files;	/* patterns from "/a/b*\/c/" */
	mode_t create_mask;
	mode_t directory_mask;
	mode_t force_create_mode;
	mode_t force_directory_mode;
	char *force_user;		/* NULL = not forced */
	char *force_group;		/* NULL = not forced */
	bool inherit_owner;		/* not supported: the share is refused */
	uint32_t max_connections;	/* trees on this share, 0 = unlimited */
	enum ksmbd_encryption smb3_encryption;
	unsigned int line;		/* line of the section header, 0 for IPC$ */
};

struct ksmbd_config;

/* NULL on error (the reasons are in @diag, which may be NULL). */
struct ksmbd_config *ksmbd_config_load(const char *path, struct ksmbd_diag *diag);
/* @name is used in messages only. @text need not be NUL-terminated. */
struct ksmbd_config *ksmbd_config_parse(const char *text, size_t len,
					const char *name,
					struct ksmbd_diag *diag);
void ksmbd_config_free(struct ksmbd_config *cfg);

const struct ksmbd_global *ksmbd_config_global(const struct ksmbd_config *cfg);
/* Shares in file order, IPC$ always first. */
size_t ksmbd_config_share_count(const struct ksmbd_config *cfg);
const struct ksmbd_share *ksmbd_config_share_at(const struct ksmbd_config *cfg,
						size_t i);
/* Case-insensitive; NULL when there is no such share. */
const struct ksmbd_share *ksmbd_config_find_share(const struct ksmbd_config *cfg,
						  const char *name);

/* Access decision for a tree connect. */
enum ksmbd_tree_verdict {
	KSMBD_TREE_OK,
	KSMBD_TREE_NO_SHARE,
	KSMBD_TREE_DENIED_USER,
	KSMBD_TREE_DENIED_HOST,
	KSMBD_TREE_TOO_MANY,
};

/*
 * @s may be NULL (-> NO_SHARE). @user is the session's account name (the
 * guest account for guest sessions); @peer is the client's address as text,
 * IPv4 or IPv6 (IPv4-mapped IPv6 is treated as IPv4). On KSMBD_TREE_OK,
 * *writable and *admin (either may be NULL) say what the tree may do.
 * Order: hosts (an allow match wins, then a deny match, Samba's rule);
 * guest sessions need "guest ok"; invalid users, then valid users; then
 * writable = !read only, read list clears it, write list sets it; admin
 * from admin users. User lists are checked against @user as given (pass
 * the guest account for guests). IPC$ is always writable (RPC requests
 * are pipe writes). "guest only" is left to the caller, which decides the
 * session identity. This function knows no connection counts: see below.
 */
enum ksmbd_tree_verdict ksmbd_share_check_access(const struct ksmbd_share *s,
						 const char *user, bool is_guest,
						 const char *peer,
						 bool *writable, bool *admin);
/* KSMBD_TREE_TOO_MANY when @current trees already reach "max connections". */
enum ksmbd_tree_verdict ksmbd_share_check_connections(const struct ksmbd_share *s,
						      unsigned int current);

/* Helpers also used by the tools and tests. */
/* True when @peer matches the host list (empty list matches nothing). */
bool ksmbd_hostlist_match(const struct ksmbd_strlist *list, const char *peer);
/* True when @user is named in @list, directly or through @group/+group. */
bool ksmbd_userlist_match(const struct ksmbd_strlist *list, const char *user);

#endif
