/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by ipc.c (transport, daemon tracking) and ipc_requests.c. */
#ifndef KSMBD_IPC_INTERNAL_H
#define KSMBD_IPC_INTERNAL_H

#include <linux/types.h>

/*
 * Sends @req (@req_len bytes, starting with a __u32 handle that is filled
 * in here) as event @type and waits for the answer of event @type + 1 of at
 * most @max_resp bytes. The answer has passed ksmbd_ipc_msg_validate().
 * Returns it (kvfree) or an ERR_PTR; *@resp_len gets its length.
 */
void *ksmbd_ipc_transact(unsigned int type, void *req, size_t req_len,
			 size_t max_resp, size_t *resp_len);
/* One-way message to the daemon: 0 or a negative errno. */
int ksmbd_ipc_notify(unsigned int type, const void *msg, size_t len);

#endif
