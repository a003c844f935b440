// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksmbdtop's model: snapshots in, rows with totals and interval rates out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

/* A counter that went backwards was reset or re-created: count it anew. */
static uint64_t counter_delta(uint64_t cur, uint64_t prev)
{
	return cur >= prev ? cur - prev : cur;
}

static int addr_cmp(const struct ksmbd_client_key *a,
		    const struct ksmbd_client_key *b)
{
	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	return memcmp(a->addr, b->addr, sizeof(a->addr));
}

static void key_of_addr(struct ksmbd_client_key *dst,
			const struct ksmbd_client_key *src)
{
	memset(dst, 0, sizeof(*dst));
	memcpy(dst->addr, src->addr, sizeof(dst->addr));
	dst->family = src->family;
}

void kt_model_init(struct kt_model *m)
{
	memset(m, 0, sizeof(*m));
	m->sort_col = KT_COL_REQS;
}

void kt_model_fini(struct kt_model *m)
{
	size_t i;

	for (i = 0; i < m->nr_rows; i++)
		free(m->rows[i]);
	free(m->rows);
	if (m->have_prev)
		ksmbd_stats_snapshot_free(&m->prev);
	memset(m, 0, sizeof(*m));
}

struct kt_client *kt_model_find(const struct kt_model *m, const char *addr)
{
	size_t i;

	for (i = 0; i < m->nr_rows; i++)
		if (!strcmp(m->rows[i]->addr, addr))
			return m->rows[i];
	return NULL;
}

/* ---- aggregation ---------------------------------------------------- */

/* Rows sorted by address for lookups during one tick. */
struct row_index {
	struct kt_client **v;
	size_t n;
};

static int row_index_cmp(const void *a, const void *b)
{
	const struct kt_client *x = *(struct kt_client * const *)a;
	const struct kt_client *y = *(struct kt_client * const *)b;

	return addr_cmp(&x->key, &y->key);
}

static struct kt_client *row_index_find(const struct row_index *ix,
					const struct ksmbd_client_key *key)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = addr_cmp(key, &ix->v[mid]->key);

		if (!c)
			return ix->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static void client_clear_tick(struct kt_client *c)
{
	c->user[0] = '\0';
	c->dialect = 0;
	c->signing = false;
	c->encryption = false;
	c->sessions = 0;
	c->listed_sessions = 0;
	c->open_files = -1;
	c->credits_outstanding = 0;
	c->credit_stalls = 0;
	c->stalls_s = 0;
	memset(&c->total, 0, sizeof(c->total));
	memset(&c->iv, 0, sizeof(c->iv));
	memset(c->cmd, 0, sizeof(c->cmd));
	memset(&c->iv_hist, 0, sizeof(c->iv_hist));
	memset(c->cmd_hist, 0, sizeof(c->cmd_hist));
	c->seen = false;
}

static void totals_add(struct kt_totals *t, const struct ksmbd_req_counters *c)
{
	t->requests += c->requests;
	t->errors += c->errors;
	t->bytes_read += c->bytes_read;
	t->bytes_written += c->bytes_written;
	t->credits_granted += c->credits_granted;
	t->latency_ns += c->latency_ns_sum;
}

static void hist_add(struct ksmbd_stats_hist *h,
		     const struct ksmbd_stats_hist *add)
{
	unsigned int i;

	for (i = 0; i < KSMBD_STATS_HIST_SLOTS; i++)
		h->slots[i] += add->slots[i];
}

/*
 * "alice", or "alice+N" when N other users have sessions from the same
 * address: the column stays narrow and still says "more than one".
 */
#define KT_USERS_TRACKED 8

struct user_set {
	const char *names[KT_USERS_TRACKED];
	unsigned int n;
	unsigned int overflow;	/* distinct names past the tracked ones */
};

static void user_set_add(struct user_set *u, const char *name)
{
	unsigned int i;

	if (!name[0])
		return;
	for (i = 0; i < u->n; i++)
		if (!strncmp(u->names[i], name, KSMBD_STATS_USER_LEN))
			return;
	if (u->n < KT_USERS_TRACKED)
		u->names[u->n++] = name;
	else
		u->overflow++;
}

