/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KSMBD_CONTROL_H
#define KSMBD_CONTROL_H

int ksmbd_control_init(void);
void ksmbd_control_exit(void);

#endif
