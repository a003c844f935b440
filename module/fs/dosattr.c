// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * user.DOSATTRIB encode/decode; the layout is described in dosattr.h.
 * The blob comes from disk, where anyone with write access to the file
 * may have put anything: every read is bounds-checked.
 */
#include "dosattr.h"
#include "proto/buf.h"

/* A little NDR reader: position, alignment from the start, bounds. */
struct ndr_in {
	struct ksmbd_buf b;
	u32 pos;
	bool bad;
};

static void ndr_align(struct ndr_in *n, u32 a)
{
	n->pos = ALIGN(n->pos, a);
	if (n->pos > n->b.len)
		n->bad = true;
}

static u16 ndr_u16(struct ndr_in *n)
{
	u16 v = 0;

	ndr_align(n, 2);
	if (n->bad || !ksmbd_buf_get_le16(&n->b, n->pos, &v))
		n->bad = true;
	n->pos += 2;
	return v;
}

static u32 ndr_u32(struct ndr_in *n)
{
	u32 v = 0;

	ndr_align(n, 4);
	if (n->bad || !ksmbd_buf_get_le32(&n->b, n->pos, &v))
		n->bad = true;
	n->pos += 4;
	return v;
}

/* udlong / NTTIME: 64 bits on 4-byte alignment */
static u64 ndr_u64(struct ndr_in *n)
{
	u64 lo = ndr_u32(n);

	return lo | ((u64)ndr_u32(n) << 32);
}

/* The pre-NDR format: only "0x<hex>" */
static int decode_hex_only(const u8 *s, u32 len, struct ksmbd_dosattr *da)
{
	u32 i, v = 0;

	if (len < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || len > 10)
		return -EINVAL;
	for (i = 2; i < len; i++) {
		u8 c = s[i];

		if (c >= '0' && c <= '9')
			v = (v << 4) | (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = (v << 4) | (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = (v << 4) | (c - 'A' + 10);
		else
			return -EINVAL;
	}
	da->version = 0;
	da->valid = KSMBD_DOSINFO_ATTRIB;
	da->attrib = v;
	return 0;
}

static void decode_info(struct ndr_in *n, struct ksmbd_dosattr *da)
{
	if (da->version == 1)
		da->valid = KSMBD_DOSINFO_ATTRIB | KSMBD_DOSINFO_EA_SIZE |
			    KSMBD_DOSINFO_SIZE | KSMBD_DOSINFO_ALLOC_SIZE |
			    KSMBD_DOSINFO_CREATE_TIME |
			    KSMBD_DOSINFO_CHANGE_TIME;
	else
		da->valid = ndr_u32(n);
	da->attrib = ndr_u32(n);
	switch (da->version) {
	case 1:
	case 3:
		ndr_u32(n);		/* ea_size */
		ndr_u64(n);		/* size */
		ndr_u64(n);		/* alloc_size */
		da->create_time = ndr_u64(n);
		da->change_time = ndr_u64(n);
		break;
	case 4:
		da->itime = ndr_u64(n);
		da->create_time = ndr_u64(n);
		break;
	default:
		da->create_time = ndr_u64(n);
		break;
	}
}

int ksmbd_dosattr_decode(const u8 *blob, u32 len, struct ksmbd_dosattr *da)
{
	struct ndr_in n = { .b = ksmbd_buf_make(blob, len) };
	const u8 *nul;
	u16 level;

	memset(da, 0, sizeof(*da));
	nul = len ? memchr(blob, 0, len) : NULL;
	if (!nul)
		return decode_hex_only(blob, len, da);
	n.pos = (u32)(nul - blob) + 1;
	if (n.pos == len)
		return decode_hex_only(blob, n.pos - 1, da);
	da->version = ndr_u16(&n);
	level = ndr_u16(&n);
	if (n.bad || level != da->version)
		return -EINVAL;
	if (da->version != 1 && (da->version < 3 || da->version > 5))
		return -EOPNOTSUPP;
	decode_info(&n, da);
	return n.bad ? -EINVAL : 0;
}

int ksmbd_dosattr_encode(u32 attrib, u64 create_time, bool has_create,
			 u8 *out, u32 cap)
{
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, cap);
	u32 valid = KSMBD_DOSINFO_ATTRIB;

	if (has_create)
		valid |= KSMBD_DOSINFO_CREATE_TIME;
	ksmbd_wbuf_put_u8(&w, 0);	/* attrib_hex "" */
	ksmbd_wbuf_pad(&w, 2);
	ksmbd_wbuf_put_le16(&w, 5);	/* version */
	ksmbd_wbuf_put_le16(&w, 5);	/* union level */
	ksmbd_wbuf_pad(&w, 4);
	ksmbd_wbuf_put_le32(&w, valid);
	ksmbd_wbuf_put_le32(&w, attrib);
	ksmbd_wbuf_put_le64(&w, has_create ? create_time : 0);
	return w.overflow ? -ENOSPC : (int)w.len;
}