static void user_set_format(const struct user_set *u, char *buf, size_t len)
{
	unsigned int others = u->n ? u->n - 1 + u->overflow : 0;

	if (!u->n)
		buf[0] = '\0';
	else if (others)
		snprintf(buf, len, "%.*s+%u", KSMBD_STATS_USER_LEN - 1,
			 u->names[0], others);
	else
		snprintf(buf, len, "%.*s", KSMBD_STATS_USER_LEN - 1,
			 u->names[0]);
}

/*
 * Credits outstanding are a per-connection number stored in every key the
 * connection used; count each connection once, with its latest value.
 */
struct conn_credit {
	uint64_t conn_id;
	uint64_t last_seen_ns;
	int64_t outstanding;
};

static void conn_credit_note(struct conn_credit *cc, size_t *n, size_t cap,
			     const struct ksmbd_client_val *v)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (cc[i].conn_id != v->conn_id)
			continue;
		if (v->last_seen_ns >= cc[i].last_seen_ns) {
			cc[i].last_seen_ns = v->last_seen_ns;
			cc[i].outstanding = v->outstanding;
		}
		return;
	}
	if (*n == cap)
		return;
	cc[*n].conn_id = v->conn_id;
	cc[*n].last_seen_ns = v->last_seen_ns;
	cc[*n].outstanding = v->outstanding;
	(*n)++;
}

/* Fold n snapshot rows of one address into c. */
static int client_fold(struct kt_client *c,
		       const struct ksmbd_stats_client_row *r, size_t n)
{
	struct user_set users = { { 0 }, 0, 0 };
	struct conn_credit *cc;
	size_t ncc = 0, i;

	cc = calloc(n, sizeof(*cc));
	if (!cc)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct ksmbd_client_val *v = &r[i].val;

		totals_add(&c->total, &v->c);
		if (r[i].key.session_id) {
			c->sessions++;
			c->signing |= v->signing != 0;
			c->encryption |= v->encryption != 0;
		}
		if (v->dialect > c->dialect)
			c->dialect = v->dialect;
		c->credit_stalls += v->credit_stalls;
		user_set_add(&users, v->user);
		conn_credit_note(cc, &ncc, n, v);
	}
	for (i = 0; i < ncc; i++)
		c->credits_outstanding += cc[i].outstanding;
	free(cc);
	user_set_format(&users, c->user, sizeof(c->user));
	c->seen = true;
	return 0;
}

