/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NDR32 little-endian marshalling (C706 chapter 14, MS-RPCE 2.2.5).
 *
 * Both directions use a sticky error: the first failure is remembered in
 * ->err and every later call becomes a no-op, so a handler can decode or
 * encode a whole call and check the outcome once. Decoded values are zero
 * when the decoder has failed, so they are safe to look at (but not to trust).
 */
#ifndef KSMBD_RPC_NDR_H
#define KSMBD_RPC_NDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NDR_HANDLE_SIZE		20
#define NDR_SID_MAX_SUBAUTH	15
/* Upper bound on any string we decode, in UTF-16 code units. */
#define NDR_STRING_MAX		4096

struct ndr_sid {
	uint8_t revision;
	uint8_t num_auths;
	uint8_t id_auth[6];
	uint32_t sub_auths[NDR_SID_MAX_SUBAUTH];
};

/* RPC_UNICODE_STRING header (MS-DTYP 2.3.10); the buffer is deferred. */
struct ndr_ustr {
	uint16_t length;	/* bytes, without terminator */
	uint16_t max_length;	/* bytes */
	uint32_t ptr;		/* referent id, 0 = NULL */
};

struct ndr_enc {
	uint8_t *data;
	size_t len;
	size_t cap;
	uint32_t next_ref;
	int err;
};

struct ndr_dec {
	const uint8_t *data;
	size_t len;
	size_t off;
	int err;
};

/* Encoder */
void ndr_enc_init(struct ndr_enc *e);
void ndr_enc_free(struct ndr_enc *e);
void ndr_put_align(struct ndr_enc *e, size_t n);
void ndr_put_u8(struct ndr_enc *e, uint8_t v);
void ndr_put_u16(struct ndr_enc *e, uint16_t v);
void ndr_put_u32(struct ndr_enc *e, uint32_t v);
void ndr_put_u64(struct ndr_enc *e, uint64_t v);	/* 4-aligned, as NTTIME */
void ndr_put_bytes(struct ndr_enc *e, const void *p, size_t n);
void ndr_put_zeros(struct ndr_enc *e, size_t n);
/* A unique/full pointer: a fresh non-zero referent id, or 0 when !present. */
void ndr_put_ptr(struct ndr_enc *e, bool present);
/* [string] wchar_t* body: max_count, offset, actual_count, UTF-16LE + NUL. */
void ndr_put_string(struct ndr_enc *e, const char *utf8);
/* Unique pointer to a [string] wchar_t, referent written right away. */
void ndr_put_string_ptr(struct ndr_enc *e, const char *utf8);
/* RPC_UNICODE_STRING: header now, body later (NULL pointer when s is NULL). */
void ndr_put_ustr_hdr(struct ndr_enc *e, const char *utf8);
void ndr_put_ustr_body(struct ndr_enc *e, const char *utf8);
/* RPC_SID with its leading conformance count. */
void ndr_put_sid(struct ndr_enc *e, const struct ndr_sid *sid);
void ndr_put_handle(struct ndr_enc *e, const uint8_t h[NDR_HANDLE_SIZE]);
/* Overwrite a u32 already emitted at @off (for counts known late). */
void ndr_patch_u32(struct ndr_enc *e, size_t off, uint32_t v);

/* Decoder */
void ndr_dec_init(struct ndr_dec *d, const uint8_t *data, size_t len);
size_t ndr_dec_remaining(const struct ndr_dec *d);
/* Mark the input malformed (semantic checks done by callers). */
void ndr_dec_fail(struct ndr_dec *d);
void ndr_get_align(struct ndr_dec *d, size_t n);
uint8_t ndr_get_u8(struct ndr_dec *d);
uint16_t ndr_get_u16(struct ndr_dec *d);
uint32_t ndr_get_u32(struct ndr_dec *d);
void ndr_get_bytes(struct ndr_dec *d, void *out, size_t n);
/* Referent id of a unique pointer; 0 means NULL. */
uint32_t ndr_get_ptr(struct ndr_dec *d);
/*
 * Conformance count of an array whose elements take at least @elem_size
 * bytes each; fails unless that many bytes are still present.
 */
uint32_t ndr_get_count(struct ndr_dec *d, size_t elem_size);
/*
 * Conformant varying array header: max_count, offset, actual_count. Checks
 * offset == 0, actual <= max and that actual elements of @elem_size bytes
 * are present; returns actual_count. @max_out receives max_count if given.
 * Element alignment is left to the caller.
 */
uint32_t ndr_get_varying(struct ndr_dec *d, size_t elem_size,
			 uint32_t *max_out);
/*
 * [string] wchar_t* body as a malloc'ed UTF-8 string (NULL on failure). The
 * last code unit must be the terminator and none before it may be.
 */
char *ndr_get_string(struct ndr_dec *d);
/* Unique pointer to a [string]: NULL pointer gives NULL without error. */
char *ndr_get_string_ptr(struct ndr_dec *d, bool *present);
void ndr_get_ustr_hdr(struct ndr_dec *d, struct ndr_ustr *u);
/* Deferred body of a header with a non-NULL pointer; "" for NULL. */
char *ndr_get_ustr_body(struct ndr_dec *d, const struct ndr_ustr *u);
/*
 * The elements of an RPC_UNICODE_STRING array whose count @n the caller has
 * read and bounded: @n headers, then their deferred bodies. A malloc'ed
 * array of @n strings (plus a NULL), or NULL with the decoder failed.
 */
char **ndr_get_ustr_array(struct ndr_dec *d, uint32_t n);
/* Frees what ndr_get_ustr_array returned (NULL is fine). */
void ndr_free_strings(char **s, uint32_t n);
void ndr_get_sid(struct ndr_dec *d, struct ndr_sid *sid);
void ndr_get_handle(struct ndr_dec *d, uint8_t h[NDR_HANDLE_SIZE]);

/*
 * { Count; [size_is(Count)] struct { RPC_SID *Sid; } *Sids } as in
 * LSAPR_SID_ENUM_BUFFER and SAMPR_PSID_ARRAY: a malloc'ed array (one spare
 * element, so never NULL on success) or NULL with the decoder failed.
 * NULL SID pointers inside are refused.
 */
struct ndr_sid *ndr_get_sid_array(struct ndr_dec *d, uint32_t max,
				  uint32_t *count);

/* Helpers */
bool ndr_sid_equal(const struct ndr_sid *a, const struct ndr_sid *b);
/* True when @sid is @domain plus exactly one more sub-authority (the rid). */
bool ndr_sid_in_domain(const struct ndr_sid *sid, const struct ndr_sid *domain,
		       uint32_t *rid);
void ndr_sid_compose(struct ndr_sid *out, const struct ndr_sid *domain,
		     uint32_t rid);

#endif
