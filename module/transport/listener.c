// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Listening sockets, and "bind interfaces only": the addresses of the
 * configured interfaces are followed through the inetaddr and inet6addr
 * notifiers. A notifier only schedules a resync; the resync reads every
 * address under RTNL, then opens the sockets that are missing and closes
 * those whose address is gone, so any order of events ends in the same
 * set.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/inetdevice.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/sched/task.h>
#include <linux/workqueue.h>
#include <net/addrconf.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/tcp.h>
#include "ifaces.h"
#include "listener.h"
#include "ksmbd_trace.h"

/* How often a blocked accept() looks at kthread_should_stop(). */
#define ACCEPT_POLL	(HZ / 5)
#define MAX_ADDRS	256

struct listen_addr {
	struct sockaddr_storage ss;	/* port set */
};

struct listener {
	struct list_head list;
	struct listen_addr addr;
	struct socket *sock;
	struct task_struct *task;
};

/* Protects all below; taken by start/stop and by the resync work. */
static DEFINE_MUTEX(listen_lock);
static LIST_HEAD(listeners);
static unsigned int nr_listeners;
static bool following;
static u16 port;
static void (*accepted_fn)(struct socket *sock);
static struct ksmbd_ifaces *ifaces;	/* while following; published */

static void resync_work_fn(struct work_struct *w);
static DECLARE_WORK(resync_work, resync_work_fn);

static int accept_thread(void *arg)
{
	struct socket *lsock = arg;
	struct socket *sock;
	int ret;

	while (!kthread_should_stop()) {
		ret = kernel_accept(lsock, &sock, 0);
		if (ret == -EAGAIN || ret == -EINTR || ret == -ERESTARTSYS)
			continue;
		if (ret) {
			/* e.g. ENOMEM or ECONNABORTED: keep serving */
			schedule_timeout_interruptible(ACCEPT_POLL);
			continue;
		}
		accepted_fn(sock);
	}
	return 0;
}

static int addr_len(const struct listen_addr *a)
{
	return a->ss.ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
					     sizeof(struct sockaddr_in);
}

/*
 * A listening socket on @a. @any: the wildcard IPv6 socket that takes
 * v4-mapped peers too; otherwise exactly this address (freebind, so an
 * IPv6 address still in duplicate address detection can be bound).
 */
static int open_socket(const struct listen_addr *a, bool any,
		       struct socket **out)
{
	struct socket *sock;
	int ret;

	ret = sock_create_kern(&init_net, a->ss.ss_family, SOCK_STREAM,
			       IPPROTO_TCP, &sock);
	if (ret)
		return ret;
	if (a->ss.ss_family == AF_INET6)
		sock->sk->sk_ipv6only = !any;
	if (!any)
		ip_sock_set_freebind(sock->sk);
	sock_set_reuseaddr(sock->sk);
	tcp_sock_set_nodelay(sock->sk);
	/* accept() returns -EAGAIN now and then so the thread can stop. */
	sock->sk->sk_rcvtimeo = ACCEPT_POLL;
	ret = kernel_bind(sock, (struct sockaddr *)&a->ss, addr_len(a));
	if (!ret)
		ret = kernel_listen(sock, 128);
	if (ret) {
		sock_release(sock);
		return ret;
	}
	*out = sock;
	return 0;
}

static int listener_add(const struct listen_addr *a, bool any)
{
	struct listener *l;
	int ret;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->addr = *a;
	ret = open_socket(a, any, &l->sock);
	if (ret)
		goto err_free;
	l->task = kthread_run(accept_thread, l->sock, "ksmbd-listen");
	if (IS_ERR(l->task)) {
		ret = PTR_ERR(l->task);
		goto err_release;
	}
	get_task_struct(l->task);
	list_add_tail(&l->list, &listeners);
	WRITE_ONCE(nr_listeners, nr_listeners + 1);
	trace_ksmbd_listen(&l->addr.ss, "start", 0);
	return 0;

err_release:
	sock_release(l->sock);
err_free:
	trace_ksmbd_listen(&a->ss, "refused", ret);
	kfree(l);
	return ret;
}

