// SPDX-License-Identifier: GPL-2.0
/*
 * The table of ksmbd.conf keys and the parsers of their values.
 *
 * Each key is described once (name without blanks, scope, value type,
 * where it is stored); one setter per value type does the checking, so a
 * new key is one table line.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_int.h"

enum key_scope {
	SCOPE_GLOBAL,
	SCOPE_SHARE,
};

enum key_type {
	T_BOOL,
	T_UINT,
	T_SIZE,
	T_MODE,
	T_CHARS,	/* fixed char array, too long is an error */
	T_STR,		/* owned char *; empty allowed */
	T_PATH,		/* owned char *; must not be empty */
	T_OPTSTR,	/* owned char *; empty means unset (NULL) */
	T_USERS,
	T_HOSTS,
	T_VETO,
	T_WORDS,
	T_ENUM,
	T_MIN_PROTO,
	T_MAX_PROTO,
	T_NETBIOS,
	T_ALGS,		/* struct ksmbd_alglist; names from .words */
};

struct enum_word {
	const char *word;
	int value;
};

struct key_def {
	const char *name;		/* normalized: lower case, no blanks */
	enum key_scope scope;
	enum key_type type;
	size_t off;
	size_t size;			/* sizeof the member */
	unsigned long min, max;		/* T_UINT, T_SIZE */
	bool invert;			/* T_BOOL: "writeable" = !read only */
	bool not_in_global;		/* share key that [global] must not default */
	const struct enum_word *words;	/* T_ENUM, NULL-terminated */
};

#define G(f)	SCOPE_GLOBAL, .off = offsetof(struct ksmbd_global, f), \
		.size = sizeof(((struct ksmbd_global *)0)->f)
#define S(f)	SCOPE_SHARE, .off = offsetof(struct ksmbd_share, f), \
		.size = sizeof(((struct ksmbd_share *)0)->f)

static const struct enum_word signing_words[] = {
	{ "auto", KSMBD_SIGNING_AUTO },
	{ "yes", KSMBD_SIGNING_AUTO },
	{ "enabled", KSMBD_SIGNING_AUTO },
	{ "desired", KSMBD_SIGNING_AUTO },
	{ "default", KSMBD_SIGNING_AUTO },
	{ "mandatory", KSMBD_SIGNING_MANDATORY },
	{ "required", KSMBD_SIGNING_MANDATORY },
	{ "disabled", KSMBD_SIGNING_DISABLED },
	{ "no", KSMBD_SIGNING_DISABLED },
	{ "off", KSMBD_SIGNING_DISABLED },
	{ NULL, 0 },
};

static const struct enum_word encryption_words[] = {
	{ "no", KSMBD_ENCRYPTION_OFF },
	{ "off", KSMBD_ENCRYPTION_OFF },
	{ "disabled", KSMBD_ENCRYPTION_OFF },
	{ "false", KSMBD_ENCRYPTION_OFF },
	{ "yes", KSMBD_ENCRYPTION_DESIRED },
	{ "auto", KSMBD_ENCRYPTION_DESIRED },
	{ "desired", KSMBD_ENCRYPTION_DESIRED },
	{ "if_required", KSMBD_ENCRYPTION_DESIRED },
	{ "true", KSMBD_ENCRYPTION_DESIRED },
	{ "required", KSMBD_ENCRYPTION_REQUIRED },
	{ "mandatory", KSMBD_ENCRYPTION_REQUIRED },
	{ NULL, 0 },
};

static const struct enum_word guest_map_words[] = {
	{ "never", KSMBD_MAP_TO_GUEST_NEVER },
	{ "bad user", KSMBD_MAP_TO_GUEST_BAD_USER },
	{ "bad_user", KSMBD_MAP_TO_GUEST_BAD_USER },
	{ NULL, 0 },
};

static const struct enum_word cipher_words[] = {
	{ "AES-128-GCM", 2 },
	{ "AES-128-CCM", 1 },
	{ "AES-256-GCM", 4 },
	{ "AES-256-CCM", 3 },
	{ NULL, 0 },
};

