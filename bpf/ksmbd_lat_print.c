// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksmbd-lat's output: biolatency-style histograms per view, the credit
 * table, or one JSON object per interval.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ksmbd_lat.h"

static void print_client_header(FILE *f, const struct ksmbd_stats_client_row *r)
{
	char addr[KSMBD_STATS_ADDR_LEN];

	fprintf(f, "\nclient = %s session = 0x%016llx user = %s dialect = %s\n",
		ksmbd_stats_addr_format(&r->key, addr, sizeof(addr)),
		(unsigned long long)r->key.session_id,
		r->val.user[0] ? r->val.user : "-",
		r->val.dialect ? ksmbd_stats_dialect_name(r->val.dialect) : "-");
}

static void print_summary(FILE *f, const struct ksmbd_req_counters *c)
{
	uint64_t n = ksmbd_stats_hist_count(&c->lat);

	fprintf(f, "requests %llu errors %llu read %llu written %llu avg %llu us p50 %llu us p90 %llu us p99 %llu us\n",
		(unsigned long long)c->requests, (unsigned long long)c->errors,
		(unsigned long long)c->bytes_read,
		(unsigned long long)c->bytes_written,
		(unsigned long long)(n ? c->latency_ns_sum / n / 1000 : 0),
		(unsigned long long)ksmbd_stats_hist_percentile(&c->lat, 50),
		(unsigned long long)ksmbd_stats_hist_percentile(&c->lat, 90),
		(unsigned long long)ksmbd_stats_hist_percentile(&c->lat, 99));
}

static void print_hist(FILE *f, const struct ksmbd_req_counters *c)
{
	print_summary(f, c);
	ksmbd_stats_hist_print(f, &c->lat, NULL, KSMBD_LAT_STARS);
}

static void counters_add(struct ksmbd_req_counters *t,
			 const struct ksmbd_req_counters *c)
{
	t->requests += c->requests;
	t->errors += c->errors;
	t->bytes_in += c->bytes_in;
	t->bytes_out += c->bytes_out;
	t->bytes_read += c->bytes_read;
	t->bytes_written += c->bytes_written;
	t->credits_charged += c->credits_charged;
	t->credits_granted += c->credits_granted;
	t->latency_ns_sum += c->latency_ns_sum;
	for (unsigned int i = 0; i < KSMBD_STATS_HIST_SLOTS; i++)
		t->lat.slots[i] += c->lat.slots[i];
}

/* The value -s @key orders counters by (larger first). */
static uint64_t sort_value(const struct ksmbd_req_counters *c, char key)
{
	switch (key) {
	case 'r': return c->requests;
	case 'e': return c->errors;
	case 'L': return c->requests ? c->latency_ns_sum / c->requests : 0;
	case 'm': return ksmbd_stats_hist_percentile(&c->lat, 50);
	case 'l': return ksmbd_stats_hist_percentile(&c->lat, 99);
	case 'c': return c->credits_charged;
	}
	return 0;
}

