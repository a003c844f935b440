/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the RPC services need from the rest of the daemon.
 *
 * The daemon fills a struct rpc_backend with callbacks over its config and
 * user database; unit tests and the fuzzer fill it with a fake. Callbacks
 * copy into caller-owned structs so nothing the backend owns has to stay
 * alive across a call (a config reload can happen between two PDUs).
 * Every callback returns 0 or a negative errno (-ENOENT: no such object).
 * Strings are UTF-8 and NUL-terminated; one that does not fit its buffer
 * is an error for the backend to report (-ENAMETOOLONG), not to truncate.
 */
#ifndef KSMBD_RPC_BACKEND_H
#define KSMBD_RPC_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPC_NAME_LEN		257	/* share, user, host, domain names */
#define RPC_COMMENT_LEN		257
#define RPC_PATH_LEN		4096

/* MS-SRVS 2.2.2.4 share types */
#define RPC_STYPE_DISKTREE	0x00000000u
#define RPC_STYPE_IPC		0x00000003u
#define RPC_STYPE_SPECIAL	0x80000000u

/* MS-SRVS 2.2.2.7 server type bits commonly set by a file server */
#define RPC_SV_TYPE_WORKSTATION		0x00000001u
#define RPC_SV_TYPE_SERVER		0x00000002u
#define RPC_SV_TYPE_SERVER_UNIX		0x00000800u
#define RPC_SV_TYPE_SERVER_NT		0x00008000u
#define RPC_SV_TYPE_POTENTIAL_BROWSER	0x00010000u

struct rpc_server_info {
	char netbios_name[RPC_NAME_LEN];	/* e.g. "KSMBD" */
	char comment[RPC_COMMENT_LEN];		/* "server string" */
	char workgroup[RPC_NAME_LEN];		/* workgroup / domain */
	uint32_t version_major;			/* e.g. 6 */
	uint32_t version_minor;			/* e.g. 1 */
	uint32_t server_type;			/* RPC_SV_TYPE_* */
	/* Machine domain SID is S-1-5-21-sid[0]-sid[1]-sid[2]. */
	uint32_t domain_sid[3];
	/*
	 * samr's DomainPasswordInformation. ksmbd.adduser enforces neither,
	 * so the daemon leaves both 0; the test backend sets them.
	 */
	uint16_t min_password_length;
	uint16_t password_history_length;
};

struct rpc_share_info {
	char name[RPC_NAME_LEN];
	uint32_t type;			/* RPC_STYPE_*, IPC$ is IPC|SPECIAL */
	char comment[RPC_COMMENT_LEN];
	char path[RPC_PATH_LEN];	/* Unix path; "" for IPC$ */
	uint32_t current_uses;
	uint32_t max_uses;		/* 0xffffffff: unlimited */
	bool browseable;		/* false hides it from enumeration */
};

enum rpc_account_type {
	RPC_ACCOUNT_USER = 1,		/* SidTypeUser */
	RPC_ACCOUNT_GROUP = 2,		/* SidTypeGroup */
};

struct rpc_account {
	enum rpc_account_type type;
	char name[RPC_NAME_LEN];
	char full_name[RPC_NAME_LEN];	/* "" when unknown */
	uint32_t uid;			/* Unix id (gid for groups) */
	uint32_t gid;			/* primary Unix group for users */
	uint32_t rid;			/* relative id in the machine domain */
	uint32_t primary_group_rid;	/* users only, e.g. 513 */
};

#define RPC_UNIX_ONLY	1	/* find_account_by_rid: not an account */

struct rpc_backend {
	void *ctx;
	int (*get_server)(void *ctx, struct rpc_server_info *out);
	/* Shares in a stable order by index; -ENOENT past the last one. */
	int (*get_share)(void *ctx, size_t index, struct rpc_share_info *out);
	/* Case-insensitive lookup of users and groups of the machine domain. */
	int (*find_account)(void *ctx, const char *name,
			    struct rpc_account *out);
	/*
	 * By RID: 0 for an account. For a RID of the rule whose Unix user or
	 * group exists but is no account, RPC_UNIX_ONLY with @out filled in
	 * (type, name, ids), so the caller needs no unix_name() to name it;
	 * -ENOENT when the RID names no account and no Unix id at all.
	 */
	int (*find_account_by_rid)(void *ctx, uint32_t rid,
				   struct rpc_account *out);
	/* Group rids the user (by rid) belongs to, primary group included. */
	int (*get_user_groups)(void *ctx, uint32_t user_rid, uint32_t *rids,
			       size_t max, size_t *count);
	/*
	 * Any Unix user (@group false) or group, with or without an SMB
	 * account: its name by id, its id by (case-sensitive) name.
	 */
	int (*unix_name)(void *ctx, bool group, uint32_t id, char *name,
			 size_t size);
	int (*unix_id)(void *ctx, bool group, const char *name, uint32_t *id);
	/* How many users and groups the account domain holds. */
	int (*count_accounts)(void *ctx, uint32_t *users, uint32_t *groups);
};

#endif
