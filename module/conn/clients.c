// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/fs/ksmbd/clients: who is connected now, idle clients included, as
 * smbstatus shows it (ksmbdtop lists its rows from here). Root only: it
 * names users and their addresses.
 *
 *   conn ID ADDRESS dialect=0xNNNN age_s=N idle_s=N requests=N
 *   sess 0xSESSIONID CONN_ID STATE user=NAME signing=0|1 encryption=0|1 trees=N channels=IDS
 *
 * One conn line per connection from its accept on (dialect 0 until it has
 * negotiated; IPv4 peers of the dual-stack listener as a.b.c.d), then one
 * sess line per session not yet ended: STATE is setup while the logon is
 * under way (no user yet) and valid after it; CONN_ID is the connection
 * the session was set up on, IDS the connections bound to it as channels
 * and still open (comma-separated; - for none). Bytes of NAME below 0x21, 0x7f and the
 * backslash are written as \xHH; UTF-8 passes through.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/in6.h>
#include <linux/jiffies.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/ipv6.h>
#include "clients.h"
#include "connection.h"
#include "session.h"

static struct proc_dir_entry *proc_dir;

static void show_addr(struct seq_file *m, const struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET6 && ipv6_addr_v4mapped(&s6->sin6_addr))
		seq_printf(m, "%pI4", &s6->sin6_addr.s6_addr32[3]);
	else if (ss->ss_family == AF_INET || ss->ss_family == AF_INET6)
		seq_printf(m, "%pISc", ss);
	else
		seq_puts(m, "-");
}

static unsigned long secs_since(unsigned long then)
{
	return jiffies_to_msecs(jiffies - then) / MSEC_PER_SEC;
}

static void show_conn(struct ksmbd_conn *conn, void *arg)
{
	struct seq_file *m = arg;
	u16 dialect = ksmbd_conn_negotiated(conn) ? conn->neg.dialect : 0;

	seq_printf(m, "conn %llu ", conn->id);
	show_addr(m, &conn->peer);
	seq_printf(m, " dialect=0x%04x age_s=%lu idle_s=%lu requests=%lld\n",
		   dialect, secs_since(conn->accepted_at),
		   secs_since(READ_ONCE(conn->last_rx)),
		   atomic64_read(&conn->nr_requests));
}

static void show_name(struct seq_file *m, const char *name, size_t max)
{
	size_t i;

	for (i = 0; i < max && name[i]; i++) {
		unsigned char c = name[i];

		if (c <= ' ' || c == 0x7f || c == '\\')
			seq_printf(m, "\\x%02x", c);
		else
			seq_putc(m, c);
	}
}

static void show_channels(struct seq_file *m, struct ksmbd_session *sess)
{
	struct ksmbd_channel *ch;
	bool any = false;

	seq_puts(m, " channels=");
	spin_lock(&sess->chan_lock);
	list_for_each_entry(ch, &sess->channels, node) {
		if (!ch->bound || ch->gone)
			continue;
		seq_printf(m, "%s%llu", any ? "," : "", ch->conn->id);
		any = true;
	}
	spin_unlock(&sess->chan_lock);
	if (!any)
		seq_putc(m, '-');
}

/* Under the session table's lock: the state and a VALID user are fixed. */
static void show_session(struct ksmbd_session *sess, void *arg)
{
	struct seq_file *m = arg;
	enum ksmbd_session_state st = smp_load_acquire(&sess->state);
	bool valid = st == KSMBD_SESS_VALID;

	if (st == KSMBD_SESS_EXPIRED)
		return;
	seq_printf(m, "sess 0x%016llx %llu %s user=", sess->id, sess->conn->id,
		   valid ? "valid" : "setup");
	if (valid)
		show_name(m, sess->account, sizeof(sess->account));
	seq_printf(m, " signing=%d encryption=%d trees=%u",
		   valid && sess->signing_required,
		   valid && ksmbd_sess_encrypts(&sess->crypto),
		   READ_ONCE(sess->nr_trees));
	show_channels(m, sess);
	seq_putc(m, '\n');
}

static int clients_show(struct seq_file *m, void *v)
{
	ksmbd_conn_for_each(show_conn, m);
	ksmbd_session_for_each(show_session, m);
	return 0;
}

int ksmbd_clients_init(void)
{
	proc_dir = proc_mkdir("fs/ksmbd", NULL);
	if (!proc_dir)
		return -ENOMEM;
	if (!proc_create_single("clients", 0400, proc_dir, clients_show)) {
		proc_remove(proc_dir);
		proc_dir = NULL;
		return -ENOMEM;
	}
	return 0;
}

void ksmbd_clients_exit(void)
{
	proc_remove(proc_dir);
	proc_dir = NULL;
}
