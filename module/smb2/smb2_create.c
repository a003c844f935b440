// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CREATE (MS-SMB2 3.3.5.9); CLOSE is smb2_close.c.
 *
 * CREATE in three stages: decode the validated request and its contexts
 * into struct create_req; act (resolve beneath the share root, decide by
 * disposition, check access, create or open, join the share modes,
 * truncate, publish the handle); encode the response and the answers to
 * MxAc, QFid, RqLs, DHnQ and DH2Q. Named streams ("file:name:$DATA"):
 * streams.h; the base is opened (or made) and the stream decides the
 * disposition. On a share that stores security descriptors
 * (ntacl_store.h) the stored one decides an open's access and a new
 * file's is inherited (with the SecD context's) and stored. Oplocks and leases: oplock.h; an open joins the
 * share modes first (on a conflict only handle caching is broken, and
 * the check tried again), then breaks what it calls for; the grant comes
 * once it is published. Durable handles: durable.h; DHnC/DH2C reconnect instead of
 * opening, a replayed DH2Q gets the open it made before.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fs.h>
#include <linux/slab.h>
#include "create_rules.h"
#include "dosattr.h"
#include "durable.h"
#include "connection.h"
#include "fattr.h"
#include "file.h"
#include "fileinfo.h"
#include "ntacl_store.h"
#include "oplock.h"
#include "ksmbd_trace.h"
#include "proto/decode.h"
#include "proto/encode.h"
#include "session.h"
#include "share.h"
#include "smb2_dispatch.h"
#include "smb2_files.h"
#include "streams.h"
#include "tree.h"
#include "vfs.h"
#include "vfs_name.h"
#include "bufpool.h"

struct create_req {
	struct ksmbd_create_args args;
	struct ksmbd_buf name;
	bool want_mxac, want_qfid;
	u64 alloc_size;			/* AlSi, 0 when absent */
	struct ksmbd_buf ea;		/* ExtA, validated chain; len 0 when absent */
	u8 oplock_level;		/* RequestedOplockLevel */
	bool has_lease;
	struct ksmbd_buf lease;		/* RqLs data */
	struct ksmbd_oplock_req op;	/* decoded once the connection is known */
	struct ksmbd_durable_req dh;	/* DHnQ, DH2Q, DHnC, DH2C */
	bool has_app_instance;		/* SMB2_CREATE_APP_INSTANCE_ID */
	u8 app_instance_id[16];
	struct ksmbd_buf secd;		/* SecD: a descriptor; len 0 when absent */
};

/* MS-SMB2 2.2.13.2.13: the AppInstanceId context's name. */
static const u8 app_instance_tag[16] = {
	0x45, 0xbc, 0xa6, 0x6a, 0xef, 0xa7, 0xf7, 0x4a,
	0x90, 0x08, 0xfa, 0x46, 0x2e, 0x14, 0x4d, 0x74,
};

struct create_result {
	struct ksmbd_file *fp;		/* counted */
	u32 action;
	u32 maximal;			/* for MxAc */
	struct kstat st;
	struct ksmbd_oplock_grant grant;
	struct ksmbd_durable_grant dh;
};

/* AppInstanceId: StructureSize 20, Reserved, the id; else ignored. */
static void decode_app_instance(const struct ksmbd_buf *list,
				struct create_req *rq)
{
	struct ksmbd_create_ctx c;

	if (ksmbd_create_ctx_find(list, (const char *)app_instance_tag,
				  sizeof(app_instance_tag), &c) ||
	    ksmbd_ctx_app_instance_decode(&c.data, rq->app_instance_id))
		return;
	rq->has_app_instance = true;
}

/* An ExtA list naming an xattr the server keeps itself: refused whole,
 * before anything is created, as SET_INFO refuses it. */
static bool ea_list_reserved(const struct ksmbd_buf *list)
{
	struct ksmbd_ea_entry e;
	u32 pos = 0;

	while (ksmbd_ea_next(list, &pos, &e) > 0)
		if (ksmbd_ea_name_reserved(&e.name))
			return true;
	return false;
}

/* The create contexts we act on; the gate has validated the chain. */
static u32 decode_contexts(const struct ksmbd_buf *list, struct create_req *rq)
{
	struct ksmbd_create_ctx c;

	if (!ksmbd_create_ctx_find(list, "MxAc", 4, &c))
		rq->want_mxac = true;
	if (!ksmbd_create_ctx_find(list, "QFid", 4, &c))
		rq->want_qfid = true;
	if (!ksmbd_create_ctx_find(list, "AlSi", 4, &c) &&
	    ksmbd_ctx_alloc_size_decode(&c.data, &rq->alloc_size))
		return STATUS_INVALID_PARAMETER;
	if (!ksmbd_create_ctx_find(list, "ExtA", 4, &c)) {
		if (ksmbd_ea_chain_check(&c.data) < 0)
			return STATUS_INVALID_PARAMETER;
		if (ea_list_reserved(&c.data))
			return STATUS_ACCESS_DENIED;
		rq->ea = c.data;
	}
	if (!ksmbd_create_ctx_find(list, "RqLs", 4, &c)) {
		rq->has_lease = true;
		rq->lease = c.data;
	}
	if (ksmbd_durable_ctx_parse(list, &rq->dh))
		return STATUS_INVALID_PARAMETER;
	decode_app_instance(list, rq);
	/* TWrp: no snapshots are kept, so the earlier version is not found */
	if (!ksmbd_create_ctx_find(list, "TWrp", 4, &c))
		return STATUS_OBJECT_NAME_NOT_FOUND;
	/* SecD: checked when a file is made with it (ntacl_store.h) */
	if (!ksmbd_create_ctx_find(list, "SecD", 4, &c))
		rq->secd = c.data;
	return STATUS_SUCCESS;
}

