/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by handlers.c, handlers_tree.c and handlers_rpc.c. */
#ifndef KSMBD_MOUNTD_HANDLERS_INT_H
#define KSMBD_MOUNTD_HANDLERS_INT_H

#include "handlers.h"
#include "../module/uapi/ksmbd_netlink.h"

/* True when @s holds a NUL within its @cap bytes. */
bool mountd_str_ok(const char *s, size_t cap);
/* Logs a dropped kernel message; returns -EINVAL. */
int mountd_drop(unsigned int type, size_t len, const char *why);
/* Zeroed reply buffer of @len bytes, or NULL. */
void *mountd_reply_alloc(struct mountd_reply *r, unsigned int type,
			 size_t len);

int mountd_handle_tree_connect(struct mountd_state *st, const void *data,
			       size_t len, struct mountd_reply *reply);
int mountd_handle_tree_disconnect(struct mountd_state *st, const void *data,
				  size_t len);
int mountd_handle_rpc(struct mountd_state *st, const void *data, size_t len,
		      struct mountd_reply *reply);
void mountd_pipes_close_all(struct mountd_state *st);

/* uid, gid and groups of @unix_name into @r; false (logged) when none. */
bool mountd_fill_unix(const char *unix_name, struct ksmbd_login_response *r);

/* handlers_krb5.c */
bool mountd_krb5_configured(const struct ksmbd_global *g);
int mountd_handle_spnego(struct mountd_state *st, const void *data,
			 size_t len, struct mountd_reply *reply);

#endif
