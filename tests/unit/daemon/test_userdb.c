// SPDX-License-Identifier: GPL-2.0
/* MD4, base64, UTF-16, NT hash and ksmbdpwd.db, with Debian's tool as a peer. */
#include <errno.h>
#include <sys/stat.h>

#include "base64.h"
#include "helpers.h"
#include "md4.h"
#include "testlib.h"
#include "userdb.h"
#include "utf16.h"

/* Unpacked by daemon/core.mk (installing it would remove samba), or installed. */
static const char *const debian_adduser_paths[] = {
	KSMBD_BUILD_DIR "/debian/ksmbd-tools/usr/sbin/ksmbd.adduser",
	"/usr/sbin/ksmbd.adduser",
};
static const char *debian_adduser_bin;

static struct ksmbd_diag *diag;

static void hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/* RFC 1320 appendix A.5. */
TEST(md4_rfc1320_vectors)
{
	static const struct { const char *in, *want; } v[] = {
		{ "", "31d6cfe0d16ae931b73c59d7e0c089c0" },
		{ "a", "bde52cb31de33e46245e05fbdbd6fb24" },
		{ "abc", "a448017aaf21d8525fc10ae87aa6729d" },
		{ "message digest", "d9130a8164549fe818874806e1c7014b" },
		{ "abcdefghijklmnopqrstuvwxyz", "d79e1c308aa5bbcdeea8ed63df412da9" },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		  "043f8582f241db351ce627e153e7f0e4" },
		{ "1234567890123456789012345678901234567890"
		  "1234567890123456789012345678901234567890",
		  "e33b4ddc9c38f2199c3e7b164fcc0536" },
	};
	uint8_t out[16];
	char got[33];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		ksmbd_md4(v[i].in, strlen(v[i].in), out);
		hex(out, 16, got);
		CHECK_EQ_STR(got, v[i].want);
	}
}

/* Feeding in odd pieces must equal one call, across block boundaries. */
TEST(md4_incremental)
{
	uint8_t data[300], one[16], pieces[16];
	struct ksmbd_md4 ctx;
	size_t i, len, step;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 3);
	for (len = 0; len <= sizeof(data); len += 23) {
		ksmbd_md4(data, len, one);
		for (step = 1; step < 70; step += 17) {
			ksmbd_md4_init(&ctx);
			for (i = 0; i < len; i += step)
				ksmbd_md4_update(&ctx, data + i, len - i < step ? len - i : step);
			ksmbd_md4_final(&ctx, pieces);
			CHECK_EQ_MEM(one, pieces, 16);
		}
	}
	/* 55, 56 and 64 bytes hit the three padding cases. */
	ksmbd_md4("1234567890123456789012345678901234567890123456789012345", 55, one);
	ksmbd_md4("12345678901234567890123456789012345678901234567890123456", 56, pieces);
	CHECK(memcmp(one, pieces, 16) != 0);
}

