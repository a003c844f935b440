// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SET_INFO (MS-SMB2 3.3.5.21): file classes and security.
 *
 * Every change goes through the VFS layer as the handle's user:
 * attributes and ownership through notify_change() after
 * setattr_prepare(), so the kernel refuses a chmod or chown the user may
 * not do (bug class 5), and renames and links beneath the share root only
 * (bug class 4). Client buffers are read through struct ksmbd_buf only;
 * the EA chain and the security descriptor go through their checked
 * parsers (bug classes 12, 29, 46, 49, 59).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/xattr.h>
#include "dosattr.h"
#include "fattr.h"
#include "file.h"
#include "fileinfo.h"
#include "oplock.h"
#include "ksmbd_trace.h"
#include "proto/decode.h"
#include "ntacl_store.h"
#include "proto/sd_build.h"
#include "secdesc.h"
#include "server.h"
#include "share.h"
#include "smb2_dispatch.h"
#include "smb2_info.h"
#include "streams.h"
#include "tree.h"
#include "vfs.h"
#include "vfs_name.h"
#include "bufpool.h"

struct sinfo_req {
	u8 type;
	u8 cls;
	u32 addl;
	u64 pid, vid;
	struct ksmbd_buf buf;
	const struct ksmbd_conn *conn;	/* for the tracepoints */
	struct ksmbd_smb2_ctx *ctx;	/* may go async waiting for a break */
};

static int sinfo_decode(const struct ksmbd_req *req, struct sinfo_req *s)
{
	struct ksmbd_set_info_req r;

	if (ksmbd_set_info_decode(req, &r))
		return -EINVAL;
	s->type = r.info_type;
	s->cls = r.info_class;
	s->addl = r.additional;
	s->pid = r.pid;
	s->vid = r.vid;
	s->buf = r.buffer;
	return 0;
}

static bool has_access(const struct ksmbd_file *fp, u32 access)
{
	return (fp->daccess & access) == access;
}

/* ---- FileBasicInformation ---- */

/* 0 and -1 leave a time alone (-1: "stop updating", which we cannot). */
static bool time_given(u64 t)
{
	return t && t != U64_MAX && t != U64_MAX - 1;
}

static struct timespec64 to_ts(u64 ft)
{
	struct timespec64 ts;
	s64 sec;
	u32 nsec;

	ksmbd_filetime_to_unix(ft, &sec, &nsec);
	ts.tv_sec = sec;
	ts.tv_nsec = nsec;
	return ts;
}

static int set_basic(struct ksmbd_file *fp, const struct ksmbd_buf *b)
{
	u64 ctime_, atime, mtime, chtime;
	struct ksmbd_info_basic bi;
	struct iattr ia = { };
	struct kstat st;
	u32 attrs;
	umode_t mode;
	int ret;

	ret = ksmbd_setinfo_basic_decode(b, &bi);
	if (ret)
		return ret;
	ctime_ = bi.creation_time;
	atime = bi.last_access_time;
	mtime = bi.last_write_time;
	chtime = bi.change_time;
	attrs = bi.attributes;
	if (!has_access(fp, FILE_WRITE_ATTRIBUTES))
		return -EACCES;
	ret = ksmbd_vfs_getattr(fp, &st);
	if (ret)
		return ret;
	/* MS-FSA 2.1.5.14.2: DIRECTORY on a file, TEMPORARY on a directory */
	if ((attrs & FILE_ATTRIBUTE_DIRECTORY && !S_ISDIR(st.mode)) ||
	    (attrs & FILE_ATTRIBUTE_TEMPORARY && S_ISDIR(st.mode)))
		return -EINVAL;
	if (time_given(atime)) {
		ia.ia_valid |= ATTR_ATIME | ATTR_ATIME_SET;
		ia.ia_atime = to_ts(atime);
	}
	if (time_given(mtime)) {
		ia.ia_valid |= ATTR_MTIME | ATTR_MTIME_SET;
		ia.ia_mtime = to_ts(mtime);
	}
	if (attrs && ksmbd_fattr_readonly_mode(fp, &st, attrs, &mode)) {
		ia.ia_valid |= ATTR_MODE;
		ia.ia_mode = mode;
	}
	if (ia.ia_valid) {
		ia.ia_valid |= ATTR_CTIME;
		ret = ksmbd_vfs_setattr(fp, &ia);
		if (ret)
			return ret;
	}
	/*
	 * Best effort, as the mode already carries READONLY: user.* xattrs
	 * need write permission (gone on a read-only file) and some file
	 * systems (tmpfs before 6.6) have none.
	 */
	ret = -EOPNOTSUPP;
	if (ksmbd_fattr_stores_dos(fp) && (attrs || time_given(ctime_)))
		ret = ksmbd_fattr_store_dosattr(fp, &st, attrs, attrs != 0,
						time_given(ctime_) ? ctime_ : 0);
	/* A change the client was told of: its watchers hear of it too. */
	if (ret && attrs && !(ia.ia_valid & ATTR_MODE))
		ksmbd_vfs_notify_attrib(fp);
	/* what the file system may not keep (file.h) */
	ksmbd_file_set_times(fp, time_given(ctime_) ? ctime_ : 0,
			     time_given(chtime) ? chtime : 0);
	return 0;
}

