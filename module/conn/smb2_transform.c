// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SMB 3.x encryption and AES-GMAC over the kernel AEAD API (see
 * smb2_transform.h for who owns what).
 *
 * Scatterlists: a received frame and a response buffer are kvmalloc'd,
 * so they may be vmalloc memory; such ranges are mapped page by page.
 * The associated data and the tag point into the frame itself (receive)
 * or into the connection's small buffer (send), so decryption and
 * encryption run in place, with src == dst.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <crypto/aead.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "bufpool.h"
#include "connection.h"
#include "proto/kdf.h"
#include "proto/transform.h"
#include "server.h"
#include "session_types.h"
#include "smb2_transform.h"
#include "uapi/ksmbd_netlink.h"

/* Layout of struct crypt_scratch.small (kmalloc'd: DMA-safe, not stack). */
#define SMALL_HDR	0	/* transform header being built */
#define SMALL_IV	64	/* 16 bytes */
#define SMALL_ZERO	80	/* 16 zero bytes: a Signature field for GMAC */
#define SMALL_TAG	96	/* 16 bytes */
#define SMALL_SIZE	112

struct crypt_scratch {
	struct mutex lock;
	struct aead_request *req;
	unsigned int reqsize;
	struct scatterlist *sg;
	unsigned int nents;
	u8 *small;
};

struct ksmbd_conn_crypto {
	struct crypt_scratch rx;	/* decrypt, verify */
	struct crypt_scratch tx;	/* encrypt, sign */
};

static atomic64_t decrypt_failures = ATOMIC64_INIT(0);
static atomic64_t decrypted_frames = ATOMIC64_INIT(0);

u64 ksmbd_decrypt_failures(void)
{
	return atomic64_read(&decrypt_failures);
}

u64 ksmbd_decrypted_frames(void)
{
	return atomic64_read(&decrypted_frames);
}

/* ---- Per-connection buffers ---- */

/* The largest message either way: a frame, or a response buffer. */
static u32 conn_max_msg(const struct ksmbd_conn *conn)
{
	const struct ksmbd_conn_neg *n = &conn->neg;

	return min_t(u32, max3(n->max_read, n->max_write, n->max_trans) +
			  KSMBD_FRAME_HEADROOM + 2 * PAGE_SIZE,
		     KSMBD_RFC1002_MAX_LEN + PAGE_SIZE);
}

static int scratch_init(struct crypt_scratch *s, u32 max_msg)
{
	mutex_init(&s->lock);
	/* Every page of the message, two partial pages, AD, tag, pieces. */
	s->nents = DIV_ROUND_UP(max_msg, PAGE_SIZE) + 8;
	s->sg = kvcalloc(s->nents, sizeof(*s->sg), GFP_KERNEL);
	s->small = kzalloc(SMALL_SIZE, GFP_KERNEL);
	if (!s->sg || !s->small)
		return -ENOMEM;
	sg_init_table(s->sg, s->nents);
	return 0;
}

static void scratch_free(struct crypt_scratch *s)
{
	kvfree(s->sg);
	kfree_sensitive(s->small);
	kfree_sensitive(s->req);
}