/* RFC 4648 section 10. */
TEST(base64_rfc4648_vectors)
{
	static const char *const plain[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *const enc[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=",
					   "Zm9vYmFy" };
	char out[16];
	uint8_t back[16];
	size_t i;

	for (i = 0; i < 7; i++) {
		ksmbd_base64_encode((const uint8_t *)plain[i], strlen(plain[i]), out);
		CHECK_EQ_STR(out, enc[i]);
		CHECK_EQ_INT(ksmbd_base64_decode(enc[i], strlen(enc[i]), back, sizeof(back)),
			     strlen(plain[i]));
		CHECK_EQ_MEM(back, plain[i], strlen(plain[i]));
	}
}

TEST(base64_rejects)
{
	uint8_t out[32];

	CHECK_EQ_INT(ksmbd_base64_decode("Zm9", 3, out, sizeof(out)), -1);	/* length */
	CHECK_EQ_INT(ksmbd_base64_decode("Zm9*", 4, out, sizeof(out)), -1);	/* alphabet */
	CHECK_EQ_INT(ksmbd_base64_decode("Zh==", 4, out, sizeof(out)), -1);	/* stray bits */
	CHECK_EQ_INT(ksmbd_base64_decode("Zm9=", 4, out, sizeof(out)), -1);
	CHECK_EQ_INT(ksmbd_base64_decode("Z===", 4, out, sizeof(out)), -1);	/* 3 pads */
	CHECK_EQ_INT(ksmbd_base64_decode("Zg==Zg==", 8, out, sizeof(out)), -1); /* mid pad */
	CHECK_EQ_INT(ksmbd_base64_decode("Z=g=", 4, out, sizeof(out)), -1);
	CHECK_EQ_INT(ksmbd_base64_decode("Zm9v Yg==", 9, out, sizeof(out)), -1);
	CHECK_EQ_INT(ksmbd_base64_decode("Zm9vYmFy", 8, out, 5), -1);		/* too small */
	CHECK_EQ_INT(ksmbd_base64_decode("Zm9vYmFy", 8, out, 6), 6);
}

TEST(utf8_to_utf16le)
{
	/* "aé€𝄞": 1, 2, 3 and 4 byte sequences, the last one a surrogate pair */
	static const char in[] = "a\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e";
	static const uint8_t want[] = { 'a', 0, 0xe9, 0, 0xac, 0x20, 0x34, 0xd8, 0x1e, 0xdd };
	static const char *const bad[] = {
		"\xc0\x80",		/* overlong NUL */
		"\xe0\x80\xaf",		/* overlong '/' */
		"\xed\xa0\x80",		/* a surrogate */
		"\xf4\x90\x80\x80",	/* above U+10FFFF */
		"\xc3",			/* truncated */
		"\x80",			/* lone continuation */
		"\xff",
	};
	uint8_t *out;
	size_t n, i;

	CHECK_EQ_INT(ksmbd_utf8_to_utf16le(in, strlen(in), &out, &n), 0);
	CHECK_EQ_INT(n, sizeof(want));
	CHECK_EQ_MEM(out, want, sizeof(want));
	free(out);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_INT(ksmbd_utf8_to_utf16le(bad[i], strlen(bad[i]), &out, &n), -EILSEQ);
}

/*
 * MS-NLMP 4.2.2.1.2 gives NTOWFv1("Password") as
 * a4 f4 9c 40 65 10 bd ca b6 82 4e e7 c3 0f d8 52 (not a8 7f 3a 33 ...).
 */
TEST(nt_hash_known_values)
{
	static const uint8_t password[16] = {
		0xa4, 0xf4, 0x9c, 0x40, 0x65, 0x10, 0xbd, 0xca,
		0xb6, 0x82, 0x4e, 0xe7, 0xc3, 0x0f, 0xd8, 0x52,
	};
	uint8_t out[16];
	char got[33];

	CHECK_EQ_INT(ksmbd_nt_hash("Password", out), 0);
	CHECK_EQ_MEM(out, password, 16);
	/* The empty password is MD4 of nothing. */
	CHECK_EQ_INT(ksmbd_nt_hash("", out), 0);
	hex(out, 16, got);
	CHECK_EQ_STR(got, "31d6cfe0d16ae931b73c59d7e0c089c0");
	/* Non-ASCII goes through UTF-16, not through the raw bytes. */
	CHECK_EQ_INT(ksmbd_nt_hash("p\xc3\xa4ss", out), 0);
	{
		static const uint8_t u16[] = { 'p', 0, 0xe4, 0, 's', 0, 's', 0 };
		uint8_t want[16];

		ksmbd_md4(u16, sizeof(u16), want);
		CHECK_EQ_MEM(out, want, 16);
	}
	CHECK_EQ_INT(ksmbd_nt_hash("bad\xff", out), -EILSEQ);
}

static struct ksmbd_userdb *parse_db(const char *text)
{
	ksmbd_diag_clear(diag);
	return ksmbd_userdb_parse(text, strlen(text), "pwd.db", diag);
}

#define CHECK_DB_FAILS(text, msg) do {					\
	struct ksmbd_userdb *db_ = parse_db(text);			\
	CHECK(db_ == NULL);						\
	ksmbd_userdb_free(db_);						\
	if (!ksmbd_diag_find(diag, (msg)))				\
		test_fail_("no diagnostic \"%s\"; got \"%s\"", (msg),	\
			   ksmbd_diag_line(diag, 0) ?			\
			   ksmbd_diag_line(diag, 0) : "(none)");	\
} while (0)

TEST(userdb_parse_good)
{
	struct ksmbd_userdb *db = parse_db("alice:pPScQGUQvcq2gk7nww/YUg==\n\r\n"
					   "Bob:MdbP4NFq6TG3PFnX4MCJwA==\r\n");
	const struct ksmbd_user *u;
	uint8_t want[16];

	CHECK(db != NULL);
	if (!db)
		return;
	CHECK_EQ_INT(ksmbd_userdb_count(db), 2);
	u = ksmbd_userdb_find(db, "ALICE");
	CHECK(u != NULL);
	ksmbd_nt_hash("Password", want);
	if (u) {
		CHECK_EQ_STR(u->name, "alice");
		CHECK_EQ_MEM(u->nt_hash, want, 16);
	}
	u = ksmbd_userdb_find(db, "bob");
	CHECK(u != NULL);
	ksmbd_nt_hash("", want);
	if (u)
		CHECK_EQ_MEM(u->nt_hash, want, 16);
	CHECK(ksmbd_userdb_find(db, "carol") == NULL);
	CHECK(ksmbd_userdb_find(db, NULL) == NULL);
	CHECK(ksmbd_userdb_at(db, 0) != NULL && ksmbd_userdb_at(db, 2) == NULL);
	ksmbd_userdb_free(db);
}

