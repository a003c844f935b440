// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SPNEGO tokens.  The whole token is first checked by ksmbd_der_check()
 * (lengths and nesting depth), then read field by field; every optional
 * field is looked up by its context tag, in order, never by position.
 */
#include "spnego.h"
#include "der.h"

static const u8 oid_spnego[] = { 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02 };
static const u8 oid_ntlmssp[] = {
	0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x0a };
static const u8 oid_krb5[] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02 };
static const u8 oid_ms_krb5[] = {
	0x2a, 0x86, 0x48, 0x82, 0xf7, 0x12, 0x01, 0x02, 0x02 };
static const u8 oid_negoex[] = {
	0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x1e };
static const char hint_name[] = "not_defined_in_RFC4178@please_ignore";

static u8 mech_of(const struct ksmbd_buf *oid)
{
	if (ksmbd_der_oid_eq(oid, oid_ntlmssp, sizeof(oid_ntlmssp)))
		return KSMBD_MECH_NTLMSSP;
	if (ksmbd_der_oid_eq(oid, oid_krb5, sizeof(oid_krb5)))
		return KSMBD_MECH_KRB5;
	if (ksmbd_der_oid_eq(oid, oid_ms_krb5, sizeof(oid_ms_krb5)))
		return KSMBD_MECH_MS_KRB5;
	if (ksmbd_der_oid_eq(oid, oid_negoex, sizeof(oid_negoex)))
		return KSMBD_MECH_NEGOEX;
	return KSMBD_MECH_UNKNOWN;
}

/*
 * Next element of a SEQUENCE if it carries context tag [n]; *found false
 * (and nothing consumed) when the next element has another tag.
 */
static int take_ctx(struct ksmbd_buf *seq, u8 n, struct ksmbd_buf *val,
		    bool *found)
{
	struct ksmbd_buf peek = *seq;
	u8 tag;
	int rc;

	*found = false;
	rc = ksmbd_der_read(&peek, &tag, val);
	if (rc == -ENODATA)
		return 0;
	if (rc)
		return rc;
	if (tag != DER_CONTEXT(n))
		return 0;
	*seq = peek;
	*found = true;
	return 0;
}

/* [n] wrapping exactly one TLV of the given universal tag. */
static int take_ctx_inner(struct ksmbd_buf *seq, u8 n, u8 tag,
			  struct ksmbd_buf *val, bool *found)
{
	struct ksmbd_buf outer;
	int rc = take_ctx(seq, n, &outer, found);

	if (rc || !*found)
		return rc;
	rc = ksmbd_der_expect(&outer, tag, val);
	if (rc)
		return rc;
	return outer.len ? -EBADMSG : 0;
}

static int parse_mech_list(struct ksmbd_buf *list, struct ksmbd_spnego_token *t)
{
	struct ksmbd_buf seq, oid;
	int rc;

	rc = ksmbd_der_expect(list, DER_SEQUENCE, &seq);
	if (rc)
		return rc;
	if (list->len)
		return -EBADMSG;
	while (seq.len) {
		if (t->mech_count == KSMBD_SPNEGO_MAX_MECHS)
			return -EBADMSG;
		rc = ksmbd_der_expect(&seq, DER_OID, &oid);
		if (rc)
			return rc;
		t->mechs[t->mech_count++] = mech_of(&oid);
	}
	return t->mech_count ? 0 : -EBADMSG;
}

static int parse_init(struct ksmbd_buf *body, struct ksmbd_spnego_token *t)
{
	struct ksmbd_buf seq, v;
	bool found;
	int rc;

	rc = ksmbd_der_expect(body, DER_SEQUENCE, &seq);
	if (rc || body->len)
		return rc ?: -EBADMSG;
	rc = take_ctx(&seq, 0, &v, &found);
	if (rc || !found)
		return rc ?: -EBADMSG;	/* mechTypes is mandatory */
	t->mech_list = v;
	rc = parse_mech_list(&v, t);
	if (rc)
		return rc;
	rc = take_ctx(&seq, 1, &v, &found);		/* reqFlags: ignored */
	rc = rc ?: take_ctx_inner(&seq, 2, DER_OCTET_STRING, &t->mech_token, &found);
	if (rc)
		return rc;
	/* [3] is mechListMIC in RFC 4178 and negHints in NegTokenInit2. */
	rc = take_ctx(&seq, 3, &v, &found);
	if (!rc && found && v.len && v.p[0] == DER_OCTET_STRING)
		rc = ksmbd_der_expect(&v, DER_OCTET_STRING, &t->mech_list_mic);
	rc = rc ?: take_ctx_inner(&seq, 4, DER_OCTET_STRING, &t->mech_list_mic, &found);
	if (rc)
		return rc;
	return seq.len ? -EBADMSG : 0;
}

