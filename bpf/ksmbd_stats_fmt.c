// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pure half of libksmbdstats: histogram math and rendering, names,
 * addresses and snapshot deltas. No BPF here, so host unit tests and the
 * monitor's tests link it without a module build.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "libksmbdstats.h"

unsigned int ksmbd_stats_hist_slot(uint64_t usecs)
{
	unsigned int slot = 0;

	while (usecs >>= 1)
		slot++;
	return slot < KSMBD_STATS_HIST_SLOTS ? slot : KSMBD_STATS_HIST_SLOTS - 1;
}

void ksmbd_stats_hist_range(unsigned int slot, uint64_t *lo, uint64_t *hi)
{
	*lo = slot ? 1ull << slot : 0;
	*hi = (2ull << slot) - 1;
	if (slot >= KSMBD_STATS_HIST_SLOTS - 1)
		*hi = UINT64_MAX;
}

uint64_t ksmbd_stats_hist_count(const struct ksmbd_stats_hist *h)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < KSMBD_STATS_HIST_SLOTS; i++)
		n += h->slots[i];
	return n;
}

uint64_t ksmbd_stats_hist_percentile(const struct ksmbd_stats_hist *h,
				     double pct)
{
	uint64_t total = ksmbd_stats_hist_count(h), rank, seen = 0;
	double exact;

	if (!total || pct <= 0)
		return 0;
	if (pct > 100)
		pct = 100;
	/* ceil() by hand: keeps libm out of the library. */
	exact = pct / 100.0 * (double)total;
	rank = (uint64_t)exact;
	if ((double)rank < exact)
		rank++;
	if (!rank)
		rank = 1;
	for (unsigned int i = 0; i < KSMBD_STATS_HIST_SLOTS; i++) {
		seen += h->slots[i];
		if (seen >= rank)
			return (2ull << i) - 1;
	}
	return (2ull << (KSMBD_STATS_HIST_SLOTS - 1)) - 1;
}

static void print_stars(FILE *f, uint64_t val, uint64_t max,
			unsigned int width)
{
	unsigned int n = max ? (unsigned int)(val * width / max) : 0;

	for (unsigned int i = 0; i < width; i++)
		fputc(i < n ? '*' : ' ', f);
}

