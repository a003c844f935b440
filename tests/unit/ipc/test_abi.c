// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink ABI: struct layouts pinned (a change must bump
 * KSMBD_ABI_VERSION and these numbers together), and the kernel's
 * validator of daemon messages (module/core/ipc_validate.c, built here for user
 * space) fed every kind of wrong size a hostile daemon could send.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "ipc_validate.h"

#define LAYOUT(type, size) static_assert(sizeof(struct type) == (size), #type)
#define AT(type, field, off) \
	static_assert(offsetof(struct type, field) == (off), #type "." #field)

LAYOUT(ksmbd_heartbeat, 8);
LAYOUT(ksmbd_startup_request, 256);
AT(ksmbd_startup_request, abi_magic, 0);
AT(ksmbd_startup_request, abi_version, 4);
AT(ksmbd_startup_request, min_dialect, 16);
AT(ksmbd_startup_request, tcp_port, 20);
AT(ksmbd_startup_request, netbios_name, 24);
AT(ksmbd_startup_request, work_group, 40);
AT(ksmbd_startup_request, server_string, 104);
AT(ksmbd_startup_request, deadtime, 168);
AT(ksmbd_startup_request, sub_auth, 192);
AT(ksmbd_startup_request, ifc_list_sz, 208);
AT(ksmbd_startup_request, max_sessions_per_conn, 212);
AT(ksmbd_startup_request, oplock_break_timeout, 216);
AT(ksmbd_startup_request, nr_ciphers, 220);
AT(ksmbd_startup_request, ciphers, 222);
AT(ksmbd_startup_request, signing_algs, 226);
AT(ksmbd_startup_request, max_open_files_per_session, 232);
AT(ksmbd_startup_request, max_alloc_reservation_mib, 252);
AT(ksmbd_startup_request, payload, 256);
LAYOUT(ksmbd_startup_response, 16);
LAYOUT(ksmbd_shutdown_request, 4);
LAYOUT(ksmbd_login_request, 56);
AT(ksmbd_login_request, flags, 52);
LAYOUT(ksmbd_login_response, 340);
AT(ksmbd_login_response, status, 12);
AT(ksmbd_login_response, account, 16);
AT(ksmbd_login_response, hash, 64);
AT(ksmbd_login_response, ngroups, 80);
AT(ksmbd_login_response, groups, 84);
LAYOUT(ksmbd_share_config_request, 68);
LAYOUT(ksmbd_share_config_response, 32);
AT(ksmbd_share_config_response, veto_list_sz, 24);
AT(ksmbd_share_config_response, path_sz, 28);
LAYOUT(ksmbd_tree_connect_request, 200);
AT(ksmbd_tree_connect_request, session_id, 8);
AT(ksmbd_tree_connect_request, account, 24);
AT(ksmbd_tree_connect_request, share, 72);
AT(ksmbd_tree_connect_request, peer_addr, 136);
LAYOUT(ksmbd_tree_connect_response, 8);
LAYOUT(ksmbd_tree_disconnect_request, 16);
LAYOUT(ksmbd_logout_request, 56);
LAYOUT(ksmbd_rpc_command, 24);
AT(ksmbd_rpc_command, payload, 24);
LAYOUT(ksmbd_spnego_authen_request, 8);
LAYOUT(ksmbd_spnego_authen_response, 360);
AT(ksmbd_spnego_authen_response, login_response, 8);
AT(ksmbd_spnego_authen_response, valid_secs, 356);
AT(ksmbd_spnego_authen_response, payload, 360);

/* A netlink attribute holds less than 64 KiB: every maximum must fit. */
static_assert(KSMBD_IPC_RPC_MAX < 65536 - 4, "rpc max");
static_assert(KSMBD_IPC_SPNEGO_MAX < 65536 - 4, "spnego max");
static_assert(KSMBD_IPC_SHARE_MAX < 65536 - 4, "share max");

static int validate(unsigned int type, const void *p, size_t len)
{
	const char *why;

	return ksmbd_ipc_msg_validate(type, p, len, &why);
}

TEST(layout_runtime)
{
	/* The same numbers at run time, so a FAIL names the struct. */
	CHECK_EQ_INT(sizeof(struct ksmbd_startup_request), 256);
	CHECK_EQ_INT(sizeof(struct ksmbd_login_response), 340);
	CHECK_EQ_INT(sizeof(struct ksmbd_tree_connect_request), 200);
	CHECK_EQ_INT(sizeof(struct ksmbd_rpc_command), 24);
	CHECK_EQ_INT(KSMBD_EVENT_LOGIN_RESPONSE, KSMBD_EVENT_LOGIN_REQUEST + 1);
	CHECK_EQ_INT(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, KSMBD_EVENT_SHARE_CONFIG_REQUEST + 1);
	CHECK_EQ_INT(KSMBD_EVENT_TREE_CONNECT_RESPONSE, KSMBD_EVENT_TREE_CONNECT_REQUEST + 1);
	CHECK_EQ_INT(KSMBD_EVENT_RPC_RESPONSE, KSMBD_EVENT_RPC_REQUEST + 1);
	CHECK_EQ_INT(KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE, KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST + 1);
	CHECK_EQ_INT(KSMBD_EVENT_MAX, 18);
}

static void startup_fill(struct ksmbd_startup_request *r)
{
	memset(r, 0, sizeof(*r));
	r->abi_magic = KSMBD_ABI_MAGIC;
	r->abi_version = KSMBD_ABI_VERSION;
	r->signing = KSMBD_CONFIG_OPT_AUTO;
	r->min_dialect = 0x0210;
	r->max_dialect = 0x0311;
	r->tcp_port = 445;
	strcpy(r->netbios_name, "KSMBD");
}

TEST(startup_valid_and_abi_mismatch)
{
	struct ksmbd_startup_request r;

	startup_fill(&r);
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), 0);
	r.abi_version = KSMBD_ABI_VERSION + 1;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EPROTO);
	/* A daemon of the historical layout has its flags word here. */
	startup_fill(&r);
	r.abi_magic = 0x3;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EPROTO);
}

