// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.mountd's message handlers, driven with the bytes the kernel would
 * send. Every answer is also run through the kernel's own validator
 * (module/core/ipc_validate.c), so the two sides of the ABI are checked against
 * each other, not each against itself.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "handlers.h"
#include "ipc_validate.h"

#define CONF_TEXT							\
	"[global]\n"							\
	"\tnetbios name = TESTSRV\n"					\
	"\tworkgroup = TESTGRP\n"					\
	"\tserver string = unit test\n"					\
	"\ttcp port = 4450\n"						\
	"\tipc timeout = 7\n"						\
	"\tguest account = nobody\n"					\
	"\tbind interfaces only = yes\n"				\
	"\tinterfaces = eth0 lo\n"					\
	"[share]\n\tpath = /srv/share\n\tread only = no\n"		\
	"\tveto files = /*.tmp/secret/\n"				\
	"[ro]\n\tpath = /srv/ro\n\tmax connections = 1\n"		\
	"[closed]\n\tpath = /srv/closed\n\tinvalid users = root\n"

static struct mountd_state st;

/* A configuration that does not load is a failure, not a skip. */
#define SETUP_FAILED() do { test_fail_("%s", "test configuration did not load"); return; } while (0)

static int setup(const char *extra)
{
	char text[16384];
	struct ksmbd_config *cfg;
	struct ksmbd_userdb *db;

	struct ksmbd_diag *d = ksmbd_diag_new();

	snprintf(text, sizeof(text), "%s%s", CONF_TEXT, extra ? extra : "");
	cfg = ksmbd_config_parse(text, strlen(text), "test.conf", d);
	if (!cfg && d)
		ksmbd_diag_print(d, stdout);
	ksmbd_diag_free(d);
	db = ksmbd_userdb_new();
	if (!cfg || !db || ksmbd_userdb_set(db, "root", "secret") ||
	    ksmbd_userdb_set(db, "ksmbdghost", "pw")) {
		ksmbd_config_free(cfg);
		ksmbd_userdb_free(db);
		return -1;
	}
	mountd_state_init(&st, cfg, db);
	return 0;
}

/* Handles @req; on success the answer must pass the kernel's validator. */
static int handle(unsigned int type, const void *req, size_t len,
		  struct mountd_reply *r)
{
	const char *why = "";
	int ret = mountd_handle(&st, type, req, len, r);

	if (ret || !r->type)
		return ret;
	if (r->type != type + 1 && r->type != KSMBD_EVENT_HEARTBEAT_RESPONSE)
		return -100;
	if (ksmbd_ipc_msg_validate(r->type, r->data, r->len, &why)) {
		printf("# kernel validator refused event %u: %s\n", r->type, why);
		return -101;
	}
	return 0;
}

TEST(startup_from_config)
{
	struct mountd_reply r;
	struct ksmbd_startup_request *s;
	const char *why;

	if (setup(NULL))
		SETUP_FAILED();
	CHECK_EQ_INT(mountd_build_startup(st.cfg, &r), 0);
	s = (void *)r.data;
	CHECK_EQ_INT(r.type, KSMBD_EVENT_STARTING_UP);
	CHECK_EQ_INT(s->abi_magic, KSMBD_ABI_MAGIC);
	CHECK_EQ_INT(s->abi_version, KSMBD_ABI_VERSION);
	CHECK_EQ_STR(s->netbios_name, "TESTSRV");
	CHECK_EQ_STR(s->work_group, "TESTGRP");
	CHECK_EQ_INT(s->tcp_port, 4450);
	CHECK_EQ_INT(s->ipc_timeout, 7);
	CHECK_EQ_INT(s->min_dialect, 0x0210);
	CHECK_EQ_INT(s->max_dialect, 0x0311);
	CHECK(s->flags & KSMBD_GLOBAL_FLAG_SMB2_LEASES);
	/* Defaults: restrict anonymous 0, map to guest never, 16 sessions. */
	CHECK(s->flags & KSMBD_GLOBAL_FLAG_NULL_SESSIONS);
	CHECK(!(s->flags & KSMBD_GLOBAL_FLAG_MAP_TO_GUEST));
	CHECK_EQ_INT(s->max_sessions_per_conn, 16);
	CHECK_EQ_INT(s->max_open_files_per_session, 2048);
	CHECK_EQ_INT(s->max_locks_per_file, 16384);
	CHECK_EQ_INT(s->max_alloc_reservation_mib, 1024);
	CHECK_EQ_INT(s->ifc_list_sz, 8);
	CHECK_EQ_INT(r.len, sizeof(*s) + 8);
	CHECK_EQ_MEM(s->payload, "eth0\0lo\0", 8);
	CHECK(s->sub_auth[0] || s->sub_auth[1] || s->sub_auth[2]);
	CHECK_EQ_INT(ksmbd_ipc_msg_validate(r.type, r.data, r.len, &why), 0);
	mountd_reply_free(&r);
	mountd_state_free(&st);
}

