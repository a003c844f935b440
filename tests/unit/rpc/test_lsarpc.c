// SPDX-License-Identifier: GPL-2.0
/* lsarpc: open/close policy, lsaquery, LookupSids2, LookupNames3. */
#include "testlib.h"
#include "svc_util.h"

static struct fake_ctx fctx;
static struct rpc_backend be;

/* LsarOpenPolicy2 as rpcclient sends it (QoS set, rest NULL). */
static void open_policy2_stub(struct ndr_enc *s)
{
	ndr_enc_init(s);
	ndr_put_string_ptr(s, "\\\\" FAKE_NETBIOS);
	ndr_put_u32(s, 24);		/* ObjectAttributes.Length */
	ndr_put_ptr(s, false);		/* RootDirectory */
	ndr_put_ptr(s, false);		/* ObjectName */
	ndr_put_u32(s, 0);		/* Attributes */
	ndr_put_ptr(s, false);		/* SecurityDescriptor */
	ndr_put_ptr(s, true);		/* SecurityQualityOfService */
	ndr_put_u32(s, 12);
	ndr_put_u16(s, 2);
	ndr_put_u8(s, 1);
	ndr_put_u8(s, 0);
	ndr_put_u32(s, 0x02000000);	/* MAXIMUM_ALLOWED */
}

static bool open_policy(struct rpc_pipe *p, uint8_t h[20], const char *seed)
{
	struct cli_result r;
	struct ndr_enc s;
	struct ndr_dec d;
	static const uint8_t zero[20];
	bool ok;

	open_policy2_stub(&s);
	ok = svc_call(p, 44, &s, &r, &d, seed);
	ndr_get_handle(&d, h);
	ok = ok && ndr_get_u32(&d) == 0 && !d.err && memcmp(h, zero, 20);
	cli_result_free(&r);
	ndr_enc_free(&s);
	return ok;
}

TEST(open_close_policy)
{
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	uint8_t h[20], h2[20], out[20];
	static const uint8_t zero[20];
	struct cli_result r;
	struct ndr_enc s, good;
	struct ndr_dec d;

	if (!p) {
		CHECK(p != NULL);
		return;
	}
	CHECK(open_policy(p, h, "lsa_open_policy2"));
	open_policy2_stub(&good);
	CHECK_EQ_INT(svc_truncations(p, 44, &good), 0);
	ndr_enc_free(&good);

	/* LsarOpenPolicy (6): SystemName is one wchar_t. */
	ndr_enc_init(&s);
	ndr_put_ptr(&s, true);
	ndr_put_u16(&s, '\\');
	ndr_put_u32(&s, 24);
	ndr_put_zeros(&s, 20);
	ndr_put_u32(&s, 0x02000000);
	CHECK(svc_call(p, 6, &s, &r, &d, "lsa_open_policy"));
	ndr_get_handle(&d, h2);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK(memcmp(h, h2, 20) != 0);
	cli_result_free(&r);

	/* RootDirectory must be NULL. */
	ndr_enc_init(&s);
	ndr_put_ptr(&s, false);
	ndr_put_u32(&s, 24);
	ndr_put_ptr(&s, true);
	ndr_put_zeros(&s, 16);
	CHECK(svc_call(p, 6, &s, &r, &d, NULL));
	ndr_get_handle(&d, out);
	CHECK_EQ_MEM(out, zero, 20);
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc000000d);
	cli_result_free(&r);

	ndr_put_handle(&s, h);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 0, &s, &r, &d, "lsa_close"));
	ndr_get_handle(&d, out);
	CHECK_EQ_MEM(out, zero, 20);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);
	/* Closed twice. */
	ndr_put_handle(&s, h);
	CHECK(svc_call(p, 0, &s, &r, &d, NULL));
	d.off = 20;
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc0000008);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 0, &good), 0);
	ndr_enc_free(&good);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

