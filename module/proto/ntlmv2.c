// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NTLMv2 server-side verification.  Intermediate keys live on the stack
 * and are wiped before returning.
 */
#include "ntlmv2.h"
#include "crypto.h"
#include "utf16.h"

int ksmbd_ntlmv2_owf(const u8 nt_hash[KSMBD_NT_HASH_SIZE],
		     const struct ksmbd_buf *user, const struct ksmbd_buf *domain,
		     u8 owf[KSMBD_NTLMV2_KEY_SIZE])
{
	struct ksmbd_buf part;
	u8 *ident;
	u32 n;
	int rc;

	if ((user->len | domain->len) & 1 ||
	    user->len > KSMBD_NTLMV2_IDENT_MAX - domain->len ||
	    domain->len > KSMBD_NTLMV2_IDENT_MAX)
		return -EINVAL;
	n = user->len + domain->len;
	ident = kmalloc(n ? n : 1, GFP_KERNEL);
	if (!ident)
		return -ENOMEM;
	if (user->len)
		memcpy(ident, user->p, user->len);
	/*
	 * MS-NLMP: the user name is upper-cased, the domain is not; as
	 * Windows does it, so that "jos\u00e9" is "JOS\u00c9", not "JOS\u00e9".
	 */
	ksmbd_utf16_upper(ident, user->len);
	if (domain->len)
		memcpy(ident + user->len, domain->p, domain->len);
	part = ksmbd_buf_make(ident, n);
	rc = ksmbd_crypto_hmac_md5(nt_hash, KSMBD_NT_HASH_SIZE, &part, 1, owf);
	kfree(ident);
	return rc;
}

int ksmbd_ntlmv2_verify(const u8 owf[KSMBD_NTLMV2_KEY_SIZE],
			const u8 server_challenge[KSMBD_NTLM_CHALLENGE_SIZE],
			const struct ksmbd_buf *nt_response,
			u8 session_base_key[KSMBD_NTLMV2_KEY_SIZE])
{
	struct ksmbd_buf parts[2];
	u8 proof[KSMBD_MD5_SIZE];
	int rc;

	if (nt_response->len == 24)
		return -EOPNOTSUPP;
	if (nt_response->len < 16 + 28)
		return -EINVAL;
	parts[0] = ksmbd_buf_make(server_challenge, KSMBD_NTLM_CHALLENGE_SIZE);
	parts[1] = ksmbd_buf_make(nt_response->p + 16, nt_response->len - 16);
	rc = ksmbd_crypto_hmac_md5(owf, KSMBD_NTLMV2_KEY_SIZE, parts, 2, proof);
	if (rc)
		goto out;
	if (ksmbd_memneq(proof, nt_response->p, sizeof(proof))) {
		rc = -EKEYREJECTED;
		goto out;
	}
	parts[0] = ksmbd_buf_make(proof, sizeof(proof));
	rc = ksmbd_crypto_hmac_md5(owf, KSMBD_NTLMV2_KEY_SIZE, parts, 1,
				   session_base_key);
out:
	memzero_explicit(proof, sizeof(proof));
	return rc;
}

int ksmbd_ntlmv2_exported_key(u32 flags,
			      const u8 session_base_key[KSMBD_NTLMV2_KEY_SIZE],
			      const struct ksmbd_buf *encrypted_key,
			      u8 exported[KSMBD_NTLMV2_KEY_SIZE])
{
	/* For NTLMv2 the KeyExchangeKey is the SessionBaseKey. */
	if (!(flags & NTLMSSP_NEGOTIATE_KEY_EXCH)) {
		memcpy(exported, session_base_key, KSMBD_NTLMV2_KEY_SIZE);
		return 0;
	}
	if (encrypted_key->len != KSMBD_NTLMV2_KEY_SIZE)
		return -EINVAL;
	memcpy(exported, encrypted_key->p, KSMBD_NTLMV2_KEY_SIZE);
	ksmbd_arc4_crypt(session_base_key, KSMBD_NTLMV2_KEY_SIZE, exported,
			 KSMBD_NTLMV2_KEY_SIZE);
	return 0;
}

