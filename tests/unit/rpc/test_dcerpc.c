// SPDX-License-Identifier: GPL-2.0
/* DCE/RPC PDUs through rpc_pipe: bind, faults, fragments, pipe API. */
#include <errno.h>
#include <stdlib.h>

#include "testlib.h"
#include "fake_backend.h"
#include "rpc_client.h"

static struct fake_ctx fctx;
static struct rpc_backend be;

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Write @e, read everything back; caller frees. */
static uint8_t *exchange(struct rpc_pipe *p, struct ndr_enc *e, size_t *len)
{
	int rc = rpc_pipe_write(p, e->data, e->len);

	ndr_enc_free(e);
	ndr_enc_init(e);
	if (rc)
		return NULL;
	return cli_read_all(p, 512, len);
}

static const struct cli_ctx srvsvc_ctx = {
	0, UUID_SRVSVC, 3, 0, UUID_NDR32, 2
};

TEST(bind_accepts_srvsvc)
{
	struct rpc_pipe *p = rpc_pipe_open("\\PIPE\\SrvSvc", &be, "alice");
	struct ndr_enc e;
	struct cli_pdu pdu;
	uint8_t *out, ndr32[16];
	size_t len, off = 0, res;

	CHECK(p != NULL);
	if (!p)
		return;
	ndr_enc_init(&e);
	cli_put_bind(&e, DCERPC_BIND, 7, 2000, 3000, &srvsvc_ctx, 1);
	out = exchange(p, &e, &len);
	CHECK(out && cli_next_pdu(out, len, &off, &pdu));
	CHECK_EQ_INT(off, len);
	CHECK_EQ_INT(pdu.h.ptype, DCERPC_BIND_ACK);
	CHECK_EQ_INT(pdu.h.call_id, 7);
	CHECK_EQ_INT(pdu.h.flags, DCERPC_PFC_FIRST_FRAG | DCERPC_PFC_LAST_FRAG);
	CHECK_EQ_INT(le16(pdu.data + 16), 3000);	/* our xmit <= its recv */
	CHECK_EQ_INT(le16(pdu.data + 18), 2000);
	CHECK(le32(pdu.data + 20) != 0);		/* assoc group */
	CHECK_EQ_INT(le16(pdu.data + 24), 13);		/* "\PIPE\srvsvc\0" */
	CHECK_EQ_MEM(pdu.data + 26, "\\PIPE\\srvsvc", 13);
	res = 26 + 13 + 1;				/* padded to 4 */
	CHECK_EQ_INT(pdu.data[res], 1);
	CHECK_EQ_INT(le16(pdu.data + res + 4), DCERPC_ACCEPTANCE);
	dcerpc_uuid_parse(UUID_NDR32, ndr32);
	CHECK_EQ_MEM(pdu.data + res + 8, ndr32, 16);
	CHECK_EQ_INT(le32(pdu.data + res + 24), 2);
	CHECK_EQ_INT(pdu.h.frag_len, res + 28);
	free(out);
	rpc_pipe_close(p);
}

