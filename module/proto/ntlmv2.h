/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NTLMv2 verification (MS-NLMP 3.3.2): NTOWFv2, NTProofStr, session base
 * key, key exchange and MIC.  NTLMv1 and LM are not implemented and never
 * will be: a 24-byte NtChallengeResponse is refused.
 */
#ifndef KSMBD_PROTO_NTLMV2_H
#define KSMBD_PROTO_NTLMV2_H

#include "shim.h"
#include "buf.h"
#include "ntlmssp.h"
#include "ntlmsec.h"	/* ksmbd_arc4_crypt */

enum {
	KSMBD_NT_HASH_SIZE	= 16,
	KSMBD_NTLMV2_KEY_SIZE	= 16,
	/* UPPER(user) + domain, as UTF-16, must fit this scratch buffer. */
	KSMBD_NTLMV2_IDENT_MAX	= 1024,
};

/* NTOWFv2 = HMAC-MD5(NT hash, UTF16(UPPER(user)) || UTF16(domain)). */
int ksmbd_ntlmv2_owf(const u8 nt_hash[KSMBD_NT_HASH_SIZE],
		     const struct ksmbd_buf *user_utf16,
		     const struct ksmbd_buf *domain_utf16,
		     u8 owf[KSMBD_NTLMV2_KEY_SIZE]);

/*
 * Check NTProofStr over server challenge || client blob (constant time)
 * and derive SessionBaseKey.  -EKEYREJECTED on a wrong proof, -EOPNOTSUPP
 * for NTLMv1, -EINVAL for a response too short to be NTLMv2.
 */
int ksmbd_ntlmv2_verify(const u8 owf[KSMBD_NTLMV2_KEY_SIZE],
			const u8 server_challenge[KSMBD_NTLM_CHALLENGE_SIZE],
			const struct ksmbd_buf *nt_response,
			u8 session_base_key[KSMBD_NTLMV2_KEY_SIZE]);

/*
 * ExportedSessionKey: the base key, or under KEY_EXCH the RC4 decryption of
 * EncryptedRandomSessionKey with it (which must be exactly 16 bytes).
 */
int ksmbd_ntlmv2_exported_key(u32 flags,
			      const u8 session_base_key[KSMBD_NTLMV2_KEY_SIZE],
			      const struct ksmbd_buf *encrypted_key,
			      u8 exported[KSMBD_NTLMV2_KEY_SIZE]);

/* Does the client's AV_PAIR list (inside the NTLMv2 response) promise a MIC? */
bool ksmbd_ntlmv2_mic_required(const struct ksmbd_buf *nt_response);

/*
 * MIC = HMAC-MD5(ExportedSessionKey, NEGOTIATE || CHALLENGE || AUTHENTICATE
 * with the MIC field zeroed); -EKEYREJECTED on mismatch.
 */
int ksmbd_ntlmv2_verify_mic(const u8 exported[KSMBD_NTLMV2_KEY_SIZE],
			    const struct ksmbd_buf *negotiate,
			    const struct ksmbd_buf *challenge,
			    const struct ksmbd_buf *authenticate);

/*
 * The whole server-side check of a parsed AUTHENTICATE: owf, proof, key
 * exchange, and the MIC when the client's AV flags say it is there.
 */
int ksmbd_ntlmv2_authenticate(const u8 nt_hash[KSMBD_NT_HASH_SIZE],
			      const u8 server_challenge[KSMBD_NTLM_CHALLENGE_SIZE],
			      const struct ksmbd_ntlm_auth *auth,
			      const struct ksmbd_buf *negotiate,
			      const struct ksmbd_buf *challenge,
			      const struct ksmbd_buf *authenticate,
			      u8 exported[KSMBD_NTLMV2_KEY_SIZE]);

#endif /* KSMBD_PROTO_NTLMV2_H */
