// SPDX-License-Identifier: GPL-2.0
/*
 * lsarpc translation opnums as smbcacls, rpcclient and Windows send them:
 * LookupNames (14), LookupSids (15), LookupNames2 (58), LookupSids3 (76),
 * LookupNames4 (77); levels, options, bounds and malformed input.
 */
#include "testlib.h"
#include "svc_util.h"

static struct fake_ctx fctx;
static struct rpc_backend be;

enum { OP_NAMES = 14, OP_SIDS = 15, OP_SIDS2 = 57, OP_NAMES2 = 58,
       OP_NAMES3 = 68, OP_SIDS3 = 76, OP_NAMES4 = 77 };

/* LsarOpenPolicy (6), as smbcacls and net open it. */
static bool open_policy(struct rpc_pipe *p, uint8_t h[20])
{
	struct cli_result r;
	struct ndr_enc s;
	struct ndr_dec d = { 0 };
	bool ok;

	ndr_enc_init(&s);
	ndr_put_ptr(&s, true);
	ndr_put_u16(&s, '\\');
	ndr_put_u32(&s, 24);
	ndr_put_zeros(&s, 20);
	ndr_put_u32(&s, 0x00000800);	/* POLICY_LOOKUP_NAMES */
	ok = svc_call(p, 6, &s, &r, &d, NULL);
	ndr_get_handle(&d, h);
	ok = ok && ndr_get_u32(&d) == 0 && !d.err;
	cli_result_free(&r);
	ndr_enc_free(&s);
	return ok;
}

struct tail {
	uint16_t level;
	bool options;		/* the opnum has LookupOptions, ClientRevision */
	uint32_t lookup_options;
	uint32_t revision;
};

static void put_tail(struct ndr_enc *s, const struct tail *t)
{
	ndr_put_u32(s, 0);		/* Translated*: Entries */
	ndr_put_ptr(s, false);
	ndr_put_u16(s, t->level);
	ndr_put_u32(s, 0);		/* MappedCount */
	if (t->options) {
		ndr_put_u32(s, t->lookup_options);
		ndr_put_u32(s, t->revision);
	}
}

static void put_sids(struct ndr_enc *s, const char *const *v, uint32_t n)
{
	struct ndr_sid sid;
	uint32_t i;

	ndr_put_u32(s, n);
	ndr_put_ptr(s, n > 0);
	if (!n)
		return;
	ndr_put_u32(s, n);
	for (i = 0; i < n; i++)
		ndr_put_ptr(s, true);
	for (i = 0; i < n; i++) {
		sid = svc_sid_of(v[i]);
		ndr_put_sid(s, &sid);
	}
}

static void put_names(struct ndr_enc *s, const char *const *v, uint32_t n)
{
	uint32_t i;

	ndr_put_u32(s, n);
	ndr_put_u32(s, n);
	for (i = 0; i < n; i++)
		ndr_put_ustr_hdr(s, v[i]);
	for (i = 0; i < n; i++)
		ndr_put_ustr_body(s, v[i]);
}

#define MAX_DOMS 8
#define MAX_ENT 8

struct reply {
	uint32_t n_doms;
	char *dom[MAX_DOMS];
	struct ndr_sid dom_sid[MAX_DOMS];
	uint32_t n;
	uint16_t use[MAX_ENT];
	char *name[MAX_ENT];		/* LookupSids */
	uint32_t rid[MAX_ENT];		/* LookupNames v1, v2 */
	struct ndr_sid sid[MAX_ENT];	/* LookupNames v3, or rebuilt */
	int32_t idx[MAX_ENT];
	uint32_t flags[MAX_ENT];
	uint32_t mapped;
	uint32_t status;
	bool ok;			/* decoded to the last byte */
};

static void reply_free(struct reply *y)
{
	int i;

	for (i = 0; i < MAX_DOMS; i++)
		free(y->dom[i]);
	for (i = 0; i < MAX_ENT; i++)
		free(y->name[i]);
	memset(y, 0, sizeof(*y));
}

