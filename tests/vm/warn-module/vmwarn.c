// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test-only module for the harness self-test: its init triggers a WARN, which
 * with panic_on_warn=1 must make tests/vm/run report a failure. Never part of
 * ksmbd.ko.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init vmwarn_init(void)
{
	WARN(1, "vmwarn: deliberate warning for the harness self-test\n");
	return 0;
}

static void __exit vmwarn_exit(void)
{
}

module_init(vmwarn_init);
module_exit(vmwarn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tests/vm harness self-test: WARN at load");
