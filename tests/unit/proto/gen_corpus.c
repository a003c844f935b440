// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes the seed corpora for the proto fuzzers from the same samples and
 * published vectors the unit tests use: gen_corpus tests/fuzz/corpus
 */
#include "proto/negctx.h"
#include "proto/ntlmssp.h"
#include "proto/smb2.h"
#include "proto/spnego.h"
#include "samples.h"
#include "vectors.h"

#include <stdio.h>

static const char *root;
static int failures;

static void put(const char *dir, const char *name, const u8 *p, u32 len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", root, dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, len, f) != len) {
		perror(path);
		failures++;
	}
	if (f)
		fclose(f);
}

static struct ksmbd_buf blob_of(u8 *m, u32 n)
{
	u32 off, len;

	if (m[64] == 25) {
		off = get_unaligned_le16(m + 76);
		len = get_unaligned_le16(m + 78);
	} else if (m[64] == 65) {
		off = get_unaligned_le16(m + 120);
		len = get_unaligned_le16(m + 122);
	} else {
		off = get_unaligned_le16(m + 68);
		len = get_unaligned_le16(m + 70);
	}
	return off + len <= n ? ksmbd_buf_make(m + off, len) : ksmbd_buf_make(m, 0);
}

static void frames(void)
{
	static const u16 chain[] = { SMB2_CREATE, SMB2_QUERY_INFO, SMB2_CLOSE };
	static const char *const w10[] = {
		W10_NEGOTIATE_REQ, W10_SESS_SETUP_REQ1, W10_SESS_SETUP_REQ2,
	};
	u8 b[2048];
	char name[32];
	u32 n, i;

	for (i = 0; i < SMB2_COMMAND_COUNT; i++) {
		n = sample_request((u16)i, b, sizeof(b));
		snprintf(name, sizeof(name), "cmd-%02x", i);
		put("frame", name, b, n);
	}
	n = sample_compound(b, sizeof(b), chain, 3);
	put("frame", "compound-create-qinfo-close", b, n);
	for (i = 0; i < 3; i++) {
		n = sample_unhex(w10[i], b, sizeof(b));
		snprintf(name, sizeof(name), "win10-%u", i);
		put("frame", name, b, n);
	}
}

/* An IOCTL (FSCTL) element carrying input; returns its length. */
static u32 ioctl_with(u8 *b, u32 cap, u32 code, const u8 *in, u32 n)
{
	u32 len = sample_request(SMB2_IOCTL, b, cap);

	if (!len || 120 + n > cap)
		return 0;
	put_unaligned_le32(code, b + 68);
	put_unaligned_le32(n, b + 92);
	memcpy(b + 120, in, n);
	return 120 + n;
}

/* A SET_INFO (file class) element carrying buf; returns its length. */
static u32 setinfo_with(u8 *b, u32 cap, u8 cls, const u8 *in, u32 n)
{
	u32 len = sample_request(SMB2_SET_INFO, b, cap);

	if (!len || 96 + n > cap)
		return 0;
	b[67] = cls;
	put_unaligned_le32(n, b + 68);
	memcpy(b + 96, in, n);
	return 96 + n;
}

/*
 * One create context at b: name, then data (zeros, the caller fills) at
 * the next 8-byte boundary; returns the data's offset from b.
 */
static u32 put_ctx(u8 *b, const void *name, u16 nlen, u32 dlen)
{
	u16 doff = (u16)((16 + nlen + 7) & ~7u);

	memset(b, 0, doff + dlen);
	put_unaligned_le16(16, b + 4);
	put_unaligned_le16(nlen, b + 6);
	put_unaligned_le16(doff, b + 10);
	put_unaligned_le32(dlen, b + 12);
	memcpy(b + 16, name, nlen);
	return doff;
}

