// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksmbdtop's model, sort, formatting and batch output on the host, fed
 * with fake snapshots built here (what libksmbdstats would read from the
 * maps) and fake module counters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "clients.h"
#include "model.h"
#include "modstats.h"
#include "format.h"
#include "view.h"

#define SEC 1000000000ull

/* ---- fake snapshots ----------------------------------------------------- */

struct fake_req {
	uint64_t n;		/* requests */
	uint64_t errors;
	uint64_t lat_us;	/* every request took this long */
	uint64_t rd, wr;	/* bytes read / written */
};

static struct ksmbd_stats_snapshot *snap_new(uint64_t t_ns)
{
	struct ksmbd_stats_snapshot *s = calloc(1, sizeof(*s));

	s->taken_ns = t_ns;
	return s;
}

static void counters_fill(struct ksmbd_req_counters *c,
			  const struct fake_req *r)
{
	c->requests += r->n;
	c->errors += r->errors;
	c->bytes_read += r->rd;
	c->bytes_written += r->wr;
	c->credits_charged += r->n;
	c->credits_granted += r->n;
	c->latency_ns_sum += r->n * r->lat_us * 1000;
	c->lat.slots[ksmbd_stats_hist_slot(r->lat_us)] += r->n;
}

static void key_set(struct ksmbd_client_key *k, const char *addr, uint64_t sid)
{
	memset(k, 0, sizeof(*k));
	if (ksmbd_stats_addr_parse(addr, k))
		abort();
	k->session_id = sid;
}

/* Adds (or adds to) the row (addr, sid). */
static struct ksmbd_client_val *client_add(struct ksmbd_stats_snapshot *s,
					   const char *addr, uint64_t sid,
					   const struct fake_req *r)
{
	struct ksmbd_client_key k;
	size_t i;

	key_set(&k, addr, sid);
	for (i = 0; i < s->nr_clients; i++)
		if (!memcmp(&s->clients[i].key, &k, sizeof(k)))
			break;
	if (i == s->nr_clients) {
		s->clients = realloc(s->clients, (i + 1) * sizeof(*s->clients));
		memset(&s->clients[i], 0, sizeof(s->clients[i]));
		s->clients[i].key = k;
		s->clients[i].val.conn_id = 1;
		s->nr_clients++;
	}
	counters_fill(&s->clients[i].val.c, r);
	counters_fill(&s->global.c, r);
	return &s->clients[i].val;
}

static void cmd_add(struct ksmbd_stats_snapshot *s, const char *addr,
		    uint64_t sid, unsigned int cmd, const struct fake_req *r)
{
	struct ksmbd_client_cmd_key k;
	size_t i;

	memset(&k, 0, sizeof(k));
	key_set(&k.client, addr, sid);
	k.command = (uint16_t)cmd;
	for (i = 0; i < s->nr_cmds; i++)
		if (!memcmp(&s->cmds[i].key, &k, sizeof(k)))
			break;
	if (i == s->nr_cmds) {
		s->cmds = realloc(s->cmds, (i + 1) * sizeof(*s->cmds));
		memset(&s->cmds[i], 0, sizeof(s->cmds[i]));
		s->cmds[i].key = k;
		s->nr_cmds++;
	}
	counters_fill(&s->cmds[i].val.c, r);
}

/* The lib hands out key-sorted rows; so do the fakes. */
static int feed(struct kt_model *m, struct ksmbd_stats_snapshot *s,
		const struct kt_modstats *mod)
{
	int ret;

	ksmbd_stats_snapshot_sort(s);
	ret = kt_model_update(m, s, mod, NULL, s->taken_ns);
	free(s);
	return ret;
}

static bool near(double a, double b)
{
	double d = a - b;

	return d < 1e-6 && d > -1e-6;
}

/* ---- rates ---------------------------------------------------------------- */

TEST(first_tick_has_totals_no_rates)
{
	struct kt_model m;
	struct ksmbd_stats_snapshot *s;

	kt_model_init(&m);
	s = snap_new(5 * SEC);
	client_add(s, "127.0.0.1", 0, &(struct fake_req){ .n = 7, .lat_us = 10 });
	CHECK_EQ_INT(feed(&m, s, NULL), 0);
	CHECK_EQ_INT(m.nr_rows, 1);
	CHECK_EQ_INT(m.rows[0]->total.requests, 7);
	CHECK(near(m.rows[0]->iv.req_s, 0));
	CHECK(near(m.sum.interval_s, 0));
	CHECK(m.sum.have_bpf);
	kt_model_fini(&m);
}