/* Under s->lock: make the request big enough for tfm. */
static int scratch_fit(struct crypt_scratch *s, struct crypto_aead *tfm)
{
	unsigned int need = crypto_aead_reqsize(tfm);
	struct aead_request *req;

	if (s->req && s->reqsize >= need)
		return 0;
	req = kzalloc(sizeof(*req) + need, GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	kfree_sensitive(s->req);
	s->req = req;
	s->reqsize = need;
	return 0;
}

int ksmbd_conn_crypto_prepare(struct ksmbd_conn *conn, struct crypto_aead *tfm)
{
	struct ksmbd_conn_crypto *cc = READ_ONCE(conn->crypto);
	int ret;

	if (!cc) {
		cc = kzalloc(sizeof(*cc), GFP_KERNEL);
		if (!cc)
			return -ENOMEM;
		if (scratch_init(&cc->rx, conn_max_msg(conn)) ||
		    scratch_init(&cc->tx, conn_max_msg(conn))) {
			scratch_free(&cc->rx);
			scratch_free(&cc->tx);
			kfree(cc);
			return -ENOMEM;
		}
		/* Two sessions setting up at once: one allocation wins. */
		if (cmpxchg(&conn->crypto, NULL, cc)) {
			scratch_free(&cc->rx);
			scratch_free(&cc->tx);
			kfree(cc);
			cc = READ_ONCE(conn->crypto);
		}
	}
	mutex_lock(&cc->rx.lock);
	ret = scratch_fit(&cc->rx, tfm);
	mutex_unlock(&cc->rx.lock);
	if (ret)
		return ret;
	mutex_lock(&cc->tx.lock);
	ret = scratch_fit(&cc->tx, tfm);
	mutex_unlock(&cc->tx.lock);
	return ret;
}

void ksmbd_conn_crypto_free(struct ksmbd_conn *conn)
{
	struct ksmbd_conn_crypto *cc = conn->crypto;

	if (!cc)
		return;
	scratch_free(&cc->rx);
	scratch_free(&cc->tx);
	kfree(cc);
	conn->crypto = NULL;
}

/* ---- Scatterlists and one AEAD run ---- */

struct sg_fill {
	struct scatterlist *sg;
	unsigned int cap, n;
	bool overflow;
};

static void sg_put(struct sg_fill *f, struct page *page, u32 len, u32 off)
{
	struct scatterlist *e;

	if (f->n == f->cap) {
		f->overflow = true;
		return;
	}
	e = &f->sg[f->n++];
	sg_unmark_end(e);
	sg_set_page(e, page, len, off);
}

/* A kernel buffer, linear (kmalloc) or vmalloc'd, as sg entries. */
static void sg_add(struct sg_fill *f, const void *buf, u32 len)
{
	const u8 *p = buf;

	if (!len)
		return;
	if (!is_vmalloc_addr(p)) {
		sg_put(f, virt_to_page(p), len, offset_in_page(p));
		return;
	}
	while (len) {
		u32 off = offset_in_page(p);
		u32 chunk = min_t(u32, len, PAGE_SIZE - off);

		sg_put(f, vmalloc_to_page(p), chunk, off);
		p += chunk;
		len -= chunk;
	}
}

static int aead_run(struct crypt_scratch *s, struct crypto_aead *tfm,
		    struct sg_fill *f, bool enc, u32 assoclen, u32 cryptlen,
		    u8 *iv)
{
	DECLARE_CRYPTO_WAIT(wait);
	struct aead_request *req = s->req;
	int ret;

	if (f->overflow || !f->n || !req || s->reqsize < crypto_aead_reqsize(tfm))
		return -EINVAL;
	sg_mark_end(&f->sg[f->n - 1]);
	memset(req, 0, sizeof(*req) + s->reqsize);
	aead_request_set_tfm(req, tfm);
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP |
				  CRYPTO_TFM_REQ_MAY_BACKLOG,
				  crypto_req_done, &wait);
	aead_request_set_crypt(req, f->sg, f->sg, cryptlen, iv);
	aead_request_set_ad(req, assoclen);
	ret = enc ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
	ret = crypto_wait_req(ret, &wait);
	/* Clear what was referenced for the next user of the list. */
	sg_unmark_end(&f->sg[f->n - 1]);
	return ret;
}

/* The AEAD's IV from the nonce: GCM takes it as is, CCM as RFC 3610 B0. */
static void make_iv(const struct ksmbd_cipher_info *ci, const u8 *nonce,
		    u8 iv[16])
{
	memset(iv, 0, 16);
	if (ci->gcm) {
		memcpy(iv, nonce, KSMBD_GCM_NONCE_SIZE);
		return;
	}
	/* L' = 15 - nonce length - 1: a 4-byte length field. */
	iv[0] = 15 - KSMBD_CCM_NONCE_SIZE - 1;
	memcpy(iv + 1, nonce, KSMBD_CCM_NONCE_SIZE);
}

/* ---- Session keys ---- */

static struct crypto_aead *cipher_tfm(const struct ksmbd_cipher_info *ci,
				      const u8 *key)
{
	struct crypto_aead *tfm;
	int ret;

	tfm = crypto_alloc_aead(ci->gcm ? "gcm(aes)" : "ccm(aes)", 0, 0);
	if (IS_ERR(tfm))
		return tfm;
	ret = crypto_aead_setkey(tfm, key, ci->key_len);
	if (!ret)
		ret = crypto_aead_setauthsize(tfm, KSMBD_TRANSFORM_TAG_SIZE);
	if (ret) {
		crypto_free_aead(tfm);
		return ERR_PTR(ret);
	}
	return tfm;
}

void ksmbd_sess_crypto_free(struct ksmbd_sess_crypto *c)
{
	/* crypto_free_aead() wipes the key schedules with the tfms. */
	if (c->enc)
		crypto_free_aead(c->enc);
	if (c->dec)
		crypto_free_aead(c->dec);
	c->enc = NULL;
	c->dec = NULL;
}