static void query_stub(struct ndr_enc *s, const uint8_t h[20], uint16_t lvl)
{
	ndr_enc_init(s);
	ndr_put_handle(s, h);
	ndr_put_u16(s, lvl);
}

TEST(query_info_policy)
{
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct rpc_pipe *other = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct ndr_sid sid, want;
	struct cli_result r;
	struct ndr_enc s, good;
	struct ndr_dec d;
	struct ndr_ustr u;
	uint8_t h[20], oh[20];
	char *name;

	if (!p || !other || !open_policy(p, h, NULL) ||
	    !open_policy(other, oh, NULL)) {
		CHECK(!"setup");
		return;
	}
	svc_domain_sid(&want);
	/* Account domain: the machine. */
	query_stub(&s, h, 5);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 7, &s, &r, &d, "lsa_query_info_5"));
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u16(&d), 5);
	ndr_get_ustr_hdr(&d, &u);
	CHECK(ndr_get_ptr(&d) != 0);
	name = ndr_get_ustr_body(&d, &u);
	ndr_get_sid(&d, &sid);
	CHECK_EQ_STR(name, FAKE_NETBIOS);
	CHECK(ndr_sid_equal(&sid, &want));
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(d.err, 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	free(name);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 7, &good), 0);
	ndr_enc_free(&good);

	/* Primary domain (rpcclient lsaquery's default): workgroup, no SID. */
	query_stub(&s, h, 3);
	CHECK(svc_call(p, 7, &s, &r, &d, "lsa_query_info_3"));
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u16(&d), 3);
	ndr_get_ustr_hdr(&d, &u);
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	name = ndr_get_ustr_body(&d, &u);
	CHECK_EQ_STR(name, FAKE_WORKGROUP);
	free(name);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);

	/* DNS domain through QueryInformationPolicy2. */
	query_stub(&s, h, 12);
	CHECK(svc_call(p, 46, &s, &r, &d, "lsa_query_info2_12"));
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u16(&d), 12);
	ndr_get_ustr_hdr(&d, &u);
	d.off += 16 + 16;			/* two NULL strings, GUID */
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	name = ndr_get_ustr_body(&d, &u);
	CHECK_EQ_STR(name, FAKE_WORKGROUP);
	free(name);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	cli_result_free(&r);

	query_stub(&s, h, 2);
	CHECK(svc_call(p, 7, &s, &r, &d, NULL));
	CHECK_EQ_INT(r.len, 8);
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc000000d);
	cli_result_free(&r);

	/* Another pipe's handle is not ours. */
	query_stub(&s, oh, 5);
	CHECK(svc_call(p, 7, &s, &r, &d, NULL));
	d.off = 4;
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc0000008);
	cli_result_free(&r);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
	rpc_pipe_close(other);
}

static void put_sid_list(struct ndr_enc *s, const struct ndr_sid *v, int n)
{
	int i;

	ndr_put_u32(s, n);
	ndr_put_ptr(s, true);
	ndr_put_u32(s, n);
	for (i = 0; i < n; i++)
		ndr_put_ptr(s, true);
	for (i = 0; i < n; i++)
		ndr_put_sid(s, &v[i]);
}

static void put_lookup_tail(struct ndr_enc *s)
{
	ndr_put_u32(s, 0);
	ndr_put_ptr(s, false);
	ndr_put_u16(s, 1);		/* LsapLookupWksta */
	ndr_put_u32(s, 0);		/* MappedCount */
	ndr_put_u32(s, 0);
	ndr_put_u32(s, 2);		/* ClientRevision */
}

/* ReferencedDomains: returns the count, names in @names. */
static uint32_t get_refdoms(struct ndr_dec *d, char **names,
			    struct ndr_sid *sids, uint32_t max)
{
	struct ndr_ustr u[4];
	uint32_t n, i;

