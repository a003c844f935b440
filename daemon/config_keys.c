// SPDX-License-Identifier: GPL-2.0
/*
 * The table of ksmbd.conf keys and the parsers of their values.
 *
 * Each key is described once (name without blanks, scope, value type,
 * where it is stored); one setter per value type does the checking, so a
 * new key is one table line.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
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
	T_IFACES,	/* interface names, addresses or address/prefix */
	T_VFS,		/* "vfs objects": bool, true when acl_xattr is named */
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
	bool suffix;			/* T_UINT: K, M, G... allowed, as ksmbd-tools */
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
	{ "enabled", KSMBD_ENCRYPTION_DESIRED },
	{ "true", KSMBD_ENCRYPTION_DESIRED },
	{ "required", KSMBD_ENCRYPTION_REQUIRED },
	{ "mandatory", KSMBD_ENCRYPTION_REQUIRED },
	{ NULL, 0 },
};

static const struct enum_word guest_map_words[] = {
	{ "never", KSMBD_MAP_TO_GUEST_NEVER },
	{ "bad user", KSMBD_MAP_TO_GUEST_BAD_USER },
	{ "bad_user", KSMBD_MAP_TO_GUEST_BAD_USER },
	{ "bad password", KSMBD_MAP_TO_GUEST_BAD_USER },
	{ "bad uid", KSMBD_MAP_TO_GUEST_NEVER },
	{ NULL, 0 },
};

/* Words accepted for what they mean elsewhere, with what they do here. */
static const struct {
	const struct enum_word *words;
	const char *word;
	const char *warn;
} word_notes[] = {
	{ guest_map_words, "bad password",
	  "'bad password' works as 'bad user' here: a wrong password for a known user is refused, unknown users become guest" },
	{ guest_map_words, "bad uid",
	  "'bad uid' applies to domain members only; it works as 'never' here" },
};

static const char *word_note(const struct enum_word *words, const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(word_notes) / sizeof(word_notes[0]); i++)
		if (word_notes[i].words == words && !strcmp(word_notes[i].word, word))
			return word_notes[i].warn;
	return NULL;
}

