/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Connection-oriented DCE/RPC PDUs (C706 chapter 12, MS-RPCE 2.2.2) as they
 * travel over ncacn_np: no authentication, little-endian NDR32 only.
 */
#ifndef KSMBD_RPC_DCERPC_H
#define KSMBD_RPC_DCERPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ndr.h"

#define DCERPC_HDR_LEN		16
#define DCERPC_REQ_HDR_LEN	24	/* request / response / fault */
#define DCERPC_FAULT_LEN	32

enum dcerpc_ptype {
	DCERPC_REQUEST = 0,
	DCERPC_RESPONSE = 2,
	DCERPC_FAULT = 3,
	DCERPC_BIND = 11,
	DCERPC_BIND_ACK = 12,
	DCERPC_BIND_NAK = 13,
	DCERPC_ALTER_CONTEXT = 14,
	DCERPC_ALTER_CONTEXT_RESP = 15,
	DCERPC_AUTH3 = 16,
	DCERPC_SHUTDOWN = 17,
	DCERPC_CO_CANCEL = 18,
	DCERPC_ORPHANED = 19,
};

enum dcerpc_pfc {
	DCERPC_PFC_FIRST_FRAG = 0x01,
	DCERPC_PFC_LAST_FRAG = 0x02,
	DCERPC_PFC_DID_NOT_EXECUTE = 0x20,
	DCERPC_PFC_OBJECT_UUID = 0x80,
};

/* p_cont_def_result_t and p_provider_reason_t (C706 12.6.3.1, MS-RPCE) */
enum dcerpc_ctx_result {
	DCERPC_ACCEPTANCE = 0,
	DCERPC_USER_REJECTION = 1,
	DCERPC_PROVIDER_REJECTION = 2,
	DCERPC_NEGOTIATE_ACK = 3,
};

enum dcerpc_ctx_reason {
	DCERPC_REASON_NOT_SPECIFIED = 0,
	DCERPC_ABSTRACT_SYNTAX_NOT_SUPPORTED = 1,
	DCERPC_TRANSFER_SYNTAXES_NOT_SUPPORTED = 2,
	DCERPC_LOCAL_LIMIT_EXCEEDED = 3,
};

/* p_reject_reason_t of bind_nak (C706 12.6.3.5, MS-RPCE 2.2.2.5) */
enum dcerpc_nak_reason {
	DCERPC_NAK_NOT_SPECIFIED = 0,
	DCERPC_NAK_LOCAL_LIMIT_EXCEEDED = 2,
	DCERPC_NAK_PROTOCOL_VERSION = 4,
	DCERPC_NAK_AUTH_TYPE_UNKNOWN = 8,
};

/* Fault status codes (C706 appendix E, MS-RPCE 2.2.2.11) */
#define NCA_S_FAULT_NDR			0x000006f7u
#define NCA_S_FAULT_REMOTE_NO_MEMORY	0x1c00001bu
#define NCA_S_OP_RNG_ERROR		0x1c010002u
#define NCA_S_UNKNOWN_IF		0x1c010003u
#define NCA_S_PROTO_ERROR		0x1c01000bu
#define NCA_S_UNSUPPORTED_TYPE		0x1c010017u

/* The smallest fragment every implementation must accept (C706 12.6.3.7). */
#define DCERPC_MIN_FRAG		1432
/* What we announce; also the largest request fragment we buffer. */
#define DCERPC_MAX_FRAG		4280
/* Largest request stub we reassemble from fragments. */
#define DCERPC_MAX_STUB		(1u << 20)
#define DCERPC_MAX_CONTEXTS	16

struct dcerpc_hdr {
	uint8_t vers;
	uint8_t vers_minor;
	uint8_t ptype;
	uint8_t flags;
	uint8_t drep[4];
	uint16_t frag_len;
	uint16_t auth_len;
	uint32_t call_id;
};

struct rpc_iface;

/*
 * One operation dispatcher per association: called with a complete request
 * stub, appends the response stub to @out and returns 0, or returns a fault
 * status (NCA_S_*) and leaves @out alone.
 */
typedef uint32_t (*dcerpc_dispatch_fn)(void *arg, const struct rpc_iface *iface,
				       uint16_t opnum, const uint8_t *stub,
				       size_t len, struct ndr_enc *out);

struct dcerpc_ctx {
	uint16_t id;
	const struct rpc_iface *iface;
};

/* State of one association (one opened pipe). */
struct dcerpc_assoc {
	const struct rpc_iface *const *ifaces;	/* NULL-terminated */
	const char *endpoint;			/* secondary address */
	dcerpc_dispatch_fn dispatch;
	void *dispatch_arg;

	bool bound;
	uint32_t assoc_group;
	uint16_t max_xmit;	/* our fragments toward the client */
	uint16_t max_recv;
	struct dcerpc_ctx ctx[DCERPC_MAX_CONTEXTS];
	unsigned int n_ctx;

	/* Request being reassembled from fragments. */
	bool in_call;
	uint32_t call_id;
	uint16_t call_ctx;
	uint16_t call_opnum;
	struct ndr_enc stub;
	/* A call faulted mid-way whose later fragments are ignored. */
	bool dropping;
	uint32_t drop_call_id;
};

/* Parse the 16-byte common header; -EINVAL when @len is too short. */
int dcerpc_hdr_parse(const uint8_t *buf, size_t len, struct dcerpc_hdr *h);
/* Parse "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into wire (LE fields) order. */
int dcerpc_uuid_parse(const char *s, uint8_t out[16]);

void dcerpc_assoc_init(struct dcerpc_assoc *a,
		       const struct rpc_iface *const *ifaces,
		       const char *endpoint, uint32_t assoc_group,
		       dcerpc_dispatch_fn dispatch, void *arg);
void dcerpc_assoc_release(struct dcerpc_assoc *a);
/*
 * Handle one complete PDU of frag_len bytes and append any response PDUs to
 * @out. Protocol errors become fault or bind_nak PDUs; returns a negative
 * errno only when @out could not be grown.
 */
int dcerpc_assoc_process(struct dcerpc_assoc *a, const uint8_t *pdu,
			 size_t len, struct ndr_enc *out);
/* A fault PDU for input too broken to parse (bad header). */
void dcerpc_put_fault(struct ndr_enc *out, uint32_t call_id, uint16_t ctx_id,
		      uint32_t status);

#endif
