// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Generic netlink transport to the daemon: the family, which daemon we
 * listen to, heartbeats, and matching answers to waiting requests.
 *
 * Lifetime of a waiting request (struct ipc_wait): it is created by the
 * waiter, published in ipc_waits under ipc_lock, and only ever touched by
 * others (an answer arriving, the daemon leaving, module unload) while they
 * hold ipc_lock and find it in ipc_waits. The waiter removes it from
 * ipc_waits under ipc_lock before freeing it, so an answer racing the
 * timeout either lands before the removal (the waiter takes it) or finds
 * nothing (it is dropped). Handles come from a cyclic allocator and the
 * answer's event must be the request's + 1, so a late answer can neither
 * reach a newer request nor one of another kind.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "debug.h"
#include "ksmbd_trace.h"
#include "ipc.h"
#include "ipc_internal.h"
#include "ipc_validate.h"
#include "server.h"
#include "stats.h"

#define IPC_DEFAULT_WAIT_S	5

struct ipc_wait {
	u32 handle;
	unsigned int resp_type;
	size_t max_resp;
	void *resp;		/* set once, under ipc_lock */
	size_t resp_len;
	int error;		/* why we were woken without an answer */
	struct completion done;
};

/* The registered daemon; every field under ipc_lock. */
struct ipc_daemon {
	u32 portid;		/* 0: none */
	pid_t pid;
	bool lost;		/* silent longer than timeout_s */
	unsigned long last_seen;
	unsigned int timeout_s;	/* 0: no heartbeat check */
	u32 heartbeats;
};

static DEFINE_MUTEX(ipc_lock);
/* Woken when a daemon registers, and at unload. */
static DECLARE_WAIT_QUEUE_HEAD(ipc_daemon_wq);
static DEFINE_XARRAY_ALLOC1(ipc_waits);
static u32 ipc_next_handle;
static struct ipc_daemon ipc_daemon;
static bool ipc_closing;

/* Read without the lock by the netlink notifier, which must not sleep. */
static u32 ipc_daemon_port;
static u32 ipc_released_port;

static void ipc_heartbeat_fn(struct work_struct *work);
static void ipc_release_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(ipc_heartbeat_work, ipc_heartbeat_fn);
static DECLARE_WORK(ipc_release_work, ipc_release_fn);

static struct genl_family ksmbd_genl_family;

static int ipc_send(u32 portid, unsigned int type, const void *data,
		    size_t len)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = genlmsg_new(nla_total_size(len), GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put(skb, 0, 0, &ksmbd_genl_family, 0, type);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto err_free_skb;
	}
	ret = nla_put(skb, type, len, data);
	if (ret)
		goto err_free_skb;
	genlmsg_end(skb, hdr);
	/* genlmsg_unicast consumes the skb, success or not. */
	return genlmsg_unicast(&init_net, skb, portid);

err_free_skb:
	nlmsg_free(skb);
	return ret;
}

/* Wakes every waiter that has no answer yet; under ipc_lock. */
static void ipc_fail_waiters(int error)
{
	struct ipc_wait *w;
	unsigned long id;

	lockdep_assert_held(&ipc_lock);
	xa_for_each(&ipc_waits, id, w) {
		if (w->resp || w->error)
			continue;
		w->error = error;
		complete(&w->done);
	}
}

static unsigned long ipc_wait_jiffies(void)
{
	unsigned int s = ipc_daemon.timeout_s;

	return (s ? s : IPC_DEFAULT_WAIT_S) * HZ;
}

/*
 * No daemon is registered (it crashed or is restarting): a request waits
 * the ipc timeout for one, instead of failing a logon in the moment a
 * restarted daemon takes to come back. A lost (silent) daemon is not
 * waited for: it is registered, and it failed its heartbeat already.
 */
static void ipc_wait_for_daemon(void)
{
	unsigned int s = READ_ONCE(ksmbd_server_conf.ipc_timeout_s);

	if (READ_ONCE(ipc_daemon_port) || !ksmbd_server_running())
		return;
	wait_event_killable_timeout(ipc_daemon_wq,
				    READ_ONCE(ipc_daemon_port) ||
				    READ_ONCE(ipc_closing),
				    (s ? s : IPC_DEFAULT_WAIT_S) * HZ);
}