static const struct enum_word signing_alg_words[] = {
	{ "AES-128-GMAC", 2 },
	{ "AES-128-CMAC", 1 },
	{ "HMAC-SHA256", 0 },
	{ NULL, 0 },
};

static const struct key_def key_table[] = {
	/* [global] */
	{ "netbiosname", G(netbios_name), .type = T_NETBIOS },
	{ "serverstring", G(server_string), .type = T_CHARS },
	{ "workgroup", G(workgroup), .type = T_CHARS },
	{ "tcpport", G(tcp_port), .type = T_UINT, .min = 1, .max = 65535 },
	{ "smbports", G(tcp_port), .type = T_UINT, .min = 1, .max = 65535 },
	{ "serverminprotocol", G(min_protocol), .type = T_MIN_PROTO },
	{ "minprotocol", G(min_protocol), .type = T_MIN_PROTO },
	{ "servermaxprotocol", G(max_protocol), .type = T_MAX_PROTO },
	{ "maxprotocol", G(max_protocol), .type = T_MAX_PROTO },
	{ "protocol", G(max_protocol), .type = T_MAX_PROTO },
	{ "serversigning", G(signing), .type = T_ENUM, .words = signing_words },
	{ "smb2leases", G(smb2_leases), .type = T_BOOL },
	{ "servermultichannelsupport", G(multi_channel), .type = T_BOOL },
	{ "smb3encryption", G(smb3_encryption), .type = T_ENUM, .words = encryption_words },
	{ "serversmbencrypt", G(smb3_encryption), .type = T_ENUM, .words = encryption_words },
	{ "ipctimeout", G(ipc_timeout), .type = T_UINT, .max = 65535 },
	{ "deadtime", G(deadtime), .type = T_UINT, .max = 35791394 },
	{ "maxopenfiles", G(max_open_files), .type = T_UINT, .min = 1, .max = 0xffffffffUL },
	{ "smb2maxread", G(smb2_max_read), .type = T_SIZE, .min = 65536, .max = 8u << 20 },
	{ "smb2maxwrite", G(smb2_max_write), .type = T_SIZE, .min = 65536, .max = 8u << 20 },
	{ "smb2maxtrans", G(smb2_max_trans), .type = T_SIZE, .min = 65536, .max = 8u << 20 },
	{ "maptoguest", G(map_to_guest), .type = T_ENUM, .words = guest_map_words },
	{ "guestaccount", G(guest_account), .type = T_CHARS },
	{ "kerberoskeytab", G(krb5_keytab), .type = T_CHARS },
	{ "kerberosservicename", G(krb5_service), .type = T_CHARS },
	{ "restrictanonymous", G(restrict_anonymous), .type = T_UINT, .max = 2 },
	{ "bindinterfacesonly", G(bind_interfaces_only), .type = T_BOOL },
	{ "interfaces", G(interfaces), .type = T_WORDS },
	{ "maxconnections", G(max_connections), .type = T_UINT, .max = 0xffffffffUL },
	{ "maxsessionsperconnection", G(max_sessions_per_conn), .type = T_UINT,
	  .min = 1, .max = 1024 },
	/* connections one client address may hold at once (default 128) */
	{ "maxipconnections", G(max_ip_connections), .type = T_UINT,
	  .min = 1, .max = 65535 },
	{ "oplockbreaktimeout", G(oplock_break_timeout), .type = T_UINT, .min = 1, .max = 3600 },
	{ "serversmb3encryptionalgorithms", G(encryption_algs), .type = T_ALGS,
	  .words = cipher_words },
	{ "serversmb3signingalgorithms", G(signing_algs), .type = T_ALGS,
	  .words = signing_alg_words },

	/* shares */
	{ "path", S(path), .type = T_PATH },
	{ "directory", S(path), .type = T_PATH },
	{ "comment", S(comment), .type = T_STR },
	{ "readonly", S(read_only), .type = T_BOOL },
	{ "writeable", S(read_only), .type = T_BOOL, .invert = true },
	{ "writable", S(read_only), .type = T_BOOL, .invert = true },
	{ "writeok", S(read_only), .type = T_BOOL, .invert = true },
	{ "browseable", S(browseable), .type = T_BOOL },
	{ "browsable", S(browseable), .type = T_BOOL },
	{ "guestok", S(guest_ok), .type = T_BOOL },
	{ "public", S(guest_ok), .type = T_BOOL },
	{ "guestonly", S(guest_only), .type = T_BOOL },
	{ "onlyguest", S(guest_only), .type = T_BOOL },
	{ "validusers", S(valid_users), .type = T_USERS },
	{ "invalidusers", S(invalid_users), .type = T_USERS },
	{ "readlist", S(read_list), .type = T_USERS },
	{ "writelist", S(write_list), .type = T_USERS },
	{ "adminusers", S(admin_users), .type = T_USERS },
	{ "hostsallow", S(hosts_allow), .type = T_HOSTS },
	{ "allowhosts", S(hosts_allow), .type = T_HOSTS },
	{ "hostsdeny", S(hosts_deny), .type = T_HOSTS },
	{ "denyhosts", S(hosts_deny), .type = T_HOSTS },
	{ "vetofiles", S(veto_files), .type = T_VETO },
	{ "createmask", S(create_mask), .type = T_MODE },
	{ "createmode", S(create_mask), .type = T_MODE },
	{ "directorymask", S(directory_mask), .type = T_MODE },
	{ "directorymode", S(directory_mask), .type = T_MODE },
	{ "forcecreatemode", S(force_create_mode), .type = T_MODE },
	{ "forcedirectorymode", S(force_directory_mode), .type = T_MODE },
	{ "forceuser", S(force_user), .type = T_OPTSTR },
	{ "forcegroup", S(force_group), .type = T_OPTSTR },
	{ "oplocks", S(oplocks), .type = T_BOOL },
	{ "storedosattributes", S(store_dos_attributes), .type = T_BOOL },
	{ "hidedotfiles", S(hide_dot_files), .type = T_BOOL },
	{ "maxconnections", S(max_connections), .type = T_UINT, .max = 0xffffffffUL,
	  .not_in_global = true },
	{ "smb3encryption", S(smb3_encryption), .type = T_ENUM, .words = encryption_words },
	{ "serversmbencrypt", S(smb3_encryption), .type = T_ENUM, .words = encryption_words },
	{ "smbencrypt", S(smb3_encryption), .type = T_ENUM, .words = encryption_words },
};