TEST(rates_from_counter_deltas)
{
	struct kt_model m;
	struct ksmbd_stats_snapshot *s;
	struct kt_client *c;

	kt_model_init(&m);
	s = snap_new(10 * SEC);
	client_add(s, "10.0.0.1", 5, &(struct fake_req){ .n = 100, .lat_us = 10,
		   .rd = 1000000 });
	feed(&m, s, NULL);
	/* two seconds later: 400 more requests, 4 MB more read, 2 MB written */
	s = snap_new(12 * SEC);
	client_add(s, "10.0.0.1", 5, &(struct fake_req){ .n = 500, .errors = 10,
		   .lat_us = 10, .rd = 5000000, .wr = 2000000 });
	CHECK_EQ_INT(feed(&m, s, NULL), 0);
	c = kt_model_find(&m, "10.0.0.1");
	CHECK(c != NULL);
	if (!c)
		goto out;
	CHECK(near(m.sum.interval_s, 2.0));
	CHECK_EQ_INT(c->iv.delta.requests, 400);
	CHECK(near(c->iv.req_s, 200.0));
	CHECK(near(c->iv.err_s, 5.0));
	CHECK(near(c->iv.read_mbs, 2.0));
	CHECK(near(c->iv.write_mbs, 1.0));
	CHECK(near(c->iv.avg_us, 10.0));
	CHECK_EQ_INT(c->total.requests, 500);
	CHECK_EQ_INT(c->total.bytes_read, 5000000);
	CHECK(near(m.sum.iv.req_s, 200.0));
out:
	kt_model_fini(&m);
}

/* The maps were reset (or a row evicted and re-created): count anew. */
TEST(rates_after_reset)
{
	struct kt_model m;
	struct ksmbd_stats_snapshot *s;
	struct kt_client *c;

	kt_model_init(&m);
	s = snap_new(1 * SEC);
	client_add(s, "10.0.0.1", 1, &(struct fake_req){ .n = 1000, .lat_us = 3 });
	feed(&m, s, NULL);
	s = snap_new(2 * SEC);
	client_add(s, "10.0.0.1", 1, &(struct fake_req){ .n = 30, .lat_us = 3 });
	feed(&m, s, NULL);
	c = kt_model_find(&m, "10.0.0.1");
	CHECK(c && c->iv.delta.requests == 30);
	CHECK(c && near(c->iv.req_s, 30.0));
	CHECK(near(m.sum.iv.req_s, 30.0));
	CHECK_EQ_INT(m.sum.total.requests, 30);
	kt_model_fini(&m);
}

/* One session's row went back, the other's did not: each counts alone. */
TEST(rates_one_row_recreated)
{
	struct kt_model m;
	struct ksmbd_stats_snapshot *s;
	struct kt_client *c;

	kt_model_init(&m);
	s = snap_new(1 * SEC);
	client_add(s, "10.0.0.1", 1, &(struct fake_req){ .n = 500, .lat_us = 3 });
	client_add(s, "10.0.0.1", 2, &(struct fake_req){ .n = 100, .lat_us = 3 });
	feed(&m, s, NULL);
	s = snap_new(2 * SEC);
	client_add(s, "10.0.0.1", 1, &(struct fake_req){ .n = 10, .lat_us = 3 });
	client_add(s, "10.0.0.1", 2, &(struct fake_req){ .n = 150, .lat_us = 3 });
	feed(&m, s, NULL);
	c = kt_model_find(&m, "10.0.0.1");
	CHECK(c && c->iv.delta.requests == 10 + 50);
	kt_model_fini(&m);
}

/* Percentiles come from the interval's histogram, not the cumulative one. */
TEST(percentiles_over_interval)
{
	struct kt_model m;
	struct ksmbd_stats_snapshot *s;
	struct kt_client *c;

	kt_model_init(&m);
	s = snap_new(1 * SEC);
	client_add(s, "10.0.0.2", 1, &(struct fake_req){ .n = 1000, .lat_us = 10 });
	feed(&m, s, NULL);
	s = snap_new(2 * SEC);
	client_add(s, "10.0.0.2", 1, &(struct fake_req){ .n = 1000, .lat_us = 10 });
	client_add(s, "10.0.0.2", 1, &(struct fake_req){ .n = 90, .lat_us = 100 });
	client_add(s, "10.0.0.2", 1, &(struct fake_req){ .n = 10, .lat_us = 5000 });
	feed(&m, s, NULL);
	c = kt_model_find(&m, "10.0.0.2");
	CHECK(c != NULL);
	if (c) {
		/* the interval holds 90 x 100 us (slot 6) and 10 x 5000 us (12) */
		CHECK_EQ_INT(c->iv.p50_us, 127);
		CHECK_EQ_INT(c->iv.p99_us, 8191);
		CHECK(near(c->iv.avg_us, (90 * 100 + 10 * 5000) / 100.0));
	}
	CHECK_EQ_INT(m.sum.iv.p50_us, 127);
	kt_model_fini(&m);
}

