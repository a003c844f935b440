/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of names and SIDs the RPC services answer with.
 *
 * A SID resolves in exactly one of these domains, always as the domain's
 * SID plus one last sub-authority (the RID), so a client can rebuild it
 * from ReferencedDomains and a RelativeId:
 *   - well-known principals: Everyone (S-1-1), LOCAL (S-1-2), CREATOR ...
 *     (S-1-3), NT AUTHORITY (S-1-5);
 *   - BUILTIN (S-1-5-32): Administrators, Users, Guests;
 *   - the account domain (the machine, S-1-5-21-a-b-c): Guest (501),
 *     Domain Admins (512), Domain Users (513), the backend's accounts,
 *     and every Unix user and group by the algorithmic RID rule below;
 *   - Samba's unmapped-Unix domains: Unix User (S-1-22-1-uid) and
 *     Unix Group (S-1-22-2-gid).
 * The module's security descriptors carry these SIDs, so what it maps to
 * a uid or gid must be what this table calls that user or group.
 */
#ifndef KSMBD_RPC_IDMAP_H
#define KSMBD_RPC_IDMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "ndr.h"
#include "rpc_backend.h"

/* Users are 1000 + 2 * uid, groups 1001 + 2 * gid (Samba's rule). */
#define IDMAP_RID_BASE		1000u
#define IDMAP_RID_GUEST		501u
#define IDMAP_RID_ADMINS	512u
#define IDMAP_RID_USERS		513u

enum idmap_domain {
	IDMAP_DOM_ACCOUNT,
	IDMAP_DOM_BUILTIN,
	IDMAP_DOM_NT_AUTHORITY,
	IDMAP_DOM_WORLD,
	IDMAP_DOM_LOCAL,
	IDMAP_DOM_CREATOR,
	IDMAP_DOM_UNIX_USER,
	IDMAP_DOM_UNIX_GROUP,
	IDMAP_DOM_COUNT,
	IDMAP_DOM_NONE = -1,
};

/* What a lookup searches; the lsarpc LookupLevel picks a set. */
#define IDMAP_VIEW_WELL_KNOWN	0x1u	/* well-known principals, BUILTIN */
#define IDMAP_VIEW_ACCOUNT	0x2u	/* the machine's account domain */
#define IDMAP_VIEW_UNIX		0x4u	/* Unix User, Unix Group */
#define IDMAP_VIEW_ALL		0x7u

struct idmap_ctx {
	const struct rpc_backend *be;
	struct rpc_server_info si;
	struct ndr_sid account;		/* the machine's domain SID */
};

struct idmap_entry {
	uint16_t use;			/* SID_NAME_USE; 8 (unknown) if none */
	int domain;			/* enum idmap_domain or IDMAP_DOM_NONE */
	uint32_t rid;			/* last sub-authority; ~0 for a domain */
	char name[RPC_NAME_LEN];	/* account name, without the domain */
	struct ndr_sid sid;
};

/* 0, or a negative errno when the backend cannot describe the server. */
int idmap_init(struct idmap_ctx *m, const struct rpc_backend *be);

/*
 * Translate @sid within @views. False when it does not resolve: then
 * @out says SidTypeUnknown, no domain, and the SID's text as its name.
 */
bool idmap_sid_to_name(const struct idmap_ctx *m, unsigned int views,
		       const struct ndr_sid *sid, struct idmap_entry *out);
/*
 * Translate "name", "DOMAIN\name" or a bare domain name within @views.
 * False when it does not resolve (@out then says SidTypeUnknown).
 */
bool idmap_name_to_sid(const struct idmap_ctx *m, unsigned int views,
		       const char *name, struct idmap_entry *out);

/* Name and SID of a domain for ReferencedDomains ("" for World etc.). */
const char *idmap_domain_name(const struct idmap_ctx *m,
			      enum idmap_domain d);
void idmap_domain_sid(const struct idmap_ctx *m, enum idmap_domain d,
		      struct ndr_sid *sid);

/* "S-1-5-21-1-2-3-1000"; always NUL-terminated, truncated if @size is short. */
void idmap_sid_text(const struct ndr_sid *sid, char *buf, size_t size);

/* samr's Builtin domain: Administrators, Users, Guests, from the table. */
const char *rpc_builtin_alias_name(uint32_t rid);
bool rpc_builtin_alias_rid(const char *name, uint32_t *rid);

/* The RID rule; false when the id is too large for a RID. */
bool idmap_user_rid(uint32_t uid, uint32_t *rid);
bool idmap_group_rid(uint32_t gid, uint32_t *rid);
/* The Unix id a RID of the rule stands for; false below the base. */
bool idmap_rid_to_unix(uint32_t rid, bool *group, uint32_t *id);

#endif
