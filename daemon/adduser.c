// SPDX-License-Identifier: GPL-2.0
/* ksmbd.adduser: add, update or delete users of ksmbdpwd.db. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "config.h"
#include "pidfile.h"
#include "tool.h"
#include "userdb.h"

#define PROG		"ksmbd.adduser"
#define PASSWORD_MAX	128	/* bytes, as ksmbd-tools allows */

#define fail(...)	ksmbd_tool_fail(PROG, __VA_ARGS__)

struct adduser_opts {
	struct ksmbd_tool t;	/* first: own_opt() gets &o->t */
	const char *password;
	const char *db_path;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: " PROG " {-a USER | -u USER} [-p PASSWORD] [-i PWDDB] [-c CONF] [-v]\n"
		"       " PROG " -d USER [-i PWDDB] [-c CONF] [-v]\n"
		"       " PROG " {-h | -V}\n"
		"\n"
		"Manage the SMB users of the ksmbd server.\n"
		"\n"
		"  -a, --add-user=USER      add USER (it must not exist yet)\n"
		"  -u, --update-user=USER   set a new password for USER\n"
		"  -d, --del-user=USER      delete USER\n"
		"  -p, --password=PASSWORD  the password; without it you are asked twice\n"
		"                           on a terminal, or one line is read from stdin\n"
		"  -i, --import-users=PWDDB user database (default " KSMBD_USERDB_PATH ")\n"
		"  -c, --config=CONF        configuration (default " KSMBD_CONFIG_PATH ");\n"
		"                           used to warn when a deleted user is still\n"
		"                           named in a share\n"
		"      --pid-file=PATH      the running ksmbd.mountd's pid file (default\n"
		"                           " KSMBD_PIDFILE_DEFAULT "); it is told to reload\n"
		"  -v, --verbose            say what was done\n"
		"  -V, --version            print the version\n"
		"  -h, --help               print this help\n"
		"\n"
		"USER is 1 to 47 bytes without ':' or control characters; PASSWORD is\n"
		"UTF-8, at most %d bytes. The database is replaced atomically (mode 0600),\n"
		"then a running ksmbd.mountd reloads it (SIGHUP), which is said in one line.\n"
		"\n"
		"Examples:\n"
		"  " PROG " -a alice -p 'secret'\n"
		"  " PROG " -d alice -i /tmp/test.db\n", PASSWORD_MAX);
}

/* Reads one line, without echo when @fd is a terminal. NULL on EOF. */
static char *read_secret(FILE *in, const char *prompt)
{
	struct termios old, quiet;
	bool tty = isatty(fileno(in));
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (tty) {
		fputs(prompt, stderr);
		fflush(stderr);
		if (tcgetattr(fileno(in), &old) == 0) {
			quiet = old;
			quiet.c_lflag &= (tcflag_t)~ECHO;
			tcsetattr(fileno(in), TCSAFLUSH, &quiet);
		} else {
			tty = false;
		}
	}
	n = getline(&line, &cap, in);
	if (tty) {
		tcsetattr(fileno(in), TCSAFLUSH, &old);
		fputc('\n', stderr);
	}
	if (n < 0) {
		free(line);
		return NULL;
	}
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	return line;
}

static void free_secret(char *s)
{
	if (s) {
		explicit_bzero(s, strlen(s));
		free(s);
	}
}

static char *ask_password(void)
{
	char *first, *second;

	first = read_secret(stdin, "New password: ");
	if (!first || !isatty(fileno(stdin)))
		return first;
	second = read_secret(stdin, "Retype new password: ");
	if (!second || strcmp(first, second)) {
		free_secret(first);
		free_secret(second);
		fail("passwords do not match");
		return NULL;
	}
	free_secret(second);
	return first;
}

static bool password_ok(const char *pw)
{
	return strlen(pw) <= PASSWORD_MAX && !strpbrk(pw, "\r\n");
}

