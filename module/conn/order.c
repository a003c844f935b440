// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The order a connection's requests start in (see order.h for the rules
 * and why).
 */
#include <linux/sched.h>
#include "order.h"

void ksmbd_order_init(struct ksmbd_order *o)
{
	spin_lock_init(&o->lock);
	INIT_LIST_HEAD(&o->waiting);
	init_waitqueue_head(&o->wait);
	o->data = 0;
	o->undecided = 0;
	o->cancels = 0;
	o->barrier = false;
	o->flushed = false;
}

/* Under o->lock. */
static bool may_start(const struct ksmbd_order *o, u8 kind)
{
	if (o->flushed || kind == KSMBD_ORDER_FREE)
		return true;
	if (o->barrier || o->undecided || o->cancels)
		return false;
	return kind != KSMBD_ORDER_BARRIER || !o->data;
}

/* Under o->lock: the item runs from now on. */
static void hold(struct ksmbd_order *o, struct ksmbd_order_item *it)
{
	/* A gone connection's items run only to be freed: nothing to keep. */
	if (o->flushed)
		return;
	it->held = true;
	if (it->kind == KSMBD_ORDER_FREE)
		o->cancels++;
	else if (it->kind == KSMBD_ORDER_DATA)
		o->data++;
	else if (it->kind == KSMBD_ORDER_UNDECIDED)
		o->undecided++;
	else
		o->barrier = true;
}

/* Under o->lock: the held item no longer counts. */
static void unhold(struct ksmbd_order *o, struct ksmbd_order_item *it)
{
	it->held = false;
	if (it->kind == KSMBD_ORDER_FREE)
		o->cancels--;
	else if (it->kind == KSMBD_ORDER_DATA)
		o->data--;
	else if (it->kind == KSMBD_ORDER_UNDECIDED)
		o->undecided--;
	else
		o->barrier = false;
}

/* Holds it if it may start now; otherwise queues it behind when asked. */
static bool enter(struct ksmbd_order *o, struct ksmbd_order_item *it,
		  bool queue)
{
	bool now;

	INIT_LIST_HEAD(&it->node);
	it->held = false;
	spin_lock(&o->lock);
	/* Behind any that waits: items start in the order they came. */
	now = it->kind == KSMBD_ORDER_FREE ||
	      (list_empty(&o->waiting) && may_start(o, it->kind));
	if (now)
		hold(o, it);
	else if (queue)
		list_add_tail(&it->node, &o->waiting);
	spin_unlock(&o->lock);
	return now;
}

bool ksmbd_order_admit(struct ksmbd_order *o, struct ksmbd_order_item *it)
{
	return enter(o, it, true);
}

bool ksmbd_order_try(struct ksmbd_order *o, struct ksmbd_order_item *it)
{
	return enter(o, it, false);
}

/* Under o->lock: the head items that may start now go to ready. */
static void pump(struct ksmbd_order *o, struct list_head *ready)
{
	struct ksmbd_order_item *it;

	while ((it = list_first_entry_or_null(&o->waiting,
					      struct ksmbd_order_item, node))) {
		if (!may_start(o, it->kind))
			break;
		list_move_tail(&it->node, ready);
		hold(o, it);
	}
}

static void wake_waiters(struct ksmbd_order *o)
{
	/* Pairs with the barrier of the waiter's set_current_state(). */
	if (wq_has_sleeper(&o->wait))
		wake_up(&o->wait);
}

void ksmbd_order_done(struct ksmbd_order *o, struct ksmbd_order_item *it,
		      struct list_head *ready)
{
	spin_lock(&o->lock);
	if (!it->held) {
		spin_unlock(&o->lock);
		return;
	}
	unhold(o, it);
	pump(o, ready);
	spin_unlock(&o->lock);
	wake_waiters(o);
}

static bool data_ended(struct ksmbd_order *o)
{
	bool ended;

	spin_lock(&o->lock);
	ended = !o->data || o->flushed;
	spin_unlock(&o->lock);
	return ended;
}

void ksmbd_order_decide(struct ksmbd_order *o, struct ksmbd_order_item *it,
			u8 kind, struct list_head *ready)
{
	spin_lock(&o->lock);
	if (!it->held || it->kind != KSMBD_ORDER_UNDECIDED) {
		spin_unlock(&o->lock);
		return;
	}
	unhold(o, it);
	it->kind = kind;
	/* Nothing after it has started: a barrier is alone once data ends. */
	hold(o, it);
	pump(o, ready);
	spin_unlock(&o->lock);
	wake_waiters(o);
	if (kind == KSMBD_ORDER_BARRIER)
		wait_event_idle(o->wait, data_ended(o));
}

void ksmbd_order_flush(struct ksmbd_order *o, struct list_head *ready)
{
	spin_lock(&o->lock);
	o->flushed = true;
	pump(o, ready);
	spin_unlock(&o->lock);
	wake_waiters(o);
}