static void get_refdoms(struct ndr_dec *d, struct reply *y)
{
	struct ndr_ustr u[MAX_DOMS];
	uint32_t i, ptr;

	ptr = ndr_get_ptr(d);
	if (!ptr)
		return;
	y->n_doms = ndr_get_u32(d);
	ptr = ndr_get_ptr(d);
	ndr_get_u32(d);			/* MaxEntries */
	if (!ptr && !y->n_doms)
		return;
	if (!ptr || y->n_doms > MAX_DOMS) {
		ndr_dec_fail(d);
		return;
	}
	if (ndr_get_u32(d) != y->n_doms)
		ndr_dec_fail(d);
	for (i = 0; i < y->n_doms; i++) {
		ndr_get_ustr_hdr(d, &u[i]);
		if (!ndr_get_ptr(d))
			ndr_dec_fail(d);
	}
	for (i = 0; i < y->n_doms; i++) {
		y->dom[i] = ndr_get_ustr_body(d, &u[i]);
		ndr_get_sid(d, &y->dom_sid[i]);
	}
}

static bool get_array_hdr(struct ndr_dec *d, struct reply *y)
{
	y->n = ndr_get_u32(d);
	if (!ndr_get_ptr(d))
		return false;
	if (y->n > MAX_ENT || ndr_get_u32(d) != y->n) {
		ndr_dec_fail(d);
		return false;
	}
	return true;
}

/* The reply of a LookupSids variant, @ver 1 or 2. */
static void get_names_reply(struct ndr_dec *d, unsigned int ver,
			    struct reply *y)
{
	struct ndr_ustr u[MAX_ENT];
	uint32_t i;

	get_refdoms(d, y);
	if (get_array_hdr(d, y)) {
		for (i = 0; i < y->n; i++) {
			y->use[i] = ndr_get_u16(d);
			ndr_get_ustr_hdr(d, &u[i]);
			y->idx[i] = (int32_t)ndr_get_u32(d);
			if (ver == 2)
				y->flags[i] = ndr_get_u32(d);
		}
		for (i = 0; i < y->n; i++)
			y->name[i] = ndr_get_ustr_body(d, &u[i]);
	}
	y->mapped = ndr_get_u32(d);
	y->status = ndr_get_u32(d);
	y->ok = !d->err && !ndr_dec_remaining(d);
}

/* The reply of a LookupNames variant; SIDs rebuilt for v1 and v2. */
static void get_sids_reply(struct ndr_dec *d, unsigned int ver,
			   struct reply *y)
{
	uint32_t i, ptr[MAX_ENT];

	get_refdoms(d, y);
	if (get_array_hdr(d, y)) {
		for (i = 0; i < y->n; i++) {
			y->use[i] = ndr_get_u16(d);
			if (ver == 3)
				ptr[i] = ndr_get_ptr(d);
			else
				y->rid[i] = ndr_get_u32(d);
			y->idx[i] = (int32_t)ndr_get_u32(d);
			if (ver >= 2)
				y->flags[i] = ndr_get_u32(d);
		}
		for (i = 0; i < y->n && ver == 3; i++)
			if (ptr[i])
				ndr_get_sid(d, &y->sid[i]);
	}
	y->mapped = ndr_get_u32(d);
	y->status = ndr_get_u32(d);
	y->ok = !d->err && !ndr_dec_remaining(d);
	for (i = 0; i < y->n && ver != 3; i++) {
		if (y->idx[i] < 0 || (uint32_t)y->idx[i] >= y->n_doms)
			continue;
		y->sid[i] = y->dom_sid[y->idx[i]];
		if (y->rid[i] != 0xffffffffu)
			ndr_sid_compose(&y->sid[i], &y->sid[i], y->rid[i]);
	}
}

static const char *dom_of(const struct reply *y, uint32_t i)
{
	if (y->idx[i] < 0 || (uint32_t)y->idx[i] >= y->n_doms)
		return "(none)";
	return y->dom[y->idx[i]];
}

