// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stored security descriptors: load, check, store; see ntacl_store.h.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include "create_rules.h"
#include "file.h"
#include "ntacl_store.h"
#include "proto/ntacl.h"
#include "proto/sd_build.h"
#include "proto/sd_inherit.h"
#include "proto/sd_posix.h"
#include "secdesc.h"
#include "server.h"
#include "share.h"
#include "stats.h"
#include "tree.h"
#include "vfs.h"
#include "vfs_acl.h"
#include "ksmbd_trace.h"

bool ksmbd_sd_stored_share(const struct ksmbd_tree *tree)
{
	return tree && tree->share &&
	       ksmbd_share_has(tree->share, KSMBD_SHARE_FLAG_ACL_XATTR);
}

void ksmbd_sd_held_free(struct ksmbd_sd_held *h)
{
	kfree(h->buf);
	h->buf = NULL;
	h->len = 0;
}

/* ---- The file's Unix state (what security.NTACL's hash covers) ---- */

struct unix_state {
	struct ksmbd_ntacl_unix u;
	struct ksmbd_posix_ace acc[KSMBD_POSIX_ACL_MAX];
	struct ksmbd_posix_ace def[KSMBD_POSIX_ACL_MAX];
};

static int unix_state_read(struct dentry *d, struct unix_state *s)
{
	struct inode *inode = d_inode(d);
	int n;

	memset(&s->u, 0, sizeof(s->u));
	s->u.uid = from_kuid_munged(&init_user_ns, inode->i_uid);
	s->u.gid = from_kgid_munged(&init_user_ns, inode->i_gid);
	s->u.mode = inode->i_mode;
	n = ksmbd_vfs_posix_acl_get(d, false, s->acc, KSMBD_POSIX_ACL_MAX);
	if (n < 0)
		return n;
	if (n) {
		s->u.acl = s->acc;
		s->u.acl_count = n;
	}
	if (!S_ISDIR(inode->i_mode))
		return 0;
	n = ksmbd_vfs_posix_acl_get(d, true, s->def, KSMBD_POSIX_ACL_MAX);
	if (n < 0)
		return n;
	if (n) {
		s->u.def = s->def;
		s->u.def_count = n;
	}
	return 0;
}

/* ---- Loading ---- */

static int held_parse(struct ksmbd_sd_held *h)
{
	struct ksmbd_buf b = { .p = h->buf, .len = h->len };

	if (ksmbd_sd_parse(&b, &h->sd)) {
		ksmbd_sd_held_free(h);
		return -EINVAL;
	}
	return 0;
}

/* The descriptor the mode stands for: owner, group, their DACL. */
static int load_from_mode(struct dentry *d, struct ksmbd_sd_held *h)
{
	struct inode *inode = d_inode(d);
	struct ksmbd_sd_unix u = {
		.uid = from_kuid_munged(&init_user_ns, inode->i_uid),
		.gid = from_kgid_munged(&init_user_ns, inode->i_gid),
		.mode = inode->i_mode & 0777,
		.directory = S_ISDIR(inode->i_mode),
	};
	struct ksmbd_wbuf w;
	const u32 cap = 256;	/* two Unix SIDs and three ACEs fit */

	h->buf = kmalloc(cap, GFP_KERNEL);
	if (!h->buf)
		return -ENOMEM;
	w = ksmbd_wbuf_make(h->buf, cap);
	ksmbd_secdesc_build(&w, &u, KSMBD_OWNER_SECINFO | KSMBD_GROUP_SECINFO |
			    KSMBD_DACL_SECINFO);
	if (w.overflow) {
		ksmbd_sd_held_free(h);
		return -EIO;
	}
	h->len = w.len;
	h->stored = false;
	return held_parse(h);
}