static const struct key_def *key_lookup(const char *key, enum key_scope scope)
{
	size_t i;

	for (i = 0; i < sizeof(key_table) / sizeof(key_table[0]); i++)
		if (key_table[i].scope == scope && !strcmp(key_table[i].name, key))
			return &key_table[i];
	return NULL;
}

static bool parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "yes", "true", "1", "on" };
	static const char *const no[] = { "no", "false", "0", "off" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = true;
			return true;
		}
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return true;
		}
	}
	return false;
}

/* Plain decimal, no sign, no blanks. */
static bool parse_ulong(const char *v, unsigned long long *out, const char **end)
{
	unsigned long long n = 0;
	const char *s = v;

	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++) {
		if (n > (~0ULL - 9) / 10)
			return false;
		n = n * 10 + (unsigned long long)(*s - '0');
	}
	*out = n;
	*end = s;
	return true;
}

static bool parse_size(const char *v, unsigned long long *out)
{
	unsigned long long n, mult = 1;
	const char *end;

	if (!parse_ulong(v, &n, &end))
		return false;
	switch (tolower((unsigned char)*end)) {
	case '\0':
		break;
	case 'k':
		mult = 1ULL << 10;
		end++;
		break;
	case 'm':
		mult = 1ULL << 20;
		end++;
		break;
	case 'g':
		mult = 1ULL << 30;
		end++;
		break;
	default:
		return false;
	}
	if (*end || n > ~0ULL / mult)
		return false;
	*out = n * mult;
	return true;
}

