// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a batch frame says, as plain text (like top -b) or as one JSON
 * object (-J). Pure: host-tested with fake models.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ksmbd_json.h"
#include "view.h"

/* ---- plain text -------------------------------------------------------- */

void kt_batch_text(FILE *f, const struct kt_model *m, const char *note,
		   time_t now)
{
	char lines[KT_HEADER_LINES][KT_LINE_MAX];
	char buf[KT_LINE_MAX];
	unsigned int n, i, k;
	size_t r;

	n = kt_fmt_header(m, note, now, lines);
	for (i = 0; i < n; i++)
		fprintf(f, "%s\n", lines[i]);
	fputc('\n', f);
	if (!m->sum.have_bpf) {
		fputs("(no per-client table without BPF)\n\n", f);
		return;
	}
	kt_fmt_client_title(buf, sizeof(buf), m->sort_col, NULL);
	fprintf(f, "%s\n", buf);
	for (r = 0; r < m->nr_rows; r++) {
		kt_fmt_client_row(buf, sizeof(buf), m->rows[r]);
		fprintf(f, "%s\n", buf);
	}
	/* batch has no Enter key: every client's commands follow its table */
	for (r = 0; r < m->nr_rows; r++) {
		const struct kt_client *c = m->rows[r];
		unsigned int idx[KSMBD_STATS_NR_CMDS];

		n = (unsigned int)kt_client_cmd_order(c, idx);
		if (!n)
			continue;
		fprintf(f, "\n%s %s\n", c->addr, c->user);
		kt_fmt_cmd_title(buf, sizeof(buf));
		fprintf(f, "  %s\n", buf);
		for (k = 0; k < n; k++) {
			kt_fmt_cmd_row(buf, sizeof(buf), c, idx[k]);
			fprintf(f, "  %s\n", buf);
		}
	}
	fputc('\n', f);
}

/* ---- JSON ------------------------------------------------------------- */

/* Names come from clients: bpf/ksmbd_json.c, shared with ksmbd-lat. */
static void json_str(FILE *f, const char *s)
{
	ksmbd_json_str(f, s, (size_t)-1);
}

static void json_key(FILE *f, const char *key, bool *first)
{
	if (!*first)
		fputc(',', f);
	*first = false;
	json_str(f, key);
	fputc(':', f);
}

static void json_u64(FILE *f, const char *key, uint64_t v, bool *first)
{
	json_key(f, key, first);
	fprintf(f, "%llu", (unsigned long long)v);
}

static void json_i64(FILE *f, const char *key, int64_t v, bool *first)
{
	json_key(f, key, first);
	fprintf(f, "%lld", (long long)v);
}

static void json_dbl(FILE *f, const char *key, double v, bool *first)
{
	json_key(f, key, first);
	fprintf(f, "%.3f", isfinite(v) ? v : 0.0);
}

static void json_text(FILE *f, const char *key, const char *v, bool *first)
{
	json_key(f, key, first);
	json_str(f, v);
}

static void json_bool(FILE *f, const char *key, bool v, bool *first)
{
	json_key(f, key, first);
	fputs(v ? "true" : "false", f);
}

/* Cumulative counters, then the interval's rates, one shape everywhere. */
static void json_counters(FILE *f, const struct kt_totals *t,
			  const struct kt_rates *iv, bool *first)
{
	json_u64(f, "requests", t->requests, first);
	json_u64(f, "errors", t->errors, first);
	json_u64(f, "bytes_read", t->bytes_read, first);
	json_u64(f, "bytes_written", t->bytes_written, first);
	json_u64(f, "interval_requests", iv->delta.requests, first);
	json_dbl(f, "req_s", iv->req_s, first);
	json_dbl(f, "err_s", iv->err_s, first);
	json_dbl(f, "read_mbs", iv->read_mbs, first);
	json_dbl(f, "write_mbs", iv->write_mbs, first);
	json_dbl(f, "avg_us", iv->avg_us, first);
	json_u64(f, "p50_us", iv->p50_us, first);
	json_u64(f, "p99_us", iv->p99_us, first);
}

static void json_commands(FILE *f, const struct kt_client *c)
{
	unsigned int idx[KSMBD_STATS_NR_CMDS];
	size_t n, i;

	n = kt_client_cmd_order(c, idx);
	fputc('[', f);
	for (i = 0; i < n; i++) {
		const struct kt_cmd_stat *s = &c->cmd[idx[i]];
		bool first = true;

		fputs(i ? ",{" : "{", f);
		json_text(f, "command", ksmbd_stats_cmd_name(idx[i]), &first);
		json_counters(f, &s->total, &s->iv, &first);
		fputc('}', f);
	}
	fputc(']', f);
}