/* A CREATE asking for a v2 lease, an allocation size and an app instance. */
static u32 create_with_contexts(u8 *b, u32 cap)
{
	static const u8 app[16] = {
		0x45, 0xbc, 0xa6, 0x6a, 0xef, 0xa7, 0xf7, 0x4a,
		0x90, 0x08, 0xfa, 0x46, 0x2e, 0x14, 0x4d, 0x74,
	};
	u32 at = 136, d, start = 136;

	if (!sample_request(SMB2_CREATE, b, cap) || cap < 512)
		return 0;
	d = put_ctx(b + at, "RqLs", 4, 52);
	memset(b + at + d, 0x11, 16);			/* LeaseKey */
	put_unaligned_le32(7, b + at + d + 16);		/* RWH */
	put_unaligned_le32(4, b + at + d + 20);		/* parent key set */
	memset(b + at + d + 32, 0x22, 16);
	put_unaligned_le16(1, b + at + d + 48);
	put_unaligned_le32(d + 56, b + at);		/* Next */
	at += d + 56;
	d = put_ctx(b + at, "AlSi", 4, 8);
	put_unaligned_le64(1 << 20, b + at + d);
	put_unaligned_le32(d + 8, b + at);
	at += d + 8;
	d = put_ctx(b + at, app, 16, 20);
	put_unaligned_le16(20, b + at + d);
	memset(b + at + d + 4, 0x33, 16);
	at += d + 20;
	put_unaligned_le32(at - start, b + 116);	/* CreateContextsLength */
	return at;
}

/* Seeds for the typed decoders: FSCTL inputs and SET_INFO classes. */
static void decodes(void)
{
	static const struct {
		const char *name;
		u32 code;
		u32 len;
	} fsctls[] = {
		{ "fsctl-validate-negotiate", 0x00140204, 28 },
		{ "fsctl-copychunk", 0x001440f2, 32 + 2 * 24 },
		{ "fsctl-copychunk-write", 0x001480f2, 32 + 24 },
		{ "fsctl-duplicate-extents", 0x00098344, 40 },
		{ "fsctl-set-zero-data", 0x000980c8, 16 },
		{ "fsctl-allocated-ranges", 0x000940cf, 16 },
		{ "fsctl-set-compression", 0x0009c040, 2 },
	};
	static const struct {
		const char *name;
		u8 cls;
		u32 len;
	} classes[] = {
		{ "set-basic", 4, 40 }, { "set-rename", 10, 20 + 10 },
		{ "set-link", 11, 20 + 10 }, { "set-disposition", 13, 1 },
		{ "set-position", 14, 8 }, { "set-mode", 16, 4 },
		{ "set-allocation", 19, 8 }, { "set-eof", 20, 8 },
		{ "set-disposition-ex", 64, 4 },
	};
	static const char smb1[] = "\x02NT LM 0.12\0\x02SMB 2.002\0\x02SMB 2.???";
	u8 b[1024], in[128];
	char name[48];
	u32 n, i;

	for (i = 0; i < SMB2_COMMAND_COUNT; i++) {
		n = sample_request((u16)i, b, sizeof(b));
		snprintf(name, sizeof(name), "cmd-%02x", i);
		put("decode", name, b, n);
	}
	for (i = 0; i < sizeof(in); i++)
		in[i] = (u8)(i * 7);
	put_unaligned_le16(2, in + 22);		/* validate negotiate: 2 dialects */
	for (i = 0; i < ARRAY_SIZE(fsctls); i++) {
		if (fsctls[i].code == 0x001440f2 || fsctls[i].code == 0x001480f2)
			put_unaligned_le32((fsctls[i].len - 32) / 24, in + 24);
		n = ioctl_with(b, sizeof(b), fsctls[i].code, in, fsctls[i].len);
		put("decode", fsctls[i].name, b, n);
	}
	memset(in, 0, sizeof(in));
	in[0] = 1;
	put_unaligned_le32(10, in + 16);	/* rename: 5 UTF-16 units */
	memcpy(in + 20, "n\0e\0w\0.\0t\0", 10);
	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		n = setinfo_with(b, sizeof(b), classes[i].cls, in, classes[i].len);
		put("decode", classes[i].name, b, n);
	}
	/* A lease acknowledgment (36-byte OPLOCK_BREAK). */
	n = sample_request(SMB2_OPLOCK_BREAK, b, sizeof(b));
	memset(b + 64, 0, 36);
	put_unaligned_le16(36, b + 64);
	memset(b + 72, 0x4c, 16);
	put_unaligned_le32(5, b + 88);
	put("decode", "lease-ack", b, 64 + 36);
	n = create_with_contexts(b, sizeof(b));
	put("decode", "create-lease-alsi-appinstance", b, n);
	/* An SMB1 NEGOTIATE asking for the SMB2 upgrade. */
	memset(b, 0, 35);
	memcpy(b, "\xffSMB\x72", 5);
	n = 35;
	memcpy(b + n, smb1, sizeof(smb1));	/* with the last NUL */
	n += sizeof(smb1);
	put_unaligned_le16((u16)(n - 35), b + 33);
	put("decode", "smb1-negotiate", b, n);
}

