// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NTLMSSP message parsing and building.  CVE-2023-38428 (user name read
 * outside the blob) and CVE-2023-52440 (session key longer than 16 bytes
 * copied into a 16-byte buffer) are the two mistakes this file is shaped
 * against: every field goes through field() and every copy is bounded.
 */
#include "ntlmssp.h"
#include "utf16.h"

const u8 ksmbd_ntlmssp_signature[KSMBD_NTLM_SIGNATURE_SIZE] = {
	'N', 'T', 'L', 'M', 'S', 'S', 'P', 0
};

/* A MS-NLMP 2.2.2.10 VERSION: 6.1 build 7600, NTLMSSP revision 15. */
static const u8 ntlm_version[8] = { 6, 1, 0xb0, 0x1d, 0, 0, 0, 0x0f };

u32 ksmbd_ntlmssp_type(const u8 *blob, u32 len)
{
	if (len < 12 || memcmp(blob, ksmbd_ntlmssp_signature,
			       KSMBD_NTLM_SIGNATURE_SIZE))
		return 0;
	return get_unaligned_le32(blob + 8);
}

int ksmbd_ntlmssp_parse_negotiate(const u8 *blob, u32 len, u32 *flags)
{
	if (len < 16 || ksmbd_ntlmssp_type(blob, len) != NTLMSSP_NEGOTIATE_MSG)
		return -EINVAL;
	*flags = get_unaligned_le32(blob + 12);
	return 0;
}

/*
 * A (Len, MaxLen, Offset) field at blob[at]: a non-empty payload must start
 * at or after the fixed header and end inside the blob.
 */
static int field(const u8 *blob, u32 len, u32 at, u32 hdr_end,
		 struct ksmbd_buf *out, u32 *min_off)
{
	u32 flen = get_unaligned_le16(blob + at);
	u32 off = get_unaligned_le32(blob + at + 4);

	out->p = blob;
	out->len = 0;
	if (!flen)
		return 0;
	if (off < hdr_end || !ksmbd_range_ok(len, off, flen))
		return -EINVAL;
	out->p = blob + off;
	out->len = flen;
	if (off < *min_off)
		*min_off = off;
	return 0;
}

static int name_to_utf8(const struct ksmbd_buf *b, char *out, u32 cap)
{
	int rc;

	if (!b->len) {
		out[0] = '\0';
		return 0;
	}
	rc = ksmbd_utf16_to_utf8(b->p, b->len, out, cap);
	return rc < 0 ? rc : 0;
}

static bool is_anonymous(const struct ksmbd_ntlm_auth *a)
{
	/* MS-NLMP 3.2.5.1.2: empty user, empty NT response, LM empty or Z(1). */
	return !a->user.len && !a->nt_response.len &&
	       (!a->lm_response.len ||
		(a->lm_response.len == 1 && !a->lm_response.p[0]));
}

/*
 * MS-NLMP 2.2.2.7: after NTProofStr (16) and the fixed part of the
 * NTLMv2_CLIENT_CHALLENGE (28) comes an AV_PAIR list that ends with
 * MsvAvEOL; bytes after it are allowed (clients pad with zeros). A pair
 * that runs past the response, or no MsvAvEOL, is a malformed message.
 */
static bool nt_response_av_list_ok(const struct ksmbd_buf *r)
{
	u32 pos = 16 + 28;
	u16 id, len;

	for (;;) {
		if (!ksmbd_buf_get_le16(r, pos, &id) ||
		    !ksmbd_buf_get_le16(r, pos + 2, &len) ||
		    !ksmbd_range_ok(r->len, pos + 4, len))
			return false;
		if (id == MSV_AV_EOL)
			return true;
		pos += 4 + len;
	}
}

static int check_nt_response(const struct ksmbd_ntlm_auth *a)
{
	u32 n = a->nt_response.len;

	if (!n)
		return a->anonymous ? 0 : -EINVAL;
	if (n == 24)
		return -EOPNOTSUPP;	/* NTLMv1: refused outright */
	/*
	 * Anything longer is an NTLMv2_RESPONSE, which must parse before
	 * any proof is checked: Windows answers a malformed one with
	 * STATUS_INVALID_PARAMETER, not a logon failure (Samba bug 14932,
	 * smbtorture smb2.session.ntlmssp_bug14932).
	 */
	return nt_response_av_list_ok(&a->nt_response) ? 0 : -EBADMSG;
}

