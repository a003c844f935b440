/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fixed rpc_backend for tests and the fuzzer: server KSMBDTEST in
 * workgroup TESTGROUP, domain S-1-5-21-1-2-3, shares IPC$, public, hidden
 * (not browseable) and @extra_shares generated ones. Accounts: users alice
 * (uid 1000, RID 3000) and bob (1001, RID 3002), group staff (gid 50, RID
 * 1101): RIDs by idmap's rule. Unix users root (0), alice, bob, carol
 * (2000, no SMB account); Unix groups root (0), staff (50), users (100).
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
#define FAKE_ALICE_RID	3000	/* 1000 + 2 * 1000 */
#define FAKE_BOB_RID	3002
#define FAKE_STAFF_RID	1101	/* 1001 + 2 * 50 */
#define FAKE_MIN_PASSWORD	7	/* samr DomainPasswordInformation */
#define FAKE_PASSWORD_HISTORY	3

struct fake_ctx {
	unsigned int extra_shares;
	int fail_server;	/* get_server returns this when non-zero */
	unsigned int count_calls;	/* count_accounts calls, for tests */
	unsigned int unix_calls;	/* unix_name and unix_id calls */
};

void fake_backend_init(struct rpc_backend *be, struct fake_ctx *ctx);

#endif
