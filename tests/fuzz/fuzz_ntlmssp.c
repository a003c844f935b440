// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: an NTLMSSP message.  AUTHENTICATE goes all the way through
 * NTLMv2 verification (with a fixed NT hash and challenge), so the proof,
 * key exchange and MIC code see hostile lengths too.
 */
#include "proto/ntlmssp.h"
#include "proto/ntlmv2.h"

#include <stdlib.h>

static void inside(const u8 *blob, size_t size, const struct ksmbd_buf *b)
{
	if (b->len && (b->p < blob || b->p + b->len > blob + size))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const u8 nt[16] = { 0xa4, 0xf4, 0x9c, 0x40 };
	static const u8 chal[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct ksmbd_ntlm_auth a;
	struct ksmbd_buf none = { NULL, 0 }, whole;
	u8 exported[16];
	u32 flags;

	if (size > 65536)
		return 0;
	switch (ksmbd_ntlmssp_type(data, (u32)size)) {
	case NTLMSSP_NEGOTIATE_MSG:
		(void)ksmbd_ntlmssp_parse_negotiate(data, (u32)size, &flags);
		break;
	case NTLMSSP_AUTHENTICATE_MSG:
		if (ksmbd_ntlmssp_parse_authenticate(data, (u32)size, &a))
			break;
		inside(data, size, &a.lm_response);
		inside(data, size, &a.nt_response);
		inside(data, size, &a.user);
		inside(data, size, &a.domain);
		inside(data, size, &a.workstation);
		inside(data, size, &a.session_key);
		if ((a.flags & NTLMSSP_NEGOTIATE_KEY_EXCH) && a.session_key.len != 16)
			abort();
		if (strlen(a.user_utf8) >= KSMBD_NTLM_USER_MAX)
			abort();
		whole = ksmbd_buf_make(data, (u32)size);
		if (!a.anonymous)
			(void)ksmbd_ntlmv2_authenticate(nt, chal, &a, &none, &none,
							&whole, exported);
		break;
	default:
		break;
	}
	return 0;
}