static u32 decode(const struct ksmbd_req *req, struct create_req *rq)
{
	struct ksmbd_create_args *a = &rq->args;
	struct ksmbd_create_req c;

	memset(rq, 0, sizeof(*rq));
	if (ksmbd_create_decode(req, &c))
		return STATUS_INVALID_PARAMETER;
	rq->oplock_level = c.oplock_level;
	a->impersonation_level = c.impersonation_level;
	a->desired_access = c.desired_access;
	a->file_attributes = c.file_attributes;
	a->share_access = c.share_access;
	a->disposition = c.disposition;
	a->options = c.options;
	rq->name = c.name;
	return decode_contexts(&c.contexts, rq);
}

/* ---- Access ---- */

static u32 tree_mask(const struct ksmbd_tree *tree)
{
	u32 mask = tree->maximal_access ? tree->maximal_access : ~0U;

	if (!ksmbd_tree_writable(tree))
		mask &= ~FILE_MODIFY_RIGHTS;
	return mask;
}

/* What the user may do with an existing file, from the kernel's answers. */
static u32 maximal_existing(const struct ksmbd_vfs_scope *s,
			    struct ksmbd_vfs_lookup *res)
{
	struct dentry *d = res->dentry;
	bool may_read = !ksmbd_vfs_permission(s, d, MAY_READ);
	bool may_exec = !ksmbd_vfs_permission(s, d, MAY_EXEC);
	u32 access;

	/*
	 * The server never executes a file: FILE_EXECUTE on one only reads
	 * its data, which the read permission already covers (as Samba's
	 * "acl allow execute always"). Without it SEC_RIGHTS_FILE_ALL opens
	 * of the owner's own 0644 files fail (smbtorture's testfile helper).
	 */
	if (!d_is_dir(d) && may_read)
		may_exec = true;
	access = ksmbd_access_from_perms(may_read,
					 !ksmbd_vfs_permission(s, d, MAY_WRITE),
					 may_exec, !ksmbd_vfs_may_delete(s, res));
	/* An append-only file takes appends, never a write in place. */
	if (IS_APPEND(d_inode(d)) && !d_is_dir(d))
		access &= ~FILE_WRITE_DATA;
	/*
	 * The owner may always change the mode, owner and times (chmod,
	 * chown, utimes): so a READONLY file, mode 0444, is opened to clear
	 * the attribute (smbtorture smb2.create.delete).
	 */
	if (ksmbd_vfs_is_owner(s, d))
		access |= FILE_WRITE_DAC | FILE_WRITE_OWNER |
			  FILE_WRITE_ATTRIBUTES;
	return access;
}

/* Granted access: what was asked (generic rights mapped; ACCESS_SYSTEM_
 * SECURITY only gets here with its privilege), or everything allowed for
 * MAXIMUM_ALLOWED. Data and delete rights must be backed by the kernel's
 * permissions; on a read-only tree no modifying right is. */
static int grant(u32 desired, u32 maximal, u32 *granted)
{
	u32 want = ksmbd_access_map_generic(desired);
	u32 enforced = FILE_READ_RIGHTS | FILE_WRITE_RIGHTS | FILE_DELETE |
		       (maximal & FILE_WRITE_DATA ? 0 : FILE_MODIFY_RIGHTS);

	if (want & FILE_MAXIMUM_ALLOWED) {
		want &= ~FILE_MAXIMUM_ALLOWED;
		if (want & enforced & ~maximal)
			return -EACCES;
		*granted = want | maximal;
		return 0;
	}
	if (want & enforced & ~maximal)
		return -EACCES;
	*granted = want;
	return 0;
}

static int open_flags(u32 granted, bool dir)
{
	bool rd = granted & FILE_READ_RIGHTS;
	bool wr = granted & FILE_WRITE_RIGHTS;

	if (dir)
		return rd ? O_RDONLY | O_DIRECTORY : O_PATH;
	if (rd && wr)
		return O_RDWR;
	if (wr)
		return O_WRONLY;
	return rd ? O_RDONLY : O_PATH;
}

/* ---- Acting ---- */

static umode_t new_mode(const struct ksmbd_share *share, bool dir)
{
	if (dir)
		return S_IFDIR | ((0777 & share->directory_mask) |
				  share->force_directory_mode);
	return S_IFREG | ((0666 & share->create_mask) | share->force_create_mode);
}

/* Existence checks that depend on what was found (MS-SMB2 3.3.5.9). */
static int check_found(const struct create_req *rq, struct dentry *d,
		       enum ksmbd_create_step step)
{
	u32 opts = rq->args.options;