	ndr_get_ptr(d);
	n = ndr_get_u32(d);
	ndr_get_ptr(d);
	ndr_get_u32(d);
	if (!n || n > max)
		return n;
	CHECK_EQ_INT(ndr_get_u32(d), n);
	for (i = 0; i < n; i++) {
		ndr_get_ustr_hdr(d, &u[i]);
		ndr_get_ptr(d);
	}
	for (i = 0; i < n; i++) {
		names[i] = ndr_get_ustr_body(d, &u[i]);
		ndr_get_sid(d, &sids[i]);
	}
	return n;
}

TEST(lookup_sids2)
{
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct ndr_sid in[3], dsid[4];
	struct ndr_ustr u[3];
	char *doms[4] = { 0 }, *names[3] = { 0 };
	uint16_t use[3];
	int32_t idx[3];
	struct cli_result r;
	struct ndr_enc s, good;
	struct ndr_dec d;
	uint8_t h[20];
	uint32_t i, nd;

	if (!p || !open_policy(p, h, NULL)) {
		CHECK(!"setup");
		return;
	}
	svc_domain_sid(&in[0]);
	in[2] = in[0];
	ndr_sid_compose(&in[0], &in[2], FAKE_ALICE_RID);
	in[1] = (struct ndr_sid){ .revision = 1, .num_auths = 2,
		.id_auth = { 0, 0, 0, 0, 0, 5 }, .sub_auths = { 32, 544 } };
	ndr_sid_compose(&in[2], &in[2], 4242);
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	put_sid_list(&s, in, 3);
	put_lookup_tail(&s);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 57, &s, &r, &d, "lsa_lookup_sids2"));
	nd = get_refdoms(&d, doms, dsid, 4);
	CHECK_EQ_INT(nd, 2);
	CHECK_EQ_STR(doms[0], FAKE_NETBIOS);
	CHECK_EQ_STR(doms[1], "BUILTIN");
	CHECK_EQ_INT(ndr_get_u32(&d), 3);
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 3);
	for (i = 0; i < 3; i++) {
		use[i] = ndr_get_u16(&d);
		ndr_get_ustr_hdr(&d, &u[i]);
		idx[i] = (int32_t)ndr_get_u32(&d);
		ndr_get_u32(&d);
	}
	for (i = 0; i < 3; i++)
		names[i] = ndr_get_ustr_body(&d, &u[i]);
	CHECK_EQ_INT(ndr_get_u32(&d), 2);		/* MappedCount */
	CHECK_EQ_INT(ndr_get_u32(&d), 0x107);		/* SOME_NOT_MAPPED */
	CHECK_EQ_INT(d.err, 0);
	CHECK_EQ_INT(use[0], 1);
	CHECK_EQ_STR(names[0], "alice");
	CHECK_EQ_INT(idx[0], 0);
	CHECK_EQ_INT(use[1], 4);
	CHECK_EQ_STR(names[1], "Administrators");
	CHECK_EQ_INT(idx[1], 1);
	CHECK_EQ_INT(use[2], 8);
	CHECK_EQ_STR(names[2], "S-1-5-21-1-2-3-4242");
	CHECK_EQ_INT(idx[2], -1);
	for (i = 0; i < 4; i++)
		free(doms[i]);
	for (i = 0; i < 3; i++)
		free(names[i]);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 57, &good), 0);
	ndr_enc_free(&good);

	/* A SID with 16 sub-authorities is malformed input. */
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	ndr_put_u32(&s, 1);
	ndr_put_ptr(&s, true);
	ndr_put_u32(&s, 1);
	ndr_put_ptr(&s, true);
	ndr_put_u32(&s, 16);
	ndr_put_u8(&s, 1);
	ndr_put_u8(&s, 16);
	ndr_put_zeros(&s, 6 + 64);
	put_lookup_tail(&s);
	CHECK_EQ_INT(cli_call(p, 57, &s, &r, NULL), 0);
	CHECK_EQ_INT(r.ptype, DCERPC_FAULT);
	CHECK_EQ_INT(r.fault, NCA_S_FAULT_NDR);
	cli_result_free(&r);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

