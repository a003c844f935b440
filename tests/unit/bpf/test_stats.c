// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host tests of libksmbdstats' pure half and ksmbd-lat's rendering:
 * histogram slots and percentiles, biolatency-style printing, addresses,
 * names, snapshot deltas and JSON of hand-built snapshots.
 */
#define TEST_SUITE_NAME "bpf-stats"
#include "testlib.h"

#include <errno.h>
#include <stdlib.h>

#include "ksmbd_lat.h"
#include "libksmbdstats.h"

/* Render through a callback into a heap string (caller frees). */
#define CAPTURE(buf, stmt) do {					\
	size_t len_;							\
	FILE *f = open_memstream(&(buf), &len_);			\
	stmt;								\
	fclose(f);							\
} while (0)

static struct ksmbd_client_key key_v4(const char *addr, uint64_t sess)
{
	struct ksmbd_client_key k;

	memset(&k, 0, sizeof(k));
	ksmbd_stats_addr_parse(addr, &k);
	k.session_id = sess;
	return k;
}

TEST(hist_slot_edges)
{
	CHECK_EQ_INT(ksmbd_stats_hist_slot(0), 0);
	CHECK_EQ_INT(ksmbd_stats_hist_slot(1), 0);
	CHECK_EQ_INT(ksmbd_stats_hist_slot(2), 1);
	CHECK_EQ_INT(ksmbd_stats_hist_slot(3), 1);
	CHECK_EQ_INT(ksmbd_stats_hist_slot(4), 2);
	CHECK_EQ_INT(ksmbd_stats_hist_slot(1023), 9);
	CHECK_EQ_INT(ksmbd_stats_hist_slot(1024), 10);
	CHECK_EQ_INT(ksmbd_stats_hist_slot(UINT64_MAX), KSMBD_STATS_HIST_SLOTS - 1);
}

TEST(hist_range_matches_slot)
{
	for (unsigned int i = 0; i + 1 < KSMBD_STATS_HIST_SLOTS; i++) {
		uint64_t lo, hi;

		ksmbd_stats_hist_range(i, &lo, &hi);
		CHECK_EQ_INT(ksmbd_stats_hist_slot(lo), i);
		CHECK_EQ_INT(ksmbd_stats_hist_slot(hi), i);
		CHECK_EQ_INT(ksmbd_stats_hist_slot(hi + 1), i + 1);
	}
}

TEST(percentile_known_buckets)
{
	struct ksmbd_stats_hist h = { .slots = { [0] = 50, [3] = 40, [10] = 10 } };

	CHECK_EQ_INT(ksmbd_stats_hist_count(&h), 100);
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 50), 1);
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 51), 15);
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 90), 15);
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 90.5), 2047);
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 99), 2047);
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 100), 2047);
}

TEST(percentile_single_and_empty)
{
	struct ksmbd_stats_hist h = { .slots = { [5] = 1 } };
	struct ksmbd_stats_hist empty = { .slots = { 0 } };

	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 50), 63);
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 0.1), 63);
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&empty, 50), 0);
	/* Three samples: p50 is the second (rank ceil(1.5) = 2). */
	h.slots[2] = 1;
	h.slots[7] = 1;
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 50), 63);
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 33), 7);
	CHECK_EQ_INT(ksmbd_stats_hist_percentile(&h, 34), 63);
}

TEST(hist_print_biolatency_format)
{
	struct ksmbd_stats_hist h = { .slots = { [1] = 2, [3] = 4 } };
	const char *want =
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 0        |          |\n"
		"         2 -> 3          : 2        |*****     |\n"
		"         4 -> 7          : 0        |          |\n"
		"         8 -> 15         : 4        |**********|\n";
	char *out = NULL;

	CAPTURE(out, ksmbd_stats_hist_print(f, &h, NULL, 10));
	CHECK_EQ_STR(out, want);
	free(out);
}

TEST(hist_print_empty_and_last_slot)
{
	struct ksmbd_stats_hist h = { .slots = { 0 } };
	char *out = NULL;

	CAPTURE(out, ksmbd_stats_hist_print(f, &h, "msecs", 10));
	CHECK_EQ_STR(out, "");
	free(out);
	h.slots[KSMBD_STATS_HIST_SLOTS - 1] = 1;
	CAPTURE(out, ksmbd_stats_hist_print(f, &h, "msecs", 4));
	CHECK(strstr(out, "     msecs               : count") == out);
	CHECK(strstr(out, "   8388608 -> ...        : 1        |****|\n") != NULL);
	free(out);
}

