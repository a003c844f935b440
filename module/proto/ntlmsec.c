// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NTLM session security with extended session security (MS-NLMP 3.4.4.2,
 * 3.4.5).  Keys are wiped by ksmbd_ntlm_sec_wipe(); the mechListMIC helper
 * keeps its state on the heap and wipes it before returning.
 */
#include "ntlmsec.h"
#include "ntlmssp.h"
#include "crypto.h"

static const char c2s_sign_magic[] =
	"session key to client-to-server signing key magic constant";
static const char s2c_sign_magic[] =
	"session key to server-to-client signing key magic constant";
static const char c2s_seal_magic[] =
	"session key to client-to-server sealing key magic constant";
static const char s2c_seal_magic[] =
	"session key to server-to-client sealing key magic constant";

void ksmbd_arc4_init(struct ksmbd_arc4 *c, const u8 *key, u32 key_len)
{
	u32 n, k = 0;
	u8 t;

	for (n = 0; n < 256; n++)
		c->s[n] = (u8)n;
	for (n = 0; n < 256; n++) {
		k = (k + c->s[n] + key[n % key_len]) & 0xff;
		t = c->s[n];
		c->s[n] = c->s[k];
		c->s[k] = t;
	}
	c->i = 0;
	c->j = 0;
}

void ksmbd_arc4_apply(struct ksmbd_arc4 *c, u8 *buf, u32 len)
{
	u32 n;
	u8 t;

	for (n = 0; n < len; n++) {
		c->i++;
		c->j += c->s[c->i];
		t = c->s[c->i];
		c->s[c->i] = c->s[c->j];
		c->s[c->j] = t;
		buf[n] ^= c->s[(u8)(c->s[c->i] + c->s[c->j])];
	}
}

void ksmbd_arc4_crypt(const u8 *key, u32 key_len, u8 *buf, u32 len)
{
	struct ksmbd_arc4 c;

	ksmbd_arc4_init(&c, key, key_len);
	ksmbd_arc4_apply(&c, buf, len);
	memzero_explicit(&c, sizeof(c));
}

/* MD5(key[0..key_len) || magic with its NUL), 3.4.5.2 and 3.4.5.3. */
static int derive(const u8 *key, u32 key_len, const char *magic, u32 magic_size,
		  u8 out[KSMBD_NTLM_SEC_KEY_SIZE])
{
	struct ksmbd_buf parts[2] = {
		ksmbd_buf_make(key, key_len),
		ksmbd_buf_make(magic, magic_size),
	};

	return ksmbd_crypto_md5(parts, 2, out);
}

/* SEALKEY: all 16 bytes under NEGOTIATE_128, else 7 (56-bit) or 5. */
static u32 seal_key_len(u32 flags)
{
	if (flags & NTLMSSP_NEGOTIATE_128)
		return 16;
	return flags & NTLMSSP_NEGOTIATE_56 ? 7 : 5;
}

static int dir_init(struct ksmbd_ntlm_sec_dir *d, u32 flags, const u8 *exported,
		    const char *sign_magic, const char *seal_magic)
{
	/* Both magic strings are the same length, NUL included. */
	u32 msize = sizeof(c2s_sign_magic);
	int rc;

	rc = derive(exported, KSMBD_NTLM_SEC_KEY_SIZE, sign_magic, msize,
		    d->sign_key);
	rc = rc ?: derive(exported, seal_key_len(flags), seal_magic, msize,
			  d->seal_key);
	if (rc)
		return rc;
	ksmbd_arc4_init(&d->seal, d->seal_key, sizeof(d->seal_key));
	d->seq = 0;
	return 0;
}

int ksmbd_ntlm_sec_init(struct ksmbd_ntlm_sec *sec, u32 flags,
			const u8 exported[KSMBD_NTLM_SEC_KEY_SIZE])
{
	int rc;

	memset(sec, 0, sizeof(*sec));
	sec->flags = flags;
	rc = dir_init(&sec->c2s, flags, exported, c2s_sign_magic,
		      c2s_seal_magic);
	rc = rc ?: dir_init(&sec->s2c, flags, exported, s2c_sign_magic,
			    s2c_seal_magic);
	if (rc)
		ksmbd_ntlm_sec_wipe(sec);
	return rc;
}

void ksmbd_ntlm_sec_wipe(struct ksmbd_ntlm_sec *sec)
{
	memzero_explicit(sec, sizeof(*sec));
}

int ksmbd_ntlm_sec_sign(struct ksmbd_ntlm_sec *sec,
			struct ksmbd_ntlm_sec_dir *dir,
			const struct ksmbd_buf *msg,
			u8 sig[KSMBD_NTLM_SEC_SIG_SIZE])
{
	u8 seq[4], mac[KSMBD_MD5_SIZE];
	struct ksmbd_buf parts[2];
	int rc;

	put_unaligned_le32(dir->seq, seq);
	parts[0] = ksmbd_buf_make(seq, sizeof(seq));
	parts[1] = *msg;
	rc = ksmbd_crypto_hmac_md5(dir->sign_key, sizeof(dir->sign_key),
				   parts, 2, mac);
	if (rc)
		return rc;
	if (sec->flags & NTLMSSP_NEGOTIATE_KEY_EXCH)
		ksmbd_arc4_apply(&dir->seal, mac, 8);
	put_unaligned_le32(1, sig);		/* Version */
	memcpy(sig + 4, mac, 8);
	memcpy(sig + 12, seq, 4);
	memzero_explicit(mac, sizeof(mac));
	dir->seq++;
	return 0;
}

int ksmbd_ntlm_sec_verify(struct ksmbd_ntlm_sec *sec,
			  struct ksmbd_ntlm_sec_dir *dir,
			  const struct ksmbd_buf *msg,
			  const struct ksmbd_buf *sig)
{
	u8 want[KSMBD_NTLM_SEC_SIG_SIZE];
	int rc;

	if (sig->len != KSMBD_NTLM_SEC_SIG_SIZE)
		return -EKEYREJECTED;
	rc = ksmbd_ntlm_sec_sign(sec, dir, msg, want);
	if (!rc && ksmbd_memneq(want, sig->p, sizeof(want)))
		rc = -EKEYREJECTED;
	memzero_explicit(want, sizeof(want));
	return rc;
}

int ksmbd_ntlm_mech_list_mic(u32 flags,
			     const u8 exported[KSMBD_NTLM_SEC_KEY_SIZE],
			     const struct ksmbd_buf *mech_list,
			     const struct ksmbd_buf *client_mic,
			     u8 out[KSMBD_NTLM_SEC_SIG_SIZE])
{
	struct ksmbd_ntlm_sec *sec;
	int rc;

	if (!mech_list->len)
		return -EKEYREJECTED;
	sec = kmalloc(sizeof(*sec), GFP_KERNEL);
	if (!sec)
		return -ENOMEM;
	rc = ksmbd_ntlm_sec_init(sec, flags, exported);
	rc = rc ?: ksmbd_ntlm_sec_verify(sec, &sec->c2s, mech_list, client_mic);
	rc = rc ?: ksmbd_ntlm_sec_sign(sec, &sec->s2c, mech_list, out);
	ksmbd_ntlm_sec_wipe(sec);
	kfree(sec);
	return rc;
}