TEST(startup_response_parse)
{
	struct ksmbd_startup_response ok = { KSMBD_ABI_MAGIC, KSMBD_ABI_VERSION, 0, 0 };
	struct ksmbd_startup_response busy = { KSMBD_ABI_MAGIC, 1, -EBUSY, 0 };
	struct ksmbd_startup_response proto = { KSMBD_ABI_MAGIC, 9, -EPROTO, 0 };
	uint32_t v = 0;

	CHECK_EQ_INT(mountd_parse_startup_response(&ok, sizeof(ok), &v), 0);
	CHECK_EQ_INT(mountd_parse_startup_response(&busy, sizeof(busy), &v), -EBUSY);
	CHECK_EQ_INT(mountd_parse_startup_response(&proto, sizeof(proto), &v), -EPROTO);
	CHECK_EQ_INT(v, 9);
	CHECK_EQ_INT(mountd_parse_startup_response(&ok, 8, &v), -EINVAL);
}

static struct ksmbd_login_response *login_flags(const char *name,
						uint32_t flags,
						struct mountd_reply *r)
{
	struct ksmbd_login_request req = { .handle = 77, .flags = flags };

	snprintf(req.account, sizeof(req.account), "%s", name);
	if (handle(KSMBD_EVENT_LOGIN_REQUEST, &req, sizeof(req), r))
		return NULL;
	return (void *)r->data;
}

static struct ksmbd_login_response *login(const char *name,
					  struct mountd_reply *r)
{
	return login_flags(name, 0, r);
}

TEST(login_known_user)
{
	struct ksmbd_login_response *l;
	struct mountd_reply r;
	uint8_t hash[16];

	if (setup(NULL))
		SETUP_FAILED();
	if (!getpwnam("root"))
		SKIP("no root account on this host");
	l = login("ROOT", &r);
	CHECK(l != NULL);
	if (l) {
		CHECK_EQ_INT(l->handle, 77);
		CHECK_EQ_INT(l->status, KSMBD_USER_FLAG_OK);
		CHECK_EQ_INT(l->uid, 0);
		CHECK_EQ_INT(l->hash_sz, 16);
		CHECK_EQ_STR(l->account, "root");
		CHECK_EQ_INT(ksmbd_nt_hash("secret", hash), 0);
		CHECK_EQ_MEM(l->hash, hash, 16);
		/* getgrouplist() includes the primary group. */
		CHECK(l->ngroups >= 1 && l->ngroups <= KSMBD_LOGIN_MAX_GROUPS);
		CHECK(l->ngroups >= 1 && l->groups[0] == l->gid);
	}
	mountd_reply_free(&r);
	mountd_state_free(&st);
}

