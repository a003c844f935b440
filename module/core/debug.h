/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-component debug messages, switched at run time through
 * /sys/class/ksmbd-control/debug. Off by default; the check is one load and
 * a branch, so call sites stay in production builds.
 */
#ifndef KSMBD_DEBUG_H
#define KSMBD_DEBUG_H

#include <linux/printk.h>

/* The component names, in the order /sys/class/ksmbd-control/debug shows them. */
#define KSMBD_DEBUG_COMPONENTS(X)	\
	X(SMB, "smb")			\
	X(AUTH, "auth")			\
	X(VFS, "vfs")			\
	X(OPLOCK, "oplock")		\
	X(IPC, "ipc")			\
	X(CONN, "conn")			\
	X(RDMA, "rdma")

enum {
#define X(id, name) KSMBD_DEBUG_BIT_##id,
	KSMBD_DEBUG_COMPONENTS(X)
#undef X
	KSMBD_DEBUG_NR_COMPONENTS
};

#define X(id, name) KSMBD_DEBUG_##id = 1U << KSMBD_DEBUG_BIT_##id,
enum { KSMBD_DEBUG_COMPONENTS(X) };
#undef X

#define KSMBD_DEBUG_ALL ((1U << KSMBD_DEBUG_NR_COMPONENTS) - 1)

extern unsigned int ksmbd_debug_mask;

#define ksmbd_debug(component, fmt, ...) do {				\
	if (unlikely(READ_ONCE(ksmbd_debug_mask) & KSMBD_DEBUG_##component)) \
		pr_info(fmt, ##__VA_ARGS__);				\
} while (0)

#endif