static bool parse_mode(const char *v, mode_t *out)
{
	unsigned int n = 0;
	const char *s;

	if (!*v || strlen(v) > 5)
		return false;
	for (s = v; *s; s++) {
		if (*s < '0' || *s > '7')
			return false;
		n = n * 8 + (unsigned int)(*s - '0');
	}
	if (n > 07777)
		return false;
	*out = (mode_t)n;
	return true;
}

static void store_uint(void *field, size_t size, unsigned long long n)
{
	if (size == sizeof(uint16_t))
		*(uint16_t *)field = (uint16_t)n;
	else if (size == sizeof(uint32_t))
		*(uint32_t *)field = (uint32_t)n;
	else
		*(unsigned long long *)field = n;
}

/*
 * Splits @v into @list. Separators: ',' and blanks, or only '/' for
 * @slash_only; double quotes keep blanks inside one item (user lists such
 * as "Domain Users").
 */
static int split_list(const char *v, struct ksmbd_strlist *list, bool slash_only)
{
	const char *s = v;

	while (*s) {
		const char *start;
		size_t n;

		if (slash_only ? *s == '/' : (*s == ',' || isspace((unsigned char)*s))) {
			s++;
			continue;
		}
		if (!slash_only && *s == '"') {
			start = ++s;
			while (*s && *s != '"')
				s++;
			n = (size_t)(s - start);
			if (*s)
				s++;
		} else {
			start = s;
			while (*s && (slash_only ? *s != '/' :
				      (*s != ',' && !isspace((unsigned char)*s))))
				s++;
			n = (size_t)(s - start);
		}
		if (n && cfg_strlist_push(list, start, n))
			return -ENOMEM;
	}
	return 0;
}

static bool check_hosts(struct cfg_parser *p, const struct ksmbd_strlist *l)
{
	bool ok = true;
	size_t i;

	for (i = 0; i < l->count; i++) {
		int r = cfg_host_item_check(l->items[i]);

		if (r < 0) {
			cfg_error(p, "bad host or network '%s'", l->items[i]);
			ok = false;
		} else if (r > 0) {
			cfg_warn(p, "host name '%s' is not resolved and never matches",
				 l->items[i]);
		}
	}
	return ok;
}

static void set_list(struct cfg_parser *p, const struct key_def *k,
		     void *field, const char *v)
{
	struct ksmbd_strlist fresh = { 0, NULL };

	if (split_list(v, &fresh, k->type == T_VETO)) {
		p->oom = true;
		goto out_free;
	}
	if (k->type == T_HOSTS && !check_hosts(p, &fresh))
		goto out_free;
	cfg_strlist_free(field);
	*(struct ksmbd_strlist *)field = fresh;
	return;
out_free:
	cfg_strlist_free(&fresh);
}

static void set_owned_string(struct cfg_parser *p, const struct key_def *k,
			     char **field, const char *v)
{
	char *copy = NULL;

	if (k->type == T_PATH && !*v) {
		cfg_error(p, "'%s' must not be empty", p->key);
		return;
	}
	/* The kernel resolves share paths from the root, never from a cwd. */
	if (k->type == T_PATH && *v != '/') {
		cfg_error(p, "'%s' must be an absolute path, got '%s'", p->key, v);
		return;
	}
	if (*v || k->type != T_OPTSTR) {
		copy = strdup(v);
		if (!copy) {
			p->oom = true;
			return;
		}
	}
	free(*field);
	*field = copy;
}

static bool parse_enum(const struct enum_word *w, const char *v, int *out)
{
	for (; w->word; w++) {
		if (!strcasecmp(w->word, v)) {
			*out = w->value;
			return true;
		}
	}
	return false;
}

static const char *word_list(const struct enum_word *w, char *buf, size_t cap)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; w->word && used < cap; w++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%s",
					 used ? ", " : "", w->word);
	return buf;
}

/*
 * Dialect names. "SMB2" and "SMB3" name a family: the lowest member when
 * used as a minimum, the highest as a maximum.
 */
