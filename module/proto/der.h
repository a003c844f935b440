/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small bounds-checked ASN.1 DER reader and writer: single-byte tags,
 * definite lengths of at most 4 length bytes, values never longer than
 * what remains, constructed nesting bounded by KSMBD_DER_MAX_DEPTH.
 */
#ifndef KSMBD_PROTO_DER_H
#define KSMBD_PROTO_DER_H

#include "shim.h"
#include "buf.h"

#define KSMBD_DER_MAX_DEPTH	8

enum {
	DER_BOOLEAN		= 0x01,
	DER_INTEGER		= 0x02,
	DER_BIT_STRING		= 0x03,
	DER_OCTET_STRING	= 0x04,
	DER_OID			= 0x06,
	DER_ENUMERATED		= 0x0a,
	DER_GENERAL_STRING	= 0x1b,
	DER_SEQUENCE		= 0x30,
	DER_APPLICATION_0	= 0x60,
	DER_CONSTRUCTED		= 0x20,
};

#define DER_CONTEXT(n)	(0xa0 | (n))	/* [n] constructed, context class */

/*
 * Read one TLV from the front of *in, advancing it.  -EBADMSG for a
 * high-number tag, an indefinite or over-long length, or a value running
 * past the end; -ENODATA when *in is empty.
 */
int ksmbd_der_read(struct ksmbd_buf *in, u8 *tag, struct ksmbd_buf *value);

/* As ksmbd_der_read(), but the tag must be `tag` (-EBADMSG otherwise). */
int ksmbd_der_expect(struct ksmbd_buf *in, u8 tag, struct ksmbd_buf *value);

/* Walk everything in buf; at most depth levels of constructed values. */
int ksmbd_der_check(const struct ksmbd_buf *buf, u32 depth);

/* Is this OID value (content octets) equal to the given encoding? */
bool ksmbd_der_oid_eq(const struct ksmbd_buf *oid, const u8 *enc, u32 enc_len);

/* Bytes a TLV with a value of len bytes occupies. */
u32 ksmbd_der_tlv_size(u32 len);

/* Append tag and length (the caller appends the len value bytes). */
void ksmbd_der_put_hdr(struct ksmbd_wbuf *w, u8 tag, u32 len);

#endif /* KSMBD_PROTO_DER_H */
