// SPDX-License-Identifier: GPL-2.0
/*
 * Tree-connect access decisions: host lists, user lists, read/write lists.
 * The rules follow Samba's so that an existing smb.conf means the same here.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config_int.h"

struct net_addr {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t addr[16];	/* network byte order; 4 bytes used for IPv4 */
};

struct net_match {
	bool all;
	bool localhost;
	struct net_addr net;
	unsigned int prefix;	/* leading bits that must be equal */
};

static bool parse_addr(const char *s, struct net_addr *a)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	char buf[INET6_ADDRSTRLEN + 8];
	size_t n = strlen(s);
	char *pct;

	if (inet_pton(AF_INET, s, a->addr) == 1) {
		a->family = AF_INET;
		return true;
	}
	if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
		s++;
		n -= 2;
	}
	if (n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	pct = strchr(buf, '%');		/* fe80::1%eth0: the zone does not matter */
	if (pct)
		*pct = '\0';
	if (inet_pton(AF_INET6, buf, a->addr) != 1)
		return false;
	a->family = AF_INET6;
	if (!memcmp(a->addr, v4mapped, sizeof(v4mapped))) {
		memmove(a->addr, a->addr + 12, 4);
		a->family = AF_INET;
	}
	return true;
}

/* "10." or "192.168.1.": one to three whole octets, each followed by '.'. */
static bool parse_v4_prefix(const char *s, struct net_match *m)
{
	unsigned int octets = 0, val;

	memset(&m->net, 0, sizeof(m->net));
	while (*s) {
		if (!isdigit((unsigned char)*s) || octets == 3)
			return false;
		for (val = 0; isdigit((unsigned char)*s); s++) {
			val = val * 10 + (unsigned int)(*s - '0');
			if (val > 255)
				return false;
		}
		if (*s++ != '.')
			return false;
		m->net.addr[octets++] = (uint8_t)val;
	}
	if (!octets)
		return false;
	m->net.family = AF_INET;
	m->prefix = octets * 8;
	return true;
}

static bool parse_prefix_len(const char *s, unsigned int max, unsigned int *out)
{
	unsigned int n = 0;

	if (!*s || strlen(s) > 3)
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
		n = n * 10 + (unsigned int)(*s - '0');
	}
	if (n > max)
		return false;
	*out = n;
	return true;
}

/* A dotted netmask must be contiguous ones: 255.255.240.0 gives 20. */
static bool netmask_to_prefix(const char *s, unsigned int *out)
{
	uint8_t b[4];
	uint32_t mask;

	if (inet_pton(AF_INET, s, b) != 1)
		return false;
	mask = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
	if (mask & (~mask >> 1))
		return false;	/* a one after a zero */
	*out = (unsigned int)__builtin_popcount(mask);
	return true;
}

static bool parse_cidr(const char *s, struct net_match *m)
{
	const char *slash = strchr(s, '/');
	char addr[INET6_ADDRSTRLEN + 8];
	size_t n = (size_t)(slash - s);
	unsigned int max;

	if (n >= sizeof(addr))
		return false;
	memcpy(addr, s, n);
	addr[n] = '\0';
	if (!parse_addr(addr, &m->net))
		return false;
	max = m->net.family == AF_INET ? 32 : 128;
	if (parse_prefix_len(slash + 1, max, &m->prefix))
		return true;
	return m->net.family == AF_INET && netmask_to_prefix(slash + 1, &m->prefix);
}

/* 0 on success, 1 for a host name we do not resolve, -1 for garbage. */
static int parse_host_item(const char *s, struct net_match *m)
{
	const char *c;

	memset(m, 0, sizeof(*m));
	if (!strcasecmp(s, "ALL")) {
		m->all = true;
		return 0;
	}
	if (!strcasecmp(s, "localhost")) {
		m->localhost = true;
		return 0;
	}
	if (strchr(s, '/'))
		return parse_cidr(s, m) ? 0 : -1;
	if (parse_addr(s, &m->net)) {
		m->prefix = m->net.family == AF_INET ? 32 : 128;
		return 0;
	}
	if (s[strlen(s) - 1] == '.')
		return parse_v4_prefix(s, m) ? 0 : -1;
	/* Digits and dots only, yet no address: a typo, not a host name. */
	if (!s[strspn(s, "0123456789.")])
		return -1;
	for (c = s; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '.' && *c != '_')
			return -1;
	return 1;
}

int cfg_host_item_check(const char *item)
{
	struct net_match m;

	if (!strcasecmp(item, "EXCEPT"))
		return 0;
	return parse_host_item(item, &m);
}

static bool prefix_equal(const uint8_t *a, const uint8_t *b, unsigned int bits)
{
	unsigned int whole = bits / 8, rest = bits % 8;
	uint8_t mask;

	if (memcmp(a, b, whole))
		return false;
	if (!rest)
		return true;
	mask = (uint8_t)(0xff << (8 - rest));
	return (a[whole] & mask) == (b[whole] & mask);
}