int ksmbd_ntlmssp_parse_authenticate(const u8 *blob, u32 len,
				     struct ksmbd_ntlm_auth *a)
{
	u32 min_off = len;
	int rc;

	memset(a, 0, sizeof(*a));
	if (len < KSMBD_NTLM_AUTH_HDR_SIZE ||
	    ksmbd_ntlmssp_type(blob, len) != NTLMSSP_AUTHENTICATE_MSG)
		return -EINVAL;
	a->flags = get_unaligned_le32(blob + 60);
	if (!(a->flags & NTLMSSP_NEGOTIATE_UNICODE))
		return -EOPNOTSUPP;

	rc = field(blob, len, 12, KSMBD_NTLM_AUTH_HDR_SIZE, &a->lm_response, &min_off);
	rc = rc ?: field(blob, len, 20, KSMBD_NTLM_AUTH_HDR_SIZE, &a->nt_response, &min_off);
	rc = rc ?: field(blob, len, 28, KSMBD_NTLM_AUTH_HDR_SIZE, &a->domain, &min_off);
	rc = rc ?: field(blob, len, 36, KSMBD_NTLM_AUTH_HDR_SIZE, &a->user, &min_off);
	rc = rc ?: field(blob, len, 44, KSMBD_NTLM_AUTH_HDR_SIZE, &a->workstation, &min_off);
	rc = rc ?: field(blob, len, 52, KSMBD_NTLM_AUTH_HDR_SIZE, &a->session_key, &min_off);
	if (rc)
		return rc;

	if ((a->flags & NTLMSSP_NEGOTIATE_KEY_EXCH) &&
	    a->session_key.len != KSMBD_NTLM_SESSION_KEY_SIZE)
		return -EINVAL;
	if (!(a->flags & NTLMSSP_NEGOTIATE_KEY_EXCH) && a->session_key.len &&
	    a->session_key.len != KSMBD_NTLM_SESSION_KEY_SIZE)
		return -EINVAL;

	/* The MIC sits in the header only when payloads start after it. */
	if (min_off >= KSMBD_NTLM_AUTH_MIC_END && len >= KSMBD_NTLM_AUTH_MIC_END) {
		a->has_mic = true;
		a->mic = blob + KSMBD_NTLM_MIC_OFFSET;
	}

	a->anonymous = is_anonymous(a);
	rc = check_nt_response(a);
	if (rc)
		return rc;

	if (a->user.len & 1 || a->domain.len & 1 || a->workstation.len & 1)
		return -EINVAL;
	rc = name_to_utf8(&a->user, a->user_utf8, sizeof(a->user_utf8));
	rc = rc ?: name_to_utf8(&a->domain, a->domain_utf8, sizeof(a->domain_utf8));
	rc = rc ?: name_to_utf8(&a->workstation, a->workstation_utf8,
				sizeof(a->workstation_utf8));
	return rc;
}

/* ---- CHALLENGE ---- */

static void put_field_hdr(u8 *at, u32 flen, u32 off)
{
	put_unaligned_le16((u16)flen, at);
	put_unaligned_le16((u16)flen, at + 2);
	put_unaligned_le32(off, at + 4);
}

static int put_utf16(struct ksmbd_wbuf *w, const char *s)
{
	int n;

	if (!s)
		return 0;
	if (w->overflow)
		return -ENOSPC;
	n = ksmbd_utf8_to_utf16(s, (u32)strlen(s), w->p + w->len, w->cap - w->len);
	if (n == -ENAMETOOLONG) {
		w->overflow = true;
		return -ENOSPC;
	}
	if (n < 0)
		return n;
	w->len += (u32)n;
	return n;
}

