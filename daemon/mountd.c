// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.mountd: the user-space half of the server. Reads ksmbd.conf and
 * ksmbdpwd.db, registers with the module over generic netlink, and answers
 * its questions (logins, shares, tree connects, named pipes) until told to
 * stop. The module may come and go: the daemon waits for it to appear and
 * starts it again after every reload.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "config.h"
#include "handlers.h"
#include "netlink.h"
#include "pidfile.h"
#include "userdb.h"
#include "../module/uapi/ksmbd_netlink.h"

#define STARTUP_WAIT_MS		5000
/* Without traffic, check this often that the module is still there. */
#define IDLE_CHECK_S		5

struct mountd_opts {
	bool foreground;
	bool debug;
	const char *conf;
	const char *userdb;
	const char *pidfile;
	uint16_t port;		/* -p: wins over "tcp port"; 0 = the config's */
	/* Absolute forms: the daemon changes to / but reloads on SIGHUP. */
	char conf_abs[PATH_MAX];
	char userdb_abs[PATH_MAX];
	char pidfile_abs[PATH_MAX];
};

/* What one session with the module ended in. */
enum session_end {
	END_STARTED,		/* start_up() only: registered, go on serving */
	END_TERM,		/* SIGTERM/SIGINT: we are leaving */
	END_MODULE_GONE,	/* rmmod: wait for it to return */
	END_FATAL,		/* refused by the module: exit 1 */
};

/* Set by signal handlers, read by the loops: the only globals we need. */
static volatile sig_atomic_t got_term;
static volatile sig_atomic_t got_hup;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else
		got_term = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: ksmbd.mountd [-n[WAY]] [-v] [-p PORT] [-c CONF] [-u PWDDB]\n"
		"                    [--pid-file=PATH]\n"
		"\n"
		"The user-space half of the ksmbd server: reads the configuration and\n"
		"the user database, starts the kernel server and answers it.\n"
		"\n"
		"  -p, --port=PORT       listen on PORT instead of 'tcp port' (445)\n"
		"  -n, --nodetach[=WAY]  stay in the foreground and log to stderr (WAY 1,\n"
		"                        the default); WAY 0 detaches as without -n\n"
		"  -c, -C, --config=CONF configuration (default %s)\n"
		"  -u, -P, --users=PWDDB, --pwddb=PWDDB\n"
		"                        user database (default %s)\n"
		"      --pid-file=PATH   pid file and instance lock (default %s);\n"
		"                        ksmbd.control and the tools find the daemon there\n"
		"  -v, --verbose         debug logging\n"
		"  -V, --version         print the version\n"
		"  -h, --help            print this help\n"
		"\n"
		"SIGHUP reloads the configuration and the user database; SIGTERM stops.\n",
		KSMBD_CONFIG_PATH, KSMBD_USERDB_PATH, KSMBD_PIDFILE_DEFAULT);
}

/* @path made absolute against the current folder, into @buf. */
static const char *absolute(const char *path, char buf[PATH_MAX])
{
	char cwd[PATH_MAX];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)) ||
	    snprintf(buf, PATH_MAX, "%s/%s", cwd, path) >= PATH_MAX)
		return path;
	return buf;
}

enum { OPT_PIDFILE = 0x100 };

static int parse_port(const char *arg, uint16_t *port)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > 65535) {
		fprintf(stderr, "ksmbd.mountd: bad port '%s' (1 to 65535)\n", arg);
		return -1;
	}
	*port = (uint16_t)n;
	return 0;
}

