/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NTLM session security (MS-NLMP 3.4) with extended session security,
 * which NTLMv2 always has: the per-direction signing and sealing keys
 * (3.4.5.2/3.4.5.3) and the 16-byte signature of GSS_GetMIC (3.4.4.2).
 * SMB uses it for one thing only, the SPNEGO mechListMIC (MS-SPNG
 * 3.1.5.1), so the state lives for one SESSION_SETUP leg.
 */
#ifndef KSMBD_PROTO_NTLMSEC_H
#define KSMBD_PROTO_NTLMSEC_H

#include "shim.h"
#include "buf.h"

enum {
	KSMBD_NTLM_SEC_KEY_SIZE		= 16,
	KSMBD_NTLM_SEC_SIG_SIZE		= 16,	/* Version, Checksum, SeqNum */
};

/* RC4 with its stream position kept between calls. */
struct ksmbd_arc4 {
	u8 s[256];
	u8 i, j;
};

void ksmbd_arc4_init(struct ksmbd_arc4 *c, const u8 *key, u32 key_len);
void ksmbd_arc4_apply(struct ksmbd_arc4 *c, u8 *buf, u32 len);
/* One-shot RC4 in place (NTLM key exchange). */
void ksmbd_arc4_crypt(const u8 *key, u32 key_len, u8 *buf, u32 len);

/* One direction: its signing key, sealing handle and sequence number. */
struct ksmbd_ntlm_sec_dir {
	u8 sign_key[KSMBD_NTLM_SEC_KEY_SIZE];
	u8 seal_key[KSMBD_NTLM_SEC_KEY_SIZE];
	struct ksmbd_arc4 seal;
	u32 seq;
};

struct ksmbd_ntlm_sec {
	u32 flags;			/* the AUTHENTICATE flags */
	struct ksmbd_ntlm_sec_dir c2s;	/* client to server */
	struct ksmbd_ntlm_sec_dir s2c;	/* server to client */
};

/* Both directions' keys from ExportedSessionKey; sequence numbers 0. */
int ksmbd_ntlm_sec_init(struct ksmbd_ntlm_sec *sec, u32 flags,
			const u8 exported[KSMBD_NTLM_SEC_KEY_SIZE]);
void ksmbd_ntlm_sec_wipe(struct ksmbd_ntlm_sec *sec);

/*
 * MAC (3.4.4.2): HMAC-MD5(SignKey, SeqNum || msg)[0..7], RC4-encrypted
 * with the direction's sealing handle under KEY_EXCH; the sequence
 * number advances.
 */
int ksmbd_ntlm_sec_sign(struct ksmbd_ntlm_sec *sec,
			struct ksmbd_ntlm_sec_dir *dir,
			const struct ksmbd_buf *msg,
			u8 sig[KSMBD_NTLM_SEC_SIG_SIZE]);

/* Check a peer's signature (constant time); -EKEYREJECTED if wrong. */
int ksmbd_ntlm_sec_verify(struct ksmbd_ntlm_sec *sec,
			  struct ksmbd_ntlm_sec_dir *dir,
			  const struct ksmbd_buf *msg,
			  const struct ksmbd_buf *sig);

/*
 * The server's half of the mechListMIC exchange over the client's DER
 * MechTypeList: verify client_mic (its first signature) and write ours
 * (our first signature) to out.  -EKEYREJECTED on a bad client MIC.
 */
int ksmbd_ntlm_mech_list_mic(u32 flags,
			     const u8 exported[KSMBD_NTLM_SEC_KEY_SIZE],
			     const struct ksmbd_buf *mech_list,
			     const struct ksmbd_buf *client_mic,
			     u8 out[KSMBD_NTLM_SEC_SIG_SIZE]);

#endif /* KSMBD_PROTO_NTLMSEC_H */