static bool parse_protocol(struct cfg_parser *p, const char *v, bool is_min,
			   enum ksmbd_dialect *out)
{
	static const struct {
		const char *name;
		enum ksmbd_dialect lo, hi;
	} names[] = {
		{ "SMB2_10", KSMBD_DIALECT_SMB2_10, KSMBD_DIALECT_SMB2_10 },
		{ "SMB3_00", KSMBD_DIALECT_SMB3_00, KSMBD_DIALECT_SMB3_00 },
		{ "SMB3_02", KSMBD_DIALECT_SMB3_02, KSMBD_DIALECT_SMB3_02 },
		{ "SMB3_11", KSMBD_DIALECT_SMB3_11, KSMBD_DIALECT_SMB3_11 },
		{ "SMB2", KSMBD_DIALECT_SMB2_10, KSMBD_DIALECT_SMB2_10 },
		{ "SMB3", KSMBD_DIALECT_SMB3_00, KSMBD_DIALECT_SMB3_11 },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcasecmp(v, names[i].name)) {
			*out = is_min ? names[i].lo : names[i].hi;
			return true;
		}
	}
	if (is_min && (!strcasecmp(v, "SMB2_02") || !strcasecmp(v, "NT1") ||
		       !strcasecmp(v, "SMB1") || !strcasecmp(v, "LANMAN1") ||
		       !strcasecmp(v, "LANMAN2") || !strcasecmp(v, "CORE"))) {
		cfg_warn(p, "dialect '%s' is not supported; using SMB2_10", v);
		*out = KSMBD_DIALECT_SMB2_10;
		return true;
	}
	cfg_error(p, "unknown dialect '%s' (expected SMB2_10, SMB3_00, SMB3_02, SMB3_11, SMB2 or SMB3)",
		  v);
	return false;
}

static void set_netbios(struct cfg_parser *p, char *field, size_t size,
			const char *v)
{
	size_t i, n = strlen(v);

	if (!n || n >= size) {
		cfg_error(p, "netbios name must be 1 to %zu characters", size - 1);
		return;
	}
	for (i = 0; i < n; i++) {
		if (!isprint((unsigned char)v[i]) || strchr("\\/:*?\"<>|. ", v[i])) {
			cfg_error(p, "netbios name '%s' contains '%c'", v, v[i]);
			return;
		}
		field[i] = (char)toupper((unsigned char)v[i]);
	}
	field[n] = '\0';
}

static void set_number(struct cfg_parser *p, const struct key_def *k,
		       void *field, const char *v)
{
	unsigned long long n;
	const char *end;

	if (k->type == T_SIZE) {
		if (!parse_size(v, &n)) {
			cfg_error(p, "'%s' is not a size (bytes, or with a K, M or G suffix)", v);
			return;
		}
	} else if (!parse_ulong(v, &n, &end) || *end) {
		cfg_error(p, "'%s' is not a number", v);
		return;
	}
	if (n < k->min || n > k->max)
		cfg_error(p, "%s %llu is out of range %lu..%lu", p->key, n, k->min, k->max);
	else
		store_uint(field, k->size, n);
}

static void set_choice(struct cfg_parser *p, const struct key_def *k,
		       void *field, const char *v)
{
	char words[160];
	int e;

	if (k->type == T_ENUM) {
		if (!parse_enum(k->words, v, &e))
			cfg_error(p, "bad value '%s' (expected one of: %s)", v,
				  word_list(k->words, words, sizeof(words)));
		else
			*(int *)field = e;
		return;
	}
	if (!parse_protocol(p, v, k->type == T_MIN_PROTO, field))
		return;
	if (k->type == T_MIN_PROTO)
		p->min_proto_line = p->line;
	else
		p->max_proto_line = p->line;
}

/* A list of algorithm names, most preferred first; no name twice. */
static void set_algs(struct cfg_parser *p, const struct key_def *k,
		     struct ksmbd_alglist *field, const char *v)
{
	struct ksmbd_strlist names = { 0, NULL };
	struct ksmbd_alglist out = { 0, { 0 } };
	char words[160];
	size_t i, j;
	int id;

