// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The write buffer over reused memory: the module's response buffers keep
 * an earlier response's bytes (work.c), so what ksmbd_wbuf_reserve hands
 * out must be zero, and what a nested writer filled in place must survive
 * its commit with ksmbd_wbuf_reserve_raw.
 */
#include "testlib.h"
#include "proto/buf.h"

static bool all(const u8 *p, u32 n, u8 v)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

TEST(reserve_zeroes_stale_bytes)
{
	u8 mem[64];
	struct ksmbd_wbuf w;
	u8 *at;

	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_wbuf_put_le16(&w, 0x1234);
	at = ksmbd_wbuf_reserve(&w, 20);
	CHECK(at == mem + 2);
	CHECK(all(at, 20, 0));
	CHECK_EQ_INT(w.len, 22);
	CHECK(all(mem + 22, sizeof(mem) - 22, 0xa5));	/* nothing past len */
	ksmbd_wbuf_pad(&w, 8);
	CHECK_EQ_INT(w.len, 24);
	CHECK(all(mem + 22, 2, 0));
}

TEST(raw_keeps_nested_writes)
{
	u8 mem[64];
	struct ksmbd_wbuf w, inner;

	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_wbuf_put_le32(&w, 7);
	/* The QUERY_INFO and QUERY_DIRECTORY pattern: fill, then commit. */
	inner = ksmbd_wbuf_make(w.p + w.len, w.cap - w.len);
	ksmbd_wbuf_put_le64(&inner, 0x0102030405060708ULL);
	ksmbd_wbuf_reserve(&inner, 4);
	CHECK(ksmbd_wbuf_reserve_raw(&w, inner.len) == mem + 4);
	CHECK_EQ_INT(w.len, 16);
	CHECK_EQ_INT(get_unaligned_le64(mem + 4), 0x0102030405060708ULL);
	CHECK(all(mem + 12, 4, 0));
	CHECK(all(mem + 16, sizeof(mem) - 16, 0xa5));
}

TEST(overflow_reserves_nothing)
{
	u8 mem[16];
	struct ksmbd_wbuf w;

	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, 8);
	CHECK(ksmbd_wbuf_reserve(&w, 9) == NULL);
	CHECK(w.overflow);
	CHECK_EQ_INT(w.len, 0);
	CHECK(all(mem, sizeof(mem), 0xa5));
	CHECK(ksmbd_wbuf_reserve(&w, 1) == NULL);	/* stays overflowed */
	CHECK(ksmbd_wbuf_reserve_raw(&w, 1) == NULL);
}

int main(void)
{
	RUN(reserve_zeroes_stale_bytes);
	RUN(raw_keeps_nested_writes);
	RUN(overflow_reserves_nothing);
	return test_report();
}