/* ---- Sizes ---- */

static int set_eof(struct ksmbd_file *fp, const struct ksmbd_buf *b)
{
	u64 size;

	if (ksmbd_setinfo_eof_decode(b, &size))
		return -KSMBD_EINFO_LENGTH;
	if (!has_access(fp, FILE_WRITE_DATA))
		return -EACCES;
	if (fp->kind == KSMBD_FILE_DIRECTORY || size > (u64)LLONG_MAX)
		return -EINVAL;
	return ksmbd_vfs_truncate(fp, (loff_t)size);
}

/*
 * Smaller than the data: cut (Windows does); larger: reserve what the
 * connection's budget allows (file_alloc.c).
 */
static int set_allocation(struct ksmbd_file *fp, const struct sinfo_req *s)
{
	struct kstat st;
	u64 size;
	int ret;

	if (ksmbd_setinfo_allocation_decode(&s->buf, &size))
		return -KSMBD_EINFO_LENGTH;
	if (!has_access(fp, FILE_WRITE_DATA))
		return -EACCES;
	if (fp->kind == KSMBD_FILE_DIRECTORY || size > (u64)LLONG_MAX)
		return -EINVAL;
	ret = ksmbd_vfs_getattr(fp, &st);
	if (ret)
		return ret;
	if (size < (u64)st.size)
		return ksmbd_vfs_truncate(fp, (loff_t)size);
	ret = ksmbd_file_reserve(fp, s->ctx->conn, size);
	/* An allocation size is a hint; file systems without fallocate ignore it. */
	return ret == -EOPNOTSUPP ? 0 : ret;
}

/* ---- Rename and link (FILE_RENAME/LINK_INFORMATION_TYPE_2) ---- */

struct rename_req {
	bool replace;
	struct ksmbd_buf name;
};

static int rename_decode(const struct ksmbd_buf *b, struct rename_req *r)
{
	struct ksmbd_info_rename ri;
	int ret;

	ret = ksmbd_setinfo_rename_decode(b, &ri);
	if (ret)
		return ret;
	/* MS-SMB2 2.2.39: RootDirectory MUST be zero; the name is share-relative */
	if (ri.root_directory)
		return -EINVAL;
	r->name = ri.name;
	r->replace = ri.replace;
	/* A leading '\' names the share root: drop it, the rest is relative. */
	if (r->name.len >= 2 && get_unaligned_le16(r->name.p) == '\\') {
		r->name.p += 2;
		r->name.len -= 2;
	}
	return 0;
}

/* The target as the VFS layer wants it: no "..", no streams, no wildcards. */
static char *target_name(const struct ksmbd_buf *name, int *err)
{
	char *out = ksmbd_scratch_alloc();
	int ret;

	if (!out) {
		*err = -ENOMEM;
		return NULL;
	}
	ret = ksmbd_name_from_utf16(name, out, KSMBD_NAME_MAX_PATH);
	if (ret <= 0) {
		ksmbd_scratch_free(out);
		/* ".." above the root, wildcards, bad UTF-16, the root
		 * itself: STATUS_OBJECT_NAME_INVALID */
		*err = ret == -EOPNOTSUPP ? ret : -EILSEQ;
		return NULL;
	}
	return out;
}

