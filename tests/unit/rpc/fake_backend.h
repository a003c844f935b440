/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fixed rpc_backend for tests and the fuzzer: server KSMBDTEST in
 * workgroup TESTGROUP, domain S-1-5-21-1-2-3, shares IPC$, public, hidden
 * (not browseable) and @extra_shares generated ones, users alice (1000) and
 * bob (1001), groups None (513) and staff (1100). Unix users root (0),
 * alice (1000), bob (1001), carol (2000, no SMB account); Unix groups
 * root (0), staff (50), users (100).
 */
#ifndef KSMBD_TEST_FAKE_BACKEND_H
#define KSMBD_TEST_FAKE_BACKEND_H

#include "rpc_backend.h"

#define FAKE_NETBIOS	"KSMBDTEST"
#define FAKE_WORKGROUP	"TESTGROUP"
#define FAKE_COMMENT	"Test Server"
#define FAKE_SID_A	1
#define FAKE_SID_B	2
#define FAKE_SID_C	3

struct fake_ctx {
	unsigned int extra_shares;
	int fail_server;	/* get_server returns this when non-zero */
};

void fake_backend_init(struct rpc_backend *be, struct fake_ctx *ctx);

#endif
