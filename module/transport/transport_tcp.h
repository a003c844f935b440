/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Direct TCP transport (MS-SMB2 2.1): one listener thread, one receive
 * thread per connection; frames go to the ksmbd-io workqueue.
 */
#ifndef KSMBD_TRANSPORT_TCP_H
#define KSMBD_TRANSPORT_TCP_H

#include <linux/types.h>

struct ksmbd_conn;
struct file;

/*
 * len bytes from the connection's socket: 0, -ECONNRESET, -ETIMEDOUT (a
 * frame stalled) or an errno.
 */
int ksmbd_tcp_recv(struct ksmbd_conn *conn, void *buf, u32 len);
/*
 * Up to len bytes from the socket written into out at pos without a copy
 * in between: the bytes written, or an error when none were. *taken says
 * how many left the socket, more than were written when the file took
 * less; *rx_err is the socket's error (as ksmbd_tcp_recv()) when it
 * stopped the payload short, else 0.
 */
ssize_t ksmbd_tcp_recv_to_file(struct ksmbd_conn *conn, struct file *out,
			       loff_t pos, u32 len, u32 *taken, int *rx_err);
/*
 * How long a receive waits mid-frame for the client's next byte
 * (jiffies; MAX_SCHEDULE_TIMEOUT when frame_stall_s is 0).
 */
long ksmbd_tcp_stall_timeo(void);
/* The connection's close reason for such an error met mid-frame. */
const char *ksmbd_tcp_rx_reason(int err);

/*
 * Module load: with autostart=1 (a test and diagnostic knob) the server
 * starts with the built-in defaults without waiting for a daemon.
 */
int ksmbd_tcp_init(void);

/*
 * Listen on port: on every address (IPv6 with v4-mapped addresses), or
 * with an interface list in the server's configuration on the addresses
 * of those interfaces only (listener.h).
 */
int ksmbd_tcp_start(u16 port);
/*
 * Stopping is in two steps so that what the server stops with them
 * (durable handles: main.c) goes in between: stop listening (false when
 * not listening), then cut every connection and wait until they are freed.
 */
bool ksmbd_tcp_stop_listening(void);
void ksmbd_tcp_drop_all(void);
/* The port being listened on, or 0. */
u16 ksmbd_tcp_listen_port(void);

#endif
