// SPDX-License-Identifier: GPL-2.0
/*
 * NDR32 encoder and bounds-checked decoder. Alignment is relative to the
 * start of the stub buffer, which is where NDR counts it from.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ndr.h"
#include "../utf16.h"

/* MIDL starts referent ids here; clients do not care, but it reads well. */
#define NDR_FIRST_REF	0x00020000u
/* Encoded stubs never need to grow beyond this (responses are bounded). */
#define NDR_ENC_MAX	(16u << 20)

void ndr_enc_init(struct ndr_enc *e)
{
	memset(e, 0, sizeof(*e));
	e->next_ref = NDR_FIRST_REF;
}

void ndr_enc_free(struct ndr_enc *e)
{
	free(e->data);
	memset(e, 0, sizeof(*e));
}

static uint8_t *enc_reserve(struct ndr_enc *e, size_t n)
{
	uint8_t *p;
	size_t cap;

	if (e->err || n == 0)
		return NULL;
	if (n > NDR_ENC_MAX - e->len) {
		e->err = -E2BIG;
		return NULL;
	}
	if (e->len + n > e->cap) {
		cap = e->cap ? e->cap : 256;
		while (cap < e->len + n)
			cap *= 2;
		p = realloc(e->data, cap);
		if (!p) {
			e->err = -ENOMEM;
			return NULL;
		}
		e->data = p;
		e->cap = cap;
	}
	p = e->data + e->len;
	e->len += n;
	return p;
}

void ndr_put_zeros(struct ndr_enc *e, size_t n)
{
	uint8_t *p = enc_reserve(e, n);

	if (p)
		memset(p, 0, n);
}

void ndr_put_align(struct ndr_enc *e, size_t n)
{
	size_t pad = (n - (e->len % n)) % n;

	ndr_put_zeros(e, pad);
}

void ndr_put_bytes(struct ndr_enc *e, const void *src, size_t n)
{
	uint8_t *p = enc_reserve(e, n);

	if (p && n)
		memcpy(p, src, n);
}

void ndr_put_u8(struct ndr_enc *e, uint8_t v)
{
	ndr_put_bytes(e, &v, 1);
}

void ndr_put_u16(struct ndr_enc *e, uint16_t v)
{
	uint8_t b[2] = { v & 0xff, v >> 8 };

	ndr_put_align(e, 2);
	ndr_put_bytes(e, b, 2);
}

void ndr_put_u32(struct ndr_enc *e, uint32_t v)
{
	uint8_t b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

	ndr_put_align(e, 4);
	ndr_put_bytes(e, b, 4);
}

void ndr_put_u64(struct ndr_enc *e, uint64_t v)
{
	ndr_put_u32(e, (uint32_t)v);
	ndr_put_u32(e, (uint32_t)(v >> 32));
}

void ndr_patch_u32(struct ndr_enc *e, size_t off, uint32_t v)
{
	if (e->err || off + 4 > e->len)
		return;
	e->data[off] = v & 0xff;
	e->data[off + 1] = (v >> 8) & 0xff;
	e->data[off + 2] = (v >> 16) & 0xff;
	e->data[off + 3] = v >> 24;
}

void ndr_put_ptr(struct ndr_enc *e, bool present)
{
	if (!present) {
		ndr_put_u32(e, 0);
		return;
	}
	ndr_put_u32(e, e->next_ref);
	e->next_ref += 4;
}

/* UTF-16LE bytes as NDR uint16s (little-endian on our wire). */
static void put_utf16(struct ndr_enc *e, const uint8_t *le, size_t units)
{
	size_t i;

	for (i = 0; i < units; i++)
		ndr_put_u16(e, (uint16_t)(le[2 * i] | le[2 * i + 1] << 8));
}

/* utf8 as UTF-16LE in *u (units in *n); 0 or a negative errno. */
static int to_utf16(const char *utf8, uint8_t **u, size_t *n)
{
	size_t bytes = 0;
	int rc = ksmbd_utf8_to_utf16le(utf8, strlen(utf8), u, &bytes);

	*n = bytes / 2;
	return rc;
}