void *ksmbd_ipc_transact(unsigned int type, void *req, size_t req_len,
			 size_t max_resp, size_t *resp_len)
{
	struct ipc_wait *w;
	unsigned long wait;
	u32 w_handle;
	u64 sent_ns;
	u32 portid;
	void *resp;
	long left;
	int ret;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return ERR_PTR(-ENOMEM);
	init_completion(&w->done);
	w->resp_type = type + 1;
	w->max_resp = max_resp;

	ipc_wait_for_daemon();
	mutex_lock(&ipc_lock);
	ret = -ESHUTDOWN;
	if (ipc_closing)
		goto err_unlock;
	ret = -ENOTCONN;
	portid = ipc_daemon.portid;
	if (!portid || ipc_daemon.lost)
		goto err_unlock;
	wait = ipc_wait_jiffies();
	ret = xa_alloc_cyclic(&ipc_waits, &w->handle, w, xa_limit_32b,
			      &ipc_next_handle, GFP_KERNEL);
	if (ret < 0)
		goto err_unlock;
	mutex_unlock(&ipc_lock);
	ksmbd_live_inc(KSMBD_LIVE_IPC_REQUESTS);

	*(__u32 *)req = w->handle;
	ksmbd_debug(IPC, "send %s handle %u\n", ksmbd_ipc_event_name(type),
		    w->handle);
	trace_ksmbd_ipc_request(type, w->handle, req_len, 0, 0);
	sent_ns = ktime_get_ns();
	ret = ipc_send(portid, type, req, req_len);
	if (!ret) {
		left = wait_for_completion_killable_timeout(&w->done, wait);
		ret = left > 0 ? 0 : left < 0 ? -EINTR : -ETIMEDOUT;
	}

	mutex_lock(&ipc_lock);
	xa_erase(&ipc_waits, w->handle);
	resp = w->resp;
	*resp_len = w->resp_len;
	if (!resp && w->error)
		ret = w->error;
	mutex_unlock(&ipc_lock);
	trace_ksmbd_ipc_response(type, w->handle, resp ? *resp_len : 0,
				 resp ? 0 : ret, ktime_get_ns() - sent_ns);
	ksmbd_live_dec(KSMBD_LIVE_IPC_REQUESTS);
	w_handle = w->handle;
	kfree(w);
	if (resp)
		return resp;
	if (ret == -ETIMEDOUT)
		/* The request fails with it; say why a client waited so long. */
		pr_warn_ratelimited("the daemon did not answer %s (handle %u) within %lu s\n",
				    ksmbd_ipc_event_name(type), w_handle,
				    wait / HZ);
	ksmbd_debug(IPC, "%s failed: %d\n", ksmbd_ipc_event_name(type), ret);
	return ERR_PTR(ret);

err_unlock:
	mutex_unlock(&ipc_lock);
	kfree(w);
	return ERR_PTR(ret);
}

int ksmbd_ipc_notify(unsigned int type, const void *msg, size_t len)
{
	u32 portid;

	mutex_lock(&ipc_lock);
	portid = ipc_closing || ipc_daemon.lost ? 0 : ipc_daemon.portid;
	mutex_unlock(&ipc_lock);
	if (!portid)
		return -ENOTCONN;
	return ipc_send(portid, type, msg, len);
}

bool ksmbd_ipc_daemon_alive(void)
{
	bool alive;

	mutex_lock(&ipc_lock);
	alive = ipc_daemon.portid && !ipc_daemon.lost;
	mutex_unlock(&ipc_lock);
	return alive;
}

/* An answer from the daemon: hand it to its waiter or drop it. */
static void ipc_deliver(unsigned int type, const void *data, size_t len)
{
	const char *drop = NULL;
	struct ipc_wait *w;
	void *copy;
	u32 handle;

	/* Every answer starts with its handle; the validator checked len. */
	memcpy(&handle, data, sizeof(handle));
	copy = kvmalloc(len, GFP_KERNEL);
	if (!copy)
		return;
	memcpy(copy, data, len);

	mutex_lock(&ipc_lock);
	w = xa_load(&ipc_waits, handle);
	if (!w)
		drop = "no request waits for this handle";
	else if (w->resp_type != type)
		drop = "the waiting request expects another event";
	else if (len > w->max_resp)
		drop = "larger than the request allows";
	else if (w->resp || w->error)
		drop = "the request is already answered";
	if (!drop) {
		w->resp = copy;
		w->resp_len = len;
		copy = NULL;
		complete(&w->done);
	}
	mutex_unlock(&ipc_lock);

	if (drop)
		pr_warn_ratelimited("dropped %s for handle %u: %s\n",
				    ksmbd_ipc_event_name(type), handle, drop);
	kvfree(copy);
}

