// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text of ksmbdtop's lines, shared by both views.
 */
#include <stdio.h>
#include <string.h>
#include "format.h"

/* Widths of the client table; a title and its values share one format. */
#define W_ADDR	22
#define W_USER	12
#define W_DIAL	7
#define W_SEC	3
#define W_SESS	4
#define W_FILES	5
#define W_NUM	8
#define W_CRED	11

static const unsigned int col_width[KT_COL_NR] = {
	[KT_COL_ADDR] = W_ADDR, [KT_COL_USER] = W_USER,
	[KT_COL_DIALECT] = W_DIAL, [KT_COL_SECURITY] = W_SEC,
	[KT_COL_SESSIONS] = W_SESS, [KT_COL_FILES] = W_FILES,
	[KT_COL_REQS] = W_NUM, [KT_COL_READ] = W_NUM,
	[KT_COL_WRITE] = W_NUM, [KT_COL_AVG] = W_NUM,
	[KT_COL_P50] = W_NUM, [KT_COL_P99] = W_NUM,
	[KT_COL_ERRS] = W_NUM, [KT_COL_CREDITS] = W_CRED,
};

/* Text columns are left-aligned, numbers right-aligned. */
static bool col_is_text(enum kt_col c)
{
	return c == KT_COL_ADDR || c == KT_COL_USER || c == KT_COL_DIALECT ||
	       c == KT_COL_SECURITY;
}

void kt_fmt_num(char *buf, size_t len, double v)
{
	if (v < 0)
		v = 0;
	if (v >= 1e7)
		snprintf(buf, len, "%.0fM", v / 1e6);
	else if (v >= 1e5)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 100)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/* Appends one cell; cells are separated by a space. */
static size_t put_cell(char *buf, size_t len, size_t off, enum kt_col col,
		       const char *text)
{
	int w = (int)col_width[col];
	int n;

	if (off >= len)
		return off;
	if (col_is_text(col))
		n = snprintf(buf + off, len - off, "%s%-*.*s", off ? " " : "",
			     w, w, text);
	else
		n = snprintf(buf + off, len - off, "%s%*.*s", off ? " " : "",
			     w, w, text);
	if (n < 0)
		return off;
	return off + (size_t)n >= len ? len - 1 : off + (size_t)n;
}

void kt_fmt_client_title(char *buf, size_t len, enum kt_col sort,
			 struct kt_col_span *span)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < KT_COL_NR; i++) {
		size_t start = off ? off + 1 : 0;

		off = put_cell(buf, len, off, (enum kt_col)i,
			       kt_col_name((enum kt_col)i));
		if (span && i == (int)sort) {
			span->start = (unsigned int)start;
			span->width = col_width[i];
		}
	}
}

static const char *security_text(const struct kt_client *c)
{
	if (c->encryption && c->signing)
		return "SE";
	if (c->encryption)
		return "E";
	if (c->signing)
		return "S";
	return "-";
}

/* User names are bytes from the wire: no control characters on a tty. */
static void printable(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++) {
		unsigned char ch = (unsigned char)src[i];

		dst[i] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	dst[i] = '\0';
}

void kt_fmt_client_row(char *buf, size_t len, const struct kt_client *c)
{
	char cell[KT_COL_NR][KT_USER_LEN];
	size_t off = 0;
	int i;

	snprintf(cell[KT_COL_ADDR], sizeof(cell[0]), "%s", c->addr);
	printable(cell[KT_COL_USER], sizeof(cell[0]), c->user);
	snprintf(cell[KT_COL_DIALECT], sizeof(cell[0]), "%s",
		 ksmbd_stats_dialect_name(c->dialect));
	snprintf(cell[KT_COL_SECURITY], sizeof(cell[0]), "%s",
		 security_text(c));
	snprintf(cell[KT_COL_SESSIONS], sizeof(cell[0]), "%u", c->sessions);
	if (c->open_files >= 0)
		snprintf(cell[KT_COL_FILES], sizeof(cell[0]), "%lld",
			 (long long)c->open_files);
	else
		cell[KT_COL_FILES][0] = '\0';
	kt_fmt_num(cell[KT_COL_REQS], sizeof(cell[0]), c->iv.req_s);
	kt_fmt_num(cell[KT_COL_READ], sizeof(cell[0]), c->iv.read_mbs);
	kt_fmt_num(cell[KT_COL_WRITE], sizeof(cell[0]), c->iv.write_mbs);
	kt_fmt_num(cell[KT_COL_AVG], sizeof(cell[0]), c->iv.avg_us);
	snprintf(cell[KT_COL_P50], sizeof(cell[0]), "%llu",
		 (unsigned long long)c->iv.p50_us);
	snprintf(cell[KT_COL_P99], sizeof(cell[0]), "%llu",
		 (unsigned long long)c->iv.p99_us);
	kt_fmt_num(cell[KT_COL_ERRS], sizeof(cell[0]), c->iv.err_s);
	snprintf(cell[KT_COL_CREDITS], sizeof(cell[0]), "%lld/%llu",
		 (long long)c->credits_outstanding,
		 (unsigned long long)c->iv.delta.credits_granted);
	buf[0] = '\0';
	for (i = 0; i < KT_COL_NR; i++)
		off = put_cell(buf, len, off, (enum kt_col)i, cell[i]);
}