	if (d_is_symlink(d))
		return -ELOOP;	/* never followed: ACCESS_DENIED */
	if (!d_is_reg(d) && !d_is_dir(d))
		return -EACCES;
	if ((opts & FILE_DIRECTORY_FILE) && !d_is_dir(d))
		return -ENOTDIR;
	if ((opts & FILE_NON_DIRECTORY_FILE) && d_is_dir(d))
		return -EISDIR;
	if (step == KSMBD_STEP_TRUNCATE && d_is_dir(d))
		return -EISDIR;
	return 0;
}

/* Best effort: the file exists either way; EAs and allocation are hints. */
static void apply_new_file_hints(struct ksmbd_file *fp,
				 const struct create_req *rq,
				 struct ksmbd_conn *conn)
{
	struct ksmbd_ea_entry e;
	char xname[XATTR_NAME_MAX + 1];
	u32 pos = 0;

	/* The usual NORMAL or ARCHIVE is what an unstored file reports. */
	if (rq->args.file_attributes & ~(FILE_ATTRIBUTE_NORMAL |
					 FILE_ATTRIBUTE_ARCHIVE |
					 FILE_ATTRIBUTE_DIRECTORY))
		ksmbd_create_set_attrs(fp, rq->args.file_attributes);
	if (rq->alloc_size)
		ksmbd_file_reserve(fp, conn, rq->alloc_size);
	while (rq->ea.len && ksmbd_ea_next(&rq->ea, &pos, &e) > 0) {
		if (e.name.len + 6 > XATTR_NAME_MAX)
			continue;
		memcpy(xname, "user.", 5);
		memcpy(xname + 5, e.name.p, e.name.len);
		xname[5 + e.name.len] = '\0';
		if (e.value.len)
			ksmbd_vfs_setxattr(fp, xname, e.value.p, e.value.len, 0);
	}
}

struct create_state {
	struct ksmbd_smb2_ctx *ctx;
	const struct create_req *rq;
	struct ksmbd_vfs_scope scope;
	struct ksmbd_vfs_lookup res;
	struct ksmbd_stream_name *sn;	/* a named stream, or NULL */
	enum ksmbd_create_step step;
	bool dir;
	bool base_create;		/* a stream's base file is made first */
	bool default_data;		/* "name::$DATA": no directory */
	u32 granted;
	const char *name;
	/* The caller, where the share stores descriptors (ntacl_store.h) */
	struct ksmbd_token *tok;
};

/* What the open is granted, and delete-on-close only with DELETE granted. */
static int grant_checked(const struct create_req *rq, u32 maximal,
			 u32 *granted)
{
	int ret = grant(rq->args.desired_access, maximal, granted);

	if (ret)
		return ret;
	if ((rq->args.options & FILE_DELETE_ON_CLOSE) &&
	    !(*granted & FILE_DELETE))
		return -EACCES;
	return 0;
}

/* A named stream: its existence decides; a missing base is made. */
static int decide_stream(struct create_state *cs, struct create_result *out)
{
	struct ksmbd_tree *tree = cs->ctx->tree;
	const struct create_req *rq = cs->rq;
	struct dentry *d = cs->res.dentry;
	int exists = 0, ret;

	if (rq->args.options & FILE_DIRECTORY_FILE)
		return -ENOTDIR;
	cs->dir = false;
	if (d_is_positive(d)) {
		ret = check_found(rq, d, KSMBD_STEP_OPEN);
		if (ret && ret != -EISDIR)
			return ret;
		exists = ksmbd_stream_exists(&cs->scope, &cs->res, cs->sn);
		if (exists < 0)
			return exists;
	}
	cs->step = ksmbd_create_step(rq->args.disposition, exists);
	if (cs->step == KSMBD_STEP_FAIL_EXISTS)
		return -EEXIST;
	if (cs->step == KSMBD_STEP_FAIL_MISSING)
		return -ENOENT;
	if (!d_is_positive(d)) {
		if (!ksmbd_tree_writable(tree))
			return -EACCES;
		/* Not a file without its stream: ask before making it. */
		if (!ksmbd_stream_supported(cs->res.parent.dentry))
			return -EOPNOTSUPP;
		cs->base_create = true;
		out->maximal = FILE_ALL_ACCESS_MASK & tree_mask(tree);
		ret = ksmbd_sd_add_check(cs->ctx->conn, cs->name, cs->tok,
					 cs->res.parent.dentry, false);
		if (ret)
			return ret;
	} else {
		out->maximal = maximal_existing(&cs->scope, &cs->res) &
			       tree_mask(tree);
		ret = ksmbd_sd_open_check(cs->ctx->conn, cs->name, cs->tok,
					  &cs->res, rq->args.desired_access,
					  tree_mask(tree), &out->maximal);
		if (ret)
			return ret;
		if (cs->step != KSMBD_STEP_OPEN &&
		    !(out->maximal & FILE_WRITE_DATA))
			return -EACCES;
	}
	return grant_checked(rq, out->maximal, &cs->granted);
}

