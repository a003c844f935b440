// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksmbd: an SMB3 file server in the kernel. Module entry and exit: each
 * subsystem's init is called in order, and exit undoes them in reverse.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/module.h>
#include "control.h"
#include "ipc.h"
#include "server.h"
#include "stats.h"

static int __init ksmbd_init(void)
{
	int ret;

	ret = ksmbd_server_init();
	if (ret)
		return ret;
	ret = ksmbd_control_init();
	if (ret)
		goto err_server_exit;
	ret = ksmbd_ipc_init();
	if (ret)
		goto err_control_exit;
	pr_info("version %s loaded\n", KSMBD_VERSION);
	return 0;

err_control_exit:
	ksmbd_control_exit();
err_server_exit:
	ksmbd_server_exit();
	return ret;
}

static void __exit ksmbd_exit(void)
{
	ksmbd_ipc_exit();
	ksmbd_control_exit();
	ksmbd_server_exit();
	if (ksmbd_stats_live_sum())
		pr_err("unloading with live objects left\n");
	pr_info("unloaded\n");
}

module_init(ksmbd_init);
module_exit(ksmbd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SMB3 kernel server");
MODULE_VERSION(KSMBD_VERSION);
