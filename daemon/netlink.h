/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksmbd.mountd's generic netlink socket to the module (libnl-genl-3).
 * The socket also listens to nlctrl's notifications so that the module
 * being unloaded is noticed at once.
 */
#ifndef KSMBD_MOUNTD_NETLINK_H
#define KSMBD_MOUNTD_NETLINK_H

#include <stddef.h>

struct mountd_nl;

/* One message from the module; @data is valid during the callback only. */
typedef void (*mountd_nl_cb)(void *arg, unsigned int type, const void *data,
			     size_t len);

/*
 * Opens a socket and resolves the family. NULL with *@err = -ENOENT when
 * the module is not loaded, another negative errno otherwise.
 */
struct mountd_nl *mountd_nl_open(int *err);
void mountd_nl_close(struct mountd_nl *nl);
int mountd_nl_fd(const struct mountd_nl *nl);

/* 0 or a negative errno. */
int mountd_nl_send(struct mountd_nl *nl, unsigned int type, const void *data,
		   size_t len);

/*
 * Reads what is waiting (non-blocking) and calls @cb once per message of
 * our family. Returns 0, -EAGAIN when nothing was there, -ENODEV when the
 * module announced its family is gone, or another negative errno.
 */
int mountd_nl_recv(struct mountd_nl *nl, mountd_nl_cb cb, void *arg);

/* True while the family still exists with the id this socket uses. */
int mountd_nl_family_present(const struct mountd_nl *nl);

#endif
