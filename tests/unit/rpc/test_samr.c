// SPDX-License-Identifier: GPL-2.0
/* samr: connect, domains, names, users, groups, aliases, handles. */
#include "testlib.h"
#include "svc_util.h"

static struct fake_ctx fctx;
static struct rpc_backend be;

static void connect5_stub(struct ndr_enc *s)
{
	ndr_enc_init(s);
	ndr_put_string_ptr(s, "\\\\" FAKE_NETBIOS);
	ndr_put_u32(s, 0x02000000);
	ndr_put_u32(s, 1);		/* InVersion */
	ndr_put_u32(s, 1);		/* union discriminant */
	ndr_put_u32(s, 3);		/* Revision */
	ndr_put_u32(s, 0);
}

static bool samr_connect(struct rpc_pipe *p, uint8_t h[20], const char *seed)
{
	struct cli_result r;
	struct ndr_enc s;
	struct ndr_dec d;
	bool ok;

	connect5_stub(&s);
	ok = svc_call(p, 64, &s, &r, &d, seed);
	ok = ok && ndr_get_u32(&d) == 1 && ndr_get_u32(&d) == 1 &&
	     ndr_get_u32(&d) == 3 && ndr_get_u32(&d) == 0;
	ndr_get_handle(&d, h);
	ok = ok && ndr_get_u32(&d) == 0 && !d.err;
	cli_result_free(&r);
	ndr_enc_free(&s);
	return ok;
}

/* Open the account (or Builtin) domain; status returned. */
static uint32_t open_domain(struct rpc_pipe *p, const uint8_t sh[20],
			    const struct ndr_sid *sid, uint8_t dh[20],
			    struct ndr_enc *good)
{
	struct cli_result r;
	struct ndr_enc s;
	struct ndr_dec d;
	uint32_t st = 0xffffffff;

	ndr_enc_init(&s);
	ndr_put_handle(&s, sh);
	ndr_put_u32(&s, 0x02000000);
	ndr_put_sid(&s, sid);
	if (good)
		svc_copy(good, &s);
	if (svc_call(p, 7, &s, &r, &d, good ? "samr_open_domain" : NULL)) {
		ndr_get_handle(&d, dh);
		st = ndr_get_u32(&d);
	}
	cli_result_free(&r);
	ndr_enc_free(&s);
	return st;
}

static uint32_t open_user(struct rpc_pipe *p, const uint8_t dh[20],
			  uint32_t rid, uint8_t uh[20], struct ndr_enc *good)
{
	struct cli_result r;
	struct ndr_enc s;
	struct ndr_dec d;
	uint32_t st = 0xffffffff;

	ndr_enc_init(&s);
	ndr_put_handle(&s, dh);
	ndr_put_u32(&s, 0x02000000);
	ndr_put_u32(&s, rid);
	if (good)
		svc_copy(good, &s);
	if (svc_call(p, 34, &s, &r, &d, good ? "samr_open_user" : NULL)) {
		ndr_get_handle(&d, uh);
		st = ndr_get_u32(&d);
	}
	cli_result_free(&r);
	ndr_enc_free(&s);
	return st;
}

