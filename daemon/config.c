// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.conf reader: splits the text into logical lines and sections and
 * hands every "key = value" to the key table (config_keys.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <unistd.h>

#include "config_int.h"
#include "fileio.h"

void cfg_error(struct cfg_parser *p, const char *fmt, ...)
{
	va_list ap;

	p->errors++;
	va_start(ap, fmt);
	ksmbd_diag_vadd(p->diag, KSMBD_DIAG_ERROR, p->file, p->line, fmt, ap);
	va_end(ap);
}

void cfg_warn(struct cfg_parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ksmbd_diag_vadd(p->diag, KSMBD_DIAG_WARNING, p->file, p->line, fmt, ap);
	va_end(ap);
}

void cfg_key_normalize(const char *in, char *out, size_t cap)
{
	size_t n = 0;

	for (; *in && n + 1 < cap; in++)
		if (!isspace((unsigned char)*in))
			out[n++] = (char)tolower((unsigned char)*in);
	out[n] = '\0';
}

void cfg_strlist_free(struct ksmbd_strlist *l)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

int cfg_strlist_push(struct ksmbd_strlist *l, const char *s, size_t n)
{
	char **items;
	char *copy;

	copy = strndup(s, n);
	if (!copy)
		return -ENOMEM;
	items = realloc(l->items, (l->count + 1) * sizeof(*items));
	if (!items) {
		free(copy);
		return -ENOMEM;
	}
	items[l->count++] = copy;
	l->items = items;
	return 0;
}

int cfg_strlist_copy(struct ksmbd_strlist *dst, const struct ksmbd_strlist *src)
{
	size_t i;

	dst->count = 0;
	dst->items = NULL;
	for (i = 0; i < src->count; i++)
		if (cfg_strlist_push(dst, src->items[i], strlen(src->items[i])))
			return -ENOMEM;
	return 0;
}

static void default_netbios_name(char *out, size_t size)
{
	char host[256] = "";
	size_t i;

	if (gethostname(host, sizeof(host) - 1) || !host[0])
		strcpy(host, "KSMBD");
	for (i = 0; i + 1 < size && host[i] && host[i] != '.'; i++)
		out[i] = (char)toupper((unsigned char)host[i]);
	out[i] = '\0';
}

void cfg_global_defaults(struct ksmbd_global *g)
{
	memset(g, 0, sizeof(*g));
	default_netbios_name(g->netbios_name, sizeof(g->netbios_name));
	strcpy(g->server_string, "SMB SERVER");
	strcpy(g->workgroup, "WORKGROUP");
	g->tcp_port = 445;
	g->min_protocol = KSMBD_DIALECT_SMB2_10;
	g->max_protocol = KSMBD_DIALECT_SMB3_11;
	g->signing = KSMBD_SIGNING_AUTO;
	g->smb2_leases = true;
	g->dir_leases = false;	/* see config_doc.c */
	g->multi_channel = true;
	g->smb3_encryption = KSMBD_ENCRYPTION_OFF;
	g->ipc_timeout = 10;
	g->oplock_break_timeout = 35;
	g->max_open_files = 10000;
	g->smb2_max_read = 4u << 20;
	g->smb2_max_write = 4u << 20;
	g->smb2_max_trans = 4u << 20;
	g->map_to_guest = KSMBD_MAP_TO_GUEST_NEVER;
	strcpy(g->guest_account, "nobody");
	strcpy(g->krb5_keytab, "/etc/krb5.keytab");
	strcpy(g->krb5_service, "cifs");
	g->max_sessions_per_conn = 16;
	g->max_ip_connections = 128;
	/* The module's KSMBD_DEFAULT_* (module/core/server.h). */
	g->max_open_files_per_session = 2048;
	g->max_open_files_per_conn = 4096;
	g->max_notify_watches_per_session = 256;
	g->max_locks_per_handle = 4096;
	g->max_locks_per_file = 16384;
	g->max_alloc_reservation = 1ull << 30;
}

void cfg_share_defaults(struct ksmbd_share *s)
{
	memset(s, 0, sizeof(*s));
	s->read_only = true;
	s->browseable = true;
	s->oplocks = true;
	s->store_dos_attributes = true;
	s->hide_dot_files = true;
	s->create_mask = 0744;
	s->directory_mask = 0755;
}

void cfg_share_free(struct ksmbd_share *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->comment);
	free(s->force_user);
	free(s->force_group);
	cfg_strlist_free(&s->valid_users);
	cfg_strlist_free(&s->invalid_users);
	cfg_strlist_free(&s->read_list);
	cfg_strlist_free(&s->write_list);
	cfg_strlist_free(&s->admin_users);
	cfg_strlist_free(&s->hosts_allow);
	cfg_strlist_free(&s->hosts_deny);
	cfg_strlist_free(&s->veto_files);
	free(s);
}

