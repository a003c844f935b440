// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TEST/DIAGNOSTIC INTERFACE: /sys/kernel/debug/ksmbd/ipc_probe.
 *
 * Lets a test drive the request paths to the daemon before (and without)
 * the SMB engine. Root only (debugfs). Write one command:
 *   login NAME          share NAME          tree SHARE USER
 *   logout NAME         spnego              rpc
 * then read the one-line result of the last command. Secrets never appear:
 * a login result shows the hash length, not the hash.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ipc.h"

#define PROBE_CMD_MAX	160
#define PROBE_OUT_MAX	256

static DEFINE_MUTEX(probe_lock);
static char probe_result[PROBE_OUT_MAX] = "none\n";
static struct dentry *probe_dir;
static bool probe_dir_ours;
static struct dentry *probe_file;

static void probe_set(const char *fmt, ...) __printf(1, 2);
static void probe_set(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(probe_result, sizeof(probe_result), fmt, ap);
	va_end(ap);
}

static void probe_login(const char *name)
{
	struct ksmbd_login_response *r = ksmbd_ipc_login(name, 0);

	if (IS_ERR(r)) {
		probe_set("login %s: error %ld\n", name, PTR_ERR(r));
		return;
	}
	probe_set("login %s: %s status=0x%x uid=%u gid=%u hash_sz=%u groups=%u\n",
		  name, (r->status & KSMBD_USER_FLAG_OK) ? "ok" : "refused",
		  r->status, r->uid, r->gid, r->hash_sz, r->ngroups);
	ksmbd_ipc_free_sensitive(r, sizeof(*r));
}

static void probe_share(const char *name)
{
	struct ksmbd_share_config_response *r = ksmbd_ipc_share_config(name);
	const char *path;

	if (IS_ERR(r)) {
		probe_set("share %s: error %ld\n", name, PTR_ERR(r));
		return;
	}
	if (r->flags == KSMBD_SHARE_FLAG_INVALID) {
		probe_set("share %s: invalid\n", name);
	} else {
		/* Validated: path_sz is 0 or counts a NUL at its end. */
		path = r->path_sz ? (const char *)r->payload + r->veto_list_sz : "";
		probe_set("share %s: flags=0x%x path=%s veto_sz=%u create_mask=%o\n",
			  name, r->flags, path, r->veto_list_sz, r->create_mask);
	}
	kvfree(r);
}

static void probe_tree(const char *share, const char *user)
{
	struct ksmbd_tree_connect_response *r;

	r = ksmbd_ipc_tree_connect(1, user, KSMBD_USER_FLAG_OK, share,
				   "127.0.0.1", 1,
				   KSMBD_TREE_CONN_FLAG_REQUEST_SMB2);
	if (IS_ERR(r)) {
		probe_set("tree %s %s: error %ld\n", share, user, PTR_ERR(r));
		return;
	}
	probe_set("tree %s %s: status=%u flags=0x%x\n", share, user,
		  r->status, r->connection_flags);
	kvfree(r);
	/* The daemon counts trees per share: give this one back. */
	ksmbd_ipc_tree_disconnect(1, 1);
}

static void probe_spnego(void)
{
	static const u8 blob[] = { 0x60, 0x03, 0x06, 0x01, 0x00 };
	struct ksmbd_spnego_authen_response *r;

	r = ksmbd_ipc_spnego_authen(blob, sizeof(blob));
	if (IS_ERR(r)) {
		probe_set("spnego: error %ld\n", PTR_ERR(r));
		return;
	}
	probe_set("spnego: status=%u\n", r->status);
	ksmbd_ipc_free_sensitive(r, sizeof(*r) + r->session_key_len +
				 r->spnego_blob_len);
}

/* Opens and closes a srvsvc pipe: proves the pipe table round trip. */
static void probe_rpc(void)
{
	struct ksmbd_rpc_command *r;
	u32 open_status, close_status;
	int id;

	id = ksmbd_ipc_pipe_id_alloc();
	if (id < 0) {
		probe_set("rpc: error %d\n", id);
		return;
	}
	r = ksmbd_ipc_rpc_open(id, KSMBD_RPC_SRVSVC_METHOD_INVOKE, "tester");
	if (IS_ERR(r)) {
		probe_set("rpc: open error %ld\n", PTR_ERR(r));
		goto out_free_id;
	}
	open_status = r->flags;
	kvfree(r);
	r = ksmbd_ipc_rpc_close(id, KSMBD_RPC_SRVSVC_METHOD_INVOKE);
	if (IS_ERR(r)) {
		probe_set("rpc: close error %ld\n", PTR_ERR(r));
		goto out_free_id;
	}
	close_status = r->flags;
	kvfree(r);
	probe_set("rpc: open=0x%x close=0x%x\n", open_status, close_status);
out_free_id:
	ksmbd_ipc_pipe_id_free(id);
}

static int probe_run(char *cmd)
{
	char *verb, *a, *b;

	verb = strsep(&cmd, " ");
	a = strsep(&cmd, " ");
	b = strsep(&cmd, " ");
	if (!strcmp(verb, "login") && a)
		probe_login(a);
	else if (!strcmp(verb, "share") && a)
		probe_share(a);
	else if (!strcmp(verb, "tree") && a && b)
		probe_tree(a, b);
	else if (!strcmp(verb, "logout") && a)
		probe_set("logout %s: %d\n", a, ksmbd_ipc_logout(a, KSMBD_USER_FLAG_OK));
	else if (!strcmp(verb, "spnego"))
		probe_spnego();
	else if (!strcmp(verb, "rpc"))
		probe_rpc();
	else
		return -EINVAL;
	return 0;
}

static ssize_t probe_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	char cmd[PROBE_CMD_MAX];
	int ret;

	if (!len || len >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, len))
		return -EFAULT;
	cmd[len] = '\0';
	strim(cmd);
	mutex_lock(&probe_lock);
	ret = probe_run(cmd);
	mutex_unlock(&probe_lock);
	return ret ? ret : len;
}

static ssize_t probe_read(struct file *file, char __user *ubuf, size_t len,
			  loff_t *ppos)
{
	char out[PROBE_OUT_MAX];

	mutex_lock(&probe_lock);
	strscpy(out, probe_result, sizeof(out));
	mutex_unlock(&probe_lock);
	return simple_read_from_buffer(ubuf, len, ppos, out, strlen(out));
}

static const struct file_operations probe_fops = {
	.owner = THIS_MODULE,
	.read = probe_read,
	.write = probe_write,
	.llseek = default_llseek,
};

/* Debugfs is optional: failing to create the file never fails the load. */
int ksmbd_ipc_probe_init(void)
{
	probe_dir = debugfs_lookup("ksmbd", NULL);
	probe_dir_ours = false;
	if (!probe_dir) {
		probe_dir = debugfs_create_dir("ksmbd", NULL);
		probe_dir_ours = !IS_ERR(probe_dir);
	}
	if (IS_ERR_OR_NULL(probe_dir))
		return 0;
	probe_file = debugfs_create_file("ipc_probe", 0600, probe_dir, NULL,
					 &probe_fops);
	return 0;
}

void ksmbd_ipc_probe_exit(void)
{
	if (IS_ERR_OR_NULL(probe_dir))
		return;
	debugfs_remove(probe_file);
	if (probe_dir_ours)
		debugfs_remove(probe_dir);
	else
		dput(probe_dir);
	probe_dir = NULL;
	probe_file = NULL;
}