/* The stored value, decoded: 0, or -ENODATA when there is none we use. */
static int load_stored(struct dentry *d, struct ksmbd_sd_held *h)
{
	struct unix_state *st = NULL;
	u8 *val = NULL;
	ssize_t len;
	int ret;

	len = ksmbd_vfs_ntacl_get(d, NULL, 0);
	if (len <= 0 || len > KSMBD_NTACL_MAX)
		return -ENODATA;
	val = kmalloc(len, GFP_KERNEL);
	st = kmalloc(sizeof(*st), GFP_KERNEL);
	/* the descriptor is never longer than the value that holds it */
	h->buf = kmalloc(len, GFP_KERNEL);
	ret = -ENOMEM;
	if (!val || !st || !h->buf)
		goto out_free;
	ret = -ENODATA;
	/* a value that changed size meanwhile: the mode stands in */
	if (ksmbd_vfs_ntacl_get(d, val, len) != len)
		goto out_free;
	ret = unix_state_read(d, st);
	if (ret)
		goto out_free;
	ret = ksmbd_ntacl_decode(val, len, &st->u, h->buf, len, NULL);
	if (ret < 0) {
		ret = -ENODATA;
		goto out_free;
	}
	h->len = ret;
	h->stored = true;
	ret = held_parse(h);
	if (ret)
		ret = -ENODATA;
out_free:
	if (ret)
		ksmbd_sd_held_free(h);
	kfree(st);
	kfree(val);
	return ret;
}

int ksmbd_sd_load(struct dentry *d, struct ksmbd_sd_held *h)
{
	int ret;

	memset(h, 0, sizeof(*h));
	ret = load_stored(d, h);
	if (ret != -ENODATA)
		return ret;
	return load_from_mode(d, h);
}

/* ---- The caller ---- */

/* An administrator: root, or in the share's "admin users"; never a guest */
static bool is_admin(const struct ksmbd_tree *tree, u32 uid)
{
	return !(tree->flags & KSMBD_TREE_F_GUEST) &&
	       (!uid || (tree->flags & KSMBD_TREE_F_ADMIN));
}

bool ksmbd_sd_may_audit(const struct ksmbd_tree *tree, const struct cred *cred)
{
	cred = tree->cred ?: cred;	/* a forced user's, as the open's */
	return cred && ksmbd_sd_stored_share(tree) &&
	       is_admin(tree, from_kuid_munged(&init_user_ns, cred->fsuid));
}

/* sids[0] the user, sids[1] its primary group (ksmbd_sd_store_new). */
int ksmbd_token_build(const struct cred *cred, const struct ksmbd_tree *tree,
		      struct ksmbd_token *tok)
{
	struct ksmbd_sid_unix_map m = { .has_domain = true };
	struct ksmbd_token_who who = {
		.uid = from_kuid_munged(&init_user_ns, cred->fsuid),
		.gid = from_kgid_munged(&init_user_ns, cred->fsgid),
		.ngids = min_t(u32, cred->group_info->ngroups,
			       KSMBD_LOGIN_MAX_GROUPS),
		.guest = tree->flags & KSMBD_TREE_F_GUEST,
	};
	/* the user and group, their RIDs, 2 per group, 7 more at most */
	u32 cap = 4 + 2 * who.ngids + 7, i;
	struct ksmbd_sid *sids;
	u32 *gids;
	int n;

	who.admin = is_admin(tree, who.uid);
	memcpy(m.domain, ksmbd_server_conf.sub_auth, sizeof(m.domain));
	sids = kcalloc(cap, sizeof(*sids), GFP_KERNEL);
	gids = kcalloc(who.ngids ?: 1, sizeof(*gids), GFP_KERNEL);
	if (!sids || !gids) {
		kfree(gids);
		kfree(sids);
		return -ENOMEM;
	}
	for (i = 0; i < who.ngids; i++)
		gids[i] = from_kgid_munged(&init_user_ns,
					   cred->group_info->gid[i]);
	who.gids = gids;
	n = ksmbd_token_unix_sids(&m, &who, sids, cap);
	kfree(gids);
	if (n < 0) {
		kfree(sids);
		return n;
	}
	tok->privileges = who.admin ? KSMBD_PRIV_SECURITY |
				      KSMBD_PRIV_TAKE_OWNERSHIP |
				      KSMBD_PRIV_RESTORE | KSMBD_PRIV_BACKUP : 0;
	tok->sids = sids;
	tok->nr_sids = n;
	return 0;
}