TEST(connect_and_enum_domains)
{
	struct rpc_pipe *p = cli_open("samr", &be, UUID_SAMR, 1, 0);
	struct ndr_enc s, good;
	struct cli_result r;
	struct ndr_dec d;
	struct ndr_ustr u[2];
	uint8_t h[20];
	char *n0, *n1;

	if (!p || !samr_connect(p, h, "samr_connect5")) {
		CHECK(!"setup");
		return;
	}
	connect5_stub(&good);
	CHECK_EQ_INT(svc_truncations(p, 64, &good), 0);
	ndr_enc_free(&good);

	/* rpcclient enumdomains */
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	ndr_put_u32(&s, 0);
	ndr_put_u32(&s, 0xffffffff);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 6, &s, &r, &d, "samr_enum_domains"));
	CHECK_EQ_INT(ndr_get_u32(&d), 2);		/* resume context */
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	ndr_get_u32(&d);
	ndr_get_ustr_hdr(&d, &u[0]);
	ndr_get_u32(&d);
	ndr_get_ustr_hdr(&d, &u[1]);
	n0 = ndr_get_ustr_body(&d, &u[0]);
	n1 = ndr_get_ustr_body(&d, &u[1]);
	CHECK_EQ_STR(n0, FAKE_NETBIOS);
	CHECK_EQ_STR(n1, "Builtin");
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	free(n0);
	free(n1);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 6, &good), 0);
	ndr_enc_free(&good);

	/* Connect2 and Connect4 hand out server handles too. */
	ndr_enc_init(&s);
	ndr_put_string_ptr(&s, "\\\\" FAKE_NETBIOS);
	ndr_put_u32(&s, 2);
	ndr_put_u32(&s, 0x02000000);
	CHECK(svc_call(p, 62, &s, &r, &d, "samr_connect4"));
	d.off = 20;
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);

	/* Connect5 with an unknown revision union arm. */
	connect5_stub(&s);
	s.data[s.len - 12] = 2;
	CHECK_EQ_INT(cli_call(p, 64, &s, &r, NULL), 0);
	CHECK_EQ_INT(r.fault, NCA_S_FAULT_NDR);
	cli_result_free(&r);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

TEST(lookup_and_open_domain)
{
	struct rpc_pipe *p = cli_open("samr", &be, UUID_SAMR, 1, 0);
	struct ndr_sid sid, want;
	struct ndr_enc s, good;
	struct cli_result r;
	struct ndr_dec d;
	uint8_t h[20], dh[20];

	if (!p || !samr_connect(p, h, NULL)) {
		CHECK(!"setup");
		return;
	}
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	ndr_put_ustr_hdr(&s, "ksmbdtest");
	ndr_put_ustr_body(&s, "ksmbdtest");
	svc_copy(&good, &s);
	CHECK(svc_call(p, 5, &s, &r, &d, "samr_lookup_domain"));
	CHECK(ndr_get_ptr(&d) != 0);
	ndr_get_sid(&d, &sid);
	svc_domain_sid(&want);
	CHECK(ndr_sid_equal(&sid, &want));
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 5, &good), 0);
	ndr_enc_free(&good);

	ndr_put_handle(&s, h);
	ndr_put_ustr_hdr(&s, "nope");
	ndr_put_ustr_body(&s, "nope");
	CHECK(svc_call(p, 5, &s, &r, &d, NULL));
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc00000df);
	cli_result_free(&r);

	CHECK_EQ_INT(open_domain(p, h, &want, dh, &good), 0);
	CHECK_EQ_INT(svc_truncations(p, 7, &good), 0);
	ndr_enc_free(&good);
	sid = want;
	sid.sub_auths[3] = 99;
	CHECK_EQ_INT(open_domain(p, h, &sid, dh, NULL), 0xc00000df);
	/* A domain handle where a server handle belongs. */
	CHECK_EQ_INT(open_domain(p, h, &want, dh, NULL), 0);
	CHECK_EQ_INT(open_domain(p, dh, &want, h, NULL), 0xc0000008);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