TEST(lookup_sids_v1)
{
	static const char *const in[] = {
		"S-1-1-0", "S-1-5-18", "S-1-22-1-0", "S-1-5-21-1-2-3-3000",
		"S-1-5-32-544", "S-1-5-21-9-9-9-5", "S-1-3-0",
	};
	static const struct {
		const char *dom, *name;
		uint16_t use;
	} want[] = {
		{ "", "Everyone", 5 },
		{ "NT AUTHORITY", "SYSTEM", 5 },
		{ "Unix User", "root", 1 },
		{ FAKE_NETBIOS, "alice", 1 },
		{ "BUILTIN", "Administrators", 4 },
		{ "(none)", "S-1-5-21-9-9-9-5", 8 },
		{ "", "CREATOR OWNER", 5 },
	};
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct tail t = { .level = 1 };
	struct ndr_enc s, good;
	struct cli_result r;
	struct reply y = { 0 };
	struct ndr_dec d = { 0 };
	uint8_t h[20];
	uint32_t i;

	if (!p || !open_policy(p, h)) {
		CHECK(!"setup");
		return;
	}
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	put_sids(&s, in, 7);
	put_tail(&s, &t);
	svc_copy(&good, &s);
	CHECK(svc_call(p, OP_SIDS, &s, &r, &d, "lsa_lookup_sids"));
	get_names_reply(&d, 1, &y);
	CHECK(y.ok);
	CHECK_EQ_INT(y.n, 7);
	for (i = 0; i < y.n && i < 7; i++) {
		CHECK_EQ_STR(dom_of(&y, i), want[i].dom);
		CHECK_EQ_STR(y.name[i], want[i].name);
		CHECK_EQ_INT(y.use[i], want[i].use);
	}
	/* One ReferencedDomains entry per domain, in first-use order. */
	CHECK_EQ_INT(y.n_doms, 6);
	CHECK_EQ_STR(svc_sid_text(&y.dom_sid[0]), "S-1-1");
	CHECK_EQ_STR(svc_sid_text(&y.dom_sid[1]), "S-1-5");
	CHECK_EQ_STR(svc_sid_text(&y.dom_sid[2]), "S-1-22-1");
	CHECK_EQ_STR(svc_sid_text(&y.dom_sid[3]), "S-1-5-21-1-2-3");
	CHECK_EQ_STR(svc_sid_text(&y.dom_sid[4]), "S-1-5-32");
	CHECK_EQ_STR(svc_sid_text(&y.dom_sid[5]), "S-1-3");
	CHECK_EQ_INT(y.idx[5], -1);
	CHECK_EQ_INT(y.idx[6], 5);
	CHECK_EQ_INT(y.mapped, 6);
	CHECK_EQ_INT(y.status, 0x107);		/* STATUS_SOME_NOT_MAPPED */
	reply_free(&y);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, OP_SIDS, &good), 0);
	ndr_enc_free(&good);
	rpc_pipe_close(p);
}

