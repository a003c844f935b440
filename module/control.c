// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /sys/class/ksmbd-control: the administrator's handle on the module.
 *   stats        live-object counts, totals, server state (read)
 *   debug        per-component debug messages: reading lists the components
 *                with the enabled ones in brackets; writing a name toggles it,
 *                "all" toggles every component
 *   kill_server  writing "hard" (or 1) stops serving until a daemon starts
 *                the server again
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include "control.h"
#include "debug.h"
#include "server.h"
#include "stats.h"
#include "stats_show.h"

unsigned int ksmbd_debug_mask;

static const char * const debug_names[KSMBD_DEBUG_NR_COMPONENTS] = {
#define X(id, name) [KSMBD_DEBUG_BIT_##id] = name,
	KSMBD_DEBUG_COMPONENTS(X)
#undef X
};

static ssize_t stats_show(struct class *class,
			  struct class_attribute *attr, char *buf)
{
	return ksmbd_stats_show(buf, PAGE_SIZE);
}

static ssize_t debug_show(struct class *class,
			  struct class_attribute *attr, char *buf)
{
	unsigned int mask = READ_ONCE(ksmbd_debug_mask);
	int i, n = 0;

	for (i = 0; i < KSMBD_DEBUG_NR_COMPONENTS; i++) {
		const char *fmt = (mask & (1U << i)) ? "[%s]" : "%s";

		if (i)
			n += sysfs_emit_at(buf, n, " ");
		n += sysfs_emit_at(buf, n, fmt, debug_names[i]);
	}
	n += sysfs_emit_at(buf, n, "\n");
	return n;
}

static ssize_t debug_store(struct class *class,
			   struct class_attribute *attr,
			   const char *buf, size_t len)
{
	char word[16];
	int i;

	if (!len || len >= sizeof(word))
		return -EINVAL;
	strscpy(word, buf, sizeof(word));
	strim(word);
	if (!strcmp(word, "all")) {
		/* all on unless everything is already on */
		if (READ_ONCE(ksmbd_debug_mask) == KSMBD_DEBUG_ALL)
			WRITE_ONCE(ksmbd_debug_mask, 0);
		else
			WRITE_ONCE(ksmbd_debug_mask, KSMBD_DEBUG_ALL);
		return len;
	}
	for (i = 0; i < KSMBD_DEBUG_NR_COMPONENTS; i++) {
		if (!strcmp(word, debug_names[i])) {
			WRITE_ONCE(ksmbd_debug_mask,
				   READ_ONCE(ksmbd_debug_mask) ^ (1U << i));
			return len;
		}
	}
	return -EINVAL;
}

static ssize_t kill_server_store(struct class *class,
				 struct class_attribute *attr,
				 const char *buf, size_t len)
{
	if (!sysfs_streq(buf, "hard") && !sysfs_streq(buf, "1"))
		return -EINVAL;
	ksmbd_server_reset("kill_server");
	return len;
}

static CLASS_ATTR_RO(stats);
static CLASS_ATTR_RW(debug);
static CLASS_ATTR_WO(kill_server);

static struct attribute *control_attrs[] = {
	&class_attr_stats.attr,
	&class_attr_debug.attr,
	&class_attr_kill_server.attr,
	NULL,
};
ATTRIBUTE_GROUPS(control);

static struct class control_class = {
	.name = "ksmbd-control",
	.owner = THIS_MODULE,
	.class_groups = control_groups,
};

int ksmbd_control_init(void)
{
	return class_register(&control_class);
}

void ksmbd_control_exit(void)
{
	class_unregister(&control_class);
}