TEST(lookup_names3)
{
	static const char *const in[] = {
		"alice", FAKE_WORKGROUP "\\staff", "nobody", "BUILTIN\\Users"
	};
	struct rpc_pipe *p = cli_open("lsarpc", &be, UUID_LSARPC, 0, 0);
	struct ndr_sid dsid[4], sid, want;
	char *doms[4] = { 0 };
	uint16_t use[4];
	uint32_t ptr[4], i, nd;
	struct cli_result r;
	struct ndr_enc s, good;
	struct ndr_dec d;
	uint8_t h[20];

	if (!p || !open_policy(p, h, NULL)) {
		CHECK(!"setup");
		return;
	}
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	ndr_put_u32(&s, 4);
	ndr_put_u32(&s, 4);
	for (i = 0; i < 4; i++)
		ndr_put_ustr_hdr(&s, in[i]);
	for (i = 0; i < 4; i++)
		ndr_put_ustr_body(&s, in[i]);
	put_lookup_tail(&s);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 68, &s, &r, &d, "lsa_lookup_names3"));
	nd = get_refdoms(&d, doms, dsid, 4);
	CHECK_EQ_INT(nd, 2);
	CHECK_EQ_INT(ndr_get_u32(&d), 4);
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 4);
	for (i = 0; i < 4; i++) {
		use[i] = ndr_get_u16(&d);
		ptr[i] = ndr_get_ptr(&d);
		ndr_get_u32(&d);
		ndr_get_u32(&d);
	}
	CHECK_EQ_INT(use[0], 1);
	CHECK_EQ_INT(use[1], 2);
	CHECK_EQ_INT(use[2], 8);
	CHECK_EQ_INT(use[3], 4);
	CHECK_EQ_INT(ptr[2], 0);
	svc_domain_sid(&want);
	ndr_get_sid(&d, &sid);
	ndr_sid_compose(&want, &want, FAKE_ALICE_RID);
	CHECK(ndr_sid_equal(&sid, &want));
	ndr_get_sid(&d, &sid);
	want.sub_auths[4] = FAKE_STAFF_RID;
	CHECK(ndr_sid_equal(&sid, &want));
	ndr_get_sid(&d, &sid);
	CHECK_EQ_INT(sid.num_auths, 2);
	CHECK_EQ_INT(sid.sub_auths[1], 545);
	CHECK_EQ_INT(ndr_get_u32(&d), 3);
	CHECK_EQ_INT(ndr_get_u32(&d), 0x107);
	CHECK_EQ_INT(d.err, 0);
	for (i = 0; i < 4; i++)
		free(doms[i]);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 68, &good), 0);
	ndr_enc_free(&good);

	/* Nothing mapped. */
	ndr_enc_init(&s);
	ndr_put_handle(&s, h);
	ndr_put_u32(&s, 1);
	ndr_put_u32(&s, 1);
	ndr_put_ustr_hdr(&s, "OTHER\\alice");
	ndr_put_ustr_body(&s, "OTHER\\alice");
	put_lookup_tail(&s);
	CHECK(svc_call(p, 68, &s, &r, &d, NULL));
	d.off = r.len - 4;
	CHECK_EQ_INT(ndr_get_u32(&d), 0xc0000073);
	cli_result_free(&r);
	/* Count beyond range(0,1000). */
	ndr_put_handle(&s, h);
	ndr_put_u32(&s, 1001);
	ndr_put_u32(&s, 1001);
	ndr_put_zeros(&s, 1001 * 8);
	put_lookup_tail(&s);
	CHECK_EQ_INT(cli_call(p, 68, &s, &r, NULL), 0);
	CHECK_EQ_INT(r.fault, NCA_S_FAULT_NDR);
	cli_result_free(&r);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

int main(void)
{
	fake_backend_init(&be, &fctx);
	RUN(open_close_policy);
	RUN(query_info_policy);
	RUN(lookup_sids2);
	RUN(lookup_names3);
	return test_report();
}
