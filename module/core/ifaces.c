// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "interfaces" items (ifaces.h). The published set is read under RCU
 * by whoever enumerates addresses (often under RTNL, where nothing may
 * sleep for our sake) and replaced only by the listeners' start and stop.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include "ifaces.h"

#define MAX_ITEMS	64

/* One item: a device name, or a network. */
struct iface_item {
	char name[IFNAMSIZ];		/* "" for a network */
	sa_family_t family;
	struct in6_addr net;		/* IPv4 in the first 4 bytes */
	u8 prefix;
};

struct ksmbd_ifaces {
	unsigned int n;
	struct iface_item items[MAX_ITEMS];
};

static struct ksmbd_ifaces __rcu *published;

static bool parse_item(const char *s, struct iface_item *it)
{
	const char *slash = strchr(s, '/');
	const char *end;
	u8 max;

	memset(it, 0, sizeof(*it));
	if (!slash)
		return strscpy(it->name, s, sizeof(it->name)) > 0;
	if (in4_pton(s, slash - s, (u8 *)&it->net, '/', &end)) {
		it->family = AF_INET;
		max = 32;
	} else if (in6_pton(s, slash - s, (u8 *)&it->net, '/', &end)) {
		it->family = AF_INET6;
		max = 128;
	} else {
		return false;
	}
	return !kstrtou8(slash + 1, 10, &it->prefix) && it->prefix <= max;
}

struct ksmbd_ifaces *ksmbd_ifaces_parse(const char *list, u32 len)
{
	struct ksmbd_ifaces *set = kzalloc(sizeof(*set), GFP_KERNEL);
	u32 off = 0;

	if (!set)
		return NULL;
	while (off < len) {
		const char *s = list + off;

		off += strnlen(s, len - off) + 1;
		if (!*s)
			continue;
		if (set->n == MAX_ITEMS || !parse_item(s, &set->items[set->n])) {
			pr_err("interfaces: cannot use '%.*s'\n", IFNAMSIZ * 4, s);
			goto err_free;
		}
		set->n++;
	}
	if (set->n)
		return set;
err_free:
	kfree(set);
	return NULL;
}

void ksmbd_ifaces_free(struct ksmbd_ifaces *set)
{
	kfree(set);
}

static bool v4_in(const struct iface_item *it, __be32 a)
{
	__be32 mask = it->prefix ? htonl(~0u << (32 - it->prefix)) : 0;

	return ((a ^ it->net.s6_addr32[0]) & mask) == 0;
}

bool ksmbd_ifaces_match(const struct ksmbd_ifaces *set,
			const struct net_device *dev, sa_family_t family,
			const void *addr)
{
	unsigned int i;

	for (i = 0; i < set->n; i++) {
		const struct iface_item *it = &set->items[i];

		if (it->name[0]) {
			if (!strcmp(it->name, dev->name))
				return true;
		} else if (it->family == AF_INET && family == AF_INET) {
			if (v4_in(it, *(const __be32 *)addr))
				return true;
		} else if (it->family == AF_INET6 && family == AF_INET6) {
			if (ipv6_prefix_equal(addr, &it->net, it->prefix))
				return true;
		}
	}
	return false;
}

void ksmbd_ifaces_publish(struct ksmbd_ifaces *set)
{
	rcu_assign_pointer(published, set);
}

void ksmbd_ifaces_withdraw(void)
{
	RCU_INIT_POINTER(published, NULL);
	/* The owner frees the set next. */
	synchronize_rcu();
}

bool ksmbd_ifaces_serves(const struct net_device *dev, sa_family_t family,
			 const void *addr)
{
	const struct ksmbd_ifaces *set = rcu_dereference(published);

	return !set || ksmbd_ifaces_match(set, dev, family, addr);
}