static int decide(struct create_state *cs, struct create_result *out)
{
	struct ksmbd_tree *tree = cs->ctx->tree;
	const struct create_req *rq = cs->rq;
	bool exists = d_is_positive(cs->res.dentry);
	int ret;

	if (cs->sn)
		return decide_stream(cs, out);
	cs->step = ksmbd_create_step(rq->args.disposition, exists);
	if (cs->step == KSMBD_STEP_FAIL_EXISTS)
		return -EEXIST;
	if (cs->step == KSMBD_STEP_FAIL_MISSING)
		return -ENOENT;
	if (cs->step == KSMBD_STEP_CREATE) {
		if (!ksmbd_tree_writable(tree))
			return -EACCES;
		/* Nothing is encrypted here: refused as a standalone Windows
		 * server refuses it (smbtorture smb2.create.gentest). */
		if (rq->args.file_attributes & FILE_ATTRIBUTE_ENCRYPTED)
			return -EACCES;
		/* MS-FSA 2.1.5.1.1: a new read-only file cannot be deleted */
		if ((rq->args.options & FILE_DELETE_ON_CLOSE) &&
		    (rq->args.file_attributes & FILE_ATTRIBUTE_READONLY))
			return -KSMBD_ECANNOT_DELETE;
		cs->dir = rq->args.options & FILE_DIRECTORY_FILE;
		out->maximal = FILE_ALL_ACCESS_MASK & tree_mask(tree);
		ret = ksmbd_sd_add_check(cs->ctx->conn, cs->name, cs->tok,
					 cs->res.parent.dentry, cs->dir);
		if (ret)
			return ret;
	} else {
		ret = check_found(rq, cs->res.dentry, cs->step);
		if (!ret && cs->default_data && d_is_dir(cs->res.dentry))
			ret = -EISDIR;
		if (ret)
			return ret;
		if ((rq->args.options & FILE_DELETE_ON_CLOSE) &&
		    !ksmbd_tree_ro_in_xattr(tree) &&
		    ksmbd_mode_readonly(d_inode(cs->res.dentry)->i_mode))
			return -KSMBD_ECANNOT_DELETE;
		cs->dir = d_is_dir(cs->res.dentry);
		out->maximal = maximal_existing(&cs->scope, &cs->res) &
			       tree_mask(tree);
		ret = ksmbd_sd_open_check(cs->ctx->conn, cs->name, cs->tok,
					  &cs->res, rq->args.desired_access,
					  tree_mask(tree), &out->maximal);
		if (ret)
			return ret;
		if (cs->step == KSMBD_STEP_TRUNCATE &&
		    !(out->maximal & FILE_WRITE_DATA))
			return -EACCES;
	}
	return grant_checked(rq, out->maximal, &cs->granted);
}

/* The handle, before anything is created: it takes its slots under the
 * open-file bounds, so a refused open leaves no file behind. */
static struct ksmbd_file *new_handle(struct create_state *cs,
				     const char *name)
{
	const struct create_req *rq = cs->rq;
	struct ksmbd_file *fp;

	fp = ksmbd_file_alloc(ksmbd_smb2_caller(cs->ctx),
			      cs->dir ? KSMBD_FILE_DIRECTORY :
					       KSMBD_FILE_REGULAR);
	if (IS_ERR(fp))
		return fp;
	fp->name = kstrdup(name, GFP_KERNEL);
	if (!fp->name)
		goto err_put;
	fp->daccess = cs->granted;
	fp->share_access = rq->args.share_access;
	fp->create_options = rq->args.options;
	fp->mode = rq->args.options & KSMBD_FILE_MODE_BITS;
	if (cs->sn) {
		/* Sized for any name: a rename rewrites it in place. */
		fp->stream = kzalloc(XATTR_NAME_MAX + 1, GFP_KERNEL);
		if (!fp->stream)
			goto err_put;
		strscpy(fp->stream, cs->sn->xname, XATTR_NAME_MAX + 1);
	}
	return fp;

err_put:
	ksmbd_file_put(fp);
	return ERR_PTR(-ENOMEM);
}

static int open_filp(struct create_state *cs, struct ksmbd_file *fp)
{
	/* A stream's data is in the base's attributes: no data open. */
	int flags = cs->sn ? O_PATH : open_flags(cs->granted, cs->dir);
	bool created = cs->step == KSMBD_STEP_CREATE;
	struct file *filp = ksmbd_vfs_open(&cs->scope, &cs->res, flags,
					   created);

	/* Execute without read (mode --x): the handle keeps it, reads nothing */
	if (PTR_ERR_OR_ZERO(filp) == -EACCES && !(flags & O_PATH) &&
	    (flags & O_ACCMODE) == O_RDONLY && !(cs->granted & FILE_READ_DATA))
		filp = ksmbd_vfs_open(&cs->scope, &cs->res, O_PATH, false);
	if (IS_ERR(filp))
		return PTR_ERR(filp);
	fp->filp = filp;
	return 0;
}

/* FILE_DELETE_ON_CLOSE on a non-empty directory: opens, arms nothing
 * (as Samba); SET_INFO's disposition answers DIRECTORY_NOT_EMPTY. */
static bool doc_allowed(struct ksmbd_file *fp)
{
	return fp->kind != KSMBD_FILE_DIRECTORY || !ksmbd_vfs_dir_empty(fp);
}

/* MS-SMB2 3.3.5.9.13: an AppInstanceId with DH2Q on a 3.x connection. */
static bool app_instance_applies(const struct ksmbd_smb2_ctx *ctx,
				 const struct create_req *rq)
{
	return rq->has_app_instance && rq->dh.kind == KSMBD_DH_V2_REQ &&
	       ctx->conn->neg.dialect >= SMB30_DIALECT;
}

