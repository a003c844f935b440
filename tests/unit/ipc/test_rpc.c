// SPDX-License-Identifier: GPL-2.0
/*
 * Named pipes through ksmbd.mountd's RPC handler, and the RPC backend
 * adapter over a small configuration and user database. The bind PDU is
 * built here byte by byte from MS-RPCE / C706 12.6 so the test does not
 * lean on the RPC library's own encoder.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "handlers.h"
#include "ipc_validate.h"

#define CONF_TEXT							\
	"[global]\n\tnetbios name = RPCSRV\n\tworkgroup = RPCGRP\n"	\
	"\tserver string = rpc test\n"					\
	"[share]\n\tpath = /srv/share\n\tcomment = the share\n"		\
	"[hidden$]\n\tpath = /srv/hidden\n\tbrowseable = no\n\tmax connections = 3\n"

#define SETUP_FAILED() do { test_fail_("%s", "test configuration did not load"); return; } while (0)

static struct mountd_state st;

static int setup(void)
{
	struct ksmbd_config *cfg;
	struct ksmbd_userdb *db;

	cfg = ksmbd_config_parse(CONF_TEXT, strlen(CONF_TEXT), "rpc.conf", NULL);
	db = ksmbd_userdb_new();
	if (!cfg || !db || ksmbd_userdb_set(db, "root", "pw")) {
		ksmbd_config_free(cfg);
		ksmbd_userdb_free(db);
		return -1;
	}
	mountd_state_init(&st, cfg, db);
	return 0;
}

/* Sends one RPC request; returns the status, or -1 if none came back. */
static long rpc(uint32_t pipe, uint32_t flags, const void *in, size_t len,
		uint32_t max_out, struct mountd_reply *r)
{
	unsigned char buf[sizeof(struct ksmbd_rpc_command) + 512];
	struct ksmbd_rpc_command req = {
		.handle = 1000 + pipe, .pipe_id = pipe, .flags = flags,
		.payload_sz = len, .max_out = max_out,
	};
	struct ksmbd_rpc_command *a;
	const char *why;

	memcpy(buf, &req, sizeof(req));
	memcpy(buf + sizeof(req), in, len);
	if (mountd_handle(&st, KSMBD_EVENT_RPC_REQUEST, buf, sizeof(req) + len, r))
		return -1;
	if (r->type != KSMBD_EVENT_RPC_RESPONSE ||
	    ksmbd_ipc_msg_validate(r->type, r->data, r->len, &why))
		return -1;
	a = (void *)r->data;
	if (a->handle != req.handle || a->pipe_id != pipe || a->payload_sz > max_out)
		return -1;
	return a->flags;
}

static long rpc_simple(uint32_t pipe, uint32_t flags)
{
	struct mountd_reply r;
	long ret = rpc(pipe, flags, "", 0, 0, &r);

	mountd_reply_free(&r);
	return ret;
}

static void put_uuid(unsigned char *p, const char *s)
{
	unsigned int a, b, c, d[8];

	sscanf(s, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x", &a, &b, &c,
	       &d[0], &d[1], &d[2], &d[3], &d[4], &d[5], &d[6], &d[7]);
	p[0] = a; p[1] = a >> 8; p[2] = a >> 16; p[3] = a >> 24;
	p[4] = b; p[5] = b >> 8; p[6] = c; p[7] = c >> 8;
	for (int i = 0; i < 8; i++)
		p[8 + i] = d[i];
}

