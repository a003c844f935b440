/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NTLMSSP messages (MS-NLMP 2.2): parse NEGOTIATE, build CHALLENGE, parse
 * AUTHENTICATE with every field checked against the blob it came in.
 */
#ifndef KSMBD_PROTO_NTLMSSP_H
#define KSMBD_PROTO_NTLMSSP_H

#include "shim.h"
#include "buf.h"

enum ksmbd_ntlm_msg_type {
	NTLMSSP_NEGOTIATE_MSG		= 1,
	NTLMSSP_CHALLENGE_MSG		= 2,
	NTLMSSP_AUTHENTICATE_MSG	= 3,
};

enum {
	NTLMSSP_NEGOTIATE_UNICODE		= 0x00000001,
	NTLMSSP_NEGOTIATE_OEM			= 0x00000002,
	NTLMSSP_REQUEST_TARGET			= 0x00000004,
	NTLMSSP_NEGOTIATE_SIGN			= 0x00000010,
	NTLMSSP_NEGOTIATE_SEAL			= 0x00000020,
	NTLMSSP_NEGOTIATE_LM_KEY		= 0x00000080,
	NTLMSSP_NEGOTIATE_NTLM			= 0x00000200,
	NTLMSSP_ANONYMOUS			= 0x00000800,
	NTLMSSP_NEGOTIATE_ALWAYS_SIGN		= 0x00008000,
	NTLMSSP_TARGET_TYPE_DOMAIN		= 0x00010000,
	NTLMSSP_TARGET_TYPE_SERVER		= 0x00020000,
	NTLMSSP_NEGOTIATE_EXTENDED_SESSIONSECURITY = 0x00080000,
	NTLMSSP_NEGOTIATE_TARGET_INFO		= 0x00800000,
	NTLMSSP_NEGOTIATE_VERSION		= 0x02000000,
	NTLMSSP_NEGOTIATE_128			= 0x20000000,
	NTLMSSP_NEGOTIATE_KEY_EXCH		= 0x40000000,
	NTLMSSP_NEGOTIATE_56			= 0x80000000,
};

enum ksmbd_ntlm_av_id {
	MSV_AV_EOL			= 0,
	MSV_AV_NB_COMPUTER_NAME		= 1,
	MSV_AV_NB_DOMAIN_NAME		= 2,
	MSV_AV_DNS_COMPUTER_NAME	= 3,
	MSV_AV_DNS_DOMAIN_NAME		= 4,
	MSV_AV_DNS_TREE_NAME		= 5,
	MSV_AV_FLAGS			= 6,
	MSV_AV_TIMESTAMP		= 7,
	MSV_AV_SINGLE_HOST		= 8,
	MSV_AV_TARGET_NAME		= 9,
	MSV_AV_CHANNEL_BINDINGS		= 10,
};

enum {
	KSMBD_NTLM_SIGNATURE_SIZE	= 8,
	KSMBD_NTLM_CHALLENGE_SIZE	= 8,
	KSMBD_NTLM_SESSION_KEY_SIZE	= 16,
	KSMBD_NTLM_MIC_SIZE		= 16,
	KSMBD_NTLM_MIC_OFFSET		= 72,
	KSMBD_NTLM_AUTH_HDR_SIZE	= 64,	/* without Version and MIC */
	KSMBD_NTLM_AUTH_MIC_END		= 88,
	/* Fits the 48-byte account field of the netlink ABI with its NUL. */
	KSMBD_NTLM_USER_MAX		= 48,
	KSMBD_NTLM_NAME_MAX		= 256,
	MSV_AV_FLAG_MIC_PRESENT		= 0x00000002,
};

extern const u8 ksmbd_ntlmssp_signature[KSMBD_NTLM_SIGNATURE_SIZE];

/* Which message type a blob claims to be (0 if it is no NTLMSSP message). */
u32 ksmbd_ntlmssp_type(const u8 *blob, u32 len);

/* NEGOTIATE: only the flags matter to a server.  -EINVAL if malformed. */
int ksmbd_ntlmssp_parse_negotiate(const u8 *blob, u32 len, u32 *flags);

struct ksmbd_ntlm_challenge_params {
	u32 client_flags;			/* from NEGOTIATE */
	const u8 *server_challenge;		/* 8 random bytes */
	const char *nb_domain;			/* UTF-8, upper case by convention */
	const char *nb_computer;
	const char *dns_domain;
	const char *dns_computer;
	u64 timestamp;				/* FILETIME, 100 ns since 1601 */
};

/*
 * Build CHALLENGE into out.  *flags gets the flags the server chose (the
 * engine keeps them to check AUTHENTICATE).  Returns 0, -ENOSPC, -EILSEQ.
 */
int ksmbd_ntlmssp_build_challenge(const struct ksmbd_ntlm_challenge_params *p,
				  u8 *out, u32 cap, u32 *len, u32 *flags);

struct ksmbd_ntlm_auth {
	u32 flags;
	struct ksmbd_buf lm_response;
	struct ksmbd_buf nt_response;
	struct ksmbd_buf domain;		/* UTF-16LE as sent */
	struct ksmbd_buf user;			/* UTF-16LE as sent */
	struct ksmbd_buf workstation;
	struct ksmbd_buf session_key;		/* EncryptedRandomSessionKey */
	bool has_mic;				/* room for a MIC in the header */
	const u8 *mic;
	bool anonymous;
	char user_utf8[KSMBD_NTLM_USER_MAX];
	char domain_utf8[KSMBD_NTLM_NAME_MAX];
	char workstation_utf8[KSMBD_NTLM_NAME_MAX];
};

/*
 * Parse AUTHENTICATE.  Every field must lie inside the blob and after the
 * fixed header; names must be valid UTF-16 and fit their UTF-8 buffers
 * (-ENAMETOOLONG for a user name over 47 bytes).  Refused: OEM strings
 * (-EOPNOTSUPP), NTLMv1 24-byte responses (-EOPNOTSUPP), a session key that
 * is not exactly 16 bytes under KEY_EXCH (-EINVAL), an NTLMv2 response too
 * short for its fixed part or whose AV_PAIR list does not reach MsvAvEOL
 * inside it (-EBADMSG: STATUS_INVALID_PARAMETER, as Windows answers).
 */
int ksmbd_ntlmssp_parse_authenticate(const u8 *blob, u32 len,
				     struct ksmbd_ntlm_auth *auth);

#endif /* KSMBD_PROTO_NTLMSSP_H */