void ksmbd_token_free(struct ksmbd_token *tok)
{
	kfree(tok->sids);
	tok->sids = NULL;
	tok->nr_sids = 0;
}

/* ---- The check ---- */

/* The trustee of the DACL's ACE number idx as text, "" when none. */
static void ace_sid_text(const struct ksmbd_sd *sd, int idx, char *out,
			 size_t size)
{
	u32 pos = KSMBD_ACL_HDR_SIZE, i, n;
	u16 left = sd->ace_count;
	struct ksmbd_ace ace;
	int k = 0;

	out[0] = '\0';
	if (idx < 0 || !sd->has_dacl || sd->null_dacl)
		return;
	while (ksmbd_acl_next(&sd->dacl, &pos, &left, &ace) > 0) {
		if (k++ != idx)
			continue;
		if (!ace.has_sid)
			return;
		n = scnprintf(out, size, "S-%u-%llu", ace.sid.revision,
			      ksmbd_sid_authority(&ace.sid));
		for (i = 0; i < ace.sid.num_subauth; i++)
			n += scnprintf(out + n, size - n, "-%u",
				       ace.sid.sub_auth[i]);
		return;
	}
}

static void trace_denied(const struct ksmbd_conn *conn, const char *name,
			 const struct ksmbd_sd_held *h,
			 const struct ksmbd_token *tok, u32 desired, int ace)
{
	char sid[32 + 11 * KSMBD_SID_MAX_SUB_AUTH];
	u32 most = 0;

	if (!trace_ksmbd_access_denied_enabled())
		return;
	ksmbd_sd_access_check(&h->sd, tok, KSMBD_MAXIMUM_ALLOWED, &most, NULL);
	ace_sid_text(&h->sd, ace, sid, sizeof(sid));
	trace_ksmbd_access_denied(conn, tok->sids[0].sub_auth[1], name,
				  desired, most, ace, sid, h->stored);
}

/*
 * Every check is counted; a refusal is counted and traced too. The check
 * has run before the call: ace is what it set (an argument's order of
 * evaluation is unspecified, so never counted(check(&ace), ..., ace)).
 */
static int counted(int ret, const struct ksmbd_conn *conn, const char *name,
		   const struct ksmbd_sd_held *h, const struct ksmbd_token *tok,
		   u32 desired, int ace)
{
	ksmbd_total_add(KSMBD_TOTAL_ACCESS_CHECKS, 1);
	if (ret) {
		ksmbd_total_add(KSMBD_TOTAL_ACCESS_DENIED, 1);
		trace_denied(conn, name, h, tok, desired, ace);
	}
	return ret;
}

int ksmbd_sd_check(const struct ksmbd_conn *conn, const char *name,
		   const struct ksmbd_sd_held *h, const struct ksmbd_token *tok,
		   u32 desired, u32 *granted)
{
	int ace = -1;
	int ret = ksmbd_sd_access_check(&h->sd, tok, desired, granted, &ace);

	return counted(ret, conn, name, h, tok, desired, ace);
}

/* ---- Access-based enumeration ---- */

/* What a listing needs to show an entry: FILE_GENERIC_READ's file rights */
#define KSMBD_LISTED_RIGHTS	(FILE_READ_DATA | FILE_READ_ATTRIBUTES | \
				 FILE_READ_EA)