TEST(addr_format_v4_v6_unknown)
{
	struct ksmbd_client_key k = key_v4("127.0.0.2", 0);
	char buf[KSMBD_STATS_ADDR_LEN];

	CHECK_EQ_INT(k.family, KSMBD_STATS_AF_INET);
	CHECK_EQ_STR(ksmbd_stats_addr_format(&k, buf, sizeof(buf)), "127.0.0.2");
	CHECK_EQ_INT(k.addr[4], 0);
	CHECK_EQ_INT(ksmbd_stats_addr_parse("fe80::1:2", &k), 0);
	CHECK_EQ_INT(k.family, KSMBD_STATS_AF_INET6);
	CHECK_EQ_INT(k.addr[15], 2);
	CHECK_EQ_STR(ksmbd_stats_addr_format(&k, buf, sizeof(buf)), "fe80::1:2");
	k.family = 0;
	CHECK_EQ_STR(ksmbd_stats_addr_format(&k, buf, sizeof(buf)), "?");
	CHECK_EQ_INT(ksmbd_stats_addr_parse("not an address", &k), -EINVAL);
}

TEST(cmd_and_dialect_names)
{
	CHECK_EQ_STR(ksmbd_stats_cmd_name(0), "NEGOTIATE");
	CHECK_EQ_STR(ksmbd_stats_cmd_name(KSMBD_STATS_CMD_READ), "READ");
	CHECK_EQ_STR(ksmbd_stats_cmd_name(KSMBD_STATS_CMD_WRITE), "WRITE");
	CHECK_EQ_STR(ksmbd_stats_cmd_name(0x12), "OPLOCK_BREAK");
	CHECK_EQ_STR(ksmbd_stats_cmd_name(KSMBD_STATS_NR_CMDS), "UNKNOWN");
	CHECK_EQ_STR(ksmbd_stats_dialect_name(0x0311), "3.1.1");
	CHECK_EQ_STR(ksmbd_stats_dialect_name(0x0202), "2.0.2");
	CHECK_EQ_STR(ksmbd_stats_dialect_name(0), "");
	CHECK_EQ_STR(ksmbd_stats_dialect_name(0x02ff), "?");
}

/* Two clients; the second has READ rows; one share. Rows sorted. */
static void fake_snapshot(struct ksmbd_stats_snapshot *s, uint64_t scale)
{
	memset(s, 0, sizeof(*s));
	s->nr_clients = 2;
	s->clients = calloc(2, sizeof(*s->clients));
	s->clients[0].key = key_v4("127.0.0.1", 0);
	s->clients[0].val.c.requests = 3 * scale;
	s->clients[0].val.c.lat.slots[2] = 3 * scale;
	s->clients[0].val.dialect = 0x0311;
	s->clients[1].key = key_v4("127.0.0.2", 0x1234);
	strcpy(s->clients[1].val.user, "bob\"\x01");
	s->clients[1].val.c.requests = 5 * scale;
	s->clients[1].val.c.bytes_written = 4096 * scale;
	s->clients[1].val.c.lat.slots[4] = 5 * scale;
	s->clients[1].val.outstanding = 7;
	s->nr_cmds = 2;
	s->cmds = calloc(2, sizeof(*s->cmds));
	s->cmds[0].key.client = s->clients[0].key;
	s->cmds[0].key.command = 0x0d;
	s->cmds[0].val.c = s->clients[0].val.c;
	s->cmds[1].key.client = s->clients[1].key;
	s->cmds[1].key.command = KSMBD_STATS_CMD_WRITE;
	s->cmds[1].val.c = s->clients[1].val.c;
	s->nr_shares = 1;
	s->shares = calloc(1, sizeof(*s->shares));
	strcpy(s->shares[0].key.name, "share");
	s->shares[0].val.tree_connects = scale;
	s->global.c.requests = 8 * scale;
	ksmbd_stats_snapshot_sort(s);
}