static int rows_reserve(struct kt_model *m, size_t need)
{
	struct kt_client **v;
	size_t cap;

	if (need <= m->cap_rows)
		return 0;
	cap = m->cap_rows ? m->cap_rows * 2 : 16;
	while (cap < need)
		cap *= 2;
	v = realloc(m->rows, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	m->rows = v;
	m->cap_rows = cap;
	return 0;
}

static size_t addr_run(const struct ksmbd_stats_client_row *r, size_t i,
		       size_t n)
{
	size_t j = i + 1;

	while (j < n && !addr_cmp(&r[j].key, &r[i].key))
		j++;
	return j;
}

/* Rows appended this tick are not in the index yet. */
static struct kt_client *find_new_row(const struct kt_model *m, size_t from,
				      const struct ksmbd_client_key *key)
{
	size_t i;

	for (i = from; i < m->nr_rows; i++)
		if (!addr_cmp(&m->rows[i]->key, key))
			return m->rows[i];
	return NULL;
}

/* The row of this address, appended when new; NULL when out of memory. */
static struct kt_client *row_for_key(struct kt_model *m,
				     const struct row_index *ix,
				     const struct ksmbd_client_key *key)
{
	struct kt_client *c;

	c = row_index_find(ix, key);
	if (!c)
		c = find_new_row(m, ix->n, key);
	if (c)
		return c;
	if (rows_reserve(m, m->nr_rows + 1))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	key_of_addr(&c->key, key);
	ksmbd_stats_addr_format(&c->key, c->addr, sizeof(c->addr));
	client_clear_tick(c);
	m->rows[m->nr_rows++] = c;
	return c;
}

/*
 * New addresses are appended in snapshot (address) order, so that the
 * first tick is deterministic; later a stable sort keeps them in place
 * among ties.
 */
static int fold_clients(struct kt_model *m, const struct ksmbd_stats_snapshot *s,
			struct row_index *ix)
{
	size_t i = 0, j;

	while (i < s->nr_clients) {
		struct kt_client *c;

		j = addr_run(s->clients, i, s->nr_clients);
		c = row_for_key(m, ix, &s->clients[i].key);
		if (!c || client_fold(c, &s->clients[i], j - i))
			return -ENOMEM;
		i = j;
	}
	return 0;
}

/*
 * The module's listing of connected clients: an address connected now is
 * a row even when it sent nothing the programs saw (idle since before
 * they were attached, or evicted from the maps), with its users, dialect,
 * sessions and security as the module knows them.
 */
static int fold_listed(struct kt_model *m, const struct kt_clients *l,
		       const struct row_index *ix)
{
	const struct kt_listed_conn **owner;
	size_t i, k;

	for (i = 0; i < l->nr_conns; i++) {
		const struct kt_listed_conn *lc = &l->conns[i];
		struct kt_client *c;

		if (!lc->key.family)
			continue;
		c = row_for_key(m, ix, &lc->key);
		if (!c)
			return -ENOMEM;
		c->seen = true;
		if (lc->dialect > c->dialect)
			c->dialect = lc->dialect;
	}
	if (!l->nr_sess)
		return 0;
	owner = calloc(l->nr_sess, sizeof(*owner));
	if (!owner)
		return -ENOMEM;
	for (k = 0; k < l->nr_sess; k++)
		owner[k] = kt_clients_conn(l, l->sess[k].conn_id);
	for (i = 0; i < m->nr_rows; i++) {
		struct user_set users = { { 0 }, 0, 0 };
		struct kt_client *c = m->rows[i];

		for (k = 0; k < l->nr_sess; k++) {
			const struct kt_listed_sess *ls = &l->sess[k];

			if (!owner[k] || addr_cmp(&owner[k]->key, &c->key))
				continue;
			c->listed_sessions++;
			c->signing |= ls->signing;
			c->encryption |= ls->encryption;
			user_set_add(&users, ls->user);
		}
		if (c->sessions < c->listed_sessions)
			c->sessions = c->listed_sessions;
		if (!c->user[0])
			user_set_format(&users, c->user, sizeof(c->user));
	}
	free(owner);
	return 0;
}

static int index_rows(const struct kt_model *m, struct row_index *ix)
{
	ix->n = m->nr_rows;
	ix->v = NULL;
	if (!ix->n)
		return 0;
	ix->v = malloc(ix->n * sizeof(*ix->v));
	if (!ix->v)
		return -ENOMEM;
	memcpy(ix->v, m->rows, ix->n * sizeof(*ix->v));
	qsort(ix->v, ix->n, sizeof(*ix->v), row_index_cmp);
	return 0;
}

static void fold_cmd_totals(const struct ksmbd_stats_snapshot *s,
			    const struct row_index *ix)
{
	size_t i;

	for (i = 0; i < s->nr_cmds; i++) {
		const struct ksmbd_stats_cmd_row *r = &s->cmds[i];
		struct kt_client *c;

		if (r->key.command >= KSMBD_STATS_NR_CMDS)
			continue;
		c = row_index_find(ix, &r->key.client);
		if (c)
			totals_add(&c->cmd[r->key.command].total, &r->val.c);
	}
}

/* Interval counters and histograms, from the delta snapshot. */
static void fold_interval(const struct ksmbd_stats_snapshot *d,
			  const struct row_index *ix)
{
	size_t i;

	for (i = 0; i < d->nr_clients; i++) {
		const struct ksmbd_stats_client_row *r = &d->clients[i];
		struct kt_client *c = row_index_find(ix, &r->key);

		if (!c)
			continue;
		totals_add(&c->iv.delta, &r->val.c);
		hist_add(&c->iv_hist, &r->val.c.lat);
		/* a count for now; made a rate with the interval */
		c->stalls_s += (double)r->val.credit_stalls;
	}
	for (i = 0; i < d->nr_cmds; i++) {
		const struct ksmbd_stats_cmd_row *r = &d->cmds[i];
		unsigned int cmd = r->key.command;
		struct kt_client *c;

		if (cmd >= KSMBD_STATS_NR_CMDS)
			continue;
		c = row_index_find(ix, &r->key.client);
		if (!c)
			continue;
		totals_add(&c->cmd[cmd].iv.delta, &r->val.c);
		hist_add(&c->cmd_hist[cmd], &r->val.c.lat);
	}
}

static void rates_finish(struct kt_rates *r, const struct ksmbd_stats_hist *h,
			 double secs)
{
	const struct kt_totals *d = &r->delta;

	if (secs > 0) {
		r->req_s = (double)d->requests / secs;
		r->err_s = (double)d->errors / secs;
		r->read_mbs = (double)d->bytes_read / secs / 1e6;
		r->write_mbs = (double)d->bytes_written / secs / 1e6;
	}
	r->avg_us = d->requests ?
		(double)d->latency_ns / (double)d->requests / 1e3 : 0;
	r->p50_us = ksmbd_stats_hist_percentile(h, 50);
	r->p99_us = ksmbd_stats_hist_percentile(h, 99);
}

static void client_rates(struct kt_client *c, double secs)
{
	unsigned int i;

	rates_finish(&c->iv, &c->iv_hist, secs);
	c->stalls_s = secs > 0 ? c->stalls_s / secs : 0;
	for (i = 0; i < KSMBD_STATS_NR_CMDS; i++)
		rates_finish(&c->cmd[i].iv, &c->cmd_hist[i], secs);
}

/* Drop rows whose address left the maps; keep the others' order. */
static void rows_compact(struct kt_model *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->nr_rows; i++) {
		if (m->rows[i]->seen)
			m->rows[n++] = m->rows[i];
		else
			free(m->rows[i]);
	}
	m->nr_rows = n;
}

