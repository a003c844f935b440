// SPDX-License-Identifier: GPL-2.0-or-later
#include "kdf.h"
#include "smb2.h"

/* Labels and contexts include their terminating NUL (MS-SMB2 3.3.5.5.3). */
#define LIT(s) { (const u8 *)(s), sizeof(s) }

struct kdf_param {
	struct ksmbd_buf label;
	struct ksmbd_buf context;	/* .p NULL: the preauth hash */
};

static const struct kdf_param kdf_30[] = {
	[KSMBD_KEY_SIGNING]	= { LIT("SMB2AESCMAC"), LIT("SmbSign") },
	[KSMBD_KEY_SERVER_IN]	= { LIT("SMB2AESCCM"), LIT("ServerIn ") },
	[KSMBD_KEY_SERVER_OUT]	= { LIT("SMB2AESCCM"), LIT("ServerOut") },
	[KSMBD_KEY_APPLICATION]	= { LIT("SMB2APP"), LIT("SmbRpc") },
};

static const struct kdf_param kdf_311[] = {
	[KSMBD_KEY_SIGNING]	= { LIT("SMBSigningKey"), { NULL, 0 } },
	[KSMBD_KEY_SERVER_IN]	= { LIT("SMBC2SCipherKey"), { NULL, 0 } },
	[KSMBD_KEY_SERVER_OUT]	= { LIT("SMBS2CCipherKey"), { NULL, 0 } },
	[KSMBD_KEY_APPLICATION]	= { LIT("SMBAppKey"), { NULL, 0 } },
};

int ksmbd_kdf_derive(const u8 *key, u32 key_len, const struct ksmbd_buf *label,
		     const struct ksmbd_buf *context, u8 *out, u32 out_len)
{
	static const u8 sep;
	u8 counter[4], bits[4], prf[KSMBD_SHA256_SIZE];
	struct ksmbd_buf parts[5];
	int rc;

	if (out_len != 16 && out_len != 32)
		return -EINVAL;
	/* One PRF block covers L <= 256 bits, so i is always 1. */
	put_unaligned_be32(1, counter);
	put_unaligned_be32(out_len * 8, bits);
	parts[0] = ksmbd_buf_make(counter, 4);
	parts[1] = *label;
	parts[2] = ksmbd_buf_make(&sep, 1);
	parts[3] = *context;
	parts[4] = ksmbd_buf_make(bits, 4);
	rc = ksmbd_crypto_hmac_sha256(key, key_len, parts, 5, prf);
	if (!rc)
		memcpy(out, prf, out_len);
	memzero_explicit(prf, sizeof(prf));
	return rc;
}

int ksmbd_kdf_session_key(u16 dialect, enum ksmbd_key_kind kind,
			  const u8 *session_key, u32 session_key_len,
			  const u8 *preauth_hash, u8 *out, u32 out_len)
{
	const struct kdf_param *p;
	struct ksmbd_buf ctx;

	if ((unsigned int)kind > KSMBD_KEY_APPLICATION)
		return -EINVAL;
	switch (dialect) {
	case SMB30_DIALECT:
	case SMB302_DIALECT:
		p = &kdf_30[kind];
		ctx = p->context;
		break;
	case SMB311_DIALECT:
		if (!preauth_hash)
			return -EINVAL;
		p = &kdf_311[kind];
		ctx = ksmbd_buf_make(preauth_hash, SMB2_PREAUTH_HASH_SIZE);
		break;
	default:
		return -EINVAL;
	}
	return ksmbd_kdf_derive(session_key, session_key_len, &p->label, &ctx,
				out, out_len);
}

int ksmbd_preauth_hash_update(u8 hash[KSMBD_SHA512_SIZE],
			      const struct ksmbd_buf *msg, u32 nparts)
{
	struct ksmbd_buf parts[8];
	u32 i;

	if (nparts > ARRAY_SIZE(parts) - 1)
		return -E2BIG;
	parts[0] = ksmbd_buf_make(hash, KSMBD_SHA512_SIZE);
	for (i = 0; i < nparts; i++)
		parts[i + 1] = msg[i];
	/* Reading and writing hash in one call is fine: it is read first. */
	return ksmbd_crypto_sha512(parts, nparts + 1, hash);
}