TEST(lookup_names_and_users)
{
	static const char *const names[] = { "alice", "STAFF", "zzz" };
	struct rpc_pipe *p = cli_open("samr", &be, UUID_SAMR, 1, 0);
	struct ndr_sid dom;
	struct ndr_enc s, good;
	struct cli_result r;
	struct ndr_dec d;
	struct ndr_ustr u[2];
	uint8_t h[20], dh[20], uh[20];
	uint32_t i;
	char *acct, *full;

	svc_domain_sid(&dom);
	if (!p || !samr_connect(p, h, NULL) ||
	    open_domain(p, h, &dom, dh, NULL)) {
		CHECK(!"setup");
		return;
	}
	ndr_enc_init(&s);
	ndr_put_handle(&s, dh);
	ndr_put_u32(&s, 3);
	ndr_put_u32(&s, 1000);			/* size_is(1000) */
	ndr_put_u32(&s, 0);
	ndr_put_u32(&s, 3);
	for (i = 0; i < 3; i++)
		ndr_put_ustr_hdr(&s, names[i]);
	for (i = 0; i < 3; i++)
		ndr_put_ustr_body(&s, names[i]);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 17, &s, &r, &d, "samr_lookup_names"));
	CHECK_EQ_INT(ndr_get_u32(&d), 3);
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 3);
	CHECK_EQ_INT(ndr_get_u32(&d), FAKE_ALICE_RID);
	CHECK_EQ_INT(ndr_get_u32(&d), FAKE_STAFF_RID);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 3);
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 3);
	CHECK_EQ_INT(ndr_get_u32(&d), 1);
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	CHECK_EQ_INT(ndr_get_u32(&d), 8);
	CHECK_EQ_INT(ndr_get_u32(&d), 0x107);
	CHECK_EQ_INT(d.err, 0);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 17, &good), 0);
	ndr_enc_free(&good);

	CHECK_EQ_INT(open_user(p, dh, FAKE_ALICE_RID, uh, &good), 0);
	CHECK_EQ_INT(svc_truncations(p, 34, &good), 0);
	ndr_enc_free(&good);
	CHECK_EQ_INT(open_user(p, dh, 513, h, NULL), 0xc0000064);
	/* RID 1000 is uid 0 by the rule: a Unix user, not an SMB one. */
	CHECK_EQ_INT(open_user(p, dh, 1000, h, NULL), 0xc0000064);
	CHECK_EQ_INT(open_user(p, dh, 77, h, NULL), 0xc0000064);

	/* rpcclient queryuser: level 21 */
	ndr_put_handle(&s, uh);
	ndr_put_u16(&s, 21);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 36, &s, &r, &d, "samr_query_user_21"));
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u16(&d), 21);
	ndr_get_align(&d, 4);
	d.off += 6 * 8;
	ndr_get_ustr_hdr(&d, &u[0]);
	ndr_get_ustr_hdr(&d, &u[1]);
	d.off += 11 * 8 + 8;
	CHECK_EQ_INT(ndr_get_u32(&d), FAKE_ALICE_RID);	/* UserId */
	CHECK_EQ_INT(ndr_get_u32(&d), 513);		/* PrimaryGroupId */
	CHECK_EQ_INT(ndr_get_u32(&d), 0x210);
	ndr_get_u32(&d);
	CHECK_EQ_INT(ndr_get_u16(&d), 168);
	CHECK(ndr_get_ptr(&d) != 0);
	d.off += 8 + 4;
	acct = ndr_get_ustr_body(&d, &u[0]);
	full = ndr_get_ustr_body(&d, &u[1]);
	CHECK_EQ_STR(acct, "alice");
	CHECK_EQ_STR(full, "Alice Liddell");
	CHECK_EQ_INT(ndr_get_varying(&d, 1, NULL), 21);
	d.off += 21;
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(d.err, 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	free(acct);
	free(full);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 36, &good), 0);
	ndr_enc_free(&good);

	ndr_put_handle(&s, uh);
	ndr_put_u16(&s, 1);
	CHECK(svc_call(p, 36, &s, &r, &d, NULL));
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc0000003);
	cli_result_free(&r);
	/* A domain handle is not a user handle. */
	ndr_put_handle(&s, dh);
	ndr_put_u16(&s, 21);
	CHECK(svc_call(p, 36, &s, &r, &d, NULL));
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc0000008);
	cli_result_free(&r);

	/* Groups of alice. */
	ndr_put_handle(&s, uh);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 39, &s, &r, &d, "samr_get_groups"));
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	CHECK_EQ_INT(ndr_get_u32(&d), 513);
	CHECK_EQ_INT(ndr_get_u32(&d), 7);
	CHECK_EQ_INT(ndr_get_u32(&d), FAKE_STAFF_RID);
	CHECK_EQ_INT(ndr_get_u32(&d), 7);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 39, &good), 0);
	ndr_enc_free(&good);

	/* Security object of the user handle. */
	ndr_put_handle(&s, uh);
	ndr_put_u32(&s, 4);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 3, &s, &r, &d, "samr_query_security"));
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 72);
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 72);
	CHECK_EQ_INT(d.data[d.off], 1);			/* Revision */
	CHECK_EQ_INT(d.data[d.off + 2] | d.data[d.off + 3] << 8, 0x8004);
	CHECK_EQ_INT(d.data[d.off + 16], 20);		/* OffsetDacl */
	CHECK_EQ_INT(d.data[d.off + 24], 2);		/* AceCount */
	d.off += 72;
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 3, &good), 0);
	ndr_enc_free(&good);

	/* Close the user handle; using it afterwards fails. */
	ndr_put_handle(&s, uh);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 1, &s, &r, &d, "samr_close"));
	d.off = 20;
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 1, &good), 0);
	CHECK(svc_call(p, 1, &good, &r, &d, NULL));
	d.off = 20;
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc0000008);
	cli_result_free(&r);
	ndr_put_handle(&s, uh);
	CHECK(svc_call(p, 39, &s, &r, &d, NULL));
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc0000008);
	cli_result_free(&r);
	ndr_enc_free(&good);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

