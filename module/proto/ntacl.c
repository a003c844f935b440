// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * security.NTACL values; see ntacl.h for what is checked and why.
 *
 * The NDR (version 1 transfer syntax, little-endian) layout, offsets from
 * the value's first byte:
 *
 *   0  u16 version           2  u16 union level, equal to version
 *   4  u32 referent of the union's pointer (non-zero)
 *   v1  8  the descriptor
 *   v2  8  u32 descriptor referent, 12 hash[16];          28 descriptor
 *   v3  8  u32 descriptor referent, 12 u16 hash type,
 *         14 hash[64];                                    80 descriptor
 *   v4  as v3 to 78, then the description, NUL-terminated (no length);
 *       NTTIME at the next multiple of 4, sys_acl_hash[64] after it,
 *       then the descriptor
 *
 * The descriptor is aligned to 4 (its struct holds pointers). Its owner,
 * group, SACL and DACL offsets are NDR relative pointers, and xattr.idl
 * gives the descriptor no relative base of its own: they count from the
 * value's first byte, not the descriptor's. Samba pulls each part with a
 * 4-byte alignment, so parts must start at multiples of 4.
 */
#include "ntacl.h"
#include "buf.h"
#include "crypto.h"
#include "secdesc_parse.h"

enum {
	NTACL_REF_ARM		= 0x00020000,	/* NDR's first referent id */
	NTACL_REF_SD		= 0x00020004,
	NTACL_V2_SD_AT		= 28,
	NTACL_V3_SD_AT		= 80,
	NTACL_HASH_TYPE_AT	= 12,
	NTACL_HASH_AT		= 14,
	NTACL_DESC_AT		= 78,
	NTACL_V2_HASH_SIZE	= 16,
	/* Samba's range(0, 2000) on security_acl.num_aces */
	NTACL_MAX_ACES		= 2000,
	/* what a 64 KiB system.posix_acl_* value can hold */
	NTACL_POSIX_MAX		= 8191,
	NTACL_PART_OWNER	= 0,
	NTACL_PART_GROUP,
	NTACL_PART_SACL,
	NTACL_PART_DACL,
	NTACL_PARTS,
};

static const char ntacl_desc[] = "posix_acl";

struct ntacl_layout {
	u16 version;
	u16 hash_type;
	u32 sd_at;
	const u8 *hash;		/* v3, v4 */
	const u8 *sys_hash;	/* v4 */
};

struct sd_part {
	u32 off;	/* in the source; 0: absent */
	u32 len;
	bool acl;
};

struct sd_split {
	u16 control;
	struct sd_part part[NTACL_PARTS];
};

static int ntacl_layout(const struct ksmbd_buf *v, struct ntacl_layout *l)
{
	const u8 *nul;
	u16 level;
	u32 ref, t;

	memset(l, 0, sizeof(*l));
	if (!ksmbd_buf_get_le16(v, 0, &l->version) ||
	    !ksmbd_buf_get_le16(v, 2, &level) ||
	    !ksmbd_buf_get_le32(v, 4, &ref) || level != l->version || !ref)
		return -EINVAL;
	if (l->version < 1 || l->version > 4)
		return -EINVAL;
	if (l->version == 1) {
		l->sd_at = 8;
		return 0;
	}
	/* every other arm is a struct that starts with the SD's pointer */
	if (!ksmbd_buf_get_le32(v, 8, &ref) || !ref)
		return -EINVAL;
	if (l->version == 2) {
		l->sd_at = NTACL_V2_SD_AT;
		return 0;
	}
	if (!ksmbd_buf_get_le16(v, NTACL_HASH_TYPE_AT, &l->hash_type) ||
	    !ksmbd_range_ok(v->len, NTACL_HASH_AT, KSMBD_NTACL_HASH_SIZE))
		return -EINVAL;
	l->hash = v->p + NTACL_HASH_AT;
	if (l->version == 3) {
		l->sd_at = NTACL_V3_SD_AT;
		return 0;
	}
	if (v->len <= NTACL_DESC_AT)
		return -EINVAL;
	nul = memchr(v->p + NTACL_DESC_AT, 0, v->len - NTACL_DESC_AT);
	if (!nul)
		return -EINVAL;
	t = ALIGN((u32)(nul - v->p) + 1, 4u);
	if (!ksmbd_range_ok(v->len, t, 8 + KSMBD_NTACL_HASH_SIZE))
		return -EINVAL;
	l->sys_hash = v->p + t + 8;
	l->sd_at = t + 8 + KSMBD_NTACL_HASH_SIZE;
	return 0;
}

