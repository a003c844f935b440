// SPDX-License-Identifier: GPL-2.0-or-later
#include "samples.h"
#include "proto/smb2.h"


static void put16(u8 *b, u32 at, u16 v) { put_unaligned_le16(v, b + at); }
static void put32(u8 *b, u32 at, u32 v) { put_unaligned_le32(v, b + at); }

u32 sample_hdr(u8 *buf, u16 command, u64 message_id)
{
	memset(buf, 0, 64);
	buf[0] = 0xfe; buf[1] = 'S'; buf[2] = 'M'; buf[3] = 'B';
	put16(buf, 4, 64);
	put16(buf, 6, 1);		/* CreditCharge */
	put16(buf, 12, command);
	put16(buf, 14, 1);		/* CreditRequest */
	put_unaligned_le64(message_id, buf + 24);
	put32(buf, 36, 1);		/* TreeId */
	put_unaligned_le64(0x1122334455667788ULL, buf + 40);
	return 64;
}

static u32 put_utf16(u8 *b, const char *s)
{
	u32 n = 0;

	for (; *s; s++, n += 2)
		put16(b, n, (u8)*s);
	return n;
}

u32 sample_negctx_list(u8 *b, u32 cap, u16 *count)
{
	static const u8 posix[16] = SMB2_POSIX_NEGCTX_GUID;
	u32 p = 0, i;

	if (cap < 200)
		return 0;
	memset(b, 0, 200);
	/* preauth: 1 hash, 32-byte salt */
	put16(b, p, 1); put16(b, p + 2, 38); p += 8;
	put16(b, p, 1); put16(b, p + 2, 32); put16(b, p + 4, 1);
	for (i = 0; i < 32; i++)
		b[p + 6 + i] = (u8)i;
	p += 38;
	p = (p + 7) & ~7u;
	/* encryption: GCM-128, CCM-128 */
	put16(b, p, 2); put16(b, p + 2, 6); p += 8;
	put16(b, p, 2); put16(b, p + 2, 2); put16(b, p + 4, 1);
	p += 6;
	p = (p + 7) & ~7u;
	/* signing: AES-CMAC, HMAC-SHA256 */
	put16(b, p, 8); put16(b, p + 2, 6); p += 8;
	put16(b, p, 2); put16(b, p + 2, 1); put16(b, p + 4, 0);
	p += 6;
	p = (p + 7) & ~7u;
	/* netname "srv" */
	put16(b, p, 5); put16(b, p + 2, 6); p += 8;
	p += put_utf16(b + p, "srv");
	p = (p + 7) & ~7u;
	/* posix */
	put16(b, p, 0x100); put16(b, p + 2, 16); p += 8;
	memcpy(b + p, posix, 16);
	p += 16;
	*count = 5;
	return p;
}

static u32 body_negotiate(u8 *b, u32 cap)
{
	static const u16 dialects[] = { 0x0202, 0x0210, 0x0300, 0x0302, 0x0311 };
	u32 p = 64 + 36, i;
	u16 count;

	put16(b, 64, 36);
	put16(b, 66, 5);
	put16(b, 68, 1);
	put32(b, 72, 0x7f);
	for (i = 0; i < 16; i++)
		b[76 + i] = (u8)(0xa0 + i);
	for (i = 0; i < 5; i++, p += 2)
		put16(b, p, dialects[i]);
	p = (p + 7) & ~7u;
	put32(b, 92, p);
	p += sample_negctx_list(b + p, cap - p, &count);
	put16(b, 96, count);
	return p;
}

static u32 body_create(u8 *b)
{
	u32 ctx;

	put16(b, 64, 57);
	b[67] = 0xff;			/* lease */
	put32(b, 68, 2);		/* impersonation */
	put32(b, 88, 0x0012019f);
	put32(b, 96, 7);
	put32(b, 100, 1);
	put16(b, 108, 120);
	put16(b, 110, put_utf16(b + 120, "a.txt"));
	ctx = 136;
	put32(b, 112, ctx);
	/* "MxAc" (no data), then "DHnQ" with 16 bytes of data */
	put32(b, ctx, 24);
	put16(b, ctx + 4, 16); put16(b, ctx + 6, 4);
	memcpy(b + ctx + 16, "MxAc", 4);
	put16(b, ctx + 24 + 4, 16); put16(b, ctx + 24 + 6, 4);
	memcpy(b + ctx + 24 + 16, "DHnQ", 4);
	put16(b, ctx + 24 + 10, 24); put32(b, ctx + 24 + 12, 16);
	put32(b, 116, 24 + 40);
	return ctx + 24 + 40;
}