/* The name before a rename, for the tracepoint only. */
static char *trace_old_name(struct ksmbd_file *fp)
{
	if (!trace_ksmbd_vfs_rename_enabled())
		return NULL;
	return ksmbd_file_name_dup(fp, GFP_KERNEL);
}

/*
 * Opens of the directory, or below a renamed directory (file.h); those
 * that directory leases only keep cached are broken first.
 */
static int rename_blocked(struct ksmbd_caller *caller, struct ksmbd_file *fp)
{
	struct dentry *d = fp->filp->f_path.dentry;
	struct dentry *parent = dget_parent(d);
	bool busy = ksmbd_file_rename_blocked_by_parent(d_inode(parent),
							fp->session_id);

	dput(parent);
	if (busy)
		return -EBUSY;
	if (d_is_dir(d) && ksmbd_file_opens_below(d) &&
	    (ksmbd_dirlease_break_below(caller, d) <= 0 ||
	     ksmbd_file_opens_below(d)))
		return -EACCES;
	return 0;
}

/*
 * A rename or link made: the leases of the folder the name went into and
 * of the one it left break (oplock_dir.c). to: the target's parent, taken
 * before the change; from: the old parent of a rename, or NULL.
 */
static void rename_dirs_changed(struct ksmbd_file *fp, struct path *to,
				struct dentry *from, bool done)
{
	if (done && to->dentry)
		ksmbd_dirlease_changed(d_inode(to->dentry), fp);
	if (done && from && (!to->dentry || from != to->dentry))
		ksmbd_dirlease_changed(d_inode(from), fp);
	if (to->dentry)
		path_put(to);
	dput(from);
}

static int do_rename_or_link(struct ksmbd_file *fp, const char *name,
			     bool replace, bool link)
{
	struct dentry *from = NULL;
	struct path to = {};
	int ret;

	if (ksmbd_dirlease_any()) {
		if (ksmbd_vfs_target_parent(fp, name, &to))
			to.dentry = NULL;
		if (!link)
			from = dget_parent(fp->filp->f_path.dentry);
	}
	if (link)
		ret = ksmbd_vfs_link(fp, name, replace);
	else
		ret = ksmbd_vfs_rename(fp, name, replace);
	rename_dirs_changed(fp, &to, from, !ret);
	return ret;
}

static int set_rename_or_link(struct ksmbd_file *fp, const struct sinfo_req *s,
			      bool link)
{
	const struct ksmbd_buf *b = &s->buf;
	struct rename_req r;
	char *name, *old;
	int ret;

	ret = rename_decode(b, &r);
	if (ret)
		return ret;
	if (!link && !has_access(fp, FILE_DELETE))
		return -EACCES;
	/* Within the file: a stream's new name, or a stream's handle */
	if (!link && (fp->stream || (r.name.len >= 2 &&
				     get_unaligned_le16(r.name.p) == ':')))
		return ksmbd_stream_rename(fp, &r.name, r.replace);
	if (!link) {
		ret = rename_blocked(ksmbd_smb2_caller(s->ctx), fp);
		if (ret)
			return ret;
	}
	name = target_name(&r.name, &ret);
	if (!name)
		return ret;
	if (fp->tree && ksmbd_name_vetoed(fp->tree->share->veto_list,
					  fp->tree->share->veto_list_sz, name))
		ret = -EACCES;
	else
		ret = ksmbd_sd_target_check(s->conn, fp, name);
	if (ret) {
		ksmbd_scratch_free(name);
		return ret;
	}
	old = trace_old_name(fp);
	ret = do_rename_or_link(fp, name, r.replace, link);
	trace_ksmbd_vfs_rename(s->conn, fp, old ?: "", ret, name, link);
	kfree(old);
	ksmbd_scratch_free(name);
	return ret;
}

/* ---- Disposition, position, mode ---- */

static int set_disposition(struct ksmbd_file *fp, const struct ksmbd_buf *b,
			   bool ex)
{
	u32 flags;
	bool on;

	if (ex) {
		if (ksmbd_setinfo_disposition_ex_decode(b, &flags))
			return -KSMBD_EINFO_LENGTH;
		on = flags & 0x1;	/* FILE_DISPOSITION_DELETE */
	} else if (ksmbd_setinfo_disposition_decode(b, &on)) {
		return -KSMBD_EINFO_LENGTH;
	}
	if (on && ksmbd_fattr_readonly(fp))
		return -KSMBD_ECANNOT_DELETE;
	return ksmbd_file_set_delete_on_close(fp, on != 0);
}

