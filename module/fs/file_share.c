// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Share modes (MS-FSA 2.1.5.1.2): one entry per open inode, or per named
 * stream of one, listing its opens, with its delete-pending state, the
 * times a client set that the file system cannot keep, and the file's
 * byte-range lock state. The handle table (file.c) joins and leaves.
 *
 * Locks: share_lock (a mutex) guards the hash, each entry's list of opens
 * and its delete-pending flag; the table's xa_lock is never taken under it.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "create_rules.h"
#include "file.h"
#include "file_int.h"
#include "fileinfo.h"
#include "lock.h"
#include "vfs.h"

struct ksmbd_inode {
	struct hlist_node node;
	struct inode *inode;		/* key; pinned by the opens' files */
	char *stream;			/* key too: a named stream's, or NULL */
	/*
	 * A stream's entry holds its file's (counted in nr_streams there),
	 * so the file's delete-pending state outlives its own opens while
	 * a stream is open (MS-FSA: the file goes with its last stream).
	 */
	struct ksmbd_inode *base;
	u32 nr_streams;
	struct list_head opens;		/* ksmbd_file.ino_node */
	u32 nr_opens;
	bool delete_pending;
	/* ksmbd_file_set_times(): FILETIMEs a client set, 0 = none */
	u64 set_create_time;
	u64 set_change_time;
	struct timespec64 change_base;	/* the ctime set_change_time stands for */
	struct list_head timed_node;	/* on timed_inodes while a time is set */
	/* byte-range locks: the file's entry's serve its streams too */
	struct ksmbd_lock_file brl;
};

static DEFINE_MUTEX(share_lock);
static DEFINE_HASHTABLE(inodes, 8);
/*
 * ksmbd_inodes holding set times: a listing looks only when some do, and
 * then only at those (a listing entry has a stat, not the inode).
 */
static atomic_t nr_set_times;
static LIST_HEAD(timed_inodes);

/* Share modes are per stream (MS-FSA): the file's entry has stream NULL. */
static struct ksmbd_inode *stream_find(struct inode *inode, const char *stream)
{
	struct ksmbd_inode *ino;

	hash_for_each_possible(inodes, ino, node, (unsigned long)inode)
		if (ino->inode == inode &&
		    (stream ? ino->stream && !strcmp(ino->stream, stream) :
			      !ino->stream))
			return ino;
	return NULL;
}

static struct ksmbd_inode *inode_find(struct inode *inode)
{
	return stream_find(inode, NULL);
}

static void entry_free(struct ksmbd_inode *ino)
{
	if (ino->set_create_time || ino->set_change_time) {
		atomic_dec(&nr_set_times);
		list_del(&ino->timed_node);
	}
	hash_del(&ino->node);
	kfree(ino->stream);
	kfree(ino);
}


/*
 * Leave the inode's entry; what is to be deleted now that it is left.
 * *pending: the entry left is delete-pending.
 */
int ksmbd_file_share_leave(struct ksmbd_file *fp, bool *pending)
{
	struct ksmbd_inode *ino = fp->ino;
	int remove = 0;

	*pending = false;
	if (!ino)
		return 0;
	mutex_lock(&share_lock);
	list_del_init(&fp->ino_node);
	if (fp->delete_on_close)
		ino->delete_pending = true;
	*pending = ino->delete_pending;
	ino->nr_opens--;
	if (ino->base && !ino->nr_opens) {
		struct ksmbd_inode *base = ino->base;

		if (ino->delete_pending)
			remove |= KSMBD_LEAVE_REMOVE_STREAM;
		entry_free(ino);
		base->nr_streams--;
		ino = base;
	}
	if (!ino->nr_opens && !ino->nr_streams) {
		if (ino->delete_pending)
			remove |= KSMBD_LEAVE_REMOVE_FILE;
		entry_free(ino);
	}
	fp->ino = NULL;
	mutex_unlock(&share_lock);
	return remove;
}

static struct ksmbd_inode *entry_add(struct ksmbd_inode **fresh,
				     struct inode *inode)
{
	struct ksmbd_inode *ino = *fresh;

	*fresh = NULL;
	ino->inode = inode;
	INIT_LIST_HEAD(&ino->opens);
	ksmbd_lock_file_init(&ino->brl);
	hash_add(inodes, &ino->node, (unsigned long)inode);
	return ino;
}

/*
 * MS-FSA 2.1.5.1.2: an open of the file for DELETE must be one each of
 * its open streams would let in; one without FILE_SHARE_DELETE refuses.
 */
static bool streams_deny_delete(struct ksmbd_inode *base)
{
	struct ksmbd_inode *s;
	struct ksmbd_file *other;

	if (!base->nr_streams)
		return false;
	hash_for_each_possible(inodes, s, node, (unsigned long)base->inode) {
		if (s->base != base)
			continue;
		list_for_each_entry(other, &s->opens, ino_node)
			if (!(other->share_access & FILE_SHARE_DELETE))
				return true;
	}
	return false;
}