/* A durable handle act()'s purge came too early for is closed now
 * (-ESTALE when that deleted the file). */
static int purge_late(struct create_state *cs, struct ksmbd_file *fp)
{
	if (ksmbd_file_durable_purge(fp, cs->step == KSMBD_STEP_TRUNCATE) &&
	    d_unlinked(fp->filp->f_path.dentry))
		return -ESTALE;
	return 0;
}

/* A sharing conflict: break handle caching, then join again. */
static int join_after_break(struct create_state *cs, struct ksmbd_file *fp)
{
	int ret = ksmbd_oplock_break_for_share(ksmbd_smb2_caller(cs->ctx), fp,
					       &cs->rq->op, true);

	if (ret == -EAGAIN) {
		ret = purge_late(cs, fp);
		if (ret)
			return ret;
		ret = ksmbd_oplock_break_for_share(ksmbd_smb2_caller(cs->ctx),
						   fp, &cs->rq->op,
						   false);
	}
	return ret > 0 ? ksmbd_file_share_join(fp) : ret ?: -EBUSY;
}

/* The caching the open conflicts with: broken, or its handles closed. */
static int break_others(struct create_state *cs, struct ksmbd_file *fp)
{
	bool overwrite = cs->step == KSMBD_STEP_TRUNCATE;
	int ret;

	ret = ksmbd_oplock_break_for_open(ksmbd_smb2_caller(cs->ctx), fp,
					  &cs->rq->op, overwrite,
					  true);
	if (ret != -EAGAIN)
		return ret;
	ret = purge_late(cs, fp);
	if (ret)
		return ret;
	return ksmbd_oplock_break_for_open(ksmbd_smb2_caller(cs->ctx), fp,
					   &cs->rq->op, overwrite,
					   false);
}

static int act(struct create_state *cs, const char *name,
	       struct create_result *out)
{
	const struct create_req *rq = cs->rq;
	struct ksmbd_file *fp;
	int ret;

	ret = decide(cs, out);
	if (ret)
		return ret;
	ret = ksmbd_oplock_lease_check(ksmbd_smb2_caller(cs->ctx), &rq->op,
				       d_is_positive(cs->res.dentry) ?
				       d_inode(cs->res.dentry) : NULL);
	if (ret)
		return ret;
	fp = new_handle(cs, name);
	if (IS_ERR(fp))
		return PTR_ERR(fp);
	/*
	 * 3.3.5.9.13: the open of this application instance by another
	 * client goes, so its share modes do not stand in our way. Only
	 * now, with this open authorized (found, disposition and access
	 * checked): a request that fails those closes nothing.
	 */
	if (app_instance_applies(cs->ctx, rq))
		ksmbd_file_close_app_instance(rq->app_instance_id,
					      cs->ctx->conn->neg.client_guid,
					      cs->scope.cred->fsuid,
					      &cs->ctx->tree->root, name);
	if (cs->sn ? cs->base_create : cs->step == KSMBD_STEP_CREATE) {
		ret = ksmbd_vfs_create(&cs->scope, &cs->res,
				       new_mode(cs->ctx->tree->share, cs->dir));
		if (cs->dir)
			trace_ksmbd_vfs_mkdir(cs->ctx->conn, NULL, name, ret,
					      NULL, false);
		if (ret)
			goto err_put;
	}
	ret = open_filp(cs, fp);
	if (!ret && cs->step != KSMBD_STEP_CREATE && !cs->sn)
		ret = ksmbd_fattr_readonly_open(fp, rq->args.desired_access,
				rq->args.options & FILE_DELETE_ON_CLOSE,
				cs->step == KSMBD_STEP_TRUNCATE);
	if (ret)
		goto err_put;
	/* Attributes and EAs first: the descriptor may deny these writes */
	if (cs->step == KSMBD_STEP_CREATE && !cs->sn)
		apply_new_file_hints(fp, rq, cs->ctx->conn);
	if (cs->tok &&
	    (cs->sn ? cs->base_create : cs->step == KSMBD_STEP_CREATE)) {
		ret = ksmbd_sd_store_new(fp, cs->res.parent.dentry, &rq->secd,
					 cs->tok);
		if (ret) {
			/* not made as asked: not made at all */
			ksmbd_vfs_remove_file(fp);
			goto err_put;
		}
	}
	/*
	 * Disconnected durable handles are closed, not broken (3.3.4.6);
	 * when that ran their delete-on-close, the name is gone: look again.
	 */
	if (ksmbd_file_durable_purge(fp, cs->step == KSMBD_STEP_TRUNCATE) &&
	    d_unlinked(fp->filp->f_path.dentry)) {
		ret = -ESTALE;
		goto err_put;
	}
	/*
	 * Share modes first: a conflict fails the open without a break,
	 * unless an owner caching handles is broken and then lets us in.
	 */
	ret = ksmbd_file_share_join(fp);
	if (ret == -EBUSY)
		ret = join_after_break(cs, fp);
	if (ret)
		goto err_put;
	/* Cancelled while waiting: the put leaves the share modes first. */
	ret = break_others(cs, fp);
	if (ret)
		goto err_put;
	if (cs->sn && cs->step == KSMBD_STEP_CREATE)
		ret = ksmbd_stream_create(fp);
	else if (cs->step == KSMBD_STEP_TRUNCATE)
		ret = ksmbd_vfs_overwrite(fp);
	if (ret)
		goto err_put;
	if (cs->step == KSMBD_STEP_TRUNCATE && !cs->sn)
		apply_new_file_hints(fp, rq, cs->ctx->conn);
	fp->delete_on_close = (rq->args.options & FILE_DELETE_ON_CLOSE) &&
			      doc_allowed(fp);
	ret = ksmbd_vfs_getattr(fp, &out->st);
	if (ret)
		goto err_put;
	if (app_instance_applies(cs->ctx, rq)) {
		fp->has_app_instance = true;
		memcpy(fp->app_instance_id, rq->app_instance_id, 16);
		memcpy(fp->app_client_guid, cs->ctx->conn->neg.client_guid, 16);
	}
	ksmbd_file_get(fp);	/* the table takes the first reference */
	ret = ksmbd_file_publish(fp);
	if (ret) {
		ksmbd_file_put(fp);
		goto err_put;
	}
	out->fp = fp;
	out->action = ksmbd_create_action(rq->args.disposition, cs->step);
	fp->create_action = out->action;
	ksmbd_oplock_grant(ksmbd_smb2_caller(cs->ctx), fp, &rq->op,
			   cs->step != KSMBD_STEP_OPEN, &out->grant);
	return 0;

err_put:
	/* Not published: this is the last reference, the open goes away. */
	fp->delete_on_close = false;
	ksmbd_file_put(fp);
	return ret;
}

