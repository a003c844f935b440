/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Direct TCP transport (MS-SMB2 2.1): one listener thread, one receive
 * thread per connection; frames go to the ksmbd-io workqueue.
 */
#ifndef KSMBD_TRANSPORT_TCP_H
#define KSMBD_TRANSPORT_TCP_H

#include <linux/types.h>

struct ksmbd_conn;

/* len bytes from the connection's socket: 0, -ECONNRESET or an errno. */
int ksmbd_tcp_recv(struct ksmbd_conn *conn, void *buf, u32 len);

/*
 * Module load: with autostart=1 (a test and diagnostic knob) the server
 * starts with the built-in defaults without waiting for a daemon.
 */
int ksmbd_tcp_init(void);

/* Listen on port, all interfaces, IPv6 with v4-mapped addresses. */
int ksmbd_tcp_start(u16 port);
/* Stop listening, cut every connection and wait until they are freed. */
void ksmbd_tcp_stop(void);
/* The port being listened on, or 0. */
u16 ksmbd_tcp_listen_port(void);

#endif
