// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A large WRITE's payload from the connection's socket straight into the
 * file (ksmbd_tcp_recv_to_file(), transport_tcp.h).
 */
#include <linux/bvec.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>
#include "connection.h"
#include "transport_tcp.h"

/*
 * Receiving a payload straight into a file: the socket's skbs are cloned
 * under the socket lock (a clone keeps their data after TCP frees them),
 * then their bytes go to the file's write_iter as bio_vecs over the skbs'
 * own memory: the data is copied once, into the file, not into a buffer
 * first.
 */
#define RTF_MAX_SKBS	64

struct rtf_held {
	unsigned int nr;
	unsigned int pieces;	/* bio_vecs the held ranges need at most */
	struct sk_buff *skb[RTF_MAX_SKBS];
	unsigned int off[RTF_MAX_SKBS];
	unsigned int len[RTF_MAX_SKBS];
};

static int rtf_hold(read_descriptor_t *desc, struct sk_buff *skb,
		    unsigned int off, size_t len)
{
	struct rtf_held *h = desc->arg.data;
	struct sk_buff *clone;

	len = min(len, desc->count);
	if (!len || h->nr == RTF_MAX_SKBS)
		return 0;
	clone = skb_clone(skb, GFP_KERNEL);
	if (!clone) {
		desc->error = -ENOMEM;
		return 0;
	}
	h->skb[h->nr] = clone;
	h->off[h->nr] = off;
	h->len[h->nr] = len;
	h->nr++;
	h->pieces += 1 + skb_shinfo(skb)->nr_frags;
	desc->count -= len;
	return len;
}

static void rtf_add(struct bio_vec *bv, unsigned int *nr, struct page *page,
		    unsigned int off, unsigned int len)
{
	bv[*nr].bv_page = page + off / PAGE_SIZE;
	bv[*nr].bv_offset = off % PAGE_SIZE;
	bv[*nr].bv_len = len;
	(*nr)++;
}

/*
 * The skb's bytes [off, off + len) as bio_vecs appended at bv[*nr]; false,
 * adding none, for an skb with a frag_list (none on loopback; those are
 * copied instead).
 */
static bool rtf_map(const struct sk_buff *skb, unsigned int off,
		    unsigned int len, struct bio_vec *bv, unsigned int *nr)
{
	unsigned int head = skb_headlen(skb), nr0 = *nr, i, n;

	if (skb_has_frag_list(skb))
		return false;
	if (off < head) {
		n = min(len, head - off);
		rtf_add(bv, nr, virt_to_page(skb->data + off),
			offset_in_page(skb->data + off), n);
		len -= n;
		off = head;
	}
	off -= head;
	for (i = 0; len && i < skb_shinfo(skb)->nr_frags; i++) {
		const skb_frag_t *f = &skb_shinfo(skb)->frags[i];

		if (off >= skb_frag_size(f)) {
			off -= skb_frag_size(f);
			continue;
		}
		n = min(len, skb_frag_size(f) - off);
		rtf_add(bv, nr, skb_frag_page(f), skb_frag_off(f) + off, n);
		len -= n;
		off = 0;
	}
	if (len)
		*nr = nr0;
	return !len;
}

static ssize_t rtf_write_bvec(struct file *out, struct bio_vec *bv,
			      unsigned int nr, size_t len, loff_t *pos)
{
	struct iov_iter it;

	if (!len)
		return 0;
	iov_iter_bvec(&it, ITER_SOURCE, bv, nr, len);
	return vfs_iter_write(out, &it, pos, 0);
}

static ssize_t rtf_write_copy(struct file *out, const struct sk_buff *skb,
			      unsigned int off, unsigned int len, loff_t *pos)
{
	struct kvec kv = { .iov_len = len };
	struct iov_iter it;
	ssize_t n;

	kv.iov_base = kvmalloc(len, GFP_KERNEL);
	if (!kv.iov_base)
		return -ENOMEM;
	n = skb_copy_bits(skb, off, kv.iov_base, len);
	if (!n) {
		iov_iter_kvec(&it, ITER_SOURCE, &kv, 1, len);
		n = vfs_iter_write(out, &it, pos, 0);
	}
	kvfree(kv.iov_base);
	return n;
}