TEST(userdb_malformed_lines)
{
	CHECK_DB_FAILS("alice:pPScQGUQvcq2gk7nww/YUg==\nbob\n",
		       "pwd.db:2: error: expected 'name:hash'");
	CHECK_DB_FAILS(":pPScQGUQvcq2gk7nww/YUg==\n", "pwd.db:1: error: empty user name");
	CHECK_DB_FAILS("\n\n0123456789012345678901234567890123456789012345678:"
		       "pPScQGUQvcq2gk7nww/YUg==\n",
		       "pwd.db:3: error: user name is longer than 47 bytes");
	CHECK_DB_FAILS("alice:pPScQGUQvcq2gk7nww/YUg=\n",
		       "pwd.db:1: error: password hash of 'alice' is not valid base64");
	CHECK_DB_FAILS("alice:pPScQGUQvcq2gk7nww/YU*==\n",
		       "pwd.db:1: error: password hash of 'alice' is not valid base64");
	CHECK_DB_FAILS("alice:\n", "pwd.db:1: error: password hash of 'alice' is 0 bytes, expected 16");
	CHECK_DB_FAILS("alice:pPScQGUQvcq2gk7nww/Y\n",
		       "pwd.db:1: error: password hash of 'alice' is 15 bytes, expected 16");
	CHECK_DB_FAILS("alice:pPScQGUQvcq2gk7nww/YUgAA\n",
		       "pwd.db:1: error: password hash of 'alice' is 18 bytes, expected 16");
	CHECK_DB_FAILS("alice:pPScQGUQvcq2gk7nww/YUg==\nALICE:pPScQGUQvcq2gk7nww/YUg==\n",
		       "pwd.db:2: error: user 'ALICE' appears twice");
	CHECK_DB_FAILS("al\tice:pPScQGUQvcq2gk7nww/YUg==\n",
		       "pwd.db:1: error: user name contains a control character");
	/* a 47-byte name is the longest allowed */
	{
		struct ksmbd_userdb *db = parse_db(
			"01234567890123456789012345678901234567890123456:"
			"pPScQGUQvcq2gk7nww/YUg==");
		CHECK(db != NULL);
		ksmbd_userdb_free(db);
	}
}

TEST(userdb_nul_byte)
{
	static const char text[] = "alice:pPScQGUQvcq2gk7nww/YUg==\nb\0b:pPScQGUQvcq2gk7nww/YUg==\n";
	struct ksmbd_userdb *db;

	ksmbd_diag_clear(diag);
	db = ksmbd_userdb_parse(text, sizeof(text) - 1, "pwd.db", diag);
	CHECK(db == NULL);
	CHECK(ksmbd_diag_find(diag, "pwd.db:2: error: NUL byte in line") != NULL);
	ksmbd_userdb_free(db);
}