TEST(login_refusals)
{
	struct ksmbd_login_response *l;
	struct mountd_reply r;

	if (setup(NULL))
		SETUP_FAILED();
	l = login("nosuchuser", &r);
	CHECK(l && !(l->status & KSMBD_USER_FLAG_OK));
	CHECK(l && (l->status & KSMBD_USER_FLAG_BAD_USER) && l->hash_sz == 0);
	mountd_reply_free(&r);
	/* In the database, but without a Unix account. */
	l = login("ksmbdghost", &r);
	CHECK(l && l->status == KSMBD_USER_FLAG_BAD_UID && l->hash_sz == 0);
	mountd_reply_free(&r);
	if (getpwnam("nobody")) {
		l = login("nobody", &r);
		CHECK(l && l->status == (KSMBD_USER_FLAG_OK | KSMBD_USER_FLAG_GUEST_ACCOUNT));
		CHECK(l && l->hash_sz == 0);
		mountd_reply_free(&r);
		/* The guest account on request, whatever name comes with it. */
		l = login_flags("root", KSMBD_LOGIN_FLAG_GUEST, &r);
		CHECK(l && l->status == (KSMBD_USER_FLAG_OK | KSMBD_USER_FLAG_GUEST_ACCOUNT));
		CHECK(l && l->hash_sz == 0 && l->ngroups >= 1);
		CHECK(l && !strcmp(l->account, "nobody"));
		mountd_reply_free(&r);
	}
	mountd_state_free(&st);
}

TEST(login_malformed)
{
	struct ksmbd_login_request req = { .handle = 1 };
	struct mountd_reply r;

	if (setup(NULL))
		SETUP_FAILED();
	memset(req.account, 'a', sizeof(req.account));
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_LOGIN_REQUEST, &req, sizeof(req), &r), -EINVAL);
	CHECK(r.data == NULL);
	strcpy(req.account, "root");
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_LOGIN_REQUEST, &req, sizeof(req) - 1, &r), -EINVAL);
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_LOGIN_REQUEST, &req, 2, &r), -EINVAL);
	/* Events the kernel never sends to us. */
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_LOGIN_RESPONSE, &req, sizeof(req), &r), -EINVAL);
	CHECK_EQ_INT(mountd_handle(&st, 99, &req, sizeof(req), &r), -EINVAL);
	mountd_state_free(&st);
}

static struct ksmbd_share_config_response *share(const char *name,
						 struct mountd_reply *r)
{
	struct ksmbd_share_config_request req = { .handle = 5 };

	snprintf(req.share_name, sizeof(req.share_name), "%s", name);
	if (handle(KSMBD_EVENT_SHARE_CONFIG_REQUEST, &req, sizeof(req), r))
		return NULL;
	return (void *)r->data;
}

TEST(share_config)
{
	struct ksmbd_share_config_response *s;
	struct mountd_reply r;

	if (setup(NULL))
		SETUP_FAILED();
	s = share("SHARE", &r);
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ_INT(s->handle, 5);
		CHECK(s->flags & KSMBD_SHARE_FLAG_AVAILABLE);
		CHECK(s->flags & KSMBD_SHARE_FLAG_WRITEABLE);
		CHECK(!(s->flags & KSMBD_SHARE_FLAG_READONLY));
		CHECK_EQ_INT(s->veto_list_sz, 13);
		CHECK_EQ_MEM(s->payload, "*.tmp\0secret\0", 13);
		CHECK_EQ_INT(s->path_sz, 11);
		CHECK_EQ_STR((char *)s->payload + 13, "/srv/share");
		CHECK_EQ_INT(s->force_uid, KSMBD_SHARE_INVALID_ID);
		CHECK_EQ_INT(s->create_mask, 0744);
	}
	mountd_reply_free(&r);
	s = share("nosuch", &r);
	CHECK(s && s->flags == KSMBD_SHARE_FLAG_INVALID && r.len == sizeof(*s));
	mountd_reply_free(&r);
	s = share("IPC$", &r);
	CHECK(s && (s->flags & KSMBD_SHARE_FLAG_PIPE) && s->path_sz == 0);
	mountd_reply_free(&r);
	mountd_state_free(&st);
}