/*
 * The open's CurrentByteOffset: SMB2 reads and writes carry their own
 * offsets, so it is only reported back (FilePosition/FileAllInformation).
 */
static int set_position(struct ksmbd_file *fp, const struct ksmbd_buf *b)
{
	u64 pos;

	if (ksmbd_setinfo_position_decode(b, &pos))
		return -KSMBD_EINFO_LENGTH;
	if (pos > (u64)LLONG_MAX)
		return -EINVAL;
	WRITE_ONCE(fp->position, pos);
	return 0;
}

static int set_mode(struct ksmbd_file *fp, const struct ksmbd_buf *b)
{
	u32 mode;

	if (ksmbd_setinfo_mode_decode(b, &mode))
		return -KSMBD_EINFO_LENGTH;
	/* MS-FSA 2.1.5.14.9: only these bits, and not both sync modes */
	if (mode & ~(KSMBD_FILE_MODE_BITS & ~0x1000u))
		return -EINVAL;
	if ((mode & 0x30) == 0x30)
		return -EINVAL;
	/* DELETE_ON_CLOSE (0x1000) is the open's own, not settable here */
	WRITE_ONCE(fp->mode, (READ_ONCE(fp->mode) & 0x1000u) | mode);
	return 0;
}

/* ---- FileFullEaInformation ---- */

static int set_one_ea(struct ksmbd_file *fp, const struct ksmbd_ea_entry *e)
{
	char name[XATTR_USER_PREFIX_LEN + 256];
	int ret;

	if (ksmbd_ea_name_reserved(&e->name))
		return -EACCES;
	memcpy(name, XATTR_USER_PREFIX, XATTR_USER_PREFIX_LEN);
	memcpy(name + XATTR_USER_PREFIX_LEN, e->name.p, e->name.len);
	name[XATTR_USER_PREFIX_LEN + e->name.len] = '\0';
	if (!e->value.len) {
		/* An empty value deletes the EA; deleting a missing one is fine. */
		ret = ksmbd_vfs_removexattr(fp, name);
		return ret == -ENODATA ? 0 : ret;
	}
	return ksmbd_vfs_setxattr(fp, name, e->value.p, e->value.len, 0);
}

static int set_full_ea(struct ksmbd_file *fp, const struct ksmbd_buf *b)
{
	struct ksmbd_ea_entry e;
	u32 pos = 0;
	int ret;

	if (!has_access(fp, FILE_WRITE_EA))
		return -EACCES;
	/* The whole chain is checked before anything is changed. */
	if (ksmbd_ea_chain_check(b) < 0)
		return -EINVAL;
	while ((ret = ksmbd_ea_next(b, &pos, &e)) > 0) {
		ret = set_one_ea(fp, &e);
		if (ret)
			return ret;
	}
	return ret;
}

/* ---- Security ---- */

/*
 * A share that stores descriptors: merged into the file's, stored. The
 * access rule looks at the parts really sent (an owner or group named
 * but absent is left alone, as Samba and Windows do).
 */
/* The handle rights changing the parts named needs (MS-SMB2 3.3.5.21.3). */
static int may_set_parts(struct ksmbd_file *fp, u32 parts)
{
	if ((parts & (KSMBD_OWNER_SECINFO | KSMBD_GROUP_SECINFO)) &&
	    !has_access(fp, FILE_WRITE_OWNER))
		return -EACCES;
	if ((parts & KSMBD_DACL_SECINFO) && !has_access(fp, FILE_WRITE_DAC))
		return -EACCES;
	if ((parts & KSMBD_SACL_SECINFO) &&
	    !has_access(fp, FILE_ACCESS_SYSTEM_SECURITY))
		return -EACCES;
	return 0;
}

static int set_security_stored(struct ksmbd_file *fp, const struct sinfo_req *s,
			       const struct ksmbd_sd *sd)
{
	u32 parts = ksmbd_sd_sent(sd, s->addl);
	struct ksmbd_token tok;
	int ret;

	if (!parts)
		return 0;
	ret = may_set_parts(fp, parts);
	if (ret)
		return ret;
	ret = ksmbd_token_build(fp->cred, fp->tree, &tok);
	if (ret)
		return ret;
	ret = ksmbd_sd_set(fp, sd, parts, &tok);
	ksmbd_token_free(&tok);
	/* a merge that refuses the client's parts: a bad descriptor */
	return ret == -EINVAL ? -EBADMSG : ret;
}

