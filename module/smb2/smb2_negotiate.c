// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NEGOTIATE (MS-SMB2 3.3.5.4), the SMB1 upgrade (3.3.5.3.1) and ECHO.
 *
 * Encryption is always available to a client that asks: AES-128-CCM on
 * 3.0/3.0.2 (SMB2_GLOBAL_CAP_ENCRYPTION), the first of our_ciphers the
 * client lists on 3.1.1; whether sessions must use it is the session's
 * and the share's business. Signing on 3.1.1: the first of our_signing
 * the client lists. Not offered yet, on purpose: compression, leasing,
 * multichannel, DFS, POSIX extensions. The security buffer carries the
 * SPNEGO NegTokenInit2 hint listing NTLMSSP.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/string.h>
#include "bufpool.h"
#include "connection.h"
#include "ksmbd_trace.h"
#include "proto/decode.h"
#include "proto/encode.h"
#include "proto/kdf.h"
#include "proto/negctx.h"
#include "proto/spnego.h"
#include "smb2_session_int.h"
#include "server.h"
#include "smb2_dispatch.h"
#include "uapi/ksmbd_netlink.h"
#include "work.h"

/* MS-SMB2 3.3.5.4 leaves the caps to us; keep them sane whatever the config. */
#define MIN_IO_SIZE	(64 << 10)
#define MAX_IO_SIZE	(8 << 20)
/* Seconds from 1601-01-01 (FILETIME epoch) to 1970-01-01. */
#define FILETIME_UNIX_OFFSET	11644473600ULL

static u8 server_guid[16];

/* Highest first: the first the client also lists wins. */
static const u16 our_dialects[] = {
	SMB311_DIALECT, SMB302_DIALECT, SMB30_DIALECT, SMB21_DIALECT,
};

/*
 * Default preference orders; "server smb3 signing algorithms" and "server
 * smb3 encryption algorithms" in ksmbd.conf replace them.
 */
static const u16 our_signing[] = {
	SMB2_SIGNING_AES_GMAC, SMB2_SIGNING_AES_CMAC, SMB2_SIGNING_HMAC_SHA256,
};

/* Windows' and Samba's default cipher order. */
static const u16 our_ciphers[] = {
	SMB2_ENCRYPTION_AES128_GCM, SMB2_ENCRYPTION_AES128_CCM,
	SMB2_ENCRYPTION_AES256_GCM, SMB2_ENCRYPTION_AES256_CCM,
};

#define MAX_PREFS	4

/* The configured order when there is one, else the default; the count. */
static u32 prefs(const u16 *conf, u8 nconf, const u16 *def, u32 ndef,
		 u16 out[MAX_PREFS])
{
	u32 i, n = nconf ? min_t(u32, nconf, MAX_PREFS) : min_t(u32, ndef, MAX_PREFS);

	for (i = 0; i < n; i++)
		out[i] = nconf ? READ_ONCE(conf[i]) : def[i];
	return n;
}

static u32 cipher_prefs(u16 out[MAX_PREFS])
{
	return prefs(ksmbd_server_conf.ciphers,
		     READ_ONCE(ksmbd_server_conf.nr_ciphers), our_ciphers,
		     ARRAY_SIZE(our_ciphers), out);
}

static u32 signing_prefs(u16 out[MAX_PREFS])
{
	return prefs(ksmbd_server_conf.signing_algs,
		     READ_ONCE(ksmbd_server_conf.nr_signing_algs), our_signing,
		     ARRAY_SIZE(our_signing), out);
}

/* 3.0/3.0.2 encrypt with AES-128-CCM, when the order lists it. */
static bool ccm_allowed(void)
{
	u16 p[MAX_PREFS];
	u32 i, n = cipher_prefs(p);

	for (i = 0; i < n; i++)
		if (p[i] == SMB2_ENCRYPTION_AES128_CCM)
			return true;
	return false;
}

int ksmbd_smb2_negotiate_init(void)
{
	get_random_bytes(server_guid, sizeof(server_guid));
	return 0;
}

const u8 *ksmbd_smb2_server_guid(void)
{
	return server_guid;
}

static u64 filetime_now(void)
{
	u64 ns = ktime_get_real_ns();

	return div_u64(ns, 100) + FILETIME_UNIX_OFFSET * 10000000ULL;
}

static u32 io_size(u32 configured)
{
	return clamp_t(u32, configured, MIN_IO_SIZE, MAX_IO_SIZE);
}

