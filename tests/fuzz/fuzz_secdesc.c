// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: a security descriptor as SET_INFO would receive it. What
 * parses is mapped to mode bits; owner/group found are put into a new
 * descriptor, which must parse again and give back the same mode.
 */
#include "secdesc.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const u32 domain[3] = { 1, 2, 3 };
	struct ksmbd_sid owner, group;
	struct ksmbd_sd_unix u = { 0 };
	struct ksmbd_wbuf w;
	struct ksmbd_buf b;
	struct ksmbd_sd sd, again;
	u8 out[512];
	u32 need;

	if (size > 65536)
		return 0;
	b = ksmbd_buf_make(data, (u32)size);
	if (ksmbd_sd_parse(&b, &sd))
		return 0;
	if (sd.has_dacl && !sd.null_dacl &&
	    (sd.dacl.p < b.p || sd.dacl.p + sd.dacl.len > b.p + b.len))
		abort();
	ksmbd_sid_unix_user(1000, &owner);
	ksmbd_sid_unix_group(1000, &group);
	if (sd.has_owner)
		owner = sd.owner;
	if (sd.has_group)
		group = sd.group;
	if (ksmbd_sid_to_uid(&owner, domain, &u.uid))
		u.uid = 0;
	if (ksmbd_sid_to_gid(&group, domain, &u.gid))
		u.gid = 0;
	u.mode = sd.has_dacl ? ksmbd_secdesc_dacl_mode(&sd, &owner, &group) : 0644;
	w = ksmbd_wbuf_make(out, sizeof(out));
	need = ksmbd_secdesc_build(&w, &u, KSMBD_OWNER_SECINFO |
				   KSMBD_GROUP_SECINFO | KSMBD_DACL_SECINFO);
	if (w.overflow || need != w.len)
		abort();
	b = ksmbd_buf_make(out, w.len);
	if (ksmbd_sd_parse(&b, &again))
		abort();
	ksmbd_sid_unix_user(u.uid, &owner);
	ksmbd_sid_unix_group(u.gid, &group);
	if (ksmbd_secdesc_dacl_mode(&again, &owner, &group) != u.mode)
		abort();
	return 0;
}