/* A deleted user still named in a share is worth a warning, not a refusal. */
static void warn_references(const char *conf_path, const char *user)
{
	const struct ksmbd_strlist *lists[4];
	struct ksmbd_config *cfg;
	size_t i, j;

	if (access(conf_path, F_OK))
		return;
	cfg = ksmbd_config_load(conf_path, NULL);
	if (!cfg)
		return;
	for (i = 0; i < ksmbd_config_share_count(cfg); i++) {
		const struct ksmbd_share *s = ksmbd_config_share_at(cfg, i);

		lists[0] = &s->valid_users;
		lists[1] = &s->admin_users;
		lists[2] = &s->write_list;
		lists[3] = &s->read_list;
		for (j = 0; j < 4; j++) {
			if (ksmbd_userlist_match(lists[j], user)) {
				fprintf(stderr, PROG ": warning: '%s' is still named in share [%s]\n",
					user, s->name);
				break;
			}
		}
	}
	ksmbd_config_free(cfg);
}

static int own_opt(struct ksmbd_tool *t, int c, const char *arg)
{
	struct adduser_opts *o = (struct adduser_opts *)t;

	if (c == 'p')
		o->password = arg;
	else
		o->db_path = arg;
	return 0;
}

static int parse_args(int argc, char **argv, struct adduser_opts *o)
{
	static const struct option own_long[] = {
		{ "password", required_argument, NULL, 'p' },
		{ "import-users", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};

	o->t.prog = PROG;
	o->t.noun = "user";
	o->t.usage = usage;
	o->t.own_short = "p:i:";
	o->t.own_long = own_long;
	o->t.own = own_opt;
	if (ksmbd_tool_parse(&o->t, argc, argv))
		return 1;
	if (o->t.op == KSMBD_TOOL_DELETE && o->password)
		return fail("-p makes no sense with -d");
	if (!ksmbd_user_name_valid(o->t.name))
		return fail("bad user name '%s': 1 to %d bytes, no ':' or control characters",
			    o->t.name, KSMBD_ACCOUNT_NAME_SZ - 1);
	return 0;
}

static int change_password(struct ksmbd_userdb *db, const struct adduser_opts *o)
{
	char *asked = NULL;
	const char *pw = o->password;
	int err;

	if (!pw) {
		asked = ask_password();
		if (!asked)
			return fail("no password given");
		pw = asked;
	}
	if (!password_ok(pw)) {
		free_secret(asked);
		return fail("password longer than %d bytes or has a line break",
			    PASSWORD_MAX);
	}
	err = ksmbd_userdb_set(db, o->t.name, pw);
	free_secret(asked);
	if (err == -EILSEQ)
		return fail("password is not valid UTF-8");
	if (err)
		return fail("cannot set password: %s", strerror(-err));
	return 0;
}

static int apply(struct ksmbd_userdb *db, const struct adduser_opts *o)
{
	bool exists = ksmbd_userdb_find(db, o->t.name) != NULL;

	switch (o->t.op) {
	case KSMBD_TOOL_ADD:
		if (exists)
			return fail("user '%s' already exists (use -u to change the password)",
				    o->t.name);
		return change_password(db, o);
	case KSMBD_TOOL_UPDATE:
		if (!exists)
			return fail("user '%s' does not exist", o->t.name);
		return change_password(db, o);
	case KSMBD_TOOL_DELETE:
		if (ksmbd_userdb_delete(db, o->t.name))
			return fail("user '%s' does not exist", o->t.name);
		warn_references(o->t.conf_path, o->t.name);
		return 0;
	case KSMBD_TOOL_NONE:
		break;
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct adduser_opts o = {
		.t.conf_path = KSMBD_CONFIG_PATH,
		.t.pid_file = KSMBD_PIDFILE_DEFAULT,
		.db_path = KSMBD_USERDB_PATH,
	};
	struct ksmbd_diag *diag = ksmbd_diag_new();
	struct ksmbd_userdb *db = NULL;
	int rc = 1, err;

	if (!diag)
		return fail("out of memory");
	if (parse_args(argc, argv, &o))
		goto out;
	db = ksmbd_userdb_load(o.db_path, diag);
	if (!db) {
		ksmbd_diag_print(diag, stderr);
		fail("cannot read the user database %s", o.db_path);
		goto out;
	}
	if (apply(db, &o))
		goto out;
	err = ksmbd_userdb_save(db, o.db_path);
	if (err) {
		fail("cannot write %s: %s", o.db_path, strerror(-err));
		goto out;
	}
	if (o.t.verbose)
		printf("%s user '%s' in %s\n", ksmbd_tool_done(o.t.op), o.t.name,
		       o.db_path);
	rc = ksmbd_daemon_reload(PROG, o.t.pid_file);
out:
	ksmbd_userdb_free(db);
	ksmbd_diag_free(diag);
	return rc;
}