/* A bind to srvsvc v3.0 with NDR 2.0: 72 bytes. */
static size_t srvsvc_bind(unsigned char *p)
{
	memset(p, 0, 72);
	p[0] = 5;			/* rpc_vers */
	p[2] = 11;			/* ptype: bind */
	p[3] = 0x03;			/* first and last fragment */
	p[4] = 0x10;			/* little-endian, ASCII, IEEE */
	p[8] = 72;			/* frag_length */
	p[12] = 1;			/* call_id */
	p[16] = 0xb8; p[17] = 0x10;	/* max_xmit_frag 4280 */
	p[18] = 0xb8; p[19] = 0x10;	/* max_recv_frag */
	p[24] = 1;			/* one context element */
	p[30] = 1;			/* one transfer syntax */
	put_uuid(p + 32, "4b324fc8-1670-01d3-1278-5a47bf6ee188");
	p[48] = 3;			/* srvsvc version 3.0 */
	put_uuid(p + 52, "8a885d04-1ceb-11c9-9fe8-08002b104860");
	p[68] = 2;			/* NDR version 2 */
	return 72;
}

#define SRVSVC	KSMBD_RPC_SRVSVC_METHOD_INVOKE

TEST(pipe_open_close)
{
	if (setup())
		SETUP_FAILED();
	CHECK_EQ_INT(rpc_simple(7, SRVSVC | KSMBD_RPC_OPEN_METHOD), KSMBD_RPC_OK);
	CHECK_EQ_INT(st.npipes, 1);
	/* The same id twice, an unknown service, an unknown pipe. */
	CHECK_EQ_INT(rpc_simple(7, SRVSVC | KSMBD_RPC_OPEN_METHOD), KSMBD_RPC_EBAD_FID);
	CHECK_EQ_INT(rpc_simple(8, KSMBD_RPC_OPEN_METHOD), KSMBD_RPC_EBAD_FUNC);
	CHECK_EQ_INT(rpc_simple(9, SRVSVC | KSMBD_RPC_READ_METHOD), KSMBD_RPC_EBAD_FID);
	CHECK_EQ_INT(rpc_simple(7, SRVSVC | KSMBD_RPC_RAP_METHOD), KSMBD_RPC_ENOTIMPLEMENTED);
	CHECK_EQ_INT(rpc_simple(7, SRVSVC | KSMBD_RPC_CLOSE_METHOD), KSMBD_RPC_OK);
	CHECK_EQ_INT(rpc_simple(7, SRVSVC | KSMBD_RPC_CLOSE_METHOD), KSMBD_RPC_EBAD_FID);
	CHECK_EQ_INT(st.npipes, 0);
	mountd_state_free(&st);
}

TEST(pipe_table_bounded)
{
	uint32_t i;
	long last = 0;

	if (setup())
		SETUP_FAILED();
	for (i = 1; i <= MOUNTD_MAX_PIPES; i++)
		last |= rpc_simple(i, SRVSVC | KSMBD_RPC_OPEN_METHOD);
	CHECK_EQ_INT(last, KSMBD_RPC_OK);
	CHECK_EQ_INT(rpc_simple(i, SRVSVC | KSMBD_RPC_OPEN_METHOD), KSMBD_RPC_ENOMEM);
	CHECK_EQ_INT(rpc_simple(1, SRVSVC | KSMBD_RPC_CLOSE_METHOD), KSMBD_RPC_OK);
	CHECK_EQ_INT(rpc_simple(i, SRVSVC | KSMBD_RPC_OPEN_METHOD), KSMBD_RPC_OK);
	/* A module reload closes them all. */
	mountd_state_reset(&st);
	CHECK_EQ_INT(st.npipes, 0);
	mountd_state_free(&st);
}