void ksmbd_stats_hist_print(FILE *f, const struct ksmbd_stats_hist *h,
			    const char *label, unsigned int width)
{
	int first = -1, last = -1;
	uint64_t max = 0;

	for (int i = 0; i < KSMBD_STATS_HIST_SLOTS; i++) {
		if (!h->slots[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (h->slots[i] > max)
			max = h->slots[i];
	}
	if (last < 0)
		return;
	/* Like biolatency, start at slot 0 so the scale is obvious. */
	first = 0;
	fprintf(f, "%*s%-*s : count    distribution\n", 5, "",
		19, label ? label : "usecs");
	for (int i = first; i <= last; i++) {
		uint64_t lo, hi;

		ksmbd_stats_hist_range((unsigned int)i, &lo, &hi);
		if (hi == UINT64_MAX)
			fprintf(f, "%10llu -> %-10s : %-8llu |",
				(unsigned long long)lo, "...",
				(unsigned long long)h->slots[i]);
		else
			fprintf(f, "%10llu -> %-10llu : %-8llu |",
				(unsigned long long)lo, (unsigned long long)hi,
				(unsigned long long)h->slots[i]);
		print_stars(f, h->slots[i], max, width);
		fputs("|\n", f);
	}
}

const char *ksmbd_stats_addr_format(const struct ksmbd_client_key *key,
				    char *buf, size_t len)
{
	int af = key->family == KSMBD_STATS_AF_INET ? AF_INET :
		 key->family == KSMBD_STATS_AF_INET6 ? AF_INET6 : -1;

	if (af < 0 || !inet_ntop(af, key->addr, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

int ksmbd_stats_addr_parse(const char *s, struct ksmbd_client_key *key)
{
	memset(key->addr, 0, sizeof(key->addr));
	if (inet_pton(AF_INET, s, key->addr) == 1) {
		key->family = KSMBD_STATS_AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, key->addr) == 1) {
		key->family = KSMBD_STATS_AF_INET6;
		return 0;
	}
	return -EINVAL;
}

#define KSMBD_CMD_NAME(id, name) [id] = name,
static const char *const cmd_names[KSMBD_STATS_NR_CMDS] = {
	KSMBD_STATS_COMMANDS(KSMBD_CMD_NAME)
};

const char *ksmbd_stats_cmd_name(unsigned int command)
{
	if (command < KSMBD_STATS_NR_CMDS && cmd_names[command])
		return cmd_names[command];
	return "UNKNOWN";
}

const char *ksmbd_stats_dialect_name(unsigned int dialect)
{
	switch (dialect) {
	case 0:
		return "";
	case 0x0202:
		return "2.0.2";
	case 0x0210:
		return "2.1";
	case 0x0300:
		return "3.0";
	case 0x0302:
		return "3.0.2";
	case 0x0311:
		return "3.1.1";
	default:
		return "?";
	}
}

/* ---- deltas ---- */

static void counters_sub(struct ksmbd_req_counters *c,
			 const struct ksmbd_req_counters *p)
{
	c->requests -= p->requests;
	c->errors -= p->errors;
	c->bytes_in -= p->bytes_in;
	c->bytes_out -= p->bytes_out;
	c->bytes_read -= p->bytes_read;
	c->bytes_written -= p->bytes_written;
	c->credits_charged -= p->credits_charged;
	c->credits_granted -= p->credits_granted;
	c->latency_ns_sum -= p->latency_ns_sum;
	for (unsigned int i = 0; i < KSMBD_STATS_HIST_SLOTS; i++)
		c->lat.slots[i] -= p->lat.slots[i];
}

/*
 * A counter that went backwards means the entry was evicted and re-created
 * (or reset) between the snapshots; then cur alone is the interval.
 */
static int counters_went_back(const struct ksmbd_req_counters *c,
			      const struct ksmbd_req_counters *p)
{
	return c->requests < p->requests || c->bytes_read < p->bytes_read ||
	       c->bytes_written < p->bytes_written;
}

static int counters_active(const struct ksmbd_req_counters *c)
{
	return c->requests || c->bytes_read || c->bytes_written;
}

/* How to subtract one row type: sizes, where its counters are, extras. */
struct row_kind {
	size_t size, key_size, counters_off;
	void (*sub_extra)(void *row, const void *prev);
	/* ctx: the delta built so far (its cmds when clients are merged). */
	int (*active_extra)(const void *row, const void *ctx);
};

static struct ksmbd_req_counters *row_counters(const struct row_kind *k,
					       const void *row)
{
	return (struct ksmbd_req_counters *)((char *)row + k->counters_off);
}

/* Rows are sorted by key, so a delta is one merge pass over both. */
static int delta_rows(const struct row_kind *k, const void *cur, size_t ncur,
		      const void *prev, size_t nprev, void **out, size_t *nout,
		      const void *ctx)
{
	unsigned char *o = calloc(ncur ? ncur : 1, k->size);
	size_t j = 0, n = 0;

	if (!o)
		return -ENOMEM;
	for (size_t i = 0; i < ncur; i++) {
		const char *c = (const char *)cur + i * k->size;
		const char *p = NULL;
		unsigned char *r = o + n * k->size;
		int cmp = 1;

		while (j < nprev &&
		       (cmp = memcmp((const char *)prev + j * k->size, c,
				     k->key_size)) < 0)
			j++;
		if (j < nprev && !cmp)
			p = (const char *)prev + j * k->size;
		memcpy(r, c, k->size);
		if (p && !counters_went_back(row_counters(k, r),
					     row_counters(k, p))) {
			counters_sub(row_counters(k, r), row_counters(k, p));
			if (k->sub_extra)
				k->sub_extra(r, p);
		}
		if (counters_active(row_counters(k, r)) ||
		    (k->active_extra && k->active_extra(r, ctx)))
			n++;
	}
	*out = o;
	*nout = n;
	return 0;
}

static void client_sub(void *row, const void *prev)
{
	((struct ksmbd_stats_client_row *)row)->val.credit_stalls -=
		((const struct ksmbd_stats_client_row *)prev)->val.credit_stalls;
}

static int client_prefix_cmp(const void *key, const void *row)
{
	return memcmp(key, &((const struct ksmbd_stats_cmd_row *)row)->key.client,
		      sizeof(struct ksmbd_client_key));
}

/*
 * The clients and client_cmds maps are read one after the other, so a
 * request can land in a command row's interval and not yet in its
 * client's: keep a client whenever one of its command rows moved, so that
 * readers that walk commands under clients (JSON, -C -c) lose nothing.
 */
static int client_active(const void *row, const void *ctx)
{
	const struct ksmbd_stats_client_row *r = row;
	const struct ksmbd_stats_snapshot *d = ctx;

	return r->val.credit_stalls ||
	       bsearch(&r->key, d->cmds, d->nr_cmds, sizeof(*d->cmds),
		       client_prefix_cmp);
}

static void share_sub(void *row, const void *prev)
{
	struct ksmbd_share_val *v = &((struct ksmbd_stats_share_row *)row)->val;
	const struct ksmbd_share_val *p =
		&((const struct ksmbd_stats_share_row *)prev)->val;

	v->tree_connects -= p->tree_connects;
	v->tree_connect_errors -= p->tree_connect_errors;
}

static int share_active(const void *row, const void *ctx)
{
	const struct ksmbd_share_val *v =
		&((const struct ksmbd_stats_share_row *)row)->val;

	(void)ctx;
	return v->tree_connects || v->tree_connect_errors;
}

static const struct row_kind client_kind = {
	sizeof(struct ksmbd_stats_client_row), sizeof(struct ksmbd_client_key),
	offsetof(struct ksmbd_stats_client_row, val.c), client_sub,
	client_active,
};
static const struct row_kind cmd_kind = {
	sizeof(struct ksmbd_stats_cmd_row), sizeof(struct ksmbd_client_cmd_key),
	offsetof(struct ksmbd_stats_cmd_row, val.c), NULL, NULL,
};
static const struct row_kind share_kind = {
	sizeof(struct ksmbd_stats_share_row), sizeof(struct ksmbd_share_key),
	offsetof(struct ksmbd_stats_share_row, val.c), share_sub, share_active,
};

static void global_sub(struct ksmbd_global_val *g,
		       const struct ksmbd_global_val *pg)
{
	if (counters_went_back(&g->c, &pg->c))
		return;
	counters_sub(&g->c, &pg->c);
	g->conns_accepted -= pg->conns_accepted;
	g->conns_closed -= pg->conns_closed;
	g->sessions -= pg->sessions;
	g->session_failures -= pg->session_failures;
	g->sessions_ended -= pg->sessions_ended;
	g->credit_stalls -= pg->credit_stalls;
	g->untracked_io -= pg->untracked_io;
}

int ksmbd_stats_snapshot_delta(const struct ksmbd_stats_snapshot *cur,
			       const struct ksmbd_stats_snapshot *prev,
			       struct ksmbd_stats_snapshot *out)
{
	static const struct ksmbd_stats_snapshot none;
	int ret;

	if (!prev)
		prev = &none;
	memset(out, 0, sizeof(*out));
	out->taken_ns = cur->taken_ns;
	out->global = cur->global;
	if (prev != &none)
		global_sub(&out->global, &prev->global);
	/* Commands first: which clients to keep depends on them. */
	ret = delta_rows(&cmd_kind, cur->cmds, cur->nr_cmds, prev->cmds,
			 prev->nr_cmds, (void **)&out->cmds, &out->nr_cmds,
			 NULL);
	if (!ret)
		ret = delta_rows(&client_kind, cur->clients, cur->nr_clients,
				 prev->clients, prev->nr_clients,
				 (void **)&out->clients, &out->nr_clients, out);
	if (!ret)
		ret = delta_rows(&share_kind, cur->shares, cur->nr_shares,
				 prev->shares, prev->nr_shares,
				 (void **)&out->shares, &out->nr_shares, NULL);
	if (ret)
		ksmbd_stats_snapshot_free(out);
	return ret;
}

void ksmbd_stats_snapshot_free(struct ksmbd_stats_snapshot *snap)
{
	free(snap->clients);
	free(snap->cmds);
	free(snap->shares);
	memset(snap, 0, sizeof(*snap));
}

static int key_cmp_client(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct ksmbd_client_key));
}

static int key_cmp_cmd(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct ksmbd_client_cmd_key));
}

