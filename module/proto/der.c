// SPDX-License-Identifier: GPL-2.0-or-later
#include "der.h"

int ksmbd_der_read(struct ksmbd_buf *in, u8 *tag, struct ksmbd_buf *value)
{
	u32 pos = 2, len, n, i;

	if (!in->len)
		return -ENODATA;
	if (in->len < 2 || (in->p[0] & 0x1f) == 0x1f)
		return -EBADMSG;
	*tag = in->p[0];
	len = in->p[1];
	if (len & 0x80) {
		n = len & 0x7f;
		/* 0x80 is BER's indefinite form; DER has none. */
		if (!n || n > 4 || in->len - 2 < n)
			return -EBADMSG;
		for (len = 0, i = 0; i < n; i++)
			len = (len << 8) | in->p[2 + i];
		pos += n;
	}
	if (len > in->len - pos)
		return -EBADMSG;
	value->p = in->p + pos;
	value->len = len;
	in->p += pos + len;
	in->len -= pos + len;
	return 0;
}

int ksmbd_der_expect(struct ksmbd_buf *in, u8 tag, struct ksmbd_buf *value)
{
	u8 got;
	int rc = ksmbd_der_read(in, &got, value);

	if (rc == -ENODATA)
		return -EBADMSG;
	if (rc)
		return rc;
	return got == tag ? 0 : -EBADMSG;
}

int ksmbd_der_check(const struct ksmbd_buf *buf, u32 depth)
{
	struct ksmbd_buf in = *buf, v;
	u8 tag;
	int rc;

	while ((rc = ksmbd_der_read(&in, &tag, &v)) == 0) {
		if (tag & DER_CONSTRUCTED) {
			/* depth counts constructed levels still allowed */
			if (!depth)
				return -EBADMSG;
			rc = ksmbd_der_check(&v, depth - 1);
			if (rc)
				return rc;
		}
	}
	return rc == -ENODATA ? 0 : rc;
}

bool ksmbd_der_oid_eq(const struct ksmbd_buf *oid, const u8 *enc, u32 enc_len)
{
	return oid->len == enc_len && !memcmp(oid->p, enc, enc_len);
}

static u32 len_bytes(u32 len)
{
	if (len < 0x80)
		return 0;
	if (len <= 0xff)
		return 1;
	if (len <= 0xffff)
		return 2;
	if (len <= 0xffffff)
		return 3;
	return 4;
}

u32 ksmbd_der_tlv_size(u32 len)
{
	return 2 + len_bytes(len) + len;
}

void ksmbd_der_put_hdr(struct ksmbd_wbuf *w, u8 tag, u32 len)
{
	u32 n = len_bytes(len);

	ksmbd_wbuf_put_u8(w, tag);
	if (!n) {
		ksmbd_wbuf_put_u8(w, (u8)len);
		return;
	}
	ksmbd_wbuf_put_u8(w, (u8)(0x80 | n));
	while (n--)
		ksmbd_wbuf_put_u8(w, (u8)(len >> (8 * n)));
}