void ndr_put_string(struct ndr_enc *e, const char *utf8)
{
	uint8_t *u = NULL;
	size_t n = 0;
	int rc;

	if (e->err)
		return;
	rc = to_utf16(utf8 ? utf8 : "", &u, &n);
	if (rc) {
		e->err = rc;
		return;
	}
	ndr_put_u32(e, n + 1);
	ndr_put_u32(e, 0);
	ndr_put_u32(e, n + 1);
	put_utf16(e, u, n);
	ndr_put_u16(e, 0);
	free(u);
}

void ndr_put_string_ptr(struct ndr_enc *e, const char *utf8)
{
	ndr_put_ptr(e, utf8 != NULL);
	if (utf8)
		ndr_put_string(e, utf8);
}

void ndr_put_ustr_hdr(struct ndr_enc *e, const char *utf8)
{
	uint8_t *u = NULL;
	size_t n = 0;
	int rc;

	if (e->err)
		return;
	/* The struct holds a pointer, so it is 4-aligned as a whole. */
	ndr_put_align(e, 4);
	if (!utf8) {
		ndr_put_u16(e, 0);
		ndr_put_u16(e, 0);
		ndr_put_ptr(e, false);
		return;
	}
	rc = to_utf16(utf8, &u, &n);
	free(u);
	if (rc || n > 0x7fff) {
		e->err = rc ? rc : -E2BIG;
		return;
	}
	ndr_put_u16(e, n * 2);
	ndr_put_u16(e, n * 2);
	ndr_put_ptr(e, true);
}

void ndr_put_ustr_body(struct ndr_enc *e, const char *utf8)
{
	uint8_t *u = NULL;
	size_t n = 0;
	int rc;

	if (e->err || !utf8)
		return;
	rc = to_utf16(utf8, &u, &n);
	if (rc) {
		e->err = rc;
		return;
	}
	ndr_put_u32(e, n);
	ndr_put_u32(e, 0);
	ndr_put_u32(e, n);
	put_utf16(e, u, n);
	free(u);
}

void ndr_put_sid(struct ndr_enc *e, const struct ndr_sid *sid)
{
	unsigned int i, n = sid->num_auths;

	if (n > NDR_SID_MAX_SUBAUTH) {
		e->err = -EINVAL;
		return;
	}
	ndr_put_u32(e, n);
	ndr_put_u8(e, sid->revision);
	ndr_put_u8(e, n);
	ndr_put_bytes(e, sid->id_auth, 6);
	for (i = 0; i < n; i++)
		ndr_put_u32(e, sid->sub_auths[i]);
}

void ndr_put_handle(struct ndr_enc *e, const uint8_t h[NDR_HANDLE_SIZE])
{
	ndr_put_align(e, 4);
	ndr_put_bytes(e, h, NDR_HANDLE_SIZE);
}

/* Decoder */

void ndr_dec_init(struct ndr_dec *d, const uint8_t *data, size_t len)
{
	d->data = data;
	d->len = len;
	d->off = 0;
	d->err = 0;
}

size_t ndr_dec_remaining(const struct ndr_dec *d)
{
	return d->err ? 0 : d->len - d->off;
}

static const uint8_t *dec_take(struct ndr_dec *d, size_t n)
{
	const uint8_t *p;

	if (d->err)
		return NULL;
	if (n > d->len - d->off) {
		d->err = -EBADMSG;
		return NULL;
	}
	p = d->data + d->off;
	d->off += n;
	return p;
}

void ndr_get_align(struct ndr_dec *d, size_t n)
{
	dec_take(d, (n - (d->off % n)) % n);
}

void ndr_get_bytes(struct ndr_dec *d, void *out, size_t n)
{
	const uint8_t *p = dec_take(d, n);

	if (p)
		memcpy(out, p, n);
	else
		memset(out, 0, n);
}

uint8_t ndr_get_u8(struct ndr_dec *d)
{
	const uint8_t *p = dec_take(d, 1);

	return p ? p[0] : 0;
}

uint16_t ndr_get_u16(struct ndr_dec *d)
{
	const uint8_t *p;

	ndr_get_align(d, 2);
	p = dec_take(d, 2);
	return p ? (uint16_t)(p[0] | p[1] << 8) : 0;
}