TEST(pipe_bind_write_read)
{
	unsigned char bind[72];
	struct ksmbd_rpc_command *a;
	struct mountd_reply r;

	if (setup())
		SETUP_FAILED();
	CHECK_EQ_INT(rpc(3, SRVSVC | KSMBD_RPC_OPEN_METHOD, "root", 5, 0, &r), KSMBD_RPC_OK);
	mountd_reply_free(&r);
	CHECK_EQ_INT(rpc(3, SRVSVC | KSMBD_RPC_WRITE_METHOD, bind, srvsvc_bind(bind), 0, &r),
		     KSMBD_RPC_OK);
	mountd_reply_free(&r);
	/* Read 16 bytes first: the rest waits, and the status says so. */
	CHECK_EQ_INT(rpc(3, SRVSVC | KSMBD_RPC_READ_METHOD, "", 0, 16, &r), KSMBD_RPC_EMORE_DATA);
	a = (void *)r.data;
	CHECK(a && a->payload_sz == 16 && a->payload[0] == 5 && a->payload[2] == 12);
	mountd_reply_free(&r);
	CHECK_EQ_INT(rpc(3, SRVSVC | KSMBD_RPC_READ_METHOD, "", 0, 4096, &r), KSMBD_RPC_OK);
	a = (void *)r.data;
	CHECK(a && a->payload_sz > 0);
	mountd_reply_free(&r);
	CHECK_EQ_INT(rpc_simple(3, SRVSVC | KSMBD_RPC_CLOSE_METHOD), KSMBD_RPC_OK);
	mountd_state_free(&st);
}

TEST(pipe_transact)
{
	unsigned char bind[72];
	struct ksmbd_rpc_command *a;
	struct mountd_reply r;

	if (setup())
		SETUP_FAILED();
	CHECK_EQ_INT(rpc_simple(4, KSMBD_RPC_WKSSVC_METHOD_INVOKE | KSMBD_RPC_OPEN_METHOD), KSMBD_RPC_OK);
	CHECK_EQ_INT(rpc_simple(5, SRVSVC | KSMBD_RPC_OPEN_METHOD), KSMBD_RPC_OK);
	CHECK_EQ_INT(rpc(5, SRVSVC | KSMBD_RPC_IOCTL_METHOD, bind, srvsvc_bind(bind), 4096, &r),
		     KSMBD_RPC_OK);
	a = (void *)r.data;
	/* bind_ack: version 5, ptype 12, call id echoed. */
	CHECK(a && a->payload_sz >= 24 && a->payload[0] == 5 && a->payload[2] == 12 &&
	      a->payload[12] == 1);
	mountd_reply_free(&r);
	mountd_state_free(&st);
}

TEST(rpc_malformed)
{
	unsigned char buf[sizeof(struct ksmbd_rpc_command) + 8] = { 0 };
	struct ksmbd_rpc_command *req = (void *)buf;
	struct mountd_reply r;

	if (setup())
		SETUP_FAILED();
	req->flags = SRVSVC | KSMBD_RPC_OPEN_METHOD;
	req->payload_sz = 9;		/* more than it carries */
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_RPC_REQUEST, buf, sizeof(buf), &r), -EINVAL);
	req->payload_sz = 0xfffffff8u;	/* would wrap a 32-bit sum */
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_RPC_REQUEST, buf, sizeof(buf), &r), -EINVAL);
	req->payload_sz = 8;
	req->max_out = KSMBD_RPC_MAX_PAYLOAD + 1;
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_RPC_REQUEST, buf, sizeof(buf), &r), -EINVAL);
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_RPC_REQUEST, buf, 10, &r), -EINVAL);
	/* An open whose user name is not one terminated string. */
	req->max_out = 0;
	memcpy(buf + sizeof(*req), "rootroot", 8);
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_RPC_REQUEST, buf, sizeof(buf), &r), 0);
	CHECK(r.data && ((struct ksmbd_rpc_command *)r.data)->flags == KSMBD_RPC_EINVALID_PARAMETER);
	mountd_reply_free(&r);
	CHECK_EQ_INT(st.npipes, 0);
	mountd_state_free(&st);
}