/*
 * Forgets the daemon if it is still @portid. The server keeps serving:
 * established sessions need the daemon only for new tree connects and
 * pipes, and a restarted daemon registers again (ipc_wait_for_daemon()
 * holds new logons meanwhile). Only an explicit shutdown (kill_server,
 * ksmbd.control --shutdown) or unload stops the server.
 */
static void ipc_daemon_gone(u32 portid, const char *why)
{
	pid_t pid;

	mutex_lock(&ipc_lock);
	if (!portid || ipc_daemon.portid != portid) {
		mutex_unlock(&ipc_lock);
		return;
	}
	pid = ipc_daemon.pid;
	memset(&ipc_daemon, 0, sizeof(ipc_daemon));
	WRITE_ONCE(ipc_daemon_port, 0);
	ipc_fail_waiters(-ECONNRESET);
	mutex_unlock(&ipc_lock);

	ksmbd_total_add(KSMBD_TOTAL_DAEMON_GONE, 1);
	if (ksmbd_server_running())
		pr_info("daemon (pid %d) is gone: %s; serving connected clients, new logons wait for a daemon\n",
			pid, why);
	else
		pr_info("daemon (pid %d) is gone: %s\n", pid, why);
}

pid_t ksmbd_ipc_daemon_pid(void)
{
	pid_t pid;

	mutex_lock(&ipc_lock);
	pid = ipc_daemon.portid ? ipc_daemon.pid : 0;
	mutex_unlock(&ipc_lock);
	return pid;
}

/* Any message from the registered daemon is a sign of life. */
static void ipc_daemon_seen(void)
{
	bool revived;
	pid_t pid;

	mutex_lock(&ipc_lock);
	ipc_daemon.last_seen = jiffies;
	revived = ipc_daemon.lost;
	ipc_daemon.lost = false;
	pid = ipc_daemon.pid;
	mutex_unlock(&ipc_lock);
	if (revived)
		pr_info("daemon (pid %d) answers again\n", pid);
}

static void ipc_heartbeat_fn(struct work_struct *work)
{
	struct ksmbd_heartbeat hb = {};
	unsigned int timeout;
	bool now_lost = false;
	u32 portid;
	pid_t pid;

	mutex_lock(&ipc_lock);
	portid = ipc_daemon.portid;
	timeout = ipc_daemon.timeout_s;
	pid = ipc_daemon.pid;
	if (ipc_closing || !portid || !timeout) {
		mutex_unlock(&ipc_lock);
		return;
	}
	if (!ipc_daemon.lost &&
	    time_after(jiffies, ipc_daemon.last_seen + timeout * HZ)) {
		ipc_daemon.lost = true;
		now_lost = true;
		ipc_fail_waiters(-ENOTCONN);
	}
	hb.handle = ++ipc_daemon.heartbeats;
	mutex_unlock(&ipc_lock);

	if (now_lost)
		pr_warn("daemon (pid %d) silent for more than %us: lost; new logins fail until it answers\n",
			pid, timeout);
	if (ipc_send(portid, KSMBD_EVENT_HEARTBEAT_REQUEST, &hb, sizeof(hb)) ==
	    -ECONNREFUSED) {
		ipc_daemon_gone(portid, "its netlink socket is closed");
		return;
	}
	schedule_delayed_work(&ipc_heartbeat_work, max(timeout * HZ / 2, 1U * HZ));
}

static void ipc_release_fn(struct work_struct *work)
{
	ipc_daemon_gone(xchg(&ipc_released_port, 0),
			"daemon exited (netlink socket closed)");
}

/*
 * Every netlink socket closing in the system passes here; only the
 * daemon's matters. Its release is handled in a work item so that this
 * callback never sleeps, whatever context netlink calls it from.
 */
static int ipc_netlink_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct netlink_notify *n = ptr;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !net_eq(n->net, &init_net))
		return NOTIFY_DONE;
	if (!n->portid || n->portid != READ_ONCE(ipc_daemon_port))
		return NOTIFY_DONE;
	WRITE_ONCE(ipc_released_port, n->portid);
	schedule_work(&ipc_release_work);
	return NOTIFY_DONE;
}

static struct notifier_block ipc_netlink_notifier = {
	.notifier_call = ipc_netlink_event,
};