static void alias_stub(struct ndr_enc *s, const uint8_t dh[20],
		       const struct ndr_sid *sid)
{
	ndr_enc_init(s);
	ndr_put_handle(s, dh);
	ndr_put_u32(s, 1);
	ndr_put_ptr(s, true);
	ndr_put_u32(s, 1);
	ndr_put_ptr(s, true);
	ndr_put_sid(s, sid);
}

TEST(alias_membership)
{
	struct rpc_pipe *p = cli_open("samr", &be, UUID_SAMR, 1, 0);
	struct ndr_sid dom, builtin = { .revision = 1, .num_auths = 1,
		.id_auth = { 0, 0, 0, 0, 0, 5 }, .sub_auths = { 32 } }, alice;
	struct ndr_enc s, good;
	struct cli_result r;
	struct ndr_dec d;
	uint8_t h[20], dh[20], bh[20];

	svc_domain_sid(&dom);
	if (!p || !samr_connect(p, h, NULL) ||
	    open_domain(p, h, &dom, dh, NULL) ||
	    open_domain(p, h, &builtin, bh, NULL)) {
		CHECK(!"setup");
		return;
	}
	ndr_sid_compose(&alice, &dom, FAKE_ALICE_RID);
	alias_stub(&s, bh, &alice);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 16, &s, &r, &d, "samr_alias_membership"));
	CHECK_EQ_INT(ndr_get_u32(&d), 1);
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 1);
	CHECK_EQ_INT(ndr_get_u32(&d), 545);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 16, &good), 0);
	ndr_enc_free(&good);

	alias_stub(&s, dh, &alice);
	CHECK(svc_call(p, 16, &s, &r, &d, NULL));
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);
	/* Builtin: no user accounts to open. */
	CHECK_EQ_INT(open_user(p, bh, FAKE_ALICE_RID, h, NULL), 0xc0000064);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

TEST(handle_table_bounded)
{
	struct rpc_pipe *p = cli_open("samr", &be, UUID_SAMR, 1, 0);
	struct ndr_enc s;
	struct cli_result r;
	struct ndr_dec d;
	uint8_t h[20];
	int i, ok = 0;

	for (i = 0; p && i < 64; i++)
		ok += samr_connect(p, h, NULL);
	CHECK_EQ_INT(ok, 64);
	connect5_stub(&s);
	CHECK(p && svc_call(p, 64, &s, &r, &d, NULL));
	d.off = 16 + 20;
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc000009a);
	cli_result_free(&r);
	/* Freeing one makes room again. */
	ndr_put_handle(&s, h);
	CHECK(p && svc_call(p, 1, &s, &r, &d, NULL));
	cli_result_free(&r);
	CHECK(p && samr_connect(p, h, NULL));
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