static const struct enum_word krb5_words[] = {
	{ "yes", KSMBD_KRB5_YES }, { "true", KSMBD_KRB5_YES },
	{ "1", KSMBD_KRB5_YES }, { "on", KSMBD_KRB5_YES },
	{ "enable", KSMBD_KRB5_YES }, { "enabled", KSMBD_KRB5_YES },
	{ "no", KSMBD_KRB5_NO }, { "false", KSMBD_KRB5_NO },
	{ "0", KSMBD_KRB5_NO }, { "off", KSMBD_KRB5_NO },
	{ "disable", KSMBD_KRB5_NO }, { "disabled", KSMBD_KRB5_NO },
	{ "auto", KSMBD_KRB5_AUTO },
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
	{ "smb3directoryleases", G(dir_leases), .type = T_BOOL },
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
	{ "kerberoskeytabfile", G(krb5_keytab), .type = T_CHARS },
	{ "kerberosservicename", G(krb5_service), .type = T_CHARS },
	{ "restrictanonymous", G(restrict_anonymous), .type = T_UINT, .max = 2 },
	{ "bindinterfacesonly", G(bind_interfaces_only), .type = T_BOOL },
	{ "interfaces", G(interfaces), .type = T_IFACES },
	{ "maxconnections", G(max_connections), .type = T_UINT, .max = 0xffffffffUL,
	  .suffix = true },
	{ "maxsessionsperconnection", G(max_sessions_per_conn), .type = T_UINT,
	  .min = 1, .max = 1024 },
	/* connections one client address may hold at once (default 128) */
	{ "maxipconnections", G(max_ip_connections), .type = T_UINT,
	  .min = 1, .max = 65535 },
	/* per-client bounds (ours; Samba and ksmbd-tools have none) */
	{ "maxopenfilespersession", G(max_open_files_per_session), .type = T_UINT,
	  .min = 1, .max = 0xffffffffUL },
	{ "maxopenfilesperconnection", G(max_open_files_per_conn), .type = T_UINT,
	  .min = 1, .max = 0xffffffffUL },
	{ "maxnotifywatchespersession", G(max_notify_watches_per_session),
	  .type = T_UINT, .min = 1, .max = 1u << 20 },
	{ "maxlocksperhandle", G(max_locks_per_handle), .type = T_UINT,
	  .min = 1, .max = 1u << 20 },
	{ "maxlocksperfile", G(max_locks_per_file), .type = T_UINT,
	  .min = 1, .max = 1u << 20 },
	{ "maxallocationreservation", G(max_alloc_reservation), .type = T_SIZE,
	  .max = ~0UL },
	{ "oplockbreaktimeout", G(oplock_break_timeout), .type = T_UINT, .min = 1, .max = 3600 },
	{ "serversmb3encryptionalgorithms", G(encryption_algs), .type = T_ALGS,
	  .words = cipher_words },
	{ "serversmb3signingalgorithms", G(signing_algs), .type = T_ALGS,
	  .words = signing_alg_words },
	{ "kerberossupport", G(krb5_support), .type = T_ENUM, .words = krb5_words },
	{ "rootdirectory", G(root_dir), .type = T_PATH },
	{ "share:fake_fscaps", G(fake_fscaps), .type = T_UINT, .max = 0xffffffffUL },

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
	{ "inheritowner", S(inherit_owner), .type = T_BOOL },
	{ "oplocks", S(oplocks), .type = T_BOOL },
	{ "storedosattributes", S(store_dos_attributes), .type = T_BOOL },
	{ "hidedotfiles", S(hide_dot_files), .type = T_BOOL },
	{ "aclxattr", S(acl_xattr), .type = T_BOOL },
	{ "hideunreadable", S(hide_unreadable), .type = T_BOOL },
	{ "vfsobjects", S(acl_xattr), .type = T_VFS },
	{ "maxconnections", S(max_connections), .type = T_UINT, .max = 0xffffffffUL,
	  .suffix = true, .not_in_global = true },
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
	/* Samba's spellings and ksmbd-tools' enable/disable. */
	static const char *const yes[] = { "yes", "true", "1", "on", "enable", "enabled" };
	static const char *const no[] = { "no", "false", "0", "off", "disable", "disabled" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
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

/*
 * A number with an optional binary suffix, as ksmbd-tools reads them:
 * K, M, G, T, P or E (any case, 1024-based), which may be followed by
 * "B" or "iB" ("4M", "4MB", "4 MiB"). A lone "B" means bytes.
 */
static bool parse_scaled(const char *v, unsigned long long *out)
{
	static const char units[] = "kmgtpe";
	unsigned long long n, mult = 1;
	const char *end, *u;

	if (!parse_ulong(v, &n, &end))
		return false;
	while (*end == ' ' || *end == '\t')
		end++;
	u = *end ? strchr(units, tolower((unsigned char)*end)) : NULL;
	if (u) {
		mult = 1ULL << (10 * (u - units + 1));
		end++;
		if (tolower((unsigned char)*end) == 'i' &&
		    tolower((unsigned char)end[1]) == 'b')
			end++;
	}
	if (tolower((unsigned char)*end) == 'b')
		end++;
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

/* Prefix length of a contiguous IPv4 netmask, or -1. */
static int mask_prefix(const char *m)
{
	struct in_addr a;
	uint32_t bits;
	int n = 0;

	if (inet_pton(AF_INET, m, &a) != 1)
		return -1;
	bits = ntohl(a.s_addr);
	while (bits & 0x80000000u) {
		bits <<= 1;
		n++;
	}
	return bits ? -1 : n;
}

/*
 * One "interfaces" item made canonical for the module: an address becomes
 * "address/prefix" (a lone address is /32 or /128, a netmask becomes its
 * prefix); a name stays a name. -1 when it is neither.
 */
static int iface_canonical(const char *item, char *out, size_t cap)
{
	char addr[INET6_ADDRSTRLEN + 1], *end;
	const char *slash;
	unsigned char bin[16];
	long prefix = -1;
	int fam, max;

	size_t n = strcspn(item, "/");

	if (n >= sizeof(addr))
		return -1;
	memcpy(addr, item, n);
	addr[n] = '\0';
	slash = item[n] ? item + n : NULL;
	fam = strchr(addr, ':') ? AF_INET6 : AF_INET;
	max = fam == AF_INET6 ? 128 : 32;
	if (inet_pton(fam, addr, bin) != 1) {
		/* A device name: what IFNAMSIZ allows, no wildcard. */
		if (slash || strlen(item) >= 16 || strpbrk(item, ":*?[ \t"))
			return -1;
		snprintf(out, cap, "%s", item);
		return 0;
	}
	if (!slash) {
		prefix = max;
	} else if (fam == AF_INET && strchr(slash + 1, '.')) {
		prefix = mask_prefix(slash + 1);
	} else if (isdigit((unsigned char)slash[1])) {
		prefix = strtol(slash + 1, &end, 10);
		if (*end)
			prefix = -1;
	}
	if (prefix < 0 || prefix > max)
		return -1;
	inet_ntop(fam, bin, addr, sizeof(addr));
	snprintf(out, cap, "%s/%ld", addr, prefix);
	return 0;
}

static bool check_ifaces(struct cfg_parser *p, struct ksmbd_strlist *l)
{
	char canon[INET6_ADDRSTRLEN + 8];
	bool ok = true;
	size_t i;

	for (i = 0; i < l->count; i++) {
		char *copy;

		if (iface_canonical(l->items[i], canon, sizeof(canon))) {
			cfg_error(p, "'%s' is not an interface name (up to 15 characters, no wildcard), an address or an address/prefix",
				  l->items[i]);
			ok = false;
			continue;
		}
		copy = strdup(canon);
		if (!copy) {
			p->oom = true;
			return false;
		}
		free(l->items[i]);
		l->items[i] = copy;
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
	if (k->type == T_IFACES && !check_ifaces(p, &fresh))
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

static const struct enum_word *find_word(const struct enum_word *w, const char *v)
{
	for (; w->word; w++)
		if (!strcasecmp(w->word, v))
			return w;
	return NULL;
}

static bool parse_enum(const struct enum_word *w, const char *v, int *out)
{
	w = find_word(w, v);
	if (w)
		*out = w->value;
	return w != NULL;
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
		/* Blanks are allowed: ksmbd-tools' default is "KSMBD SERVER". */
		if (!isprint((unsigned char)v[i]) || strchr("\\/:*?\"<>|.", v[i])) {
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
		if (!parse_scaled(v, &n)) {
			cfg_error(p, "'%s' is not a size (bytes, or with a K, M, G, T, P or E suffix)", v);
			return;
		}
	} else if (k->suffix) {
		if (!parse_scaled(v, &n)) {
			cfg_error(p, "'%s' is not a number (digits, optionally with a K, M or G suffix)", v);
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
	char words[200];
	const struct enum_word *w;

	if (k->type == T_ENUM) {
		w = find_word(k->words, v);
		if (!w) {
			cfg_error(p, "bad value '%s' (expected one of: %s)", v,
				  word_list(k->words, words, sizeof(words)));
			return;
		}
		if (word_note(k->words, w->word))
			cfg_warn(p, "%s", word_note(k->words, w->word));
		*(int *)field = w->value;
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

/*
 * Samba's module list: acl_xattr turns the stored descriptors on;
 * streams_xattr is what we always do; any other module is not built in.
 */
static void set_vfs(struct cfg_parser *p, bool *acl_xattr, const char *v)
{
	bool acl = false;

	for (; *v; v += strcspn(v, ", \t")) {
		size_t len;

		v += strspn(v, ", \t");
		len = strcspn(v, ", \t");
		if (!len)
			continue;
		if (len == 9 && !strncasecmp(v, "acl_xattr", 9))
			acl = true;
		else if (len != 13 || strncasecmp(v, "streams_xattr", 13))
			cfg_warn(p, "vfs object '%.*s' is not built in: ignored (acl_xattr and streams_xattr are)",
				 (int)len, v);
	}
	*acl_xattr = acl;
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
	case T_IFACES:
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
	case T_VFS:
		set_vfs(p, field, v);
		break;
	}
}

/*
 * Keys ksmbd-tools documents that this server does not (yet) implement.
 * Their values are checked like any other; a value that asks for something
 * we do not do is a warning naming the difference, never silence. A key
 * listed in key_table as well is implemented: that entry wins.
 */
struct unhonoured_key {
	const char *name;		/* normalized, as in key_table */
	enum key_scope scope;
	enum key_type type;		/* T_BOOL, T_UINT, T_SIZE, T_WORDS, T_STR */
	int fits;			/* T_BOOL, T_UINT: the value we do; -1: none */
	const char *why;		/* what happens instead */
};

static const struct unhonoured_key unhonoured_table[] = {
	{ "durablehandles", SCOPE_GLOBAL, T_BOOL, 1,
	  "durable handles are always granted to clients that ask" },
	{ "maxactivesessions", SCOPE_GLOBAL, T_UINT, -1,
	  "there is no server-wide session limit; 'max connections' and 'max sessions per connection' bound sessions" },
	{ "smb2maxcredits", SCOPE_GLOBAL, T_UINT, 8192,
	  "a connection is granted at most 8192 credits" },
	{ "smbdmaxiosize", SCOPE_GLOBAL, T_SIZE, -1,
	  "SMB Direct (RDMA) is not supported" },
	{ "crossmnt", SCOPE_SHARE, T_BOOL, 1,
	  "paths always enter a file system mounted inside the share, as the kernel's own path walk does" },
	{ "followsymlinks", SCOPE_SHARE, T_BOOL, 0,
	  "symbolic links are never followed" },
	{ "guestaccount", SCOPE_SHARE, T_STR, -1,
	  "guests use the [global] guest account on every share" },
};

static const struct unhonoured_key *unhonoured_lookup(const char *key,
						      enum key_scope scope)
{
	size_t i;

	if (key_lookup(key, scope))
		return NULL;
	for (i = 0; i < sizeof(unhonoured_table) / sizeof(unhonoured_table[0]); i++)
		if (unhonoured_table[i].scope == scope &&
		    !strcmp(unhonoured_table[i].name, key))
			return &unhonoured_table[i];
	return NULL;
}

/* Whether @v asks for nothing beyond what we do; errors for bad values. */
static bool unhonoured_fits(struct cfg_parser *p, const struct unhonoured_key *u,
			    const char *v)
{
	unsigned long long n;
	bool b;

	switch (u->type) {
	case T_BOOL:
		if (!parse_bool(v, &b)) {
			cfg_error(p, "'%s' is not a boolean (yes/no/true/false/1/0/on/off)", v);
			return true;
		}
		return (int)b == u->fits;
	case T_UINT:
		if (!parse_scaled(v, &n)) {
			cfg_error(p, "'%s' is not a number", v);
			return true;
		}
		return u->fits >= 0 && n == (unsigned long long)u->fits;
	case T_SIZE:
		if (!parse_scaled(v, &n)) {
			cfg_error(p, "'%s' is not a size (bytes, or with a K, M, G, T, P or E suffix)", v);
			return true;
		}
		return false;
	case T_WORDS:
		/* vfs objects: only modules we have built in fit. */
		for (; *v; v += strcspn(v, ", \t")) {
			size_t len;

			v += strspn(v, ", \t");
			len = strcspn(v, ", \t");
			if (len && (len != 13 || strncasecmp(v, "streams_xattr", 13)))
				return false;
		}
		return true;
	default:
		return false;
	}
}

static void apply_unhonoured(struct cfg_parser *p, const struct unhonoured_key *u,
			     const char *value)
{
	if (!unhonoured_fits(p, u, value))
		cfg_warn(p, "'%s = %s' is not honoured: %s", p->key, value, u->why);
}

/* The first table entry with @k's storage: synonyms share one number. */
static size_t field_index(const struct key_def *k)
{
	size_t i;

	for (i = 0; i < sizeof(key_table) / sizeof(key_table[0]); i++)
		if (key_table[i].scope == k->scope && key_table[i].off == k->off)
			return i;
	return 0;
}

_Static_assert(sizeof(key_table) / sizeof(key_table[0]) <= CFG_KEYS_MAX,
	       "raise CFG_KEYS_MAX in config_int.h");

void cfg_section_reset(struct cfg_parser *p)
{
	memset(p->set_on, 0, sizeof(p->set_on));
}

/*
 * False when the section already set this field: ksmbd-tools keeps the
 * first value of a key that is given twice, and so do we, out loud.
 */
static bool first_setting(struct cfg_parser *p, const struct key_def *k)
{
	unsigned int *on = &p->set_on[k->scope][field_index(k)];

	if (*on) {
		cfg_warn(p, "'%s' was already set on line %u: the first value is kept, as ksmbd-tools keeps it",
			 p->key, *on);
		return false;
	}
	*on = p->line;
	return true;
}

static void note_line(struct cfg_parser *p, const struct key_def *k)
{
	if (k->off == offsetof(struct ksmbd_global, interfaces))
		p->interfaces_line = p->line;
	else if (k->off == offsetof(struct ksmbd_global, bind_interfaces_only))
		p->bind_only_line = p->line;
}

static void apply_global_section(struct cfg_parser *p, const char *norm,
				 const char *key, const char *value)
{
	const struct key_def *g = key_lookup(norm, SCOPE_GLOBAL);
	const struct key_def *s = key_lookup(norm, SCOPE_SHARE);
	const struct unhonoured_key *u;

	if (s && s->not_in_global)
		s = NULL;
	if (g && first_setting(p, g)) {
		note_line(p, g);
		set_value(p, g, &p->cfg->global, value);
	}
	if (s && first_setting(p, s))
		set_value(p, s, p->tmpl, value);
	if (s && p->tmpl->inherit_owner && !strcmp(norm, "inheritowner"))
		cfg_warn(p, "'%s' is not supported: every share is refused",
			 key);
	if (g || s)
		return;
	u = unhonoured_lookup(norm, SCOPE_GLOBAL);
	if (!u)
		u = unhonoured_lookup(norm, SCOPE_SHARE);
	if (u)
		apply_unhonoured(p, u, value);
	else
		cfg_warn(p, "unknown parameter '%s' ignored", key);
}

static void apply_share_section(struct cfg_parser *p, const char *norm,
				const char *key, const char *value)
{
	const struct key_def *k = key_lookup(norm, SCOPE_SHARE);
	const struct unhonoured_key *u;

	if (k) {
		if (first_setting(p, k))
			set_value(p, k, p->cur, value);
		if (p->cur->inherit_owner && !strcmp(norm, "inheritowner"))
			cfg_warn(p, "'%s' is not supported: share [%s] is refused",
				 key, p->cur->name);
		return;
	}
	u = unhonoured_lookup(norm, SCOPE_SHARE);
	if (u)
		apply_unhonoured(p, u, value);
	else if (key_lookup(norm, SCOPE_GLOBAL) || unhonoured_lookup(norm, SCOPE_GLOBAL))
		cfg_warn(p, "global parameter '%s' in share [%s] ignored",
			 key, p->cur->name);
	else
		cfg_warn(p, "unknown parameter '%s' ignored", key);
}

void cfg_apply_key(struct cfg_parser *p, const char *key, const char *value)
{
	char norm[64];

	cfg_key_normalize(key, norm, sizeof(norm));
	p->key = key;
	switch (p->section) {
	case CFG_SEC_GLOBAL:
		apply_global_section(p, norm, key, value);
		break;
	case CFG_SEC_SHARE:
		apply_share_section(p, norm, key, value);
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

	cfg_key_normalize(key, norm, sizeof(norm));
	k = key_lookup(norm, scope);
	return k ? (int)field_index(k) : -1;
}

/* ---- The table as the manual shows it ---- */

static const char *enum_name(const struct enum_word *w, int value)
{
	for (; w->word; w++)
		if (w->value == value)
			return w->word;
	return "";
}

static void describe_values(const struct key_def *k, char *out, size_t cap)
{
	char words[200];

	switch (k->type) {
	case T_BOOL:
		snprintf(out, cap, "yes or no (also true/false, 1/0, on/off, enable/disable)");
		break;
	case T_UINT:
		snprintf(out, cap, "%lu to %lu%s", k->min, k->max,
			 k->suffix ? "; a K, M or G suffix multiplies by 1024, 1024^2, 1024^3" : "");
		break;
	case T_SIZE:
		snprintf(out, cap, "%lu to %lu bytes; a K, M or G suffix (1024-based, optionally followed by B or iB) multiplies",
			 k->min, k->max);
		break;
	case T_MODE:
		snprintf(out, cap, "an octal mode, 0 to 07777");
		break;
	case T_CHARS:
		snprintf(out, cap, "text of at most %zu bytes", k->size - 1);
		break;
	case T_STR:
		snprintf(out, cap, "text");
		break;
	case T_PATH:
		snprintf(out, cap, "an absolute path");
		break;
	case T_OPTSTR:
		snprintf(out, cap, "a name");
		break;
	case T_USERS:
		snprintf(out, cap, "user names, @group or +group (Unix groups), separated by commas or blanks; double quotes keep blanks in a name");
		break;
	case T_HOSTS:
		snprintf(out, cap, "ALL, addresses, prefixes (10.), CIDR (10.0.0.0/8, fe80::/10), address/netmask, A EXCEPT B");
		break;
	case T_VETO:
		snprintf(out, cap, "names between slashes: /*.tmp/.DS_Store/ (* and ? match)");
		break;
	case T_WORDS:
		snprintf(out, cap, "words separated by commas or blanks");
		break;
	case T_ENUM:
	case T_ALGS:
		snprintf(out, cap, "%s%s", k->type == T_ALGS ? "a list of " : "",
			 word_list(k->words, words, sizeof(words)));
		break;
	case T_MIN_PROTO:
	case T_MAX_PROTO:
		snprintf(out, cap, "SMB2_10, SMB3_00, SMB3_02, SMB3_11, SMB2, SMB3");
		break;
	case T_NETBIOS:
		snprintf(out, cap, "1 to %zu characters, none of \\/:*?\"<>|.", k->size - 1);
		break;
	case T_IFACES:
		snprintf(out, cap, "interface names, addresses and address/prefix (or address/netmask) items");
		break;
	case T_VFS:
		snprintf(out, cap, "module names separated by commas or blanks: acl_xattr, streams_xattr");
		break;
	}
}

static const char *dialect_name(int d)
{
	switch (d) {
	case KSMBD_DIALECT_SMB2_10: return "SMB2_10";
	case KSMBD_DIALECT_SMB3_00: return "SMB3_00";
	case KSMBD_DIALECT_SMB3_02: return "SMB3_02";
	default: return "SMB3_11";
	}
}

/* The default of @k, read from the built-in defaults. */
static void describe_default(const struct key_def *k, const void *base,
			     char *out, size_t cap)
{
	const void *f = (const char *)base + k->off;
	unsigned long long n;

	switch (k->type) {
	case T_BOOL:
		snprintf(out, cap, "%s", *(const bool *)f != k->invert ? "yes" : "no");
		break;
	case T_UINT:
	case T_SIZE:
		n = k->size == sizeof(uint16_t) ? *(const uint16_t *)f :
		    k->size == sizeof(uint32_t) ? *(const uint32_t *)f :
		    *(const unsigned long long *)f;
		if (k->type == T_SIZE && n && !(n % (1u << 20)))
			snprintf(out, cap, "%lluM", n >> 20);
		else
			snprintf(out, cap, "%llu", n);
		break;
	case T_MODE:
		snprintf(out, cap, "%04o", (unsigned int)*(const mode_t *)f);
		break;
	case T_CHARS:
	case T_NETBIOS:
		snprintf(out, cap, "%s", (const char *)f);
		break;
	case T_STR:
	case T_PATH:
	case T_OPTSTR:
		snprintf(out, cap, "%s", *(char *const *)f ? *(char *const *)f : "");
		break;
	case T_ENUM:
		snprintf(out, cap, "%s", enum_name(k->words, *(const int *)f));
		break;
	case T_MIN_PROTO:
	case T_MAX_PROTO:
		snprintf(out, cap, "%s", dialect_name(*(const int *)f));
		break;
	default:	/* lists: empty */
		out[0] = '\0';
		break;
	}
}

static size_t key_table_len(void)
{
	return sizeof(key_table) / sizeof(key_table[0]);
}

size_t cfg_key_count(void)
{
	return key_table_len() + sizeof(unhonoured_table) / sizeof(unhonoured_table[0]);
}

static int unhonoured_info(size_t i, struct cfg_key_info *out)
{
	const struct unhonoured_key *u = &unhonoured_table[i];
	static const struct key_def any_uint = { .type = T_UINT, .max = 0xffffffffUL,
						 .suffix = true };
	static const struct key_def any_size = { .type = T_SIZE, .max = 0xffffffffUL };
	static const struct key_def any_bool = { .type = T_BOOL };
	static const struct key_def any_words = { .type = T_WORDS };
	static const struct key_def any_str = { .type = T_OPTSTR };

	if (key_lookup(u->name, u->scope))
		return -1;
	out->name = u->name;
	out->global = u->scope == SCOPE_GLOBAL;
	out->honoured = false;
	out->why = u->why;
	describe_values(u->type == T_BOOL ? &any_bool : u->type == T_UINT ? &any_uint :
			u->type == T_SIZE ? &any_size : u->type == T_WORDS ? &any_words :
			&any_str, out->values, sizeof(out->values));
	if (u->type == T_BOOL)
		snprintf(out->def, sizeof(out->def), "%s", u->fits ? "yes" : "no");
	else if (u->type == T_UINT && u->fits >= 0)
		snprintf(out->def, sizeof(out->def), "%d", u->fits);
	return 0;
}

int cfg_key_info(size_t i, struct cfg_key_info *out)
{
	struct ksmbd_global g;
	struct ksmbd_share s;
	const struct key_def *k;
	size_t first;

	memset(out, 0, sizeof(*out));
	out->same_as = -1;
	if (i >= cfg_key_count())
		return -1;
	if (i >= key_table_len())
		return unhonoured_info(i - key_table_len(), out);
	k = &key_table[i];
	first = field_index(k);
	out->name = k->name;
	out->global = k->scope == SCOPE_GLOBAL;
	out->honoured = true;
	out->same_as = first == i ? -1 : (int)first;
	out->invert = k->invert;
	describe_values(k, out->values, sizeof(out->values));
	cfg_global_defaults(&g);
	cfg_share_defaults(&s);
	describe_default(k, out->global ? (const void *)&g : (const void *)&s,
			 out->def, sizeof(out->def));
	return 0;
}