static bool item_matches(const char *item, const struct net_addr *peer)
{
	static const uint8_t loop6[16] = { [15] = 1 };
	struct net_match m;

	if (parse_host_item(item, &m))
		return false;
	if (m.all)
		return true;
	if (m.localhost)
		return peer->family == AF_INET ? peer->addr[0] == 127 :
		       !memcmp(peer->addr, loop6, 16);
	return m.net.family == peer->family &&
	       prefix_equal(m.net.addr, peer->addr, m.prefix);
}

/* "A B EXCEPT C D": in A or B, and in neither C nor D. */
bool ksmbd_hostlist_match(const struct ksmbd_strlist *list, const char *peer)
{
	struct net_addr addr;
	bool in = false, except = false;
	size_t i;

	if (!peer || !parse_addr(peer, &addr))
		return false;
	for (i = 0; i < list->count; i++) {
		const char *item = list->items[i];

		if (!strcasecmp(item, "EXCEPT")) {
			if (!in)
				return false;
			except = true;
		} else if (item_matches(item, &addr)) {
			if (except)
				return false;
			in = true;
		}
	}
	return in;
}

static bool user_in_group(const char *user, const char *group)
{
	struct passwd pw, *pwr = NULL;
	struct group gr, *grr = NULL;
	char pwbuf[4096];
	char *grbuf;
	bool found = false;
	long size = sysconf(_SC_GETGR_R_SIZE_MAX);
	char **mem;

	/* Groups with many members need more than the advertised size. */
	if (size < 65536)
		size = 65536;
	grbuf = malloc((size_t)size);
	if (!grbuf)
		return false;
	if (getgrnam_r(group, &gr, grbuf, (size_t)size, &grr) || !grr)
		goto out_free;
	for (mem = grr->gr_mem; *mem && !found; mem++)
		found = !strcasecmp(*mem, user);
	if (!found && !getpwnam_r(user, &pw, pwbuf, sizeof(pwbuf), &pwr) && pwr)
		found = pwr->pw_gid == grr->gr_gid;
out_free:
	free(grbuf);
	return found;
}

bool ksmbd_userlist_match(const struct ksmbd_strlist *list, const char *user)
{
	size_t i;

	if (!user || !*user)
		return false;
	for (i = 0; i < list->count; i++) {
		const char *item = list->items[i];

		/* '&' is a NIS netgroup in Samba; we have none, so no match. */
		if (item[0] == '&')
			continue;
		if (item[0] == '@' || item[0] == '+') {
			if (user_in_group(user, item + 1))
				return true;
			continue;
		}
		if (!strcasecmp(item, user))
			return true;
	}
	return false;
}

/* Samba's rule: an allow match wins, then a deny match, then the default. */
static bool host_allowed(const struct ksmbd_share *s, const char *peer)
{
	bool has_allow = s->hosts_allow.count, has_deny = s->hosts_deny.count;

	if (!has_allow && !has_deny)
		return true;
	if (!has_allow)
		return !ksmbd_hostlist_match(&s->hosts_deny, peer);
	if (!has_deny)
		return ksmbd_hostlist_match(&s->hosts_allow, peer);
	if (ksmbd_hostlist_match(&s->hosts_allow, peer))
		return true;
	return !ksmbd_hostlist_match(&s->hosts_deny, peer);
}

enum ksmbd_tree_verdict ksmbd_share_check_access(const struct ksmbd_share *s,
						 const char *user, bool is_guest,
						 const char *peer,
						 bool *writable, bool *admin)
{
	bool w, a;

	if (writable)
		*writable = false;
	if (admin)
		*admin = false;
	if (!s)
		return KSMBD_TREE_NO_SHARE;
	if (!host_allowed(s, peer))
		return KSMBD_TREE_DENIED_HOST;
	if (s->is_pipe) {
		/* RPC requests travel as pipe writes. */
		if (writable)
			*writable = true;
		return KSMBD_TREE_OK;
	}
	if (is_guest && !s->guest_ok)
		return KSMBD_TREE_DENIED_USER;
	if (!is_guest && (!user || !*user))
		return KSMBD_TREE_DENIED_USER;
	if (ksmbd_userlist_match(&s->invalid_users, user))
		return KSMBD_TREE_DENIED_USER;
	if (s->valid_users.count && !ksmbd_userlist_match(&s->valid_users, user))
		return KSMBD_TREE_DENIED_USER;

	w = !s->read_only;
	if (ksmbd_userlist_match(&s->read_list, user))
		w = false;
	if (ksmbd_userlist_match(&s->write_list, user))
		w = true;
	a = ksmbd_userlist_match(&s->admin_users, user);
	if (writable)
		*writable = w;
	if (admin)
		*admin = a;
	return KSMBD_TREE_OK;
}

enum ksmbd_tree_verdict ksmbd_share_check_connections(const struct ksmbd_share *s,
						      unsigned int current)
{
	if (!s)
		return KSMBD_TREE_NO_SHARE;
	if (s->max_connections && current >= s->max_connections)
		return KSMBD_TREE_TOO_MANY;
	return KSMBD_TREE_OK;
}