/* One QueryInformationDomain(2) call: status, the level echoed in @lvl. */
static uint32_t query_domain(struct rpc_pipe *p, uint16_t op,
			     const uint8_t dh[20], uint16_t level,
			     struct cli_result *r, struct ndr_dec *d,
			     const char *seed)
{
	struct ndr_enc s;
	uint32_t st = 0xffffffffu;

	ndr_enc_init(&s);
	ndr_put_handle(&s, dh);
	ndr_put_u16(&s, level);
	memset(d, 0, sizeof(*d));
	if (svc_call(p, op, &s, r, d, seed)) {
		struct ndr_dec t = *d;

		svc_seek(&t, r->len - 4);
		st = ndr_get_u32(&t);
	}
	ndr_enc_free(&s);
	return st;
}

/* net rpc info: QueryInformationDomain level 2 on the account domain. */
TEST(query_domain_info)
{
	struct rpc_pipe *p = cli_open("samr", &be, UUID_SAMR, 1, 0);
	struct ndr_sid dom, builtin = { .revision = 1, .num_auths = 1,
		.id_auth = { 0, 0, 0, 0, 0, 5 }, .sub_auths = { 32 } };
	uint8_t h[20], dh[20], bh[20];
	struct ndr_ustr u[3];
	struct cli_result r;
	struct ndr_enc s;
	struct ndr_dec d;
	char *str[3];
	int i;

	svc_domain_sid(&dom);
	if (!p || !samr_connect(p, h, NULL) ||
	    open_domain(p, h, &dom, dh, NULL) ||
	    open_domain(p, h, &builtin, bh, NULL)) {
		CHECK(!"setup");
		return;
	}
	fctx.count_calls = 0;
	CHECK_EQ_INT(query_domain(p, 8, dh, 2, &r, &d, "samr_query_domain_2"),
		     0);
	CHECK_EQ_INT(fctx.count_calls, 1);
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u16(&d), 2);
	ndr_get_u32(&d);			/* ForceLogoff */
	CHECK_EQ_INT(ndr_get_u32(&d), 0x80000000u);
	for (i = 0; i < 3; i++)
		ndr_get_ustr_hdr(&d, &u[i]);
	ndr_get_u32(&d);			/* DomainModifiedCount */
	ndr_get_u32(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 1);	/* DomainServerEnabled */
	CHECK_EQ_INT(ndr_get_u32(&d), 3);	/* DomainServerRolePrimary */
	ndr_get_u32(&d);			/* UidOnlyAccepted */
	CHECK_EQ_INT(ndr_get_u32(&d), 2);	/* users: alice, bob */
	CHECK_EQ_INT(ndr_get_u32(&d), 1);	/* groups: staff */
	CHECK_EQ_INT(ndr_get_u32(&d), 0);	/* aliases */
	for (i = 0; i < 3; i++)
		str[i] = ndr_get_ustr_body(&d, &u[i]);
	CHECK_EQ_STR(str[0], FAKE_COMMENT);
	CHECK_EQ_STR(str[1], FAKE_NETBIOS);
	CHECK_EQ_STR(str[2], "");
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(d.err, 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	for (i = 0; i < 3; i++)
		free(str[i]);
	cli_result_free(&r);
	ndr_enc_init(&s);
	ndr_put_handle(&s, dh);
	ndr_put_u16(&s, 2);
	CHECK_EQ_INT(svc_truncations(p, 8, &s), 0);
	ndr_enc_free(&s);

	/* Builtin through QueryInformationDomain2, name level. */
	CHECK_EQ_INT(query_domain(p, 46, bh, 5, &r, &d, "samr_query_domain2_5"),
		     0);
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u16(&d), 5);
	ndr_get_ustr_hdr(&d, &u[0]);
	str[0] = ndr_get_ustr_body(&d, &u[0]);
	CHECK_EQ_STR(str[0], "Builtin");
	free(str[0]);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	cli_result_free(&r);
	CHECK_EQ_INT(query_domain(p, 8, bh, 2, &r, &d, NULL), 0);
	svc_seek(&d, 4 + 4 + 8 + 24 + 8 + 12);	/* up to UserCount */
	CHECK_EQ_INT(ndr_get_u32(&d), 0);	/* users */
	CHECK_EQ_INT(ndr_get_u32(&d), 0);	/* groups */
	CHECK_EQ_INT(ndr_get_u32(&d), 3);	/* Administrators, Users, Guests */
	cli_result_free(&r);

	/*
	 * Fixed-size levels decode to their exact sizes. Level 1's arm is
	 * 4-aligned: after the pointer and the 2-byte level, 2 bytes of pad,
	 * then MinPasswordLength at 8 (the fake's policy is non-zero so a
	 * misplaced field shows).
	 */
	fctx.count_calls = 0;
	CHECK_EQ_INT(query_domain(p, 8, dh, 1, &r, &d, NULL), 0);
	CHECK_EQ_INT(r.len, 4 + 4 + 24 + 4);
	CHECK_EQ_INT(ndr_get_ptr(&d) != 0, 1);
	CHECK_EQ_INT(ndr_get_u16(&d), 1);
	CHECK_EQ_INT(ndr_get_u16(&d), 0);		/* pad */
	CHECK_EQ_INT(d.off, 8);
	CHECK_EQ_INT(ndr_get_u16(&d), FAKE_MIN_PASSWORD);
	CHECK_EQ_INT(ndr_get_u16(&d), FAKE_PASSWORD_HISTORY);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);	/* PasswordProperties */
	CHECK_EQ_INT(ndr_get_u32(&d), 0);		/* MaxPasswordAge: */
	CHECK_EQ_INT(ndr_get_u32(&d), 0x80000000u);	/* never */
	CHECK_EQ_INT(ndr_get_u32(&d), 0);		/* MinPasswordAge */
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(d.err, 0);
	cli_result_free(&r);
	/* Only level 2 reports counts, so only it enumerates accounts. */
	CHECK_EQ_INT(fctx.count_calls, 0);
	CHECK_EQ_INT(query_domain(p, 8, dh, 3, &r, &d, NULL), 0);
	CHECK_EQ_INT(r.len, 4 + 4 + 8 + 4);
	cli_result_free(&r);
	CHECK_EQ_INT(query_domain(p, 8, dh, 7, &r, &d, NULL), 0);
	svc_seek(&d, 8);
	CHECK_EQ_INT(ndr_get_u32(&d), 3);
	CHECK_EQ_INT(r.len, 4 + 4 + 4 + 4);
	cli_result_free(&r);

	/* Levels we do not serve, a server handle, a closed domain. */
	CHECK_EQ_INT(query_domain(p, 8, dh, 12, &r, &d, NULL), 0xc0000003);
	CHECK_EQ_INT(r.len, 8);
	cli_result_free(&r);
	CHECK_EQ_INT(query_domain(p, 8, dh, 0, &r, &d, NULL), 0xc0000003);
	cli_result_free(&r);
	CHECK_EQ_INT(query_domain(p, 46, h, 2, &r, &d, NULL), 0xc0000008);
	CHECK_EQ_INT(r.len, 8);
	cli_result_free(&r);
	rpc_pipe_close(p);
}

int main(void)
{
	fake_backend_init(&be, &fctx);
	RUN(connect_and_enum_domains);
	RUN(lookup_and_open_domain);
	RUN(lookup_names_and_users);
	RUN(alias_membership);
	RUN(handle_table_bounded);
	RUN(query_domain_info);
	return test_report();
}
