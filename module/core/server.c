// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Server state and global configuration.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include "server.h"
#include "debug.h"

struct ksmbd_server_config ksmbd_server_conf;

static DEFINE_MUTEX(server_lock);
static enum ksmbd_server_state server_state;
static unsigned long started_at;	/* jiffies of the last start */
static const struct ksmbd_server_ops *server_ops;

static const char * const state_names[] = {
	[KSMBD_SERVER_WAITING_DAEMON] = "waiting-daemon",
	[KSMBD_SERVER_RUNNING] = "running",
	[KSMBD_SERVER_SHUTTING_DOWN] = "shutting-down",
};

static void set_defaults(struct ksmbd_server_config *c)
{
	memset(c, 0, sizeof(*c));
	c->signing = KSMBD_OPT_AUTO;
	c->min_dialect = 0x0210;
	c->max_dialect = 0x0311;
	strscpy(c->netbios_name, "KSMBD", sizeof(c->netbios_name));
	strscpy(c->work_group, "WORKGROUP", sizeof(c->work_group));
	strscpy(c->server_string, "ksmbd", sizeof(c->server_string));
	c->tcp_port = 445;
	c->ipc_timeout_s = 10;
	c->file_max = 10000;
	c->max_read = 4 << 20;
	c->max_write = 4 << 20;
	c->max_trans = 4 << 20;
	c->max_connections = 512;
	c->max_ip_connections = KSMBD_DEFAULT_IP_CONNECTIONS;
	c->max_sessions_per_conn = KSMBD_DEFAULT_SESSIONS_PER_CONN;
	c->max_open_files_per_session = KSMBD_DEFAULT_FILES_PER_SESSION;
	c->max_open_files_per_conn = KSMBD_DEFAULT_FILES_PER_CONN;
	c->max_notify_watches_per_session = KSMBD_DEFAULT_NOTIFY_PER_SESSION;
	c->max_locks_per_handle = KSMBD_DEFAULT_LOCKS_PER_HANDLE;
	c->max_locks_per_file = KSMBD_DEFAULT_LOCKS_PER_FILE;
	c->max_alloc_reservation = (u64)KSMBD_DEFAULT_ALLOC_RESERVATION_MIB << 20;
}

int ksmbd_server_init(const struct ksmbd_server_ops *ops)
{
	server_ops = ops;
	set_defaults(&ksmbd_server_conf);
	WRITE_ONCE(server_state, KSMBD_SERVER_WAITING_DAEMON);
	return 0;
}

void ksmbd_server_exit(void)
{
	mutex_lock(&server_lock);
	server_ops->stop();
	WRITE_ONCE(server_state, KSMBD_SERVER_SHUTTING_DOWN);
	mutex_unlock(&server_lock);
}

/*
 * A daemon registered again while the server runs (it was restarted): its
 * [global] replaces ours without dropping anybody. Readers take each
 * field with READ_ONCE and every value is valid under either
 * configuration; the port stays until an explicit shutdown, as the
 * listener and the connections on it stay.
 */
static void server_resync(const struct ksmbd_server_config *conf)
{
	u16 port = ksmbd_server_conf.tcp_port;

	if (conf->tcp_port && conf->tcp_port != port)
		pr_warn("tcp port %u takes effect after a shutdown (ksmbd.control --shutdown); still listening on %u\n",
			conf->tcp_port, port);
	ksmbd_server_conf = *conf;
	ksmbd_server_conf.tcp_port = port;
}

int ksmbd_server_start(const struct ksmbd_server_config *conf)
{
	int ret = 0;

	mutex_lock(&server_lock);
	if (server_state == KSMBD_SERVER_RUNNING) {
		server_resync(conf);
		ret = -EALREADY;
		goto out_unlock;
	}
	if (server_state != KSMBD_SERVER_WAITING_DAEMON) {
		ret = -EBUSY;
		goto out_unlock;
	}
	ksmbd_server_conf = *conf;
	if (!ksmbd_server_conf.tcp_port)
		ksmbd_server_conf.tcp_port = 445;
	ret = server_ops->start(ksmbd_server_conf.tcp_port);
	if (ret)
		goto out_unlock;
	started_at = jiffies;
	WRITE_ONCE(server_state, KSMBD_SERVER_RUNNING);
	pr_info("server started by the daemon: netbios name %s, port %u\n",
		conf->netbios_name, conf->tcp_port);
out_unlock:
	mutex_unlock(&server_lock);
	return ret;
}

void ksmbd_server_reset(const char *why)
{
	mutex_lock(&server_lock);
	if (server_state == KSMBD_SERVER_RUNNING) {
		server_ops->stop();
		WRITE_ONCE(server_state, KSMBD_SERVER_WAITING_DAEMON);
		pr_info("server stopped (%s); waiting for the daemon\n", why);
	}
	mutex_unlock(&server_lock);
}

enum ksmbd_server_state ksmbd_server_state(void)
{
	return READ_ONCE(server_state);
}

const char *ksmbd_server_state_name(void)
{
	return state_names[ksmbd_server_state()];
}

bool ksmbd_server_running(void)
{
	return ksmbd_server_state() == KSMBD_SERVER_RUNNING;
}

u64 ksmbd_server_uptime_s(void)
{
	if (!ksmbd_server_running())
		return 0;
	return jiffies_to_msecs(jiffies - READ_ONCE(started_at)) / 1000;
}