static u32 lookup_and_act(struct create_state *cs, const char *name,
			  struct create_result *out)
{
	const struct create_req *rq = cs->rq;
	bool retried = false;
	int ret;

again:
	ret = ksmbd_vfs_lookup(&cs->scope, name, &cs->res);
	if (ret == -ENOENT || ret == -ENOTDIR)
		return STATUS_OBJECT_PATH_NOT_FOUND;
	if (ret)
		return ksmbd_ntstatus_from_errno(ret);
	ret = act(cs, name, out);
	ksmbd_vfs_lookup_done(&cs->res);
	/* A purged durable handle deleted the file we opened (act()). */
	if (ret == -ESTALE && !retried) {
		retried = true;
		goto again;
	}
	/*
	 * Another open created the name between our lookup and our create.
	 * For the dispositions that open an existing file that is no
	 * collision: look again and open it (once).
	 */
	if (ret == -EEXIST && !retried &&
	    (rq->args.disposition == FILE_OPEN_IF ||
	     rq->args.disposition == FILE_OVERWRITE_IF ||
	     rq->args.disposition == FILE_SUPERSEDE)) {
		retried = true;
		goto again;
	}
	return ksmbd_ntstatus_from_errno(ret);
}

static u32 open_path(struct ksmbd_smb2_ctx *ctx, const struct create_req *rq,
		     const char *name, struct ksmbd_stream_name *sn,
		     struct create_result *out)
{
	struct create_state cs = {
		.ctx = ctx,
		.rq = rq,
		.sn = sn->named ? sn : NULL,
		.default_data = sn->default_data,
		.scope = { .root = &ctx->tree->root,
			   .cred = ctx->tree->cred ?: ctx->sess->cred },
	};
	struct ksmbd_token tok;
	u32 status;
	int ret;

	cs.name = name;
	if (ksmbd_sd_stored_share(ctx->tree)) {
		ret = ksmbd_token_build(cs.scope.cred, ctx->tree, &tok);
		if (ret)
			return ksmbd_ntstatus_from_errno(ret);
		cs.tok = &tok;
	}
	status = lookup_and_act(&cs, name, out);
	if (cs.tok)
		ksmbd_token_free(cs.tok);
	return status;
}

/* ---- Encoding (proto/encode.c lays the response out) ---- */

/* The lease and durable answers of an open, as the contexts say them. */
static void encode_grants(struct ksmbd_create_rsp *o,
			  const struct create_result *r)
{
	const struct ksmbd_oplock_grant *g = &r->grant;

	o->lease = g->lease;
	o->ls.version = g->version;
	memcpy(o->ls.key, g->key, sizeof(o->ls.key));
	memcpy(o->ls.parent_key, g->parent_key, sizeof(o->ls.parent_key));
	o->ls.state = g->state;
	o->ls.flags = g->flags;
	o->ls.epoch = g->epoch;
	if (r->dh.kind != KSMBD_DH_NONE)
		o->durable = r->dh.kind == KSMBD_DH_V2_REQ ? KSMBD_RSP_DH_V2 :
							    KSMBD_RSP_DH_V1;
	o->durable_timeout_ms = r->dh.timeout_ms;
}