TEST(userdb_set_delete)
{
	struct ksmbd_userdb *db = ksmbd_userdb_new();
	uint8_t want[16];
	char name48[49];

	CHECK_EQ_INT(ksmbd_userdb_set(db, "alice", "one"), 0);
	CHECK_EQ_INT(ksmbd_userdb_set(db, "bob", "two"), 0);
	CHECK_EQ_INT(ksmbd_userdb_set(db, "ALICE", "three"), 0);	/* update */
	CHECK_EQ_INT(ksmbd_userdb_count(db), 2);
	CHECK_EQ_STR(ksmbd_userdb_find(db, "alice")->name, "alice");
	ksmbd_nt_hash("three", want);
	CHECK_EQ_MEM(ksmbd_userdb_find(db, "alice")->nt_hash, want, 16);
	CHECK_EQ_INT(ksmbd_userdb_set(db, "", "x"), -EINVAL);
	CHECK_EQ_INT(ksmbd_userdb_set(db, "a:b", "x"), -EINVAL);
	CHECK_EQ_INT(ksmbd_userdb_set(db, "a\nb", "x"), -EINVAL);
	memset(name48, 'n', 48);
	name48[48] = '\0';
	CHECK_EQ_INT(ksmbd_userdb_set(db, name48, "x"), -EINVAL);
	name48[47] = '\0';
	CHECK_EQ_INT(ksmbd_userdb_set(db, name48, "x"), 0);
	CHECK_EQ_INT(ksmbd_userdb_set(db, "carol", "\xc3"), -EILSEQ);
	CHECK(ksmbd_userdb_find(db, "carol") == NULL);
	CHECK_EQ_INT(ksmbd_userdb_delete(db, "BOB"), 0);
	CHECK_EQ_INT(ksmbd_userdb_delete(db, "bob"), -ENOENT);
	CHECK_EQ_INT(ksmbd_userdb_count(db), 2);
	CHECK(ksmbd_userdb_find(db, name48) != NULL);
	/* many users force the array to grow */
	for (int i = 0; i < 100; i++) {
		char n[16];

		snprintf(n, sizeof(n), "user%d", i);
		CHECK_EQ_INT(ksmbd_userdb_set(db, n, n), 0);
	}
	CHECK_EQ_INT(ksmbd_userdb_count(db), 102);
	ksmbd_nt_hash("three", want);
	CHECK_EQ_MEM(ksmbd_userdb_find(db, "alice")->nt_hash, want, 16);
	ksmbd_userdb_free(db);
}

TEST(userdb_save_load_round_trip)
{
	const char *dir = th_tmpdir();
	const char *path = th_path(dir, "pwd.db");
	struct ksmbd_userdb *db = ksmbd_userdb_new(), *back;
	struct stat st;
	char *text;
	uint8_t want[16];

	ksmbd_userdb_set(db, "alice", "Password");
	ksmbd_userdb_set(db, "Bob", "");
	CHECK_EQ_INT(ksmbd_userdb_save(db, path), 0);
	text = th_read(path);
	CHECK_EQ_STR(text, "alice:pPScQGUQvcq2gk7nww/YUg==\nBob:MdbP4NFq6TG3PFnX4MCJwA==\n");
	free(text);
	CHECK_EQ_INT(stat(path, &st), 0);
	CHECK_EQ_INT(st.st_mode & 0777, 0600);

	ksmbd_diag_clear(diag);
	back = ksmbd_userdb_load(path, diag);
	CHECK(back != NULL);
	if (back) {
		CHECK_EQ_INT(ksmbd_userdb_count(back), 2);
		ksmbd_nt_hash("Password", want);
		CHECK_EQ_MEM(ksmbd_userdb_find(back, "alice")->nt_hash, want, 16);
		ksmbd_userdb_free(back);
	}
	/* an empty db saves as an empty file; a missing file loads as empty */
	ksmbd_userdb_delete(db, "alice");
	ksmbd_userdb_delete(db, "bob");
	CHECK_EQ_INT(ksmbd_userdb_save(db, path), 0);
	text = th_read(path);
	CHECK_EQ_STR(text, "");
	free(text);
	back = ksmbd_userdb_load(th_path(dir, "missing.db"), diag);
	CHECK(back != NULL && ksmbd_userdb_count(back) == 0);
	ksmbd_userdb_free(back);
	/* a bad file fails with its path and line */
	th_write(path, "ok:pPScQGUQvcq2gk7nww/YUg==\nbroken\n");
	ksmbd_diag_clear(diag);
	back = ksmbd_userdb_load(path, diag);
	CHECK(back == NULL);
	{
		char want_msg[600];

		snprintf(want_msg, sizeof(want_msg), "%s:2: error: expected 'name:hash'", path);
		CHECK(ksmbd_diag_find(diag, want_msg) != NULL);
	}
	/* saving into a folder that does not exist fails cleanly */
	CHECK_EQ_INT(ksmbd_userdb_save(db, th_path(dir, "no/such/dir/pwd.db")), -ENOENT);
	ksmbd_userdb_free(db);
	th_rmtree(dir);
}

TEST(unix_ids)
{
	uid_t uid = 1;
	gid_t gid = 1;

	CHECK_EQ_INT(ksmbd_user_unix_ids("root", &uid, &gid), 0);
	CHECK_EQ_INT(uid, 0);
	CHECK_EQ_INT(gid, 0);
	CHECK_EQ_INT(ksmbd_user_unix_ids("no-such-user-ksmbd-test", &uid, &gid), -ENOENT);
	CHECK_EQ_INT(ksmbd_user_unix_ids("", &uid, &gid), -ENOENT);
}