bool ksmbd_sd_child_listed(struct ksmbd_file *dir, const char *name, u32 len,
			   const struct ksmbd_token *tok)
{
	struct ksmbd_sd_held h;
	struct path child;
	u32 granted = 0;
	bool listed;

	/* gone since readdir, or not a name: the stat that follows decides */
	if (ksmbd_vfs_child_get(dir, name, len, &child))
		return true;
	listed = !ksmbd_sd_load(child.dentry, &h);
	if (listed) {
		listed = !ksmbd_sd_access_check(&h.sd, tok, KSMBD_LISTED_RIGHTS,
						&granted, NULL);
		ksmbd_sd_held_free(&h);
	}
	path_put(&child);
	return listed;
}

/* ---- CREATE ---- */

/*
 * Rights the kernel's permission bits must back even where a stored
 * descriptor grants them: the open runs as the user, so what the kernel
 * refuses (a descriptor not yet made true in the POSIX ACL, a file
 * system without one) is left out rather than failing the open.
 */
#define SD_KERNEL_BACKED	(KSMBD_FILE_READ_DATA | KSMBD_FILE_WRITE_DATA | \
				 KSMBD_FILE_APPEND_DATA | KSMBD_FILE_EXECUTE)

/* Does d's stored descriptor grant the caller all of want? */
static int stored_grants(const struct ksmbd_conn *conn, const char *name,
			 const struct ksmbd_token *tok, struct dentry *d,
			 u32 want)
{
	struct ksmbd_sd_held h;
	u32 granted;
	int ret;

	ret = ksmbd_sd_load(d, &h);
	if (ret)
		return ret;
	ret = h.stored ? ksmbd_sd_check(conn, name, &h, tok, want, &granted) :
			 0;
	ksmbd_sd_held_free(&h);
	return ret;
}

/* The check, counted and traced when it refuses (ksmbd_sd_check). */
static int open_check(const struct ksmbd_conn *conn, const char *name,
		      const struct ksmbd_sd_held *h, const struct ksmbd_sd *psd,
		      const struct ksmbd_token *tok, u32 desired, u32 *granted)
{
	int ace = -1;
	int ret = ksmbd_sd_access_check_open(&h->sd, psd, tok, desired,
					     granted, &ace);

	return counted(ret, conn, name, h, tok, desired, ace);
}

int ksmbd_sd_open_check(const struct ksmbd_conn *conn, const char *name,
			const struct ksmbd_token *tok,
			const struct ksmbd_vfs_lookup *res, u32 desired,
			u32 tree_mask, u32 *maximal)
{
	u32 want = ksmbd_access_map_generic(desired) &
		   ~(FILE_MAXIMUM_ALLOWED | FILE_ACCESS_SYSTEM_SECURITY);
	struct dentry *d = res->dentry, *parent = res->parent.dentry;
	const struct ksmbd_sd *psd = NULL;
	struct ksmbd_sd_held h, ph = { };
	u32 most = 0;
	int ret;

	if (!tok)
		return 0;
	ret = ksmbd_sd_load(d, &h);
	if (ret)
		return ret;
	if (!h.stored)
		goto out_free;
	/* the share root has no parent to grant DELETE or attributes */
	if (d != parent) {
		ret = ksmbd_sd_load(parent, &ph);
		if (ret)
			goto out_free;
		psd = &ph.sd;
	}
	/* what was asked, counted and traced when refused */
	ret = open_check(conn, name, &h, psd, tok,
			 want | (desired & FILE_MAXIMUM_ALLOWED), &most);
	if (ret)
		goto out_free;
	ksmbd_sd_access_check_open(&h.sd, psd, tok, FILE_MAXIMUM_ALLOWED,
				   &most, NULL);
	*maximal = ((most & ~SD_KERNEL_BACKED) |
		    (most & *maximal & SD_KERNEL_BACKED)) & tree_mask;
out_free:
	ksmbd_sd_held_free(&ph);
	ksmbd_sd_held_free(&h);
	return ret;
}