TEST(bind_rejects_per_context)
{
	const struct cli_ctx ctx[] = {
		{ 0, UUID_SRVSVC, 3, 0, UUID_NDR32, 2 },
		{ 1, UUID_LSARPC, 0, 0, UUID_NDR32, 2 },	/* other pipe */
		{ 2, UUID_SRVSVC, 3, 0, UUID_NDR64, 1 },
		{ 3, UUID_SRVSVC, 3, 0, UUID_BTFN, 1 },
		{ 4, UUID_SRVSVC, 2, 0, UUID_NDR32, 2 },	/* version */
	};
	static const uint16_t want[][2] = {
		{ DCERPC_ACCEPTANCE, 0 },
		{ DCERPC_PROVIDER_REJECTION,
		  DCERPC_ABSTRACT_SYNTAX_NOT_SUPPORTED },
		{ DCERPC_PROVIDER_REJECTION,
		  DCERPC_TRANSFER_SYNTAXES_NOT_SUPPORTED },
		{ DCERPC_NEGOTIATE_ACK, 0 },
		{ DCERPC_PROVIDER_REJECTION,
		  DCERPC_ABSTRACT_SYNTAX_NOT_SUPPORTED },
	};
	struct rpc_pipe *p = rpc_pipe_open("srvsvc", &be, "alice");
	struct ndr_enc e;
	struct cli_pdu pdu;
	uint8_t *out;
	size_t len, off = 0, res = 40, i;
	uint8_t zero[20] = { 0 };

	ndr_enc_init(&e);
	cli_put_bind(&e, DCERPC_BIND, 1, 4280, 4280, ctx, 5);
	out = exchange(p, &e, &len);
	CHECK(out && cli_next_pdu(out, len, &off, &pdu));
	CHECK_EQ_INT(pdu.h.ptype, DCERPC_BIND_ACK);
	CHECK_EQ_INT(pdu.data[res], 5);
	CHECK_EQ_INT(pdu.h.frag_len, res + 4 + 5 * 24);
	for (i = 0; i < 5 && pdu.h.frag_len == res + 4 + 5 * 24; i++) {
		const uint8_t *r = pdu.data + res + 4 + 24 * i;

		CHECK_EQ_INT(le16(r), want[i][0]);
		CHECK_EQ_INT(le16(r + 2), want[i][1]);
		if (i)
			CHECK_EQ_MEM(r + 4, zero, 20);
	}
	free(out);
	rpc_pipe_close(p);
}

static uint32_t expect_fault(const uint8_t *out, size_t len,
			     uint32_t call_id)
{
	struct cli_result r;
	uint32_t status = 0;

	if (!out || cli_parse_response(out, len, &r) || r.frags != 1 ||
	    r.ptype != DCERPC_FAULT)
		return 0xffffffff;
	if (le32(out + 12) == call_id &&
	    (r.fault_flags & DCERPC_PFC_DID_NOT_EXECUTE))
		status = r.fault;
	cli_result_free(&r);
	return status;
}

TEST(big_endian_drep_faults)
{
	struct rpc_pipe *p = rpc_pipe_open("srvsvc", &be, "alice");
	struct ndr_enc e;
	uint8_t *out;
	size_t len;
	uint16_t fl;

	ndr_enc_init(&e);
	cli_put_bind(&e, DCERPC_BIND, 0x01020304, 4280, 4280, &srvsvc_ctx, 1);
	/* Flip the header to big-endian, as such a client would send it. */
	e.data[4] = 0x00;
	fl = le16(e.data + 8);
	e.data[8] = fl >> 8;
	e.data[9] = fl & 0xff;
	e.data[12] = 1; e.data[13] = 2; e.data[14] = 3; e.data[15] = 4;
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(expect_fault(out, len, 0x01020304),
		     NCA_S_UNSUPPORTED_TYPE);
	free(out);
	/* Not bound afterwards: a request is a protocol error. */
	cli_put_request(&e, 3, 9, 0, 21, (const uint8_t *)"\0\0\0\0", 4);
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(expect_fault(out, len, 9), NCA_S_PROTO_ERROR);
	free(out);
	ndr_enc_free(&e);
	rpc_pipe_close(p);
}

static uint16_t nak_reason(const uint8_t *out, size_t len)
{
	struct cli_pdu pdu;
	size_t off = 0;

	if (!out || !cli_next_pdu(out, len, &off, &pdu) ||
	    pdu.h.ptype != DCERPC_BIND_NAK || pdu.h.frag_len < 18)
		return 0xffff;
	return le16(pdu.data + 16);
}

