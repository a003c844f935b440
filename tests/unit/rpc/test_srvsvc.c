// SPDX-License-Identifier: GPL-2.0
/* srvsvc and wkssvc calls as rpcclient and smbclient -L make them. */
#include <errno.h>

#include "testlib.h"
#include "svc_util.h"

static struct fake_ctx fctx;
static struct rpc_backend be;

/* NetrShareEnum: rpcclient's netshareenumall / smbclient -L. */
static void share_enum_stub(struct ndr_enc *s, uint32_t level)
{
	ndr_enc_init(s);
	ndr_put_string_ptr(s, "\\\\" FAKE_NETBIOS);
	ndr_put_u32(s, level);			/* InfoStruct.Level */
	ndr_put_u32(s, level);			/* union discriminant */
	ndr_put_ptr(s, true);			/* container */
	ndr_put_u32(s, 0);			/* EntriesRead */
	ndr_put_ptr(s, false);			/* Buffer */
	ndr_put_u32(s, 0xffffffff);		/* PreferedMaximumLength */
	ndr_put_ptr(s, true);			/* ResumeHandle */
	ndr_put_u32(s, 0);
}

struct share_row {
	uint32_t type, max_uses, cur_uses;
	char *name, *comment, *path;
};

static void free_rows(struct share_row *rows, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].name);
		free(rows[i].comment);
		free(rows[i].path);
	}
}

TEST(share_enum_level1)
{
	struct rpc_pipe *p = cli_open("srvsvc", &be, UUID_SRVSVC, 3, 0);
	struct share_row rows[4] = { 0 };
	uint32_t np[4], cp[4], n = 0, i;
	struct cli_result r;
	struct ndr_enc s, good;
	struct ndr_dec d;

	if (!p) {
		CHECK(p != NULL);
		return;
	}
	share_enum_stub(&s, 1);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 15, &s, &r, &d, "srvsvc_share_enum_1"));
	CHECK_EQ_INT(ndr_get_u32(&d), 1);
	CHECK_EQ_INT(ndr_get_u32(&d), 1);
	CHECK(ndr_get_ptr(&d) != 0);
	n = ndr_get_u32(&d);
	CHECK_EQ_INT(n, 2);		/* "hidden" is not browseable */
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u32(&d), n);
	for (i = 0; i < n && i < 4; i++) {
		np[i] = ndr_get_ptr(&d);
		rows[i].type = ndr_get_u32(&d);
		cp[i] = ndr_get_ptr(&d);
	}
	for (i = 0; i < n && i < 4; i++) {
		rows[i].name = svc_deferred_string(&d, np[i]);
		rows[i].comment = svc_deferred_string(&d, cp[i]);
	}
	CHECK_EQ_INT(ndr_get_u32(&d), 2);		/* TotalEntries */
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 2);		/* resume */
	CHECK_EQ_INT(ndr_get_u32(&d), 0);		/* WERR_OK */
	CHECK_EQ_INT(d.err, 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	CHECK_EQ_STR(rows[0].name, "IPC$");
	CHECK_EQ_INT(rows[0].type, 0x80000003u);
	CHECK_EQ_STR(rows[0].comment, "IPC Service (" FAKE_COMMENT ")");
	CHECK_EQ_STR(rows[1].name, "public");
	CHECK_EQ_INT(rows[1].type, 0);
	CHECK_EQ_STR(rows[1].comment, "Public files");
	free_rows(rows, n < 4 ? n : 4);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 15, &good), 0);
	ndr_enc_free(&good);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