void kt_fmt_cmd_title(char *buf, size_t len)
{
	snprintf(buf, len, "%-16s %8s %10s %8s %8s %8s %8s %8s",
		 "COMMAND", "COUNT/s", "TOTAL", "AVG_us", "P50_us", "P99_us",
		 "ERR/s", "ERRORS");
}

void kt_fmt_cmd_row(char *buf, size_t len, const struct kt_client *c,
		    unsigned int cmd)
{
	const struct kt_cmd_stat *s = &c->cmd[cmd];
	char rate[16], avg[16], err[16];

	kt_fmt_num(rate, sizeof(rate), s->iv.req_s);
	kt_fmt_num(avg, sizeof(avg), s->iv.avg_us);
	kt_fmt_num(err, sizeof(err), s->iv.err_s);
	snprintf(buf, len, "%-16s %8s %10llu %8s %8llu %8llu %8s %8llu",
		 ksmbd_stats_cmd_name(cmd), rate,
		 (unsigned long long)s->total.requests, avg,
		 (unsigned long long)s->iv.p50_us,
		 (unsigned long long)s->iv.p99_us, err,
		 (unsigned long long)s->total.errors);
}

static void fmt_dialects(char *buf, size_t len, const struct kt_summary *s)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < s->nr_dialects && off < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%s x%u",
				 i ? ", " : "",
				 ksmbd_stats_dialect_name(s->dialects[i].dialect),
				 s->dialects[i].clients);

		if (n < 0)
			break;
		off += (size_t)n;
	}
	if (!s->nr_dialects)
		snprintf(buf, len, "-");
}

static void fmt_uptime(char *buf, size_t len, uint64_t s)
{
	if (s >= 86400)
		snprintf(buf, len, "%llud %02llu:%02llu",
			 (unsigned long long)(s / 86400),
			 (unsigned long long)(s / 3600 % 24),
			 (unsigned long long)(s / 60 % 60));
	else
		snprintf(buf, len, "%02llu:%02llu:%02llu",
			 (unsigned long long)(s / 3600),
			 (unsigned long long)(s / 60 % 60),
			 (unsigned long long)(s % 60));
}