/*
 * An ACL at off of src (ksmbd_acl_check()), no more ACEs than Samba
 * takes; its AclSize in *len.
 */
static int acl_check(const struct ksmbd_buf *src, u32 off, u32 *len)
{
	struct ksmbd_buf acl;
	u16 count;

	if (ksmbd_acl_check(src, off, &acl, &count) < 0 ||
	    count > NTACL_MAX_ACES)
		return -EINVAL;
	*len = acl.len;
	return 0;
}

/*
 * The descriptor whose header is at hdr_at of src, offsets counted from
 * src's start. A DACL or SACL whose Present bit is clear is dropped
 * (MS-DTYP 2.4.6); every part kept is validated.
 */
static int sd_split(const struct ksmbd_buf *src, u32 hdr_at,
		    struct sd_split *s)
{
	static const u16 present[NTACL_PARTS] = {
		0, 0, KSMBD_SE_SACL_PRESENT, KSMBD_SE_DACL_PRESENT,
	};
	struct ksmbd_sid sid;
	struct sd_part *p;
	u32 i;
	int rc;

	memset(s, 0, sizeof(*s));
	if (!ksmbd_range_ok(src->len, hdr_at, KSMBD_SD_HDR_SIZE) ||
	    src->p[hdr_at] != 1)
		return -EINVAL;
	s->control = get_unaligned_le16(src->p + hdr_at + 2);
	for (i = 0; i < NTACL_PARTS; i++) {
		p = &s->part[i];
		p->off = get_unaligned_le32(src->p + hdr_at + 4 + 4 * i);
		if (present[i] && !(s->control & present[i]))
			p->off = 0;
		if (!p->off)
			continue;
		if (p->off < hdr_at + KSMBD_SD_HDR_SIZE || p->off >= src->len)
			return -EINVAL;
		p->acl = i >= NTACL_PART_SACL;
		if (p->acl)
			rc = acl_check(src, p->off, &p->len);
		else
			rc = ksmbd_sid_parse(src, p->off, &sid, &p->len);
		if (rc)
			return -EINVAL;
	}
	return 0;
}

static u32 sd_canon_size(const struct sd_split *s)
{
	u32 i, n = KSMBD_SD_HDR_SIZE;

	for (i = 0; i < NTACL_PARTS; i++)
		if (s->part[i].off)
			n += ALIGN(s->part[i].len, 4u);
	return n;
}

/*
 * Write the descriptor at w's (4-aligned) position: header, then owner,
 * group, SACL and DACL each at a multiple of 4, as Samba pushes them. The
 * offsets written are w positions, which is what both users want: sd_out
 * holds the descriptor alone, an NTACL value counts from its own start.
 * ACL reserved bytes are written as zero (Samba reads AceCount and Sbz2
 * as one u32 and refuses more than 2000). smbcacls makes its ACLs with
 * AclRevision 3, which Windows accepts but MS-DTYP 2.4.5 and
 * ksmbd_sd_parse() do not: such an ACL is handed out as revision 2, the
 * revision of the ACE types it may hold.
 */
static void sd_emit(const struct ksmbd_buf *src, const struct sd_split *s,
		    struct ksmbd_wbuf *w)
{
	u8 *hdr, *at;
	u32 i;

	hdr = ksmbd_wbuf_reserve(w, KSMBD_SD_HDR_SIZE);
	if (!hdr)
		return;
	hdr[0] = 1;
	put_unaligned_le16(s->control | KSMBD_SE_SELF_RELATIVE, hdr + 2);
	for (i = 0; i < NTACL_PARTS; i++) {
		const struct sd_part *p = &s->part[i];

		if (!p->off)
			continue;
		put_unaligned_le32(w->len, hdr + 4 + 4 * i);
		at = ksmbd_wbuf_reserve_raw(w, p->len);
		if (!at)
			return;
		memcpy(at, src->p + p->off, p->len);
		if (p->acl) {
			if (at[0] == 3)
				at[0] = 2;
			at[1] = 0;
			at[6] = 0;
			at[7] = 0;
		}
		ksmbd_wbuf_pad(w, 4);
	}
}