uint32_t ndr_get_u32(struct ndr_dec *d)
{
	const uint8_t *p;

	ndr_get_align(d, 4);
	p = dec_take(d, 4);
	if (!p)
		return 0;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint32_t ndr_get_ptr(struct ndr_dec *d)
{
	return ndr_get_u32(d);
}

void ndr_dec_fail(struct ndr_dec *d)
{
	if (!d->err)
		d->err = -EBADMSG;
}

uint32_t ndr_get_count(struct ndr_dec *d, size_t elem_size)
{
	uint32_t n = ndr_get_u32(d);

	if (d->err)
		return 0;
	if (elem_size && n > ndr_dec_remaining(d) / elem_size) {
		ndr_dec_fail(d);
		return 0;
	}
	return n;
}

uint32_t ndr_get_varying(struct ndr_dec *d, size_t elem_size,
			 uint32_t *max_out)
{
	uint32_t max = ndr_get_u32(d);
	uint32_t offset = ndr_get_u32(d);
	uint32_t actual = ndr_get_u32(d);

	if (max_out)
		*max_out = 0;
	if (d->err)
		return 0;
	/* Nothing we decode ever starts a varying array past element 0. */
	if (offset != 0 || actual > max) {
		ndr_dec_fail(d);
		return 0;
	}
	if (elem_size && actual > ndr_dec_remaining(d) / elem_size) {
		ndr_dec_fail(d);
		return 0;
	}
	if (max_out)
		*max_out = max;
	return actual;
}

char *ndr_get_string(struct ndr_dec *d)
{
	const uint8_t *p;
	uint32_t n, i;
	char *s = NULL;

	n = ndr_get_varying(d, 2, NULL);
	if (d->err)
		return NULL;
	if (n == 0 || n > NDR_STRING_MAX) {
		ndr_dec_fail(d);
		return NULL;
	}
	p = dec_take(d, (size_t)n * 2);
	if (!p)
		return NULL;
	if (p[2 * (n - 1)] || p[2 * (n - 1) + 1]) {
		ndr_dec_fail(d);
		return NULL;
	}
	for (i = 0; i + 1 < n; i++) {
		if (!p[2 * i] && !p[2 * i + 1]) {
			ndr_dec_fail(d);
			return NULL;
		}
	}
	if (ksmbd_utf16le_to_utf8(p, n - 1, &s)) {
		ndr_dec_fail(d);
		return NULL;
	}
	return s;
}

char *ndr_get_string_ptr(struct ndr_dec *d, bool *present)
{
	uint32_t ref = ndr_get_ptr(d);

	if (present)
		*present = ref != 0;
	if (!ref || d->err)
		return NULL;
	return ndr_get_string(d);
}

void ndr_get_ustr_hdr(struct ndr_dec *d, struct ndr_ustr *u)
{
	ndr_get_align(d, 4);
	u->length = ndr_get_u16(d);
	u->max_length = ndr_get_u16(d);
	u->ptr = ndr_get_ptr(d);
	if (d->err) {
		memset(u, 0, sizeof(*u));
		return;
	}
	if ((u->length & 1) || u->length > u->max_length)
		ndr_dec_fail(d);
}

char *ndr_get_ustr_body(struct ndr_dec *d, const struct ndr_ustr *u)
{
	uint32_t max, n;
	const uint8_t *p;
	char *s = NULL;

	if (d->err)
		return NULL;
	if (!u->ptr)
		return strdup("");
	n = ndr_get_varying(d, 2, &max);
	if (d->err)
		return NULL;
	/* The counts must agree with the header they were promised in. */
	if (max != u->max_length / 2u || n != u->length / 2u ||
	    n > NDR_STRING_MAX) {
		ndr_dec_fail(d);
		return NULL;
	}
	p = dec_take(d, (size_t)n * 2);
	if (!p)
		return NULL;
	if (ksmbd_utf16le_to_utf8(p, n, &s)) {
		ndr_dec_fail(d);
		return NULL;
	}
	return s;
}

void ndr_free_strings(char **s, uint32_t n)
{
	uint32_t i;

	for (i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

char **ndr_get_ustr_array(struct ndr_dec *d, uint32_t n)
{
	struct ndr_ustr *hdr;
	char **s;
	uint32_t i;

	if (d->err)
		return NULL;
	hdr = calloc((size_t)n + 1, sizeof(*hdr));
	s = calloc((size_t)n + 1, sizeof(*s));
	if (!hdr || !s)
		goto fail;
	for (i = 0; i < n; i++)
		ndr_get_ustr_hdr(d, &hdr[i]);
	for (i = 0; i < n && !d->err; i++)
		s[i] = ndr_get_ustr_body(d, &hdr[i]);
	if (d->err)
		goto fail;
	free(hdr);
	return s;
fail:
	ndr_dec_fail(d);
	ndr_free_strings(s, n);
	free(hdr);
	return NULL;
}

void ndr_get_sid(struct ndr_dec *d, struct ndr_sid *sid)
{
	uint32_t max = ndr_get_u32(d);
	unsigned int i;

	memset(sid, 0, sizeof(*sid));
	sid->revision = ndr_get_u8(d);
	sid->num_auths = ndr_get_u8(d);
	ndr_get_bytes(d, sid->id_auth, 6);
	if (d->err)
		goto bad;
	if (sid->revision != 1 || sid->num_auths > NDR_SID_MAX_SUBAUTH ||
	    max != sid->num_auths)
		goto bad;
	for (i = 0; i < sid->num_auths; i++)
		sid->sub_auths[i] = ndr_get_u32(d);
	if (d->err)
		goto bad;
	return;
bad:
	ndr_dec_fail(d);
	memset(sid, 0, sizeof(*sid));
}

void ndr_get_handle(struct ndr_dec *d, uint8_t h[NDR_HANDLE_SIZE])
{
	ndr_get_align(d, 4);
	ndr_get_bytes(d, h, NDR_HANDLE_SIZE);
}

struct ndr_sid *ndr_get_sid_array(struct ndr_dec *d, uint32_t max,
				  uint32_t *count)
{
	struct ndr_sid *sids = NULL;
	uint32_t n, i, *ptrs = NULL;

	*count = 0;
	n = ndr_get_u32(d);
	if (!ndr_get_ptr(d)) {
		if (n || d->err)
			goto fail;
		return calloc(1, sizeof(*sids));
	}
	if (ndr_get_count(d, 4) != n || n > max || d->err)
		goto fail;
	/* n is bounded by the bytes present, so these stay small. */
	ptrs = calloc((size_t)n + 1, sizeof(*ptrs));
	sids = calloc((size_t)n + 1, sizeof(*sids));
	if (!ptrs || !sids)
		goto fail;
	for (i = 0; i < n; i++)
		ptrs[i] = ndr_get_ptr(d);
	for (i = 0; i < n && !d->err; i++) {
		if (!ptrs[i])
			goto fail;
		ndr_get_sid(d, &sids[i]);
	}
	if (d->err)
		goto fail;
	free(ptrs);
	*count = n;
	return sids;
fail:
	ndr_dec_fail(d);
	free(ptrs);
	free(sids);
	return NULL;
}

bool ndr_sid_equal(const struct ndr_sid *a, const struct ndr_sid *b)
{
	unsigned int i;

	if (a->revision != b->revision || a->num_auths != b->num_auths ||
	    memcmp(a->id_auth, b->id_auth, 6))
		return false;
	for (i = 0; i < a->num_auths && i < NDR_SID_MAX_SUBAUTH; i++)
		if (a->sub_auths[i] != b->sub_auths[i])
			return false;
	return true;
}

bool ndr_sid_in_domain(const struct ndr_sid *sid, const struct ndr_sid *domain,
		       uint32_t *rid)
{
	struct ndr_sid head;

	if (sid->num_auths != domain->num_auths + 1 || !sid->num_auths)
		return false;
	head = *sid;
	head.num_auths--;
	if (!ndr_sid_equal(&head, domain))
		return false;
	if (rid)
		*rid = sid->sub_auths[sid->num_auths - 1];
	return true;
}

void ndr_sid_compose(struct ndr_sid *out, const struct ndr_sid *domain,
		     uint32_t rid)
{
	*out = *domain;
	if (out->num_auths < NDR_SID_MAX_SUBAUTH)
		out->sub_auths[out->num_auths++] = rid;
}