static int dup_opt(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

int cfg_share_copy(struct ksmbd_share *dst, const struct ksmbd_share *src)
{
	int err = 0;

	*dst = *src;
	/* Clear every owned pointer first so a partial copy is freeable. */
	dst->path = dst->comment = dst->force_user = dst->force_group = NULL;
	memset(&dst->valid_users, 0, sizeof(dst->valid_users));
	dst->invalid_users = dst->read_list = dst->write_list = dst->valid_users;
	dst->admin_users = dst->hosts_allow = dst->hosts_deny = dst->valid_users;
	dst->veto_files = dst->valid_users;

	err |= dup_opt(&dst->path, src->path);
	err |= dup_opt(&dst->comment, src->comment);
	err |= dup_opt(&dst->force_user, src->force_user);
	err |= dup_opt(&dst->force_group, src->force_group);
	err |= cfg_strlist_copy(&dst->valid_users, &src->valid_users);
	err |= cfg_strlist_copy(&dst->invalid_users, &src->invalid_users);
	err |= cfg_strlist_copy(&dst->read_list, &src->read_list);
	err |= cfg_strlist_copy(&dst->write_list, &src->write_list);
	err |= cfg_strlist_copy(&dst->admin_users, &src->admin_users);
	err |= cfg_strlist_copy(&dst->hosts_allow, &src->hosts_allow);
	err |= cfg_strlist_copy(&dst->hosts_deny, &src->hosts_deny);
	err |= cfg_strlist_copy(&dst->veto_files, &src->veto_files);
	return err ? -ENOMEM : 0;
}

static int config_add_share(struct ksmbd_config *cfg, struct ksmbd_share *s)
{
	if (cfg->nshares == cfg->cap) {
		size_t cap = cfg->cap ? cfg->cap * 2 : 8;
		struct ksmbd_share **shares;

		shares = realloc(cfg->shares, cap * sizeof(*shares));
		if (!shares)
			return -ENOMEM;
		cfg->shares = shares;
		cfg->cap = cap;
	}
	cfg->shares[cfg->nshares++] = s;
	return 0;
}

void ksmbd_config_free(struct ksmbd_config *cfg)
{
	size_t i;

	if (!cfg)
		return;
	for (i = 0; i < cfg->nshares; i++)
		cfg_share_free(cfg->shares[i]);
	free(cfg->shares);
	cfg_strlist_free(&cfg->global.interfaces);
	free(cfg->global.root_dir);
	free(cfg);
}

static bool share_name_valid(struct cfg_parser *p, const char *name)
{
	const char *c;

	if (!*name) {
		cfg_error(p, "empty section name");
		return false;
	}
	if (strlen(name) >= KSMBD_SHARE_NAME_SZ) {
		cfg_error(p, "share name '%s' is longer than %d characters", name,
			  KSMBD_SHARE_NAME_SZ - 1);
		return false;
	}
	for (c = name; *c; c++) {
		if (iscntrl((unsigned char)*c) || strchr("\\/[]:|<>+=;,*?\"", *c)) {
			cfg_error(p, "share name '%s' contains '%c'", name,
				  iscntrl((unsigned char)*c) ? '?' : *c);
			return false;
		}
	}
	if (!strcasecmp(name, KSMBD_IPC_SHARE)) {
		cfg_error(p, "[%s] is reserved for the built-in IPC share", name);
		return false;
	}
	return true;
}

/* ---- First pass: the text into merged sections of entries ---- */

static void section_text_free(struct cfg_section_text *t)
{
	size_t i;

	for (i = 0; i < t->count; i++) {
		free(t->entries[i].key);
		free(t->entries[i].value);
	}
	free(t->entries);
	free(t->name);
}

static void sections_free(struct cfg_parser *p)
{
	size_t i;

	for (i = 0; i < p->nsecs; i++)
		section_text_free(&p->secs[i]);
	free(p->secs);
	p->secs = NULL;
	p->nsecs = p->secs_cap = 0;
	p->reading = NULL;
}

static struct cfg_section_text *section_find(struct cfg_parser *p,
					     const char *name)
{
	size_t i;

	for (i = 0; i < p->nsecs; i++)
		if (!strcasecmp(p->secs[i].name, name))
			return &p->secs[i];
	return NULL;
}

static struct cfg_section_text *section_add(struct cfg_parser *p,
					    const char *name, bool global)
{
	struct cfg_section_text *t;

	if (p->nsecs == p->secs_cap) {
		size_t cap = p->secs_cap ? p->secs_cap * 2 : 8;

		t = realloc(p->secs, cap * sizeof(*t));
		if (!t)
			return NULL;
		p->secs = t;
		p->secs_cap = cap;
	}
	t = &p->secs[p->nsecs];
	memset(t, 0, sizeof(*t));
	t->name = strdup(name);
	if (!t->name)
		return NULL;
	t->line = p->line;
	t->global = global;
	p->nsecs++;
	return t;
}

static void open_section(struct cfg_parser *p, const char *name)
{
	bool global = !strcasecmp(name, "global");
	struct cfg_section_text *t;

	p->before_first_header = false;
	p->reading = NULL;
	if (!global && !share_name_valid(p, name))
		return;
	t = section_find(p, name);
	if (t) {
		cfg_warn(p, "section [%s] repeats [%s] of line %u: merged into it, as ksmbd-tools does",
			 name, t->name, t->line);
	} else {
		t = section_add(p, name, global);
		if (!t) {
			p->oom = true;
			return;
		}
	}
	/* Valid until the next header: only a header grows secs. */
	p->reading = t;
}

static void add_entry(struct cfg_parser *p, const char *key, const char *value)
{
	struct cfg_section_text *t = p->reading;
	struct cfg_entry *e;

	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;

		e = realloc(t->entries, cap * sizeof(*e));
		if (!e) {
			p->oom = true;
			return;
		}
		t->entries = e;
		t->cap = cap;
	}
	e = &t->entries[t->count];
	e->key = strdup(key);
	e->value = strdup(value);
	e->line = p->line;
	if (!e->key || !e->value) {
		free(e->key);
		free(e->value);
		p->oom = true;
		return;
	}
	t->count++;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/*
 * ';' and '#' start a comment anywhere on a line, as ksmbd-tools reads
 * them: "read only = ; yes" is an empty value.
 */
static void cut_comment(char *s)
{
	s[strcspn(s, ";#")] = '\0';
}

static void parse_line(struct cfg_parser *p, char *raw)
{
	char *line, *eq, *end, *value;

	cut_comment(raw);
	line = trim(raw);
	if (!*line)
		return;
	if (*line == '[') {
		end = strchr(line, ']');
		if (!end || *trim(end + 1) != '\0') {
			cfg_error(p, "bad section header '%s'", line);
			p->before_first_header = false;
			p->reading = NULL;
			return;
		}
		*end = '\0';
		open_section(p, trim(line + 1));
		return;
	}
	eq = strchr(line, '=');
	if (!eq) {
		cfg_error(p, "expected 'key = value', got '%s'", line);
		return;
	}
	*eq = '\0';
	if (!*trim(line)) {
		cfg_error(p, "missing key before '='");
		return;
	}
	if (p->before_first_header) {
		cfg_error(p, "'%s' is outside of any [section]", trim(line));
		return;
	}
	value = trim(eq + 1);
	/* An empty value leaves the key unset (its default), as in ksmbd-tools. */
	if (p->reading && *value)
		add_entry(p, trim(line), value);
}

/*
 * Appends one physical line to @buf; returns true when it ends in '\'
 * (which is removed) so the next physical line continues it.
 */
static bool append_physical(char *buf, size_t *used, const char *s, size_t n,
			    bool continued)
{
	if (n && s[n - 1] == '\r')
		n--;
	/* The indentation of a continuation line is layout, not value. */
	while (continued && n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	memcpy(buf + *used, s, n);
	*used += n;
	buf[*used] = '\0';
	if (*used && buf[*used - 1] == '\\') {
		buf[--*used] = '\0';
		return true;
	}
	return false;
}

static bool is_comment(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	return n && (*s == '#' || *s == ';');
}

static void read_text(struct cfg_parser *p, const char *text, size_t len,
		      char *buf)
{
	size_t pos = 0, used = 0;
	unsigned int phys = 0;
	bool cont = false;

	p->before_first_header = true;
	while (pos < len && !p->oom) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		phys++;
		if (!cont) {
			p->line = phys;
			used = 0;
		}
		if (memchr(text + pos, '\0', n)) {
			cfg_error(p, "NUL byte in line");
			cont = false;
		} else if (!cont && is_comment(text + pos, n)) {
			/* A comment ending in '\' does not swallow the next line. */
			cont = false;
		} else {
			cont = append_physical(buf, &used, text + pos, n, cont);
			if (!cont)
				parse_line(p, buf);
		}
		pos += n + (nl ? 1 : 0);
	}
	if (cont && !p->oom)
		parse_line(p, buf);
	p->line = 0;
}

/* ---- Second pass: [global] first, then every share on its defaults ---- */

static void apply_entries(struct cfg_parser *p, const struct cfg_section_text *t)
{
	size_t i;

	cfg_section_reset(p);
	for (i = 0; i < t->count && !p->oom; i++) {
		p->line = t->entries[i].line;
		cfg_apply_key(p, t->entries[i].key, t->entries[i].value);
	}
	p->line = 0;
}

static int apply_share(struct cfg_parser *p, const struct cfg_section_text *t)
{
	struct ksmbd_share *s = malloc(sizeof(*s));

	if (!s || cfg_share_copy(s, p->tmpl) || config_add_share(p->cfg, s)) {
		cfg_share_free(s);
		return -ENOMEM;
	}
	if (!s->comment) {
		s->comment = strdup("");
		if (!s->comment)
			return -ENOMEM;
	}
	strcpy(s->name, t->name);
	s->line = t->line;
	p->cur = s;
	p->section = CFG_SEC_SHARE;
	apply_entries(p, t);
	p->cur = NULL;
	/* The only key a share must have. */
	if (!s->path) {
		p->line = t->line;
		cfg_error(p, "share [%s] has no path", t->name);
		p->line = 0;
	}
	return 0;
}

static void apply_sections(struct cfg_parser *p)
{
	size_t i;

	p->section = CFG_SEC_GLOBAL;
	for (i = 0; i < p->nsecs; i++)
		if (p->secs[i].global)
			apply_entries(p, &p->secs[i]);
	for (i = 0; i < p->nsecs && !p->oom; i++)
		if (!p->secs[i].global && apply_share(p, &p->secs[i]))
			p->oom = true;
	p->section = CFG_SEC_NONE;
}

static int add_ipc_share(struct cfg_parser *p)
{
	struct ksmbd_share *s = malloc(sizeof(*s));

	if (!s)
		return -ENOMEM;
	cfg_share_defaults(s);
	strcpy(s->name, KSMBD_IPC_SHARE);
	s->is_pipe = true;
	/* Listed in share enumerations, as Samba and Windows list it. */
	s->browseable = true;
	s->smb3_encryption = p->cfg->global.smb3_encryption;
	s->comment = strdup("IPC service");
	/* Host lists in [global] guard the whole server, RPC included. */
	if (!s->comment || cfg_strlist_copy(&s->hosts_allow, &p->tmpl->hosts_allow) ||
	    cfg_strlist_copy(&s->hosts_deny, &p->tmpl->hosts_deny) ||
	    config_add_share(p->cfg, s)) {
		cfg_share_free(s);
		return -ENOMEM;
	}
	/* IPC$ first: the order clients see in a share enumeration. */
	memmove(p->cfg->shares + 1, p->cfg->shares,
		(p->cfg->nshares - 1) * sizeof(*p->cfg->shares));
	p->cfg->shares[0] = s;
	return 0;
}

static void check_global(struct cfg_parser *p)
{
	const struct ksmbd_global *g = &p->cfg->global;

	if (g->min_protocol > g->max_protocol) {
		p->line = p->max_proto_line > p->min_proto_line ?
			  p->max_proto_line : p->min_proto_line;
		cfg_error(p, "server min protocol is above server max protocol");
	}
	/* (A bad "interfaces" value has had its error already.) */
	if (g->bind_interfaces_only && !p->interfaces_line) {
		p->line = p->bind_only_line;
		cfg_error(p, "'bind interfaces only = yes' needs 'interfaces' (names or addresses to listen on)");
	} else if (!g->bind_interfaces_only && g->interfaces.count) {
		p->line = p->interfaces_line;
		cfg_warn(p, "'interfaces' has no effect without 'bind interfaces only = yes': every address is listened on");
	}
	p->line = 0;
}

/*
 * "root directory" is put in front of every share path, as ksmbd-tools
 * does (a chroot for shares): "/srv" + "/data" is "/srv/data".
 */
static int apply_root_dir(struct ksmbd_config *cfg)
{
	const char *root = cfg->global.root_dir;
	size_t i, n;

	if (!root)
		return 0;
	n = strlen(root);
	while (n && root[n - 1] == '/')
		n--;
	for (i = 0; i < cfg->nshares; i++) {
		struct ksmbd_share *s = cfg->shares[i];
		char *joined;

		if (s->is_pipe || !s->path)
			continue;
		if (asprintf(&joined, "%.*s%s", (int)n, root, s->path) < 0)
			return -ENOMEM;
		free(s->path);
		s->path = joined;
	}
	return 0;
}

struct ksmbd_config *ksmbd_config_parse(const char *text, size_t len,
					const char *name,
					struct ksmbd_diag *diag)
{
	struct cfg_parser p = { .file = name ? name : "<input>", .diag = diag };
	char *buf;

	/* Logical lines never exceed the input, so one buffer serves them all. */
	buf = malloc(len + 1);
	p.cfg = calloc(1, sizeof(*p.cfg));
	p.tmpl = malloc(sizeof(*p.tmpl));
	if (!buf || !p.cfg || !p.tmpl)
		goto err_oom;
	cfg_global_defaults(&p.cfg->global);
	cfg_share_defaults(p.tmpl);
	read_text(&p, text, len, buf);
	if (!p.oom)
		apply_sections(&p);
	if (p.oom)
		goto err_oom;
	check_global(&p);
	if (add_ipc_share(&p) || apply_root_dir(p.cfg))
		goto err_oom;
	free(buf);
	sections_free(&p);
	cfg_share_free(p.tmpl);
	if (p.errors) {
		ksmbd_config_free(p.cfg);
		return NULL;
	}
	return p.cfg;
err_oom:
	ksmbd_diag_add(diag, KSMBD_DIAG_ERROR, p.file, 0, "out of memory");
	free(buf);
	sections_free(&p);
	cfg_share_free(p.tmpl);
	ksmbd_config_free(p.cfg);
	return NULL;
}

struct ksmbd_config *ksmbd_config_load(const char *path, struct ksmbd_diag *diag)
{
	struct ksmbd_config *cfg;
	char *text;
	size_t len;
	int err;

	err = ksmbd_read_file(path, KSMBD_CONFIG_MAX_BYTES, &text, &len);
	if (err) {
		ksmbd_diag_add(diag, KSMBD_DIAG_ERROR, path, 0, "cannot read: %s",
			       strerror(-err));
		return NULL;
	}
	cfg = ksmbd_config_parse(text, len, path, diag);
	free(text);
	return cfg;
}

const struct ksmbd_global *ksmbd_config_global(const struct ksmbd_config *cfg)
{
	return &cfg->global;
}

size_t ksmbd_config_share_count(const struct ksmbd_config *cfg)
{
	return cfg->nshares;
}

const struct ksmbd_share *ksmbd_config_share_at(const struct ksmbd_config *cfg,
						size_t i)
{
	return i < cfg->nshares ? cfg->shares[i] : NULL;
}

const struct ksmbd_share *ksmbd_config_find_share(const struct ksmbd_config *cfg,
						  const char *name)
{
	size_t i;

	for (i = 0; i < cfg->nshares; i++)
		if (!strcasecmp(cfg->shares[i]->name, name))
			return cfg->shares[i];
	return NULL;
}