u32 sample_request(u16 cmd, u8 *b, u32 cap)
{
	u32 len;

	if (cap < 512)
		return 0;
	memset(b, 0, 512);
	sample_hdr(b, cmd, 7);
	switch (cmd) {
	case SMB2_NEGOTIATE:
		return body_negotiate(b, cap);
	case SMB2_SESSION_SETUP:
		put16(b, 64, 25);
		b[67] = 1;
		put16(b, 76, 88);
		put16(b, 78, 16);
		memcpy(b + 88, "NTLMSSP\0\1\0\0\0\x97\x82\x08\xe2", 16);
		return 104;
	case SMB2_LOGOFF:
	case SMB2_TREE_DISCONNECT:
	case SMB2_ECHO:
	case SMB2_CANCEL:
		put16(b, 64, 4);
		return 68;
	case SMB2_TREE_CONNECT:
		put16(b, 64, 9);
		put16(b, 68, 72);
		len = put_utf16(b + 72, "\\\\srv\\share");
		put16(b, 70, len);
		return 72 + len;
	case SMB2_CREATE:
		return body_create(b);
	case SMB2_CLOSE:
	case SMB2_FLUSH:
		put16(b, 64, 24);
		put_unaligned_le64(5, b + 72);
		return 88;
	case SMB2_READ:
		put16(b, 64, 49);
		put32(b, 68, 65536);
		put32(b, 104, 1);
		return 64 + 56;		/* room for a channel-info buffer */
	case SMB2_WRITE:
		put16(b, 64, 49);
		put16(b, 66, 112);
		put32(b, 68, 16);
		memset(b + 112, 'w', 16);
		return 128;
	case SMB2_LOCK:
		put16(b, 64, 48);
		put16(b, 66, 1);
		put_unaligned_le64(100, b + 96);
		put32(b, 104, 2);
		return 64 + 48;
	case SMB2_IOCTL:
		put16(b, 64, 57);
		put32(b, 68, 0x0011c017);
		put32(b, 88, 120);
		put32(b, 92, 8);
		put32(b, 108, 4096);
		put32(b, 112, 1);
		memset(b + 120, 'i', 8);
		return 128;
	case SMB2_QUERY_DIRECTORY:
		put16(b, 64, 33);
		b[66] = 0x25;
		put16(b, 88, 96);
		put16(b, 90, 2);
		put32(b, 92, 65536);
		b[96] = '*';
		return 98;
	case SMB2_CHANGE_NOTIFY:
		put16(b, 64, 32);
		put32(b, 68, 4096);
		put32(b, 88, 0x17);
		return 96;
	case SMB2_QUERY_INFO:
		put16(b, 64, 41);
		b[66] = 1;
		b[67] = 0x12;
		put32(b, 68, 4096);
		put16(b, 72, 104);
		put32(b, 76, 8);
		return 112;
	case SMB2_SET_INFO:
		put16(b, 64, 33);
		b[66] = 1;
		b[67] = 0x14;
		put32(b, 68, 8);
		put16(b, 72, 96);
		put_unaligned_le64(4096, b + 96);
		return 104;
	case SMB2_OPLOCK_BREAK:
		put16(b, 64, 24);
		return 88;
	default:
		return 0;
	}
}

u32 sample_compound(u8 *buf, u32 cap, const u16 *cmds, u32 n)
{
	u8 elem[512];
	u32 off = 0, prev = 0, i, len;

	for (i = 0; i < n; i++) {
		len = sample_request(cmds[i], elem, sizeof(elem));
		if (!len)
			return 0;
		if (i) {
			off = (off + 7) & ~7u;
			put32(buf, prev + 20, off - prev);
			put32(elem, 16, 4);	/* related */
		}
		if (off + len > cap)
			return 0;
		memcpy(buf + off, elem, len);
		/* zero the alignment gap so padding is deterministic */
		prev = off;
		off += len;
		if (i + 1 < n && ((off + 7) & ~7u) <= cap)
			memset(buf + off, 0, ((off + 7) & ~7u) - off);
	}
	return off;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

u32 sample_unhex(const char *hex, u8 *out, u32 cap)
{
	u32 n = 0;
	int hi = -1, v;

	for (; *hex; hex++) {
		if (*hex == ' ' || *hex == '\n' || *hex == '\t')
			continue;
		v = hexval(*hex);
		if (v < 0)
			return 0;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n == cap)
			return 0;
		out[n++] = (u8)(hi << 4 | v);
		hi = -1;
	}
	return hi < 0 ? n : 0;
}