TEST(per_command_rates_and_order)
{
	struct kt_model m;
	struct ksmbd_stats_snapshot *s;
	unsigned int idx[KSMBD_STATS_NR_CMDS];
	struct kt_client *c;
	size_t n;

	kt_model_init(&m);
	s = snap_new(1 * SEC);
	client_add(s, "10.0.0.3", 1, &(struct fake_req){ .n = 30, .lat_us = 10 });
	cmd_add(s, "10.0.0.3", 1, KSMBD_STATS_CMD_READ,
		&(struct fake_req){ .n = 10, .lat_us = 10 });
	cmd_add(s, "10.0.0.3", 1, 0x05, &(struct fake_req){ .n = 20, .lat_us = 10 });
	feed(&m, s, NULL);
	s = snap_new(2 * SEC);
	client_add(s, "10.0.0.3", 1, &(struct fake_req){ .n = 70, .lat_us = 10 });
	/* cumulative: the first 10 again, then 40 new slow ones */
	cmd_add(s, "10.0.0.3", 1, KSMBD_STATS_CMD_READ,
		&(struct fake_req){ .n = 10, .lat_us = 10 });
	cmd_add(s, "10.0.0.3", 1, KSMBD_STATS_CMD_READ,
		&(struct fake_req){ .n = 40, .errors = 4, .lat_us = 300 });
	cmd_add(s, "10.0.0.3", 1, 0x05, &(struct fake_req){ .n = 22, .lat_us = 10 });
	cmd_add(s, "10.0.0.3", 0, 0x00, &(struct fake_req){ .n = 1, .lat_us = 10 });
	feed(&m, s, NULL);
	c = kt_model_find(&m, "10.0.0.3");
	CHECK(c != NULL);
	if (!c)
		goto out;
	CHECK_EQ_INT(c->cmd[KSMBD_STATS_CMD_READ].total.requests, 50);
	CHECK_EQ_INT(c->cmd[KSMBD_STATS_CMD_READ].iv.delta.requests, 40);
	CHECK(near(c->cmd[KSMBD_STATS_CMD_READ].iv.err_s, 4.0));
	CHECK_EQ_INT(c->cmd[KSMBD_STATS_CMD_READ].iv.p99_us, 511);
	CHECK_EQ_INT(c->cmd[0x05].iv.delta.requests, 2);
	n = kt_client_cmd_order(c, idx);
	CHECK_EQ_INT(n, 3);
	/* READ (40 in the interval), CREATE (2), NEGOTIATE (1, new row) */
	CHECK_EQ_INT(idx[0], KSMBD_STATS_CMD_READ);
	CHECK_EQ_INT(idx[1], 0x05);
	CHECK_EQ_INT(idx[2], 0x00);
out:
	kt_model_fini(&m);
}

/* ---- aggregation ---------------------------------------------------------- */

TEST(sessions_of_one_address_fold_into_one_row)
{
	struct kt_model m;
	struct ksmbd_stats_snapshot *s;
	struct ksmbd_client_val *v;
	struct kt_client *c;

	kt_model_init(&m);
	s = snap_new(1 * SEC);
	v = client_add(s, "192.168.1.9", 0, &(struct fake_req){ .n = 2, .lat_us = 1 });
	v->dialect = 0x0311;
	v->outstanding = 5;
	v->last_seen_ns = 10;
	v = client_add(s, "192.168.1.9", 7, &(struct fake_req){ .n = 3, .lat_us = 1 });
	snprintf(v->user, sizeof(v->user), "alice");
	v->signing = 1;
	v->dialect = 0x0311;
	v->outstanding = 9;	/* same connection, later: this one counts */
	v->last_seen_ns = 20;
	v = client_add(s, "192.168.1.9", 8, &(struct fake_req){ .n = 4, .lat_us = 1 });
	snprintf(v->user, sizeof(v->user), "bob");
	v->conn_id = 2;
	v->outstanding = 3;
	v->encryption = 1;
	v = client_add(s, "192.168.1.9", 9, &(struct fake_req){ .n = 1, .lat_us = 1 });
	snprintf(v->user, sizeof(v->user), "bob");
	v->conn_id = 2;
	v->outstanding = 3;
	client_add(s, "::1", 1, &(struct fake_req){ .n = 1, .lat_us = 1 });
	feed(&m, s, NULL);
	CHECK_EQ_INT(m.nr_rows, 2);
	c = kt_model_find(&m, "192.168.1.9");
	CHECK(c != NULL);
	if (c) {
		CHECK_EQ_INT(c->sessions, 3);
		CHECK_EQ_STR(c->user, "alice+1");
		CHECK_EQ_INT(c->total.requests, 10);
		CHECK_EQ_INT(c->dialect, 0x0311);
		CHECK(c->signing && c->encryption);
		CHECK_EQ_INT(c->credits_outstanding, 9 + 3);
		CHECK_EQ_INT(c->open_files, -1);
	}
	CHECK(kt_model_find(&m, "::1") != NULL);
	CHECK_EQ_INT(m.sum.nr_dialects, 1);
	CHECK_EQ_INT(m.sum.dialects[0].clients, 1);
	kt_model_fini(&m);
}