TEST(startup_sizes)
{
	unsigned char buf[sizeof(struct ksmbd_startup_request) + 16];
	struct ksmbd_startup_request r;

	startup_fill(&r);
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, 0), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, 4), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r) - 1), -EINVAL);
	/* Interface list: its size must match the attribute exactly. */
	r.ifc_list_sz = 16;
	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), "eth0\0lo\0\0\0\0\0\0\0\0", 16);
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, buf, sizeof(buf)), 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, buf, sizeof(buf) - 1), -EINVAL);
	buf[sizeof(buf) - 1] = 'x';	/* list not NUL-terminated */
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, buf, sizeof(buf)), -EINVAL);
	/* A size that would wrap an addition on 32 bits. */
	r.ifc_list_sz = 0xffffffffu - sizeof(r) + 1;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
}

TEST(startup_fields)
{
	struct ksmbd_startup_request r;

	startup_fill(&r);
	memset(r.netbios_name, 'A', sizeof(r.netbios_name));
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
	startup_fill(&r);
	r.tcp_port = 0;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
	startup_fill(&r);
	r.min_dialect = 0x0311;
	r.max_dialect = 0x0210;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
	startup_fill(&r);
	r.deadtime = 0xffffffffu / 60 + 1;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
	startup_fill(&r);
	r.signing = 7;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
	startup_fill(&r);
	r.max_sessions_per_conn = KSMBD_MAX_SESSIONS_PER_CONN;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), 0);
	r.max_sessions_per_conn = KSMBD_MAX_SESSIONS_PER_CONN + 1;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
	/* Preference lists: bounded, known ids, none twice. */
	startup_fill(&r);
	r.nr_ciphers = 4;
	memcpy(r.ciphers, "\x04\x03\x02\x01", 4);
	r.nr_signing_algs = 3;
	memcpy(r.signing_algs, "\x00\x02\x01", 3);
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), 0);
	r.nr_ciphers = 5;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
	r.nr_ciphers = 2;
	r.ciphers[1] = 4;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
	r.ciphers[1] = 0;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
	r.ciphers[1] = 1;
	r.signing_algs[2] = 3;
	CHECK_EQ_INT(validate(KSMBD_EVENT_STARTING_UP, &r, sizeof(r)), -EINVAL);
}