static void summary_dialects(struct kt_model *m)
{
	struct kt_summary *s = &m->sum;
	size_t i;

	s->nr_dialects = 0;
	for (i = 0; i < m->nr_rows; i++) {
		uint16_t d = m->rows[i]->dialect;
		unsigned int k;

		if (!d)
			continue;
		for (k = 0; k < s->nr_dialects; k++)
			if (s->dialects[k].dialect == d)
				break;
		if (k == s->nr_dialects) {
			if (k == KT_MAX_DIALECTS)
				continue;
			s->dialects[k].dialect = d;
			s->dialects[k].clients = 0;
			s->nr_dialects++;
		}
		s->dialects[k].clients++;
	}
}

static void summary_bpf(struct kt_model *m, const struct ksmbd_stats_snapshot *cur,
			const struct ksmbd_stats_snapshot *d, double secs)
{
	struct kt_summary *s = &m->sum;
	size_t i;

	s->have_bpf = true;
	memset(&s->total, 0, sizeof(s->total));
	memset(&s->iv, 0, sizeof(s->iv));
	totals_add(&s->total, &cur->global.c);
	if (d) {
		totals_add(&s->iv.delta, &d->global.c);
		rates_finish(&s->iv, &d->global.c.lat, secs);
		s->stalls_s = secs > 0 ?
			(double)d->global.credit_stalls / secs : 0;
	}
	s->credits_outstanding = 0;
	for (i = 0; i < m->nr_rows; i++)
		s->credits_outstanding += m->rows[i]->credits_outstanding;
	summary_dialects(m);
}

/* Wire throughput always, and the request rate when BPF is missing. */
static void summary_mod(struct kt_model *m, const struct kt_modstats *mod,
			uint64_t now_ns)
{
	struct kt_summary *s = &m->sum;
	double secs;

	s->have_mod = mod != NULL;
	s->wire_in_mbs = 0;
	s->wire_out_mbs = 0;
	if (!mod) {
		m->have_prev_mod = false;
		return;
	}
	s->mod = *mod;
	if (m->have_prev_mod && now_ns > m->prev_mod_ns) {
		secs = (double)(now_ns - m->prev_mod_ns) / 1e9;
		s->wire_in_mbs = (double)counter_delta(mod->bytes_in,
				m->prev_mod.bytes_in) / secs / 1e6;
		s->wire_out_mbs = (double)counter_delta(mod->bytes_out,
				m->prev_mod.bytes_out) / secs / 1e6;
		if (!s->have_bpf) {
			s->interval_s = secs;
			s->iv.delta.requests = counter_delta(mod->requests,
					m->prev_mod.requests);
			s->iv.req_s = (double)s->iv.delta.requests / secs;
		}
	}
	if (!s->have_bpf)
		s->total.requests = mod->requests;
	m->prev_mod = *mod;
	m->prev_mod_ns = now_ns;
	m->have_prev_mod = true;
}