TEST(rows_persist_and_vanish)
{
	struct kt_model m;
	struct ksmbd_stats_snapshot *s;
	struct kt_client *a;

	kt_model_init(&m);
	s = snap_new(1 * SEC);
	client_add(s, "10.0.0.1", 1, &(struct fake_req){ .n = 1, .lat_us = 1 });
	client_add(s, "10.0.0.2", 1, &(struct fake_req){ .n = 1, .lat_us = 1 });
	feed(&m, s, NULL);
	a = kt_model_find(&m, "10.0.0.1");
	s = snap_new(2 * SEC);
	client_add(s, "10.0.0.1", 1, &(struct fake_req){ .n = 2, .lat_us = 1 });
	feed(&m, s, NULL);
	CHECK_EQ_INT(m.nr_rows, 1);
	/* the same row object, not a new one: selection and order survive */
	CHECK(kt_model_find(&m, "10.0.0.1") == a);
	CHECK(kt_model_find(&m, "10.0.0.2") == NULL);
	kt_model_fini(&m);
}

/* ---- sorting ----------------------------------------------------------- */

/* Three clients whose values differ in every column. */
static void three_clients(struct kt_model *m)
{
	static const struct {
		const char *addr, *user;
		uint16_t dialect;
		int sign, enc;
		unsigned int sessions;
		uint64_t n, rd, wr, lat, err;
		int64_t credits;
	} t[3] = {
		{ "10.0.0.1", "carol", 0x0210, 1, 0, 1, 300, 100, 2000, 500, 5, 7 },
		{ "10.0.0.2", "alice", 0x0311, 1, 1, 3, 100, 300, 1000, 100, 50, 1 },
		{ "10.0.0.3", "bob", 0x0300, 0, 0, 2, 200, 200, 3000, 10, 1, 30 },
	};
	struct ksmbd_stats_snapshot *s;
	int pass, i;
	unsigned int k;

	for (pass = 0; pass < 2; pass++) {
		s = snap_new((uint64_t)(pass + 1) * SEC);
		for (i = 0; i < 3; i++) {
			for (k = 0; k < t[i].sessions; k++) {
				struct fake_req r = {
					.n = pass * t[i].n, .errors = pass * t[i].err,
					.lat_us = t[i].lat, .rd = pass * t[i].rd,
					.wr = pass * t[i].wr,
				};
				struct ksmbd_client_val *v;

				/* only the first session carries the load */
				if (k)
					r = (struct fake_req){ .lat_us = 1 };
				v = client_add(s, t[i].addr, k + 1, &r);
				v->dialect = t[i].dialect;
				v->signing = (uint8_t)t[i].sign;
				v->encryption = (uint8_t)t[i].enc;
				v->conn_id = (uint64_t)i + 1 + 10 * k;
				v->outstanding = k ? 0 : t[i].credits;
				snprintf(v->user, sizeof(v->user), "%s", t[i].user);
			}
		}
		feed(m, s, NULL);
	}
}

static const char *order(const struct kt_model *m)
{
	static char buf[64];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < m->nr_rows; i++)
		strcat(buf, m->rows[i]->addr + strlen("10.0.0."));
	return buf;
}

TEST(sort_each_column)
{
	static const struct {
		enum kt_col col;
		const char *want;
	} cases[] = {
		{ KT_COL_ADDR, "123" },
		{ KT_COL_USER, "231" },		/* alice, bob, carol */
		{ KT_COL_DIALECT, "231" },	/* 3.1.1, 3.0, 2.1 */
		{ KT_COL_SECURITY, "213" },	/* SE, S, - (ties keep order) */
		{ KT_COL_SESSIONS, "231" },
		{ KT_COL_REQS, "132" },
		{ KT_COL_READ, "231" },
		{ KT_COL_WRITE, "312" },
		{ KT_COL_AVG, "123" },		/* 500, 100, 10 us */
		{ KT_COL_P50, "123" },
		{ KT_COL_P99, "123" },
		{ KT_COL_ERRS, "213" },
		{ KT_COL_CREDITS, "312" },
	};
	struct kt_model m;
	size_t i;

	kt_model_init(&m);
	three_clients(&m);
	CHECK_EQ_INT(m.nr_rows, 3);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kt_model_sort(&m, KT_COL_ADDR);
		kt_model_sort(&m, cases[i].col);
		if (strcmp(order(&m), cases[i].want))
			test_fail_("column %s: order %s, expected %s",
				   kt_col_name(cases[i].col), order(&m),
				   cases[i].want);
		CHECK_EQ_INT(m.sort_col, cases[i].col);
	}
	kt_model_fini(&m);
}

/* Equal keys keep the order they had (htop's rows do not jump around). */
TEST(sort_is_stable_on_ties)
{
	struct kt_model m;

	kt_model_init(&m);
	three_clients(&m);
	/* no client has open files known: FILES is all ties */
	kt_model_sort(&m, KT_COL_REQS);
	CHECK_EQ_STR(order(&m), "132");
	kt_model_sort(&m, KT_COL_FILES);
	CHECK_EQ_STR(order(&m), "132");
	kt_model_sort(&m, KT_COL_WRITE);
	kt_model_sort(&m, KT_COL_FILES);
	CHECK_EQ_STR(order(&m), "312");
	kt_model_fini(&m);
}