/* LookupSids3 carries no policy handle; names come back v2, Flags 0. */
TEST(lookup_sids3)
{
	static const char *const in[] = { "S-1-3-1", "S-1-22-2-50" };
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct tail t = { .level = 1, .options = true };
	struct ndr_enc s, good;
	struct cli_result r;
	struct reply y = { 0 };
	struct ndr_dec d = { 0 };

	if (!p) {
		CHECK(!"setup");
		return;
	}
	ndr_enc_init(&s);
	put_sids(&s, in, 2);
	put_tail(&s, &t);
	svc_copy(&good, &s);
	CHECK(svc_call(p, OP_SIDS3, &s, &r, &d, "lsa_lookup_sids3"));
	get_names_reply(&d, 2, &y);
	CHECK(y.ok);
	CHECK_EQ_INT(y.n, 2);
	CHECK_EQ_STR(y.name[0], "CREATOR GROUP");
	CHECK_EQ_STR(dom_of(&y, 0), "");
	CHECK_EQ_STR(y.name[1], "staff");
	CHECK_EQ_STR(dom_of(&y, 1), "Unix Group");
	CHECK_EQ_INT(y.use[1], 2);
	CHECK_EQ_INT(y.flags[0] | y.flags[1], 0);
	CHECK_EQ_INT(y.mapped, 2);
	CHECK_EQ_INT(y.status, 0);
	reply_free(&y);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, OP_SIDS3, &good), 0);
	ndr_enc_free(&good);

	/* Nothing known: STATUS_NONE_MAPPED, names are the SIDs' text. */
	ndr_enc_init(&s);
	put_sids(&s, (const char *const[]){ "S-1-5-99" }, 1);
	put_tail(&s, &t);
	CHECK(svc_call(p, OP_SIDS3, &s, &r, &d, NULL));
	get_names_reply(&d, 2, &y);
	CHECK(y.ok);
	CHECK_EQ_STR(y.name[0], "S-1-5-99");
	CHECK_EQ_INT(y.use[0], 8);
	CHECK_EQ_INT(y.idx[0], -1);
	CHECK_EQ_INT(y.n_doms, 0);
	CHECK_EQ_INT(y.mapped, 0);
	CHECK_EQ_INT(y.status, 0xc0000073);
	reply_free(&y);
	cli_result_free(&r);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

/* LookupNames v1: Use, RelativeId, DomainIndex; the client rebuilds SIDs. */
TEST(lookup_names_v1)
{
	static const char *const in[] = {
		"Everyone", "BUILTIN\\Administrators", "alice",
		"Unix User\\carol", FAKE_NETBIOS, "nosuch", "CREATOR OWNER",
	};
	static const struct {
		const char *sid;
		uint16_t use;
	} want[] = {
		{ "S-1-1-0", 5 }, { "S-1-5-32-544", 4 },
		{ "S-1-5-21-1-2-3-3000", 1 }, { "S-1-22-1-2000", 1 },
		{ "S-1-5-21-1-2-3", 3 }, { NULL, 8 }, { "S-1-3-0", 5 },
	};
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct tail t = { .level = 1 };
	struct ndr_enc s, good;
	struct cli_result r;
	struct reply y = { 0 };
	struct ndr_dec d = { 0 };
	uint8_t h[20];
	uint32_t i;

	if (!p || !open_policy(p, h)) {
		CHECK(!"setup");
		return;
	}
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	put_names(&s, in, 7);
	put_tail(&s, &t);
	svc_copy(&good, &s);
	CHECK(svc_call(p, OP_NAMES, &s, &r, &d, "lsa_lookup_names"));
	get_sids_reply(&d, 1, &y);
	CHECK(y.ok);
	CHECK_EQ_INT(y.n, 7);
	for (i = 0; i < y.n && i < 7; i++) {
		CHECK_EQ_INT(y.use[i], want[i].use);
		if (want[i].sid)
			CHECK_EQ_STR(svc_sid_text(&y.sid[i]), want[i].sid);
		else
			CHECK_EQ_INT(y.idx[i], -1);
	}
	CHECK_EQ_INT(y.rid[4], 0xffffffffu);	/* a domain has no RID */
	CHECK_EQ_INT(y.idx[3], 3);		/* Unix User after 3 others */
	CHECK_EQ_INT(y.idx[4], 2);		/* the account domain again */
	CHECK_EQ_INT(y.mapped, 6);
	CHECK_EQ_INT(y.status, 0x107);
	reply_free(&y);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, OP_NAMES, &good), 0);
	ndr_enc_free(&good);
	rpc_pipe_close(p);
}