static void json_client(FILE *f, const struct kt_client *c)
{
	bool first = true;

	fputc('{', f);
	json_text(f, "addr", c->addr, &first);
	json_text(f, "user", c->user, &first);
	json_text(f, "dialect", ksmbd_stats_dialect_name(c->dialect), &first);
	json_bool(f, "signing", c->signing, &first);
	json_bool(f, "encryption", c->encryption, &first);
	json_u64(f, "sessions", c->sessions, &first);
	json_key(f, "open_files", &first);
	if (c->open_files >= 0)
		fprintf(f, "%lld", (long long)c->open_files);
	else
		fputs("null", f);
	json_counters(f, &c->total, &c->iv, &first);
	json_i64(f, "credits_outstanding", c->credits_outstanding, &first);
	json_u64(f, "credits_granted", c->iv.delta.credits_granted, &first);
	json_u64(f, "credit_stalls", c->credit_stalls, &first);
	json_key(f, "commands", &first);
	json_commands(f, c);
	fputc('}', f);
}

static void json_server(FILE *f, const struct kt_summary *s)
{
	bool first = true;

	if (!s->have_mod) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	json_text(f, "version", s->mod.version, &first);
	json_text(f, "state", s->mod.state, &first);
	json_u64(f, "uptime_s", s->mod.uptime_s, &first);
	json_u64(f, "connections", s->mod.connections, &first);
	json_u64(f, "sessions", s->mod.sessions, &first);
	json_u64(f, "trees", s->mod.trees, &first);
	json_u64(f, "open_files", s->mod.open_files, &first);
	json_u64(f, "requests", s->mod.requests, &first);
	json_u64(f, "bytes_in", s->mod.bytes_in, &first);
	json_u64(f, "bytes_out", s->mod.bytes_out, &first);
	json_u64(f, "pending_sessions", s->mod.pending_sessions, &first);
	json_u64(f, "session_setups_refused", s->mod.setups_refused, &first);
	json_u64(f, "session_setups_evicted", s->mod.setups_evicted, &first);
	json_u64(f, "tx_queued_bytes", s->mod.tx_queued_bytes, &first);
	json_u64(f, "works_parked", s->mod.works_parked, &first);
	json_u64(f, "send_stall_drops", s->mod.send_stall_drops, &first);
	json_u64(f, "daemon_pid", s->mod.daemon_pid, &first);
	json_u64(f, "daemon_losses", s->mod.daemon_losses, &first);
	json_u64(f, "notify_watches", s->mod.notify_watches, &first);
	json_u64(f, "byte_range_locks", s->mod.locks, &first);
	json_u64(f, "open_files_refused_per_session", s->mod.files_refused_session, &first);
	json_u64(f, "open_files_refused_per_connection", s->mod.files_refused_conn, &first);
	json_u64(f, "notify_watches_refused", s->mod.notify_refused, &first);
	json_u64(f, "locks_refused_per_handle", s->mod.locks_refused_handle, &first);
	json_u64(f, "locks_refused_per_file", s->mod.locks_refused_file, &first);
	json_u64(f, "allocation_reservations_capped", s->mod.alloc_capped, &first);
	json_dbl(f, "wire_in_mbs", s->wire_in_mbs, &first);
	json_dbl(f, "wire_out_mbs", s->wire_out_mbs, &first);
	fputc('}', f);
}

static void json_totals(FILE *f, const struct kt_summary *s)
{
	bool first = true;
	unsigned int i;

	fputc('{', f);
	json_counters(f, &s->total, &s->iv, &first);
	json_i64(f, "credits_outstanding", s->credits_outstanding, &first);
	json_u64(f, "credits_granted", s->iv.delta.credits_granted, &first);
	json_dbl(f, "stalls_s", s->stalls_s, &first);
	json_key(f, "dialects", &first);
	fputc('[', f);
	for (i = 0; i < s->nr_dialects; i++) {
		bool f2 = true;

		fputs(i ? ",{" : "{", f);
		json_text(f, "dialect",
			  ksmbd_stats_dialect_name(s->dialects[i].dialect), &f2);
		json_u64(f, "clients", s->dialects[i].clients, &f2);
		fputc('}', f);
	}
	fputs("]}", f);
}

void kt_batch_json(FILE *f, const struct kt_model *m, const char *note,
		   time_t now)
{
	const struct kt_summary *s = &m->sum;
	bool first = true;
	size_t i;

	fputc('{', f);
	json_i64(f, "time", (int64_t)now, &first);
	json_dbl(f, "interval_s", s->interval_s, &first);
	json_bool(f, "bpf", s->have_bpf, &first);
	json_text(f, "note", note ? note : "", &first);
	json_text(f, "sort", kt_col_name(m->sort_col), &first);
	json_key(f, "server", &first);
	json_server(f, s);
	json_key(f, "totals", &first);
	json_totals(f, s);
	json_key(f, "clients", &first);
	fputc('[', f);
	for (i = 0; i < m->nr_rows; i++) {
		if (i)
			fputc(',', f);
		json_client(f, m->rows[i]);
	}
	fputs("]}\n", f);
}