/* Stable: qsort is not, so equal values keep their index order. */
static int by_value(uint64_t a, uint64_t b, size_t ia, size_t ib)
{
	if (a != b)
		return a > b ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

struct sort_ctx {
	const struct ksmbd_stats_snapshot *d;
	const struct ksmbd_req_counters *sums;	/* per command, or NULL */
	char key;
};

static const struct sort_ctx *sort_arg;	/* qsort has no context argument */

static int cmp_client(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	const struct ksmbd_stats_client_row *ra = &sort_arg->d->clients[a];
	const struct ksmbd_stats_client_row *rb = &sort_arg->d->clients[b];
	char sa[KSMBD_STATS_ADDR_LEN], sb[KSMBD_STATS_ADDR_LEN];
	int c;

	if (sort_arg->key == 'a' || sort_arg->key == 'u') {
		c = sort_arg->key == 'a' ?
		    strcmp(ksmbd_stats_addr_format(&ra->key, sa, sizeof(sa)),
			   ksmbd_stats_addr_format(&rb->key, sb, sizeof(sb))) :
		    strcmp(ra->val.user, rb->val.user);
		return c ? c : by_value(0, 0, a, b);
	}
	return by_value(sort_value(&ra->val.c, sort_arg->key),
			sort_value(&rb->val.c, sort_arg->key), a, b);
}

static int cmp_cmd(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	if (sort_arg->key == 'a' || sort_arg->key == 'u')
		return by_value(0, 0, a, b);
	return by_value(sort_value(&sort_arg->sums[a], sort_arg->key),
			sort_value(&sort_arg->sums[b], sort_arg->key), a, b);
}

/* 0..n-1 in the order -s asks for. */
static void sort_order(size_t *idx, size_t n, const struct sort_ctx *ctx,
		       int (*cmp)(const void *, const void *))
{
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	if (!ctx->key || n < 2)
		return;
	sort_arg = ctx;
	qsort(idx, n, sizeof(*idx), cmp);
	sort_arg = NULL;
}

/* -c alone: every client's rows summed per command. */
static void print_per_cmd(FILE *f, const struct ksmbd_stats_snapshot *d,
			  char key)
{
	struct ksmbd_req_counters sum[KSMBD_STATS_NR_CMDS];
	struct sort_ctx ctx = { .d = d, .sums = sum, .key = key };
	size_t idx[KSMBD_STATS_NR_CMDS];

	memset(sum, 0, sizeof(sum));
	for (size_t i = 0; i < d->nr_cmds; i++)
		if (d->cmds[i].key.command < KSMBD_STATS_NR_CMDS)
			counters_add(&sum[d->cmds[i].key.command],
				     &d->cmds[i].val.c);
	sort_order(idx, KSMBD_STATS_NR_CMDS, &ctx, cmp_cmd);
	for (unsigned int k = 0; k < KSMBD_STATS_NR_CMDS; k++) {
		size_t c = idx[k];

		if (!sum[c].requests)
			continue;
		fprintf(f, "\ncommand = %s\n", ksmbd_stats_cmd_name((unsigned int)c));
		print_hist(f, &sum[c]);
	}
}

/* -C -c: a client's command rows are contiguous (sorted by key). */
static void print_client_cmds(FILE *f, const struct ksmbd_stats_snapshot *d,
			      const struct ksmbd_client_key *key)
{
	for (size_t i = 0; i < d->nr_cmds; i++) {
		const struct ksmbd_stats_cmd_row *r = &d->cmds[i];

		if (memcmp(&r->key.client, key, sizeof(*key)))
			continue;
		fprintf(f, "  command = %s\n", ksmbd_stats_cmd_name(r->key.command));
		print_hist(f, &r->val.c);
	}
}

static void print_per_client(FILE *f, const struct ksmbd_stats_snapshot *d,
			     bool per_cmd, char key)
{
	struct sort_ctx ctx = { .d = d, .key = key };
	size_t *idx = malloc((d->nr_clients ? d->nr_clients : 1) * sizeof(*idx));

	if (!idx) {
		fprintf(f, "(out of memory)\n");
		return;
	}
	sort_order(idx, d->nr_clients, &ctx, cmp_client);
	for (size_t k = 0; k < d->nr_clients; k++) {
		size_t i = idx[k];

		print_client_header(f, &d->clients[i]);
		if (per_cmd)
			print_client_cmds(f, d, &d->clients[i].key);
		else
			print_hist(f, &d->clients[i].val.c);
	}
	free(idx);
}

void ksmbd_lat_print_credits(FILE *f, const struct ksmbd_stats_snapshot *d)
{
	fprintf(f, "%-39s %-18s %-16s %9s %9s %6s %6s %6s\n", "CLIENT",
		"SESSION", "USER", "CHARGED", "GRANTED", "OUTST", "MAX",
		"STALLS");
	for (size_t i = 0; i < d->nr_clients; i++) {
		const struct ksmbd_stats_client_row *r = &d->clients[i];
		char addr[KSMBD_STATS_ADDR_LEN];

		fprintf(f, "%-39s 0x%016llx %-16.16s %9llu %9llu %6lld %6lld %6llu\n",
			ksmbd_stats_addr_format(&r->key, addr, sizeof(addr)),
			(unsigned long long)r->key.session_id,
			r->val.user[0] ? r->val.user : "-",
			(unsigned long long)r->val.c.credits_charged,
			(unsigned long long)r->val.c.credits_granted,
			(long long)r->val.outstanding,
			(long long)r->val.outstanding_max,
			(unsigned long long)r->val.credit_stalls);
	}
}

static void print_timestamp(FILE *f)
{
	char buf[16];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
	fprintf(f, "%-8s\n", buf);
}

void ksmbd_lat_print(FILE *f, const struct ksmbd_lat_view *v,
		     const struct ksmbd_stats_snapshot *d)
{
	if (v->json) {
		ksmbd_stats_json_write(f, d);
		fputc('\n', f);
		return;
	}
	fputc('\n', f);
	if (v->timestamp)
		print_timestamp(f);
	if (v->credits)
		ksmbd_lat_print_credits(f, d);
	else if (v->per_client)
		print_per_client(f, d, v->per_cmd, v->sort);
	else if (v->per_cmd)
		print_per_cmd(f, d, v->sort);
	else
		print_hist(f, &d->global.c);
}
