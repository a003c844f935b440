// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: a received frame that claims to be encrypted. The first input
 * byte picks the connection's cipher (0 none, 1..4, others unknown), the
 * rest is the frame. Whatever the validator accepts must describe slices
 * inside the frame, with the ciphertext exactly filling it; the message
 * after it then goes through the compound walk the way a decrypted one
 * would (decryption keeps the length).
 */
#include "proto/transform.h"
#include "proto/validate.h"

#include <stdlib.h>

#define MAX_ELEMS 32

static void within(const u8 *base, u32 len, const u8 *p, u32 n)
{
	if (p < base || p + n > base + len)
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct ksmbd_elem elems[MAX_ELEMS];
	const struct ksmbd_cipher_info *ci;
	struct ksmbd_transform t;
	u8 hdr[SMB2_TRANSFORM_HEADER_SIZE], nonce[KSMBD_GMAC_NONCE_SIZE];
	u32 len, n, i;
	u16 cipher;

	if (size < 1 || size > (1u << 20))
		return 0;
	cipher = data[0] & 7;
	data++;
	len = (u32)size - 1;
	if (ksmbd_transform_validate(data, len, cipher, &t) != KSMBD_VALID_OK)
		return 0;
	ci = ksmbd_cipher_info(cipher);
	if (!ci || !t.session_id)
		abort();
	within(data, len, t.tag, KSMBD_TRANSFORM_TAG_SIZE);
	within(data, len, t.nonce, ci->nonce_len);
	within(data, len, t.ad, KSMBD_TRANSFORM_AD_SIZE);
	if (t.msg_off != SMB2_TRANSFORM_HEADER_SIZE ||
	    t.msg_off + t.msg_len != len || t.msg_len < SMB2_HEADER_SIZE)
		abort();
	/* The answer's header for the same session and size. */
	ksmbd_transform_put_hdr(hdr, cipher, t.msg_len, t.nonce, t.msg_len,
				t.session_id);
	if (get_unaligned_le32(hdr + 36) != t.msg_len)
		abort();
	if (ksmbd_compound_walk(data + t.msg_off, t.msg_len, elems, MAX_ELEMS,
				&n) != KSMBD_VALID_OK)
		return 0;
	for (i = 0; i < n; i++) {
		if (elems[i].off + elems[i].len > t.msg_len)
			abort();
		ksmbd_gmac_nonce_of(data + t.msg_off + elems[i].off, nonce);
	}
	return 0;
}