/* "veto files" with @n patterns of 20 characters. */
static void veto_conf(char *buf, size_t cap, int n)
{
	size_t off = snprintf(buf, cap, "[many]\n\tpath = /srv/many\n\tveto files = /");
	int i;

	for (i = 0; i < n && off + 32 < cap; i++)
		off += snprintf(buf + off, cap - off, "pattern-number-%04d/", i);
	snprintf(buf + off, cap - off, "\n");
}

TEST(share_long_veto_list)
{
	struct ksmbd_share_config_response *s;
	struct mountd_reply r;
	char extra[8192];

	/* 200 patterns of 20 bytes with their NULs: 4000, inside the limit. */
	veto_conf(extra, sizeof(extra), 200);
	if (setup(extra))
		SETUP_FAILED();
	s = share("many", &r);
	CHECK(s && s->flags != KSMBD_SHARE_FLAG_INVALID);
	CHECK(s && s->veto_list_sz == 200 * 20);
	if (s && s->veto_list_sz == 200 * 20) {
		CHECK_EQ_STR((char *)s->payload + s->veto_list_sz, "/srv/many");
		CHECK_EQ_STR((char *)s->payload + 20 * 199, "pattern-number-0199");
	}
	mountd_reply_free(&r);
	mountd_state_free(&st);

	/* 210 patterns: 4200 bytes, over: the share is refused, not trimmed. */
	veto_conf(extra, sizeof(extra), 210);
	if (setup(extra))
		SETUP_FAILED();
	s = share("many", &r);
	CHECK(s && s->flags == KSMBD_SHARE_FLAG_INVALID);
	mountd_reply_free(&r);
	mountd_state_free(&st);
}

static int tree(const char *shr, const char *user, uint64_t tree_id,
		uint16_t *flags)
{
	struct ksmbd_tree_connect_request req = {
		.handle = 11, .account_flags = KSMBD_USER_FLAG_OK,
		.session_id = 1, .connect_id = tree_id,
	};
	struct ksmbd_tree_connect_response *t;
	struct mountd_reply r;
	int status;

	snprintf(req.share, sizeof(req.share), "%s", shr);
	snprintf(req.account, sizeof(req.account), "%s", user);
	strcpy(req.peer_addr, "127.0.0.1");
	if (handle(KSMBD_EVENT_TREE_CONNECT_REQUEST, &req, sizeof(req), &r))
		return -1;
	t = (void *)r.data;
	status = t->handle == 11 ? t->status : -2;
	if (flags)
		*flags = t->connection_flags;
	mountd_reply_free(&r);
	return status;
}

static void untree(uint64_t tree_id)
{
	struct ksmbd_tree_disconnect_request req = { 1, tree_id };
	struct mountd_reply r;

	mountd_handle(&st, KSMBD_EVENT_TREE_DISCONNECT_REQUEST, &req, sizeof(req), &r);
}

TEST(tree_connect)
{
	uint16_t flags = 0;

	if (setup(NULL))
		SETUP_FAILED();
	CHECK_EQ_INT(tree("share", "root", 1, &flags), KSMBD_TREE_CONN_STATUS_OK);
	CHECK(flags & KSMBD_TREE_CONN_FLAG_WRITABLE);
	CHECK_EQ_INT(mountd_share_trees(&st, "SHARE"), 1);
	/* The same tree twice is refused. */
	CHECK_EQ_INT(tree("share", "root", 1, NULL), KSMBD_TREE_CONN_STATUS_CONN_EXIST);
	untree(1);
	CHECK_EQ_INT(mountd_share_trees(&st, "share"), 0);
	CHECK_EQ_INT(tree("nosuch", "root", 2, NULL), KSMBD_TREE_CONN_STATUS_NO_SHARE);
	CHECK_EQ_INT(tree("closed", "root", 3, NULL), KSMBD_TREE_CONN_STATUS_INVALID_USER);
	CHECK_EQ_INT(tree("IPC$", "root", 4, &flags), KSMBD_TREE_CONN_STATUS_OK);
	CHECK(flags & KSMBD_TREE_CONN_FLAG_IPC);
	untree(4);
	mountd_state_free(&st);
}

