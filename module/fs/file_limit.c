// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How many handles may be open (file.h, "Bounds"): the server's "max open
 * files", and per session and per connection, so that one client cannot
 * take every slot of the server.
 *
 * A handle is charged when it is made (before CREATE touches the disk,
 * before a pipe is asked of the daemon) and gives its slots back when it
 * leaves the file table, or at its last put when it never entered it.
 * Each slot is given back once: the server's is a bit of fp->slots, the
 * session's and connection's are fp->charged, both taken with an atomic
 * exchange by whoever gives them back.
 *
 * fp->charged is not a counted reference: the handle's tree holds that
 * session (and the session its connection) for as long as the charge
 * stands; a reconnect charges the reconnecting request's session, which
 * the request holds until the handle takes that session's tree.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include "caller.h"
#include "connection.h"
#include "file.h"
#include "server.h"
#include "session.h"
#include "stats.h"

/* Without a configured "max open files": this many handles server-wide. */
#define KSMBD_FILE_DEFAULT_MAX	65536

/* fp->slots */
enum { FILE_SLOT_SERVER };

static atomic_t nr_files;

static u32 conf_or(u32 v, u32 dflt)
{
	return v ? v : dflt;
}

/* One more of *n unless that passes max. */
static bool take(atomic_t *n, u32 max)
{
	if (atomic_inc_return(n) <= max)
		return true;
	atomic_dec(n);
	return false;
}

static int refuse(struct ksmbd_conn *via, enum ksmbd_total which,
		  const char *limit)
{
	ksmbd_total_add(which, 1);
	ksmbd_conn_note_limit(via, limit);
	return -EMFILE;
}

int ksmbd_file_charge_session(struct ksmbd_file *fp,
			      struct ksmbd_caller *caller)
{
	struct ksmbd_session *sess = caller->sess;
	struct ksmbd_conn *conn = sess->conn;
	u32 per_sess, per_conn;

	per_sess = conf_or(READ_ONCE(ksmbd_server_conf.max_open_files_per_session),
			   KSMBD_DEFAULT_FILES_PER_SESSION);
	per_conn = conf_or(READ_ONCE(ksmbd_server_conf.max_open_files_per_conn),
			   KSMBD_DEFAULT_FILES_PER_CONN);
	if (!take(&sess->nr_files, per_sess))
		return refuse(caller->conn, KSMBD_TOTAL_FILES_REFUSED_SESS,
			      "open files per session");
	if (!take(&conn->nr_files, per_conn)) {
		atomic_dec(&sess->nr_files);
		return refuse(caller->conn, KSMBD_TOTAL_FILES_REFUSED_CONN,
			      "open files per connection");
	}
	WRITE_ONCE(fp->charged, sess);
	return 0;
}

void ksmbd_file_uncharge_session(struct ksmbd_file *fp)
{
	struct ksmbd_session *sess = xchg(&fp->charged, NULL);

	if (!sess)
		return;
	atomic_dec(&sess->conn->nr_files);
	atomic_dec(&sess->nr_files);
}

int ksmbd_file_charge(struct ksmbd_file *fp, struct ksmbd_caller *caller)
{
	u32 max = conf_or(READ_ONCE(ksmbd_server_conf.file_max),
			  KSMBD_FILE_DEFAULT_MAX);
	int ret;

	ret = ksmbd_file_charge_session(fp, caller);
	if (ret)
		return ret;
	if (!take(&nr_files, max)) {
		ksmbd_file_uncharge_session(fp);
		ksmbd_conn_note_limit(caller->conn, "open files");
		return -EMFILE;
	}
	set_bit(FILE_SLOT_SERVER, &fp->slots);
	return 0;
}

void ksmbd_file_uncharge(struct ksmbd_file *fp)
{
	ksmbd_file_uncharge_session(fp);
	if (test_and_clear_bit(FILE_SLOT_SERVER, &fp->slots))
		atomic_dec(&nr_files);
}