static int key_cmp_share(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct ksmbd_share_key));
}

static int client_key_cmp(const void *key, const void *row)
{
	return memcmp(key, row, sizeof(struct ksmbd_client_key));
}

int ksmbd_stats_snapshot_complete(struct ksmbd_stats_snapshot *snap)
{
	struct ksmbd_stats_client_row *rows;
	size_t n = snap->nr_clients, missing = 0;

	for (size_t i = 0; i < snap->nr_cmds; i++) {
		const struct ksmbd_client_key *k = &snap->cmds[i].key.client;

		/* Commands are sorted by client first: count each client once. */
		if (i && !memcmp(k, &snap->cmds[i - 1].key.client, sizeof(*k)))
			continue;
		if (!bsearch(k, snap->clients, n, sizeof(*rows), client_key_cmp))
			missing++;
	}
	if (!missing)
		return 0;
	rows = realloc(snap->clients, (n + missing) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	snap->clients = rows;
	for (size_t i = 0; i < snap->nr_cmds; i++) {
		const struct ksmbd_client_key *k = &snap->cmds[i].key.client;

		if (i && !memcmp(k, &snap->cmds[i - 1].key.client, sizeof(*k)))
			continue;
		if (bsearch(k, rows, n, sizeof(*rows), client_key_cmp))
			continue;
		memset(&rows[snap->nr_clients], 0, sizeof(*rows));
		rows[snap->nr_clients++].key = *k;
	}
	qsort(rows, snap->nr_clients, sizeof(*rows), key_cmp_client);
	return 0;
}

/* Keys come first in every row type, so rows sort by key with memcmp. */
void ksmbd_stats_snapshot_sort(struct ksmbd_stats_snapshot *snap)
{
	qsort(snap->clients, snap->nr_clients, sizeof(*snap->clients),
	      key_cmp_client);
	qsort(snap->cmds, snap->nr_cmds, sizeof(*snap->cmds), key_cmp_cmd);
	qsort(snap->shares, snap->nr_shares, sizeof(*snap->shares),
	      key_cmp_share);
}