bool ksmbd_ntlmv2_mic_required(const struct ksmbd_buf *nt_response)
{
	struct ksmbd_buf av;
	u32 pos = 0;

	/* AV pairs follow NTProofStr (16) and the fixed client blob (28). */
	if (nt_response->len < 44)
		return false;
	av = ksmbd_buf_make(nt_response->p + 44, nt_response->len - 44);
	for (;;) {
		u16 id, len;
		u32 flags;

		if (!ksmbd_buf_get_le16(&av, pos, &id) ||
		    !ksmbd_buf_get_le16(&av, pos + 2, &len) || id == MSV_AV_EOL)
			return false;
		if (id == MSV_AV_FLAGS)
			return len == 4 && ksmbd_buf_get_le32(&av, pos + 4, &flags) &&
			       (flags & MSV_AV_FLAG_MIC_PRESENT);
		if (!ksmbd_range_ok(av.len, pos + 4, len))
			return false;
		pos += 4 + len;
	}
}

int ksmbd_ntlmv2_verify_mic(const u8 exported[KSMBD_NTLMV2_KEY_SIZE],
			    const struct ksmbd_buf *negotiate,
			    const struct ksmbd_buf *challenge,
			    const struct ksmbd_buf *auth)
{
	static const u8 zero_mic[KSMBD_NTLM_MIC_SIZE];
	struct ksmbd_buf parts[5];
	u8 mic[KSMBD_MD5_SIZE];
	int rc;

	if (auth->len < KSMBD_NTLM_AUTH_MIC_END)
		return -EINVAL;
	parts[0] = *negotiate;
	parts[1] = *challenge;
	parts[2] = ksmbd_buf_make(auth->p, KSMBD_NTLM_MIC_OFFSET);
	parts[3] = ksmbd_buf_make(zero_mic, sizeof(zero_mic));
	parts[4] = ksmbd_buf_make(auth->p + KSMBD_NTLM_AUTH_MIC_END,
				  auth->len - KSMBD_NTLM_AUTH_MIC_END);
	rc = ksmbd_crypto_hmac_md5(exported, KSMBD_NTLMV2_KEY_SIZE, parts, 5, mic);
	if (!rc && ksmbd_memneq(mic, auth->p + KSMBD_NTLM_MIC_OFFSET, sizeof(mic)))
		rc = -EKEYREJECTED;
	memzero_explicit(mic, sizeof(mic));
	return rc;
}

int ksmbd_ntlmv2_authenticate(const u8 nt_hash[KSMBD_NT_HASH_SIZE],
			      const u8 server_challenge[KSMBD_NTLM_CHALLENGE_SIZE],
			      const struct ksmbd_ntlm_auth *auth,
			      const struct ksmbd_buf *negotiate,
			      const struct ksmbd_buf *challenge,
			      const struct ksmbd_buf *authenticate,
			      u8 exported[KSMBD_NTLMV2_KEY_SIZE])
{
	u8 owf[KSMBD_NTLMV2_KEY_SIZE], base[KSMBD_NTLMV2_KEY_SIZE];
	int rc;

	if (auth->anonymous)
		return -EINVAL;	/* anonymous logons never reach key checks */
	rc = ksmbd_ntlmv2_owf(nt_hash, &auth->user, &auth->domain, owf);
	if (rc)
		goto out;
	rc = ksmbd_ntlmv2_verify(owf, server_challenge, &auth->nt_response, base);
	if (rc)
		goto out;
	rc = ksmbd_ntlmv2_exported_key(auth->flags, base, &auth->session_key,
				       exported);
	if (rc)
		goto out;
	if (ksmbd_ntlmv2_mic_required(&auth->nt_response)) {
		rc = auth->has_mic ?
		     ksmbd_ntlmv2_verify_mic(exported, negotiate, challenge,
					     authenticate) : -EKEYREJECTED;
	}
	if (rc)
		memzero_explicit(exported, KSMBD_NTLMV2_KEY_SIZE);
out:
	memzero_explicit(owf, sizeof(owf));
	memzero_explicit(base, sizeof(base));
	return rc;
}