static u16 pick_dialect(const struct ksmbd_negotiate_req *nr)
{
	u16 lo = READ_ONCE(ksmbd_server_conf.min_dialect);
	u16 hi = READ_ONCE(ksmbd_server_conf.max_dialect);
	u32 d, i;

	for (d = 0; d < ARRAY_SIZE(our_dialects); d++) {
		if (our_dialects[d] < lo || our_dialects[d] > hi)
			continue;
		for (i = 0; i < nr->dialect_count; i++)
			if (ksmbd_negotiate_dialect(nr, i) == our_dialects[d])
				return our_dialects[d];
	}
	return 0;
}

/* Server-side settings every negotiate answer carries. */
static void fill_server_side(struct ksmbd_conn_neg *neg, u16 dialect)
{
	neg->dialect = dialect;
	neg->security_mode = SMB2_NEGOTIATE_SIGNING_ENABLED;
	if (READ_ONCE(ksmbd_server_conf.signing) == KSMBD_OPT_MANDATORY)
		neg->security_mode |= SMB2_NEGOTIATE_SIGNING_REQUIRED;
	/* Multi-credit is all of 2.1 and later that we answer with. */
	neg->capabilities = SMB2_GLOBAL_CAP_LARGE_MTU;
	if (READ_ONCE(ksmbd_server_conf.flags) & KSMBD_GLOBAL_FLAG_SMB2_LEASES)
		neg->capabilities |= SMB2_GLOBAL_CAP_LEASING;
	/* MS-SMB2 3.3.5.4: directory leases are an SMB 3.x capability. */
	if (dialect >= SMB30_DIALECT &&
	    (READ_ONCE(ksmbd_server_conf.flags) &
	     (KSMBD_GLOBAL_FLAG_SMB2_LEASES | KSMBD_GLOBAL_FLAG_DIR_LEASES)) ==
	    (KSMBD_GLOBAL_FLAG_SMB2_LEASES | KSMBD_GLOBAL_FLAG_DIR_LEASES))
		neg->capabilities |= SMB2_GLOBAL_CAP_DIRECTORY_LEASING;
	neg->max_read = io_size(READ_ONCE(ksmbd_server_conf.max_read));
	neg->max_write = io_size(READ_ONCE(ksmbd_server_conf.max_write));
	neg->max_trans = io_size(READ_ONCE(ksmbd_server_conf.max_trans));
	neg->signing_alg = dialect >= SMB30_DIALECT ? SMB2_SIGNING_AES_CMAC :
						       SMB2_SIGNING_HMAC_SHA256;
}

/*
 * The 64-byte fixed part of the response (2.2.4) and the security buffer
 * right after it (offset 128): the SPNEGO hint. Returns the NT status.
 */