/* A pipe has no times and no sizes, and answers no context. */
static void encode(struct ksmbd_smb2_ctx *ctx, const struct create_req *rq,
		   const struct create_result *r)
{
	struct ksmbd_file *fp = r->fp;
	struct ksmbd_fattr a = { .attributes = FILE_ATTRIBUTE_NORMAL };
	struct ksmbd_create_rsp o = {
		.oplock_level = r->grant.level,
		.action = r->action,
		.a = &a,
		.persistent_id = fp->persistent_id,
		.volatile_id = fp->volatile_id,
	};

	if (fp->kind != KSMBD_FILE_PIPE) {
		ksmbd_fattr_of_stat(fp, &r->st, &a);
		if (fp->kind != KSMBD_FILE_REGULAR)
			a.allocation_size = a.end_of_file = 0;
		o.mxac = rq->want_mxac;
		o.maximal_access = r->maximal;
		o.qfid = rq->want_qfid;
		o.disk_file_id = r->st.ino;
		o.volume_id = new_encode_dev(r->st.dev);
		encode_grants(&o, r);
	}
	ksmbd_create_rsp_encode(&ctx->body, &o);
}

static void remember_for_compound(struct ksmbd_smb2_ctx *ctx,
				  const struct ksmbd_file *fp)
{
	if (!ctx->cfid)
		return;
	ctx->cfid->valid = true;
	ctx->cfid->persistent = fp->persistent_id;
	ctx->cfid->volatile_id = fp->volatile_id;
}

/* DHnC, or DH2C from a 3.x client (2.x clients' DH2C is ignored). */
static bool is_reconnect(const struct ksmbd_smb2_ctx *ctx,
			 const struct create_req *rq)
{
	return rq->dh.kind == KSMBD_DH_V1_RECONNECT ||
	       (rq->dh.kind == KSMBD_DH_V2_RECONNECT &&
		ctx->conn->neg.dialect >= SMB30_DIALECT);
}

/* The answer about an open that already existed (reconnect, replay). */
static u32 existing_result(struct ksmbd_file *fp, struct create_result *r)
{
	int ret;

	r->fp = fp;
	r->action = FILE_OPENED;
	r->maximal = fp->daccess;
	ret = ksmbd_vfs_getattr(fp, &r->st);
	return ret ? ksmbd_ntstatus_from_errno(ret) : STATUS_SUCCESS;
}

/*
 * DHnC/DH2C: only the durable context (and a lease's key and name)
 * counts; access, disposition and options are not looked at (MS-SMB2
 * 3.3.5.9.7, .12), so this runs before they are checked.
 */
static u32 reopen(struct ksmbd_smb2_ctx *ctx, const struct create_req *rq)
{
	struct create_result r = { };
	struct ksmbd_oplock_req op;
	struct ksmbd_file *fp;
	u32 status;
	char *name;

	/* RequestedOplockLevel is ignored too: a lease context is the lease. */
	ksmbd_oplock_decode(ksmbd_smb2_caller(ctx),
			    rq->has_lease ? SMB2_OPLOCK_LEVEL_LEASE :
				 rq->oplock_level,
			    rq->has_lease ? &rq->lease : NULL, &op);
	name = ksmbd_scratch_alloc();
	if (!name)
		return STATUS_NO_MEMORY;
	if (ksmbd_name_from_utf16(&rq->name, name, KSMBD_NAME_MAX_PATH) < 0) {
		ksmbd_scratch_free(name);
		name = NULL;
	}
	status = ksmbd_durable_reconnect(ksmbd_smb2_caller(ctx), &rq->dh, &op,
					 name, &fp,
					 &r.grant);
	ksmbd_scratch_free(name);
	if (status != STATUS_SUCCESS)
		return status;
	status = existing_result(fp, &r);
	if (status == STATUS_SUCCESS) {
		encode(ctx, rq, &r);
		remember_for_compound(ctx, fp);
	}
	ksmbd_file_put(fp);
	return status;
}

/*
 * MS-SMB2 3.3.5.9.10: a replayed DH2Q gets the open it already made;
 * true, with *status, when it named one.
 */
static bool replay(struct ksmbd_smb2_ctx *ctx, const struct create_req *rq,
		   struct create_result *r, u32 *status)
{
	struct ksmbd_caller *caller = ksmbd_smb2_caller(ctx);
	struct ksmbd_file *fp = ksmbd_durable_replay(caller, &rq->dh);

	if (!fp)
		return false;
	*status = existing_result(fp, r);
	if (*status == STATUS_SUCCESS)
		*status = ksmbd_durable_replay_grant(caller, fp, &rq->op,
						     &r->grant, &r->dh);
	r->action = fp->create_action;
	if (*status != STATUS_SUCCESS) {
		ksmbd_file_put(fp);
		r->fp = NULL;
	}
	return true;
}