/* POSIX ACL tags as Samba's smb_acl_tag_t numbers them */
static int smb_acl_tag(u16 tag)
{
	switch (tag) {
	case KSMBD_POSIX_USER:		return 1;
	case KSMBD_POSIX_USER_OBJ:	return 2;
	case KSMBD_POSIX_GROUP:		return 3;
	case KSMBD_POSIX_GROUP_OBJ:	return 4;
	case KSMBD_POSIX_OTHER:		return 5;
	case KSMBD_POSIX_MASK:		return 6;
	}
	return -EINVAL;
}

/*
 * One smb_acl_t as a deferred pointer target: its conformance count, the
 * struct (aligned to 8 for the uid_t in its entries' union), then every
 * smb_acl_entry: tag (enum, u16), union level (u16), a uid or gid as
 * uid_t (hyper) for USER and GROUP, a_perm (mode_t, u32).
 */
static int put_smb_acl(struct ksmbd_wbuf *w, const struct ksmbd_posix_ace *e,
		       u32 n)
{
	u32 i;
	int tag;

	ksmbd_wbuf_pad(w, 4);
	ksmbd_wbuf_put_le32(w, n);
	ksmbd_wbuf_pad(w, 8);
	ksmbd_wbuf_put_le32(w, n);
	ksmbd_wbuf_put_le32(w, 0);	/* "next": [value(0)] */
	for (i = 0; i < n; i++) {
		tag = smb_acl_tag(e[i].tag);
		if (tag < 0)
			return tag;
		ksmbd_wbuf_pad(w, 8);
		ksmbd_wbuf_put_le16(w, (u16)tag);
		ksmbd_wbuf_put_le16(w, (u16)tag);
		if (e[i].tag == KSMBD_POSIX_USER ||
		    e[i].tag == KSMBD_POSIX_GROUP) {
			ksmbd_wbuf_pad(w, 8);
			ksmbd_wbuf_put_le64(w, e[i].id);
		}
		ksmbd_wbuf_put_le32(w, e[i].perm & 7);
	}
	return 0;
}

#define NTACL_S_IFMT	0170000u
#define NTACL_S_IFDIR	0040000u

/*
 * Samba's smb_acl_wrapper of the file (posix_sys_acl_blob_get_fd()): the
 * access ACL is always there (libacl makes the mode's three entries when
 * the file has none), the default ACL on directories only (empty when
 * the directory has none).
 */
static int samba_wrapper(struct ksmbd_wbuf *w, const struct ksmbd_ntacl_unix *u)
{
	struct ksmbd_posix_ace mode_acl[3] = {
		{ KSMBD_POSIX_USER_OBJ, (u->mode >> 6) & 7, 0 },
		{ KSMBD_POSIX_GROUP_OBJ, (u->mode >> 3) & 7, 0 },
		{ KSMBD_POSIX_OTHER, u->mode & 7, 0 },
	};
	bool dir = (u->mode & NTACL_S_IFMT) == NTACL_S_IFDIR;
	int rc;

	ksmbd_wbuf_put_le32(w, NTACL_REF_ARM);
	ksmbd_wbuf_put_le32(w, dir ? NTACL_REF_SD : 0);
	ksmbd_wbuf_put_le64(w, u->uid);
	ksmbd_wbuf_put_le64(w, u->gid);
	ksmbd_wbuf_put_le32(w, u->mode);
	if (u->acl)
		rc = put_smb_acl(w, u->acl, u->acl_count);
	else
		rc = put_smb_acl(w, mode_acl, ARRAY_SIZE(mode_acl));
	if (!rc && dir)
		rc = put_smb_acl(w, u->def, u->def ? u->def_count : 0);
	return rc;
}

/*
 * The in-kernel ksmbd's variant of the same wrapper: an ACL pointer only
 * where the file has that ACL, the default ACL's body only after an
 * access ACL.
 */