static u32 put_negotiate_fixed(struct ksmbd_wbuf *w,
			       const struct ksmbd_conn_neg *neg)
{
	u8 *at;
	u32 hint_len;

	ksmbd_wbuf_put_le16(w, SMB2_NEGOTIATE_RSP_SIZE);
	ksmbd_wbuf_put_le16(w, neg->security_mode);
	ksmbd_wbuf_put_le16(w, neg->dialect);
	ksmbd_wbuf_put_le16(w, 0);	/* NegotiateContextCount: put_contexts */
	ksmbd_wbuf_put(w, server_guid, sizeof(server_guid));
	ksmbd_wbuf_put_le32(w, neg->capabilities);
	ksmbd_wbuf_put_le32(w, neg->max_trans);
	ksmbd_wbuf_put_le32(w, neg->max_read);
	ksmbd_wbuf_put_le32(w, neg->max_write);
	ksmbd_wbuf_put_le64(w, filetime_now());
	ksmbd_wbuf_put_le64(w, 0);	/* ServerStartTime: SHOULD be 0 */
	ksmbd_wbuf_put_le16(w, SMB2_HEADER_SIZE +
			    sizeof(struct smb2_negotiate_rsp));
	ksmbd_wbuf_put_le16(w, 0);	/* SecurityBufferLength: below */
	ksmbd_wbuf_put_le32(w, 0);	/* NegotiateContextOffset: put_contexts */
	if (w->overflow)
		return STATUS_INSUFFICIENT_RESOURCES;
	at = w->p + w->len;
	if (ksmbd_spnego_build_hint(ksmbd_krb5_enabled(), at, w->cap - w->len,
				    &hint_len)) {
		w->overflow = true;
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	w->len += hint_len;
	ksmbd_negotiate_rsp_set_security_len(w, hint_len);
	return STATUS_SUCCESS;
}

/*
 * MS-SMB2 3.3.5.4: Connection.PreauthIntegrityHashValue starts as zeros
 * and absorbs the NEGOTIATE request, then the response.
 */
static void negotiate_finish(struct ksmbd_smb2_ctx *ctx, const u8 *rsp,
			     u32 len)
{
	struct ksmbd_buf req_msg = ksmbd_buf_make(ctx->req->elem.p,
						  ctx->req->elem.len);
	struct ksmbd_buf rsp_msg = ksmbd_buf_make(rsp, len);
	struct ksmbd_conn *conn = ctx->conn;
	u8 *h = conn->neg.preauth_hash;

	memset(h, 0, SMB2_PREAUTH_HASH_SIZE);
	if (ctx->dialect == SMB311_DIALECT &&
	    (ksmbd_preauth_hash_update(h, &req_msg, 1) ||
	     ksmbd_preauth_hash_update(h, &rsp_msg, 1))) {
		ksmbd_conn_drop(conn, "preauth hash failed");
		return;
	}
	ksmbd_conn_set_negotiated(conn);
	trace_ksmbd_negotiate(conn);
}

/* 3.1.1 contexts after the fixed part; returns the NT status. */
static u32 put_contexts(struct ksmbd_smb2_ctx *ctx,
			const struct ksmbd_negotiate_req *nr,
			struct ksmbd_conn_neg *neg)
{
	struct ksmbd_negctx_choice choice = { };
	struct ksmbd_negctx_offer offer;
	u8 salt[SMB2_PREAUTH_SALT_SIZE];
	struct ksmbd_wbuf *w = &ctx->body;
	u16 order[MAX_PREFS];
	u32 st, len, n;
	u16 count;
	u8 *at;

	if (!nr->context_count)
		return STATUS_INVALID_PARAMETER;
	st = ksmbd_negctx_parse(&nr->contexts, nr->context_count, &offer);
	if (st != STATUS_SUCCESS)
		return st;

	get_random_bytes(salt, sizeof(salt));
	choice.salt = salt;
	if (offer.has_signing) {
		choice.signing = true;
		n = signing_prefs(order);
		choice.signing_alg = ksmbd_negctx_pick(&offer.signing_algs,
						       order, n,
						       SMB2_SIGNING_AES_CMAC);
		neg->signing_alg = choice.signing_alg;
	}
	if (offer.has_encryption) {
		/* MS-SMB2 3.3.5.4: no common cipher is answered with 0. */
		choice.encryption = true;
		n = cipher_prefs(order);
		choice.cipher = ksmbd_negctx_pick(&offer.ciphers, order, n, 0);
		neg->cipher = choice.cipher;
	}
	/* Compression, POSIX: not offered (see top). */

	/* The header is 64 bytes, so body offsets keep 8-byte alignment. */
	ksmbd_wbuf_pad(w, 8);
	if (w->overflow)
		return STATUS_INSUFFICIENT_RESOURCES;
	at = w->p + w->len;
	if (ksmbd_negctx_build(&choice, at, w->cap - w->len, &len, &count)) {
		w->overflow = true;
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	ksmbd_negotiate_rsp_set_contexts(w, SMB2_HEADER_SIZE + w->len, count);
	w->len += len;
	return STATUS_SUCCESS;
}

enum ksmbd_smb2_verdict ksmbd_smb2_negotiate(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_conn *conn = ctx->conn;
	struct ksmbd_negotiate_req nr;
	struct ksmbd_conn_neg neg = { };
	u16 dialect;
	u32 st;

	if (ksmbd_negotiate_decode(ctx->req, &nr)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	dialect = pick_dialect(&nr);
	if (!dialect) {
		ctx->status = STATUS_NOT_SUPPORTED;
		return KSMBD_SMB2_REPLY;
	}
	fill_server_side(&neg, dialect);
	neg.client_security_mode = nr.security_mode;
	neg.client_capabilities = nr.capabilities;
	if ((dialect == SMB30_DIALECT || dialect == SMB302_DIALECT) &&
	    (nr.capabilities & SMB2_GLOBAL_CAP_ENCRYPTION) && ccm_allowed()) {
		neg.capabilities |= SMB2_GLOBAL_CAP_ENCRYPTION;
		neg.cipher = SMB2_ENCRYPTION_AES128_CCM;
	}
	/* MS-SMB2 3.3.5.4: session binding, when configured and asked for. */
	if (dialect >= SMB30_DIALECT &&
	    (nr.capabilities & SMB2_GLOBAL_CAP_MULTI_CHANNEL) &&
	    (READ_ONCE(ksmbd_server_conf.flags) &
	     KSMBD_GLOBAL_FLAG_SMB3_MULTICHANNEL))
		neg.capabilities |= SMB2_GLOBAL_CAP_MULTI_CHANNEL;
	memcpy(neg.client_guid, nr.client_guid, sizeof(neg.client_guid));

	st = put_negotiate_fixed(&ctx->body, &neg);
	if (st != STATUS_SUCCESS) {
		ctx->status = st;
		ctx->body.len = 0;
		return KSMBD_SMB2_REPLY;
	}
	if (dialect == SMB311_DIALECT) {
		st = put_contexts(ctx, &nr, &neg);
		if (st != STATUS_SUCCESS) {
			ctx->status = st;
			ctx->body.len = 0;
			return KSMBD_SMB2_REPLY;
		}
	}
	/* Published by ksmbd_conn_set_negotiated() in negotiate_finish(). */
	conn->neg = neg;
	ctx->dialect = dialect;
	ctx->finish = negotiate_finish;
	return KSMBD_SMB2_REPLY;
}

enum ksmbd_smb2_verdict ksmbd_smb2_echo(struct ksmbd_smb2_ctx *ctx)
{
	if (ksmbd_simple_decode(ctx->req, SMB2_ECHO)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	ksmbd_wbuf_put_le16(&ctx->body, SMB2_SIMPLE_SIZE);
	ksmbd_wbuf_put_le16(&ctx->body, 0);
	return KSMBD_SMB2_REPLY;
}

/* ---- SMB1 NEGOTIATE upgrade ---- */

/* The fixed part and the SPNEGO hint. */
#define UPGRADE_RSP_BODY_MAX	(64 + 256)

void ksmbd_smb1_negotiate(struct ksmbd_work *work)
{
	struct ksmbd_conn *conn = work->conn;
	struct ksmbd_req_hdr rq = { .command = SMB2_NEGOTIATE };
	struct ksmbd_conn_neg neg = { };
	struct ksmbd_wbuf w;
	struct kvec iov;
	u8 *rsp;
	int ret;

	/* Only as a connection's very first message (ZDI-CAN-21541). */
	if (ksmbd_conn_negotiated(conn) ||
	    test_and_set_bit(KSMBD_CONN_F_UPGRADED, &conn->flags)) {
		ksmbd_conn_note_rejected(conn, SMB2_NEGOTIATE, 0,
					 "SMB1 negotiate after negotiate");
		ksmbd_conn_drop(conn, "SMB1 negotiate after negotiate");
		return;
	}
	ret = ksmbd_smb1_negotiate_offers_smb2(work->frame, work->frame_len);
	if (ret <= 0) {
		const char *why = ret ? "malformed SMB1 negotiate" :
					"SMB1 without SMB 2.???";

		ksmbd_conn_note_rejected(conn, SMB2_NEGOTIATE, 0, why);
		ksmbd_conn_drop(conn, why);
		return;
	}
	/* The upgrade answer is MessageId 0; the client goes on with 1. */
	if (!ksmbd_conn_seq_consume(conn, 0, 1)) {
		ksmbd_conn_drop(conn, "message id outside the sequence window");
		return;
	}
	rsp = ksmbd_work_buf_alloc(SMB2_HEADER_SIZE + UPGRADE_RSP_BODY_MAX);
	if (!rsp) {
		ksmbd_conn_drop(conn, "out of memory");
		return;
	}
	fill_server_side(&neg, SMB2X_DIALECT_WILDCARD);
	w = ksmbd_wbuf_make(rsp + SMB2_HEADER_SIZE, UPGRADE_RSP_BODY_MAX);
	if (put_negotiate_fixed(&w, &neg) != STATUS_SUCCESS) {
		ksmbd_work_buf_free(rsp);
		ksmbd_conn_drop(conn, "negotiate response does not fit");
		return;
	}
	ksmbd_smb2_put_hdr(rsp, &rq, STATUS_SUCCESS,
			   ksmbd_conn_credits_grant(conn, 1));
	iov.iov_base = rsp;
	iov.iov_len = SMB2_HEADER_SIZE + w.len;
	ksmbd_conn_send(conn, &iov, 1);
	ksmbd_work_buf_free(rsp);
}
