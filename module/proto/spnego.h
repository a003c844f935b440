/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SPNEGO (RFC 4178, MS-SPNG): parse what SMB clients send in SESSION_SETUP
 * and build the server's NegTokenInit2 hint and NegTokenResp replies.
 */
#ifndef KSMBD_PROTO_SPNEGO_H
#define KSMBD_PROTO_SPNEGO_H

#include "shim.h"
#include "buf.h"

#define KSMBD_SPNEGO_MAX_MECHS	16

enum ksmbd_spnego_mech {
	KSMBD_MECH_UNKNOWN,
	KSMBD_MECH_NTLMSSP,
	KSMBD_MECH_KRB5,
	KSMBD_MECH_MS_KRB5,
	KSMBD_MECH_NEGOEX,
};

enum ksmbd_spnego_state {
	KSMBD_SPNEGO_ACCEPT_COMPLETED	= 0,
	KSMBD_SPNEGO_ACCEPT_INCOMPLETE	= 1,
	KSMBD_SPNEGO_REJECT		= 2,
	KSMBD_SPNEGO_REQUEST_MIC	= 3,
	KSMBD_SPNEGO_STATE_ABSENT	= -1,
};

struct ksmbd_spnego_token {
	bool is_init;			/* NegTokenInit (else NegTokenResp) */
	/* NegTokenInit */
	u32 mech_count;
	u8 mechs[KSMBD_SPNEGO_MAX_MECHS];	/* enum ksmbd_spnego_mech */
	struct ksmbd_buf mech_list;	/* DER MechTypeList, for mechListMIC */
	/* NegTokenResp */
	int neg_state;
	u8 supported_mech;		/* enum ksmbd_spnego_mech, 0 if absent */
	/* both */
	struct ksmbd_buf mech_token;	/* mechToken / responseToken */
	struct ksmbd_buf mech_list_mic;
};

/*
 * Parse an InitialContextToken (0x60, SPNEGO OID, NegTokenInit) or a bare
 * NegTokenResp (0xa1).  -EBADMSG for anything malformed or nested too deep.
 */
int ksmbd_spnego_parse(const u8 *blob, u32 len, struct ksmbd_spnego_token *tok);

/* Is mech offered (NegTokenInit) — and is it the client's first choice? */
bool ksmbd_spnego_offers(const struct ksmbd_spnego_token *tok,
			 enum ksmbd_spnego_mech mech, bool *preferred);

/*
 * NegTokenInit2 for the NEGOTIATE response: mechTypes NTLMSSP (with the
 * Kerberos OIDs first when krb5 is set) and the "not_defined_in_RFC4178@
 * please_ignore" hint Windows sends.
 */
int ksmbd_spnego_build_hint(bool krb5, u8 *out, u32 cap, u32 *len);

/*
 * NegTokenResp: negState, supportedMech (NTLMSSP) when with_mech, the
 * responseToken and mechListMIC when their lengths are non-zero.
 */
int ksmbd_spnego_build_resp(enum ksmbd_spnego_state state, bool with_mech,
			    const u8 *token, u32 token_len,
			    const u8 *mic, u32 mic_len,
			    u8 *out, u32 cap, u32 *len);

#endif /* KSMBD_PROTO_SPNEGO_H */
