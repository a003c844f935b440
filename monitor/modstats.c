// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parser for /sys/class/ksmbd-control/stats.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "modstats.h"

struct num_key {
	const char *name;
	size_t off;
};

static const struct num_key num_keys[] = {
	{ "uptime_s", offsetof(struct kt_modstats, uptime_s) },
	{ "listen_port", offsetof(struct kt_modstats, listen_port) },
	{ "connections", offsetof(struct kt_modstats, connections) },
	{ "sessions", offsetof(struct kt_modstats, sessions) },
	{ "trees", offsetof(struct kt_modstats, trees) },
	{ "open_files", offsetof(struct kt_modstats, open_files) },
	{ "works", offsetof(struct kt_modstats, works) },
	{ "connections_accepted", offsetof(struct kt_modstats, accepted) },
	{ "requests", offsetof(struct kt_modstats, requests) },
	{ "bytes_in", offsetof(struct kt_modstats, bytes_in) },
	{ "bytes_out", offsetof(struct kt_modstats, bytes_out) },
	{ "pending_sessions", offsetof(struct kt_modstats, pending_sessions) },
	{ "session_setups_refused", offsetof(struct kt_modstats, setups_refused) },
	{ "session_setups_evicted", offsetof(struct kt_modstats, setups_evicted) },
	{ "tx_queued_bytes", offsetof(struct kt_modstats, tx_queued_bytes) },
	{ "works_parked", offsetof(struct kt_modstats, works_parked) },
	{ "send_stall_drops", offsetof(struct kt_modstats, send_stall_drops) },
	{ "daemon_pid", offsetof(struct kt_modstats, daemon_pid) },
	{ "daemon_losses", offsetof(struct kt_modstats, daemon_losses) },
	{ "notify_watches", offsetof(struct kt_modstats, notify_watches) },
	{ "byte_range_locks", offsetof(struct kt_modstats, locks) },
	{ "open_files_refused_per_session",
	  offsetof(struct kt_modstats, files_refused_session) },
	{ "open_files_refused_per_connection",
	  offsetof(struct kt_modstats, files_refused_conn) },
	{ "notify_watches_refused", offsetof(struct kt_modstats, notify_refused) },
	{ "locks_refused_per_handle",
	  offsetof(struct kt_modstats, locks_refused_handle) },
	{ "locks_refused_per_file", offsetof(struct kt_modstats, locks_refused_file) },
	{ "allocation_reservations_capped",
	  offsetof(struct kt_modstats, alloc_capped) },
};

static void copy_word(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static int parse_number(const char *s, size_t len, uint64_t *out)
{
	char buf[32], *end;
	long long v;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	/* a live count seen below zero is a module bug; show it as zero */
	*out = v < 0 ? 0 : (uint64_t)v;
	return 0;
}

static int parse_line(const char *line, size_t len, struct kt_modstats *out)
{
	const char *sp = memchr(line, ' ', len);
	size_t klen, vlen;
	const char *val;
	size_t i;

	if (!sp || sp == line || sp + 1 == line + len)
		return -EINVAL;
	klen = sp - line;
	val = sp + 1;
	vlen = line + len - val;
	if (klen == 7 && !memcmp(line, "version", 7)) {
		copy_word(out->version, sizeof(out->version), val, vlen);
		return 0;
	}
	if (klen == 5 && !memcmp(line, "state", 5)) {
		copy_word(out->state, sizeof(out->state), val, vlen);
		return 0;
	}
	for (i = 0; i < sizeof(num_keys) / sizeof(num_keys[0]); i++) {
		if (strlen(num_keys[i].name) == klen &&
		    !memcmp(num_keys[i].name, line, klen))
			return parse_number(val, vlen,
				(uint64_t *)((char *)out + num_keys[i].off));
	}
	return 0;
}

int kt_modstats_parse(const char *text, struct kt_modstats *out)
{
	const char *p = text;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len && parse_line(p, len, out))
			return -EINVAL;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

int kt_modstats_read(const char *path, struct kt_modstats *out)
{
	char buf[4096];
	size_t n = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs hands out at most a page; read until EOF all the same */
	while (n < sizeof(buf) - 1) {
		r = read(fd, buf + n, sizeof(buf) - 1 - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			return (int)r;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	return kt_modstats_parse(buf, out);
}
