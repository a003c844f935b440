// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * proto/crypto.h over the kernel crypto API.
 *
 * A transform is allocated per call.  That costs an allocation and an
 * algorithm lookup per hash, which is fine for authentication and key
 * derivation (a handful per session); per-message signing should keep a
 * transform per connection once the engine signs traffic.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <crypto/hash.h>
#include <linux/err.h>

#include "proto/crypto.h"

static int shash_run(const char *alg, const u8 *key, u32 key_len,
		     const struct ksmbd_buf *parts, u32 nparts, u8 *out,
		     u32 out_len)
{
	struct crypto_shash *tfm;
	struct shash_desc *desc;
	u32 i;
	int rc;

	tfm = crypto_alloc_shash(alg, 0, 0);
	if (IS_ERR(tfm)) {
		pr_err("cannot allocate %s: %ld\n", alg, PTR_ERR(tfm));
		return PTR_ERR(tfm);
	}
	if (crypto_shash_digestsize(tfm) != out_len) {
		rc = -EINVAL;
		goto err_free_tfm;
	}
	if (key) {
		rc = crypto_shash_setkey(tfm, key, key_len);
		if (rc)
			goto err_free_tfm;
	}
	desc = kzalloc(sizeof(*desc) + crypto_shash_descsize(tfm), GFP_KERNEL);
	if (!desc) {
		rc = -ENOMEM;
		goto err_free_tfm;
	}
	desc->tfm = tfm;
	rc = crypto_shash_init(desc);
	for (i = 0; !rc && i < nparts; i++)
		if (parts[i].len)
			rc = crypto_shash_update(desc, parts[i].p, parts[i].len);
	if (!rc)
		rc = crypto_shash_final(desc, out);
	kfree_sensitive(desc);
err_free_tfm:
	crypto_free_shash(tfm);
	return rc;
}

int ksmbd_crypto_md5(const struct ksmbd_buf *parts, u32 nparts,
		     u8 out[KSMBD_MD5_SIZE])
{
	return shash_run("md5", NULL, 0, parts, nparts, out, KSMBD_MD5_SIZE);
}

int ksmbd_crypto_hmac_md5(const u8 *key, u32 key_len,
			  const struct ksmbd_buf *parts, u32 nparts,
			  u8 out[KSMBD_MD5_SIZE])
{
	return shash_run("hmac(md5)", key, key_len, parts, nparts, out,
			 KSMBD_MD5_SIZE);
}

int ksmbd_crypto_hmac_sha256(const u8 *key, u32 key_len,
			     const struct ksmbd_buf *parts, u32 nparts,
			     u8 out[KSMBD_SHA256_SIZE])
{
	return shash_run("hmac(sha256)", key, key_len, parts, nparts, out,
			 KSMBD_SHA256_SIZE);
}

int ksmbd_crypto_sha256(const struct ksmbd_buf *parts, u32 nparts,
			u8 out[KSMBD_SHA256_SIZE])
{
	return shash_run("sha256", NULL, 0, parts, nparts, out,
			 KSMBD_SHA256_SIZE);
}

int ksmbd_crypto_sha512(const struct ksmbd_buf *parts, u32 nparts,
			u8 out[KSMBD_SHA512_SIZE])
{
	return shash_run("sha512", NULL, 0, parts, nparts, out,
			 KSMBD_SHA512_SIZE);
}

int ksmbd_crypto_cmac_aes(const u8 *key, u32 key_len,
			  const struct ksmbd_buf *parts, u32 nparts,
			  u8 out[KSMBD_CMAC_AES_SIZE])
{
	if (key_len != 16 && key_len != 32)
		return -EINVAL;
	return shash_run("cmac(aes)", key, key_len, parts, nparts, out,
			 KSMBD_CMAC_AES_SIZE);
}