static int update_bpf(struct kt_model *m, struct ksmbd_stats_snapshot *snap,
		      const struct kt_clients *listed)
{
	struct ksmbd_stats_snapshot delta = { 0 };
	const struct ksmbd_stats_snapshot *d = NULL;
	struct row_index ix = { 0 };
	double secs = 0;
	size_t i;
	int err;

	for (i = 0; i < m->nr_rows; i++)
		client_clear_tick(m->rows[i]);
	err = index_rows(m, &ix);
	if (err)
		return err;
	err = fold_clients(m, snap, &ix);
	if (!err && listed)
		err = fold_listed(m, listed, &ix);
	free(ix.v);
	if (err)
		return err;
	rows_compact(m);
	err = index_rows(m, &ix);
	if (err)
		return err;
	fold_cmd_totals(snap, &ix);
	if (m->have_prev) {
		secs = (double)(snap->taken_ns - m->prev.taken_ns) / 1e9;
		/* the lib keeps a row whole when its counters went back */
		err = ksmbd_stats_snapshot_delta(snap, &m->prev, &delta);
		if (err)
			goto out_free_index;
		d = &delta;
		fold_interval(d, &ix);
		for (i = 0; i < m->nr_rows; i++)
			client_rates(m->rows[i], secs);
	}
	m->sum.interval_s = secs;
	summary_bpf(m, snap, d, secs);
	if (m->have_prev)
		ksmbd_stats_snapshot_free(&m->prev);
	m->prev = *snap;
	m->have_prev = true;
	memset(snap, 0, sizeof(*snap));
out_free_index:
	ksmbd_stats_snapshot_free(&delta);
	free(ix.v);
	return err;
}

static void drop_bpf(struct kt_model *m)
{
	size_t i;

	for (i = 0; i < m->nr_rows; i++)
		free(m->rows[i]);
	m->nr_rows = 0;
	if (m->have_prev)
		ksmbd_stats_snapshot_free(&m->prev);
	m->have_prev = false;
	memset(&m->sum, 0, sizeof(m->sum));
}

int kt_model_update(struct kt_model *m, struct ksmbd_stats_snapshot *snap,
		    const struct kt_modstats *mod,
		    const struct kt_clients *listed, uint64_t now_ns)
{
	int err = 0;

	if (snap) {
		err = update_bpf(m, snap, listed);
		ksmbd_stats_snapshot_free(snap);
	} else {
		drop_bpf(m);
	}
	summary_mod(m, mod, now_ns);
	kt_model_sort(m, m->sort_col);
	return err;
}

/* ---- sorting ---------------------------------------------------------- */

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

static int cmp_i64_desc(int64_t a, int64_t b)
{
	return a > b ? -1 : a < b;
}

static int cmp_dbl_desc(double a, double b)
{
	return a > b ? -1 : a < b;
}

/* Empty names sort last: a row without a user is the least interesting. */
static int cmp_user(const char *a, const char *b)
{
	if (!a[0] || !b[0])
		return !a[0] - !b[0];
	return strcmp(a, b);
}

static int security_rank(const struct kt_client *c)
{
	return (c->encryption ? 2 : 0) + (c->signing ? 1 : 0);
}

