/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Self-relative security descriptors written from their parts, and
 * SET_INFO(security)'s merge of a client's descriptor into the stored one.
 *
 * Canonical layout, the one Samba's NDR encoder (and so security.NTACL,
 * and the in-kernel ksmbd) writes: the 20-byte header, then owner, group,
 * SACL, DACL, each present part right after the previous one, no gaps.
 * Each part also starts at a multiple of 4, as Samba's NDR pull needs
 * (ntacl.h): a SID is 8 + 4n bytes and an ACL re-encoded here is its
 * header plus ACEs whose AceSize is a multiple of 4 (MS-DTYP 2.4.4.1;
 * ksmbd_sd_parse() refuses any other). (Windows itself writes SACL,
 * DACL, owner, group; clients follow the offsets either way.) ACLs are
 * re-encoded: AclSize is the header plus
 * the ACEs, slack after the last ACE is dropped, AceCount is what was
 * written; the ACEs themselves are copied as they are, in their order
 * (smb2.acls_non_canonical: a non-canonical order is kept as given).
 *
 * The functions return the size the descriptor needs (> 0) or a negative
 * errno for an input they refuse. When the writer has no room for all of
 * it, it records overflow and nothing usable was written: the caller
 * answers with that size (QUERY_INFO's BUFFER_TOO_SMALL) or retries with
 * a larger buffer. The largest descriptor is below 20 + 2 * 68 + 2 * 65535.
 */
#ifndef KSMBD_PROTO_SD_BUILD_H
#define KSMBD_PROTO_SD_BUILD_H

#include "shim.h"
#include "buf.h"
#include "secdesc_parse.h"

/* SecurityInformation bits beyond the four parts (MS-DTYP 2.4.7) */
enum {
	KSMBD_UNPROTECTED_SACL_SECINFO	= 0x10000000,
	KSMBD_UNPROTECTED_DACL_SECINFO	= 0x20000000,
	KSMBD_PROTECTED_SACL_SECINFO	= 0x40000000,
	KSMBD_PROTECTED_DACL_SECINFO	= 0x80000000,
};

/* Control bits that travel with the DACL and with the SACL. */
#define KSMBD_SE_DACL_BITS	(KSMBD_SE_DACL_PRESENT | \
				 KSMBD_SE_DACL_DEFAULTED | \
				 KSMBD_SE_DACL_AUTO_INHERIT_REQ | \
				 KSMBD_SE_DACL_AUTO_INHERITED | \
				 KSMBD_SE_DACL_PROTECTED)
#define KSMBD_SE_SACL_BITS	(KSMBD_SE_SACL_PRESENT | \
				 KSMBD_SE_SACL_DEFAULTED | \
				 KSMBD_SE_SACL_AUTO_INHERIT_REQ | \
				 KSMBD_SE_SACL_AUTO_INHERITED | \
				 KSMBD_SE_SACL_PROTECTED)

/*
 * Encode a descriptor. owner/group NULL: absent. sacl/dacl: a whole ACL
 * (header included, as struct ksmbd_sd holds it) or NULL; a NULL dacl
 * with KSMBD_SE_DACL_PRESENT in control is the NULL DACL (offset 0),
 * without it no DACL; a non-NULL one sets DACL_PRESENT (the same for the
 * SACL). SE_SELF_RELATIVE is always set. An ACL ksmbd_acl_check()
 * refuses (bad sizes or revision) is -EINVAL.
 */
int ksmbd_sd_build(struct ksmbd_wbuf *w, u16 control,
		   const struct ksmbd_sid *owner, const struct ksmbd_sid *group,
		   const struct ksmbd_buf *sacl, const struct ksmbd_buf *dacl);

/*
 * For writers that produce their ACLs themselves (sd_inherit.c): the
 * header, owner and group of a canonical descriptor whose SACL and DACL
 * (sizes; 0: absent) the caller writes next, SACL first. Returns the
 * whole descriptor's size; writes nothing (overflow recorded) unless all
 * of it fits. control is written as given, plus SE_SELF_RELATIVE.
 */
int ksmbd_sd_put_head(struct ksmbd_wbuf *w, u16 control,
		      const struct ksmbd_sid *owner,
		      const struct ksmbd_sid *group, u32 sacl_size,
		      u32 dacl_size);

/* A parsed descriptor written again in the canonical layout. */
int ksmbd_sd_write(struct ksmbd_wbuf *w, const struct ksmbd_sd *sd);

/*
 * QUERY_INFO(security): the parts secinfo names (OWNER, GROUP, DACL,
 * SACL) in the canonical layout; a part not asked for is left out with
 * its PRESENT bit, the rest of the control kept (what Samba answers).
 */
int ksmbd_sd_write_parts(struct ksmbd_wbuf *w, const struct ksmbd_sd *sd,
			 u32 secinfo);

/*
 * SET_INFO(security) (MS-SMB2 3.3.5.21.3, MS-DTYP 2.4.7): the stored
 * descriptor with each part secinfo names (OWNER, GROUP, DACL, SACL)
 * taken from the client's, with that part's control bits; the other
 * parts and bits stay. A named owner or group the client's descriptor
 * lacks is left as it was (Samba and W2K3); the caller's access rule
 * (WRITE_OWNER) should look at what was sent, as ksmbd_sd_sent() says.
 * A named DACL it lacks (no DACL_PRESENT) is stored as
 * the NULL DACL (DACL_PRESENT, no ACL: what it means), as Windows does
 * (smb2.create.nulldacl reads DACL_PRESENT back). GENERIC_* bits in
 * the given ACEs that apply to the object (not inherit-only) are mapped
 * (what Windows and Samba store). PROTECTED_/UNPROTECTED_DACL_SECINFO
 * set or clear SE_DACL_PROTECTED (the same for the SACL). LABEL_SECINFO
 * and other bits are ignored; secinfo naming no part writes the stored
 * descriptor unchanged.
 */
int ksmbd_sd_merge(struct ksmbd_wbuf *w, const struct ksmbd_sd *stored,
		   const struct ksmbd_sd *given, u32 secinfo);

/*
 * The parts a SET_INFO really sets: secinfo's OWNER/GROUP only when the
 * descriptor carries them, DACL and SACL as named. 0: nothing to do
 * (Samba and W2K3 answer success without touching the file).
 */
u32 ksmbd_sd_sent(const struct ksmbd_sd *given, u32 secinfo);

#endif /* KSMBD_PROTO_SD_BUILD_H */
