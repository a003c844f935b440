/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The listening sockets. Without an interface list: one IPv6 socket on
 * every address (IPv4 peers arrive v4-mapped). With one ("bind interfaces
 * only"): a socket per local address of the named interfaces, IPv4 and
 * IPv6, kept in step with the addresses as they come and go.
 */
#ifndef KSMBD_LISTENER_H
#define KSMBD_LISTENER_H

#include <linux/types.h>

struct socket;

/*
 * Start listening on @port. @list holds @len bytes of NUL-terminated
 * items (an interface name, or "address/prefix"); 0 bytes means every
 * address. The accepted sockets go to @accepted. 0 or -errno.
 */
int ksmbd_listen_start(u16 port, const char *list, u32 len,
		       void (*accepted)(struct socket *sock));
/* Close every listening socket and stop following addresses. */
void ksmbd_listen_stop(void);
/* Sockets listening now (0 when bound to interfaces without an address). */
unsigned int ksmbd_listen_count(void);

#endif