static void header_server(const struct kt_summary *s, time_t now,
			  char *line)
{
	char clock[16] = "", up[32];
	struct tm tm;

	if (localtime_r(&now, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	if (!s->have_mod) {
		snprintf(line, KT_LINE_MAX,
			 "ksmbdtop - %s  module: not readable", clock);
		return;
	}
	fmt_uptime(up, sizeof(up), s->mod.uptime_s);
	snprintf(line, KT_LINE_MAX,
		 "ksmbdtop - %s  state %s  up %s  version %s  interval %.2fs",
		 clock, s->mod.state, up, s->mod.version, s->interval_s);
}

static void header_objects(const struct kt_summary *s, char *line)
{
	char dial[160];

	fmt_dialects(dial, sizeof(dial), s);
	snprintf(line, KT_LINE_MAX,
		 "Connections: %llu  Sessions: %llu  Trees: %llu  Open files: %llu  Dialects: %s",
		 (unsigned long long)s->mod.connections,
		 (unsigned long long)s->mod.sessions,
		 (unsigned long long)s->mod.trees,
		 (unsigned long long)s->mod.open_files, dial);
}

/* The bounds that keep one client from locking out or stalling others. */
static void header_limits(const struct kt_summary *s, char *line)
{
	const struct kt_modstats *m = &s->mod;
	char queued[16];

	kt_fmt_num(queued, sizeof(queued), (double)m->tx_queued_bytes / 1e6);
	snprintf(line, KT_LINE_MAX,
		 "Limits: setups pending %llu refused %llu evicted %llu  send queue %s MB parked %llu stalled %llu  daemon %s%llu lost %llu",
		 (unsigned long long)m->pending_sessions,
		 (unsigned long long)m->setups_refused,
		 (unsigned long long)m->setups_evicted, queued,
		 (unsigned long long)m->works_parked,
		 (unsigned long long)m->send_stall_drops,
		 m->daemon_pid ? "pid " : "none ",
		 (unsigned long long)m->daemon_pid,
		 (unsigned long long)m->daemon_losses);
}

/* The per-client bounds: watches and locks held, what each bound refused. */
static void header_bounds(const struct kt_summary *s, char *line)
{
	const struct kt_modstats *m = &s->mod;

	snprintf(line, KT_LINE_MAX,
		 "Bounds: watches %llu locks %llu  refused: files %llu/%llu (session/conn) watches %llu locks %llu/%llu (handle/file)  allocations capped %llu",
		 (unsigned long long)m->notify_watches,
		 (unsigned long long)m->locks,
		 (unsigned long long)m->files_refused_session,
		 (unsigned long long)m->files_refused_conn,
		 (unsigned long long)m->notify_refused,
		 (unsigned long long)m->locks_refused_handle,
		 (unsigned long long)m->locks_refused_file,
		 (unsigned long long)m->alloc_capped);
}

static void header_load(const struct kt_summary *s, char *line)
{
	char req[16], rd[16], wr[16], avg[16];

	kt_fmt_num(req, sizeof(req), s->iv.req_s);
	kt_fmt_num(rd, sizeof(rd), s->iv.read_mbs);
	kt_fmt_num(wr, sizeof(wr), s->iv.write_mbs);
	kt_fmt_num(avg, sizeof(avg), s->iv.avg_us);
	if (!s->have_bpf) {
		snprintf(line, KT_LINE_MAX,
			 "Requests: %s/s  Wire in: %.2f MB/s  out: %.2f MB/s",
			 req, s->wire_in_mbs, s->wire_out_mbs);
		return;
	}
	snprintf(line, KT_LINE_MAX,
		 "Requests: %s/s  Read: %s MB/s  Write: %s MB/s  Latency avg %s p50 %llu p99 %llu us  Wire in/out: %.2f/%.2f MB/s",
		 req, rd, wr, avg, (unsigned long long)s->iv.p50_us,
		 (unsigned long long)s->iv.p99_us, s->wire_in_mbs,
		 s->wire_out_mbs);
}

static void header_credits(const struct kt_summary *s, char *line)
{
	snprintf(line, KT_LINE_MAX,
		 "Credits: outstanding %lld  granted %llu in interval  stalls %.2f/s",
		 (long long)s->credits_outstanding,
		 (unsigned long long)s->iv.delta.credits_granted, s->stalls_s);
}

unsigned int kt_fmt_header(const struct kt_model *m, const char *note,
			   time_t now, char lines[][KT_LINE_MAX])
{
	const struct kt_summary *s = &m->sum;
	unsigned int n = 0;

	header_server(s, now, lines[n++]);
	if (s->have_mod) {
		header_objects(s, lines[n++]);
		header_limits(s, lines[n++]);
		header_bounds(s, lines[n++]);
	}
	header_load(s, lines[n++]);
	if (s->have_bpf)
		header_credits(s, lines[n++]);
	if (note && note[0])
		snprintf(lines[n++], KT_LINE_MAX, "Note: %s", note);
	return n;
}

const char *const kt_help_lines[] = {
	"ksmbdtop: live view of the ksmbd SMB3 server",
	"",
	"  Enter     per-command latency of the selected client",
	"  Esc, q    back (quit from the client table)",
	"  Up/Down   select a client",
	"  < >       sort by the column to the left / right",
	"  a u v x s f   sort by address, user, dialect, security, sessions, files",
	"  r R w     sort by requests/s, read MB/s, write MB/s",
	"  L m l     sort by average, p50, p99 latency",
	"  e c       sort by errors/s, credits outstanding",
	"  d         change the delay between updates",
	"  p         pause / resume",
	"  h, ?      this help",
	"",
	"Latencies are microseconds, percentiles the upper bound of their log2",
	"bucket; MB/s are 10^6 bytes per second. Press any key to go back.",
	NULL,
};