static void listener_del(struct listener *l, const char *why)
{
	kernel_sock_shutdown(l->sock, SHUT_RDWR);
	kthread_stop(l->task);
	put_task_struct(l->task);
	sock_release(l->sock);
	list_del(&l->list);
	WRITE_ONCE(nr_listeners, nr_listeners - 1);
	trace_ksmbd_listen(&l->addr.ss, why, 0);
	kfree(l);
}

/* ---- The addresses the "interfaces" items name ---- */

static bool wanted(const struct net_device *dev, sa_family_t family,
		   const void *addr)
{
	return ksmbd_ifaces_match(ifaces, dev, family, addr);
}

struct addr_set {
	struct listen_addr a[MAX_ADDRS];
	unsigned int n;
	bool full;
};

static void set_add4(struct addr_set *set, __be32 addr)
{
	struct sockaddr_in *sin;

	if (set->n == MAX_ADDRS) {
		set->full = true;
		return;
	}
	sin = (struct sockaddr_in *)&set->a[set->n++].ss;
	memset(sin, 0, sizeof(struct sockaddr_storage));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = addr;
	sin->sin_port = htons(port);
}

static void set_add6(struct addr_set *set, const struct in6_addr *addr,
		     int ifindex)
{
	struct sockaddr_in6 *sin6;

	if (set->n == MAX_ADDRS) {
		set->full = true;
		return;
	}
	sin6 = (struct sockaddr_in6 *)&set->a[set->n++].ss;
	memset(sin6, 0, sizeof(struct sockaddr_storage));
	sin6->sin6_family = AF_INET6;
	sin6->sin6_addr = *addr;
	sin6->sin6_port = htons(port);
	/* A link-local address means nothing without its link. */
	if (ipv6_addr_type(addr) & IPV6_ADDR_LINKLOCAL)
		sin6->sin6_scope_id = ifindex;
}

static void collect6(struct net_device *dev, struct addr_set *set)
{
	struct inet6_dev *idev = __in6_dev_get(dev);
	struct inet6_ifaddr *ifp;

	if (!idev)
		return;
	read_lock_bh(&idev->lock);
	list_for_each_entry(ifp, &idev->addr_list, if_list)
		if (!(ifp->flags & IFA_F_DADFAILED) &&
		    wanted(dev, AF_INET6, &ifp->addr))
			set_add6(set, &ifp->addr, dev->ifindex);
	read_unlock_bh(&idev->lock);
}

/* Every local address the items name, now. */
static void collect(struct addr_set *set)
{
	struct net_device *dev;

	set->n = 0;
	set->full = false;
	rtnl_lock();
	for_each_netdev(&init_net, dev) {
		struct in_device *in_dev = __in_dev_get_rtnl(dev);
		const struct in_ifaddr *ifa;

		if (in_dev)
			in_dev_for_each_ifa_rtnl(ifa, in_dev)
				if (wanted(dev, AF_INET, &ifa->ifa_local))
					set_add4(set, ifa->ifa_local);
		collect6(dev, set);
	}
	rtnl_unlock();
}

static bool same_addr(const struct listen_addr *x, const struct listen_addr *y)
{
	if (x->ss.ss_family != y->ss.ss_family)
		return false;
	return !memcmp(&x->ss, &y->ss, addr_len(x));
}

static bool set_has(const struct addr_set *set, const struct listen_addr *a)
{
	unsigned int i;

	for (i = 0; i < set->n; i++)
		if (same_addr(&set->a[i], a))
			return true;
	return false;
}

static bool listening_on(const struct listen_addr *a)
{
	struct listener *l;

	list_for_each_entry(l, &listeners, list)
		if (same_addr(&l->addr, a))
			return true;
	return false;
}

/* Caller holds listen_lock. */
static void resync(struct addr_set *set)
{
	struct listener *l, *tmp;
	unsigned int i;

	collect(set);
	if (set->full)
		pr_warn_ratelimited("interfaces: more than %d addresses; some are not listened on\n",
				    MAX_ADDRS);
	list_for_each_entry_safe(l, tmp, &listeners, list)
		if (!set_has(set, &l->addr))
			listener_del(l, "address gone");
	for (i = 0; i < set->n; i++) {
		int ret;

		if (listening_on(&set->a[i]))
			continue;
		ret = listener_add(&set->a[i], false);
		if (ret)
			pr_warn_ratelimited("cannot listen on %pISpc: %d\n",
					    &set->a[i].ss, ret);
	}
}