int ksmbd_sd_add_check(const struct ksmbd_conn *conn, const char *name,
		       const struct ksmbd_token *tok, struct dentry *parent,
		       bool dir)
{
	if (!tok)
		return 0;
	return stored_grants(conn, name, tok, parent,
			     dir ? FILE_APPEND_DATA : FILE_WRITE_DATA);
}

int ksmbd_sd_target_check(const struct ksmbd_conn *conn, struct ksmbd_file *fp,
			  const char *new_name)
{
	struct ksmbd_token tok;
	struct path parent;
	int ret;

	if (!ksmbd_sd_stored_share(fp->tree))
		return 0;
	/* no such folder: the rename itself answers that */
	if (ksmbd_vfs_target_parent(fp, new_name, &parent))
		return 0;
	ret = ksmbd_token_build(fp->cred, fp->tree, &tok);
	if (!ret) {
		ret = ksmbd_sd_add_check(conn, new_name, &tok, parent.dentry,
					 S_ISDIR(file_inode(fp->filp)->i_mode));
		ksmbd_token_free(&tok);
	}
	path_put(&parent);
	return ret;
}

/* ---- Storing ---- */

/* Owner and group as the descriptor names them, where they are Unix ids. */
static int store_owner(struct ksmbd_file *fp, const struct ksmbd_sd *sd,
		       bool privileged)
{
	const u32 *dom = ksmbd_server_conf.sub_auth;
	struct inode *inode = file_inode(fp->filp);
	struct iattr ia = { };
	u32 id;

	if (sd->has_owner && !ksmbd_sid_to_uid(&sd->owner, dom, &id) &&
	    !uid_eq(make_kuid(&init_user_ns, id), inode->i_uid)) {
		ia.ia_valid |= ATTR_UID;
		ia.ia_uid = make_kuid(&init_user_ns, id);
	}
	if (sd->has_group && !ksmbd_sid_to_gid(&sd->group, dom, &id) &&
	    !gid_eq(make_kgid(&init_user_ns, id), inode->i_gid)) {
		ia.ia_valid |= ATTR_GID;
		ia.ia_gid = make_kgid(&init_user_ns, id);
	}
	if (!ia.ia_valid)
		return 0;
	if (((ia.ia_valid & ATTR_UID) && !uid_valid(ia.ia_uid)) ||
	    ((ia.ia_valid & ATTR_GID) && !gid_valid(ia.ia_gid)))
		return -EINVAL;
	ia.ia_valid |= ATTR_CTIME;
	/* Unprivileged: the kernel's chown rules, as the user. */
	if (!privileged)
		return ksmbd_vfs_setattr(fp, &ia);
	return ksmbd_vfs_setattr_server(fp, &ia);
}

static u16 pacl_perm(const struct ksmbd_pacl_entry *e, u32 n, u16 tag)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (e[i].tag == tag)
			return e[i].perm & 7;
	return 0;
}

/* Where the file system has no POSIX ACLs: the three classes in the mode. */
static int store_mode(struct ksmbd_file *fp, const struct ksmbd_pacl *p)
{
	struct inode *inode = file_inode(fp->filp);
	u16 grp = pacl_perm(p->acc, p->acc_count, KSMBD_PACL_GROUP_OBJ);
	struct iattr ia = { .ia_valid = ATTR_MODE | ATTR_CTIME };

	if (pacl_perm(p->acc, p->acc_count, KSMBD_PACL_MASK))
		grp &= pacl_perm(p->acc, p->acc_count, KSMBD_PACL_MASK);
	ia.ia_mode = (inode->i_mode & ~0777) |
		     pacl_perm(p->acc, p->acc_count, KSMBD_PACL_USER_OBJ) << 6 |
		     grp << 3 |
		     pacl_perm(p->acc, p->acc_count, KSMBD_PACL_OTHER);
	if ((ia.ia_mode & 0777) == (inode->i_mode & 0777))
		return 0;
	return ksmbd_vfs_setattr_server(fp, &ia);
}