static int parse_resp(struct ksmbd_buf *body, struct ksmbd_spnego_token *t)
{
	struct ksmbd_buf seq, v;
	bool found;
	int rc;

	rc = ksmbd_der_expect(body, DER_SEQUENCE, &seq);
	if (rc || body->len)
		return rc ?: -EBADMSG;
	rc = take_ctx_inner(&seq, 0, DER_ENUMERATED, &v, &found);
	if (rc)
		return rc;
	if (found) {
		if (v.len != 1 || v.p[0] > KSMBD_SPNEGO_REQUEST_MIC)
			return -EBADMSG;
		t->neg_state = v.p[0];
	}
	rc = take_ctx_inner(&seq, 1, DER_OID, &v, &found);
	if (rc)
		return rc;
	if (found)
		t->supported_mech = mech_of(&v);
	rc = take_ctx_inner(&seq, 2, DER_OCTET_STRING, &t->mech_token, &found);
	rc = rc ?: take_ctx_inner(&seq, 3, DER_OCTET_STRING, &t->mech_list_mic, &found);
	if (rc)
		return rc;
	return seq.len ? -EBADMSG : 0;
}

int ksmbd_spnego_parse(const u8 *blob, u32 len, struct ksmbd_spnego_token *t)
{
	struct ksmbd_buf in = ksmbd_buf_make(blob, len), v, oid;
	u8 tag;
	int rc;

	memset(t, 0, sizeof(*t));
	t->neg_state = KSMBD_SPNEGO_STATE_ABSENT;
	rc = ksmbd_der_check(&in, KSMBD_DER_MAX_DEPTH);
	if (rc)
		return rc;
	rc = ksmbd_der_read(&in, &tag, &v);
	if (rc || in.len)
		return -EBADMSG;	/* exactly one token, nothing after it */

	if (tag == DER_APPLICATION_0) {
		rc = ksmbd_der_expect(&v, DER_OID, &oid);
		if (rc || !ksmbd_der_oid_eq(&oid, oid_spnego, sizeof(oid_spnego)))
			return -EBADMSG;
		rc = ksmbd_der_read(&v, &tag, &in);
		if (rc || v.len)
			return -EBADMSG;
		v = in;
	}
	if (tag == DER_CONTEXT(0)) {
		t->is_init = true;
		return parse_init(&v, t);
	}
	if (tag == DER_CONTEXT(1))
		return parse_resp(&v, t);
	return -EBADMSG;
}

bool ksmbd_spnego_offers(const struct ksmbd_spnego_token *t,
			 enum ksmbd_spnego_mech mech, bool *preferred)
{
	u32 i;

	for (i = 0; i < t->mech_count; i++) {
		if (t->mechs[i] == mech) {
			if (preferred)
				*preferred = i == 0;
			return true;
		}
	}
	return false;
}

/* ---- Builders ---- */

static void put_oid(struct ksmbd_wbuf *w, const u8 *enc, u32 len)
{
	ksmbd_der_put_hdr(w, DER_OID, len);
	ksmbd_wbuf_put(w, enc, len);
}

