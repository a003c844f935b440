// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksmbd: an SMB3 file server in the kernel. Module entry and exit: each
 * subsystem's init is called in order, and exit undoes them in reverse.
 * Above every layer: it names each one's init and registers the calls
 * that go upward (the server's start and stop).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <crypto/aead.h>
#include <crypto/hash.h>
#include <linux/module.h>
#include "async.h"
#include "bufpool.h"
#include "clients.h"
#include "connection.h"
#include "control.h"
#include "durable.h"
#include "file.h"
#include "ipc.h"
#include "lock.h"
#include "oplock.h"
#include "server.h"
#include "session.h"
#include "share.h"
#include "smb2_dispatch.h"
#include "smb2_notify.h"
#include "smb2_transform.h"
#include "stats.h"
#include "transport_tcp.h"
#include "tree.h"
#include "vfs.h"
#include "work.h"

/*
 * Instantiate every algorithm the protocol paths allocate by name, so
 * that the crypto modules (sha512, cmac, gcm, ccm are modules in distro
 * kernels) are loaded and self-tested now: otherwise the first NEGOTIATE,
 * signed SESSION_SETUP or encrypted frame waits for a modprobe through
 * the usermode helper, which under load took longer than the client's
 * timeout. A missing one is only reported; its dialect or cipher fails later.
 */
static void __init ksmbd_crypto_preload(void)
{
	static const char * const hashes[] = {
		"sha512", "hmac(sha256)", "cmac(aes)", "hmac(md5)", "md5",
	};
	static const struct { const char *name; u32 mask; } aeads[] = {
		{ "gcm(aes)", 0 },
		{ "gcm(aes)", CRYPTO_ALG_ASYNC },	/* GMAC signing */
		{ "ccm(aes)", 0 },
	};
	struct crypto_shash *sh;
	struct crypto_aead *ae;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hashes); i++) {
		sh = crypto_alloc_shash(hashes[i], 0, 0);
		if (IS_ERR(sh))
			pr_info("%s is not available: %ld\n", hashes[i],
				PTR_ERR(sh));
		else
			crypto_free_shash(sh);
	}
	for (i = 0; i < ARRAY_SIZE(aeads); i++) {
		ae = crypto_alloc_aead(aeads[i].name, 0, aeads[i].mask);
		if (IS_ERR(ae))
			pr_info("%s is not available: %ld\n", aeads[i].name,
				PTR_ERR(ae));
		else
			crypto_free_aead(ae);
	}
}

/* Serving: the transport, with the durable handles' scavenger. */
static int serve_start(u16 port)
{
	int ret = ksmbd_tcp_start(port);

	if (!ret)
		ksmbd_durable_start();
	return ret;
}

static void serve_stop(void)
{
	if (!ksmbd_tcp_stop_listening())
		return;
	/* Keep no durable handle: they would hold connections. */
	ksmbd_durable_stop();
	ksmbd_tcp_drop_all();
	ksmbd_durable_stop();	/* the scavenger's last work, if any */
}

static const struct ksmbd_server_ops serve_ops = {
	.start = serve_start,
	.stop = serve_stop,
};

/*
 * Requests pending on a closed connection go first, then its sessions;
 * the handles of sessions that live on through another channel have
 * their breaks sent there.
 */
static void conn_closed(struct ksmbd_conn *conn)
{
	ksmbd_async_conn_closed(conn);
	if (ksmbd_session_conn_closed(conn))
		ksmbd_oplock_conn_closed(conn);
}

static const struct ksmbd_conn_ops conn_ops = {
	.closed = conn_closed,
	.freed = ksmbd_conn_crypto_free,
};

/*
 * Serving stops before the daemon's channel closes: connection, session
 * and tree teardown may still talk to the daemon. Whoever started the
 * server (the daemon, or autostart), its exit stops it.
 */
static int __init serve_init(void)
{
	return ksmbd_tcp_init();
}

static void serve_exit(void)
{
	ksmbd_server_exit();
}