TEST(bind_nak_cases)
{
	struct rpc_pipe *p = rpc_pipe_open("srvsvc", &be, "alice");
	struct ndr_enc e;
	uint8_t *out;
	size_t len;

	ndr_enc_init(&e);
	/* Protocol version 4. */
	cli_put_bind(&e, DCERPC_BIND, 1, 4280, 4280, &srvsvc_ctx, 1);
	e.data[0] = 4;
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(nak_reason(out, len), DCERPC_NAK_PROTOCOL_VERSION);
	free(out);
	/* Fragments below the C706 minimum. */
	cli_put_bind(&e, DCERPC_BIND, 2, 4280, 100, &srvsvc_ctx, 1);
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(nak_reason(out, len), DCERPC_NAK_LOCAL_LIMIT_EXCEEDED);
	free(out);
	/* An auth verifier: we have no authentication on named pipes. */
	cli_put_bind(&e, DCERPC_BIND, 3, 4280, 4280, &srvsvc_ctx, 1);
	e.data[10] = 8;
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(nak_reason(out, len), DCERPC_NAK_AUTH_TYPE_UNKNOWN);
	free(out);
	/* No context elements. */
	cli_put_bind(&e, DCERPC_BIND, 4, 4280, 4280, &srvsvc_ctx, 0);
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(nak_reason(out, len), DCERPC_NAK_NOT_SPECIFIED);
	free(out);
	/* A good bind, then a second one. */
	cli_put_bind(&e, DCERPC_BIND, 5, 4280, 4280, &srvsvc_ctx, 1);
	free(exchange(p, &e, &len));
	cli_put_bind(&e, DCERPC_BIND, 6, 4280, 4280, &srvsvc_ctx, 1);
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(nak_reason(out, len), DCERPC_NAK_NOT_SPECIFIED);
	free(out);
	ndr_enc_free(&e);
	rpc_pipe_close(p);
}

/* NetrShareGetInfo(\\KSMBDTEST, "public", 1) */
static void share_get_info_stub(struct ndr_enc *s)
{
	ndr_enc_init(s);
	ndr_put_string_ptr(s, "\\\\" FAKE_NETBIOS);
	ndr_put_string(s, "public");
	ndr_put_u32(s, 1);
}