/* A new tick re-sorts by the model's column, starting from the last order. */
TEST(update_resorts_rows)
{
	struct kt_model m;
	struct ksmbd_stats_snapshot *s;

	kt_model_init(&m);
	m.sort_col = KT_COL_REQS;
	s = snap_new(1 * SEC);
	client_add(s, "10.0.0.1", 1, &(struct fake_req){ .n = 0, .lat_us = 1 });
	client_add(s, "10.0.0.2", 1, &(struct fake_req){ .n = 0, .lat_us = 1 });
	feed(&m, s, NULL);
	s = snap_new(2 * SEC);
	client_add(s, "10.0.0.1", 1, &(struct fake_req){ .n = 5, .lat_us = 1 });
	client_add(s, "10.0.0.2", 1, &(struct fake_req){ .n = 50, .lat_us = 1 });
	feed(&m, s, NULL);
	CHECK_EQ_STR(order(&m), "21");
	s = snap_new(3 * SEC);
	client_add(s, "10.0.0.1", 1, &(struct fake_req){ .n = 100, .lat_us = 1 });
	client_add(s, "10.0.0.2", 1, &(struct fake_req){ .n = 50, .lat_us = 1 });
	feed(&m, s, NULL);
	CHECK_EQ_STR(order(&m), "12");
	kt_model_fini(&m);
}

TEST(sort_keys_round_trip)
{
	int i;

	for (i = 0; i < KT_COL_NR; i++) {
		CHECK(kt_col_key((enum kt_col)i) != 0);
		CHECK_EQ_INT(kt_col_by_key(kt_col_key((enum kt_col)i)), i);
	}
	CHECK_EQ_INT(kt_col_by_key('r'), KT_COL_REQS);
	CHECK_EQ_INT(kt_col_by_key('w'), KT_COL_WRITE);
	CHECK_EQ_INT(kt_col_by_key('l'), KT_COL_P99);
	/* keys with other jobs never sort */
	CHECK_EQ_INT(kt_col_by_key('q'), -1);
	CHECK_EQ_INT(kt_col_by_key('d'), -1);
	CHECK_EQ_INT(kt_col_by_key('p'), -1);
	CHECK_EQ_INT(kt_col_by_key('h'), -1);
}

/* ---- module counters and degraded mode --------------------------------- */

static const char modtext[] =
	"version 0.1.0\nstate running\nuptime_s 75\nlisten_port 445\n"
	"connections 2\nsessions 1\ntrees 1\nopen_files 3\nworks 0\n"
	"buffers 0\nipc_requests 0\nconnections_accepted 9\nrequests 120\n"
	"bytes_in 5000000\nbytes_out 1000\nsomething_new 4\n"
	"pending_sessions 5\nsession_setups_refused 6\n"
	"session_setups_evicted 7\ntx_queued_bytes 2500000\nworks_parked 8\n"
	"send_stall_drops 9\ndaemon_pid 212\ndaemon_losses 1\n"
	"notify_watches 10\nbyte_range_locks 11\n"
	"open_files_refused_per_session 12\n"
	"open_files_refused_per_connection 13\nnotify_watches_refused 14\n"
	"locks_refused_per_handle 15\nlocks_refused_per_file 16\n"
	"allocation_reservations_capped 17\n";

TEST(modstats_parse)
{
	struct kt_modstats s;

	CHECK_EQ_INT(kt_modstats_parse(modtext, &s), 0);
	CHECK_EQ_STR(s.version, "0.1.0");
	CHECK_EQ_STR(s.state, "running");
	CHECK_EQ_INT(s.uptime_s, 75);
	CHECK_EQ_INT(s.listen_port, 445);
	CHECK_EQ_INT(s.connections, 2);
	CHECK_EQ_INT(s.sessions, 1);
	CHECK_EQ_INT(s.open_files, 3);
	CHECK_EQ_INT(s.accepted, 9);
	CHECK_EQ_INT(s.requests, 120);
	CHECK_EQ_INT(s.bytes_in, 5000000);
	CHECK_EQ_INT(s.pending_sessions, 5);
	CHECK_EQ_INT(s.setups_refused, 6);
	CHECK_EQ_INT(s.setups_evicted, 7);
	CHECK_EQ_INT(s.tx_queued_bytes, 2500000);
	CHECK_EQ_INT(s.works_parked, 8);
	CHECK_EQ_INT(s.send_stall_drops, 9);
	CHECK_EQ_INT(s.daemon_pid, 212);
	CHECK_EQ_INT(s.daemon_losses, 1);
	CHECK_EQ_INT(s.notify_watches, 10);
	CHECK_EQ_INT(s.locks, 11);
	CHECK_EQ_INT(s.files_refused_session, 12);
	CHECK_EQ_INT(s.files_refused_conn, 13);
	CHECK_EQ_INT(s.notify_refused, 14);
	CHECK_EQ_INT(s.locks_refused_handle, 15);
	CHECK_EQ_INT(s.locks_refused_file, 16);
	CHECK_EQ_INT(s.alloc_capped, 17);
	CHECK_EQ_INT(kt_modstats_parse("state\n", &s), -EINVAL);
	CHECK_EQ_INT(kt_modstats_parse("requests many\n", &s), -EINVAL);
	CHECK_EQ_INT(kt_modstats_parse("", &s), 0);
	CHECK_EQ_INT(kt_modstats_read("/nonexistent/ksmbd/stats", &s), -ENOENT);
}

