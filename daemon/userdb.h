/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksmbdpwd.db: the user database of ksmbd-tools.
 *
 * One user per line, "name:base64(NT hash)", where the NT hash is MD4 over
 * the UTF-16LE password (MS-NLMP 3.3.1, NTOWFv1). Loading fails on any
 * malformed line (bad base64, hash not 16 bytes, empty or over-long name,
 * a name given twice) so that a half-read database never replaces the
 * real one; the reasons are in the diag as "file:line: error: text".
 */
#ifndef KSMBD_USERDB_H
#define KSMBD_USERDB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"	/* KSMBD_ACCOUNT_NAME_SZ */
#include "diag.h"

#define KSMBD_USERDB_PATH	"/etc/ksmbd/ksmbdpwd.db"
#define KSMBD_NT_HASH_SZ	16

struct ksmbd_user {
	char name[KSMBD_ACCOUNT_NAME_SZ];	/* as stored, case preserved */
	uint8_t nt_hash[KSMBD_NT_HASH_SZ];
};

struct ksmbd_userdb;

/* An empty database; NULL on allocation failure. */
struct ksmbd_userdb *ksmbd_userdb_new(void);
/* A missing file gives an empty database; NULL on any error. */
struct ksmbd_userdb *ksmbd_userdb_load(const char *path, struct ksmbd_diag *diag);
/* Same, from memory; @name is used in messages only. */
struct ksmbd_userdb *ksmbd_userdb_parse(const char *text, size_t len,
					const char *name,
					struct ksmbd_diag *diag);
void ksmbd_userdb_free(struct ksmbd_userdb *db);

/* Case-insensitive (ASCII), as Windows compares account names. */
const struct ksmbd_user *ksmbd_userdb_find(const struct ksmbd_userdb *db,
					   const char *name);
size_t ksmbd_userdb_count(const struct ksmbd_userdb *db);
const struct ksmbd_user *ksmbd_userdb_at(const struct ksmbd_userdb *db, size_t i);

/*
 * Add or update. 0, or -EINVAL (bad name: empty, >= 48 bytes, ':' or a
 * control character), -EILSEQ (password is not UTF-8), -ENOMEM.
 * An existing entry keeps its spelling of the name.
 */
int ksmbd_userdb_set(struct ksmbd_userdb *db, const char *name,
		     const char *password);
/* 0 or -ENOENT. */
int ksmbd_userdb_delete(struct ksmbd_userdb *db, const char *name);
/* Atomic: temp file in the same folder, fsync, rename; mode 0600. 0 or -errno. */
int ksmbd_userdb_save(const struct ksmbd_userdb *db, const char *path);

/* 0, or -EILSEQ when @password_utf8 is not valid UTF-8, -ENOMEM. */
int ksmbd_nt_hash(const char *password_utf8, uint8_t out[KSMBD_NT_HASH_SZ]);
/* Validity of an account name as defined for ksmbd_userdb_set(). */
bool ksmbd_user_name_valid(const char *name);

/*
 * Unix account behind an SMB user (getpwnam_r). 0, or -ENOENT when there is
 * no such Unix user, or another -errno.
 */
int ksmbd_user_unix_ids(const char *name, uid_t *uid, gid_t *gid);
/*
 * The Unix user's groups (getgrouplist, @gid included) into @out[@max];
 * *@n is how many. 0, or -E2BIG when the user is in more than @max.
 */
int ksmbd_user_unix_groups(const char *name, gid_t gid, gid_t *out, int max,
			   int *n);

#endif