static int share_check(struct ksmbd_file *fp, struct ksmbd_inode *ino,
		       struct ksmbd_inode *base)
{
	struct ksmbd_file *other;

	if ((base && base->delete_pending) || (ino && ino->delete_pending))
		return -KSMBD_EDELETE_PENDING;
	if (!fp->stream && (fp->daccess & FILE_DELETE) && ino &&
	    streams_deny_delete(ino))
		return -EBUSY;
	if (!ino)
		return 0;
	list_for_each_entry(other, &ino->opens, ino_node)
		if (ksmbd_share_conflict(other->daccess, other->share_access,
					 fp->daccess, fp->share_access))
			return -EBUSY;
	return 0;
}

/* Entries for the open and, for a stream, its file: allocated up front. */
static int entries_alloc(struct ksmbd_file *fp, struct ksmbd_inode **fresh)
{
	fresh[0] = kzalloc(sizeof(*fresh[0]), GFP_KERNEL);
	if (!fresh[0])
		return -ENOMEM;
	if (!fp->stream)
		return 0;
	fresh[0]->stream = kzalloc(XATTR_NAME_MAX + 1, GFP_KERNEL);
	fresh[1] = kzalloc(sizeof(*fresh[1]), GFP_KERNEL);
	if (!fresh[0]->stream || !fresh[1])
		return -ENOMEM;
	strscpy(fresh[0]->stream, fp->stream, XATTR_NAME_MAX + 1);
	return 0;
}

u32 ksmbd_file_share_collect(struct ksmbd_file *fp,
			      bool (*want)(struct ksmbd_file *other, void *arg),
			      void *arg, struct ksmbd_file **found, u32 max)
{
	struct ksmbd_inode *ino;
	struct ksmbd_file *other;
	u32 n = 0;

	mutex_lock(&share_lock);
	ino = inode_find(file_inode(fp->filp));
	if (ino)
		list_for_each_entry(other, &ino->opens, ino_node) {
			if (n == max)
				break;
			if (want(other, arg) &&
			    refcount_inc_not_zero(&other->refs))
				found[n++] = other;
		}
	mutex_unlock(&share_lock);
	return n;
}

int ksmbd_file_share_join(struct ksmbd_file *fp)
{
	struct inode *inode = file_inode(fp->filp);
	struct ksmbd_inode *fresh[2] = { }, *ino, *base = NULL;
	int ret, i;

	ret = entries_alloc(fp, fresh);
	if (ret)
		goto out_free;
	mutex_lock(&share_lock);
	if (fp->stream)
		base = inode_find(inode);
	ino = stream_find(inode, fp->stream);
	ret = share_check(fp, ino, base);
	if (ret)
		goto out_unlock;
	if (!ino) {
		ino = entry_add(&fresh[0], inode);
		if (fp->stream) {
			if (!base)
				base = entry_add(&fresh[1], inode);
			ino->base = base;
			base->nr_streams++;
		}
	}
	list_add_tail(&fp->ino_node, &ino->opens);
	ino->nr_opens++;
	fp->ino = ino;
out_unlock:
	mutex_unlock(&share_lock);
out_free:
	for (i = 0; i < 2; i++) {
		if (fresh[i])
			kfree(fresh[i]->stream);
		kfree(fresh[i]);
	}
	return ret;
}

int ksmbd_file_set_delete_on_close(struct ksmbd_file *fp, bool on)
{
	int ret = 0;

	if (!fp->ino)
		return -EINVAL;
	/* Setting and clearing alike (MS-FSA 2.1.5.14.3): DELETE access. */
	if (!(fp->daccess & FILE_DELETE))
		return -EACCES;
	if (on && !(fp->tree_flags & KSMBD_FILE_TREE_WRITABLE))
		return -EACCES;
	if (on && fp->kind == KSMBD_FILE_DIRECTORY) {
		ret = ksmbd_vfs_dir_empty(fp);
		if (ret)
			return ret;
	}
	mutex_lock(&share_lock);
	fp->ino->delete_pending = on;
	if (!on)
		fp->delete_on_close = false;
	mutex_unlock(&share_lock);
	return 0;
}

bool ksmbd_file_delete_pending(struct ksmbd_file *fp)
{
	bool pending;

	if (!fp->ino)
		return false;
	mutex_lock(&share_lock);
	pending = fp->ino->delete_pending || fp->delete_on_close ||
		  (fp->ino->base && fp->ino->base->delete_pending);
	mutex_unlock(&share_lock);
	return pending;
}

u32 ksmbd_file_inode_opens_with(struct ksmbd_file *fp, u32 rights)
{
	struct ksmbd_file *other;
	u32 n = 0;

	if (!fp->ino)
		return fp->daccess & rights ? 1 : 0;
	mutex_lock(&share_lock);
	list_for_each_entry(other, &fp->ino->opens, ino_node)
		if (other->daccess & rights)
			n++;
	mutex_unlock(&share_lock);
	return n;
}

struct ksmbd_lock_file *ksmbd_file_lock_state(struct ksmbd_file *fp)
{
	struct ksmbd_inode *ino = fp->ino;

