/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Security descriptors from and to Unix ownership and mode bits, for
 * QUERY_INFO / SET_INFO with SMB2_0_INFO_SECURITY. Plain C (host-tested).
 *
 * Identities are Samba's for unmapped Unix ids: user uid is S-1-22-1-uid,
 * group gid is S-1-22-2-gid. On input we also accept the server's domain
 * SID with the RID samr and lsarpc give the account (S-1-5-21-a-b-c-rid,
 * rid = KSMBD_RID_BASE + 2 * uid, or + 1 + 2 * gid for a group).
 *
 * The DACL has one ACCESS_ALLOWED ACE each for the owner, the group and
 * Everyone (S-1-1-0), carrying the rwx bits of that class; the owner's ACE
 * also has READ_CONTROL, WRITE_DAC and WRITE_OWNER (on Linux the owner may
 * chmod). Read back, an ACE's FILE_READ_DATA / FILE_WRITE_DATA /
 * FILE_EXECUTE bits (or the GENERIC_* equivalents) give r / w / x;
 * DENIED ACEs take bits away; inherit-only ACEs do not apply to the file.
 */
#ifndef KSMBD_SECDESC_H
#define KSMBD_SECDESC_H

#include "proto/shim.h"
#include "proto/buf.h"
#include "proto/secdesc_parse.h"
#include "proto/sd_posix.h"

/* Access mask bits and ACE flags: proto/secdesc_parse.h */

/* What the descriptor says about a file, in Unix terms. */
struct ksmbd_sd_unix {
	u32 uid;
	u32 gid;
	u16 mode;		/* permission bits, 0777 */
	bool directory;
};

/*
 * The Unix user / group a SID names: S-1-22-1-x / S-1-22-2-x, or the
 * server domain's RID for x. -ENOENT for any other SID.
 */
int ksmbd_sid_to_uid(const struct ksmbd_sid *sid, const u32 domain[3], u32 *uid);
int ksmbd_sid_to_gid(const struct ksmbd_sid *sid, const u32 domain[3], u32 *gid);

/*
 * Append a self-relative descriptor with the parts secinfo asks for
 * (KSMBD_OWNER/GROUP/DACL_SECINFO; SACL is answered empty). Returns the
 * size it needs; the writer records overflow when that does not fit.
 */
u32 ksmbd_secdesc_build(struct ksmbd_wbuf *w, const struct ksmbd_sd_unix *u,
			u32 secinfo);

/*
 * Permission bits from a parsed DACL, given the SIDs of the file's owner
 * and group (after any owner change in the same descriptor). A NULL DACL
 * grants everything: 0777.
 */
u16 ksmbd_secdesc_dacl_mode(const struct ksmbd_sd *sd,
			    const struct ksmbd_sid *owner,
			    const struct ksmbd_sid *group);

#endif /* KSMBD_SECDESC_H */