/* Brackets and braces balance outside strings; strings terminate. */
static int json_balanced(const char *s)
{
	int depth = 0, in_str = 0;

	for (; *s; s++) {
		if (in_str) {
			if (*s == '\\')
				s++;
			else if (*s == '"')
				in_str = 0;
			else if ((unsigned char)*s < 0x20)
				return 0;
			continue;
		}
		if (*s == '"')
			in_str = 1;
		else if (*s == '{' || *s == '[')
			depth++;
		else if ((*s == '}' || *s == ']') && --depth < 0)
			return 0;
	}
	return !depth && !in_str;
}

TEST(json_fake_snapshot)
{
	struct ksmbd_stats_snapshot s;
	char *out = NULL;

	fake_snapshot(&s, 1);
	CAPTURE(out, ksmbd_stats_json_write(f, &s));
	CHECK(json_balanced(out));
	CHECK(strstr(out, "{\"addr\":\"127.0.0.1\",\"family\":4,\"session_id\":\"0x0000000000000000\",\"user\":\"\",\"dialect\":\"3.1.1\"") != NULL);
	CHECK(strstr(out, "\"user\":\"bob\\\"\\u0001\"") != NULL);
	CHECK(strstr(out, "\"commands\":[{\"command\":\"WRITE\",\"requests\":5,") != NULL);
	CHECK(strstr(out, "\"bytes_written\":4096") != NULL);
	CHECK(strstr(out, "\"latency\":{\"count\":5,\"sum_ns\":0,\"p50_us\":31,\"p90_us\":31,\"p99_us\":31,\"hist\":[0,0,0,0,5,0,") != NULL);
	CHECK(strstr(out, "\"outstanding\":7,") != NULL);
	CHECK(strstr(out, "\"shares\":[{\"share\":\"share\",\"tree_connects\":1,") != NULL);
	CHECK(strstr(out, "\"global\":{\"conns_accepted\":0,") != NULL);
	free(out);
	ksmbd_stats_snapshot_free(&s);
}

TEST(delta_subtracts_matching_rows)
{
	struct ksmbd_stats_snapshot prev, cur, d;

	fake_snapshot(&prev, 1);
	fake_snapshot(&cur, 3);
	CHECK_EQ_INT(ksmbd_stats_snapshot_delta(&cur, &prev, &d), 0);
	CHECK_EQ_INT(d.nr_clients, 2);
	CHECK_EQ_INT(d.clients[0].val.c.requests, 6);
	CHECK_EQ_INT(d.clients[0].val.c.lat.slots[2], 6);
	CHECK_EQ_INT(d.clients[1].val.c.bytes_written, 8192);
	CHECK_EQ_STR(d.clients[1].val.user, "bob\"\x01");
	CHECK_EQ_INT(d.nr_cmds, 2);
	CHECK_EQ_INT(d.cmds[1].val.c.requests, 10);
	CHECK_EQ_INT(d.global.c.requests, 16);
	CHECK_EQ_INT(d.shares[0].val.tree_connects, 2);
	ksmbd_stats_snapshot_free(&d);

	/* Nothing new: every row drops out. */
	CHECK_EQ_INT(ksmbd_stats_snapshot_delta(&cur, &cur, &d), 0);
	CHECK_EQ_INT(d.nr_clients, 0);
	CHECK_EQ_INT(d.nr_cmds, 0);
	CHECK_EQ_INT(d.global.c.requests, 0);
	ksmbd_stats_snapshot_free(&d);
	ksmbd_stats_snapshot_free(&prev);
	ksmbd_stats_snapshot_free(&cur);
}

TEST(delta_new_and_recreated_rows)
{
	struct ksmbd_stats_snapshot prev, cur, d;

	fake_snapshot(&prev, 4);
	fake_snapshot(&cur, 1);
	/* cur < prev: the entries were evicted and re-created. */
	CHECK_EQ_INT(ksmbd_stats_snapshot_delta(&cur, &prev, &d), 0);
	CHECK_EQ_INT(d.nr_clients, 2);
	CHECK_EQ_INT(d.clients[1].val.c.requests, 5);
	ksmbd_stats_snapshot_free(&d);
	/* No previous snapshot: the whole of cur. */
	CHECK_EQ_INT(ksmbd_stats_snapshot_delta(&cur, NULL, &d), 0);
	CHECK_EQ_INT(d.nr_cmds, 2);
	CHECK_EQ_INT(d.cmds[0].val.c.requests, 3);
	ksmbd_stats_snapshot_free(&d);
	ksmbd_stats_snapshot_free(&prev);
	ksmbd_stats_snapshot_free(&cur);
}