static int parse_opts(int argc, char **argv, struct mountd_opts *o)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "nodetach", optional_argument, NULL, 'n' },
		{ "config", required_argument, NULL, 'c' },
		{ "users", required_argument, NULL, 'u' },
		{ "pwddb", required_argument, NULL, 'P' },
		{ "pid-file", required_argument, NULL, OPT_PIDFILE },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->conf = KSMBD_CONFIG_PATH;
	o->userdb = KSMBD_USERDB_PATH;
	o->pidfile = KSMBD_PIDFILE_DEFAULT;
	while ((c = getopt_long(argc, argv, "p:n::c:C:u:P:vVh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_port(optarg, &o->port))
				return -1;
			break;
		case 'n':
			if (optarg && strcmp(optarg, "0") && strcmp(optarg, "1")) {
				fprintf(stderr, "ksmbd.mountd: -n takes 0 or 1, not '%s'\n",
					optarg);
				return -1;
			}
			o->foreground = !optarg || !strcmp(optarg, "1");
			break;
		case 'c':
		case 'C':
			o->conf = optarg;
			break;
		case 'u':
		case 'P':
			o->userdb = optarg;
			break;
		case OPT_PIDFILE:
			o->pidfile = optarg;
			break;
		case 'v': o->debug = true; break;
		case 'V':
			printf("ksmbd.mountd %s (netlink ABI %u)\n", KSMBD_VERSION,
			       KSMBD_ABI_VERSION);
			exit(0);
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	o->conf = absolute(o->conf, o->conf_abs);
	o->userdb = absolute(o->userdb, o->userdb_abs);
	o->pidfile = absolute(o->pidfile, o->pidfile_abs);
	return 0;
}

/* Loads both files; messages go to the log (stderr before daemonizing). */
static int load_files(const struct mountd_opts *o, struct ksmbd_config **cfg,
		      struct ksmbd_userdb **db)
{
	struct ksmbd_diag *d = ksmbd_diag_new();
	size_t i;

	if (!d)
		return -ENOMEM;
	*cfg = ksmbd_config_load(o->conf, d);
	*db = *cfg ? ksmbd_userdb_load(o->userdb, d) : NULL;
	for (i = 0; i < ksmbd_diag_count(d); i++)
		mountd_log(LOG_ERR, "%s", ksmbd_diag_line(d, i));
	ksmbd_diag_free(d);
	if (*cfg && *db)
		return 0;
	ksmbd_config_free(*cfg);
	*cfg = NULL;
	return -EINVAL;
}

static int pidfile_lock(const char *path)
{
	char other[32] = "";
	ssize_t n;
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		mountd_log(LOG_ERR, "cannot open pid file %s: %s", path,
			   strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	n = read(fd, other, sizeof(other) - 1);
	other[n > 0 ? n : 0] = '\0';
	other[strcspn(other, "\n")] = '\0';
	mountd_log(LOG_ERR, "another ksmbd.mountd is running (pid %s, lock %s)",
		   other[0] ? other : "?", path);
	close(fd);
	return -1;
}

static int pidfile_write(int fd)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());

	if (ftruncate(fd, 0) || pwrite(fd, buf, n, 0) != n)
		return -errno;
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* No SA_RESTART: poll() must return so the loop sees the flag. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

struct session {
	struct mountd_state *st;
	struct mountd_nl *nl;
	uint16_t port;			/* -p, or 0 */
	bool got_verdict;
	int verdict;
	uint32_t module_abi;
};

static void on_message(void *arg, unsigned int type, const void *data,
		       size_t len)
{
	struct session *s = arg;
	struct mountd_reply reply;
	int ret;

	if (type == KSMBD_EVENT_STARTING_UP_RESPONSE && !s->got_verdict) {
		s->verdict = mountd_parse_startup_response(data, len,
							   &s->module_abi);
		s->got_verdict = true;
		return;
	}
	if (mountd_handle(s->st, type, data, len, &reply))
		return;
	if (reply.type) {
		ret = mountd_nl_send(s->nl, reply.type, reply.data, reply.len);
		if (ret)
			mountd_log(LOG_WARNING, "cannot answer event %u: %s", type,
				   strerror(-ret));
	}
	mountd_reply_free(&reply);
}

/* Reads everything waiting; -ENODEV when the module announced its exit. */
static int drain(struct session *s)
{
	int ret;

	while ((ret = mountd_nl_recv(s->nl, on_message, s)) == 0)
		;
	if (ret == -EAGAIN || ret == -EINTR)
		return 0;
	if (ret != -ENODEV)
		mountd_log(LOG_WARNING, "netlink receive: %s", strerror(-ret));
	return ret == -ENODEV ? ret : 0;
}

/* Polls the socket for up to @ms; 1 readable, 0 timeout or signal. */
static int wait_readable(struct mountd_nl *nl, int ms)
{
	struct pollfd p = { .fd = mountd_nl_fd(nl), .events = POLLIN };

	return poll(&p, 1, ms) > 0;
}

static enum session_end start_up(struct session *s)
{
	struct mountd_reply msg;
	int ret, waited = 0;

	ret = mountd_build_startup(s->st->cfg, &msg);
	if (ret) {
		mountd_log(LOG_ERR, "cannot build the start-up message: %s",
			   strerror(-ret));
		return END_FATAL;
	}
	/* As upstream: the command line's port wins over the file's. */
	if (s->port)
		((struct ksmbd_startup_request *)msg.data)->tcp_port = s->port;
	ret = mountd_nl_send(s->nl, msg.type, msg.data, msg.len);
	mountd_reply_free(&msg);
	if (ret) {
		mountd_log(LOG_WARNING, "cannot send start-up: %s", strerror(-ret));
		return END_MODULE_GONE;
	}
	while (!s->got_verdict && waited < STARTUP_WAIT_MS && !got_term) {
		if (wait_readable(s->nl, 100) && drain(s) == -ENODEV)
			return END_MODULE_GONE;
		waited += 100;
	}
	if (got_term)
		return END_TERM;
	if (!s->got_verdict) {
		mountd_log(LOG_ERR, "the module did not answer STARTING_UP: is it a ksmbd module with another netlink ABI?");
		return END_FATAL;
	}
	switch (s->verdict) {
	case 0:
		mountd_log(LOG_INFO, "registered with the module; server started");
		return END_STARTED;
	case -EPROTO:
		mountd_log(LOG_ERR, "the module speaks netlink ABI version %u, this daemon %u: refused; install matching versions",
			   s->module_abi, KSMBD_ABI_VERSION);
		break;
	case -EBUSY:
		mountd_log(LOG_ERR, "another daemon is registered with the module and alive: refused");
		break;
	default:
		mountd_log(LOG_ERR, "the module refused to start the server: %s",
			   strerror(-s->verdict));
		break;
	}
	return END_FATAL;
}

static void reload(struct mountd_state *st, const struct mountd_opts *o)
{
	struct ksmbd_config *cfg;
	struct ksmbd_userdb *db;

	if (load_files(o, &cfg, &db)) {
		mountd_log(LOG_ERR, "reload failed: keeping the running configuration");
		return;
	}
	mountd_state_replace(st, cfg, db);
	mountd_log(LOG_INFO, "configuration reloaded (global settings apply at the next start)");
}

static enum session_end serve(struct session *s, const struct mountd_opts *o)
{
	int idle = 0;

	while (!got_term) {
		if (got_hup) {
			got_hup = 0;
			reload(s->st, o);
		}
		if (!wait_readable(s->nl, 1000)) {
			if (++idle < IDLE_CHECK_S)
				continue;
			idle = 0;
			if (!mountd_nl_family_present(s->nl))
				return END_MODULE_GONE;
			continue;
		}
		idle = 0;
		if (drain(s) == -ENODEV)
			return END_MODULE_GONE;
	}
	return END_TERM;
}

/* Opens the socket once the module is there; NULL when told to stop. */
static struct mountd_nl *wait_for_module(void)
{
	bool told = false;
	struct mountd_nl *nl;
	int err;

	while (!got_term) {
		nl = mountd_nl_open(&err);
		if (nl)
			return nl;
		if (!told) {
			if (err == -ENOENT)
				mountd_log(LOG_INFO, "ksmbd module not loaded; waiting");
			else
				mountd_log(LOG_WARNING, "cannot reach the module (%s); retrying",
					   strerror(-err));
			told = true;
		}
		sleep(1);
	}
	return NULL;
}

static int run(struct mountd_state *st, const struct mountd_opts *o)
{
	struct session s;
	enum session_end end;
	struct ksmbd_shutdown_request bye = {};

	for (;;) {
		s = (struct session){ .st = st, .nl = wait_for_module(),
				      .port = o->port };
		if (!s.nl)
			return 0;
		end = start_up(&s);
		if (end == END_STARTED)
			end = serve(&s, o);
		if (end == END_TERM) {
			mountd_nl_send(s.nl, KSMBD_EVENT_SHUTTING_DOWN, &bye,
				       sizeof(bye));
			mountd_nl_close(s.nl);
			mountd_log(LOG_INFO, "shut down");
			return 0;
		}
		mountd_nl_close(s.nl);
		mountd_state_reset(st);
		if (end == END_FATAL)
			return 1;
		mountd_log(LOG_INFO, "ksmbd module unloaded; waiting for it to return");
	}
}

int main(int argc, char **argv)
{
	struct mountd_opts o;
	struct mountd_state st;
	struct ksmbd_config *cfg;
	struct ksmbd_userdb *db;
	int lock_fd, ret;

	if (parse_opts(argc, argv, &o))
		return 2;
	mountd_log_init(true, o.debug);
	if (load_files(&o, &cfg, &db))
		return 1;
	lock_fd = pidfile_lock(o.pidfile);
	if (lock_fd < 0) {
		ksmbd_config_free(cfg);
		ksmbd_userdb_free(db);
		return 1;
	}
	/* The lock's open file stays shared with the child: the lock holds. */
	if (!o.foreground && daemon(0, 0)) {
		mountd_log(LOG_ERR, "cannot daemonize: %s", strerror(errno));
		return 1;
	}
	mountd_log_init(o.foreground, o.debug);
	if (pidfile_write(lock_fd))
		mountd_log(LOG_WARNING, "cannot write pid file %s", o.pidfile);
	install_signals();
	mountd_log(LOG_INFO, "ksmbd.mountd %s starting (pid %d)", KSMBD_VERSION,
		   (int)getpid());

	mountd_state_init(&st, cfg, db);
	ret = run(&st, &o);
	mountd_state_free(&st);
	unlink(o.pidfile);
	close(lock_fd);
	return ret;
}
