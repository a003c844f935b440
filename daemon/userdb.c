// SPDX-License-Identifier: GPL-2.0
/* ksmbdpwd.db: "name:base64(NT hash)" lines, as ksmbd-tools writes them. */
#include <ctype.h>
#include <grp.h>
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base64.h"
#include "fileio.h"
#include "md4.h"
#include "userdb.h"
#include "utf16.h"

#define HASH_B64_LEN	KSMBD_BASE64_LEN(KSMBD_NT_HASH_SZ)

struct ksmbd_userdb {
	struct ksmbd_user *users;
	size_t count;
	size_t cap;
};

int ksmbd_nt_hash(const char *password_utf8, uint8_t out[KSMBD_NT_HASH_SZ])
{
	uint8_t *u16;
	size_t n;
	int err;

	err = ksmbd_utf8_to_utf16le(password_utf8, strlen(password_utf8), &u16, &n);
	if (err)
		return err;
	ksmbd_md4(u16, n, out);
	explicit_bzero(u16, n);
	free(u16);
	return 0;
}

bool ksmbd_user_name_valid(const char *name)
{
	const char *c;

	if (!name || !*name || strlen(name) >= KSMBD_ACCOUNT_NAME_SZ)
		return false;
	for (c = name; *c; c++)
		if (*c == ':' || iscntrl((unsigned char)*c))
			return false;
	return true;
}

struct ksmbd_userdb *ksmbd_userdb_new(void)
{
	return calloc(1, sizeof(struct ksmbd_userdb));
}

void ksmbd_userdb_free(struct ksmbd_userdb *db)
{
	if (!db)
		return;
	if (db->users)
		explicit_bzero(db->users, db->cap * sizeof(*db->users));
	free(db->users);
	free(db);
}

static struct ksmbd_user *userdb_lookup(const struct ksmbd_userdb *db,
					const char *name)
{
	size_t i;

	for (i = 0; i < db->count; i++)
		if (!strcasecmp(db->users[i].name, name))
			return &db->users[i];
	return NULL;
}

const struct ksmbd_user *ksmbd_userdb_find(const struct ksmbd_userdb *db,
					   const char *name)
{
	return name ? userdb_lookup(db, name) : NULL;
}

size_t ksmbd_userdb_count(const struct ksmbd_userdb *db)
{
	return db->count;
}

const struct ksmbd_user *ksmbd_userdb_at(const struct ksmbd_userdb *db, size_t i)
{
	return i < db->count ? &db->users[i] : NULL;
}

static struct ksmbd_user *userdb_append(struct ksmbd_userdb *db)
{
	if (db->count == db->cap) {
		size_t cap = db->cap ? db->cap * 2 : 16;
		struct ksmbd_user *users = calloc(cap, sizeof(*users));

		if (!users)
			return NULL;
		/* Copy by hand so the old array can be wiped before it is freed. */
		if (db->count)
			memcpy(users, db->users, db->count * sizeof(*users));
		if (db->users)
			explicit_bzero(db->users, db->cap * sizeof(*db->users));
		free(db->users);
		db->users = users;
		db->cap = cap;
	}
	return &db->users[db->count++];
}

int ksmbd_userdb_set(struct ksmbd_userdb *db, const char *name,
		     const char *password)
{
	uint8_t hash[KSMBD_NT_HASH_SZ];
	struct ksmbd_user *u;
	int err;

	if (!ksmbd_user_name_valid(name))
		return -EINVAL;
	err = ksmbd_nt_hash(password, hash);
	if (err)
		return err;
	u = userdb_lookup(db, name);
	if (!u) {
		u = userdb_append(db);
		if (!u) {
			explicit_bzero(hash, sizeof(hash));
			return -ENOMEM;
		}
		strcpy(u->name, name);
	}
	memcpy(u->nt_hash, hash, sizeof(hash));
	explicit_bzero(hash, sizeof(hash));
	return 0;
}

int ksmbd_userdb_delete(struct ksmbd_userdb *db, const char *name)
{
	struct ksmbd_user *u = name ? userdb_lookup(db, name) : NULL;
	size_t i;

	if (!u)
		return -ENOENT;
	i = (size_t)(u - db->users);
	memmove(u, u + 1, (db->count - i - 1) * sizeof(*u));
	db->count--;
	explicit_bzero(&db->users[db->count], sizeof(*u));
	return 0;
}