/* Adds a write's result to *done; false once one fell short or failed. */
static bool rtf_account(ssize_t n, size_t want, ssize_t *done, int *err)
{
	if (n < 0)
		*err = n;
	else
		*done += n;
	return n >= 0 && n == want;
}

/*
 * The held bytes into the file at *pos, as few writes as possible; frees
 * the held skbs. After a short or failed write nothing more is written.
 */
static ssize_t rtf_write(struct file *out, struct rtf_held *h, loff_t *pos,
			 int *err)
{
	struct bio_vec *bv = kmalloc_array(h->pieces, sizeof(*bv), GFP_KERNEL);
	unsigned int i, nr = 0;
	bool going = true;
	ssize_t done = 0;
	size_t run = 0;

	for (i = 0; i < h->nr && going; i++) {
		if (bv && rtf_map(h->skb[i], h->off[i], h->len[i], bv, &nr)) {
			run += h->len[i];
			continue;
		}
		going = rtf_account(rtf_write_bvec(out, bv, nr, run, pos), run,
				    &done, err);
		nr = 0;
		run = 0;
		if (going)
			going = rtf_account(rtf_write_copy(out, h->skb[i],
							   h->off[i],
							   h->len[i], pos),
					    h->len[i], &done, err);
	}
	if (going)
		rtf_account(rtf_write_bvec(out, bv, nr, run, pos), run, &done,
			    err);
	for (i = 0; i < h->nr; i++)
		kfree_skb(h->skb[i]);
	h->nr = 0;
	h->pieces = 0;
	kfree(bv);
	return done;
}

/*
 * Holds what the socket has queued, up to want bytes, waiting for some if
 * none is: the bytes held, or an error when the stream ended or failed,
 * or -ETIMEDOUT when nothing came for the stall timeout.
 */
static int rtf_take(struct ksmbd_conn *conn, struct rtf_held *h, u32 want)
{
	struct sock *sk = conn->sock->sk;
	long timeo = ksmbd_tcp_stall_timeo();
	read_descriptor_t desc = { .count = want, .arg.data = h };
	int ret;

	lock_sock(sk);
	for (;;) {
		ret = tcp_read_sock(sk, &desc, rtf_hold);
		if (desc.error && !h->nr) {
			ret = desc.error;
			break;
		}
		if (h->nr)
			break;
		if (sk->sk_err) {
			ret = sock_error(sk);
			break;
		}
		if ((sk->sk_shutdown & RCV_SHUTDOWN) ||
		    sock_flag(sk, SOCK_DONE) || sk->sk_state == TCP_CLOSE) {
			ret = -ECONNRESET;
			break;
		}
		if (ksmbd_conn_exiting(conn) || kthread_should_stop()) {
			ret = -ESHUTDOWN;
			break;
		}
		if (!timeo) {
			ret = -ETIMEDOUT;
			break;
		}
		sk_wait_data(sk, &timeo, NULL);
	}
	release_sock(sk);
	return h->nr ? (int)(want - desc.count) : ret;
}

/*
 * Write protection (file_start_write) is taken per piece, never while
 * waiting on the client: a stalled client must not hold off a freeze of
 * the share's file system.
 */
ssize_t ksmbd_tcp_recv_to_file(struct ksmbd_conn *conn, struct file *out,
			       loff_t pos, u32 len, u32 *taken, int *rx_err)
{
	struct rtf_held *h;
	ssize_t done = 0;
	int ret = 0, err = 0;

	*taken = 0;
	*rx_err = 0;
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	while (*taken < len) {
		ret = rtf_take(conn, h, len - *taken);
		if (ret <= 0) {
			*rx_err = ret ?: -ECONNRESET;
			break;
		}
		*taken += ret;
		file_start_write(out);
		done += rtf_write(out, h, &pos, &err);
		file_end_write(out);
		if (done != *taken)
			break;		/* the file took less than it was given */
	}
	kfree(h);
	if (done)
		return done;
	return err ?: min(ret, 0);
}