TEST(degraded_mode_uses_module_counters)
{
	struct kt_modstats a, b;
	struct kt_model m;

	kt_modstats_parse(modtext, &a);
	b = a;
	b.requests += 300;
	b.bytes_in += 4000000;
	kt_model_init(&m);
	CHECK_EQ_INT(kt_model_update(&m, NULL, &a, NULL, 10 * SEC), 0);
	CHECK_EQ_INT(kt_model_update(&m, NULL, &b, NULL, 12 * SEC), 0);
	CHECK(!m.sum.have_bpf);
	CHECK(m.sum.have_mod);
	CHECK_EQ_INT(m.nr_rows, 0);
	CHECK(near(m.sum.interval_s, 2.0));
	CHECK(near(m.sum.iv.req_s, 150.0));
	CHECK(near(m.sum.wire_in_mbs, 2.0));
	/* the module was reloaded: counters restart, no negative rates */
	a.requests = 10;
	CHECK_EQ_INT(kt_model_update(&m, NULL, &a, NULL, 13 * SEC), 0);
	CHECK(near(m.sum.iv.req_s, 10.0));
	kt_model_fini(&m);
}

/* ---- output ---------------------------------------------------------------- */

/* A small JSON syntax checker: enough to prove the output parses. */
static const char *js_value(const char *p);

static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *js_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *js_seq(const char *p, char close, bool keyed)
{
	p = js_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keyed) {
			p = js_string(js_ws(p));
			if (!p)
				return NULL;
			p = js_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = js_value(p);
		if (!p)
			return NULL;
		p = js_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *js_value(const char *p)
{
	p = js_ws(p);
	if (*p == '{')
		return js_seq(p, '}', true);
	if (*p == '[')
		return js_seq(p, ']', false);
	if (*p == '"')
		return js_string(p);
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		char *end;

		strtod(p, &end);
		return end;
	}
	return NULL;
}

static bool json_valid(const char *s)
{
	const char *end = js_value(s);

	return end && !*js_ws(end);
}

static char *render(void (*fn)(FILE *, const struct kt_model *, const char *,
			       time_t),
		    const struct kt_model *m, const char *note)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, m, note, 0);
	fclose(f);
	return buf;
}

static void json_model(struct kt_model *m)
{
	struct ksmbd_stats_snapshot *s;
	struct kt_modstats mod;
	struct ksmbd_client_val *v;

	kt_modstats_parse(modtext, &mod);
	kt_model_init(m);
	s = snap_new(1 * SEC);
	v = client_add(s, "127.0.0.1", 3, &(struct fake_req){ .n = 1, .lat_us = 1 });
	snprintf(v->user, sizeof(v->user), "tester");
	s->clients[0].val.dialect = 0x0311;
	feed(m, s, &mod);
	s = snap_new(2 * SEC);
	v = client_add(s, "127.0.0.1", 3, &(struct fake_req){ .n = 11, .lat_us = 1,
		       .wr = 3000000 });
	snprintf(v->user, sizeof(v->user), "tester");
	v->dialect = 0x0311;
	cmd_add(s, "127.0.0.1", 3, KSMBD_STATS_CMD_WRITE,
		&(struct fake_req){ .n = 11, .lat_us = 1, .wr = 3000000 });
	v = client_add(s, "127.0.0.2", 4, &(struct fake_req){ .n = 2, .lat_us = 1 });
	/* a hostile user name: quote, backslash, control and high bytes */
	snprintf(v->user, sizeof(v->user), "x\"y\\z\001\xff");
	mod.requests += 12;
	feed(m, s, &mod);
}

/* ---- the module's client listing ------------------------------------------ */

static const char listing[] =
	"conn 4 127.0.0.1 dialect=0x0311 age_s=30 idle_s=2 requests=40\n"
	"conn 9 127.0.0.9 dialect=0x0302 age_s=20 idle_s=19 requests=3\n"
	"conn 10 fd00::9 dialect=0x0000 age_s=1 idle_s=1 requests=0\n"
	"conn 11 127.0.0.9 dialect=0x0311 age_s=5 idle_s=5 requests=2\n"
	"conn x 127.0.0.1 dialect=0x0311 age_s=1 idle_s=1 requests=0\n"
	"future line kinds are skipped\n"
	"sess 0x0000000000000001 4 valid user=tester signing=1 encryption=0 trees=1\n"
	"sess 0x0000000000000002 9 valid user=Jos\xc3\xa9\\x20P signing=0 encryption=1 trees=0\n"
	"sess 0x0000000000000003 11 valid user=bob signing=0 encryption=0 trees=1\n"
	"sess 0x0000000000000004 11 setup user= signing=0 encryption=0 trees=0\n"
	"sess 0x0000000000000005 4 valid user=bad\\x2 signing=0 encryption=0 trees=0\n";