static int ksmbd_wrapper(struct ksmbd_wbuf *w, const struct ksmbd_ntacl_unix *u)
{
	bool dir = (u->mode & NTACL_S_IFMT) == NTACL_S_IFDIR;
	bool def = dir && u->def;
	u32 ref = NTACL_REF_ARM;
	int rc = 0;

	ksmbd_wbuf_put_le32(w, u->acl ? ref : 0);
	if (u->acl)
		ref += 4;
	ksmbd_wbuf_put_le32(w, def ? ref : 0);
	ksmbd_wbuf_put_le64(w, u->uid);
	ksmbd_wbuf_put_le64(w, u->gid);
	ksmbd_wbuf_put_le32(w, u->mode);
	if (u->acl) {
		rc = put_smb_acl(w, u->acl, u->acl_count);
		if (!rc && def)
			rc = put_smb_acl(w, u->def, u->def_count);
	}
	return rc;
}

/* The most a wrapper takes: header, two ACL headers, 24 bytes an entry. */
static u32 wrapper_size(const struct ksmbd_ntacl_unix *u)
{
	return 32 + 2 * 16 + 24 * (3u + (u->acl ? u->acl_count : 0) +
				   (u->def ? u->def_count : 0));
}

static int sys_acl_hash(const struct ksmbd_ntacl_unix *u, bool samba,
			u8 hash[KSMBD_NTACL_HASH_SIZE])
{
	u8 small[256];
	u32 cap = wrapper_size(u);
	struct ksmbd_wbuf w;
	struct ksmbd_buf part;
	u8 *blob = small;
	int rc;

	if ((u->acl && u->acl_count > NTACL_POSIX_MAX) ||
	    (u->def && u->def_count > NTACL_POSIX_MAX))
		return -EINVAL;
	if (cap > sizeof(small)) {
		blob = kvmalloc(cap, GFP_KERNEL);
		if (!blob)
			return -ENOMEM;
	}
	w = ksmbd_wbuf_make(blob, cap);
	rc = samba ? samba_wrapper(&w, u) : ksmbd_wrapper(&w, u);
	if (!rc && w.overflow)
		rc = -EINVAL;
	if (!rc) {
		memset(hash, 0, KSMBD_NTACL_HASH_SIZE);
		part = ksmbd_buf_make(blob, w.len);
		rc = ksmbd_crypto_sha256(&part, 1, hash);
	}
	if (blob != small)
		kvfree(blob);
	return rc;
}

/* Does v4's sys_acl_hash vouch for the file as it is now? */
static int sys_hash_matches(const struct ntacl_layout *l,
			    const struct ksmbd_ntacl_unix *u)
{
	u8 want[KSMBD_NTACL_HASH_SIZE];
	int rc;

	rc = sys_acl_hash(u, true, want);
	if (rc)
		return rc;
	if (!memcmp(want, l->sys_hash, sizeof(want)))
		return 1;
	rc = sys_acl_hash(u, false, want);
	if (rc)
		return rc;
	return !memcmp(want, l->sys_hash, sizeof(want));
}

/* 0 when the value's descriptor is to be used, else -EBADMSG (or -errno). */
static int ntacl_vouch(const struct ntacl_layout *l,
		       const struct ksmbd_ntacl_unix *u, bool *hash_ok)
{
	int rc;

	*hash_ok = false;
	if (l->version <= 2 || l->hash_type == KSMBD_NTACL_HASH_NONE)
		return 0;
	if (l->hash_type != KSMBD_NTACL_HASH_SHA256 || l->version == 3 || !u)
		return -EBADMSG;
	rc = sys_hash_matches(l, u);
	if (rc < 0)
		return rc;
	*hash_ok = rc == 1;
	return *hash_ok ? 0 : -EBADMSG;
}