static int debian_adduser(const char *dir, const char *op, const char *user,
			  const char *pw, char *err, size_t errcap)
{
	char *argv[12];
	int n = 0;

	argv[n++] = (char *)debian_adduser_bin;
	argv[n++] = (char *)op;
	argv[n++] = (char *)user;
	if (pw) {
		argv[n++] = (char *)"-p";
		argv[n++] = (char *)pw;
	}
	argv[n++] = (char *)"-i";
	argv[n++] = th_path(dir, "pwd.db");
	argv[n++] = (char *)"-c";
	argv[n++] = th_path(dir, "smb.conf");
	argv[n] = NULL;
	return th_run(argv, NULL, err, errcap);
}

/*
 * Debian's ksmbd-tools 3.4.7 is the format's reference: a db written by
 * it must read back with the same hashes as ours, and it must be able to
 * update and delete entries in a db we wrote.
 */
TEST(debian_ksmbd_tools_round_trip)
{
	const char *dir;
	struct ksmbd_userdb *db;
	const struct ksmbd_user *u;
	uint8_t want[16];
	char err[1024];

	for (size_t i = 0; i < 2 && !debian_adduser_bin; i++)
		if (!access(debian_adduser_paths[i], X_OK))
			debian_adduser_bin = debian_adduser_paths[i];
	if (!debian_adduser_bin)
		SKIP("Debian's ksmbd.adduser 3.4.7 is neither unpacked under build/debian "
		     "(apt-get download failed?) nor installed");
	dir = th_tmpdir();
	th_write(th_path(dir, "smb.conf"), "[global]\n\tnetbios name = T\n");

	/* theirs -> ours */
	CHECK_EQ_INT(debian_adduser(dir, "-a", "alice", "Password", err, sizeof(err)), 0);
	CHECK_EQ_INT(debian_adduser(dir, "-a", "Bob", "p\xc3\xa4ss w\xc3\xb6rd", err,
				    sizeof(err)), 0);
	ksmbd_diag_clear(diag);
	db = ksmbd_userdb_load(th_path(dir, "pwd.db"), diag);
	CHECK(db != NULL);
	if (!db)
		goto out;
	CHECK_EQ_INT(ksmbd_userdb_count(db), 2);
	u = ksmbd_userdb_find(db, "alice");
	ksmbd_nt_hash("Password", want);
	CHECK(u && !memcmp(u->nt_hash, want, 16));
	u = ksmbd_userdb_find(db, "bob");
	ksmbd_nt_hash("p\xc3\xa4ss w\xc3\xb6rd", want);
	CHECK(u && !memcmp(u->nt_hash, want, 16));

	/* ours -> theirs: they update carol and delete alice in our file */
	CHECK_EQ_INT(ksmbd_userdb_set(db, "carol", "first"), 0);
	CHECK_EQ_INT(ksmbd_userdb_save(db, th_path(dir, "pwd.db")), 0);
	ksmbd_userdb_free(db);
	CHECK_EQ_INT(debian_adduser(dir, "-u", "carol", "second", err, sizeof(err)), 0);
	CHECK_EQ_INT(debian_adduser(dir, "-d", "alice", NULL, err, sizeof(err)), 0);
	/* and they refuse to add a user our file already has */
	CHECK(debian_adduser(dir, "-a", "carol", "x", err, sizeof(err)) != 0);
	db = ksmbd_userdb_load(th_path(dir, "pwd.db"), diag);
	CHECK(db != NULL);
	if (!db)
		goto out;
	CHECK_EQ_INT(ksmbd_userdb_count(db), 2);
	CHECK(ksmbd_userdb_find(db, "alice") == NULL);
	u = ksmbd_userdb_find(db, "carol");
	ksmbd_nt_hash("second", want);
	CHECK(u && !memcmp(u->nt_hash, want, 16));
	u = ksmbd_userdb_find(db, "Bob");
	ksmbd_nt_hash("p\xc3\xa4ss w\xc3\xb6rd", want);
	CHECK(u && !memcmp(u->nt_hash, want, 16));
	ksmbd_userdb_free(db);
out:
	th_rmtree(dir);
}

int main(void)
{
	diag = ksmbd_diag_new();
	RUN(md4_rfc1320_vectors);
	RUN(md4_incremental);
	RUN(base64_rfc4648_vectors);
	RUN(base64_rejects);
	RUN(utf8_to_utf16le);
	RUN(nt_hash_known_values);
	RUN(userdb_parse_good);
	RUN(userdb_malformed_lines);
	RUN(userdb_nul_byte);
	RUN(userdb_set_delete);
	RUN(userdb_save_load_round_trip);
	RUN(unix_ids);
	RUN(debian_ksmbd_tools_round_trip);
	ksmbd_diag_free(diag);
	return test_report();
}
