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
	negctxs();
	spnegos();
	ntlmssps();
	return failures ? 1 : 0;
}
