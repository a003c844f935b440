// SPDX-License-Identifier: GPL-2.0
/* ksmbd.adduser and ksmbd.addshare end to end, and the text editor below them. */
#include <errno.h>
#include <sys/stat.h>

#include "confedit.h"
#include "config.h"
#include "helpers.h"
#include "testlib.h"
#include "userdb.h"

#define ADDUSER		KSMBD_BUILD_DIR "/daemon/ksmbd.adduser"
#define ADDSHARE	KSMBD_BUILD_DIR "/daemon/ksmbd.addshare"

static const char *dir;
static char err[4096];

#define RUN_TOOL(input, ...) ({						\
	char *argv_[] = { __VA_ARGS__, NULL };				\
	th_run(argv_, (input), err, sizeof(err));			\
})

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static bool db_hash_is(const char *db_path, const char *user, const char *pw)
{
	struct ksmbd_userdb *db = ksmbd_userdb_load(db_path, NULL);
	const struct ksmbd_user *u = db ? ksmbd_userdb_find(db, user) : NULL;
	uint8_t want[16];
	bool ok;

	ksmbd_nt_hash(pw, want);
	ok = u && !memcmp(u->nt_hash, want, 16);
	ksmbd_userdb_free(db);
	return ok;
}

TEST(adduser_add_update_delete)
{
	char *db = th_path(dir, "users.db"), *conf = th_path(dir, "none.conf");
	struct stat st;
	char *text;

	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-a", "alice", "-p", "Password", "-i", db,
			      "-c", conf), 0);
	text = th_read(db);
	CHECK_EQ_STR(text, "alice:pPScQGUQvcq2gk7nww/YUg==\n");
	free(text);
	CHECK_EQ_INT(stat(db, &st), 0);
	CHECK_EQ_INT(st.st_mode & 0777, 0600);

	/* adding twice: one error line, exit 1, file unchanged */
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-a", "ALICE", "-p", "x", "-i", db), 1);
	CHECK(strstr(err, "ksmbd.adduser: user 'ALICE' already exists") != NULL);
	CHECK_EQ_INT(count_lines(err), 1);
	CHECK(db_hash_is(db, "alice", "Password"));

	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "--update-user=alice", "--password=new", "-i", db), 0);
	CHECK(db_hash_is(db, "alice", "new"));
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-u", "bob", "-p", "x", "-i", db), 1);
	CHECK(strstr(err, "user 'bob' does not exist") != NULL);

	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-a", "bob", "-p", "b", "-i", db), 0);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-d", "alice", "-i", db), 0);
	text = th_read(db);
	CHECK(text && !strstr(text, "alice") && strstr(text, "bob:"));
	free(text);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-d", "alice", "-i", db), 1);
	CHECK(strstr(err, "user 'alice' does not exist") != NULL);
}

TEST(adduser_password_from_stdin)
{
	char *db = th_path(dir, "stdin.db");

	/* not a terminal: one line is read, its newline dropped */
	CHECK_EQ_INT(RUN_TOOL("s3cret\n", ADDUSER, "-a", "carol", "-i", db), 0);
	CHECK(db_hash_is(db, "carol", "s3cret"));
	CHECK_EQ_INT(RUN_TOOL("", ADDUSER, "-a", "dave", "-i", db), 1);
	CHECK(strstr(err, "no password given") != NULL);
}