int ksmbd_spnego_build_hint(bool krb5, u8 *out, u32 cap, u32 *len)
{
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, cap);
	u32 oids, mech_types, hint, hints, seq, init, inner;

	oids = ksmbd_der_tlv_size(sizeof(oid_ntlmssp));
	if (krb5)
		oids += ksmbd_der_tlv_size(sizeof(oid_ms_krb5)) +
			ksmbd_der_tlv_size(sizeof(oid_krb5));
	mech_types = ksmbd_der_tlv_size(ksmbd_der_tlv_size(oids));
	hint = ksmbd_der_tlv_size(ksmbd_der_tlv_size(sizeof(hint_name) - 1));
	hints = ksmbd_der_tlv_size(ksmbd_der_tlv_size(hint));
	seq = ksmbd_der_tlv_size(mech_types + hints);
	init = ksmbd_der_tlv_size(seq);
	inner = ksmbd_der_tlv_size(sizeof(oid_spnego)) + init;

	ksmbd_der_put_hdr(&w, DER_APPLICATION_0, inner);
	put_oid(&w, oid_spnego, sizeof(oid_spnego));
	ksmbd_der_put_hdr(&w, DER_CONTEXT(0), seq);
	ksmbd_der_put_hdr(&w, DER_SEQUENCE, mech_types + hints);
	ksmbd_der_put_hdr(&w, DER_CONTEXT(0), ksmbd_der_tlv_size(oids));
	ksmbd_der_put_hdr(&w, DER_SEQUENCE, oids);
	if (krb5) {
		put_oid(&w, oid_ms_krb5, sizeof(oid_ms_krb5));
		put_oid(&w, oid_krb5, sizeof(oid_krb5));
	}
	put_oid(&w, oid_ntlmssp, sizeof(oid_ntlmssp));
	ksmbd_der_put_hdr(&w, DER_CONTEXT(3), ksmbd_der_tlv_size(hint));
	ksmbd_der_put_hdr(&w, DER_SEQUENCE, hint);
	ksmbd_der_put_hdr(&w, DER_CONTEXT(0),
			  ksmbd_der_tlv_size(sizeof(hint_name) - 1));
	ksmbd_der_put_hdr(&w, DER_GENERAL_STRING, sizeof(hint_name) - 1);
	ksmbd_wbuf_put(&w, hint_name, sizeof(hint_name) - 1);
	if (w.overflow)
		return -ENOSPC;
	*len = w.len;
	return 0;
}

int ksmbd_spnego_build_resp(enum ksmbd_spnego_state state, bool with_mech,
			    const u8 *token, u32 token_len,
			    const u8 *mic, u32 mic_len,
			    u8 *out, u32 cap, u32 *len)
{
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, cap);
	u32 body = ksmbd_der_tlv_size(ksmbd_der_tlv_size(1));
	u32 mech = ksmbd_der_tlv_size(ksmbd_der_tlv_size(sizeof(oid_ntlmssp)));

	if ((unsigned int)state > KSMBD_SPNEGO_REQUEST_MIC ||
	    token_len > 0xffffff || mic_len > 0xffff)
		return -EINVAL;
	if (with_mech)
		body += mech;
	if (token_len)
		body += ksmbd_der_tlv_size(ksmbd_der_tlv_size(token_len));
	if (mic_len)
		body += ksmbd_der_tlv_size(ksmbd_der_tlv_size(mic_len));

	ksmbd_der_put_hdr(&w, DER_CONTEXT(1), ksmbd_der_tlv_size(body));
	ksmbd_der_put_hdr(&w, DER_SEQUENCE, body);
	ksmbd_der_put_hdr(&w, DER_CONTEXT(0), 3);
	ksmbd_der_put_hdr(&w, DER_ENUMERATED, 1);
	ksmbd_wbuf_put_u8(&w, (u8)state);
	if (with_mech) {
		ksmbd_der_put_hdr(&w, DER_CONTEXT(1),
				  ksmbd_der_tlv_size(sizeof(oid_ntlmssp)));
		put_oid(&w, oid_ntlmssp, sizeof(oid_ntlmssp));
	}
	if (token_len) {
		ksmbd_der_put_hdr(&w, DER_CONTEXT(2), ksmbd_der_tlv_size(token_len));
		ksmbd_der_put_hdr(&w, DER_OCTET_STRING, token_len);
		ksmbd_wbuf_put(&w, token, token_len);
	}
	if (mic_len) {
		ksmbd_der_put_hdr(&w, DER_CONTEXT(3), ksmbd_der_tlv_size(mic_len));
		ksmbd_der_put_hdr(&w, DER_OCTET_STRING, mic_len);
		ksmbd_wbuf_put(&w, mic, mic_len);
	}
	if (w.overflow)
		return -ENOSPC;
	*len = w.len;
	return 0;
}