TEST(login_response)
{
	struct ksmbd_login_response r = { .handle = 3, .hash_sz = 16 };

	strcpy(r.account, "tester");
	CHECK_EQ_INT(validate(KSMBD_EVENT_LOGIN_RESPONSE, &r, sizeof(r)), 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_LOGIN_RESPONSE, &r, sizeof(r) - 1), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_LOGIN_RESPONSE, &r, 3), -EINVAL);
	r.ngroups = KSMBD_LOGIN_MAX_GROUPS;
	CHECK_EQ_INT(validate(KSMBD_EVENT_LOGIN_RESPONSE, &r, sizeof(r)), 0);
	r.ngroups = KSMBD_LOGIN_MAX_GROUPS + 1;
	CHECK_EQ_INT(validate(KSMBD_EVENT_LOGIN_RESPONSE, &r, sizeof(r)), -EINVAL);
	r.ngroups = 0xffffffffu;
	CHECK_EQ_INT(validate(KSMBD_EVENT_LOGIN_RESPONSE, &r, sizeof(r)), -EINVAL);
	r.ngroups = 0;
	r.hash_sz = 17;
	CHECK_EQ_INT(validate(KSMBD_EVENT_LOGIN_RESPONSE, &r, sizeof(r)), -EINVAL);
	r.hash_sz = 0;
	memset(r.account, 'x', sizeof(r.account));
	CHECK_EQ_INT(validate(KSMBD_EVENT_LOGIN_RESPONSE, &r, sizeof(r)), -EINVAL);
}

/* A share answer: header, @veto bytes, @path bytes, in one buffer. */
static size_t share_msg(unsigned char *buf, uint32_t flags, const char *veto,
			size_t veto_sz, const char *path, size_t path_sz)
{
	struct ksmbd_share_config_response r = {
		.handle = 1, .flags = flags,
		.veto_list_sz = veto_sz, .path_sz = path_sz,
	};

	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), veto, veto_sz);
	memcpy(buf + sizeof(r) + veto_sz, path, path_sz);
	return sizeof(r) + veto_sz + path_sz;
}

TEST(share_response)
{
	unsigned char buf[256];
	struct ksmbd_share_config_response *r = (void *)buf;
	size_t n;

	n = share_msg(buf, KSMBD_SHARE_FLAG_AVAILABLE, "a*\0b\0", 5, "/srv/share", 11);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n - 1), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, 8), -EINVAL);
	/* Sizes that sum past the attribute or wrap around. */
	r->veto_list_sz = 0xffffffffu;
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), -EINVAL);
	r->veto_list_sz = 5;
	r->path_sz = 0xfffffff0u;
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), -EINVAL);
	/* Path with a NUL inside, relative path, unterminated path. */
	n = share_msg(buf, KSMBD_SHARE_FLAG_AVAILABLE, "", 0, "/a\0b", 5);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), -EINVAL);
	n = share_msg(buf, KSMBD_SHARE_FLAG_AVAILABLE, "", 0, "srv", 4);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), -EINVAL);
	n = share_msg(buf, KSMBD_SHARE_FLAG_AVAILABLE, "", 0, "/srvx", 5);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), -EINVAL);
	/* Veto list must end in a NUL. */
	n = share_msg(buf, KSMBD_SHARE_FLAG_AVAILABLE, "ab", 2, "/s", 3);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), -EINVAL);
	/* A disk share needs a path; the pipe share has none. */
	n = share_msg(buf, KSMBD_SHARE_FLAG_AVAILABLE, "", 0, "", 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), -EINVAL);
	n = share_msg(buf, KSMBD_SHARE_FLAG_AVAILABLE | KSMBD_SHARE_FLAG_PIPE, "", 0, "", 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), 0);
	/* "No such share" carries nothing. */
	n = share_msg(buf, KSMBD_SHARE_FLAG_INVALID, "", 0, "", 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), 0);
	n = share_msg(buf, KSMBD_SHARE_FLAG_INVALID, "", 0, "/s", 3);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHARE_CONFIG_RESPONSE, buf, n), -EINVAL);
}