TEST(adduser_bad_input)
{
	char *db = th_path(dir, "bad.db");
	char long_pw[200];

	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-a", "a:b", "-p", "x", "-i", db), 1);
	CHECK(strstr(err, "bad user name 'a:b'") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-a", "x", "-d", "y", "-i", db), 1);
	CHECK(strstr(err, "give only one of -a, -u and -d") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-i", db), 1);
	CHECK(strstr(err, "one of -a, -u or -d is needed") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-a", "e", "-p", "\xff", "-i", db), 1);
	CHECK(strstr(err, "password is not valid UTF-8") != NULL);
	memset(long_pw, 'p', 129);
	long_pw[129] = '\0';
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-a", "e", "-p", long_pw, "-i", db), 1);
	CHECK(strstr(err, "password longer than 128 bytes") != NULL);
	CHECK(access(db, F_OK) != 0);	/* nothing was ever written */

	th_write(db, "broken line\n");
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-a", "e", "-p", "x", "-i", db), 1);
	CHECK(strstr(err, ":1: error: expected 'name:hash'") != NULL);
	CHECK(strstr(err, "cannot read the user database") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-a", "e", "-p", "x", "-i",
			      th_path(dir, "no/such/dir.db")), 1);
	CHECK(strstr(err, "cannot write") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "--help"), 0);
}

TEST(adduser_warns_about_references)
{
	char *db = th_path(dir, "ref.db"), *conf = th_path(dir, "ref.conf");

	th_write(conf, "[s]\npath = /s\nvalid users = frank\n");
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-a", "frank", "-p", "x", "-i", db), 0);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDUSER, "-d", "frank", "-i", db, "-c", conf), 0);
	CHECK(strstr(err, "warning: 'frank' is still named in share [s]") != NULL);
}

static const char base_conf[] =
	"# ksmbd.conf for the tests\n"
	"[global]\n"
	"\tworkgroup = TEST  ; not a comment here\n"
	"\n"
	"; the first share\n"
	"[first]\n"
	"    path = /srv/first\n"
	"    read only = yes\n"
	"    comment = long \\\n"
	"      comment\n"
	"\n"
	"# the last share\n"
	"[last]\n"
	"\tpath = /srv/last\n";

static struct ksmbd_config *load_conf(const char *path)
{
	return ksmbd_config_load(path, NULL);
}

TEST(addshare_add_keeps_the_rest)
{
	char *conf = th_path(dir, "a.conf");
	struct ksmbd_config *c;
	const struct ksmbd_share *s;
	char *text;

	th_write(conf, base_conf);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-a", "data", "-o", "path = /srv/data",
			      "-o", "read only = no\nvalid users = alice, bob", "-c", conf), 0);
	text = th_read(conf);
	{
		char want[1024];

		snprintf(want, sizeof(want), "%s\n[data]\n\tpath = /srv/data\n"
			 "\tread only = no\n\tvalid users = alice, bob\n", base_conf);
		CHECK_EQ_STR(text, want);
	}
	free(text);
	c = load_conf(conf);
	CHECK(c != NULL);
	if (!c)
		return;
	s = ksmbd_config_find_share(c, "DATA");
	CHECK(s && !s->read_only && s->valid_users.count == 2);
	CHECK_EQ_STR(ksmbd_config_find_share(c, "first")->comment, "long comment");
	ksmbd_config_free(c);

	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-a", "Data", "-o", "path = /x", "-c", conf), 1);
	CHECK(strstr(err, "ksmbd.addshare: share 'Data' already exists") != NULL);
	CHECK_EQ_INT(count_lines(err), 1);
}

TEST(addshare_update_replaces_in_place)
{
	char *conf = th_path(dir, "u.conf");
	char *text;
	struct ksmbd_config *c;

	th_write(conf, base_conf);
	/* "writeable" replaces "read only" where it stood; new keys go after the last */
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "FIRST", "-o", "writeable = yes",
			      "-o", "guest ok = yes", "-c", conf), 0);
	text = th_read(conf);
	CHECK(text && strstr(text, "    path = /srv/first\n    writeable = yes\n"
			     "    comment = long \\\n      comment\n    guest ok = yes\n\n"
			     "# the last share\n"));
	CHECK(text && !strstr(text, "read only = yes"));
	free(text);
	/* a continued line is replaced whole */
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "first", "-o", "comment = short", "-c", conf), 0);
	text = th_read(conf);
	CHECK(text && strstr(text, "    comment = short\n") && !strstr(text, "long"));
	free(text);
	c = load_conf(conf);
	CHECK(c && !ksmbd_config_find_share(c, "first")->read_only &&
	      ksmbd_config_find_share(c, "first")->guest_ok);
	ksmbd_config_free(c);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "nope", "-o", "path = /x", "-c", conf), 1);
	CHECK(strstr(err, "share 'nope' does not exist") != NULL);
}

TEST(addshare_refuses_bad_results)
{
	char *conf = th_path(dir, "r.conf");
	char *before, *after;

	th_write(conf, base_conf);
	before = th_read(conf);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-a", "nopath", "-o", "comment = x", "-c", conf), 1);
	CHECK(strstr(err, "share [nopath] has no path") != NULL);
	CHECK(strstr(err, "would not be valid") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "first", "-o", "create mask = 0999",
			      "-c", conf), 1);
	CHECK(strstr(err, "'0999' is not an octal mode") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "first", "-o", "tcp port = 1", "-c", conf), 1);
	CHECK(strstr(err, "'tcp port' is not a share parameter") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "first", "-o", "bogus = 1", "-c", conf), 1);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "first", "-o", "no equals", "-c", conf), 1);
	CHECK(strstr(err, "option 'no equals' is not 'key = value'") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "first", "-o", "comment = a\\", "-c", conf), 1);
	/* ksmbd.conf would cut the value at a comment character: refused. */
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "first", "-o", "comment = team #1",
			      "-c", conf), 1);
	CHECK(strstr(err, "the value of 'comment' contains '#', which starts a comment") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-a", "global", "-o", "path = /x", "-c", conf), 1);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-a", "IPC$", "-o", "path = /x", "-c", conf), 1);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-a", "a]b", "-o", "path = /x", "-c", conf), 1);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-a", "x", "-c", conf), 1);
	CHECK(strstr(err, "need parameters given with -o") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-d", "first", "-o", "path = /x", "-c", conf), 1);
	after = th_read(conf);
	CHECK_EQ_STR(after, before);
	free(before);
	free(after);
	/* a file that is already invalid is not made worse, nor touched */
	th_write(conf, "[global]\ntcp port = 0\n");
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-a", "ok", "-o", "path = /ok", "-c", conf), 1);
	CHECK(strstr(err, ":2: error: tcp port 0 is out of range") != NULL);
}

