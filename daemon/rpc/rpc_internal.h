/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the RPC services: interface tables, the per-call context and
 * the per-pipe policy handle table.
 */
#ifndef KSMBD_RPC_INTERNAL_H
#define KSMBD_RPC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ndr.h"
#include "rpc_backend.h"

/* NTSTATUS (MS-ERREF 2.3) */
#define NT_STATUS_OK			0x00000000u
#define NT_STATUS_SOME_NOT_MAPPED	0x00000107u
#define NT_STATUS_MORE_ENTRIES		0x00000105u
#define NT_STATUS_INVALID_INFO_CLASS	0xc0000003u
#define NT_STATUS_INVALID_HANDLE	0xc0000008u
#define NT_STATUS_INVALID_PARAMETER	0xc000000du
#define NT_STATUS_ACCESS_DENIED		0xc0000022u
#define NT_STATUS_NO_SUCH_USER		0xc0000064u
#define NT_STATUS_NONE_MAPPED		0xc0000073u
#define NT_STATUS_INSUFFICIENT_RESOURCES 0xc000009au
#define NT_STATUS_NO_SUCH_DOMAIN	0xc00000dfu
#define NT_STATUS_INTERNAL_ERROR	0xc00000e5u

/* Win32 errors as WERROR (MS-ERREF 2.2) */
#define WERR_OK				0x00000000u
#define WERR_NOT_ENOUGH_MEMORY		0x00000008u
#define WERR_INVALID_PARAMETER		0x00000057u
#define WERR_INVALID_LEVEL		0x0000007cu
#define WERR_NET_NAME_NOT_FOUND		0x00000906u

/* SID_NAME_USE (MS-LSAT 2.2.13) */
enum rpc_sid_type {
	SID_TYPE_USER = 1,
	SID_TYPE_GROUP = 2,
	SID_TYPE_DOMAIN = 3,
	SID_TYPE_ALIAS = 4,
	SID_TYPE_WELL_KNOWN_GROUP = 5,
	SID_TYPE_UNKNOWN = 8,
};

#define RPC_MAX_HANDLES		64
#define RPC_MAX_LOOKUP		1000	/* range(0,1000) of the lookup calls */

enum rpc_handle_kind {
	RPC_HANDLE_FREE = 0,
	RPC_HANDLE_LSA_POLICY,
	RPC_HANDLE_SAMR_SERVER,
	RPC_HANDLE_SAMR_DOMAIN,
	RPC_HANDLE_SAMR_USER,
};

struct rpc_handle {
	enum rpc_handle_kind kind;
	uint8_t wire[NDR_HANDLE_SIZE];
	bool builtin;		/* SAMR_DOMAIN: the Builtin domain */
	uint32_t rid;		/* SAMR_USER */
};

struct rpc_handle_table {
	struct rpc_handle h[RPC_MAX_HANDLES];
};

struct rpc_call {
	struct rpc_handle_table *handles;
	const struct rpc_backend *be;
	const char *user;
	struct ndr_dec in;
	struct ndr_enc *out;
};

typedef uint32_t (*rpc_op_fn)(struct rpc_call *c);

struct rpc_op {
	uint16_t opnum;
	rpc_op_fn fn;
};

struct rpc_iface {
	const char *name;
	const char *uuid;
	uint16_t ver_major;
	uint16_t ver_minor;
	const struct rpc_op *ops;
	unsigned int n_ops;
};

extern const struct rpc_iface rpc_srvsvc_iface;
extern const struct rpc_iface rpc_wkssvc_iface;
extern const struct rpc_iface rpc_lsarpc_iface;
extern const struct rpc_iface rpc_samr_iface;

/* NULL when the table is full. */
struct rpc_handle *rpc_handle_new(struct rpc_handle_table *t,
				  enum rpc_handle_kind kind);
/* NULL unless @wire names a live handle of @kind in this table. */
struct rpc_handle *rpc_handle_find(struct rpc_handle_table *t,
				   const uint8_t wire[NDR_HANDLE_SIZE],
				   enum rpc_handle_kind kind);
void rpc_handle_free(struct rpc_handle *h);

/* Helpers shared by the services. */
/* The backend's server description; -ENOSYS without a backend. */
int rpc_backend_server(const struct rpc_backend *be,
		       struct rpc_server_info *si);
int rpc_server_info(const struct rpc_call *c, struct rpc_server_info *si);
void rpc_domain_sid(const struct rpc_server_info *si, struct ndr_sid *sid);
void rpc_builtin_sid(struct ndr_sid *sid);
/* ASCII case-insensitive compare, enough for NetBIOS-style names. */
bool rpc_name_eq(const char *a, const char *b);
/*
 * Closes the handle decoded from the input when @ours accepts its kind and
 * writes a zeroed one back; INVALID_HANDLE (handle echoed) otherwise.
 */
uint32_t rpc_close_handle(struct rpc_call *c,
			  bool (*ours)(enum rpc_handle_kind kind));
/* Opens a handle of @kind and writes it; zeros + status on failure. */
uint32_t rpc_put_new_handle(struct rpc_call *c, enum rpc_handle_kind kind,
			    struct rpc_handle **out);

#endif