static int set_security(struct ksmbd_file *fp, const struct sinfo_req *s)
{
	const u32 *domain = ksmbd_server_conf.sub_auth;
	struct ksmbd_sid owner, group;
	struct iattr ia = { };
	struct ksmbd_sd sd;
	struct kstat st;
	u32 id;
	int ret;

	if (ksmbd_sd_parse(&s->buf, &sd))
		return -EBADMSG;
	if (ksmbd_sd_stored_share(fp->tree))
		return set_security_stored(fp, s, &sd);
	/* the mode stands for no SACL: asking to set one changes nothing */
	ret = may_set_parts(fp, s->addl & ~KSMBD_SACL_SECINFO);
	if (ret)
		return ret;
	ret = ksmbd_vfs_getattr(fp, &st);
	if (ret)
		return ret;
	ksmbd_sid_unix_user(from_kuid_munged(&init_user_ns, st.uid), &owner);
	ksmbd_sid_unix_group(from_kgid_munged(&init_user_ns, st.gid), &group);
	/* SIDs we cannot map to a Unix id leave the owner or group alone. */
	if ((s->addl & KSMBD_OWNER_SECINFO) && sd.has_owner &&
	    !ksmbd_sid_to_uid(&sd.owner, domain, &id)) {
		ia.ia_valid |= ATTR_UID;
		ia.ia_uid = make_kuid(&init_user_ns, id);
		owner = sd.owner;
	}
	if ((s->addl & KSMBD_GROUP_SECINFO) && sd.has_group &&
	    !ksmbd_sid_to_gid(&sd.group, domain, &id)) {
		ia.ia_valid |= ATTR_GID;
		ia.ia_gid = make_kgid(&init_user_ns, id);
		group = sd.group;
	}
	if ((s->addl & KSMBD_DACL_SECINFO) && sd.has_dacl) {
		ia.ia_valid |= ATTR_MODE;
		ia.ia_mode = (st.mode & ~0777) |
			     ksmbd_secdesc_dacl_mode(&sd, &owner, &group);
	}
	if (((ia.ia_valid & ATTR_UID) && !uid_valid(ia.ia_uid)) ||
	    ((ia.ia_valid & ATTR_GID) && !gid_valid(ia.ia_gid)))
		return -EINVAL;
	if (!ia.ia_valid)
		return 0;
	ia.ia_valid |= ATTR_CTIME;
	/* setattr_prepare() inside: only the owner (or CAP_FOWNER) chmods */
	return ksmbd_vfs_setattr(fp, &ia);
}

/* ---- The handler ---- */

struct set_class {
	u8 cls;
	u8 size;		/* the structure's fixed size */
	bool modifies;		/* refused on a read-only tree */
};

static const struct set_class set_classes[] = {
	{ FILE_BASIC_INFORMATION, 36, true },
	{ FILE_RENAME_INFORMATION, 20, true },
	{ FILE_LINK_INFORMATION, 20, true },
	{ FILE_DISPOSITION_INFORMATION, 1, true },
	{ FILE_POSITION_INFORMATION, 8, false },
	{ FILE_FULL_EA_INFORMATION, 8, true },
	{ FILE_MODE_INFORMATION, 4, false },
	{ FILE_ALLOCATION_INFORMATION, 8, true },
	{ FILE_END_OF_FILE_INFORMATION, 8, true },
	{ FILE_DISPOSITION_INFORMATION_EX, 4, true },
};

/* Attribute changes traced as ksmbd_vfs_setattr. */
static int traced_setattr(struct ksmbd_file *fp, const struct sinfo_req *s,
			  int ret)
{
	ksmbd_trace_fp_op(ksmbd_vfs_setattr, s->conn, fp, ret);
	return ret;
}