static void resync_work_fn(struct work_struct *w)
{
	struct addr_set *set = kmalloc(sizeof(*set), GFP_KERNEL);

	if (!set) {
		pr_warn_ratelimited("interfaces: out of memory following an address change\n");
		return;
	}
	mutex_lock(&listen_lock);
	if (following)
		resync(set);
	mutex_unlock(&listen_lock);
	kfree(set);
}

/* Address events may come in atomic context (IPv6): resync later. */
static int addr_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	if (READ_ONCE(following) && (event == NETDEV_UP || event == NETDEV_DOWN))
		schedule_work(&resync_work);
	return NOTIFY_DONE;
}

static struct notifier_block inet_nb = { .notifier_call = addr_event };
static struct notifier_block inet6_nb = { .notifier_call = addr_event };

static int follow_start(void)
{
	struct addr_set *set = kmalloc(sizeof(*set), GFP_KERNEL);
	int ret;

	if (!set)
		return -ENOMEM;
	WRITE_ONCE(following, true);
	ret = register_inetaddr_notifier(&inet_nb);
	if (ret)
		goto err_free;
	ret = register_inet6addr_notifier(&inet6_nb);
	if (ret)
		goto err_unregister_inet;
	resync(set);
	if (!nr_listeners)
		pr_warn("bind interfaces only: no address on the configured interfaces yet; listening once one appears\n");
	kfree(set);
	return 0;

err_unregister_inet:
	unregister_inetaddr_notifier(&inet_nb);
err_free:
	WRITE_ONCE(following, false);
	kfree(set);
	return ret;
}

static int listen_any(void)
{
	struct listen_addr a = { };
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&a.ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&a.ss;
	int ret;

	sin6->sin6_family = AF_INET6;
	sin6->sin6_addr = in6addr_any;
	sin6->sin6_port = htons(port);
	ret = listener_add(&a, true);
	if (ret != -EAFNOSUPPORT)
		return ret;
	/* Booted with IPv6 disabled: IPv4 only. */
	memset(&a, 0, sizeof(a));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_ANY);
	sin->sin_port = htons(port);
	return listener_add(&a, true);
}

/* Under listen_lock, no listener left that follows the set. */
static void ifaces_drop(void)
{
	if (!ifaces)
		return;
	ksmbd_ifaces_withdraw();
	ksmbd_ifaces_free(ifaces);
	ifaces = NULL;
}

int ksmbd_listen_start(u16 p, const char *list, u32 len,
		       void (*accepted)(struct socket *sock))
{
	int ret;

	mutex_lock(&listen_lock);
	port = p;
	accepted_fn = accepted;
	if (!len) {
		ret = listen_any();
		goto out_unlock;
	}
	ifaces = ksmbd_ifaces_parse(list, len);
	if (!ifaces) {
		ret = -EINVAL;
		goto out_unlock;
	}
	ksmbd_ifaces_publish(ifaces);
	ret = follow_start();
	if (ret)
		ifaces_drop();
out_unlock:
	mutex_unlock(&listen_lock);
	return ret;
}

void ksmbd_listen_stop(void)
{
	struct listener *l, *tmp;
	bool was_following;

	mutex_lock(&listen_lock);
	was_following = following;
	WRITE_ONCE(following, false);
	mutex_unlock(&listen_lock);
	if (was_following) {
		unregister_inet6addr_notifier(&inet6_nb);
		unregister_inetaddr_notifier(&inet_nb);
		/* Not under listen_lock: the work takes it. */
		cancel_work_sync(&resync_work);
	}
	mutex_lock(&listen_lock);
	list_for_each_entry_safe(l, tmp, &listeners, list)
		listener_del(l, "stop");
	ifaces_drop();
	mutex_unlock(&listen_lock);
}

unsigned int ksmbd_listen_count(void)
{
	return READ_ONCE(nr_listeners);
}