TEST(lookup_names2)
{
	static const char *const in[] = { "SYSTEM", "Domain Users" };
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct tail t = { .level = 1, .options = true, .revision = 2 };
	struct ndr_enc s, good;
	struct cli_result r;
	struct reply y = { 0 };
	struct ndr_dec d = { 0 };
	uint8_t h[20];

	if (!p || !open_policy(p, h)) {
		CHECK(!"setup");
		return;
	}
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	put_names(&s, in, 2);
	put_tail(&s, &t);
	svc_copy(&good, &s);
	CHECK(svc_call(p, OP_NAMES2, &s, &r, &d, "lsa_lookup_names2"));
	get_sids_reply(&d, 2, &y);
	CHECK(y.ok);
	CHECK_EQ_INT(y.n, 2);
	CHECK_EQ_INT(y.rid[0], 18);
	CHECK_EQ_INT(y.use[0], 5);
	CHECK_EQ_STR(dom_of(&y, 0), "NT AUTHORITY");
	CHECK_EQ_INT(y.rid[1], 513);
	CHECK_EQ_INT(y.use[1], 2);
	CHECK_EQ_STR(svc_sid_text(&y.sid[1]), "S-1-5-21-1-2-3-513");
	CHECK_EQ_INT(y.mapped, 2);
	CHECK_EQ_INT(y.status, 0);
	reply_free(&y);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, OP_NAMES2, &good), 0);
	ndr_enc_free(&good);
	rpc_pipe_close(p);
}

/* LookupNames4: no handle, full SIDs; rpcclient sends ClientRevision 0. */
TEST(lookup_names4)
{
	static const char *const in[] = { "Everyone", "carol", "OTHER\\x" };
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct tail t = { .level = 1, .options = true };
	struct ndr_enc s, good;
	struct cli_result r;
	struct reply y = { 0 };
	struct ndr_dec d = { 0 };

	if (!p) {
		CHECK(!"setup");
		return;
	}
	ndr_enc_init(&s);
	put_names(&s, in, 3);
	put_tail(&s, &t);
	svc_copy(&good, &s);
	CHECK(svc_call(p, OP_NAMES4, &s, &r, &d, "lsa_lookup_names4"));
	get_sids_reply(&d, 3, &y);
	CHECK(y.ok);
	CHECK_EQ_INT(y.n, 3);
	CHECK_EQ_STR(svc_sid_text(&y.sid[0]), "S-1-1-0");
	CHECK_EQ_STR(svc_sid_text(&y.sid[1]), "S-1-5-21-1-2-3-5000");
	CHECK_EQ_STR(dom_of(&y, 1), FAKE_NETBIOS);
	CHECK_EQ_INT(y.use[2], 8);
	CHECK_EQ_INT(y.idx[2], -1);
	CHECK_EQ_INT(y.mapped, 2);
	CHECK_EQ_INT(y.status, 0x107);
	reply_free(&y);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, OP_NAMES4, &good), 0);
	ndr_enc_free(&good);
	rpc_pipe_close(p);
}

/* Status of a LookupNames3 of @names at @t; the reply must decode. */
static uint32_t names3_status(struct rpc_pipe *p, const uint8_t h[20],
			      const char *const *names, uint32_t n,
			      const struct tail *t)
{
	struct cli_result r;
	struct reply y = { 0 };
	struct ndr_enc s;
	struct ndr_dec d = { 0 };
	uint32_t status = 0xffffffffu;

	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	put_names(&s, names, n);
	put_tail(&s, t);
	if (svc_call(p, OP_NAMES3, &s, &r, &d, NULL)) {
		get_sids_reply(&d, 3, &y);
		status = y.ok ? y.status : 0xfffffffeu;
		if (y.ok && status >> 30 == 3 && status != 0xc0000073) {
			/* A failure (not NONE_MAPPED) has empty [out]s. */
			CHECK_EQ_INT(r.len, 20);
			CHECK_EQ_INT(y.n_doms, 0);
			CHECK_EQ_INT(y.n, 0);
		}
		reply_free(&y);
	}
	cli_result_free(&r);
	ndr_enc_free(&s);
	return status;
}

