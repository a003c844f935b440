// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: what the server does with a stored descriptor and a client's
 * one (proto/sd_access.c, sd_build.c, sd_inherit.c, sd_posix.c).
 *
 * Input: byte 0 flags (bit 0 directory, bit 1 a creator descriptor,
 * bit 2 the caller is the owner, bits 3-6 privileges), bytes 1-4 the
 * desired access (le32), bytes 5-6 the parent's length (le16), the
 * parent descriptor, then the client's descriptor (SecD / SET_INFO).
 *
 * Checked: the access check's answer is well formed and the same on the
 * descriptor re-encoded canonically; re-encoding twice gives the same
 * bytes; the QUERY_INFO parts, merge and inherit produce parsable
 * descriptors of the size they report; the POSIX entries are what posix_acl_valid() accepts.
 */
#include "proto/sd_access.h"
#include "proto/sd_build.h"
#include "proto/sd_inherit.h"
#include "proto/sd_posix.h"

#include <stdlib.h>

static u8 out1[140000], out2[140000];
static struct ksmbd_pacl_entry acc[64], def[64];

static void sid_of(struct ksmbd_sid *s, u8 auth, u8 n, u32 a, u32 b, u32 c,
		   u32 d, u32 e)
{
	memset(s, 0, sizeof(*s));
	s->revision = 1;
	s->authority[5] = auth;
	s->num_subauth = n;
	s->sub_auth[0] = a;
	s->sub_auth[1] = b;
	s->sub_auth[2] = c;
	s->sub_auth[3] = d;
	s->sub_auth[4] = e;
}

static void check_access(const struct ksmbd_sd *sd,
			 const struct ksmbd_token *tok, u32 desired,
			 int *rc_out, u32 *granted_out)
{
	int deciding = 99;
	u32 granted = 0x5a5a5a5a;
	int rc;

	rc = ksmbd_sd_access_check(sd, tok, desired, &granted, &deciding);
	if (rc == 0) {
		if (granted & (KSMBD_MAXIMUM_ALLOWED | 0xf0000000u))
			abort();
		if (!(desired & KSMBD_MAXIMUM_ALLOWED) &&
		    granted != ksmbd_sd_map_generic(desired))
			abort();
	} else if (granted || deciding < -1 || deciding >= sd->ace_count) {
		abort();
	}
	*rc_out = rc;
	*granted_out = granted;
}

static void check_posix(const struct ksmbd_pacl_entry *e, u32 n)
{
	u32 i, obj = 0, named = 0, mask = 0;

	for (i = 0; i < n; i++) {
		if (e[i].perm > 7)
			abort();
		if (i && (e[i].tag < e[i - 1].tag ||
			  (e[i].tag == e[i - 1].tag && e[i].id <= e[i - 1].id)))
			abort();
		if (e[i].tag == KSMBD_PACL_USER || e[i].tag == KSMBD_PACL_GROUP)
			named++;
		else if (e[i].tag == KSMBD_PACL_MASK)
			mask++;
		else
			obj++;
	}
	if (n && (obj != 3 || mask != (named ? 1u : 0u)))
		abort();
}

static void reencode(const struct ksmbd_sd *sd, const struct ksmbd_token *tok,
		     u32 desired)
{
	struct ksmbd_wbuf w1 = ksmbd_wbuf_make(out1, sizeof(out1));
	struct ksmbd_wbuf w2 = ksmbd_wbuf_make(out2, sizeof(out2));
	struct ksmbd_sd again;
	struct ksmbd_buf b;
	int n, rc1, rc2;
	u32 g1, g2;

	n = ksmbd_sd_write(&w1, sd);
	if (n < 0)
		abort();	/* a parsed descriptor always re-encodes */
	b = ksmbd_buf_make(out1, w1.len);
	if (w1.overflow || (u32)n != w1.len || ksmbd_sd_parse(&b, &again))
		abort();
	if (ksmbd_sd_write(&w2, &again) != n || memcmp(out1, out2, w1.len))
		abort();
	check_access(sd, tok, desired, &rc1, &g1);
	check_access(&again, tok, desired, &rc2, &g2);
	if (rc1 != rc2 || g1 != g2)
		abort();
}

static void produced(int n, const struct ksmbd_wbuf *w)
{
	struct ksmbd_sd sd;
	struct ksmbd_buf b;

	if (n < 0 || w->overflow)
		return;
	b = ksmbd_buf_make(w->p, w->len);
	if ((u32)n != w->len || ksmbd_sd_parse(&b, &sd))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ksmbd_sid_unix_map dom = {
		.domain = { 1, 2, 3 }, .has_domain = true,
	};
	struct ksmbd_sd parent, creator, *c = NULL;
	struct ksmbd_sid sids[4], owner, group;
	struct ksmbd_token tok = { .sids = sids, .nr_sids = 3 };
	struct ksmbd_pacl p = { .acc = acc, .acc_cap = 64, .def = def,
				.def_cap = 64 };
	struct ksmbd_wbuf w;
	struct ksmbd_buf b;
	u32 desired, plen, granted;
	bool dir;
	u8 flags;

	if (size < 7 || size > 70000)
		return 0;
	flags = data[0];
	desired = get_unaligned_le32(data + 1);
	plen = get_unaligned_le16(data + 5);
	if (plen > size - 7)
		return 0;
	b = ksmbd_buf_make(data + 7, plen);
	if (ksmbd_sd_parse(&b, &parent))
		return 0;
	b = ksmbd_buf_make(data + 7 + plen, (u32)(size - 7 - plen));
	if ((flags & 2) && !ksmbd_sd_parse(&b, &creator))
		c = &creator;
	dir = flags & 1;

	sid_of(&sids[0], 5, 5, 21, 1, 2, 3, 3000);
	sid_of(&sids[1], 1, 1, 0, 0, 0, 0, 0);
	sid_of(&sids[2], 5, 5, 21, 1, 2, 3, 1201);
	if ((flags & 4) && parent.has_owner)
		sids[tok.nr_sids++] = parent.owner;
	tok.privileges = (flags >> 3) & 0xf;
	owner = sids[0];
	group = sids[2];

	reencode(&parent, &tok, desired);

	/* the client's descriptor stands in for a parent directory's */
	if (!ksmbd_sd_access_check_open(&parent, c, &tok, desired, &granted,
					NULL) &&
	    (granted & (KSMBD_MAXIMUM_ALLOWED | 0xf0000000u)))
		abort();

	w = ksmbd_wbuf_make(out1, sizeof(out1));
	produced(ksmbd_sd_write_parts(&w, &parent, desired), &w);
	if (c) {
		w = ksmbd_wbuf_make(out1, sizeof(out1));
		produced(ksmbd_sd_merge(&w, &parent, c, desired), &w);
	}
	w = ksmbd_wbuf_make(out1, sizeof(out1));
	produced(ksmbd_sd_inherit(&w, &parent, c, &owner, &group,
				  parent.has_dacl && !parent.null_dacl ?
				  &parent.dacl : NULL, dir), &w);
	/* and once into a writer too small for it */
	w = ksmbd_wbuf_make(out1, 40);
	produced(ksmbd_sd_inherit(&w, &parent, c, &owner, &group, NULL, dir),
		 &w);

	if (!ksmbd_sd_to_posix(&parent, 1000, 100, dir, ksmbd_sid_map_unix,
			       &dom, &p)) {
		check_posix(acc, p.acc_count);
		check_posix(def, p.def_count);
	}
	return 0;
}