TEST(share_enum_levels_0_2_and_bad)
{
	struct rpc_pipe *p = cli_open("srvsvc", &be, UUID_SRVSVC, 3, 0);
	struct cli_result r;
	struct ndr_enc s;
	struct ndr_dec d;
	uint32_t ptr[2][4], i;
	char *str;

	if (!p) {
		CHECK(p != NULL);
		return;
	}
	share_enum_stub(&s, 0);
	CHECK(svc_call(p, 15, &s, &r, &d, "srvsvc_share_enum_0"));
	d.off = 12;
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	ptr[0][0] = ndr_get_ptr(&d);
	ptr[1][0] = ndr_get_ptr(&d);
	str = svc_deferred_string(&d, ptr[0][0]);
	CHECK_EQ_STR(str, "IPC$");
	free(str);
	str = svc_deferred_string(&d, ptr[1][0]);
	CHECK_EQ_STR(str, "public");
	free(str);
	d.off = r.len - 4;
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);

	share_enum_stub(&s, 2);
	CHECK(svc_call(p, 15, &s, &r, &d, "srvsvc_share_enum_2"));
	d.off = 12;
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	for (i = 0; i < 2; i++) {
		uint32_t max, cur;

		ptr[i][0] = ndr_get_ptr(&d);
		ndr_get_u32(&d);			/* type */
		ptr[i][1] = ndr_get_ptr(&d);
		ndr_get_u32(&d);			/* permissions */
		max = ndr_get_u32(&d);
		cur = ndr_get_u32(&d);
		CHECK_EQ_INT(max, 0xffffffffu);
		CHECK_EQ_INT(cur, i);
		ptr[i][2] = ndr_get_ptr(&d);
		CHECK_EQ_INT(ndr_get_ptr(&d), 0);	/* password */
	}
	for (i = 0; i < 2; i++) {
		free(svc_deferred_string(&d, ptr[i][0]));
		free(svc_deferred_string(&d, ptr[i][1]));
		str = svc_deferred_string(&d, ptr[i][2]);
		CHECK_EQ_STR(str, i ? "C:\\srv\\public" : "");
		free(str);
	}
	CHECK_EQ_INT(ndr_get_u32(&d), 2);
	CHECK_EQ_INT(d.err, 0);
	cli_result_free(&r);

	/* Level 3 has no union arm: nothing follows the discriminant. */
	ndr_enc_init(&s);
	ndr_put_string_ptr(&s, "\\\\" FAKE_NETBIOS);
	ndr_put_u32(&s, 3);
	ndr_put_u32(&s, 3);
	ndr_put_u32(&s, 0xffffffff);
	ndr_put_ptr(&s, true);
	ndr_put_u32(&s, 0);
	CHECK(svc_call(p, 15, &s, &r, &d, NULL));
	CHECK_EQ_INT(r.len, 4 + 4 + 4 + 8 + 4);
	d.off = r.len - 4;
	CHECK_EQ_INT(ndr_get_u32(&d), 0x7c);
	cli_result_free(&r);
	/* Level 503 has an arm (a NULL pointer back) but is not served. */
	share_enum_stub(&s, 503);
	CHECK(svc_call(p, 15, &s, &r, &d, NULL));
	CHECK_EQ_INT(r.len, 4 + 4 + 4 + 4 + 8 + 4);
	d.off = 8;
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	d.off = r.len - 4;
	CHECK_EQ_INT(ndr_get_u32(&d), 0x7c);
	cli_result_free(&r);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

static void get_info_stub(struct ndr_enc *s, const char *name, uint32_t lvl)
{
	ndr_enc_init(s);
	ndr_put_string_ptr(s, "\\\\" FAKE_NETBIOS);
	ndr_put_string(s, name);
	ndr_put_u32(s, lvl);
}

TEST(share_get_info)
{
	struct rpc_pipe *p = cli_open("srvsvc", &be, UUID_SRVSVC, 3, 0);
	struct cli_result r;
	struct ndr_enc s, good;
	struct ndr_dec d;
	uint32_t pn, pc, pp;
	char *name, *comment, *path;

	if (!p) {
		CHECK(p != NULL);
		return;
	}
	/* rpcclient netsharegetinfo defaults to level 502. */
	get_info_stub(&s, "PUBLIC", 502);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 16, &s, &r, &d, "srvsvc_share_get_info_502"));
	CHECK_EQ_INT(ndr_get_u32(&d), 502);
	CHECK(ndr_get_ptr(&d) != 0);
	pn = ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);		/* disk */
	pc = ndr_get_ptr(&d);
	ndr_get_u32(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 0xffffffffu);
	CHECK_EQ_INT(ndr_get_u32(&d), 1);
	pp = ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);		/* sd length */
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	name = svc_deferred_string(&d, pn);
	comment = svc_deferred_string(&d, pc);
	path = svc_deferred_string(&d, pp);
	CHECK_EQ_STR(name, "public");
	CHECK_EQ_STR(comment, "Public files");
	CHECK_EQ_STR(path, "C:\\srv\\public");
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	free(name);
	free(comment);
	free(path);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 16, &good), 0);
	ndr_enc_free(&good);

	/* Hidden shares are still reachable by name. */
	get_info_stub(&s, "hidden", 1);
	CHECK(svc_call(p, 16, &s, &r, &d, "srvsvc_share_get_info_1"));
	d.off = 8;
	CHECK(ndr_get_ptr(&d) != 0);
	ndr_get_u32(&d);
	pc = ndr_get_ptr(&d);
	name = ndr_get_string(&d);
	CHECK_EQ_STR(name, "hidden");
	free(name);
	free(svc_deferred_string(&d, pc));
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);

	get_info_stub(&s, "public", 1005);
	CHECK(svc_call(p, 16, &s, &r, &d, NULL));
	CHECK_EQ_INT(r.len, 16);
	d.off = 12;
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);

	get_info_stub(&s, "public", 501);
	CHECK(svc_call(p, 16, &s, &r, &d, NULL));
	d.off = 8;
	ndr_get_ptr(&d);
	ndr_get_u32(&d);
	ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);		/* flags */
	d.off = r.len - 4;
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);

	get_info_stub(&s, "nosuch", 1);
	CHECK(svc_call(p, 16, &s, &r, &d, NULL));
	CHECK_EQ_INT(r.len, 12);
	CHECK_EQ_INT(ndr_get_u32(&d), 1);
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 0x906);
	cli_result_free(&r);

	get_info_stub(&s, "public", 7);
	CHECK(svc_call(p, 16, &s, &r, &d, NULL));
	CHECK_EQ_INT(r.len, 8);
	d.off = 4;
	CHECK_EQ_INT(ndr_get_u32(&d), 0x7c);
	cli_result_free(&r);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

