// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Negotiate contexts.  Every length is checked against the context it sits
 * in, and the 8-byte padding between contexts is checked against what is
 * left before it is skipped (CVE-2023-38427 was that subtraction wrapping).
 */
#include "negctx.h"
#include "ntstatus.h"

static const u8 posix_guid[16] = SMB2_POSIX_NEGCTX_GUID;

/* An array of count le16 ids at data[at..]; must fit in the data. */
static bool take_ids(const struct ksmbd_buf *data, u32 at, u16 count,
		     struct ksmbd_buf *ids)
{
	if (!count)
		return false;
	return ksmbd_buf_sub(data, at, (u32)count * 2, ids);
}

static u32 parse_preauth(const struct ksmbd_buf *d, struct ksmbd_negctx_offer *o)
{
	struct ksmbd_buf algs;
	u16 count, salt_len;
	u32 i;

	if (!ksmbd_buf_get_le16(d, 0, &count) ||
	    !ksmbd_buf_get_le16(d, 2, &salt_len))
		return STATUS_INVALID_PARAMETER;
	if (!take_ids(d, 4, count, &algs))
		return STATUS_INVALID_PARAMETER;
	if (!ksmbd_buf_sub(d, 4 + (u32)count * 2, salt_len, &o->salt))
		return STATUS_INVALID_PARAMETER;
	for (i = 0; i < count; i++)
		if (get_unaligned_le16(algs.p + i * 2) == SMB2_PREAUTH_INTEGRITY_SHA512)
			o->preauth_sha512 = true;
	o->has_preauth = true;
	return STATUS_SUCCESS;
}

static u32 parse_id_list(const struct ksmbd_buf *d, u32 count_at, u32 ids_at,
			 struct ksmbd_buf *ids)
{
	u16 count;

	if (!ksmbd_buf_get_le16(d, count_at, &count))
		return STATUS_INVALID_PARAMETER;
	if (!take_ids(d, ids_at, count, ids))
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

static u32 parse_one(u16 type, const struct ksmbd_buf *d,
		     struct ksmbd_negctx_offer *o)
{
	struct ksmbd_buf unused;

	switch (type) {
	case SMB2_PREAUTH_INTEGRITY_CAPABILITIES:
		if (o->has_preauth)
			return STATUS_INVALID_PARAMETER;
		return parse_preauth(d, o);
	case SMB2_ENCRYPTION_CAPABILITIES:
		if (o->has_encryption)
			return STATUS_INVALID_PARAMETER;
		o->has_encryption = true;
		return parse_id_list(d, 0, 2, &o->ciphers);
	case SMB2_SIGNING_CAPABILITIES:
		if (o->has_signing)
			return STATUS_INVALID_PARAMETER;
		o->has_signing = true;
		return parse_id_list(d, 0, 2, &o->signing_algs);
	case SMB2_COMPRESSION_CAPABILITIES:
		if (o->has_compression)
			return STATUS_INVALID_PARAMETER;
		o->has_compression = true;
		if (!ksmbd_buf_get_le32(d, 4, &o->compression_flags))
			return STATUS_INVALID_PARAMETER;
		return parse_id_list(d, 0, 8, &o->compression_algs);
	case SMB2_RDMA_TRANSFORM_CAPABILITIES:
		if (o->has_rdma_transform)
			return STATUS_INVALID_PARAMETER;
		o->has_rdma_transform = true;
		return parse_id_list(d, 0, 8, &unused);
	case SMB2_TRANSPORT_CAPABILITIES:
		if (o->has_transport)
			return STATUS_INVALID_PARAMETER;
		o->has_transport = true;
		return ksmbd_buf_get_le32(d, 0, &o->transport_flags) ?
		       STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
	case SMB2_NETNAME_NEGOTIATE_CONTEXT_ID:
		if (d->len & 1)
			return STATUS_INVALID_PARAMETER;
		o->has_netname = true;
		o->netname = *d;
		return STATUS_SUCCESS;
	case SMB2_POSIX_EXTENSIONS_AVAILABLE:
		if (d->len >= sizeof(posix_guid) &&
		    !memcmp(d->p, posix_guid, sizeof(posix_guid)))
			o->posix = true;
		return STATUS_SUCCESS;
	default:
		/* MS-SMB2 3.3.5.4: unknown context types are ignored. */
		return STATUS_SUCCESS;
	}
}

u32 ksmbd_negctx_parse(const struct ksmbd_buf *list, u16 count,
		       struct ksmbd_negctx_offer *offer)
{
	u32 pos = 0, i, st;

