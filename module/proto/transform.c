// SPDX-License-Identifier: GPL-2.0-or-later
#include "transform.h"

static const struct ksmbd_cipher_info ciphers[] = {
	{ SMB2_ENCRYPTION_AES128_CCM, 16, KSMBD_CCM_NONCE_SIZE, false, "AES-128-CCM" },
	{ SMB2_ENCRYPTION_AES128_GCM, 16, KSMBD_GCM_NONCE_SIZE, true, "AES-128-GCM" },
	{ SMB2_ENCRYPTION_AES256_CCM, 32, KSMBD_CCM_NONCE_SIZE, false, "AES-256-CCM" },
	{ SMB2_ENCRYPTION_AES256_GCM, 32, KSMBD_GCM_NONCE_SIZE, true, "AES-256-GCM" },
};

const struct ksmbd_cipher_info *ksmbd_cipher_info(u16 cipher)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(ciphers); i++)
		if (ciphers[i].id == cipher)
			return &ciphers[i];
	return NULL;
}

enum ksmbd_valid ksmbd_transform_validate(const u8 *frame, u32 len, u16 cipher,
					  struct ksmbd_transform *out)
{
	const struct smb2_transform_hdr *th = (const void *)frame;
	const struct ksmbd_cipher_info *ci = ksmbd_cipher_info(cipher);
	enum ksmbd_valid v;
	enum ksmbd_frame_kind kind;

	/* Protocol id, sizes and flags: the same checks as classification. */
	v = ksmbd_frame_classify(frame, len, &kind);
	if (v != KSMBD_VALID_OK)
		return v;
	if (kind != KSMBD_FRAME_TRANSFORM)
		return KSMBD_VALID_BAD_PROTOCOL_ID;
	if (!ci)
		return KSMBD_VALID_BAD_TRANSFORM;
	out->session_id = get_unaligned_le64(&th->session_id);
	if (!out->session_id)
		return KSMBD_VALID_BAD_TRANSFORM;
	out->tag = th->signature;
	out->nonce = th->nonce;
	out->ad = frame + KSMBD_TRANSFORM_AD_OFF;
	out->msg_off = SMB2_TRANSFORM_HEADER_SIZE;
	out->msg_len = get_unaligned_le32(&th->original_message_size);
	return KSMBD_VALID_OK;
}

void ksmbd_transform_put_hdr(u8 hdr[SMB2_TRANSFORM_HEADER_SIZE], u16 cipher,
			     u64 counter, const u8 salt[4], u32 msg_len,
			     u64 session_id)
{
	struct smb2_transform_hdr *th = (void *)hdr;
	const struct ksmbd_cipher_info *ci = ksmbd_cipher_info(cipher);
	u32 nlen = ci ? ci->nonce_len : KSMBD_GCM_NONCE_SIZE;

	memset(hdr, 0, SMB2_TRANSFORM_HEADER_SIZE);
	th->protocol_id = SMB2_TRANSFORM_PROTO_NUMBER;
	put_unaligned_le64(counter, th->nonce);
	/* 3 (CCM) or 4 (GCM) salt bytes complete the cipher's nonce. */
	memcpy(th->nonce + 8, salt, nlen - 8);
	put_unaligned_le32(msg_len, &th->original_message_size);
	put_unaligned_le16(SMB2_TRANSFORM_FLAG_ENCRYPTED, &th->flags);
	put_unaligned_le64(session_id, &th->session_id);
}

void ksmbd_gmac_nonce(u64 message_id, bool from_server, bool cancel,
		      u8 out[KSMBD_GMAC_NONCE_SIZE])
{
	put_unaligned_le64(message_id, out);
	put_unaligned_le32((from_server ? 1u : 0u) | (cancel ? 2u : 0u),
			   out + 8);
}

void ksmbd_gmac_nonce_of(const u8 *hdr, u8 out[KSMBD_GMAC_NONCE_SIZE])
{
	const struct smb2_hdr *h = (const void *)hdr;
	u32 flags = get_unaligned_le32(&h->flags);
	u16 cmd = get_unaligned_le16(&h->command);

	ksmbd_gmac_nonce(get_unaligned_le64(&h->message_id),
			 flags & SMB2_FLAGS_SERVER_TO_REDIR,
			 cmd == SMB2_CANCEL &&
			 !(flags & SMB2_FLAGS_SERVER_TO_REDIR), out);
}
