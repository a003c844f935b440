/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client side, for tests: builds bind and request PDUs the way
 * rpcclient does and takes the server's response stream apart again.
 */
#ifndef KSMBD_TEST_RPC_CLIENT_H
#define KSMBD_TEST_RPC_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dcerpc.h"
#include "ndr.h"
#include "rpc_pipe.h"

#define UUID_NDR32	"8a885d04-1ceb-11c9-9fe8-08002b104860"
#define UUID_NDR64	"71710533-beba-4937-8319-b5dbef9ccc36"
#define UUID_BTFN	"6cb71c2c-9812-4540-0300-000000000000"
#define UUID_SRVSVC	"4b324fc8-1670-01d3-1278-5a47bf6ee188"
#define UUID_WKSSVC	"6bffd098-a112-3610-9833-46c3f87e345a"
#define UUID_LSARPC	"12345778-1234-abcd-ef00-0123456789ab"
#define UUID_SAMR	"12345778-1234-abcd-ef00-0123456789ac"

struct cli_ctx {
	uint16_t id;
	const char *abs_uuid;
	uint16_t abs_major, abs_minor;
	const char *ts_uuid;	/* one transfer syntax per element */
	uint16_t ts_major;
};

/* A bind (or alter_context) PDU with @n context elements. */
void cli_put_bind(struct ndr_enc *e, uint8_t ptype, uint32_t call_id,
		  uint16_t max_xmit, uint16_t max_recv,
		  const struct cli_ctx *ctx, unsigned int n);
/* One request fragment carrying @stub. */
void cli_put_request(struct ndr_enc *e, uint8_t flags, uint32_t call_id,
		     uint16_t ctx_id, uint16_t opnum, const uint8_t *stub,
		     size_t len);

struct cli_pdu {
	struct dcerpc_hdr h;
	const uint8_t *data;	/* whole PDU */
};

/* Next PDU of a response stream at *@off; false at the end or if broken. */
bool cli_next_pdu(const uint8_t *buf, size_t len, size_t *off,
		  struct cli_pdu *p);

/* Everything queued on the pipe, read in chunks of @chunk bytes. */
uint8_t *cli_read_all(struct rpc_pipe *p, size_t chunk, size_t *len);

struct cli_result {
	uint8_t ptype;		/* RESPONSE or FAULT (of the last PDU) */
	uint32_t fault;		/* status of a fault */
	uint8_t fault_flags;
	uint8_t *stub;		/* reassembled response stub */
	size_t len;
	unsigned int frags;
	bool framing_ok;	/* first/last flags and call ids consistent */
};

void cli_result_free(struct cli_result *r);
/* Parse a response stream for one call into @r; 0 or -EBADMSG. */
int cli_parse_response(const uint8_t *buf, size_t len, struct cli_result *r);

/*
 * Open @pipe on @be, bind to @uuid (version @maj.@min) as context 0, and
 * check the bind_ack accepted it. NULL on any failure.
 */
struct rpc_pipe *cli_open(const char *pipe, const struct rpc_backend *be,
			  const char *uuid, uint16_t maj, uint16_t min);

/*
 * One call as a single request fragment; the response is parsed into @r.
 * When RPC_WRITE_CORPUS names a directory, the bind + request is also saved
 * there as a fuzz seed named @seed (if @seed is not NULL).
 */
int cli_call(struct rpc_pipe *p, uint16_t opnum, const struct ndr_enc *stub,
	     struct cli_result *r, const char *seed);

#endif