	if (split_list(v, &names, false)) {
		p->oom = true;
		return;
	}
	for (i = 0; i < names.count; i++) {
		if (!parse_enum(k->words, names.items[i], &id)) {
			cfg_error(p, "unknown algorithm '%s' (expected: %s)",
				  names.items[i],
				  word_list(k->words, words, sizeof(words)));
			goto out_free;
		}
		for (j = 0; j < out.count; j++)
			if (out.ids[j] == id)
				break;
		if (j < out.count)
			continue;
		out.ids[out.count++] = (uint16_t)id;
	}
	if (!out.count)
		cfg_error(p, "'%s' lists no algorithm", p->key);
	else
		*field = out;
out_free:
	cfg_strlist_free(&names);
}

static void set_value(struct cfg_parser *p, const struct key_def *k,
		      void *base, const char *v)
{
	void *field = (char *)base + k->off;
	bool b;

	switch (k->type) {
	case T_BOOL:
		if (!parse_bool(v, &b))
			cfg_error(p, "'%s' is not a boolean (yes/no/true/false/1/0/on/off)", v);
		else
			*(bool *)field = b != k->invert;
		break;
	case T_UINT:
	case T_SIZE:
		set_number(p, k, field, v);
		break;
	case T_MODE:
		if (!parse_mode(v, field))
			cfg_error(p, "'%s' is not an octal mode (0 to 07777)", v);
		break;
	case T_CHARS:
		if (strlen(v) >= k->size)
			cfg_error(p, "value of '%s' is longer than %zu characters",
				  p->key, k->size - 1);
		else
			memcpy(field, v, strlen(v) + 1);
		break;
	case T_NETBIOS:
		set_netbios(p, field, k->size, v);
		break;
	case T_STR:
	case T_PATH:
	case T_OPTSTR:
		set_owned_string(p, k, field, v);
		break;
	case T_USERS:
	case T_HOSTS:
	case T_VETO:
	case T_WORDS:
		set_list(p, k, field, v);
		break;
	case T_ENUM:
	case T_MIN_PROTO:
	case T_MAX_PROTO:
		set_choice(p, k, field, v);
		break;
	case T_ALGS:
		set_algs(p, k, field, v);
		break;
	}
}

static void apply_global_section(struct cfg_parser *p, const char *norm,
				 const char *key, const char *value)
{
	const struct key_def *g = key_lookup(norm, SCOPE_GLOBAL);
	const struct key_def *s = key_lookup(norm, SCOPE_SHARE);

	if (g)
		set_value(p, g, &p->cfg->global, value);
	if (s && !s->not_in_global)
		set_value(p, s, p->tmpl, value);
	if (!g && !s)
		cfg_warn(p, "unknown parameter '%s' ignored", key);
}

void cfg_apply_key(struct cfg_parser *p, const char *key, const char *value)
{
	char norm[64];
	const struct key_def *k;

	cfg_key_normalize(key, norm, sizeof(norm));
	p->key = key;
	switch (p->section) {
	case CFG_SEC_GLOBAL:
		apply_global_section(p, norm, key, value);
		break;
	case CFG_SEC_SHARE:
		k = key_lookup(norm, SCOPE_SHARE);
		if (k)
			set_value(p, k, p->cur, value);
		else if (key_lookup(norm, SCOPE_GLOBAL))
			cfg_warn(p, "global parameter '%s' in share [%s] ignored",
				 key, p->cur->name);
		else
			cfg_warn(p, "unknown parameter '%s' ignored", key);
		break;
	case CFG_SEC_NONE:
		cfg_error(p, "'%s' is outside of any [section]", key);
		break;
	case CFG_SEC_SKIP:
		break;
	}
}

int cfg_key_field(const char *key, bool global)
{
	enum key_scope scope = global ? SCOPE_GLOBAL : SCOPE_SHARE;
	char norm[64];
	const struct key_def *k;
	size_t i;

	cfg_key_normalize(key, norm, sizeof(norm));
	k = key_lookup(norm, scope);
	if (!k)
		return -1;
	/* Synonyms share the storage: report the first entry with it. */
	for (i = 0; i < sizeof(key_table) / sizeof(key_table[0]); i++)
		if (key_table[i].scope == scope && key_table[i].off == k->off)
			return (int)i;
	return -1;
}