TEST(tree_max_connections)
{
	uint16_t flags = 0;

	if (setup(NULL))
		SETUP_FAILED();
	CHECK_EQ_INT(tree("ro", "root", 1, &flags), KSMBD_TREE_CONN_STATUS_OK);
	CHECK(flags & KSMBD_TREE_CONN_FLAG_READ_ONLY);
	CHECK_EQ_INT(tree("ro", "root", 2, NULL), KSMBD_TREE_CONN_STATUS_TOO_MANY_CONNS);
	untree(1);
	CHECK_EQ_INT(tree("ro", "root", 2, NULL), KSMBD_TREE_CONN_STATUS_OK);
	/* A module reload forgets every tree. */
	mountd_state_reset(&st);
	CHECK_EQ_INT(mountd_share_trees(&st, "ro"), 0);
	mountd_state_free(&st);
}

TEST(tree_malformed)
{
	struct ksmbd_tree_connect_request req = { .handle = 1 };
	struct mountd_reply r;

	if (setup(NULL))
		SETUP_FAILED();
	strcpy(req.share, "share");
	strcpy(req.account, "root");
	memset(req.peer_addr, '1', sizeof(req.peer_addr));
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_TREE_CONNECT_REQUEST, &req, sizeof(req), &r), -EINVAL);
	strcpy(req.peer_addr, "::1");
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_TREE_CONNECT_REQUEST, &req, sizeof(req) + 1, &r), -EINVAL);
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_TREE_DISCONNECT_REQUEST, &req, 8, &r), -EINVAL);
	CHECK_EQ_INT(st.ntrees, 0);
	mountd_state_free(&st);
}

TEST(heartbeat_spnego_logout)
{
	struct ksmbd_heartbeat hb = { .handle = 42 };
	unsigned char sp[sizeof(struct ksmbd_spnego_authen_request) + 3] = { 0 };
	struct ksmbd_spnego_authen_request *spr = (void *)sp;
	struct ksmbd_logout_request lo = { .account_flags = 1 };
	struct mountd_reply r;

	if (setup(NULL))
		SETUP_FAILED();
	CHECK_EQ_INT(handle(KSMBD_EVENT_HEARTBEAT_REQUEST, &hb, sizeof(hb), &r), 0);
	CHECK(r.type == KSMBD_EVENT_HEARTBEAT_RESPONSE && ((struct ksmbd_heartbeat *)r.data)->handle == 42);
	mountd_reply_free(&r);
	spr->handle = 8;
	spr->spnego_blob_len = 3;
	CHECK_EQ_INT(handle(KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST, sp, sizeof(sp), &r), 0);
	CHECK(r.data && ((struct ksmbd_spnego_authen_response *)r.data)->status ==
	      KSMBD_SPNEGO_NOT_SUPPORTED);
	mountd_reply_free(&r);
	spr->spnego_blob_len = 4;	/* claims more than it carries */
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST, sp, sizeof(sp), &r), -EINVAL);
	strcpy(lo.account, "root");
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_LOGOUT_REQUEST, &lo, sizeof(lo), &r), 0);
	CHECK_EQ_INT(r.type, 0);
	CHECK_EQ_INT(mountd_handle(&st, KSMBD_EVENT_LOGOUT_REQUEST, &lo, 48, &r), -EINVAL);
	mountd_state_free(&st);
}

int main(void)
{
	mountd_log_init(true, false);
	RUN(startup_from_config);
	RUN(startup_response_parse);
	RUN(login_known_user);
	RUN(login_refusals);
	RUN(login_malformed);
	RUN(share_config);
	RUN(share_long_veto_list);
	RUN(tree_connect);
	RUN(tree_max_connections);
	RUN(tree_malformed);
	RUN(heartbeat_spnego_logout);
	return test_report();
}