/* < 0 when a goes above b. Text ascends, numbers descend (like top). */
static int client_cmp(const struct kt_client *a, const struct kt_client *b,
		      enum kt_col col)
{
	switch (col) {
	case KT_COL_ADDR:
		return addr_cmp(&a->key, &b->key);
	case KT_COL_USER:
		return cmp_user(a->user, b->user);
	case KT_COL_DIALECT:
		return cmp_u64_desc(a->dialect, b->dialect);
	case KT_COL_SECURITY:
		return security_rank(b) - security_rank(a);
	case KT_COL_SESSIONS:
		return cmp_u64_desc(a->sessions, b->sessions);
	case KT_COL_FILES:
		return cmp_i64_desc(a->open_files, b->open_files);
	case KT_COL_REQS:
		return cmp_dbl_desc(a->iv.req_s, b->iv.req_s);
	case KT_COL_READ:
		return cmp_dbl_desc(a->iv.read_mbs, b->iv.read_mbs);
	case KT_COL_WRITE:
		return cmp_dbl_desc(a->iv.write_mbs, b->iv.write_mbs);
	case KT_COL_AVG:
		return cmp_dbl_desc(a->iv.avg_us, b->iv.avg_us);
	case KT_COL_P50:
		return cmp_u64_desc(a->iv.p50_us, b->iv.p50_us);
	case KT_COL_P99:
		return cmp_u64_desc(a->iv.p99_us, b->iv.p99_us);
	case KT_COL_ERRS:
		return cmp_dbl_desc(a->iv.err_s, b->iv.err_s);
	case KT_COL_CREDITS:
		return cmp_i64_desc(a->credits_outstanding,
				    b->credits_outstanding);
	case KT_COL_NR:
		break;
	}
	return 0;
}

void kt_model_sort(struct kt_model *m, enum kt_col col)
{
	size_t i, j;

	if ((unsigned int)col >= KT_COL_NR)
		col = KT_COL_REQS;
	m->sort_col = col;
	for (i = 1; i < m->nr_rows; i++) {
		struct kt_client *x = m->rows[i];

		for (j = i; j > 0 && client_cmp(x, m->rows[j - 1], col) < 0; j--)
			m->rows[j] = m->rows[j - 1];
		m->rows[j] = x;
	}
}

static const struct {
	const char *name;
	int key;
} cols[KT_COL_NR] = {
	[KT_COL_ADDR] = { "ADDRESS", 'a' },
	[KT_COL_USER] = { "USER", 'u' },
	[KT_COL_DIALECT] = { "DIALECT", 'v' },
	[KT_COL_SECURITY] = { "SEC", 'x' },
	[KT_COL_SESSIONS] = { "SESS", 's' },
	[KT_COL_FILES] = { "FILES", 'f' },
	[KT_COL_REQS] = { "REQ/s", 'r' },
	[KT_COL_READ] = { "RD_MB/s", 'R' },
	[KT_COL_WRITE] = { "WR_MB/s", 'w' },
	[KT_COL_AVG] = { "AVG_us", 'L' },
	[KT_COL_P50] = { "P50_us", 'm' },
	[KT_COL_P99] = { "P99_us", 'l' },
	[KT_COL_ERRS] = { "ERR/s", 'e' },
	[KT_COL_CREDITS] = { "CRED", 'c' },
};

const char *kt_col_name(enum kt_col col)
{
	return (unsigned int)col < KT_COL_NR ? cols[col].name : "?";
}

int kt_col_key(enum kt_col col)
{
	return (unsigned int)col < KT_COL_NR ? cols[col].key : 0;
}

int kt_col_by_key(int key)
{
	int i;

	for (i = 0; i < KT_COL_NR; i++)
		if (cols[i].key == key)
			return i;
	return -1;
}

size_t kt_client_cmd_order(const struct kt_client *c, unsigned int *idx)
{
	size_t n = 0, i, j;

	for (i = 0; i < KSMBD_STATS_NR_CMDS; i++) {
		const struct kt_cmd_stat *s = &c->cmd[i];
		unsigned int x = (unsigned int)i;

		if (!s->total.requests && !s->iv.delta.requests)
			continue;
		/* insertion by (interval desc, total desc); i ascends */
		for (j = n; j > 0; j--) {
			const struct kt_cmd_stat *p = &c->cmd[idx[j - 1]];

			if (p->iv.delta.requests > s->iv.delta.requests ||
			    (p->iv.delta.requests == s->iv.delta.requests &&
			     p->total.requests >= s->total.requests))
				break;
			idx[j] = idx[j - 1];
		}
		idx[j] = x;
		n++;
	}
	return n;
}
