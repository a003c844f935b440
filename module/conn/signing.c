// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SMB2 signatures (MS-SMB2 3.1.4.1, 3.2.4.1.1): a MAC over the whole
 * element with the 16-byte Signature field taken as zeros; HMAC-SHA256
 * truncated to 16 bytes, AES-128-CMAC, or AES-128-GMAC (GCM with the
 * element as associated data and nothing to encrypt; the nonce is the
 * MessageId and the sender's role, proto/transform.c).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <crypto/aead.h>
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/string.h>
#include "proto/smb2.h"
#include "signing.h"
#include "smb2_transform.h"

#define SIG_OFF		offsetof(struct smb2_hdr, signature)
#define SIG_END		(SIG_OFF + SMB2_SIGNATURE_SIZE)
#define MAC_MAX		32	/* HMAC-SHA256 before truncation */

static atomic64_t sign_failures = ATOMIC64_INIT(0);

/*
 * The synchronous gcm: the whole element is associated data, which the
 * generic template walks in place where the x86 SIMD glue would first
 * copy it into one kmalloc'd buffer (and fail past 4 MiB).
 */
static int gmac_init(struct ksmbd_signer *s,
		     const u8 key[KSMBD_SIGNING_KEY_SIZE],
		     struct ksmbd_conn *conn)
{
	struct crypto_aead *tfm;
	int ret;

	tfm = crypto_alloc_aead("gcm(aes)", 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	ret = crypto_aead_setkey(tfm, key, KSMBD_SIGNING_KEY_SIZE);
	if (!ret)
		ret = crypto_aead_setauthsize(tfm, SMB2_SIGNATURE_SIZE);
	if (!ret)
		ret = ksmbd_conn_crypto_prepare(conn, tfm);
	if (ret) {
		crypto_free_aead(tfm);
		return ret;
	}
	ksmbd_signer_free(s);
	s->gmac = tfm;
	s->conn = conn;
	s->alg = SMB2_SIGNING_AES_GMAC;
	return 0;
}

int ksmbd_signer_init(struct ksmbd_signer *s, u16 alg,
		      const u8 key[KSMBD_SIGNING_KEY_SIZE],
		      struct ksmbd_conn *conn)
{
	const char *name;
	struct crypto_shash *tfm;
	int ret;

	switch (alg) {
	case SMB2_SIGNING_HMAC_SHA256:
		name = "hmac(sha256)";
		break;
	case SMB2_SIGNING_AES_CMAC:
		name = "cmac(aes)";
		break;
	case SMB2_SIGNING_AES_GMAC:
		return gmac_init(s, key, conn);
	default:
		return -EOPNOTSUPP;
	}
	tfm = crypto_alloc_shash(name, 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	ret = crypto_shash_setkey(tfm, key, KSMBD_SIGNING_KEY_SIZE);
	if (ret) {
		crypto_free_shash(tfm);
		return ret;
	}
	ksmbd_signer_free(s);
	s->tfm = tfm;
	s->alg = alg;
	return 0;
}

void ksmbd_signer_free(struct ksmbd_signer *s)
{
	/* crypto_free_shash() wipes the key schedule with the tfm. */
	if (s->tfm)
		crypto_free_shash(s->tfm);
	if (s->gmac)
		crypto_free_aead(s->gmac);
	s->tfm = NULL;
	s->gmac = NULL;
}

static int compute(const struct ksmbd_signer *s, const u8 *msg, u32 len,
		   u8 mac[MAC_MAX])
{
	static const u8 zero_sig[SMB2_SIGNATURE_SIZE];
	SHASH_DESC_ON_STACK(desc, s->tfm);
	int ret;

	if (len < SMB2_HEADER_SIZE)
		return -EINVAL;
	desc->tfm = s->tfm;
	ret = crypto_shash_init(desc);
	if (!ret)
		ret = crypto_shash_update(desc, msg, SIG_OFF);
	if (!ret)
		ret = crypto_shash_update(desc, zero_sig, sizeof(zero_sig));
	if (!ret && len > SIG_END)
		ret = crypto_shash_update(desc, msg + SIG_END, len - SIG_END);
	if (!ret)
		ret = crypto_shash_final(desc, mac);
	shash_desc_zero(desc);
	return ret;
}

int ksmbd_signer_verify(const struct ksmbd_signer *s, const u8 *msg, u32 len)
{
	u8 mac[MAC_MAX];
	int ret;

	if (s->gmac) {
		ret = ksmbd_gmac_verify(s->conn, s->gmac, msg, len);
		if (ret)
			atomic64_inc(&sign_failures);
		return ret;
	}
	if (!s->tfm)
		return -EBADMSG;
	ret = compute(s, msg, len, mac);
	if (!ret && crypto_memneq(mac, msg + SIG_OFF, SMB2_SIGNATURE_SIZE))
		ret = -EBADMSG;
	memzero_explicit(mac, sizeof(mac));
	if (ret)
		atomic64_inc(&sign_failures);
	return ret;
}

int ksmbd_signer_sign(const struct ksmbd_signer *s, u8 *msg, u32 len)
{
	struct smb2_hdr *h = (struct smb2_hdr *)msg;
	u8 mac[MAC_MAX];
	int ret;

	if (!ksmbd_signer_ready(s) || len < SMB2_HEADER_SIZE)
		return -EINVAL;
	h->flags |= cpu_to_le32(SMB2_FLAGS_SIGNED);
	if (s->gmac)
		return ksmbd_gmac_sign(s->conn, s->gmac, msg, len);
	ret = compute(s, msg, len, mac);
	if (!ret)
		memcpy(h->signature, mac, SMB2_SIGNATURE_SIZE);
	memzero_explicit(mac, sizeof(mac));
	return ret;
}

u64 ksmbd_signing_failures(void)
{
	return atomic64_read(&sign_failures);
}
