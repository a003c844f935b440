/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SMB 3.1.1 negotiate contexts (MS-SMB2 2.2.3.1, 2.2.4.1, 3.3.5.4):
 * parse what the client offers, build what the server answers.
 */
#ifndef KSMBD_PROTO_NEGCTX_H
#define KSMBD_PROTO_NEGCTX_H

#include "shim.h"
#include "buf.h"
#include "smb2.h"

/* More contexts than any client sends; bounds the parse loop. */
#define KSMBD_NEGCTX_MAX_COUNT	32

struct ksmbd_negctx_offer {
	bool has_preauth;
	bool preauth_sha512;
	struct ksmbd_buf salt;

	bool has_encryption;
	struct ksmbd_buf ciphers;	/* le16 ids */

	bool has_signing;
	struct ksmbd_buf signing_algs;	/* le16 ids */

	bool has_compression;
	u32 compression_flags;
	struct ksmbd_buf compression_algs;	/* le16 ids */

	bool has_netname;
	struct ksmbd_buf netname;	/* UTF-16LE, unvalidated content */

	bool has_transport;
	u32 transport_flags;

	bool has_rdma_transform;
	bool posix;
};

/*
 * Parse count contexts from list (which starts 8-byte aligned relative to
 * the SMB2 header, as the gate guarantees).  Returns STATUS_SUCCESS or the
 * NT status MS-SMB2 3.3.5.4 prescribes.
 */
u32 ksmbd_negctx_parse(const struct ksmbd_buf *list, u16 count,
		       struct ksmbd_negctx_offer *offer);

/* Is id (cipher, signing or compression id) in a parsed le16 id list? */
bool ksmbd_negctx_has_id(const struct ksmbd_buf *ids, u16 id);

/* First of the server's preferences the client offered; fallback if none. */
u16 ksmbd_negctx_pick(const struct ksmbd_buf *ids, const u16 *prefs,
		      u32 nprefs, u16 fallback);

struct ksmbd_negctx_choice {
	const u8 *salt;			/* SMB2_PREAUTH_SALT_SIZE bytes */
	bool encryption;		/* answer the client's encryption ctx */
	u16 cipher;			/* 0: no common cipher */
	bool signing;
	u16 signing_alg;
	bool compression;		/* answered with NONE: not supported */
	bool posix;
};

/*
 * Build the response context list into out (which the caller places at an
 * 8-byte aligned offset from the SMB2 header).  Returns 0 and sets *len and
 * *count, or -ENOSPC without a partial answer being usable.
 */
int ksmbd_negctx_build(const struct ksmbd_negctx_choice *choice, u8 *out,
		       u32 cap, u32 *len, u16 *count);

#endif /* KSMBD_PROTO_NEGCTX_H */