static int set_pacl(struct ksmbd_file *fp, bool dflt,
		    const struct ksmbd_pacl_entry *e, u32 n)
{
	struct ksmbd_posix_ace a[KSMBD_POSIX_ACL_MAX];
	u32 i;

	for (i = 0; i < n; i++) {
		a[i].tag = e[i].tag;
		a[i].perm = e[i].perm;
		a[i].id = e[i].id;
	}
	return ksmbd_vfs_posix_acl_set(fp, dflt, a, n);
}

/* The DACL made true for the kernel. */
static int store_posix(struct ksmbd_file *fp, const struct ksmbd_sd *sd)
{
	struct inode *inode = file_inode(fp->filp);
	bool dir = S_ISDIR(inode->i_mode);
	struct ksmbd_sid_unix_map map = { .has_domain = true };
	struct ksmbd_pacl *p;
	int ret;

	memcpy(map.domain, ksmbd_server_conf.sub_auth, sizeof(map.domain));
	p = kzalloc(sizeof(*p) + 2 * KSMBD_POSIX_ACL_MAX *
		    sizeof(struct ksmbd_pacl_entry), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->acc = (struct ksmbd_pacl_entry *)(p + 1);
	p->acc_cap = KSMBD_POSIX_ACL_MAX;
	p->def = p->acc + KSMBD_POSIX_ACL_MAX;
	p->def_cap = dir ? KSMBD_POSIX_ACL_MAX : 0;
	ret = ksmbd_sd_to_posix(sd, from_kuid_munged(&init_user_ns, inode->i_uid),
				from_kgid_munged(&init_user_ns, inode->i_gid),
				dir, ksmbd_sid_map_unix, &map, p);
	if (ret)
		goto out_free;
	ret = set_pacl(fp, false, p->acc, p->acc_count);
	if (!ret && dir)
		ret = set_pacl(fp, true, p->def, p->def_count);
	if (ret == -EOPNOTSUPP)
		ret = store_mode(fp, p);
out_free:
	kfree(p);
	return ret;
}

/* security.NTACL over the file's Unix state as it is now. */
static int store_value(struct ksmbd_file *fp, const struct ksmbd_buf *sd)
{
	int size = ksmbd_ntacl_encoded_size(sd->p, sd->len);
	struct unix_state *st;
	u8 *val;
	int ret;

	if (size < 0)
		return size;
	st = kmalloc(sizeof(*st), GFP_KERNEL);
	val = kvmalloc(size, GFP_KERNEL);
	ret = -ENOMEM;
	if (!st || !val)
		goto out_free;
	ret = unix_state_read(fp->filp->f_path.dentry, st);
	if (ret)
		goto out_free;
	ret = ksmbd_ntacl_encode(sd->p, sd->len, &st->u, val, size);
	if (ret < 0)
		goto out_free;
	ret = ksmbd_vfs_ntacl_set(fp, val, ret);
out_free:
	kvfree(val);
	kfree(st);
	return ret;
}

int ksmbd_sd_store(struct ksmbd_file *fp, const struct ksmbd_buf *sdb,
		   bool privileged)
{
	struct ksmbd_sd sd;
	int ret;

	if (ksmbd_sd_parse(sdb, &sd))
		return -EINVAL;
	ret = store_owner(fp, &sd, privileged);
	if (ret)
		return ret;
	ret = store_posix(fp, &sd);
	if (ret)
		return ret;
	return store_value(fp, sdb);
}

/*
 * A descriptor written into a buffer sized by a first try: the writers
 * return the size they need when it did not fit.
 */
typedef int (*sd_writer)(struct ksmbd_wbuf *w, const void *arg);

static int write_sized(sd_writer write, const void *arg, u8 **out, u32 *len)
{
	u32 cap = 512;
	int tries, ret;

	for (tries = 0; tries < 2; tries++) {
		struct ksmbd_wbuf w;
		u8 *buf = kmalloc(cap, GFP_KERNEL);

		if (!buf)
			return -ENOMEM;
		w = ksmbd_wbuf_make(buf, cap);
		ret = write(&w, arg);
		if (ret >= 0 && !w.overflow) {
			*out = buf;
			*len = w.len;
			return 0;
		}
		kfree(buf);
		if (ret < 0)
			return ret;
		cap = ret;
	}
	return -EOVERFLOW;
}

struct merge_args {
	const struct ksmbd_sd *cur, *given;
	u32 secinfo;
};

static int write_merge(struct ksmbd_wbuf *w, const void *arg)
{
	const struct merge_args *a = arg;

	return ksmbd_sd_merge(w, a->cur, a->given, a->secinfo);
}

int ksmbd_sd_set(struct ksmbd_file *fp, const struct ksmbd_sd *given,
		 u32 secinfo, const struct ksmbd_token *tok)
{
	bool privileged = tok->privileges & (KSMBD_PRIV_TAKE_OWNERSHIP |
					     KSMBD_PRIV_RESTORE);
	struct ksmbd_sd_held cur;
	struct merge_args margs;
	struct ksmbd_buf out;
	u8 *buf;
	u32 len;
	int ret;

	/* An owner may be one of the caller's own SIDs, else privileged. */
	if ((secinfo & KSMBD_OWNER_SECINFO) && given->has_owner &&
	    !privileged && !ksmbd_token_has_sid(tok, &given->owner))
		return -KSMBD_EINVALID_OWNER;
	ret = ksmbd_sd_load(fp->filp->f_path.dentry, &cur);
	if (ret)
		return ret;
	margs.cur = &cur.sd;
	margs.given = given;
	margs.secinfo = secinfo;
	ret = write_sized(write_merge, &margs, &buf, &len);
	if (ret)
		goto out_free;
	out.p = buf;
	out.len = len;
	ret = ksmbd_sd_store(fp, &out, privileged);
	kfree(buf);
out_free:
	ksmbd_sd_held_free(&cur);
	return ret;
}

struct inherit_args {
	const struct ksmbd_sd *parent, *creator;
	const struct ksmbd_sid *owner, *group;
	const struct ksmbd_buf *dflt;
	bool dir;
};

static int write_inherit(struct ksmbd_wbuf *w, const void *arg)
{
	const struct inherit_args *a = arg;

	return ksmbd_sd_inherit(w, a->parent, a->creator, a->owner, a->group,
				a->dflt, a->dir);
}

int ksmbd_sd_store_new(struct ksmbd_file *fp, struct dentry *parent,
		       const struct ksmbd_buf *creator,
		       const struct ksmbd_token *tok)
{
	struct ksmbd_sd_held ph, mine;
	struct ksmbd_sd csd;
	struct inherit_args a = {
		.owner = &tok->sids[0],
		.group = &tok->sids[1],
		.dir = S_ISDIR(file_inode(fp->filp)->i_mode),
	};
	struct ksmbd_buf out;
	u8 *buf;
	u32 len;
	int ret;

	if (creator->len) {
		if (ksmbd_sd_parse(creator, &csd))
			return -EINVAL;
		a.creator = &csd;
	}
	ret = ksmbd_sd_load(parent, &ph);
	if (ret)
		return ret;
	/* nothing to inherit: what the new file's mode says */
	ret = load_from_mode(fp->filp->f_path.dentry, &mine);
	if (ret)
		goto out_parent;
	a.parent = &ph.sd;
	a.dflt = &mine.sd.dacl;
	ret = write_sized(write_inherit, &a, &buf, &len);
	if (ret)
		goto out_mine;
	out.p = buf;
	out.len = len;
	/* the creator owns it already: nothing to chown beyond its groups */
	ret = ksmbd_sd_store(fp, &out, false);
	kfree(buf);
out_mine:
	ksmbd_sd_held_free(&mine);
out_parent:
	ksmbd_sd_held_free(&ph);
	return ret;
}