static int put_av_name(struct ksmbd_wbuf *w, u16 id, const char *s)
{
	u8 *hdr;
	int n;

	if (!s)
		return 0;
	hdr = ksmbd_wbuf_reserve(w, 4);
	if (!hdr)
		return -ENOSPC;
	n = put_utf16(w, s);
	if (n < 0)
		return n;
	if (n > U16_MAX)
		return -EINVAL;
	put_unaligned_le16(id, hdr);
	put_unaligned_le16((u16)n, hdr + 2);
	return 0;
}

static int put_target_info(struct ksmbd_wbuf *w,
			   const struct ksmbd_ntlm_challenge_params *p)
{
	int rc;

	rc = put_av_name(w, MSV_AV_NB_DOMAIN_NAME, p->nb_domain);
	rc = rc ?: put_av_name(w, MSV_AV_NB_COMPUTER_NAME, p->nb_computer);
	rc = rc ?: put_av_name(w, MSV_AV_DNS_DOMAIN_NAME, p->dns_domain);
	rc = rc ?: put_av_name(w, MSV_AV_DNS_COMPUTER_NAME, p->dns_computer);
	if (rc)
		return rc;
	ksmbd_wbuf_put_le16(w, MSV_AV_TIMESTAMP);
	ksmbd_wbuf_put_le16(w, 8);
	ksmbd_wbuf_put_le64(w, p->timestamp);
	ksmbd_wbuf_put_le32(w, MSV_AV_EOL);	/* AvId 0, AvLen 0 */
	return w->overflow ? -ENOSPC : 0;
}

static u32 choose_flags(u32 client)
{
	u32 f = NTLMSSP_NEGOTIATE_UNICODE | NTLMSSP_REQUEST_TARGET |
		NTLMSSP_NEGOTIATE_NTLM | NTLMSSP_NEGOTIATE_ALWAYS_SIGN |
		NTLMSSP_TARGET_TYPE_SERVER |
		NTLMSSP_NEGOTIATE_EXTENDED_SESSIONSECURITY |
		NTLMSSP_NEGOTIATE_TARGET_INFO | NTLMSSP_NEGOTIATE_VERSION;

	/* Echo what the client asked for among what we support. */
	f |= client & (NTLMSSP_NEGOTIATE_SIGN | NTLMSSP_NEGOTIATE_SEAL |
		       NTLMSSP_NEGOTIATE_KEY_EXCH | NTLMSSP_NEGOTIATE_128 |
		       NTLMSSP_NEGOTIATE_56);
	return f;
}

int ksmbd_ntlmssp_build_challenge(const struct ksmbd_ntlm_challenge_params *p,
				  u8 *out, u32 cap, u32 *len, u32 *flags)
{
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, cap);
	u32 f = choose_flags(p->client_flags);
	u32 name_off, name_len, ti_off;
	u8 *hdr;
	int rc;

	if (!p->server_challenge)
		return -EINVAL;
	hdr = ksmbd_wbuf_reserve(&w, 56);
	if (!hdr)
		return -ENOSPC;
	memset(hdr, 0, 56);
	memcpy(hdr, ksmbd_ntlmssp_signature, KSMBD_NTLM_SIGNATURE_SIZE);
	put_unaligned_le32(NTLMSSP_CHALLENGE_MSG, hdr + 8);
	put_unaligned_le32(f, hdr + 20);
	memcpy(hdr + 24, p->server_challenge, KSMBD_NTLM_CHALLENGE_SIZE);
	memcpy(hdr + 48, ntlm_version, sizeof(ntlm_version));

	name_off = w.len;
	rc = put_utf16(&w, p->nb_computer);
	if (rc < 0)
		return rc;
	name_len = w.len - name_off;
	ti_off = w.len;
	rc = put_target_info(&w, p);
	if (rc)
		return rc;
	if (name_len > U16_MAX || w.len - ti_off > U16_MAX)
		return -EINVAL;
	put_field_hdr(hdr + 12, name_len, name_off);
	put_field_hdr(hdr + 40, w.len - ti_off, ti_off);
	*len = w.len;
	*flags = f;
	return 0;
}