static int parse_user_line(struct ksmbd_userdb *db, const char *line, size_t n,
			   const char *file, unsigned int lineno,
			   struct ksmbd_diag *diag)
{
	const char *colon = memchr(line, ':', n);
	size_t name_len, hash_len;
	struct ksmbd_user *u;
	uint8_t hash[KSMBD_NT_HASH_SZ + 3];
	char name[KSMBD_ACCOUNT_NAME_SZ];
	long got;

#define DB_ERROR(...) do { \
	ksmbd_diag_add(diag, KSMBD_DIAG_ERROR, file, lineno, __VA_ARGS__); \
	return -EINVAL; \
} while (0)

	if (!colon)
		DB_ERROR("expected 'name:hash'");
	name_len = (size_t)(colon - line);
	hash_len = n - name_len - 1;
	if (!name_len)
		DB_ERROR("empty user name");
	if (name_len >= KSMBD_ACCOUNT_NAME_SZ)
		DB_ERROR("user name is longer than %d bytes", KSMBD_ACCOUNT_NAME_SZ - 1);
	memcpy(name, line, name_len);
	name[name_len] = '\0';
	if (!ksmbd_user_name_valid(name))
		DB_ERROR("user name contains a control character");
	if (userdb_lookup(db, name))
		DB_ERROR("user '%s' appears twice", name);
	got = ksmbd_base64_decode(colon + 1, hash_len, hash, sizeof(hash));
	if (got < 0)
		DB_ERROR("password hash of '%s' is not valid base64", name);
	if (got != KSMBD_NT_HASH_SZ)
		DB_ERROR("password hash of '%s' is %ld bytes, expected %d", name,
			 got, KSMBD_NT_HASH_SZ);
#undef DB_ERROR
	u = userdb_append(db);
	if (!u) {
		ksmbd_diag_add(diag, KSMBD_DIAG_ERROR, file, lineno, "out of memory");
		return -ENOMEM;
	}
	strcpy(u->name, name);
	memcpy(u->nt_hash, hash, KSMBD_NT_HASH_SZ);
	explicit_bzero(hash, sizeof(hash));
	return 0;
}

struct ksmbd_userdb *ksmbd_userdb_parse(const char *text, size_t len,
					const char *name,
					struct ksmbd_diag *diag)
{
	struct ksmbd_userdb *db = ksmbd_userdb_new();
	unsigned int lineno = 0;
	size_t pos = 0;
	int failed = 0;

	if (!name)
		name = "<input>";
	if (!db) {
		ksmbd_diag_add(diag, KSMBD_DIAG_ERROR, name, 0, "out of memory");
		return NULL;
	}
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n && line[n - 1] == '\r')
			n--;
		if (!n)
			continue;
		if (memchr(line, '\0', n)) {
			ksmbd_diag_add(diag, KSMBD_DIAG_ERROR, name, lineno,
				       "NUL byte in line");
			failed = 1;
			continue;
		}
		if (parse_user_line(db, line, n, name, lineno, diag))
			failed = 1;
	}
	if (failed) {
		ksmbd_userdb_free(db);
		return NULL;
	}
	return db;
}

struct ksmbd_userdb *ksmbd_userdb_load(const char *path, struct ksmbd_diag *diag)
{
	struct ksmbd_userdb *db;
	char *text;
	size_t len;
	int err;

	err = ksmbd_read_file(path, KSMBD_CONFIG_MAX_BYTES, &text, &len);
	if (err == -ENOENT)
		return ksmbd_userdb_new();
	if (err) {
		ksmbd_diag_add(diag, KSMBD_DIAG_ERROR, path, 0, "cannot read: %s",
			       strerror(-err));
		return NULL;
	}
	db = ksmbd_userdb_parse(text, len, path, diag);
	explicit_bzero(text, len);
	free(text);
	return db;
}

int ksmbd_userdb_save(const struct ksmbd_userdb *db, const char *path)
{
	/* name, ':', hash, '\n' */
	size_t per_user = KSMBD_ACCOUNT_NAME_SZ + 1 + HASH_B64_LEN + 1;
	size_t i, used = 0;
	char *buf;
	int err;

	buf = malloc(db->count * per_user + 1);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < db->count; i++) {
		const struct ksmbd_user *u = &db->users[i];
		size_t n = strlen(u->name);

		memcpy(buf + used, u->name, n);
		used += n;
		buf[used++] = ':';
		ksmbd_base64_encode(u->nt_hash, KSMBD_NT_HASH_SZ, buf + used);
		used += HASH_B64_LEN;
		buf[used++] = '\n';
	}
	err = ksmbd_write_file_atomic(path, buf, used, 0600);
	explicit_bzero(buf, used);
	free(buf);
	return err;
}

int ksmbd_user_unix_ids(const char *name, uid_t *uid, gid_t *gid)
{
	struct passwd pw, *res = NULL;
	long size = sysconf(_SC_GETPW_R_SIZE_MAX);
	char *buf;
	int err;

	if (!name || !*name)
		return -ENOENT;
	if (size < 1024)
		size = 16384;
	buf = malloc((size_t)size);
	if (!buf)
		return -ENOMEM;
	err = getpwnam_r(name, &pw, buf, (size_t)size, &res);
	if (!err && !res)
		err = ENOENT;
	if (!err) {
		*uid = res->pw_uid;
		*gid = res->pw_gid;
	}
	free(buf);
	return -err;
}

int ksmbd_user_unix_groups(const char *name, gid_t gid, gid_t *out, int max,
			   int *n)
{
	int count = max;

	if (getgrouplist(name, gid, out, &count) < 0)
		return -E2BIG;
	*n = count;
	return 0;
}
