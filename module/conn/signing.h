/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SMB2 message signing (MS-SMB2 3.1.4.1): HMAC-SHA256 for 2.1, AES-CMAC
 * for 3.x, AES-GMAC when 3.1.1 negotiated it. A signer keeps one keyed
 * transform for a session's life, so signing a message allocates nothing;
 * keyed shash transforms may be used by several requests at once (each
 * with its own descriptor); GMAC runs on the connection's preallocated
 * AEAD buffers (smb2_transform.h).
 */
#ifndef KSMBD_SIGNING_H
#define KSMBD_SIGNING_H

#include <linux/types.h>
#include "session_types.h"

struct ksmbd_conn;

#define KSMBD_SIGNING_KEY_SIZE	16

/*
 * Key a signer for alg (SMB2_SIGNING_*). conn is the session's (it
 * outlives the session), used by AES-GMAC only.
 */
int ksmbd_signer_init(struct ksmbd_signer *s, u16 alg,
		      const u8 key[KSMBD_SIGNING_KEY_SIZE],
		      struct ksmbd_conn *conn);
void ksmbd_signer_free(struct ksmbd_signer *s);

static inline bool ksmbd_signer_ready(const struct ksmbd_signer *s)
{
	return s->tfm || s->gmac;
}

/*
 * msg is one SMB2 element (header + body + padding to the next element).
 * verify: 0 when the signature in the header matches (constant time),
 * -EBADMSG when not. sign: computes it into the header in place.
 */
int ksmbd_signer_verify(const struct ksmbd_signer *s, const u8 *msg, u32 len);
int ksmbd_signer_sign(const struct ksmbd_signer *s, u8 *msg, u32 len);

/* Requests refused for a bad signature since load. */
u64 ksmbd_signing_failures(void);

#endif
