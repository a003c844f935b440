/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bounded accessors.  Every parser in proto/ reads client bytes only through
 * a struct ksmbd_buf: a pointer and a length that were themselves checked
 * against the enclosing buffer.  Reads past the end fail instead of reading.
 */
#ifndef KSMBD_PROTO_BUF_H
#define KSMBD_PROTO_BUF_H

#include "shim.h"

struct ksmbd_buf {
	const u8 *p;
	u32 len;
};

/* Output side: a fixed-size buffer that records overflow instead of writing. */
struct ksmbd_wbuf {
	u8 *p;
	u32 cap;
	u32 len;
	bool overflow;
};

static inline struct ksmbd_buf ksmbd_buf_make(const void *p, u32 len)
{
	struct ksmbd_buf b = { .p = p, .len = len };

	return b;
}

/* True when [off, off + len) lies inside a buffer of size total. */
static inline bool ksmbd_range_ok(u32 total, u32 off, u32 len)
{
	return off <= total && len <= total - off;
}

static inline bool ksmbd_buf_sub(const struct ksmbd_buf *b, u32 off, u32 len,
				 struct ksmbd_buf *out)
{
	if (!ksmbd_range_ok(b->len, off, len))
		return false;
	out->p = b->p + off;
	out->len = len;
	return true;
}

static inline bool ksmbd_buf_get_u8(const struct ksmbd_buf *b, u32 off, u8 *v)
{
	if (!ksmbd_range_ok(b->len, off, 1))
		return false;
	*v = b->p[off];
	return true;
}

static inline bool ksmbd_buf_get_le16(const struct ksmbd_buf *b, u32 off, u16 *v)
{
	if (!ksmbd_range_ok(b->len, off, 2))
		return false;
	*v = get_unaligned_le16(b->p + off);
	return true;
}

static inline bool ksmbd_buf_get_le32(const struct ksmbd_buf *b, u32 off, u32 *v)
{
	if (!ksmbd_range_ok(b->len, off, 4))
		return false;
	*v = get_unaligned_le32(b->p + off);
	return true;
}

static inline bool ksmbd_buf_get_le64(const struct ksmbd_buf *b, u32 off, u64 *v)
{
	if (!ksmbd_range_ok(b->len, off, 8))
		return false;
	*v = get_unaligned_le64(b->p + off);
	return true;
}

static inline struct ksmbd_wbuf ksmbd_wbuf_make(void *p, u32 cap)
{
	struct ksmbd_wbuf w = { .p = p, .cap = cap, .len = 0, .overflow = false };

	return w;
}

/*
 * Reserve n bytes the caller writes in full at once (file data read into
 * place); NULL (and the overflow mark) when they do not fit.
 */
static inline u8 *ksmbd_wbuf_reserve_raw(struct ksmbd_wbuf *w, u32 n)
{
	u8 *at;

	if (w->overflow || !ksmbd_range_ok(w->cap, w->len, n)) {
		w->overflow = true;
		return NULL;
	}
	at = w->p + w->len;
	w->len += n;
	return at;
}

/*
 * Reserve n zeroed bytes. Zeroed here, not by the allocator: the module's
 * response buffers are reused (work.c), and a field a writer skips must
 * read as zero, never as an earlier response's bytes.
 */
static inline u8 *ksmbd_wbuf_reserve(struct ksmbd_wbuf *w, u32 n)
{
	u8 *at = ksmbd_wbuf_reserve_raw(w, n);

	if (at && n)
		memset(at, 0, n);
	return at;
}

static inline void ksmbd_wbuf_put(struct ksmbd_wbuf *w, const void *src, u32 n)
{
	u8 *at = ksmbd_wbuf_reserve(w, n);

	if (at && n)
		memcpy(at, src, n);
}

static inline void ksmbd_wbuf_put_u8(struct ksmbd_wbuf *w, u8 v)
{
	ksmbd_wbuf_put(w, &v, 1);
}

static inline void ksmbd_wbuf_put_le16(struct ksmbd_wbuf *w, u16 v)
{
	u8 *at = ksmbd_wbuf_reserve(w, 2);

	if (at)
		put_unaligned_le16(v, at);
}

static inline void ksmbd_wbuf_put_le32(struct ksmbd_wbuf *w, u32 v)
{
	u8 *at = ksmbd_wbuf_reserve(w, 4);

	if (at)
		put_unaligned_le32(v, at);
}

static inline void ksmbd_wbuf_put_le64(struct ksmbd_wbuf *w, u64 v)
{
	u8 *at = ksmbd_wbuf_reserve(w, 8);

	if (at)
		put_unaligned_le64(v, at);
}

/* Zero padding up to the next multiple of a (a power of two). */
static inline void ksmbd_wbuf_pad(struct ksmbd_wbuf *w, u32 a)
{
	u32 pad = (a - (w->len & (a - 1))) & (a - 1);
	u8 *at = ksmbd_wbuf_reserve(w, pad);

	if (at && pad)
		memset(at, 0, pad);
}

/* Constant-time comparison for MACs and proofs: 0 when equal. */
static inline int ksmbd_memneq(const void *a, const void *b, size_t n)
{
	const volatile u8 *x = a, *y = b;
	u8 acc = 0;
	size_t i;

	for (i = 0; i < n; i++)
		acc |= x[i] ^ y[i];
	return acc != 0;
}

#endif /* KSMBD_PROTO_BUF_H */
