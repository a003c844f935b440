/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "interfaces" items of "bind interfaces only": device names or
 * networks (address/prefix). The listeners publish the set they follow
 * while they serve; whoever else needs to know which local addresses
 * the server answers on (FSCTL_QUERY_NETWORK_INTERFACE_INFO) asks the
 * same set, so both always agree.
 */
#ifndef KSMBD_IFACES_H
#define KSMBD_IFACES_H

#include <linux/socket.h>
#include <linux/types.h>

struct net_device;
struct ksmbd_ifaces;

/*
 * Parse @len bytes of NUL-terminated items into a new set; NULL when an
 * item is unusable (said in the log), there is none, or no memory.
 */
struct ksmbd_ifaces *ksmbd_ifaces_parse(const char *list, u32 len);
void ksmbd_ifaces_free(struct ksmbd_ifaces *set);
/* Does the set name this address of dev (AF_INET: __be32, AF_INET6: in6_addr)? */
bool ksmbd_ifaces_match(const struct ksmbd_ifaces *set,
			const struct net_device *dev, sa_family_t family,
			const void *addr);

/*
 * The set the listeners follow (they own it; NULL: every address).
 * Publish before the first socket opens, withdraw after the last closed;
 * withdrawing waits until no reader still looks at the old set.
 */
void ksmbd_ifaces_publish(struct ksmbd_ifaces *set);
void ksmbd_ifaces_withdraw(void);
/*
 * Under rcu_read_lock(): is addr of dev one the server answers on? True
 * for every address when no set is published.
 */
bool ksmbd_ifaces_serves(const struct net_device *dev, sa_family_t family,
			 const void *addr);

#endif