TEST(addshare_delete)
{
	char *conf = th_path(dir, "d.conf");
	char *text;

	th_write(conf, base_conf);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-d", "First", "-c", conf), 0);
	text = th_read(conf);
	CHECK_EQ_STR(text, "# ksmbd.conf for the tests\n"
		     "[global]\n"
		     "\tworkgroup = TEST  ; not a comment here\n"
		     "\n"
		     "# the last share\n"
		     "[last]\n"
		     "\tpath = /srv/last\n");
	free(text);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-d", "last", "-c", conf), 0);
	text = th_read(conf);
	CHECK_EQ_STR(text, "# ksmbd.conf for the tests\n"
		     "[global]\n"
		     "\tworkgroup = TEST  ; not a comment here\n");
	free(text);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-d", "last", "-c", conf), 1);
	CHECK(strstr(err, "share 'last' does not exist") != NULL);
}

TEST(addshare_new_file_and_mode)
{
	char *conf = th_path(dir, "new.conf");
	struct stat st;
	char *text;

	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-a", "pub", "-o", "path = /pub", "-c", conf), 0);
	text = th_read(conf);
	CHECK_EQ_STR(text, "[pub]\n\tpath = /pub\n");
	free(text);
	CHECK_EQ_INT(stat(conf, &st), 0);
	CHECK_EQ_INT(st.st_mode & 0777, 0644);
	chmod(conf, 0640);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "pub", "-o", "guest ok = yes", "-c", conf), 0);
	CHECK_EQ_INT(stat(conf, &st), 0);
	CHECK_EQ_INT(st.st_mode & 0777, 0640);	/* the file's mode is kept */
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "-u", "pub", "-o", "path = /p",
			      "-c", th_path(dir, "missing.conf")), 1);
	CHECK(strstr(err, "cannot read") != NULL);
	CHECK_EQ_INT(RUN_TOOL(NULL, ADDSHARE, "--help"), 0);
}

/* The editor itself, on cases the tools do not reach. */
TEST(confedit_direct)
{
	static const char text[] = "[s]\npath = /a\nread only = yes\nwritable = no\n[t]\npath=/t";
	struct ksmbd_confedit *ce = ksmbd_confedit_new(text, strlen(text));
	char *out;

	CHECK(ce != NULL);
	if (!ce)
		return;
	CHECK(ksmbd_confedit_has_section(ce, "S"));
	CHECK(!ksmbd_confedit_has_section(ce, "u"));
	/* both synonyms of one field: the first is replaced, the second removed */
	CHECK_EQ_INT(ksmbd_confedit_set(ce, "s", "writeable", "yes"), 0);
	CHECK_EQ_INT(ksmbd_confedit_set(ce, "t", "comment", "c"), 0);
	CHECK_EQ_INT(ksmbd_confedit_set(ce, "u", "comment", "c"), -ENOENT);
	CHECK_EQ_INT(ksmbd_confedit_set(ce, "t", "workgroup", "c"), -EINVAL);
	CHECK_EQ_INT(ksmbd_confedit_set(ce, "t", "comment", "a\nb"), -EINVAL);
	CHECK_EQ_INT(ksmbd_confedit_add_section(ce, "T"), -EEXIST);
	CHECK_EQ_INT(ksmbd_confedit_add_section(ce, "global"), -EINVAL);
	CHECK_EQ_INT(ksmbd_confedit_add_section(ce, ""), -EINVAL);
	CHECK_EQ_INT(ksmbd_confedit_add_section(ce, " v"), -EINVAL);
	CHECK_EQ_INT(ksmbd_confedit_add_section(ce, "v\t"), -EINVAL);
	CHECK_EQ_INT(ksmbd_confedit_delete_section(ce, "nope"), -ENOENT);
	out = ksmbd_confedit_text(ce, NULL);
	/* the last line gained its newline; "path=/t" kept its spelling */
	CHECK_EQ_STR(out, "[s]\npath = /a\nwriteable = yes\n[t]\npath=/t\ncomment = c\n");
	free(out);
	ksmbd_confedit_free(ce);

	ce = ksmbd_confedit_new("", 0);
	CHECK_EQ_INT(ksmbd_confedit_add_section(ce, "x"), 0);
	CHECK_EQ_INT(ksmbd_confedit_set(ce, "x", "path", "/x"), 0);
	out = ksmbd_confedit_text(ce, NULL);
	CHECK_EQ_STR(out, "[x]\n\tpath = /x\n");
	free(out);
	ksmbd_confedit_free(ce);
}

int main(void)
{
	dir = th_tmpdir();
	RUN(adduser_add_update_delete);
	RUN(adduser_password_from_stdin);
	RUN(adduser_bad_input);
	RUN(adduser_warns_about_references);
	RUN(addshare_add_keeps_the_rest);
	RUN(addshare_update_replaces_in_place);
	RUN(addshare_refuses_bad_results);
	RUN(addshare_delete);
	RUN(addshare_new_file_and_mode);
	RUN(confedit_direct);
	th_rmtree(dir);
	return test_report();
}