/* The maps are read one after the other: a command row can move alone. */
TEST(delta_keeps_client_of_moved_command)
{
	struct ksmbd_stats_snapshot prev, cur, d;
	char *out = NULL;

	fake_snapshot(&prev, 1);
	fake_snapshot(&cur, 1);
	cur.cmds[1].val.c.requests++;
	cur.cmds[1].val.c.lat.slots[0]++;
	CHECK_EQ_INT(ksmbd_stats_snapshot_delta(&cur, &prev, &d), 0);
	CHECK_EQ_INT(d.nr_cmds, 1);
	CHECK_EQ_INT(d.nr_clients, 1);
	CHECK_EQ_INT(d.clients[0].val.c.requests, 0);
	CAPTURE(out, ksmbd_stats_json_write(f, &d));
	CHECK(strstr(out, "\"commands\":[{\"command\":\"WRITE\",\"requests\":1,") != NULL);
	free(out);
	ksmbd_stats_snapshot_free(&d);
	ksmbd_stats_snapshot_free(&prev);
	ksmbd_stats_snapshot_free(&cur);
}

/*
 * A client's first request between the walks of client_cmds and clients:
 * its command row is in the snapshot, its client row is not. Completing
 * the snapshot keeps the request visible in this interval, and the next
 * interval does not count it again.
 */
TEST(complete_adds_client_of_orphan_command)
{
	struct ksmbd_stats_snapshot prev, cur, next, d;
	char *out = NULL;

	fake_snapshot(&prev, 1);
	fake_snapshot(&cur, 1);
	cur.cmds = realloc(cur.cmds, 3 * sizeof(*cur.cmds));
	memset(&cur.cmds[2], 0, sizeof(cur.cmds[2]));
	cur.cmds[2].key.client = key_v4("127.0.0.3", 0);
	cur.cmds[2].key.command = 0x00;		/* NEGOTIATE */
	cur.cmds[2].val.c.requests = 1;
	cur.cmds[2].val.c.lat.slots[1] = 1;
	cur.nr_cmds = 3;
	ksmbd_stats_snapshot_sort(&cur);
	CHECK_EQ_INT(ksmbd_stats_snapshot_complete(&cur), 0);
	CHECK_EQ_INT(cur.nr_clients, 3);
	CHECK_EQ_INT(ksmbd_stats_snapshot_complete(&cur), 0);
	CHECK_EQ_INT(cur.nr_clients, 3);
	CHECK_EQ_INT(ksmbd_stats_snapshot_delta(&cur, &prev, &d), 0);
	CAPTURE(out, ksmbd_stats_json_write(f, &d));
	CHECK(strstr(out, "\"addr\":\"127.0.0.3\"") != NULL);
	CHECK(strstr(out, "\"commands\":[{\"command\":\"NEGOTIATE\",\"requests\":1,") != NULL);
	free(out);
	ksmbd_stats_snapshot_free(&d);

	/* Next interval: the real client row arrives; NEGOTIATE is not new. */
	fake_snapshot(&next, 1);
	next.clients = realloc(next.clients, 3 * sizeof(*next.clients));
	memset(&next.clients[2], 0, sizeof(next.clients[2]));
	next.clients[2].key = key_v4("127.0.0.3", 0);
	next.clients[2].val.c.requests = 1;
	next.nr_clients = 3;
	next.cmds = realloc(next.cmds, 3 * sizeof(*next.cmds));
	CHECK_EQ_INT(cur.cmds[2].key.client.addr[3], 3);	/* sorted last */
	next.cmds[2] = cur.cmds[2];
	next.nr_cmds = 3;
	ksmbd_stats_snapshot_sort(&next);
	CHECK_EQ_INT(ksmbd_stats_snapshot_delta(&next, &cur, &d), 0);
	CHECK_EQ_INT(d.nr_cmds, 0);
	out = NULL;
	CAPTURE(out, ksmbd_stats_json_write(f, &d));
	CHECK(strstr(out, "NEGOTIATE") == NULL);
	free(out);
	ksmbd_stats_snapshot_free(&d);
	ksmbd_stats_snapshot_free(&next);
	ksmbd_stats_snapshot_free(&prev);
	ksmbd_stats_snapshot_free(&cur);
}