static int derive(struct ksmbd_session *sess, const struct ksmbd_cipher_info *ci,
		  const u8 *session_key, u32 key_len)
{
	struct ksmbd_sess_crypto *c = &sess->crypto;
	u8 kin[KSMBD_CIPHER_KEY_MAX], kout[KSMBD_CIPHER_KEY_MAX];
	struct crypto_aead *enc = NULL, *dec = NULL;
	int ret;

	ret = ksmbd_kdf_session_key(sess->dialect, KSMBD_KEY_SERVER_IN,
				    session_key, key_len, sess->preauth_hash,
				    kin, ci->key_len);
	if (!ret)
		ret = ksmbd_kdf_session_key(sess->dialect, KSMBD_KEY_SERVER_OUT,
					    session_key, key_len,
					    sess->preauth_hash, kout,
					    ci->key_len);
	if (ret)
		goto out_wipe;
	dec = cipher_tfm(ci, kin);
	enc = IS_ERR(dec) ? NULL : cipher_tfm(ci, kout);
	if (IS_ERR(dec) || IS_ERR(enc)) {
		ret = IS_ERR(dec) ? PTR_ERR(dec) : PTR_ERR(enc);
		if (!IS_ERR(dec))
			crypto_free_aead(dec);
		pr_warn_ratelimited("cannot set up %s: %d\n", ci->name, ret);
		goto out_wipe;
	}
	ret = ksmbd_conn_crypto_prepare(sess->conn, enc);
	if (ret) {
		crypto_free_aead(enc);
		crypto_free_aead(dec);
		goto out_wipe;
	}
	ksmbd_sess_crypto_free(c);
	c->enc = enc;
	c->dec = dec;
	c->cipher = ci->id;
	atomic64_set(&c->nonce_counter, 0);
	get_random_bytes(c->nonce_salt, sizeof(c->nonce_salt));
out_wipe:
	memzero_explicit(kin, sizeof(kin));
	memzero_explicit(kout, sizeof(kout));
	return ret;
}

int ksmbd_sess_crypto_setup(struct ksmbd_session *sess, const u8 *session_key,
			    u32 key_len)
{
	const struct ksmbd_cipher_info *ci;
	u32 flags = READ_ONCE(ksmbd_server_conf.flags);
	int ret;

	ci = ksmbd_cipher_info(sess->conn->neg.cipher);
	if (!ci || sess->dialect < SMB30_DIALECT)
		return 0;
	ret = derive(sess, ci, session_key, key_len);
	if (ret)
		return ret;
	sess->crypto.encrypt_data = flags & (KSMBD_GLOBAL_FLAG_SMB2_ENCRYPTION |
					     KSMBD_GLOBAL_FLAG_ENCRYPTION_REQUIRED);
	sess->crypto.reject_unencrypted = flags &
					  KSMBD_GLOBAL_FLAG_ENCRYPTION_REQUIRED;
	return 0;
}

/* ---- Receive ---- */

static void refuse(struct ksmbd_conn *conn, const char *why)
{
	ksmbd_conn_note_rejected(conn, 0xffff, 0, why);
	ksmbd_conn_drop(conn, why);
}

static int decrypt_frame(struct ksmbd_conn *conn, struct ksmbd_session *sess,
			 u8 *frame, const struct ksmbd_transform *t)
{
	const struct ksmbd_cipher_info *ci = ksmbd_cipher_info(sess->crypto.cipher);
	struct crypt_scratch *s = &conn->crypto->rx;
	struct sg_fill f;
	int ret;

	mutex_lock(&s->lock);
	f = (struct sg_fill){ .sg = s->sg, .cap = s->nents };
	/* AD (Nonce..SessionId) and the ciphertext follow each other. */
	sg_add(&f, t->ad, KSMBD_TRANSFORM_AD_SIZE + t->msg_len);
	sg_add(&f, t->tag, KSMBD_TRANSFORM_TAG_SIZE);
	make_iv(ci, t->nonce, s->small + SMALL_IV);
	ret = aead_run(s, sess->crypto.dec, &f, false, KSMBD_TRANSFORM_AD_SIZE,
		       t->msg_len + KSMBD_TRANSFORM_TAG_SIZE,
		       s->small + SMALL_IV);
	mutex_unlock(&s->lock);
	return ret;
}

int ksmbd_smb2_transform_check(struct ksmbd_conn *conn, const u8 *frame,
			       u32 len, struct ksmbd_transform *t)
{
	u16 cipher = ksmbd_conn_negotiated(conn) ? conn->neg.cipher : 0;
	enum ksmbd_valid v;

	v = ksmbd_transform_validate(frame, len, cipher, t);
	if (v != KSMBD_VALID_OK) {
		refuse(conn, cipher ? ksmbd_valid_name(v) :
				      "transform without a negotiated cipher");
		return -EINVAL;
	}
	return 0;
}

