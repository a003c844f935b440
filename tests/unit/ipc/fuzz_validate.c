// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: what a hostile daemon could put in a netlink attribute, fed
 * to the kernel's validator. First byte: the event; the rest: the payload.
 * Whatever is accepted must keep every variable part inside the buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ipc_validate.h"

static void check_accepted(unsigned int type, const uint8_t *p, size_t len)
{
	struct ksmbd_share_config_response s;
	struct ksmbd_rpc_command r;

	if (type == KSMBD_EVENT_SHARE_CONFIG_RESPONSE) {
		memcpy(&s, p, sizeof(s));
		if (sizeof(s) + (uint64_t)s.veto_list_sz + s.path_sz != len)
			abort();
		if (s.path_sz && strlen((const char *)p + sizeof(s) + s.veto_list_sz) !=
		    s.path_sz - 1)
			abort();
	} else if (type == KSMBD_EVENT_RPC_RESPONSE) {
		memcpy(&r, p, sizeof(r));
		if (sizeof(r) + (uint64_t)r.payload_sz != len)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *why;
	uint8_t *copy;

	if (size < 1)
		return 0;
	/* An exact-size heap copy, so ASan sees any read past the end. */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (!ksmbd_ipc_msg_validate(data[0] % 20, copy, size - 1, &why))
		check_accepted(data[0] % 20, copy, size - 1);
	free(copy);
	return 0;
}