TEST(levels_and_options)
{
	static const char *const both[] = { "Everyone", "alice" };
	static const char *const wk[] = { "Everyone" };
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct tail t = { .level = 1, .options = true, .revision = 1 };
	uint8_t h[20];

	if (!p || !open_policy(p, h)) {
		CHECK(!"setup");
		return;
	}
	CHECK_EQ_INT(names3_status(p, h, both, 2, &t), 0);
	/* Domain-only levels see the account domain, not Everyone. */
	t.level = 2;
	CHECK_EQ_INT(names3_status(p, h, both, 2, &t), 0x107);
	t.level = 3;
	CHECK_EQ_INT(names3_status(p, h, wk, 1, &t), 0xc0000073);
	/* Trust and forest levels: a standalone server has no such scope. */
	t.level = 5;
	CHECK_EQ_INT(names3_status(p, h, both, 2, &t), 0xc0000073);
	t.level = 0;
	CHECK_EQ_INT(names3_status(p, h, both, 2, &t), 0xc000000d);
	t.level = 8;
	CHECK_EQ_INT(names3_status(p, h, both, 2, &t), 0xc000000d);
	/* LSA_LOOKUP_ISOLATED_AS_LOCAL: fine at level 1 only. */
	t.level = 1;
	t.lookup_options = 0x80000000u;
	CHECK_EQ_INT(names3_status(p, h, both, 2, &t), 0);
	t.level = 2;
	CHECK_EQ_INT(names3_status(p, h, both, 2, &t), 0xc000000d);
	t.level = 1;
	t.lookup_options = 1;
	CHECK_EQ_INT(names3_status(p, h, both, 2, &t), 0xc000000d);
	/* ClientRevision changes nothing. */
	t.lookup_options = 0;
	t.revision = 0x12345678;
	CHECK_EQ_INT(names3_status(p, h, both, 2, &t), 0);
	rpc_pipe_close(p);
}

/* Handles: another pipe's, or none at all where one is required. */
TEST(handles)
{
	static const char *const in[] = { "S-1-1-0" };
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct rpc_pipe *q = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct tail t = { .level = 1 };
	struct cli_result r;
	struct reply y = { 0 };
	struct ndr_enc s;
	struct ndr_dec d = { 0 };
	uint8_t h[20];

	if (!p || !q || !open_policy(q, h)) {
		CHECK(!"setup");
		return;
	}
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	put_sids(&s, in, 1);
	put_tail(&s, &t);
	CHECK(svc_call(p, OP_SIDS, &s, &r, &d, NULL));
	get_names_reply(&d, 1, &y);
	CHECK(y.ok);
	CHECK_EQ_INT(y.status, 0xc0000008);
	CHECK_EQ_INT(r.len, 20);
	reply_free(&y);
	cli_result_free(&r);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
	rpc_pipe_close(q);
}

static void names_of_empty(struct ndr_enc *s, uint32_t n)
{
	uint32_t i;

	ndr_put_u32(s, n);
	ndr_put_u32(s, n);
	for (i = 0; i < n; i++)
		ndr_put_ustr_hdr(s, NULL);
}

