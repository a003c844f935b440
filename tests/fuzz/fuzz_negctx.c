// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: 2-byte little-endian context count, then a negotiate context
 * list.  Whatever parses is answered the way the engine would.
 */
#include "proto/negctx.h"
#include "proto/ntstatus.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const u16 ciphers[] = { SMB2_ENCRYPTION_AES128_GCM, SMB2_ENCRYPTION_AES128_CCM };
	static const u16 signing[] = { SMB2_SIGNING_AES_CMAC, SMB2_SIGNING_HMAC_SHA256 };
	static const u8 salt[SMB2_PREAUTH_SALT_SIZE];
	struct ksmbd_negctx_offer o;
	struct ksmbd_negctx_choice c = { .salt = salt };
	struct ksmbd_buf list;
	u8 out[256];
	u32 len;
	u16 count;

	if (size < 2 || size > 65536)
		return 0;
	list = ksmbd_buf_make(data + 2, (u32)size - 2);
	if (ksmbd_negctx_parse(&list, get_unaligned_le16(data), &o) != STATUS_SUCCESS)
		return 0;
	if (o.salt.len && (o.salt.p < list.p || o.salt.p + o.salt.len > list.p + list.len))
		abort();
	c.encryption = o.has_encryption;
	c.cipher = ksmbd_negctx_pick(&o.ciphers, ciphers, 2, 0);
	c.signing = o.has_signing;
	c.signing_alg = ksmbd_negctx_pick(&o.signing_algs, signing, 2, SMB2_SIGNING_AES_CMAC);
	c.compression = o.has_compression;
	c.posix = o.posix;
	if (ksmbd_negctx_build(&c, out, sizeof(out), &len, &count))
		abort();
	list = ksmbd_buf_make(out, len);
	if (ksmbd_negctx_parse(&list, count, &o) != STATUS_SUCCESS)
		abort();
	return 0;
}
