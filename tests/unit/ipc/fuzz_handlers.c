// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: what the kernel could put in a netlink attribute, fed to
 * ksmbd.mountd's handlers. First byte: the event; the rest: the payload.
 * Every answer the daemon produces must pass the kernel's validator.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "ipc_validate.h"

#define CONF "[global]\nnetbios name = FUZZ\n[share]\npath = /srv/share\n" \
	     "veto files = /a/b/\n[ro]\npath = /srv/ro\nmax connections = 2\n"

static struct mountd_state *state(void)
{
	static struct mountd_state st;
	static int ready;

	if (!ready) {
		struct ksmbd_config *cfg = ksmbd_config_parse(CONF, strlen(CONF), "fuzz", NULL);
		struct ksmbd_userdb *db = ksmbd_userdb_new();

		if (!cfg || !db || ksmbd_userdb_set(db, "root", "pw"))
			abort();
		mountd_log_init(false, false);
		mountd_state_init(&st, cfg, db);
		ready = 1;
	}
	return &st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mountd_reply r;
	const char *why;
	uint8_t *copy;

	if (size < 1)
		return 0;
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (!mountd_handle(state(), data[0] % 20, copy, size - 1, &r) && r.type &&
	    ksmbd_ipc_msg_validate(r.type, r.data, r.len, &why))
		abort();
	mountd_reply_free(&r);
	free(copy);
	return 0;
}