	/* Set before the handle is published, cleared at its last put. */
	if (!ino)
		return NULL;
	return ino->base ? &ino->base->brl : &ino->brl;
}

u32 ksmbd_file_inode_open_count(struct ksmbd_file *fp)
{
	u32 n;

	if (!fp->ino)
		return 1;
	mutex_lock(&share_lock);
	n = fp->ino->nr_opens;
	mutex_unlock(&share_lock);
	return n;
}

bool ksmbd_file_rename_blocked_by_parent(struct inode *dir, u64 session_id)
{
	struct ksmbd_inode *ino;
	struct ksmbd_file *other;
	bool busy = false;

	mutex_lock(&share_lock);
	ino = inode_find(dir);
	if (ino) {
		list_for_each_entry(other, &ino->opens, ino_node) {
			if (other->session_id != session_id)
				continue;
			if (ksmbd_share_conflict(other->daccess,
						 other->share_access,
						 FILE_DELETE,
						 FILE_SHARE_READ |
						 FILE_SHARE_WRITE)) {
				busy = true;
				break;
			}
		}
	}
	mutex_unlock(&share_lock);
	return busy;
}

bool ksmbd_file_opens_below(struct dentry *dir)
{
	struct ksmbd_inode *ino;
	struct ksmbd_file *other;
	struct dentry *d;
	bool found = false;
	int bkt;

	mutex_lock(&share_lock);
	hash_for_each(inodes, bkt, ino, node) {
		list_for_each_entry(other, &ino->opens, ino_node) {
			d = other->filp->f_path.dentry;
			if (d != dir && is_subdir(d, dir)) {
				found = true;
				goto out;
			}
		}
	}
out:
	mutex_unlock(&share_lock);
	return found;
}

/* ---- Times a client set that the file system cannot keep ---- */

void ksmbd_file_set_times(struct ksmbd_file *fp, u64 create_time,
			  u64 change_time)
{
	struct ksmbd_inode *ino;

	if (!create_time && !change_time)
		return;
	mutex_lock(&share_lock);
	ino = fp->ino;
	if (ino) {
		if (!ino->set_create_time && !ino->set_change_time) {
			atomic_inc(&nr_set_times);
			list_add(&ino->timed_node, &timed_inodes);
		}
		if (create_time)
			ino->set_create_time = create_time;
		if (change_time) {
			ino->set_change_time = change_time;
			/* no ctime matches until the next refresh */
			ino->change_base = (struct timespec64){ .tv_nsec = -1 };
			fp->user_set_change_time = true;
		}
	}
	mutex_unlock(&share_lock);
}

void ksmbd_file_keep_change_time(struct ksmbd_file *fp, const struct kstat *st)
{
	if (!fp->user_set_change_time)
		return;
	mutex_lock(&share_lock);
	if (fp->ino && fp->ino->set_change_time)
		fp->ino->change_base = st->ctime;
	mutex_unlock(&share_lock);
}

static void apply_times(const struct ksmbd_inode *ino, const struct kstat *st,
			struct ksmbd_fattr *a)
{
	if (ino->set_create_time)
		a->creation_time = ino->set_create_time;
	if (ino->set_change_time &&
	    timespec64_equal(&ino->change_base, &st->ctime))
		a->change_time = ino->set_change_time;
}

void ksmbd_file_apply_times(struct ksmbd_file *fp, const struct kstat *st,
			    struct ksmbd_fattr *a)
{
	if (!atomic_read(&nr_set_times))
		return;
	mutex_lock(&share_lock);
	if (fp->ino)
		apply_times(fp->ino, st, a);
	mutex_unlock(&share_lock);
}

void ksmbd_inode_apply_times(const struct kstat *st, struct ksmbd_fattr *a)
{
	struct ksmbd_inode *ino;

	if (!atomic_read(&nr_set_times))
		return;
	mutex_lock(&share_lock);
	list_for_each_entry(ino, &timed_inodes, timed_node)
		if (ino->inode->i_ino == st->ino &&
		    ino->inode->i_sb->s_dev == st->dev) {
			apply_times(ino, st, a);
			break;
		}
	mutex_unlock(&share_lock);
}

void ksmbd_file_stream_renamed(struct ksmbd_file *fp, const char *xname)
{
	struct ksmbd_file *other;

	mutex_lock(&share_lock);
	if (fp->ino && fp->ino->stream) {
		strscpy(fp->ino->stream, xname, XATTR_NAME_MAX + 1);
		list_for_each_entry(other, &fp->ino->opens, ino_node)
			strscpy(other->stream, xname, XATTR_NAME_MAX + 1);
	}
	strscpy(fp->stream, xname, XATTR_NAME_MAX + 1);
	mutex_unlock(&share_lock);
}

bool ksmbd_file_stream_busy(struct ksmbd_file *fp, const char *xname)
{
	bool busy;

	mutex_lock(&share_lock);
	busy = stream_find(file_inode(fp->filp), xname);
	mutex_unlock(&share_lock);
	return busy;
}