static int parse_text(const char *text, struct kt_clients *c)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret = kt_clients_parse(f, c);

	fclose(f);
	return ret;
}

TEST(clients_listing_parse)
{
	struct kt_clients c;
	char addr[KSMBD_STATS_ADDR_LEN];

	CHECK_EQ_INT(parse_text(listing, &c), 0);
	CHECK_EQ_INT(c.nr_conns, 4);
	CHECK_EQ_INT(c.nr_sess, 4);
	CHECK_EQ_INT(c.conns[0].id, 4);
	CHECK_EQ_INT(c.conns[0].dialect, 0x0311);
	CHECK_EQ_INT(c.conns[1].idle_s, 19);
	ksmbd_stats_addr_format(&c.conns[2].key, addr, sizeof(addr));
	CHECK_EQ_STR(addr, "fd00::9");
	CHECK_EQ_INT(c.conns[2].dialect, 0);
	/* \xHH undone, UTF-8 kept */
	CHECK_EQ_STR(c.sess[1].user, "Jos\xc3\xa9 P");
	CHECK(c.sess[1].encryption && !c.sess[1].signing);
	CHECK(!c.sess[3].valid && !c.sess[3].user[0]);
	CHECK(kt_clients_conn(&c, 11) == &c.conns[3]);
	CHECK(kt_clients_conn(&c, 12) == NULL);
	kt_clients_free(&c);
	CHECK_EQ_INT(kt_clients_read("/nonexistent/ksmbd/clients", &c), -ENOENT);
	CHECK_EQ_INT(c.nr_conns, 0);
}

/* Idle clients the programs never saw are rows, with the module's users. */
TEST(clients_listing_makes_rows)
{
	struct kt_model m;
	struct ksmbd_stats_snapshot *s;
	struct kt_clients c;
	struct kt_client *r;

	kt_model_init(&m);
	CHECK_EQ_INT(parse_text(listing, &c), 0);
	s = snap_new(1 * SEC);
	client_add(s, "127.0.0.1", 1, &(struct fake_req){ .n = 5, .lat_us = 10 });
	ksmbd_stats_snapshot_sort(s);
	CHECK_EQ_INT(kt_model_update(&m, s, NULL, &c, 1 * SEC), 0);
	free(s);
	CHECK_EQ_INT(m.nr_rows, 3);
	r = kt_model_find(&m, "127.0.0.9");
	CHECK(r != NULL);
	if (r) {
		/* two connections, three sessions (one still setting up) */
		CHECK_EQ_INT(r->sessions, 3);
		CHECK_EQ_STR(r->user, "Jos\xc3\xa9 P+1");
		CHECK_EQ_INT(r->dialect, 0x0311);
		CHECK(r->encryption);
		CHECK_EQ_INT(r->total.requests, 0);
	}
	r = kt_model_find(&m, "fd00::9");
	CHECK(r != NULL && r->sessions == 0 && !r->user[0] && !r->dialect);
	r = kt_model_find(&m, "127.0.0.1");
	CHECK(r != NULL && r->total.requests == 5 && r->signing);
	kt_clients_free(&c);

	/* disconnected and absent from the maps: the rows go */
	CHECK_EQ_INT(parse_text("conn 4 127.0.0.1 dialect=0x0311 age_s=31 "
				"idle_s=3 requests=40\n", &c), 0);
	s = snap_new(2 * SEC);
	client_add(s, "127.0.0.1", 1, &(struct fake_req){ .n = 7, .lat_us = 10 });
	ksmbd_stats_snapshot_sort(s);
	CHECK_EQ_INT(kt_model_update(&m, s, NULL, &c, 2 * SEC), 0);
	free(s);
	CHECK_EQ_INT(m.nr_rows, 1);
	CHECK(kt_model_find(&m, "127.0.0.9") == NULL);
	kt_clients_free(&c);
	kt_model_fini(&m);
}

TEST(json_output_of_a_fake_model)
{
	struct kt_model m;
	char *out;

	json_model(&m);
	out = render(kt_batch_json, &m, "a \"note\"");
	CHECK(json_valid(out));
	CHECK(out[strlen(out) - 1] == '\n');
	CHECK(strchr(out, '\n') == out + strlen(out) - 1);	/* one line */
	CHECK(strstr(out, "\"bpf\":true") != NULL);
	CHECK(strstr(out, "\"note\":\"a \\\"note\\\"\"") != NULL);
	CHECK(strstr(out, "\"state\":\"running\"") != NULL);
	CHECK(strstr(out, "{\"addr\":\"127.0.0.1\",\"user\":\"tester\",\"dialect\":\"3.1.1\"") != NULL);
	CHECK(strstr(out, "\"requests\":11,\"errors\":0,\"bytes_read\":0,\"bytes_written\":3000000,\"interval_requests\":10,\"req_s\":10.000") != NULL);
	CHECK(strstr(out, "\"commands\":[{\"command\":\"WRITE\",\"requests\":11") != NULL);
	CHECK(strstr(out, "\"open_files\":null") != NULL);
	/* the shared writer: a byte that is not UTF-8 is U+FFFD, not \u00ff */
	CHECK(strstr(out, "\"user\":\"x\\\"y\\\\z\\u0001\\ufffd\"") != NULL);
	CHECK(strstr(out, "\"dialects\":[{\"dialect\":\"3.1.1\",\"clients\":1}]") != NULL);
	free(out);
	kt_model_fini(&m);
}