static int set_file(struct ksmbd_file *fp, const struct sinfo_req *s)
{
	const struct ksmbd_buf *b = &s->buf;

	switch (s->cls) {
	case FILE_BASIC_INFORMATION:
		return traced_setattr(fp, s, set_basic(fp, b));
	case FILE_RENAME_INFORMATION:
		return set_rename_or_link(fp, s, false);
	case FILE_LINK_INFORMATION:
		return set_rename_or_link(fp, s, true);
	case FILE_DISPOSITION_INFORMATION:
		return set_disposition(fp, b, false);
	case FILE_DISPOSITION_INFORMATION_EX:
		return set_disposition(fp, b, true);
	case FILE_POSITION_INFORMATION:
		return set_position(fp, b);
	case FILE_FULL_EA_INFORMATION:
		return set_full_ea(fp, b);
	case FILE_MODE_INFORMATION:
		return set_mode(fp, b);
	case FILE_ALLOCATION_INFORMATION:
		return traced_setattr(fp, s, set_allocation(fp, s));
	case FILE_END_OF_FILE_INFORMATION:
		return traced_setattr(fp, s, set_eof(fp, b));
	}
	return -EINVAL;
}

static u32 set_file_status(struct ksmbd_file *fp, const struct sinfo_req *s)
{
	const struct set_class *c = NULL;
	struct kstat st;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(set_classes); i++)
		if (set_classes[i].cls == s->cls)
			c = &set_classes[i];
	if (!c)
		return s->cls && s->cls <= 76 ? STATUS_NOT_SUPPORTED :
						STATUS_INVALID_INFO_CLASS;
	if (s->buf.len < c->size)
		return STATUS_INFO_LENGTH_MISMATCH;
	if (c->modifies && !(fp->tree_flags & KSMBD_FILE_TREE_WRITABLE))
		return STATUS_ACCESS_DENIED;
	/* Cancelled while waiting for the break: nothing changed. */
	if (ksmbd_oplock_break_for_setinfo(ksmbd_smb2_caller(s->ctx), fp,
					   s->cls))
		return STATUS_CANCELLED;
	ret = set_file(fp, s);
	/*
	 * What a listing shows changed: attributes and times now, the size
	 * at the handle's close as for a WRITE (oplock_dir.c).
	 */
	if (!ret && s->cls == FILE_BASIC_INFORMATION)
		ksmbd_dirlease_entry_changed(fp);
	else if (!ret && (s->cls == FILE_END_OF_FILE_INFORMATION ||
			  s->cls == FILE_ALLOCATION_INFORMATION))
		WRITE_ONCE(fp->entry_changed, true);
	if (!ret && fp->user_set_change_time && !ksmbd_vfs_getattr(fp, &st))
		ksmbd_file_keep_change_time(fp, &st);
	return ksmbd_ntstatus_from_errno(ret);
}

static u32 set_dispatch(struct ksmbd_file *fp, const struct sinfo_req *s)
{
	int ret;

	if (fp->kind == KSMBD_FILE_PIPE)
		return STATUS_NOT_SUPPORTED;
	switch (s->type) {
	case SMB2_0_INFO_FILE:
		return set_file_status(fp, s);
	case SMB2_0_INFO_SECURITY:
		if (!(fp->tree_flags & KSMBD_FILE_TREE_WRITABLE))
			return STATUS_ACCESS_DENIED;
		ret = traced_setattr(fp, s, set_security(fp, s));
		if (ret == -EBADMSG)
			return STATUS_INVALID_SECURITY_DESCR;
		return ksmbd_ntstatus_from_errno(ret);
	case SMB2_0_INFO_FILESYSTEM:
	case SMB2_0_INFO_QUOTA:
		return STATUS_NOT_SUPPORTED;
	default:
		return STATUS_INVALID_PARAMETER;
	}
}

enum ksmbd_smb2_verdict ksmbd_smb2_set_info(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_file *fp;
	struct sinfo_req s;

	if (sinfo_decode(ctx->req, &s)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	s.conn = ctx->conn;
	s.ctx = ctx;
	fp = ksmbd_file_lookup(ksmbd_smb2_caller(ctx), s.pid, s.vid);
	if (!fp) {
		ctx->status = STATUS_FILE_CLOSED;
		return KSMBD_SMB2_REPLY;
	}
	ctx->status = set_dispatch(fp, &s);
	ksmbd_file_put(fp);
	if (ctx->status == STATUS_SUCCESS)
		ksmbd_wbuf_put_le16(&ctx->body, SMB2_SET_INFO_RSP_SIZE);
	return KSMBD_SMB2_REPLY;
}