/*
 * Sessions and shares live in tables that need no setup; their exits only
 * check that serving left nothing in them.
 */
static void tables_exit(void)
{
	ksmbd_session_exit();
	ksmbd_share_exit();
}

static const struct ksmbd_file_store file_store = {
	.remove_file = ksmbd_vfs_remove_file,
	.remove = ksmbd_vfs_remove,
};

/* A tree's and a session's files go with them (the file table). */
static const struct ksmbd_tree_hooks tree_hooks = {
	.close_files = ksmbd_file_close_tree,
};

static const struct ksmbd_session_hooks session_hooks = {
	.close_files = ksmbd_file_close_session,
	.auth_free = ksmbd_auth_state_free,
};

/*
 * What goes with a handle, in this order: its blocking locks, its
 * CHANGE_NOTIFY requests (and a deleted directory's watches), its oplock
 * or lease; once closed, its directory's leases break when it changed an
 * entry. The break engine sends through the SMB2 layer. Nothing to
 * undo: the hooks are static.
 */
static void __init objects_init(void)
{
	ksmbd_file_hooks_register(&ksmbd_lock_file_hooks);
	ksmbd_file_hooks_register(&ksmbd_notify_file_hooks);
	ksmbd_file_hooks_register(&ksmbd_oplock_file_hooks);
	ksmbd_file_hooks_register(&ksmbd_dirlease_file_hooks);
	ksmbd_oplock_wire_register(&ksmbd_smb2_oplock_wire);
	ksmbd_tree_hooks_register(&tree_hooks);
	ksmbd_session_hooks_register(&session_hooks);
	ksmbd_file_store_register(&file_store);
	ksmbd_file_durable_policy(&ksmbd_durable_policy);
}

/* Each step's exit is in ksmbd_exit() in the reverse order. */
static int __init ksmbd_init(void)
{
	int ret;

	ksmbd_crypto_preload();
	ksmbd_conn_ops_register(&conn_ops);
	objects_init();
	ret = ksmbd_bufpool_init();
	if (ret)
		return ret;
	ret = ksmbd_notify_init();
	if (ret)
		goto err_bufpool_exit;
	ret = ksmbd_work_init(ksmbd_smb2_process, ksmbd_file_read_cached);
	if (ret)
		goto err_notify_exit;
	ret = ksmbd_smb2_negotiate_init();
	if (ret)
		goto err_work_exit;
	ret = ksmbd_server_init(&serve_ops);
	if (ret)
		goto err_work_exit;
	ret = ksmbd_control_init();
	if (ret)
		goto err_work_exit;
	ret = ksmbd_ipc_init();
	if (ret)
		goto err_control_exit;
	ret = serve_init();
	if (ret)
		goto err_ipc_exit;
	/* Last: removing the listing waits for its readers, so it goes first. */
	ret = ksmbd_clients_init();
	if (ret)
		goto err_serve_exit;
	pr_info("version %s loaded\n", KSMBD_VERSION);
	return 0;

err_serve_exit:
	serve_exit();
err_ipc_exit:
	ksmbd_ipc_exit();
err_control_exit:
	ksmbd_control_exit();
err_work_exit:
	ksmbd_work_exit();
err_notify_exit:
	ksmbd_notify_exit();
err_bufpool_exit:
	ksmbd_bufpool_exit();
	tables_exit();
	return ret;
}

static void __exit ksmbd_exit(void)
{
	ksmbd_clients_exit();
	serve_exit();
	ksmbd_ipc_exit();
	ksmbd_control_exit();
	/* Drains the ksmbd-io workqueue: every work and release has run. */
	ksmbd_work_exit();
	ksmbd_dirlease_exit();
	ksmbd_notify_exit();
	ksmbd_bufpool_exit();
	tables_exit();
	if (ksmbd_stats_live_sum())
		pr_err("unloading with live objects left\n");
	pr_info("unloaded\n");
}

module_init(ksmbd_init);
module_exit(ksmbd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SMB3 kernel server");
MODULE_VERSION(KSMBD_VERSION);