/* range(0,1000) names; SID counts must match what is present. */
TEST(bounds_and_malformed)
{
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct tail t = { .level = 1 };
	struct cli_result r;
	struct reply y = { 0 };
	struct ndr_enc s;
	struct ndr_dec d = { 0 };
	struct ndr_sid sid = { .revision = 1, .num_auths = 1,
			       .id_auth = { 0, 0, 0, 0, 0, 1 } };
	uint8_t h[20];
	uint32_t i;

	if (!p || !open_policy(p, h)) {
		CHECK(!"setup");
		return;
	}
	/* 1000 NULL names are well-formed: answered, none mapped. */
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	names_of_empty(&s, 1000);
	put_tail(&s, &t);
	CHECK(svc_call(p, OP_NAMES, &s, &r, &d, NULL));
	svc_seek(&d, r.len - 8);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc0000073);
	cli_result_free(&r);
	/* 1001 of them are out of range: an NDR fault, not a reply. */
	ndr_put_handle(&s, h);
	names_of_empty(&s, 1001);
	put_tail(&s, &t);
	CHECK_EQ_INT(cli_call(p, OP_NAMES, &s, &r, NULL), 0);
	CHECK_EQ_INT(r.ptype, DCERPC_FAULT);
	CHECK_EQ_INT(r.fault, NCA_S_FAULT_NDR);
	cli_result_free(&r);
	ndr_enc_free(&s);

	/* Count and conformance disagree. */
	ndr_enc_init(&s);
	ndr_put_u32(&s, 2);
	ndr_put_ptr(&s, true);
	ndr_put_u32(&s, 3);
	for (i = 0; i < 3; i++)
		ndr_put_ptr(&s, true);
	for (i = 0; i < 3; i++)
		ndr_put_sid(&s, &sid);
	t.options = true;
	put_tail(&s, &t);
	CHECK_EQ_INT(cli_call(p, OP_SIDS3, &s, &r, NULL), 0);
	CHECK_EQ_INT(r.fault, NCA_S_FAULT_NDR);
	cli_result_free(&r);
	ndr_enc_free(&s);
	/*
	 * One SID more than LSA_MAX_SIDS (20480), every one present and
	 * well-formed (about 400 KiB, under the 1 MiB stub limit): only the
	 * cap can refuse it, not a short buffer.
	 */
	ndr_enc_init(&s);
	ndr_put_u32(&s, 20481);
	ndr_put_ptr(&s, true);
	ndr_put_u32(&s, 20481);
	for (i = 0; i < 20481; i++)
		ndr_put_ptr(&s, true);
	for (i = 0; i < 20481; i++)
		ndr_put_sid(&s, &sid);
	put_tail(&s, &t);
	CHECK_EQ_INT(cli_call(p, OP_SIDS3, &s, &r, NULL), 0);
	CHECK_EQ_INT(r.fault, NCA_S_FAULT_NDR);
	cli_result_free(&r);
	ndr_enc_free(&s);
	/* A NULL SID pointer inside the array. */
	ndr_enc_init(&s);
	ndr_put_u32(&s, 1);
	ndr_put_ptr(&s, true);
	ndr_put_u32(&s, 1);
	ndr_put_ptr(&s, false);
	put_tail(&s, &t);
	CHECK_EQ_INT(cli_call(p, OP_SIDS3, &s, &r, NULL), 0);
	CHECK_EQ_INT(r.fault, NCA_S_FAULT_NDR);
	cli_result_free(&r);
	ndr_enc_free(&s);
	/* Translations sent in (to be ignored, but we do not decode them). */
	ndr_enc_init(&s);
	ndr_put_u32(&s, 0);
	ndr_put_ptr(&s, false);
	ndr_put_u32(&s, 1);
	ndr_put_ptr(&s, true);
	ndr_put_u16(&s, 1);
	ndr_put_u32(&s, 0);
	ndr_put_u32(&s, 0);
	ndr_put_u32(&s, 0);
	CHECK_EQ_INT(cli_call(p, OP_SIDS3, &s, &r, NULL), 0);
	CHECK_EQ_INT(r.fault, NCA_S_FAULT_NDR);
	cli_result_free(&r);
	ndr_enc_free(&s);
	ndr_enc_init(&s);
	/* Zero SIDs: nothing to map, STATUS_SUCCESS with empty arrays. */
	ndr_put_u32(&s, 0);
	ndr_put_ptr(&s, false);
	put_tail(&s, &t);
	CHECK(svc_call(p, OP_SIDS3, &s, &r, &d, NULL));
	get_names_reply(&d, 2, &y);
	CHECK(y.ok);
	CHECK_EQ_INT(y.status, 0);
	CHECK_EQ_INT(y.n, 0);
	reply_free(&y);
	cli_result_free(&r);
	ndr_enc_free(&s);
	/* The pipe still answers. */
	CHECK(open_policy(p, h));
	rpc_pipe_close(p);
}

int main(void)
{
	fake_backend_init(&be, &fctx);
	RUN(lookup_sids_v1);
	RUN(lookup_sids3);
	RUN(lookup_names_v1);
	RUN(lookup_names2);
	RUN(lookup_names4);
	RUN(levels_and_options);
	RUN(handles);
	RUN(bounds_and_malformed);
	return test_report();
}