int ksmbd_smb2_decrypt(struct ksmbd_conn *conn, struct ksmbd_session *sess,
		       u8 *frame, const struct ksmbd_transform *t)
{
	int ret;

	if (!sess || !ksmbd_sess_crypto_ready(&sess->crypto) ||
	    !READ_ONCE(conn->crypto)) {
		refuse(conn, "transform for an unknown session");
		return -ENOENT;
	}
	ret = decrypt_frame(conn, sess, frame, t);
	if (ret) {
		atomic64_inc(&decrypt_failures);
		refuse(conn, "decryption failed");
		return ret;
	}
	atomic64_inc(&decrypted_frames);
	if (!READ_ONCE(sess->crypto.client_encrypts))
		WRITE_ONCE(sess->crypto.client_encrypts, true);
	return 0;
}

/* ---- Send ---- */

int ksmbd_smb2_send_encrypted(struct ksmbd_conn *conn,
			      struct ksmbd_session *sess, u8 *msg, u32 len)
{
	struct ksmbd_sess_crypto *c = &sess->crypto;
	const struct ksmbd_cipher_info *ci = ksmbd_cipher_info(c->cipher);
	u8 hdr[SMB2_TRANSFORM_HEADER_SIZE];
	struct crypt_scratch *s;
	struct sg_fill f;
	struct kvec iov[2];
	u8 *th;
	int ret;

	if (!ci || !conn->crypto)
		return -EINVAL;
	s = &conn->crypto->tx;
	mutex_lock(&s->lock);
	th = s->small + SMALL_HDR;
	ksmbd_transform_put_hdr(th, c->cipher,
				atomic64_inc_return(&c->nonce_counter),
				c->nonce_salt, len, sess->id);
	f = (struct sg_fill){ .sg = s->sg, .cap = s->nents };
	sg_add(&f, th + KSMBD_TRANSFORM_AD_OFF, KSMBD_TRANSFORM_AD_SIZE);
	sg_add(&f, msg, len);
	sg_add(&f, th + 4, KSMBD_TRANSFORM_TAG_SIZE);
	make_iv(ci, th + KSMBD_TRANSFORM_AD_OFF, s->small + SMALL_IV);
	ret = aead_run(s, c->enc, &f, true, KSMBD_TRANSFORM_AD_SIZE, len,
		       s->small + SMALL_IV);
	memcpy(hdr, th, sizeof(hdr));
	mutex_unlock(&s->lock);
	if (ret) {
		pr_warn_ratelimited("session %llx: cannot encrypt a response: %d\n",
				    sess->id, ret);
		ksmbd_conn_drop(conn, "encryption failed");
		return ret;
	}
	iov[0].iov_base = hdr;
	iov[0].iov_len = sizeof(hdr);
	iov[1].iov_base = msg;
	iov[1].iov_len = len;
	return ksmbd_conn_send(conn, iov, 2);
}

/* ---- AES-GMAC signing ---- */

static int gmac_run(struct crypt_scratch *s, struct crypto_aead *tfm,
		    const u8 *msg, u32 len, bool sign)
{
	struct sg_fill f = { .sg = s->sg, .cap = s->nents };
	const u32 sig = offsetof(struct smb2_hdr, signature);

	if (len < SMB2_HEADER_SIZE)
		return -EINVAL;
	ksmbd_gmac_nonce_of(msg, s->small + SMALL_IV);
	sg_add(&f, msg, sig);
	sg_add(&f, s->small + SMALL_ZERO, SMB2_SIGNATURE_SIZE);
	sg_add(&f, msg + SMB2_HEADER_SIZE, len - SMB2_HEADER_SIZE);
	sg_add(&f, s->small + SMALL_TAG, SMB2_SIGNATURE_SIZE);
	if (!sign)
		memcpy(s->small + SMALL_TAG, msg + sig, SMB2_SIGNATURE_SIZE);
	return aead_run(s, tfm, &f, sign, len, sign ? 0 : SMB2_SIGNATURE_SIZE,
			s->small + SMALL_IV);
}

int ksmbd_gmac_sign(struct ksmbd_conn *conn, struct crypto_aead *tfm,
		    u8 *msg, u32 len)
{
	struct crypt_scratch *s;
	int ret;

	if (!conn->crypto)
		return -EINVAL;
	s = &conn->crypto->tx;
	mutex_lock(&s->lock);
	ret = gmac_run(s, tfm, msg, len, true);
	if (!ret)
		memcpy(msg + offsetof(struct smb2_hdr, signature),
		       s->small + SMALL_TAG, SMB2_SIGNATURE_SIZE);
	mutex_unlock(&s->lock);
	return ret;
}

int ksmbd_gmac_verify(struct ksmbd_conn *conn, struct crypto_aead *tfm,
		      const u8 *msg, u32 len)
{
	struct crypt_scratch *s;
	int ret;

	if (!conn->crypto)
		return -EBADMSG;
	s = &conn->crypto->rx;
	mutex_lock(&s->lock);
	ret = gmac_run(s, tfm, msg, len, false);
	mutex_unlock(&s->lock);
	return ret ? -EBADMSG : 0;
}
