// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parser of the module's client listing (clients.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "clients.h"

/* "a.b.c.d" or an IPv6 address, as the module prints them. */
static bool parse_addr(const char *s, struct ksmbd_client_key *key)
{
	memset(key, 0, sizeof(*key));
	if (!strcmp(s, "-"))
		return true;
	if (inet_pton(AF_INET, s, key->addr) == 1) {
		key->family = KSMBD_STATS_AF_INET;
		return true;
	}
	if (inet_pton(AF_INET6, s, key->addr) == 1) {
		key->family = KSMBD_STATS_AF_INET6;
		return true;
	}
	return false;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Undo the module's \xHH escapes; false on a malformed one. */
static bool unescape(const char *s, char *out, size_t len)
{
	size_t n = 0;

	while (*s) {
		int c = (unsigned char)*s;

		if (c == '\\') {
			int hi, lo;

			if (s[1] != 'x' || (hi = hexval(s[2])) < 0 ||
			    (lo = hexval(s[3])) < 0)
				return false;
			c = hi * 16 + lo;
			s += 4;
		} else {
			s++;
		}
		if (n + 1 >= len)
			return false;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return true;
}

/* "key=value" tokens of the rest of a line, in the order given. */
static const char *field(char **save, const char *key)
{
	char *tok = strtok_r(NULL, " \n", save);
	size_t kl = strlen(key);

	if (!tok || strncmp(tok, key, kl) || tok[kl] != '=')
		return NULL;
	return tok + kl + 1;
}

static bool parse_u64(const char *s, int base, uint64_t *v)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtoull(s, &end, base);
	return !errno && !*end;
}

static bool parse_conn(char **save, struct kt_listed_conn *c)
{
	const char *id = strtok_r(NULL, " \n", save);
	const char *addr = strtok_r(NULL, " \n", save);
	uint64_t dialect, age, idle, reqs;

	if (!parse_u64(id, 10, &c->id) || !addr || !parse_addr(addr, &c->key))
		return false;
	if (!parse_u64(field(save, "dialect"), 16, &dialect) || dialect > 0xffff ||
	    !parse_u64(field(save, "age_s"), 10, &age) ||
	    !parse_u64(field(save, "idle_s"), 10, &idle) ||
	    !parse_u64(field(save, "requests"), 10, &reqs))
		return false;
	c->dialect = (uint16_t)dialect;
	c->idle_s = idle;
	return true;
}

static bool parse_bool(const char *s, bool *v)
{
	if (!s || (strcmp(s, "0") && strcmp(s, "1")))
		return false;
	*v = s[0] == '1';
	return true;
}

static bool parse_sess(char **save, struct kt_listed_sess *s)
{
	const char *id = strtok_r(NULL, " \n", save);
	const char *conn = strtok_r(NULL, " \n", save);
	const char *state = strtok_r(NULL, " \n", save);
	const char *user;

	if (!parse_u64(id, 16, &s->id) || !parse_u64(conn, 10, &s->conn_id) ||
	    !state)
		return false;
	if (!strcmp(state, "valid"))
		s->valid = true;
	else if (strcmp(state, "setup"))
		return false;
	user = field(save, "user");
	if (!user || !unescape(user, s->user, sizeof(s->user)))
		return false;
	return parse_bool(field(save, "signing"), &s->signing) &&
	       parse_bool(field(save, "encryption"), &s->encryption);
}

static int grow(void **v, size_t n, size_t *cap, size_t size)
{
	void *p;

	if (n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 16;
	p = realloc(*v, *cap * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	return 0;
}

int kt_clients_parse(FILE *f, struct kt_clients *out)
{
	size_t cap_c = 0, cap_s = 0, len = 0;
	char *line = NULL, *save, *kind;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	while (getline(&line, &len, f) >= 0) {
		kind = strtok_r(line, " \n", &save);
		if (!kind)
			continue;
		if (!strcmp(kind, "conn")) {
			struct kt_listed_conn c = { 0 };

			if (!parse_conn(&save, &c))
				continue;
			ret = grow((void **)&out->conns, out->nr_conns, &cap_c,
				   sizeof(c));
			if (ret)
				break;
			out->conns[out->nr_conns++] = c;
		} else if (!strcmp(kind, "sess")) {
			struct kt_listed_sess s = { 0 };

			if (!parse_sess(&save, &s))
				continue;
			ret = grow((void **)&out->sess, out->nr_sess, &cap_s,
				   sizeof(s));
			if (ret)
				break;
			out->sess[out->nr_sess++] = s;
		}
	}
	free(line);
	if (ret)
		kt_clients_free(out);
	return ret;
}

int kt_clients_read(const char *path, struct kt_clients *out)
{
	FILE *f = fopen(path, "re");
	int ret;

	memset(out, 0, sizeof(*out));
	if (!f)
		return -errno;
	ret = kt_clients_parse(f, out);
	fclose(f);
	return ret;
}

void kt_clients_free(struct kt_clients *c)
{
	free(c->conns);
	free(c->sess);
	memset(c, 0, sizeof(*c));
}

const struct kt_listed_conn *kt_clients_conn(const struct kt_clients *c,
					     uint64_t id)
{
	size_t i;

	for (i = 0; i < c->nr_conns; i++)
		if (c->conns[i].id == id)
			return &c->conns[i];
	return NULL;
}
