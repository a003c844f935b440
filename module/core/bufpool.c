// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The buffers requests are received into, answered from and work in:
 * counted frame buffers, cached response and scratch buffers, and the pool
 * of large receive buffers.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/mm.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include "bufpool.h"
#include "stats.h"

static struct kmem_cache *rsp_cache;
static struct kmem_cache *scratch_cache;

u8 *ksmbd_work_buf_alloc(u32 len)
{
	u8 *buf = kvmalloc(len, GFP_KERNEL);

	if (buf)
		ksmbd_live_inc(KSMBD_LIVE_BUFFERS);
	return buf;
}

void ksmbd_work_buf_free(void *buf)
{
	if (!buf)
		return;
	kvfree(buf);
	ksmbd_live_dec(KSMBD_LIVE_BUFFERS);
}

/*
 * Response buffers of metadata compounds and the path scratch buffers of
 * CREATE come from caches with a constructor, which the kernel does not
 * zero on allocation (init_on_alloc, on in Debian's kernels, zeroed every
 * response buffer, the 4 KiB one of a stat's CREATE + QUERY_INFO + CLOSE
 * too). A reused buffer still holds an earlier
 * response, so nothing may reach the wire unwritten: response bytes are
 * written through ksmbd_wbuf_reserve, which zeroes what it hands out, or
 * by the writers of the header (ksmbd_smb2_put_hdr clears all of it), the
 * padding between compound elements (cleared), the READ data read into
 * place (only what the read filled is kept) and the nested writers of
 * QUERY_INFO and QUERY_DIRECTORY (their own reserves zeroed; the outer
 * buffer commits their output with ksmbd_wbuf_reserve_raw). A scratch
 * buffer is read only up to the string written into it.
 */
static void buf_ctor(void *p)
{
}

/*
 * Does slub_debug poison the cache called name? Its own sysfs attribute
 * says so; nothing else a module may use tells (the flags live in a
 * struct private to mm/, and slub_debug may name single caches). A
 * cache that cannot be asked counts as unpoisoned.
 */
static bool cache_poisoned(const char *name)
{
	char path[64], val[2] = "";
	struct file *f;
	loff_t pos = 0;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/poison", name);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return false;
	kernel_read(f, val, 1, &pos);
	filp_close(f, NULL);
	return val[0] == '1';
}

/*
 * SLUB never poisons the objects of a cache with a constructor, so under
 * slub_debug (the test guest's slub_debug=FZPU) a use after free of a
 * response or scratch buffer would go unseen. Decided here, at load:
 * when slub_debug poisons the cache, it gets no constructor (the kernel
 * then zeroes each buffer, slow, but only where slub_debug already
 * is); otherwise it keeps the constructor, for the speed above.
 */
static struct kmem_cache *buf_cache_create(const char *name,
					   unsigned int size)
{
	struct kmem_cache *c = kmem_cache_create(name, size, 0, 0, NULL);

	if (c && !cache_poisoned(name)) {
		kmem_cache_destroy(c);
		c = kmem_cache_create(name, size, 0, 0, buf_ctor);
	}
	return c;
}

u8 *ksmbd_rsp_buf_alloc(u32 len)
{
	u8 *buf;

	if (len > KSMBD_RSP_CACHED_SIZE)
		return ksmbd_work_buf_alloc(len);
	buf = kmem_cache_alloc(rsp_cache, GFP_KERNEL);
	if (buf)
		ksmbd_live_inc(KSMBD_LIVE_BUFFERS);
	return buf;
}

void ksmbd_rsp_buf_free(void *buf, u32 len)
{
	if (!buf)
		return;
	if (len > KSMBD_RSP_CACHED_SIZE) {
		ksmbd_work_buf_free(buf);
		return;
	}
	kmem_cache_free(rsp_cache, buf);
	ksmbd_live_dec(KSMBD_LIVE_BUFFERS);
}

char *ksmbd_scratch_alloc(void)
{
	return kmem_cache_alloc(scratch_cache, GFP_KERNEL);
}

void ksmbd_scratch_free(char *p)
{
	if (p)
		kmem_cache_free(scratch_cache, p);
}

/*
 * Receive buffers of large frames (WRITE payloads) are kept for reuse. The
 * kernel zeroes every page it hands out (init_on_alloc, on in Debian's
 * kernels), so a fresh 1 MiB buffer for each 1 MiB WRITE was one more
 * full pass over the data before the socket overwrote it. A receive
 * buffer is filled from the socket before anything reads it and nothing
 * reads past the frame, so a previous request's bytes never reach a
 * client. Idle buffers are bounded (RX_POOL_MAX_BYTES) and are given back
 * under memory pressure.
 */
#define RX_POOL_MIN		(64 << 10)
#define RX_POOL_CLASSES		8	/* 128 KiB .. 16 MiB */
#define RX_POOL_DEPTH		4
#define RX_POOL_MAX_BYTES	(32 << 20)