TEST(json_checker_rejects_garbage)
{
	/* the checker above must be able to fail */
	CHECK(!json_valid("{\"a\":1,}"));
	CHECK(!json_valid("{\"a\" 1}"));
	CHECK(!json_valid("{\"a\":\"\001\"}"));
	CHECK(!json_valid("[1,2"));
	CHECK(json_valid("{\"a\":[1,-2.5e3,true,null,{}],\"b\":\"\\u00ff\"}"));
}

TEST(json_without_bpf)
{
	struct kt_modstats mod;
	struct kt_model m;
	char *out;

	kt_modstats_parse(modtext, &mod);
	kt_model_init(&m);
	kt_model_update(&m, NULL, &mod, NULL, 1 * SEC);
	out = render(kt_batch_json, &m, "BPF unavailable");
	CHECK(json_valid(out));
	CHECK(strstr(out, "\"bpf\":false") != NULL);
	CHECK(strstr(out, "\"clients\":[]") != NULL);
	CHECK(strstr(out, "\"connections\":2") != NULL);
	CHECK(strstr(out, "\"send_stall_drops\":9") != NULL);
	CHECK(strstr(out, "\"locks_refused_per_file\":16") != NULL);
	free(out);
	kt_model_update(&m, NULL, NULL, NULL, 2 * SEC);
	out = render(kt_batch_json, &m, "");
	CHECK(json_valid(out));
	CHECK(strstr(out, "\"server\":null") != NULL);
	free(out);
	kt_model_fini(&m);
}

TEST(text_frame)
{
	struct kt_model m;
	char *out, *line;

	json_model(&m);
	out = render(kt_batch_text, &m, "hello");
	CHECK(strstr(out, "state running") != NULL);
	CHECK(strstr(out, "Note: hello") != NULL);
	CHECK(strstr(out, "Connections: 2  Sessions: 1") != NULL);
	CHECK(strstr(out, "Limits: setups pending 5 refused 6 evicted 7  send queue 2.50 MB parked 8 stalled 9  daemon pid 212 lost 1") != NULL);
	CHECK(strstr(out, "Bounds: watches 10 locks 11  refused: files 12/13 (session/conn) watches 14 locks 15/16 (handle/file)  allocations capped 17") != NULL);
	line = strstr(out, "\n127.0.0.1 ");
	CHECK(line != NULL);
	if (line)
		CHECK(strncmp(line + 1 + 22 + 1, "tester ", 7) == 0);
	/* control bytes never reach the terminal */
	CHECK(strchr(out, '\001') == NULL);
	CHECK(strstr(out, "ADDRESS") != NULL && strstr(out, "REQ/s") != NULL);
	CHECK(strstr(out, "WRITE") != NULL);
	free(out);
	kt_model_fini(&m);
}

TEST(title_marks_sort_column)
{
	char buf[KT_LINE_MAX];
	struct kt_col_span span;

	kt_fmt_client_title(buf, sizeof(buf), KT_COL_REQS, &span);
	CHECK(span.width > 0);
	CHECK(strncmp(buf + span.start + span.width - strlen("REQ/s"), "REQ/s",
		      5) == 0);
	kt_fmt_client_title(buf, sizeof(buf), KT_COL_ADDR, &span);
	CHECK_EQ_INT(span.start, 0);
}

int main(void)
{
	RUN(first_tick_has_totals_no_rates);
	RUN(rates_from_counter_deltas);
	RUN(rates_after_reset);
	RUN(rates_one_row_recreated);
	RUN(percentiles_over_interval);
	RUN(per_command_rates_and_order);
	RUN(sessions_of_one_address_fold_into_one_row);
	RUN(rows_persist_and_vanish);
	RUN(sort_each_column);
	RUN(sort_is_stable_on_ties);
	RUN(update_resorts_rows);
	RUN(sort_keys_round_trip);
	RUN(modstats_parse);
	RUN(degraded_mode_uses_module_counters);
	RUN(clients_listing_parse);
	RUN(clients_listing_makes_rows);
	RUN(json_output_of_a_fake_model);
	RUN(json_checker_rejects_garbage);
	RUN(json_without_bpf);
	RUN(text_frame);
	RUN(title_marks_sort_column);
	return test_report();
}