TEST(adapter_server_and_shares)
{
	struct rpc_server_info si;
	struct rpc_share_info sh;
	uint32_t sid[3];

	if (setup())
		SETUP_FAILED();
	CHECK_EQ_INT(st.rpc.get_server(st.rpc.ctx, &si), 0);
	CHECK_EQ_STR(si.netbios_name, "RPCSRV");
	CHECK_EQ_STR(si.workgroup, "RPCGRP");
	CHECK_EQ_STR(si.comment, "rpc test");
	mountd_server_sid(ksmbd_config_global(st.cfg), sid);
	CHECK_EQ_MEM(si.domain_sid, sid, sizeof(sid));
	CHECK_EQ_INT(st.rpc.get_share(st.rpc.ctx, 0, &sh), 0);
	CHECK_EQ_STR(sh.name, "IPC$");
	CHECK_EQ_INT(sh.type, RPC_STYPE_IPC | RPC_STYPE_SPECIAL);
	CHECK(sh.browseable);
	CHECK_EQ_INT(st.rpc.get_share(st.rpc.ctx, 1, &sh), 0);
	CHECK_EQ_STR(sh.name, "share");
	CHECK_EQ_STR(sh.path, "/srv/share");
	CHECK_EQ_STR(sh.comment, "the share");
	CHECK_EQ_INT(sh.type, RPC_STYPE_DISKTREE);
	CHECK_EQ_INT(sh.max_uses, 0xffffffffu);
	CHECK(sh.browseable);
	CHECK_EQ_INT(st.rpc.get_share(st.rpc.ctx, 2, &sh), 0);
	CHECK_EQ_STR(sh.name, "hidden$");
	CHECK_EQ_INT(sh.type, RPC_STYPE_DISKTREE | RPC_STYPE_SPECIAL);
	CHECK_EQ_INT(sh.max_uses, 3);
	CHECK(!sh.browseable);
	CHECK_EQ_INT(st.rpc.get_share(st.rpc.ctx, 3, &sh), -ENOENT);
	mountd_state_free(&st);
}

TEST(adapter_accounts)
{
	struct rpc_account a;
	uint32_t rids[8];
	size_t n = 0;

	if (setup())
		SETUP_FAILED();
	if (!getpwnam("root") || !getgrnam("root"))
		SKIP("no root user or group on this host");
	CHECK_EQ_INT(st.rpc.find_account(st.rpc.ctx, "ROOT", &a), 0);
	CHECK_EQ_INT(a.type, RPC_ACCOUNT_USER);
	CHECK_EQ_STR(a.name, "root");
	CHECK_EQ_INT(a.rid, 1000);
	CHECK_EQ_INT(a.primary_group_rid, 513);
	CHECK_EQ_INT(st.rpc.find_account_by_rid(st.rpc.ctx, 1000, &a), 0);
	CHECK_EQ_STR(a.name, "root");
	/* Group rids are odd: gid 0 is rid 1001. */
	CHECK_EQ_INT(st.rpc.find_account_by_rid(st.rpc.ctx, 1001, &a), 0);
	CHECK_EQ_INT(a.type, RPC_ACCOUNT_GROUP);
	CHECK_EQ_STR(a.name, "root");
	CHECK_EQ_INT(st.rpc.find_account_by_rid(st.rpc.ctx, 500, &a), -ENOENT);
	CHECK_EQ_INT(st.rpc.find_account(st.rpc.ctx, "nosuch-account-x", &a), -ENOENT);
	CHECK_EQ_INT(st.rpc.get_user_groups(st.rpc.ctx, 1000, rids, 8, &n), 0);
	CHECK(n >= 2 && rids[0] == 513 && rids[1] == 1001);
	CHECK_EQ_INT(st.rpc.get_user_groups(st.rpc.ctx, 1001, rids, 8, &n), -ENOENT);
	mountd_state_free(&st);
}

int main(void)
{
	mountd_log_init(true, false);
	RUN(pipe_open_close);
	RUN(pipe_table_bounded);
	RUN(pipe_bind_write_read);
	RUN(pipe_transact);
	RUN(rpc_malformed);
	RUN(adapter_server_and_shares);
	RUN(adapter_accounts);
	return test_report();
}
