// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FSCTL_QUERY_NETWORK_INTERFACE_INFO (MS-SMB2 3.3.5.15.11): the addresses
 * a multichannel client may open further channels to. Every IPv4 and
 * IPv6 address of an interface that is up, except loopback (announced
 * only when no other interface is up) and IPv6 link-local addresses (the
 * answer has no room for their scope, 2.2.32.5.1 zeroes ScopeId, so a
 * client could not reach them); with "bind interfaces only", only the
 * addresses the listeners serve (ifaces.h).
 *
 * LinkSpeed is the driver's ethtool speed, or 1 Gb/s when it reports
 * none (virtio, many virtual devices). RSS_CAPABLE is set when the device
 * receives on several queues: only then does a client open more than one
 * channel to the same address, so a single-queue NIC gets one channel per
 * address.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/ethtool.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include "connection.h"
#include "debug.h"
#include "ifaces.h"
#include "proto/decode.h"
#include "proto/encode.h"
#include "smb2_dispatch.h"
#include "smb2_files.h"

/* Addresses answered at most; more are left out (said in the log). */
#define NETIF_MAX		64
#define NETIF_DEFAULT_SPEED	1000000000ULL

struct netif_list {
	unsigned int n;
	bool full;
	struct ksmbd_netif_info e[NETIF_MAX];
};

/* Under RTNL (the ethtool op may sleep, so no RCU here). */
static u64 link_speed(struct net_device *dev)
{
	struct ethtool_link_ksettings ks;

	if (__ethtool_get_link_ksettings(dev, &ks) || !ks.base.speed ||
	    ks.base.speed == (u32)SPEED_UNKNOWN)
		return NETIF_DEFAULT_SPEED;
	return (u64)ks.base.speed * 1000000;
}

static bool served(const struct net_device *dev, sa_family_t family,
		   const void *addr)
{
	bool ok;

	rcu_read_lock();
	ok = ksmbd_ifaces_serves(dev, family, addr);
	rcu_read_unlock();
	return ok;
}

static void list_add_addr(struct netif_list *l,
			  const struct ksmbd_netif_info *tmpl, bool ipv6,
			  const void *addr)
{
	struct ksmbd_netif_info *e;

	if (l->n == NETIF_MAX) {
		l->full = true;
		return;
	}
	e = &l->e[l->n++];
	*e = *tmpl;
	e->ipv6 = ipv6;
	memset(e->addr, 0, sizeof(e->addr));
	memcpy(e->addr, addr, ipv6 ? 16 : 4);
}

static void collect4(struct net_device *dev, struct netif_list *l,
		     const struct ksmbd_netif_info *tmpl)
{
	struct in_device *in_dev = __in_dev_get_rtnl(dev);
	const struct in_ifaddr *ifa;

	if (!in_dev)
		return;
	in_dev_for_each_ifa_rtnl(ifa, in_dev)
		if (served(dev, AF_INET, &ifa->ifa_local))
			list_add_addr(l, tmpl, false, &ifa->ifa_local);
}

static bool usable6(const struct inet6_ifaddr *ifp)
{
	int type = ipv6_addr_type(&ifp->addr);

	if (ifp->flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED))
		return false;
	return !(type & (IPV6_ADDR_LINKLOCAL | IPV6_ADDR_LOOPBACK));
}

static void collect6(struct net_device *dev, struct netif_list *l,
		     const struct ksmbd_netif_info *tmpl)
{
	struct inet6_dev *idev = __in6_dev_get(dev);
	struct inet6_ifaddr *ifp;

	if (!idev)
		return;
	read_lock_bh(&idev->lock);
	list_for_each_entry(ifp, &idev->addr_list, if_list)
		if (usable6(ifp) && served(dev, AF_INET6, &ifp->addr))
			list_add_addr(l, tmpl, true, &ifp->addr);
	read_unlock_bh(&idev->lock);
}

static void collect(struct netif_list *l, bool loopback)
{
	struct ksmbd_netif_info tmpl = { };
	struct net_device *dev;

	l->n = 0;
	l->full = false;
	rtnl_lock();
	for_each_netdev(&init_net, dev) {
		if (!(dev->flags & IFF_LOOPBACK) != !loopback ||
		    !(dev->flags & IFF_UP) ||
		    !netif_running(dev) || !netif_oper_up(dev) ||
		    !dev->ifindex)
			continue;
		tmpl.ifindex = dev->ifindex;
		tmpl.capability = dev->real_num_rx_queues > 1 ?
				  KSMBD_NETIF_RSS_CAPABLE : 0;
		tmpl.link_speed = link_speed(dev);
		collect4(dev, l, &tmpl);
		collect6(dev, l, &tmpl);
	}
	rtnl_unlock();
	if (l->full)
		pr_warn_ratelimited("interface query: more than %d addresses; the rest are not announced\n",
				    NETIF_MAX);
}

/* Every address that fits in max_out; the last one ends the chain. */
static u32 encode(struct ksmbd_smb2_ctx *ctx, const struct netif_list *l,
		  u32 max_out, u32 *out_len)
{
	u32 fit = min_t(u32, l->n, max_out / KSMBD_NETIF_INFO_SIZE);
	u32 i, need = fit * KSMBD_NETIF_INFO_SIZE;
	struct ksmbd_wbuf *w = &ctx->body;

	if (l->n && !fit)
		return STATUS_BUFFER_TOO_SMALL;
	if (w->cap - w->len < need && !ksmbd_smb2_body_room(ctx, w->len, need))
		return STATUS_INSUFFICIENT_RESOURCES;
	for (i = 0; i < fit; i++)
		ksmbd_netif_info_encode(w, &l->e[i], i + 1 == fit);
	*out_len = need;
	return fit < l->n ? STATUS_BUFFER_OVERFLOW : STATUS_SUCCESS;
}

u32 ksmbd_smb2_netif_query(struct ksmbd_smb2_ctx *ctx,
			   const struct ksmbd_ioctl_req *rq, u32 *out_len)
{
	const struct ksmbd_conn_neg *neg = &ctx->conn->neg;
	struct netif_list *l;
	u32 st;

	/* 3.3.5.15.11: only on a 3.x connection that negotiated multichannel. */
	if (neg->dialect < SMB30_DIALECT ||
	    !(neg->capabilities & SMB2_GLOBAL_CAP_MULTI_CHANNEL))
		return STATUS_NOT_SUPPORTED;
	if (rq->input.len)
		return STATUS_INVALID_PARAMETER;
	l = kmalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return STATUS_INSUFFICIENT_RESOURCES;
	collect(l, false);
	/*
	 * Reachable over loopback only: announce it rather than an empty
	 * list, which clients cannot parse (smbtorture's NDR pull fails).
	 */
	if (!l->n)
		collect(l, true);
	st = encode(ctx, l, rq->max_output_response, out_len);
	ksmbd_debug(SMB, "interface query: %u addresses, status %#x\n", l->n,
		    st);
	kfree(l);
	return st;
}