static u32 create_file(struct ksmbd_smb2_ctx *ctx, const struct create_req *rq)
{
	struct ksmbd_share *share = ctx->tree->share;
	struct create_result r = { };
	struct ksmbd_stream_name *sn;
	struct ksmbd_buf base;
	struct ksmbd_durable_inflight inflight = {
		.node = LIST_HEAD_INIT(inflight.node),
	};
	bool replayed = false;
	u32 status;
	char *name;
	u64 t0;
	int ret;

	/* MS-SMB2 3.3.5.9: a name starting with a separator is not relative */
	if (rq->name.len >= 2 && get_unaligned_le16(rq->name.p) == '\\')
		return STATUS_INVALID_PARAMETER;
	/* The path, then the stream name at its end (or none). */
	BUILD_BUG_ON(KSMBD_NAME_MAX_PATH + sizeof(*sn) > KSMBD_SCRATCH_SIZE);
	name = ksmbd_scratch_alloc();
	if (!name)
		return STATUS_NO_MEMORY;
	sn = (struct ksmbd_stream_name *)(name + KSMBD_NAME_MAX_PATH);
	ret = ksmbd_stream_split(&rq->name, &base, sn);
	if (!ret)
		ret = ksmbd_name_from_utf16(&base, name, KSMBD_NAME_MAX_PATH);
	/* A data stream is never a directory (MS-FSA 2.1.5.1) */
	if (ret >= 0 && (sn->named || sn->default_data) &&
	    (rq->args.options & FILE_DIRECTORY_FILE)) {
		status = STATUS_NOT_A_DIRECTORY;
		goto out_free;
	}
	if (ret < 0) {
		status = ret == -EOPNOTSUPP ||
			 ret == -KSMBD_EPATH_SYNTAX_BAD ?
			 ksmbd_ntstatus_from_errno(ret) :
			 STATUS_OBJECT_NAME_INVALID;
		goto out_free;
	}
	if (ksmbd_name_vetoed(share->veto_list, share->veto_list_sz, name)) {
		status = STATUS_OBJECT_NAME_NOT_FOUND;
		goto out_free;
	}
	t0 = KSMBD_TP_CLOCK(ksmbd_vfs_open);
	if (rq->dh.kind == KSMBD_DH_V2_REQ)
		ksmbd_caller_outlive_conn(ksmbd_smb2_caller(ctx));
	if (ksmbd_durable_inflight_begin(ksmbd_smb2_caller(ctx), &rq->dh,
					 &inflight))
		status = ksmbd_smb2_caller(ctx)->flags &
			 SMB2_FLAGS_REPLAY_OPERATION ?
			 STATUS_FILE_NOT_AVAILABLE : STATUS_DUPLICATE_OBJECTID;
	else if (replay(ctx, rq, &r, &status))
		replayed = true;
	else
		status = open_path(ctx, rq, name, sn, &r);
	trace_ksmbd_vfs_open(ctx->conn, ctx->session_id, r.fp, name,
			     rq->args.disposition,
			     r.fp ? r.action : KSMBD_TP_NO_ACTION, status,
			     ksmbd_tp_since(t0));
	if (status != STATUS_SUCCESS)
		goto out_free;
	if (!replayed && rq->dh.kind == KSMBD_DH_V2_REQ)
		ksmbd_file_set_replay_guid(r.fp, rq->dh.create_guid,
					   ctx->conn->neg.client_guid);
	if (!replayed)
		ksmbd_durable_grant(ksmbd_smb2_caller(ctx), r.fp, &rq->dh,
				    &r.grant, &r.dh);
	/*
	 * Its connection closed while it waited (it outlived it): the open's
	 * oplock or lease was granted on the dead connection, after the
	 * teardown moved the session's others to a live channel. Move it too.
	 */
	if (ctx->outlives_conn && ksmbd_conn_exiting(ctx->conn))
		ksmbd_oplock_conn_closed(ctx->conn);
	encode(ctx, rq, &r);
	remember_for_compound(ctx, r.fp);
	ksmbd_file_put(r.fp);
	status = STATUS_SUCCESS;
out_free:
	/* Only now: the handle, if any, can be found by its CreateGuid. */
	ksmbd_durable_inflight_end(&inflight);
	ksmbd_scratch_free(name);
	return status;
}

static u32 create_pipe(struct ksmbd_smb2_ctx *ctx, const struct create_req *rq)
{
	struct create_result r = { .action = FILE_OPENED };
	u32 status;

	r.fp = ksmbd_smb2_pipe_open(ctx, &rq->name, &status);
	if (!r.fp)
		return status;
	encode(ctx, rq, &r);
	remember_for_compound(ctx, r.fp);
	ksmbd_file_put(r.fp);
	return STATUS_SUCCESS;
}

enum ksmbd_smb2_verdict ksmbd_smb2_create(struct ksmbd_smb2_ctx *ctx)
{
	struct create_req rq;
	u32 status;

	if (ctx->cfid)
		ctx->cfid->valid = false;
	status = decode(ctx->req, &rq);
	ksmbd_oplock_decode(ksmbd_smb2_caller(ctx), rq.oplock_level,
			    rq.has_lease ? &rq.lease : NULL,
			    &rq.op);
	if (status == STATUS_SUCCESS && is_reconnect(ctx, &rq) &&
	    !ksmbd_tree_is_ipc(ctx->tree) && ctx->sess->cred) {
		ctx->status = reopen(ctx, &rq);
		return KSMBD_SMB2_REPLY;
	}
	rq.args.may_audit = ksmbd_sd_may_audit(ctx->tree, ctx->sess->cred);
	if (status == STATUS_SUCCESS)
		status = ksmbd_create_args_check(&rq.args);
	if (status == STATUS_SUCCESS) {
		if (ksmbd_tree_is_ipc(ctx->tree))
			status = create_pipe(ctx, &rq);
		else if (!ctx->sess->cred)
			status = STATUS_ACCESS_DENIED;	/* no user to act as */
		else
			status = create_file(ctx, &rq);
	}
	ctx->status = status;
	return KSMBD_SMB2_REPLY;
}
