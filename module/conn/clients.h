/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KSMBD_CLIENTS_H
#define KSMBD_CLIENTS_H

/* /proc/fs/ksmbd/clients: the connected clients and their sessions. */
int ksmbd_clients_init(void);
void ksmbd_clients_exit(void);

#endif