static void level_stub(struct ndr_enc *s, uint32_t level)
{
	ndr_enc_init(s);
	ndr_put_string_ptr(s, "\\\\" FAKE_NETBIOS);
	ndr_put_u32(s, level);
}

TEST(server_get_info)
{
	struct rpc_pipe *p = cli_open("srvsvc", &be, UUID_SRVSVC, 3, 0);
	struct cli_result r;
	struct ndr_enc s, good;
	struct ndr_dec d;
	uint32_t pn, pc;
	char *name, *comment;

	if (!p) {
		CHECK(p != NULL);
		return;
	}
	/* rpcclient srvinfo: level 101. */
	level_stub(&s, 101);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 21, &s, &r, &d, "srvsvc_server_get_info_101"));
	CHECK_EQ_INT(ndr_get_u32(&d), 101);
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 500);
	pn = ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 6);
	CHECK_EQ_INT(ndr_get_u32(&d), 1);
	CHECK_EQ_INT(ndr_get_u32(&d), 0x8803);
	pc = ndr_get_ptr(&d);
	name = svc_deferred_string(&d, pn);
	comment = svc_deferred_string(&d, pc);
	CHECK_EQ_STR(name, FAKE_NETBIOS);
	CHECK_EQ_STR(comment, FAKE_COMMENT);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	free(name);
	free(comment);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 21, &good), 0);
	ndr_enc_free(&good);

	level_stub(&s, 100);
	CHECK(svc_call(p, 21, &s, &r, &d, "srvsvc_server_get_info_100"));
	d.off = 8;
	CHECK_EQ_INT(ndr_get_u32(&d), 500);
	pn = ndr_get_ptr(&d);
	name = svc_deferred_string(&d, pn);
	CHECK_EQ_STR(name, FAKE_NETBIOS);
	free(name);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	cli_result_free(&r);

	level_stub(&s, 102);
	CHECK(svc_call(p, 21, &s, &r, &d, NULL));
	CHECK_EQ_INT(r.len, 12);
	d.off = 4;
	CHECK_EQ_INT(ndr_get_ptr(&d), 0);
	cli_result_free(&r);
	level_stub(&s, 7);
	CHECK(svc_call(p, 21, &s, &r, &d, NULL));
	CHECK_EQ_INT(r.len, 8);
	d.off = 4;
	CHECK_EQ_INT(ndr_get_u32(&d), 0x7c);
	cli_result_free(&r);

	/* A backend failure is an error status, not a crash or a fault. */
	fctx.fail_server = -EIO;
	level_stub(&s, 101);
	CHECK(svc_call(p, 21, &s, &r, &d, NULL));
	d.off = r.len - 4;
	CHECK(ndr_get_u32(&d) != 0);
	cli_result_free(&r);
	fctx.fail_server = 0;
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

TEST(wksta_get_info)
{
	struct rpc_pipe *p = cli_open("wkssvc", &be, UUID_WKSSVC, 1, 0);
	struct cli_result r;
	struct ndr_enc s, good;
	struct ndr_dec d;
	uint32_t pn, pg;
	char *name, *group;

	if (!p) {
		CHECK(p != NULL);
		return;
	}
	level_stub(&s, 100);
	svc_copy(&good, &s);
	CHECK(svc_call(p, 0, &s, &r, &d, "wkssvc_get_info_100"));
	CHECK_EQ_INT(ndr_get_u32(&d), 100);
	CHECK(ndr_get_ptr(&d) != 0);
	CHECK_EQ_INT(ndr_get_u32(&d), 500);
	pn = ndr_get_ptr(&d);
	pg = ndr_get_ptr(&d);
	CHECK_EQ_INT(ndr_get_u32(&d), 6);
	CHECK_EQ_INT(ndr_get_u32(&d), 1);
	name = svc_deferred_string(&d, pn);
	group = svc_deferred_string(&d, pg);
	CHECK_EQ_STR(name, FAKE_NETBIOS);
	CHECK_EQ_STR(group, FAKE_WORKGROUP);
	CHECK_EQ_INT(ndr_get_u32(&d), 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	free(name);
	free(group);
	cli_result_free(&r);
	CHECK_EQ_INT(svc_truncations(p, 0, &good), 0);
	ndr_enc_free(&good);

	level_stub(&s, 101);
	CHECK(svc_call(p, 0, &s, &r, &d, NULL));
	CHECK_EQ_INT(r.len, 12);
	d.off = 8;
	CHECK_EQ_INT(ndr_get_u32(&d), 0x7c);
	cli_result_free(&r);
	ndr_enc_free(&s);
	rpc_pipe_close(p);
}

int main(void)
{
	fake_backend_init(&be, &fctx);
	RUN(share_enum_level1);
	RUN(share_enum_levels_0_2_and_bad);
	RUN(share_get_info);
	RUN(server_get_info);
	RUN(wksta_get_info);
	return test_report();
}
