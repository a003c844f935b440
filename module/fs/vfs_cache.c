// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Page cache lookups without reading (vfs_cache.h): no lock is taken but
 * the page cache's own RCU, so callers may hold a spinlock.
 */
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/pagemap.h>
#include "vfs_cache.h"

/*
 * Where the page cache is the whole story: a block device's file system
 * or tmpfs. A network or FUSE file system may still ask its server before
 * serving cached pages (or the size), an overlay reads through another
 * file's cache.
 */
static bool cache_is_local(const struct super_block *sb)
{
	return (sb->s_type->fs_flags & FS_REQUIRES_DEV) ||
	       sb->s_magic == TMPFS_MAGIC;
}

bool ksmbd_vfs_range_cached(struct file *filp, loff_t pos, u32 len)
{
	struct address_space *mapping = filp->f_mapping;
	struct inode *inode = file_inode(filp);
	loff_t size = i_size_read(inode);
	pgoff_t index, last;
	loff_t end;

	if (pos < 0 || !cache_is_local(inode->i_sb))
		return false;
	if (!len || pos >= size)
		return true;
	/* (pos + len may pass LLONG_MAX: size - pos cannot) */
	end = size - pos > len ? pos + len : size;
	last = (end - 1) >> PAGE_SHIFT;
	for (index = pos >> PAGE_SHIFT; index <= last; ) {
		struct folio *folio = filemap_get_folio(mapping, index);
		bool ready;

		/* NULL before 6.3, an error pointer since */
		if (IS_ERR_OR_NULL(folio))
			return false;
		ready = folio_test_uptodate(folio);
		index = folio->index + folio_nr_pages(folio);
		folio_put(folio);
		if (!ready)
			return false;
	}
	return true;
}