int ksmbd_ntacl_decode(const u8 *val, u32 len,
		       const struct ksmbd_ntacl_unix *unix_state,
		       u8 *sd_out, u32 sd_size, struct ksmbd_ntacl_info *info)
{
	struct ksmbd_buf v = ksmbd_buf_make(val, len), out;
	struct ntacl_layout l;
	struct sd_split s;
	struct ksmbd_wbuf w;
	struct ksmbd_sd parsed;
	bool hash_ok;
	int rc;

	if (info)
		memset(info, 0, sizeof(*info));
	if (!val || len > KSMBD_NTACL_MAX || ntacl_layout(&v, &l) ||
	    sd_split(&v, l.sd_at, &s))
		return -EINVAL;
	if (info) {
		info->version = l.version;
		info->hash_type = l.hash_type;
	}
	rc = ntacl_vouch(&l, unix_state, &hash_ok);
	if (info)
		info->hash_ok = hash_ok;
	if (rc)
		return rc;
	if (sd_canon_size(&s) > sd_size)
		return -ENOSPC;
	w = ksmbd_wbuf_make(sd_out, sd_size);
	sd_emit(&v, &s, &w);
	out = ksmbd_buf_make(sd_out, w.len);
	if (w.overflow || ksmbd_sd_parse(&out, &parsed))
		return -EINVAL;
	if (info)
		info->sd_len = w.len;
	return (int)w.len;
}

static int ntacl_encode_split(const u8 *sd, u32 sd_len, struct sd_split *s)
{
	struct ksmbd_buf in = ksmbd_buf_make(sd, sd_len);
	struct ksmbd_sd parsed;

	if (!sd || sd_len > KSMBD_NTACL_MAX || ksmbd_sd_parse(&in, &parsed))
		return -EINVAL;
	return sd_split(&in, 0, s);
}

static u32 ntacl_v4_sd_at(void)
{
	u32 t = ALIGN((u32)NTACL_DESC_AT + (u32)sizeof(ntacl_desc), 4u);

	return t + 8 + KSMBD_NTACL_HASH_SIZE;
}

int ksmbd_ntacl_encoded_size(const u8 *sd, u32 sd_len)
{
	struct sd_split s;

	if (ntacl_encode_split(sd, sd_len, &s))
		return -EINVAL;
	return (int)(ntacl_v4_sd_at() + sd_canon_size(&s));
}

int ksmbd_ntacl_encode(const u8 *sd, u32 sd_len,
		       const struct ksmbd_ntacl_unix *unix_state,
		       u8 *out, u32 out_size)
{
	struct ksmbd_buf in = ksmbd_buf_make(sd, sd_len), stored;
	u8 sys_hash[KSMBD_NTACL_HASH_SIZE];
	u32 sd_at = ntacl_v4_sd_at();
	struct ksmbd_wbuf w;
	struct sd_split s;
	u8 *hdr;
	int rc;

	if (!unix_state || ntacl_encode_split(sd, sd_len, &s))
		return -EINVAL;
	rc = sys_acl_hash(unix_state, true, sys_hash);
	if (rc)
		return rc;
	if (sd_at + sd_canon_size(&s) > out_size)
		return -ENOSPC;
	w = ksmbd_wbuf_make(out, out_size);
	hdr = ksmbd_wbuf_reserve(&w, sd_at);
	if (!hdr)
		return -ENOSPC;
	put_unaligned_le16(4, hdr);
	put_unaligned_le16(4, hdr + 2);
	put_unaligned_le32(NTACL_REF_ARM, hdr + 4);
	put_unaligned_le32(NTACL_REF_SD, hdr + 8);
	put_unaligned_le16(KSMBD_NTACL_HASH_SHA256, hdr + NTACL_HASH_TYPE_AT);
	memcpy(hdr + NTACL_DESC_AT, ntacl_desc, sizeof(ntacl_desc));
	/*
	 * NTTIME left 0: no reader looks at it (xattr.idl says 0, Samba
	 * 4.17 writes its clock there)
	 */
	memcpy(hdr + sd_at - KSMBD_NTACL_HASH_SIZE, sys_hash,
	       KSMBD_NTACL_HASH_SIZE);
	sd_emit(&in, &s, &w);
	if (w.overflow)
		return -ENOSPC;
	/* hash: SHA-256 of the SD as stored, as the in-kernel ksmbd has it */
	stored = ksmbd_buf_make(out + sd_at, w.len - sd_at);
	rc = ksmbd_crypto_sha256(&stored, 1, hdr + NTACL_HASH_AT);
	if (rc)
		return rc;
	return (int)w.len;
}
