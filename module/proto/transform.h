/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SMB 3.x encryption and AES-GMAC signing, the parts without a key
 * (MS-SMB2 2.2.41, 3.1.4.1, 3.1.4.3, 3.3.5.2.1.1): the cipher table, the
 * SMB2 TRANSFORM_HEADER as the receiver checks it and the sender builds
 * it, nonces. The AEAD itself runs in module/conn/smb2_transform.c (kernel
 * crypto API); host tests run it over OpenSSL against Microsoft's vectors.
 *
 * Transform header layout: ProtocolId (4) | Signature = AEAD tag (16) |
 * Nonce (16) | OriginalMessageSize (4) | Reserved (2) | Flags (2) |
 * SessionId (8), then the ciphertext, exactly OriginalMessageSize bytes
 * (CCM and GCM keep the length). The associated data is the header from
 * Nonce to the end (32 bytes).
 */
#ifndef KSMBD_PROTO_TRANSFORM_H
#define KSMBD_PROTO_TRANSFORM_H

#include "shim.h"
#include "smb2.h"
#include "validate.h"

enum {
	KSMBD_TRANSFORM_TAG_SIZE	= 16,
	KSMBD_TRANSFORM_NONCE_FIELD	= 16,	/* the header's Nonce field */
	KSMBD_TRANSFORM_AD_OFF		= 20,	/* Nonce .. SessionId */
	KSMBD_TRANSFORM_AD_SIZE		= SMB2_TRANSFORM_HEADER_SIZE - 20,
	KSMBD_CCM_NONCE_SIZE		= 11,
	KSMBD_GCM_NONCE_SIZE		= 12,
	KSMBD_CIPHER_KEY_MAX		= 32,
	KSMBD_GMAC_NONCE_SIZE		= 12,
};

struct ksmbd_cipher_info {
	u16 id;			/* SMB2_ENCRYPTION_* */
	u8 key_len;		/* 16 or 32 */
	u8 nonce_len;		/* bytes of the Nonce field used: 11 or 12 */
	bool gcm;		/* else CCM */
	const char *name;	/* "AES-128-GCM", for logs and traces */
};

/* NULL for 0 and unknown ids. */
const struct ksmbd_cipher_info *ksmbd_cipher_info(u16 cipher);

/* What ksmbd_transform_validate() found in a transform frame. */
struct ksmbd_transform {
	u64 session_id;
	const u8 *tag;		/* 16 bytes, the Signature field */
	const u8 *nonce;	/* the cipher's nonce_len bytes */
	const u8 *ad;		/* KSMBD_TRANSFORM_AD_SIZE bytes */
	u32 msg_off;		/* ciphertext: frame + msg_off ... */
	u32 msg_len;		/* ... OriginalMessageSize bytes */
};

/*
 * The gate for a frame that starts with 0xFD 'S' 'M' 'B' on a connection
 * that negotiated cipher (0: none). Every reason here is fatal (MS-SMB2
 * 3.3.5.2.1.1 disconnects): no cipher negotiated, frame not longer than
 * the header, OriginalMessageSize other than the rest of the frame or
 * smaller than an SMB2 header, Flags/EncryptionAlgorithm other than 1,
 * SessionId 0. Looking the session up is the caller's: only it knows the
 * sessions. Reserved nonce bytes past the cipher's nonce are not checked:
 * they are authenticated as associated data, and Windows Server 2012 puts
 * random bytes there (Microsoft's own SMB 3.0 example).
 */
enum ksmbd_valid ksmbd_transform_validate(const u8 *frame, u32 len, u16 cipher,
					  struct ksmbd_transform *out);

/*
 * A transform header for msg_len bytes of session_id's message, the
 * cipher's nonce from counter (little-endian, then zeros) and the salt
 * bytes that fill the rest of the cipher's nonce; the Signature (tag) is
 * left zero for the AEAD to fill. Nonce uniqueness per key is the
 * counter's: callers never reuse one within a session.
 */
void ksmbd_transform_put_hdr(u8 hdr[SMB2_TRANSFORM_HEADER_SIZE], u16 cipher,
			     u64 counter, const u8 salt[4], u32 msg_len,
			     u64 session_id);

/*
 * The AES-GMAC signing nonce (MS-SMB2 3.1.4.1): MessageId, then a 32-bit
 * word whose bit 0 says the sender is the server and bit 1 that the
 * message is a CANCEL request.
 */
void ksmbd_gmac_nonce(u64 message_id, bool from_server, bool cancel,
		      u8 out[KSMBD_GMAC_NONCE_SIZE]);

/* The nonce of one SMB2 element's header (reads MessageId, Command, Flags). */
void ksmbd_gmac_nonce_of(const u8 *hdr, u8 out[KSMBD_GMAC_NONCE_SIZE]);

#endif /* KSMBD_PROTO_TRANSFORM_H */