	memset(offer, 0, sizeof(*offer));
	if (!count || count > KSMBD_NEGCTX_MAX_COUNT)
		return STATUS_INVALID_PARAMETER;

	for (i = 0; i < count; i++) {
		struct ksmbd_buf data;
		u16 type, dlen;

		if (i) {
			/* Padding to the next context, checked before use. */
			u32 pad = (8 - (pos & 7)) & 7;

			if (pad > list->len - pos)
				return STATUS_INVALID_PARAMETER;
			pos += pad;
		}
		if (!ksmbd_buf_get_le16(list, pos, &type) ||
		    !ksmbd_buf_get_le16(list, pos + 2, &dlen))
			return STATUS_INVALID_PARAMETER;
		if (!ksmbd_buf_sub(list, pos + sizeof(struct smb2_neg_context),
				   dlen, &data))
			return STATUS_INVALID_PARAMETER;
		st = parse_one(type, &data, offer);
		if (st != STATUS_SUCCESS)
			return st;
		pos += sizeof(struct smb2_neg_context) + dlen;
	}

	if (!offer->has_preauth)
		return STATUS_INVALID_PARAMETER;
	if (!offer->preauth_sha512)
		return STATUS_SMB_NO_PREAUTH_INTEGRITY_HASH_OVERLAP;
	return STATUS_SUCCESS;
}

bool ksmbd_negctx_has_id(const struct ksmbd_buf *ids, u16 id)
{
	u32 i;

	for (i = 0; i + 1 < ids->len; i += 2)
		if (get_unaligned_le16(ids->p + i) == id)
			return true;
	return false;
}

u16 ksmbd_negctx_pick(const struct ksmbd_buf *ids, const u16 *prefs,
		      u32 nprefs, u16 fallback)
{
	u32 i;

	for (i = 0; i < nprefs; i++)
		if (ksmbd_negctx_has_id(ids, prefs[i]))
			return prefs[i];
	return fallback;
}

/* Header of one response context; the caller writes dlen bytes after it. */
static void put_ctx_hdr(struct ksmbd_wbuf *w, u16 *count, u16 type, u16 dlen)
{
	if (*count)
		ksmbd_wbuf_pad(w, 8);
	ksmbd_wbuf_put_le16(w, type);
	ksmbd_wbuf_put_le16(w, dlen);
	ksmbd_wbuf_put_le32(w, 0);
	(*count)++;
}

int ksmbd_negctx_build(const struct ksmbd_negctx_choice *c, u8 *out,
		       u32 cap, u32 *len, u16 *count)
{
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, cap);
	u16 n = 0;

	if (!c->salt)
		return -EINVAL;
	put_ctx_hdr(&w, &n, SMB2_PREAUTH_INTEGRITY_CAPABILITIES,
		    4 + 2 + SMB2_PREAUTH_SALT_SIZE);
	ksmbd_wbuf_put_le16(&w, 1);
	ksmbd_wbuf_put_le16(&w, SMB2_PREAUTH_SALT_SIZE);
	ksmbd_wbuf_put_le16(&w, SMB2_PREAUTH_INTEGRITY_SHA512);
	ksmbd_wbuf_put(&w, c->salt, SMB2_PREAUTH_SALT_SIZE);

	if (c->encryption) {
		put_ctx_hdr(&w, &n, SMB2_ENCRYPTION_CAPABILITIES, 4);
		ksmbd_wbuf_put_le16(&w, 1);
		ksmbd_wbuf_put_le16(&w, c->cipher);
	}
	if (c->signing) {
		put_ctx_hdr(&w, &n, SMB2_SIGNING_CAPABILITIES, 4);
		ksmbd_wbuf_put_le16(&w, 1);
		ksmbd_wbuf_put_le16(&w, c->signing_alg);
	}
	if (c->compression) {
		put_ctx_hdr(&w, &n, SMB2_COMPRESSION_CAPABILITIES, 10);
		ksmbd_wbuf_put_le16(&w, 1);
		ksmbd_wbuf_put_le16(&w, 0);
		ksmbd_wbuf_put_le32(&w, SMB2_COMPRESSION_CAPABILITIES_FLAG_NONE);
		ksmbd_wbuf_put_le16(&w, SMB2_COMPRESSION_NONE);
	}
	if (c->posix) {
		put_ctx_hdr(&w, &n, SMB2_POSIX_EXTENSIONS_AVAILABLE,
			    sizeof(posix_guid));
		ksmbd_wbuf_put(&w, posix_guid, sizeof(posix_guid));
	}
	if (w.overflow)
		return -ENOSPC;
	*len = w.len;
	*count = n;
	return 0;
}