TEST(unknown_opnum_and_context)
{
	struct rpc_pipe *p = cli_open("srvsvc", &be, UUID_SRVSVC, 3, 0);
	struct ndr_enc e, s;
	uint8_t *out;
	size_t len;

	CHECK(p != NULL);
	if (!p)
		return;
	share_get_info_stub(&s);
	ndr_enc_init(&e);
	cli_put_request(&e, 3, 40, 0, 200, s.data, s.len);
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(expect_fault(out, len, 40), NCA_S_OP_RNG_ERROR);
	free(out);
	cli_put_request(&e, 3, 41, 5, 16, s.data, s.len);
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(expect_fault(out, len, 41), NCA_S_UNKNOWN_IF);
	free(out);
	/* Unknown PDU type. */
	cli_put_request(&e, 3, 42, 0, 16, s.data, s.len);
	e.data[2] = DCERPC_AUTH3 + 10;
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(expect_fault(out, len, 42), NCA_S_PROTO_ERROR);
	free(out);
	ndr_enc_free(&e);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

static struct cli_result single_call(struct rpc_pipe *p)
{
	struct cli_result r;
	struct ndr_enc s;

	share_get_info_stub(&s);
	cli_call(p, 16, &s, &r, NULL);
	ndr_enc_free(&s);
	return r;
}

TEST(request_reassembly)
{
	struct rpc_pipe *p = cli_open("srvsvc", &be, UUID_SRVSVC, 3, 0);
	struct cli_result want, got;
	struct ndr_enc e, s;
	uint8_t *out;
	size_t len, i, cut1, cut2;

	if (!p) {
		CHECK(p != NULL);
		return;
	}
	want = single_call(p);
	CHECK_EQ_INT(want.ptype, DCERPC_RESPONSE);
	share_get_info_stub(&s);
	cut1 = 8;
	cut2 = 24;
	ndr_enc_init(&e);
	cli_put_request(&e, DCERPC_PFC_FIRST_FRAG, 50, 0, 16, s.data, cut1);
	cli_put_request(&e, 0, 50, 0, 16, s.data + cut1, cut2 - cut1);
	cli_put_request(&e, DCERPC_PFC_LAST_FRAG, 50, 0, 16, s.data + cut2,
			s.len - cut2);
	/* Byte by byte: framing must not depend on write boundaries. */
	for (i = 0; i < e.len; i++)
		CHECK_EQ_INT(rpc_pipe_write(p, e.data + i, 1), 0);
	out = cli_read_all(p, 100, &len);
	CHECK(out && !cli_parse_response(out, len, &got));
	CHECK_EQ_INT(got.ptype, DCERPC_RESPONSE);
	CHECK_EQ_INT(got.len, want.len);
	if (got.len == want.len)
		CHECK_EQ_MEM(got.stub, want.stub, want.len);
	free(out);
	cli_result_free(&got);
	cli_result_free(&want);
	ndr_enc_free(&e);

	/* A middle fragment of another call is a protocol error. */
	ndr_enc_init(&e);
	cli_put_request(&e, DCERPC_PFC_FIRST_FRAG, 60, 0, 16, s.data, cut1);
	cli_put_request(&e, DCERPC_PFC_LAST_FRAG, 61, 0, 16, s.data + cut1,
			s.len - cut1);
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(expect_fault(out, len, 61), NCA_S_PROTO_ERROR);
	free(out);
	ndr_enc_free(&e);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

TEST(reassembly_bounded)
{
	struct rpc_pipe *p = cli_open("srvsvc", &be, UUID_SRVSVC, 3, 0);
	static uint8_t chunk[4096];
	struct ndr_enc e;
	uint8_t *out;
	size_t len, i, faults = 0;
	struct cli_pdu pdu;
	size_t off = 0;

	if (!p) {
		CHECK(p != NULL);
		return;
	}
	ndr_enc_init(&e);
	/* 300 x 4 KiB = 1.2 MiB of stub for one call. */
	for (i = 0; i < 300; i++) {
		cli_put_request(&e, i == 0 ? DCERPC_PFC_FIRST_FRAG :
				i == 299 ? DCERPC_PFC_LAST_FRAG : 0, 70, 0,
				16, chunk, sizeof(chunk));
		CHECK_EQ_INT(rpc_pipe_write(p, e.data, e.len), 0);
		ndr_enc_free(&e);
		ndr_enc_init(&e);
	}
	out = cli_read_all(p, 4096, &len);
	while (out && cli_next_pdu(out, len, &off, &pdu)) {
		CHECK_EQ_INT(pdu.h.ptype, DCERPC_FAULT);
		CHECK_EQ_INT(le32(pdu.data + 24), NCA_S_PROTO_ERROR);
		faults++;
	}
	CHECK_EQ_INT(faults, 1);
	free(out);
	/* The pipe still works afterwards. */
	struct cli_result r = single_call(p);

	CHECK_EQ_INT(r.ptype, DCERPC_RESPONSE);
	cli_result_free(&r);
	rpc_pipe_close(p);
}

TEST(response_fragmentation)
{
	struct fake_ctx many = { .extra_shares = 60 };
	struct rpc_backend mbe;
	struct rpc_pipe *p;
	struct ndr_enc e, s;
	struct cli_pdu pdu;
	struct cli_result r;
	uint8_t *out;
	size_t len, off = 0, frags = 0, stub = 0, total;

	fake_backend_init(&mbe, &many);
	p = rpc_pipe_open("srvsvc", &mbe, "alice");
	ndr_enc_init(&e);
	cli_put_bind(&e, DCERPC_BIND, 1, 4280, DCERPC_MIN_FRAG, &srvsvc_ctx,
		     1);
	out = exchange(p, &e, &len);
	CHECK(out && cli_next_pdu(out, len, &off, &pdu));
	CHECK_EQ_INT(le16(pdu.data + 16), DCERPC_MIN_FRAG);
	free(out);

	/* NetrShareEnum level 1 */
	ndr_enc_init(&s);
	ndr_put_string_ptr(&s, "\\\\" FAKE_NETBIOS);
	ndr_put_u32(&s, 1);
	ndr_put_u32(&s, 1);
	ndr_put_ptr(&s, true);
	ndr_put_u32(&s, 0);
	ndr_put_ptr(&s, false);
	ndr_put_u32(&s, 0xffffffff);
	ndr_put_ptr(&s, true);
	ndr_put_u32(&s, 0);
	cli_put_request(&e, 3, 2, 0, 15, s.data, s.len);
	out = exchange(p, &e, &len);
	off = 0;
	while (out && cli_next_pdu(out, len, &off, &pdu)) {
		CHECK(pdu.h.frag_len <= DCERPC_MIN_FRAG);
		CHECK_EQ_INT(pdu.h.ptype, DCERPC_RESPONSE);
		CHECK_EQ_INT(!!(pdu.h.flags & DCERPC_PFC_FIRST_FRAG),
			     frags == 0);
		CHECK_EQ_INT(!!(pdu.h.flags & DCERPC_PFC_LAST_FRAG),
			     off == len);
		if (off != len)
			CHECK_EQ_INT((pdu.h.frag_len - 24) % 8, 0);
		stub += pdu.h.frag_len - 24;
		frags++;
	}
	CHECK_EQ_INT(off, len);
	CHECK(frags > 3);
	CHECK(out && !cli_parse_response(out, len, &r));
	CHECK(r.framing_ok);
	CHECK_EQ_INT(r.len, stub);
	/* alloc_hint of the first fragment is the whole stub. */
	CHECK_EQ_INT(le32(out + 16), stub);
	/* level, level, ptr, count: IPC$ + public + 60 generated */
	CHECK_EQ_INT(le32(r.stub + 12), 62);
	total = le32(r.stub + r.len - 16);
	CHECK_EQ_INT(total, 62);
	CHECK_EQ_INT(le32(r.stub + r.len - 4), 0);
	cli_result_free(&r);
	free(out);
	ndr_enc_free(&e);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

TEST(alter_context)
{
	const struct cli_ctx samr = { 1, UUID_SAMR, 1, 0, UUID_NDR32, 2 };
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct ndr_enc e, s;
	struct cli_pdu pdu;
	uint8_t *out;
	size_t len, off = 0;
	struct cli_result r;

	if (!p) {
		CHECK(p != NULL);
		return;
	}
	ndr_enc_init(&e);
	cli_put_bind(&e, DCERPC_ALTER_CONTEXT, 3, 4280, 4280, &samr, 1);
	out = exchange(p, &e, &len);
	CHECK(out && cli_next_pdu(out, len, &off, &pdu));
	CHECK_EQ_INT(pdu.h.ptype, DCERPC_ALTER_CONTEXT_RESP);
	CHECK_EQ_INT(le16(pdu.data + 24), 0);		/* no sec_addr */
	CHECK_EQ_INT(le16(pdu.data + 32), DCERPC_ACCEPTANCE);
	free(out);
	/* SamrConnect2 on context 1. */
	ndr_enc_init(&s);
	ndr_put_string_ptr(&s, "\\\\" FAKE_NETBIOS);
	ndr_put_u32(&s, 0x02000000);
	cli_put_request(&e, 3, 4, 1, 57, s.data, s.len);
	out = exchange(p, &e, &len);
	CHECK(out && !cli_parse_response(out, len, &r));
	CHECK_EQ_INT(r.ptype, DCERPC_RESPONSE);
	CHECK_EQ_INT(r.len, 24);
	CHECK_EQ_INT(r.len == 24 ? le32(r.stub + 20) : 1, 0);
	cli_result_free(&r);
	free(out);
	/* The same opnum on context 0 (lsarpc) is out of range there. */
	cli_put_request(&e, 3, 5, 0, 57 + 100, s.data, s.len);
	out = exchange(p, &e, &len);
	CHECK_EQ_INT(expect_fault(out, len, 5), NCA_S_OP_RNG_ERROR);
	free(out);
	ndr_enc_free(&e);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

TEST(bad_frag_length_resyncs)
{
	struct rpc_pipe *p = cli_open("srvsvc", &be, UUID_SRVSVC, 3, 0);
	static const uint8_t junk[16] = { 5, 0, 0, 3, 0x10, 0, 0, 0, 8, 0 };
	uint8_t *out;
	size_t len;

	if (!p) {
		CHECK(p != NULL);
		return;
	}
	CHECK_EQ_INT(rpc_pipe_write(p, junk, sizeof(junk)), 0);
	out = cli_read_all(p, 64, &len);
	CHECK_EQ_INT(expect_fault(out, len, 0), NCA_S_PROTO_ERROR);
	free(out);
	struct cli_result r = single_call(p);

	CHECK_EQ_INT(r.ptype, DCERPC_RESPONSE);
	cli_result_free(&r);
	rpc_pipe_close(p);
}

TEST(pipe_api)
{
	struct rpc_pipe *p;
	struct ndr_enc e;
	uint8_t buf[16], big[4096];
	size_t got, total = 0;
	bool more = true;

	errno = 0;
	CHECK(rpc_pipe_open("spoolss", &be, "alice") == NULL);
	CHECK_EQ_INT(errno, ENOENT);
	CHECK(rpc_pipe_open(NULL, &be, "alice") == NULL);
	CHECK_EQ_INT(errno, EINVAL);
	CHECK(rpc_pipe_open("srvsvc", NULL, "alice") == NULL);
	p = rpc_pipe_open("\\\\pipe\\\\WKSSVC", &be, NULL);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_EQ_INT(rpc_pipe_write(p, NULL, 5), -EINVAL);
	CHECK_EQ_INT(rpc_pipe_read(p, buf, sizeof(buf), &got, &more), 0);
	CHECK_EQ_INT(got, 0);
	CHECK(!more);
	/* Transact with a small buffer: the rest stays queued. */
	const struct cli_ctx wk = { 0, UUID_WKSSVC, 1, 0, UUID_NDR32, 2 };

	ndr_enc_init(&e);
	cli_put_bind(&e, DCERPC_BIND, 1, 4280, 4280, &wk, 1);
	CHECK_EQ_INT(rpc_pipe_transact(p, e.data, e.len, buf, sizeof(buf),
				       &got, &more), 0);
	CHECK_EQ_INT(got, sizeof(buf));
	CHECK(more);
	CHECK_EQ_INT(buf[2], DCERPC_BIND_ACK);
	total = got;
	while (more) {
		CHECK_EQ_INT(rpc_pipe_read(p, big, sizeof(big), &got, &more), 0);
		total += got;
		if (!got)
			break;
	}
	CHECK_EQ_INT(total, le16(buf + 8));
	CHECK_EQ_INT(rpc_pipe_pending(p), 0);
	ndr_enc_free(&e);
	rpc_pipe_close(p);
	rpc_pipe_close(NULL);
}

int main(void)
{
	fake_backend_init(&be, &fctx);
	RUN(bind_accepts_srvsvc);
	RUN(bind_rejects_per_context);
	RUN(big_endian_drep_faults);
	RUN(bind_nak_cases);
	RUN(unknown_opnum_and_context);
	RUN(request_reassembly);
	RUN(reassembly_bounded);
	RUN(response_fragmentation);
	RUN(alter_context);
	RUN(bad_frag_length_resyncs);
	RUN(pipe_api);
	return test_report();
}