static void negctxs(void)
{
	u8 b[512], m[512], salt[32] = { 7 };
	struct ksmbd_negctx_choice c = {
		.salt = salt, .encryption = true, .cipher = 2, .signing = true,
		.signing_alg = 1, .compression = true, .posix = true,
	};
	u32 n, len;
	u16 count;

	n = sample_negctx_list(b + 2, sizeof(b) - 2, &count);
	put_unaligned_le16(count, b);
	put("negctx", "sample", b, n + 2);
	n = sample_unhex(W10_NEGOTIATE_REQ, m, sizeof(m));
	len = get_unaligned_le32(m + 92);
	put_unaligned_le16(get_unaligned_le16(m + 96), b);
	memcpy(b + 2, m + len, n - len);
	put("negctx", "win10", b, n - len + 2);
	if (!ksmbd_negctx_build(&c, b + 2, sizeof(b) - 2, &len, &count)) {
		put_unaligned_le16(count, b);
		put("negctx", "server-response", b, len + 2);
	}
}

static void spnegos(void)
{
	static const char *const w10[] = {
		W10_NEGOTIATE_RSP, W10_SESS_SETUP_REQ1, W10_SESS_SETUP_RSP1,
		W10_SESS_SETUP_REQ2,
	};
	u8 m[2048], out[512];
	struct ksmbd_buf blob;
	char name[32];
	u32 n, i, len;

	for (i = 0; i < 4; i++) {
		n = sample_unhex(w10[i], m, sizeof(m));
		blob = blob_of(m, n);
		snprintf(name, sizeof(name), "win10-%u", i);
		put("spnego", name, blob.p, blob.len);
	}
	if (!ksmbd_spnego_build_hint(true, out, sizeof(out), &len))
		put("spnego", "hint-krb5", out, len);
	if (!ksmbd_spnego_build_hint(false, out, sizeof(out), &len))
		put("spnego", "hint", out, len);
	if (!ksmbd_spnego_build_resp(KSMBD_SPNEGO_ACCEPT_COMPLETED, false, NULL, 0,
				     NULL, 0, out, sizeof(out), &len))
		put("spnego", "resp-completed", out, len);
}

static void ntlmssps(void)
{
	static const char *const w10[] = {
		W10_SESS_SETUP_REQ1, W10_SESS_SETUP_RSP1, W10_SESS_SETUP_REQ2,
	};
	static const u8 sc[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct ksmbd_ntlm_challenge_params p = {
		.client_flags = 0xe2088297, .server_challenge = sc,
		.nb_domain = "WORKGROUP", .nb_computer = "KSMBD",
	};
	struct ksmbd_spnego_token t;
	struct ksmbd_buf blob;
	u8 m[2048], out[512];
	char name[32];
	u32 n, i, len, flags;

	n = sample_unhex(NLMP_AUTHENTICATE, m, sizeof(m));
	put("ntlmssp", "nlmp-authenticate", m, n);
	for (i = 0; i < 3; i++) {
		n = sample_unhex(w10[i], m, sizeof(m));
		blob = blob_of(m, n);
		if (ksmbd_spnego_parse(blob.p, blob.len, &t))
			continue;
		snprintf(name, sizeof(name), "win10-%u", i);
		put("ntlmssp", name, t.mech_token.p, t.mech_token.len);
	}
	if (!ksmbd_ntlmssp_build_challenge(&p, out, sizeof(out), &len, &flags))
		put("ntlmssp", "server-challenge", out, len);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_corpus CORPUS_DIR\n");
		return 2;
	}
	root = argv[1];
	frames();
	decodes();
	negctxs();
	spnegos();
	ntlmssps();
	return failures ? 1 : 0;
}
