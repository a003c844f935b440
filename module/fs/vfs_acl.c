// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * security.NTACL and POSIX ACLs on the VFS; see vfs_acl.h.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/posix_acl.h>
#include <linux/posix_acl_xattr.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/xattr.h>
#include "file.h"
#include "vfs.h"
#include "vfs_acl.h"

/*
 * The server's own credentials (a copy of the kernel's, full
 * capabilities) in place of the worker's, whatever they are.
 */
static const struct cred *server_creds_begin(void)
{
	struct cred *c = prepare_kernel_cred(NULL);
	const struct cred *old;

	if (!c)
		return NULL;
	old = override_creds(c);
	put_cred(c);	/* override_creds() holds its own reference */
	return old;
}

ssize_t ksmbd_vfs_ntacl_get(struct dentry *d, void *buf, size_t size)
{
	const struct cred *old = server_creds_begin();
	ssize_t ret;

	if (!old)
		return -ENOMEM;
	ret = vfs_getxattr(&init_user_ns, d, KSMBD_NTACL_XATTR, buf, size);
	revert_creds(old);
	return ret;
}

/* On the handle's file, with the server's credentials. */
static int server_xattr(struct ksmbd_file *fp, const char *name,
			const void *val, size_t size)
{
	struct path *p = &fp->filp->f_path;
	const struct cred *old;
	int ret;

	old = server_creds_begin();
	if (!old)
		return -ENOMEM;
	ret = mnt_want_write(p->mnt);
	if (!ret) {
		if (val)
			ret = vfs_setxattr(file_mnt_user_ns(fp->filp),
					   p->dentry, name, val, size, 0);
		else
			ret = vfs_removexattr(file_mnt_user_ns(fp->filp),
					      p->dentry, name);
		mnt_drop_write(p->mnt);
	}
	revert_creds(old);
	return ret;
}

int ksmbd_vfs_ntacl_set(struct ksmbd_file *fp, const void *val, size_t size)
{
	return server_xattr(fp, KSMBD_NTACL_XATTR, val, size);
}

int ksmbd_vfs_setattr_server(struct ksmbd_file *fp, struct iattr *ia)
{
	struct cred *c = prepare_kernel_cred(NULL);
	int ret;

	if (!c)
		return -ENOMEM;
	ret = ksmbd_vfs_setattr_as(fp, c, ia);
	put_cred(c);
	return ret;
}

int ksmbd_vfs_posix_acl_get(struct dentry *d, bool dflt,
			    struct ksmbd_posix_ace *out, u16 max)
{
	struct posix_acl *acl;
	int i, n;

	acl = get_acl(d_inode(d), dflt ? ACL_TYPE_DEFAULT : ACL_TYPE_ACCESS);
	if (IS_ERR(acl))
		return PTR_ERR(acl) == -EOPNOTSUPP ? 0 : PTR_ERR(acl);
	if (!acl)
		return 0;
	n = acl->a_count;
	if (n > max) {
		posix_acl_release(acl);
		return -E2BIG;
	}
	for (i = 0; i < n; i++) {
		const struct posix_acl_entry *e = &acl->a_entries[i];

		out[i].tag = e->e_tag;
		out[i].perm = e->e_perm & 7;
		if (e->e_tag == ACL_USER)
			out[i].id = from_kuid(&init_user_ns, e->e_uid);
		else if (e->e_tag == ACL_GROUP)
			out[i].id = from_kgid(&init_user_ns, e->e_gid);
		else
			out[i].id = ACL_UNDEFINED_ID;
	}
	posix_acl_release(acl);
	return n;
}

/* The order posix_acl_valid() wants: by tag, then named entries by id. */
static int ace_cmp(const void *a, const void *b)
{
	const struct ksmbd_posix_ace *x = a, *y = b;

	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return 0;
}

int ksmbd_vfs_posix_acl_set(struct ksmbd_file *fp, bool dflt,
			    const struct ksmbd_posix_ace *e, u16 n)
{
	const char *name = dflt ? XATTR_NAME_POSIX_ACL_DEFAULT :
				  XATTR_NAME_POSIX_ACL_ACCESS;
	struct posix_acl_xattr_header *h;
	struct posix_acl_xattr_entry *x;
	struct ksmbd_posix_ace *sorted;
	size_t size;
	int i, ret;

	if (!IS_POSIXACL(d_inode(fp->filp->f_path.dentry)))
		return -EOPNOTSUPP;
	if (!n) {
		ret = server_xattr(fp, name, NULL, 0);
		return ret == -ENODATA ? 0 : ret;
	}
	if (n > KSMBD_POSIX_ACL_MAX)
		return -E2BIG;
	size = sizeof(*h) + n * sizeof(*x);
	h = kzalloc(size + n * sizeof(*sorted), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	x = (struct posix_acl_xattr_entry *)(h + 1);
	sorted = (struct ksmbd_posix_ace *)(x + n);
	memcpy(sorted, e, n * sizeof(*sorted));
	sort(sorted, n, sizeof(*sorted), ace_cmp, NULL);
	h->a_version = cpu_to_le32(POSIX_ACL_XATTR_VERSION);
	for (i = 0; i < n; i++) {
		bool named = sorted[i].tag == ACL_USER ||
			     sorted[i].tag == ACL_GROUP;

		x[i].e_tag = cpu_to_le16(sorted[i].tag);
		x[i].e_perm = cpu_to_le16(sorted[i].perm & 7);
		x[i].e_id = cpu_to_le32(named ? sorted[i].id :
					(u32)ACL_UNDEFINED_ID);
	}
	ret = server_xattr(fp, name, h, size);
	kfree(h);
	return ret;
}