static void ipc_startup_reply(u32 portid, int status)
{
	struct ksmbd_startup_response r = {
		.abi_magic = KSMBD_ABI_MAGIC,
		.abi_version = KSMBD_ABI_VERSION,
		.status = status,
	};

	ipc_send(portid, KSMBD_EVENT_STARTING_UP_RESPONSE, &r, sizeof(r));
}

static void ipc_config_from_startup(struct ksmbd_server_config *c,
				    const struct ksmbd_startup_request *r)
{
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(c->ciphers) != KSMBD_MAX_ALGS);
	BUILD_BUG_ON(ARRAY_SIZE(c->signing_algs) != KSMBD_MAX_ALGS);
	memset(c, 0, sizeof(*c));
	c->flags = r->flags;
	c->signing = r->signing;
	c->min_dialect = r->min_dialect;
	c->max_dialect = r->max_dialect;
	strscpy(c->netbios_name, r->netbios_name, sizeof(c->netbios_name));
	strscpy(c->work_group, r->work_group, sizeof(c->work_group));
	strscpy(c->server_string, r->server_string, sizeof(c->server_string));
	c->tcp_port = r->tcp_port;
	c->ipc_timeout_s = r->ipc_timeout;
	c->deadtime_s = r->deadtime * 60;
	c->file_max = r->file_max;
	c->max_read = r->smb2_max_read;
	c->max_write = r->smb2_max_write;
	c->max_trans = r->smb2_max_trans;
	c->fake_fscaps = r->share_fake_fscaps;
	memcpy(c->sub_auth, r->sub_auth, sizeof(c->sub_auth));
	c->max_connections = r->max_connections;
	c->max_sessions_per_conn = r->max_sessions_per_conn ?:
				   KSMBD_DEFAULT_SESSIONS_PER_CONN;
	c->max_ip_connections = r->max_ip_connections ?:
				KSMBD_DEFAULT_IP_CONNECTIONS;
	c->oplock_break_timeout_s = r->oplock_break_timeout;
	c->max_open_files_per_session = r->max_open_files_per_session ?:
					KSMBD_DEFAULT_FILES_PER_SESSION;
	c->max_open_files_per_conn = r->max_open_files_per_conn ?:
				     KSMBD_DEFAULT_FILES_PER_CONN;
	c->max_notify_watches_per_session = r->max_notify_watches_per_session ?:
					    KSMBD_DEFAULT_NOTIFY_PER_SESSION;
	c->max_locks_per_handle = r->max_locks_per_handle ?:
				  KSMBD_DEFAULT_LOCKS_PER_HANDLE;
	c->max_locks_per_file = r->max_locks_per_file ?:
				KSMBD_DEFAULT_LOCKS_PER_FILE;
	c->max_alloc_reservation = (u64)r->max_alloc_reservation_mib << 20;
	/* The validator bounded the counts and the ids. */
	c->nr_ciphers = r->nr_ciphers;
	c->nr_signing_algs = r->nr_signing_algs;
	for (i = 0; i < r->nr_ciphers; i++)
		c->ciphers[i] = r->ciphers[i];
	for (i = 0; i < r->nr_signing_algs; i++)
		c->signing_algs[i] = r->signing_algs[i];
	/* The validator bounded ifc_list_sz by KSMBD_IFC_LIST_MAX. */
	BUILD_BUG_ON(KSMBD_IFC_LIST_MAX > KSMBD_IFACES_MAX_LEN);
	memcpy(c->interfaces, r->payload, r->ifc_list_sz);
	c->interfaces_len = r->ifc_list_sz;
}

/* Registers @portid as the daemon unless a live one holds the place. */
static int ipc_daemon_register(u32 portid, pid_t pid, unsigned int timeout,
			       pid_t *holder)
{
	int ret = 0;

	mutex_lock(&ipc_lock);
	if (ipc_closing) {
		ret = -ESHUTDOWN;
	} else if (ipc_daemon.portid && ipc_daemon.portid != portid &&
		   !ipc_daemon.lost) {
		*holder = ipc_daemon.pid;
		ret = -EBUSY;
	} else {
		/* A lost daemon's waiters will not be answered by the new one. */
		if (ipc_daemon.portid != portid)
			ipc_fail_waiters(-ECONNRESET);
		ipc_daemon.portid = portid;
		ipc_daemon.pid = pid;
		ipc_daemon.lost = false;
		ipc_daemon.last_seen = jiffies;
		ipc_daemon.timeout_s = timeout;
		WRITE_ONCE(ipc_daemon_port, portid);
		if (timeout)
			mod_delayed_work(system_wq, &ipc_heartbeat_work,
					 max(timeout * HZ / 2, 1U * HZ));
	}
	mutex_unlock(&ipc_lock);
	if (!ret)
		wake_up_all(&ipc_daemon_wq);
	return ret;
}