static struct {
	spinlock_t lock;
	void *bufs[RX_POOL_CLASSES][RX_POOL_DEPTH];
	int n[RX_POOL_CLASSES];
	size_t bytes;
} rx_pool = { .lock = __SPIN_LOCK_UNLOCKED(rx_pool.lock) };

/*
 * The headroom lets the largest frame a connection allows (MaxWrite plus
 * KSMBD_FRAME_HEADROOM) fit its own class rather than one twice its size.
 */
static size_t rx_class_size(int c)
{
	return ((size_t)(128 << 10) << c) + KSMBD_FRAME_HEADROOM;
}

static int rx_class_of(u32 len)
{
	int c;

	if (len < RX_POOL_MIN)
		return -1;
	for (c = 0; c < RX_POOL_CLASSES; c++)
		if (len <= rx_class_size(c))
			return c;
	return -1;
}

u8 *ksmbd_rx_buf_alloc(u32 len)
{
	int c = rx_class_of(len);
	void *buf = NULL;

	if (c < 0)
		return ksmbd_work_buf_alloc(len);
	spin_lock(&rx_pool.lock);
	if (rx_pool.n[c]) {
		buf = rx_pool.bufs[c][--rx_pool.n[c]];
		rx_pool.bytes -= rx_class_size(c);
	}
	spin_unlock(&rx_pool.lock);
	if (!buf)
		buf = kvmalloc(rx_class_size(c), GFP_KERNEL);
	if (buf)
		ksmbd_live_inc(KSMBD_LIVE_BUFFERS);
	return buf;
}

void ksmbd_rx_buf_free(void *buf, u32 len)
{
	int c = rx_class_of(len);
	bool kept = false;

	if (c < 0 || !buf) {
		ksmbd_work_buf_free(buf);
		return;
	}
	ksmbd_live_dec(KSMBD_LIVE_BUFFERS);
	spin_lock(&rx_pool.lock);
	if (rx_pool.n[c] < RX_POOL_DEPTH &&
	    rx_pool.bytes + rx_class_size(c) <= RX_POOL_MAX_BYTES) {
		rx_pool.bufs[c][rx_pool.n[c]++] = buf;
		rx_pool.bytes += rx_class_size(c);
		kept = true;
	}
	spin_unlock(&rx_pool.lock);
	if (!kept)
		kvfree(buf);
}

size_t ksmbd_rx_pool_bytes(void)
{
	return READ_ONCE(rx_pool.bytes);
}

/* Frees every idle buffer; returns the pages given back. */
static unsigned long rx_pool_drain(void)
{
	void *bufs[RX_POOL_CLASSES * RX_POOL_DEPTH];
	unsigned long pages;
	int c, i, n = 0;

	spin_lock(&rx_pool.lock);
	for (c = 0; c < RX_POOL_CLASSES; c++) {
		while (rx_pool.n[c])
			bufs[n++] = rx_pool.bufs[c][--rx_pool.n[c]];
	}
	pages = rx_pool.bytes >> PAGE_SHIFT;
	rx_pool.bytes = 0;
	spin_unlock(&rx_pool.lock);
	for (i = 0; i < n; i++)
		kvfree(bufs[i]);
	return pages;
}

static unsigned long rx_pool_count(struct shrinker *s,
				   struct shrink_control *sc)
{
	return READ_ONCE(rx_pool.bytes) >> PAGE_SHIFT;
}

static unsigned long rx_pool_scan(struct shrinker *s,
				  struct shrink_control *sc)
{
	return rx_pool_drain() ?: SHRINK_STOP;
}

static struct shrinker rx_pool_shrinker = {
	.count_objects = rx_pool_count,
	.scan_objects = rx_pool_scan,
	.seeks = DEFAULT_SEEKS,
};

int ksmbd_bufpool_init(void)
{
	rsp_cache = buf_cache_create("ksmbd_rsp", KSMBD_RSP_CACHED_SIZE);
	if (!rsp_cache)
		return -ENOMEM;
	scratch_cache = buf_cache_create("ksmbd_scratch", KSMBD_SCRATCH_SIZE);
	if (!scratch_cache)
		goto err_destroy_cache;
	if (register_shrinker(&rx_pool_shrinker, "ksmbd-rx"))
		goto err_destroy_cache;
	return 0;

err_destroy_cache:
	kmem_cache_destroy(scratch_cache);
	kmem_cache_destroy(rsp_cache);
	return -ENOMEM;
}

/* After ksmbd_work_exit(): no request holds a buffer any more. */
void ksmbd_bufpool_exit(void)
{
	unregister_shrinker(&rx_pool_shrinker);
	rx_pool_drain();
	kmem_cache_destroy(scratch_cache);
	kmem_cache_destroy(rsp_cache);
}
