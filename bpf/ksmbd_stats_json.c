// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One snapshot as one JSON object (ksmbd-lat -j, tests). Layout is
 * documented at ksmbd_stats_json_write() in libksmbdstats.h; numbers are
 * plain integers, the session id a hex string (JSON numbers lose
 * precision past 2^53 in most readers).
 */
#include <string.h>

#include "ksmbd_json.h"
#include "libksmbdstats.h"

/* User and share names come from clients: the shared writer. */
#define json_str ksmbd_json_str

static void json_u64(FILE *f, const char *name, uint64_t v, int comma)
{
	fprintf(f, "%s\"%s\":%llu", comma ? "," : "", name,
		(unsigned long long)v);
}

static void json_hist(FILE *f, const struct ksmbd_req_counters *c)
{
	fprintf(f, ",\"latency\":{");
	json_u64(f, "count", ksmbd_stats_hist_count(&c->lat), 0);
	json_u64(f, "sum_ns", c->latency_ns_sum, 1);
	json_u64(f, "p50_us", ksmbd_stats_hist_percentile(&c->lat, 50), 1);
	json_u64(f, "p90_us", ksmbd_stats_hist_percentile(&c->lat, 90), 1);
	json_u64(f, "p99_us", ksmbd_stats_hist_percentile(&c->lat, 99), 1);
	fprintf(f, ",\"hist\":[");
	for (unsigned int i = 0; i < KSMBD_STATS_HIST_SLOTS; i++)
		fprintf(f, "%s%llu", i ? "," : "",
			(unsigned long long)c->lat.slots[i]);
	fprintf(f, "]}");
}

/* The counters every row has; the caller opened the object. */
static void json_counters(FILE *f, const struct ksmbd_req_counters *c)
{
	json_u64(f, "requests", c->requests, 1);
	json_u64(f, "errors", c->errors, 1);
	json_u64(f, "bytes_in", c->bytes_in, 1);
	json_u64(f, "bytes_out", c->bytes_out, 1);
	json_u64(f, "bytes_read", c->bytes_read, 1);
	json_u64(f, "bytes_written", c->bytes_written, 1);
	json_u64(f, "credits_charged", c->credits_charged, 1);
	json_u64(f, "credits_granted", c->credits_granted, 1);
	json_hist(f, c);
}

static void json_commands(FILE *f, const struct ksmbd_stats_snapshot *snap,
			  const struct ksmbd_client_key *key)
{
	int n = 0;

	fprintf(f, ",\"commands\":[");
	for (size_t i = 0; i < snap->nr_cmds; i++) {
		const struct ksmbd_stats_cmd_row *r = &snap->cmds[i];

		if (memcmp(&r->key.client, key, sizeof(*key)))
			continue;
		fprintf(f, "%s{\"command\":", n++ ? "," : "");
		json_str(f, ksmbd_stats_cmd_name(r->key.command), 32);
		json_counters(f, &r->val.c);
		fputc('}', f);
	}
	fputc(']', f);
}

static void json_client(FILE *f, const struct ksmbd_stats_snapshot *snap,
			const struct ksmbd_stats_client_row *r)
{
	char addr[KSMBD_STATS_ADDR_LEN];
	const struct ksmbd_client_val *v = &r->val;

	fprintf(f, "{\"addr\":");
	json_str(f, ksmbd_stats_addr_format(&r->key, addr, sizeof(addr)),
		 sizeof(addr));
	fprintf(f, ",\"family\":%d,\"session_id\":\"0x%016llx\",\"user\":",
		r->key.family == KSMBD_STATS_AF_INET6 ? 6 : 4,
		(unsigned long long)r->key.session_id);
	json_str(f, v->user, sizeof(v->user));
	fprintf(f, ",\"dialect\":");
	json_str(f, ksmbd_stats_dialect_name(v->dialect), 16);
	json_u64(f, "conn_id", v->conn_id, 1);
	json_counters(f, &v->c);
	fprintf(f, ",\"outstanding\":%lld,\"outstanding_max\":%lld",
		(long long)v->outstanding, (long long)v->outstanding_max);
	json_u64(f, "credit_stalls", v->credit_stalls, 1);
	json_commands(f, snap, &r->key);
	fputc('}', f);
}

static void json_share(FILE *f, const struct ksmbd_stats_share_row *r)
{
	fprintf(f, "{\"share\":");
	json_str(f, r->key.name, sizeof(r->key.name));
	json_u64(f, "tree_connects", r->val.tree_connects, 1);
	json_u64(f, "tree_connect_errors", r->val.tree_connect_errors, 1);
	json_u64(f, "trees_now", r->val.trees_now, 1);
	json_counters(f, &r->val.c);
	fputc('}', f);
}

static void json_global(FILE *f, const struct ksmbd_global_val *g)
{
	fprintf(f, "\"global\":{");
	json_u64(f, "conns_accepted", g->conns_accepted, 0);
	json_u64(f, "conns_closed", g->conns_closed, 1);
	json_u64(f, "sessions", g->sessions, 1);
	json_u64(f, "session_failures", g->session_failures, 1);
	json_u64(f, "sessions_ended", g->sessions_ended, 1);
	json_u64(f, "credit_stalls", g->credit_stalls, 1);
	json_u64(f, "untracked_io", g->untracked_io, 1);
	json_counters(f, &g->c);
	fputc('}', f);
}

void ksmbd_stats_json_write(FILE *f, const struct ksmbd_stats_snapshot *snap)
{
	fprintf(f, "{\"ts_ns\":%llu,", (unsigned long long)snap->taken_ns);
	json_global(f, &snap->global);
	fprintf(f, ",\"clients\":[");
	for (size_t i = 0; i < snap->nr_clients; i++) {
		if (i)
			fputc(',', f);
		json_client(f, snap, &snap->clients[i]);
	}
	fprintf(f, "],\"shares\":[");
	for (size_t i = 0; i < snap->nr_shares; i++) {
		if (i)
			fputc(',', f);
		json_share(f, &snap->shares[i]);
	}
	fprintf(f, "]}");
}