static int ipc_handle_startup(u32 portid, const void *data, size_t len)
{
	/* genl handlers run in the sending task: current is the daemon. */
	pid_t pid = task_tgid_vnr(current);
	struct ksmbd_server_config *conf;
	const struct ksmbd_startup_request *r = data;
	const char *why;
	pid_t holder = 0;
	int ret;

	ret = ksmbd_ipc_msg_validate(KSMBD_EVENT_STARTING_UP, data, len, &why);
	if (ret == -EPROTO) {
		pr_err("daemon (pid %d) refused: it speaks another netlink ABI (module: version %u); install the matching ksmbd.mountd\n",
		       pid, KSMBD_ABI_VERSION);
		goto out_reply;
	}
	if (ret) {
		pr_err_ratelimited("daemon (pid %d) refused: malformed starting-up (%s)\n",
				   pid, why);
		goto out_reply;
	}
	ret = ipc_daemon_register(portid, pid, r->ipc_timeout, &holder);
	if (ret == -EBUSY) {
		pr_warn_ratelimited("daemon (pid %d) refused: daemon (pid %d) is registered and alive\n",
				    pid, holder);
		goto out_reply;
	}
	if (ret)
		goto out_reply;

	conf = kmalloc(sizeof(*conf), GFP_KERNEL);
	if (!conf) {
		ret = -ENOMEM;
		goto err_unregister;
	}
	ipc_config_from_startup(conf, r);
	ret = ksmbd_server_start(conf);
	kfree(conf);
	if (ret == -EALREADY) {
		/* A restarted daemon: its [global] now rules the running server. */
		pr_info("daemon (pid %d) took over the running server; configuration reloaded\n",
			pid);
		ret = 0;
	} else if (ret) {
		goto err_unregister;
	} else {
		pr_info("daemon (pid %d) started the server: port %u\n", pid,
			r->tcp_port);
	}
	goto out_reply;

err_unregister:
	ipc_daemon_gone(portid, "server start failed");
out_reply:
	ipc_startup_reply(portid, ret);
	return ret;
}

static bool ipc_from_daemon(u32 portid)
{
	bool ok;

	mutex_lock(&ipc_lock);
	ok = portid && portid == ipc_daemon.portid;
	mutex_unlock(&ipc_lock);
	return ok;
}

static int ipc_doit(struct sk_buff *skb, struct genl_info *info)
{
	unsigned int type = info->genlhdr->cmd;
	u32 portid = info->snd_portid;
	struct nlattr *attr;
	const char *why;
	size_t len;
	void *data;
	int ret;

	if (info->genlhdr->version != KSMBD_GENL_VERSION) {
		pr_err_ratelimited("dropped %s from port %u: genl version %u, expected %u (daemon must be upgraded)\n",
				   ksmbd_ipc_event_name(type), portid,
				   info->genlhdr->version, KSMBD_GENL_VERSION);
		return -EINVAL;
	}
	attr = type < KSMBD_EVENT_MAX ? info->attrs[type] : NULL;
	if (!attr) {
		pr_warn_ratelimited("dropped %s from port %u: no attribute of its type\n",
				    ksmbd_ipc_event_name(type), portid);
		return -EINVAL;
	}
	data = nla_data(attr);
	len = nla_len(attr);
	if (type == KSMBD_EVENT_STARTING_UP)
		return ipc_handle_startup(portid, data, len);

	if (!ipc_from_daemon(portid)) {
		pr_warn_ratelimited("dropped %s from port %u: not the registered daemon\n",
				    ksmbd_ipc_event_name(type), portid);
		return -EPERM;
	}
	ipc_daemon_seen();
	ret = ksmbd_ipc_msg_validate(type, data, len, &why);
	if (ret) {
		pr_warn_ratelimited("dropped malformed %s (%zu bytes) from the daemon: %s\n",
				    ksmbd_ipc_event_name(type), len, why);
		return ret;
	}
	switch (type) {
	case KSMBD_EVENT_HEARTBEAT_RESPONSE:
		break;
	case KSMBD_EVENT_SHUTTING_DOWN:
		ipc_daemon_gone(portid, "daemon shut down");
		break;
	default:
		ipc_deliver(type, data, len);
		break;
	}
	return 0;
}