TEST(lat_print_per_command_sums_clients)
{
	struct ksmbd_lat_view v = { .per_cmd = true };
	struct ksmbd_stats_snapshot s;
	char *out = NULL;

	fake_snapshot(&s, 1);
	s.cmds[0].key.command = KSMBD_STATS_CMD_WRITE;	/* both WRITE now */
	CAPTURE(out, ksmbd_lat_print(f, &v, &s));
	CHECK(strstr(out, "command = WRITE\nrequests 8 errors 0") != NULL);
	CHECK(strstr(out, "command = ECHO") == NULL);
	CHECK(strstr(out, "         4 -> 7          : 3 ") != NULL);
	CHECK(strstr(out, "        16 -> 31         : 5 ") != NULL);
	free(out);
	ksmbd_stats_snapshot_free(&s);
}

TEST(lat_print_clients_and_credits)
{
	struct ksmbd_lat_view v = { .per_client = true, .per_cmd = true };
	struct ksmbd_stats_snapshot s;
	char *out = NULL;

	fake_snapshot(&s, 1);
	CAPTURE(out, ksmbd_lat_print(f, &v, &s));
	CHECK(strstr(out, "client = 127.0.0.1 session = 0x0000000000000000 user = - dialect = 3.1.1\n  command = ECHO\nrequests 3") != NULL);
	CHECK(strstr(out, "client = 127.0.0.2 session = 0x0000000000001234") != NULL);
	free(out);
	CAPTURE(out, ksmbd_lat_print_credits(f, &s));
	CHECK(strstr(out, "CLIENT") == out);
	CHECK(strstr(out, "\n127.0.0.2 ") != NULL);
	CHECK(strstr(out, "      7      0      0\n") != NULL);
	free(out);
	ksmbd_stats_snapshot_free(&s);
}

/* -s takes ksmbdtop's letters: r most requests first, a by address. */
TEST(lat_print_sorted)
{
	struct ksmbd_lat_view v = { .per_client = true, .sort = 'r' };
	struct ksmbd_stats_snapshot s;
	char *out = NULL;

	fake_snapshot(&s, 1);	/* 127.0.0.1: 3 requests, 127.0.0.2: 5 */
	CAPTURE(out, ksmbd_lat_print(f, &v, &s));
	CHECK(strstr(out, "127.0.0.2") && strstr(out, "127.0.0.1") &&
	      strstr(out, "127.0.0.2") < strstr(out, "127.0.0.1"));
	free(out);
	v.sort = 'a';
	CAPTURE(out, ksmbd_lat_print(f, &v, &s));
	CHECK(strstr(out, "127.0.0.1") < strstr(out, "127.0.0.2"));
	free(out);
	v.per_client = false;
	v.per_cmd = true;
	v.sort = 'r';		/* WRITE (5) before ECHO (3) */
	CAPTURE(out, ksmbd_lat_print(f, &v, &s));
	CHECK(strstr(out, "command = WRITE") && strstr(out, "command = ECHO") &&
	      strstr(out, "command = WRITE") < strstr(out, "command = ECHO"));
	free(out);
	ksmbd_stats_snapshot_free(&s);
}

int main(void)
{
	RUN(hist_slot_edges);
	RUN(hist_range_matches_slot);
	RUN(percentile_known_buckets);
	RUN(percentile_single_and_empty);
	RUN(hist_print_biolatency_format);
	RUN(hist_print_empty_and_last_slot);
	RUN(addr_format_v4_v6_unknown);
	RUN(cmd_and_dialect_names);
	RUN(json_fake_snapshot);
	RUN(delta_subtracts_matching_rows);
	RUN(delta_new_and_recreated_rows);
	RUN(delta_keeps_client_of_moved_command);
	RUN(complete_adds_client_of_orphan_command);
	RUN(lat_print_per_command_sums_clients);
	RUN(lat_print_clients_and_credits);
	RUN(lat_print_sorted);
	return test_report();
}
