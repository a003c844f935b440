// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AllocationSize reservations (CREATE's AllocationSize context and
 * FileAllocationInformation): what a handle reserves past end of file is
 * charged to the connection that asked, which may hold at most
 * "max allocation reservation" bytes so. A request over the remainder
 * still succeeds (allocation is a hint; Samba without strict allocate
 * reserves nothing) and reserves what fits. Closing the handle, by any
 * path, gives back what is still past end of file, as NTFS trims
 * allocation beyond the file's size at last close.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fs.h>
#include <linux/falloc.h>
#include <linux/mount.h>
#include "connection.h"
#include "file.h"
#include "server.h"
#include "stats.h"
#include "vfs.h"

static atomic64_t reserved_all;

s64 ksmbd_file_reserved_all(void)
{
	return atomic64_read(&reserved_all);
}

/* Up to n bytes of the connection's remaining budget; what was taken. */
static u64 charge(struct ksmbd_conn *conn, u64 n)
{
	u64 max = READ_ONCE(ksmbd_server_conf.max_alloc_reservation);
	s64 held = atomic64_read(&conn->alloc_reserved);
	u64 room;

	do {
		room = (u64)held < max ? max - (u64)held : 0;
		n = min(n, room);
		if (!n)
			return 0;
	} while (!atomic64_try_cmpxchg(&conn->alloc_reserved, &held,
				       held + (s64)n));
	atomic64_add(n, &reserved_all);
	return n;
}

static void uncharge(struct ksmbd_conn *conn, u64 n)
{
	atomic64_sub(n, &conn->alloc_reserved);
	atomic64_sub(n, &reserved_all);
}

static bool reservable(const struct ksmbd_file *fp)
{
	return fp->kind == KSMBD_FILE_REGULAR && !fp->stream && fp->filp &&
	       (fp->filp->f_mode & FMODE_WRITE) &&
	       S_ISREG(file_inode(fp->filp)->i_mode);
}

int ksmbd_file_reserve(struct ksmbd_file *fp, struct ksmbd_conn *conn,
		       u64 size)
{
	loff_t eof, end;
	u64 want, got;
	int ret = 0;

	if (!reservable(fp) || size > LLONG_MAX)
		return 0;
	mutex_lock(&fp->alloc_lock);
	eof = i_size_read(file_inode(fp->filp));
	if (size <= (u64)eof || size <= (u64)fp->alloc_end)
		goto out_unlock;
	want = size - eof;
	/* The handle's charge stays with the connection it was first made on. */
	if (fp->alloc_conn)
		conn = fp->alloc_conn;
	got = fp->alloc_charge;
	if (want > got)
		got += charge(conn, want - got);
	if (got < want) {
		ksmbd_total_add(KSMBD_TOTAL_ALLOC_CAPPED, 1);
		ksmbd_conn_note_limit(conn, "allocation reservation");
	}
	if (got && !fp->alloc_conn) {
		ksmbd_conn_get(conn);
		fp->alloc_conn = conn;
	}
	fp->alloc_charge = got;
	end = eof + min(got, want);
	if (end <= max(eof, fp->alloc_end))
		goto out_unlock;
	/*
	 * Only past end of file: holes below it stay holes, so a sparse
	 * file's size cannot turn into allocation outside the budget.
	 */
	ret = ksmbd_vfs_fallocate(fp, FALLOC_FL_KEEP_SIZE, eof, end - eof);
	/* A partial allocation is trimmed at close too. */
	fp->alloc_end = end;
out_unlock:
	mutex_unlock(&fp->alloc_lock);
	return ret;
}

/*
 * Free the blocks past end of file. A truncate to the size the file has,
 * under the inode lock, frees what lies beyond it (ext4, XFS and tmpfs
 * drop preallocation on a truncate to i_size) and never cuts data: a
 * write that extends the file waits for the same lock. A hole punched
 * from an end of file read before taking it could race such a write and
 * zero its data.
 */
static void trim(struct ksmbd_file *fp, loff_t end)
{
	struct file *f = fp->filp;
	struct inode *inode = file_inode(f);
	struct iattr ia = { .ia_valid = ATTR_SIZE };
	const struct cred *old;
	int ret = 0;

	old = override_creds(fp->cred);
	sb_start_write(inode->i_sb);
	inode_lock(inode);
	ia.ia_size = i_size_read(inode);
	if (ia.ia_size < end)
		ret = notify_change(file_mnt_user_ns(f), f->f_path.dentry, &ia,
				    NULL);
	inode_unlock(inode);
	sb_end_write(inode->i_sb);
	revert_creds(old);
	if (ret)
		pr_debug("trimming the reservation of %s: %d\n", fp->name, ret);
}

void ksmbd_file_unreserve(struct ksmbd_file *fp)
{
	struct ksmbd_conn *conn;
	u64 held;

	mutex_lock(&fp->alloc_lock);
	if (fp->alloc_end && reservable(fp))
		trim(fp, fp->alloc_end);
	conn = fp->alloc_conn;
	held = fp->alloc_charge;
	fp->alloc_conn = NULL;
	fp->alloc_charge = 0;
	fp->alloc_end = 0;
	mutex_unlock(&fp->alloc_lock);
	if (conn) {
		uncharge(conn, held);
		ksmbd_conn_put(conn);
	}
}
