// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space implementation of proto/crypto.h over OpenSSL 3 (EVP_MAC and
 * EVP_Digest), for host unit tests and fuzzers.
 */
#include "proto/crypto.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

static int mac_run(const char *mac_name, const char *param_name,
		   const char *param_value, const u8 *key, u32 key_len,
		   const struct ksmbd_buf *parts, u32 nparts, u8 *out,
		   size_t out_len)
{
	OSSL_PARAM params[2];
	EVP_MAC_CTX *ctx = NULL;
	EVP_MAC *mac;
	size_t got = 0;
	int rc = -EINVAL;
	u32 i;

	mac = EVP_MAC_fetch(NULL, mac_name, NULL);
	if (!mac)
		return -ENOENT;
	ctx = EVP_MAC_CTX_new(mac);
	if (!ctx)
		goto out_free_mac;
	params[0] = OSSL_PARAM_construct_utf8_string(param_name,
						     (char *)param_value, 0);
	params[1] = OSSL_PARAM_construct_end();
	if (!EVP_MAC_init(ctx, key, key_len, params))
		goto out_free_ctx;
	for (i = 0; i < nparts; i++)
		if (parts[i].len && !EVP_MAC_update(ctx, parts[i].p, parts[i].len))
			goto out_free_ctx;
	if (!EVP_MAC_final(ctx, out, &got, out_len) || got != out_len)
		goto out_free_ctx;
	rc = 0;
out_free_ctx:
	EVP_MAC_CTX_free(ctx);
out_free_mac:
	EVP_MAC_free(mac);
	return rc;
}

int ksmbd_crypto_hmac_md5(const u8 *key, u32 key_len,
			  const struct ksmbd_buf *parts, u32 nparts,
			  u8 out[KSMBD_MD5_SIZE])
{
	return mac_run("HMAC", OSSL_MAC_PARAM_DIGEST, "MD5", key, key_len,
		       parts, nparts, out, KSMBD_MD5_SIZE);
}

int ksmbd_crypto_hmac_sha256(const u8 *key, u32 key_len,
			     const struct ksmbd_buf *parts, u32 nparts,
			     u8 out[KSMBD_SHA256_SIZE])
{
	return mac_run("HMAC", OSSL_MAC_PARAM_DIGEST, "SHA256", key, key_len,
		       parts, nparts, out, KSMBD_SHA256_SIZE);
}

int ksmbd_crypto_cmac_aes(const u8 *key, u32 key_len,
			  const struct ksmbd_buf *parts, u32 nparts,
			  u8 out[KSMBD_CMAC_AES_SIZE])
{
	const char *cipher = key_len == 32 ? "AES-256-CBC" : "AES-128-CBC";

	if (key_len != 16 && key_len != 32)
		return -EINVAL;
	return mac_run("CMAC", OSSL_MAC_PARAM_CIPHER, cipher, key, key_len,
		       parts, nparts, out, KSMBD_CMAC_AES_SIZE);
}

static int digest_run(const EVP_MD *md, const struct ksmbd_buf *parts,
		      u32 nparts, u8 *out, unsigned int out_len)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int got = 0;
	int rc = -EINVAL;
	u32 i;

	if (!ctx)
		return -ENOMEM;
	if (!EVP_DigestInit_ex(ctx, md, NULL))
		goto out;
	for (i = 0; i < nparts; i++)
		if (parts[i].len && !EVP_DigestUpdate(ctx, parts[i].p, parts[i].len))
			goto out;
	if (!EVP_DigestFinal_ex(ctx, out, &got) || got != out_len)
		goto out;
	rc = 0;
out:
	EVP_MD_CTX_free(ctx);
	return rc;
}

int ksmbd_crypto_sha256(const struct ksmbd_buf *parts, u32 nparts,
			u8 out[KSMBD_SHA256_SIZE])
{
	return digest_run(EVP_sha256(), parts, nparts, out, KSMBD_SHA256_SIZE);
}

int ksmbd_crypto_sha512(const struct ksmbd_buf *parts, u32 nparts,
			u8 out[KSMBD_SHA512_SIZE])
{
	return digest_run(EVP_sha512(), parts, nparts, out, KSMBD_SHA512_SIZE);
}

int ksmbd_crypto_md5(const struct ksmbd_buf *parts, u32 nparts,
		     u8 out[KSMBD_MD5_SIZE])
{
	return digest_run(EVP_md5(), parts, nparts, out, KSMBD_MD5_SIZE);
}
