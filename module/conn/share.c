// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Share configurations, cached by name while trees use them. The cache
 * lock is taken by the final put before the count reaches zero
 * (refcount_dec_and_mutex_lock), so every share on the list has a
 * reference and a lookup under the lock may take another.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "debug.h"
#include "ipc.h"
#include "share.h"

static LIST_HEAD(share_cache);
static DEFINE_MUTEX(share_lock);

static struct ksmbd_share *cache_find(const char *name)
{
	struct ksmbd_share *s;

	list_for_each_entry(s, &share_cache, node)
		if (!strcmp(s->name, name) && refcount_inc_not_zero(&s->refs))
			return s;
	return NULL;
}

static void share_free(struct ksmbd_share *s)
{
	kfree(s->path);
	kfree(s->veto_list);
	kfree(s);
}

void ksmbd_share_put(struct ksmbd_share *share)
{
	if (!refcount_dec_and_mutex_lock(&share->refs, &share_lock))
		return;
	list_del(&share->node);
	mutex_unlock(&share_lock);
	share_free(share);
}

/* A share object from the daemon's (validated) answer. */
static struct ksmbd_share *share_from_rsp(const char *name,
				const struct ksmbd_share_config_response *r)
{
	const u8 *payload = r->payload;
	struct ksmbd_share *s;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	refcount_set(&s->refs, 1);
	INIT_LIST_HEAD(&s->node);
	strscpy(s->name, name, sizeof(s->name));
	s->flags = r->flags;
	s->create_mask = r->create_mask;
	s->directory_mask = r->directory_mask;
	s->force_create_mode = r->force_create_mode;
	s->force_directory_mode = r->force_directory_mode;
	s->force_uid = r->force_uid;
	s->force_gid = r->force_gid;
	if (r->veto_list_sz) {
		s->veto_list = kmemdup(payload, r->veto_list_sz, GFP_KERNEL);
		if (!s->veto_list)
			goto err_free_share;
		s->veto_list_sz = r->veto_list_sz;
	}
	/* ipc_validate.c checked the path is one NUL-terminated string. */
	if (r->path_sz) {
		s->path = kmemdup(payload + r->veto_list_sz, r->path_sz,
				  GFP_KERNEL);
		if (!s->path)
			goto err_free_share;
	}
	return s;

err_free_share:
	share_free(s);
	return ERR_PTR(-ENOMEM);
}

static struct ksmbd_share *share_fetch(const char *name)
{
	struct ksmbd_share_config_response *r;
	struct ksmbd_share *s;

	r = ksmbd_ipc_share_config(name);
	if (IS_ERR(r))
		return ERR_CAST(r);
	if (r->flags == KSMBD_SHARE_FLAG_INVALID ||
	    !(r->flags & KSMBD_SHARE_FLAG_AVAILABLE))
		s = ERR_PTR(-ENOENT);
	else if (r->flags & KSMBD_SHARE_FLAG_INHERIT_OWNER)
		/* Not implemented: refused rather than served without it. */
		s = ERR_PTR(-EOPNOTSUPP);
	else if (!r->path_sz && !(r->flags & KSMBD_SHARE_FLAG_PIPE))
		s = ERR_PTR(-ENOENT);
	else
		s = share_from_rsp(name, r);
	kvfree(r);
	return s;
}

struct ksmbd_share *ksmbd_share_get_config(const char *name)
{
	char key[KSMBD_REQ_MAX_SHARE_NAME];
	struct ksmbd_share *s, *old;
	size_t i;

	if (strscpy(key, name, sizeof(key)) < 0)
		return ERR_PTR(-ENAMETOOLONG);
	/* The daemon compares share names case-insensitively too. */
	for (i = 0; key[i]; i++)
		key[i] = tolower(key[i]);

	mutex_lock(&share_lock);
	s = cache_find(key);
	mutex_unlock(&share_lock);
	if (s)
		return s;

	s = share_fetch(key);
	if (IS_ERR(s))
		return s;
	mutex_lock(&share_lock);
	/* Another connect may have fetched it while we asked. */
	old = cache_find(key);
	if (!old)
		list_add(&s->node, &share_cache);
	mutex_unlock(&share_lock);
	if (old) {
		share_free(s);
		return old;
	}
	ksmbd_debug(SMB, "share %s: flags 0x%x\n", s->name, s->flags);
	return s;
}

void ksmbd_share_exit(void)
{
	/* Trees hold every reference and all trees are gone by now. */
	WARN_ON_ONCE(!list_empty(&share_cache));
}