/* Each D->K event's attribute is bounded by its largest valid size. */
static const struct nla_policy ipc_policy[KSMBD_EVENT_MAX] = {
	[KSMBD_EVENT_STARTING_UP] = { .type = NLA_BINARY, .len = KSMBD_IPC_STARTUP_MAX },
	[KSMBD_EVENT_SHUTTING_DOWN] = { .type = NLA_BINARY, .len = KSMBD_IPC_SHUTDOWN_MAX },
	[KSMBD_EVENT_LOGIN_RESPONSE] = { .type = NLA_BINARY, .len = KSMBD_IPC_LOGIN_MAX },
	[KSMBD_EVENT_SHARE_CONFIG_RESPONSE] = { .type = NLA_BINARY, .len = KSMBD_IPC_SHARE_MAX },
	[KSMBD_EVENT_TREE_CONNECT_RESPONSE] = { .type = NLA_BINARY, .len = KSMBD_IPC_TREE_MAX },
	[KSMBD_EVENT_RPC_RESPONSE] = { .type = NLA_BINARY, .len = KSMBD_IPC_RPC_MAX },
	[KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE] = { .type = NLA_BINARY, .len = KSMBD_IPC_SPNEGO_MAX },
	[KSMBD_EVENT_HEARTBEAT_RESPONSE] = { .type = NLA_BINARY, .len = KSMBD_IPC_HEARTBEAT_MAX },
};

#define IPC_OP(ev) { .cmd = (ev), .doit = ipc_doit, .flags = GENL_ADMIN_PERM }

static const struct genl_small_ops ipc_ops[] = {
	IPC_OP(KSMBD_EVENT_STARTING_UP),
	IPC_OP(KSMBD_EVENT_SHUTTING_DOWN),
	IPC_OP(KSMBD_EVENT_LOGIN_RESPONSE),
	IPC_OP(KSMBD_EVENT_SHARE_CONFIG_RESPONSE),
	IPC_OP(KSMBD_EVENT_TREE_CONNECT_RESPONSE),
	IPC_OP(KSMBD_EVENT_RPC_RESPONSE),
	IPC_OP(KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE),
	IPC_OP(KSMBD_EVENT_HEARTBEAT_RESPONSE),
};

static struct genl_family ksmbd_genl_family = {
	.name = KSMBD_GENL_NAME,
	.version = KSMBD_GENL_VERSION,
	.hdrsize = 0,
	.maxattr = KSMBD_EVENT_MAX - 1,
	.policy = ipc_policy,
	.netnsok = false,
	.module = THIS_MODULE,
	.small_ops = ipc_ops,
	.n_small_ops = ARRAY_SIZE(ipc_ops),
	.resv_start_op = 0,
};

int ksmbd_ipc_init(void)
{
	int ret;

	ipc_closing = false;
	ret = netlink_register_notifier(&ipc_netlink_notifier);
	if (ret)
		return ret;
	ret = genl_register_family(&ksmbd_genl_family);
	if (ret)
		goto err_unregister_notifier;
	ret = ksmbd_ipc_probe_init();
	if (ret)
		goto err_unregister_family;
	return 0;

err_unregister_family:
	genl_unregister_family(&ksmbd_genl_family);
err_unregister_notifier:
	netlink_unregister_notifier(&ipc_netlink_notifier);
	return ret;
}

/*
 * Unload: no new requests, waiters woken with -ESHUTDOWN, then every
 * source of callbacks is shut in turn (probe writers, the heartbeat, genl
 * handlers, the socket notifier) before the module text can go away.
 */
void ksmbd_ipc_exit(void)
{
	mutex_lock(&ipc_lock);
	ipc_closing = true;
	ipc_fail_waiters(-ESHUTDOWN);
	mutex_unlock(&ipc_lock);
	wake_up_all(&ipc_daemon_wq);

	ksmbd_ipc_probe_exit();
	/* With ipc_closing set, neither a handler nor the work re-arms it. */
	cancel_delayed_work_sync(&ipc_heartbeat_work);
	genl_unregister_family(&ksmbd_genl_family);
	netlink_unregister_notifier(&ipc_netlink_notifier);
	cancel_work_sync(&ipc_release_work);

	mutex_lock(&ipc_lock);
	memset(&ipc_daemon, 0, sizeof(ipc_daemon));
	WRITE_ONCE(ipc_daemon_port, 0);
	mutex_unlock(&ipc_lock);
	WARN_ON(!xa_empty(&ipc_waits));
	xa_destroy(&ipc_waits);
}