TEST(rpc_response)
{
	unsigned char buf[sizeof(struct ksmbd_rpc_command) + 8] = { 0 };
	struct ksmbd_rpc_command r = { .handle = 9, .payload_sz = 8 };

	memcpy(buf, &r, sizeof(r));
	CHECK_EQ_INT(validate(KSMBD_EVENT_RPC_RESPONSE, buf, sizeof(buf)), 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_RPC_RESPONSE, buf, sizeof(buf) - 1), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_RPC_RESPONSE, buf, 3), -EINVAL);
	r.payload_sz = KSMBD_RPC_MAX_PAYLOAD + 1;
	memcpy(buf, &r, sizeof(r));
	CHECK_EQ_INT(validate(KSMBD_EVENT_RPC_RESPONSE, buf, sizeof(buf)), -EINVAL);
	r.payload_sz = 0xfffffff8u;	/* wraps to 16 + 8 on 32 bits */
	memcpy(buf, &r, sizeof(r));
	CHECK_EQ_INT(validate(KSMBD_EVENT_RPC_RESPONSE, buf, sizeof(buf)), -EINVAL);
}

TEST(spnego_response)
{
	unsigned char buf[sizeof(struct ksmbd_spnego_authen_response) + 20] = { 0 };
	struct ksmbd_spnego_authen_response r = {
		.status = KSMBD_SPNEGO_OK, .session_key_len = 16, .spnego_blob_len = 4,
	};

	memcpy(buf, &r, sizeof(r));
	CHECK_EQ_INT(validate(KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE, buf, sizeof(buf)), 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE, buf, sizeof(buf) - 4), -EINVAL);
	r.status = KSMBD_SPNEGO_NOT_SUPPORTED;
	memcpy(buf, &r, sizeof(r));
	CHECK_EQ_INT(validate(KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE, buf, sizeof(buf)), -EINVAL);
	r.session_key_len = r.spnego_blob_len = 0;
	memcpy(buf, &r, sizeof(r));
	CHECK_EQ_INT(validate(KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE, buf, sizeof(r)), 0);
	r.session_key_len = KSMBD_SESSION_KEY_MAX + 1;
	memcpy(buf, &r, sizeof(r));
	CHECK_EQ_INT(validate(KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE, buf, sizeof(r)), -EINVAL);
}

TEST(small_messages)
{
	struct ksmbd_tree_connect_response t = { .status = KSMBD_TREE_CONN_STATUS_OK };
	struct ksmbd_heartbeat hb = { 0 };
	struct ksmbd_shutdown_request sd = { 0 };

	CHECK_EQ_INT(validate(KSMBD_EVENT_TREE_CONNECT_RESPONSE, &t, sizeof(t)), 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_TREE_CONNECT_RESPONSE, &t, 4), -EINVAL);
	t.status = KSMBD_TREE_CONN_STATUS_ERROR + 1;
	CHECK_EQ_INT(validate(KSMBD_EVENT_TREE_CONNECT_RESPONSE, &t, sizeof(t)), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_HEARTBEAT_RESPONSE, &hb, sizeof(hb)), 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_HEARTBEAT_RESPONSE, &hb, 4), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHUTTING_DOWN, &sd, sizeof(sd)), 0);
	CHECK_EQ_INT(validate(KSMBD_EVENT_SHUTTING_DOWN, &sd, 0), -EINVAL);
}

TEST(kernel_events_refused)
{
	unsigned char buf[512] = { 0 };

	/* Events only the kernel sends, and numbers past the table. */
	CHECK_EQ_INT(validate(KSMBD_EVENT_LOGIN_REQUEST, buf, sizeof(struct ksmbd_login_request)), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_RPC_REQUEST, buf, 24), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_HEARTBEAT_REQUEST, buf, 8), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_UNSPEC, buf, 8), -EINVAL);
	CHECK_EQ_INT(validate(KSMBD_EVENT_MAX, buf, 8), -EINVAL);
	CHECK_EQ_INT(validate(200, buf, 8), -EINVAL);
	CHECK_EQ_STR(ksmbd_ipc_event_name(200), "event-unknown");
	CHECK_EQ_STR(ksmbd_ipc_event_name(KSMBD_EVENT_LOGIN_RESPONSE), "login-response");
}

int main(void)
{
	RUN(layout_runtime);
	RUN(startup_valid_and_abi_mismatch);
	RUN(startup_sizes);
	RUN(startup_fields);
	RUN(login_response);
	RUN(share_response);
	RUN(rpc_response);
	RUN(spnego_response);
	RUN(small_messages);
	RUN(kernel_events_refused);
	return test_report();
}
