// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.control: the administrator's switch for a running server, through
 * /sys/class/ksmbd-control and the daemon's pid file.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pidfile.h"
#include "../module/uapi/ksmbd_netlink.h"

#define CLASS_DIR	"/sys/class/ksmbd-control"
/* How long --shutdown waits for ksmbd.mountd to be gone. */
#define STOP_WAIT_MS	10000

enum { OPT_PIDFILE = 0x100 };

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: ksmbd.control [--pid-file=PATH] -s | -r | -d COMPONENT | -c | -V | -h\n"
		"\n"
		"  -s, --shutdown        stop the server: the module stops serving and\n"
		"                        drops every client, ksmbd.mountd exits\n"
		"  -r, --reload          make ksmbd.mountd reread the configuration and\n"
		"                        the user database (as SIGHUP does)\n"
		"  -d, --debug=COMPONENT toggle debug messages of a component (or \"all\")\n"
		"                        and print the state of each\n"
		"  -c, --ksmbd-version, --status\n"
		"                        print the module's state, version and counters\n"
		"      --pid-file=PATH   ksmbd.mountd's pid file (default %s)\n"
		"  -v, --verbose         accepted for compatibility; no effect\n"
		"  -V, --version         print the version\n"
		"  -h, --help            print this help\n"
		"\n"
		"Exit status: 0 done, 1 failed, 2 usage.\n", KSMBD_PIDFILE_DEFAULT);
}

static int module_loaded(bool quiet)
{
	if (access(CLASS_DIR, F_OK) == 0)
		return 1;
	if (!quiet)
		fprintf(stderr, "ksmbd.control: the ksmbd module is not loaded (%s is missing)\n",
			CLASS_DIR);
	return 0;
}

static int write_attr(const char *name, const char *value)
{
	char path[128];
	int fd, ret = 0;
	size_t n = strlen(value);

	snprintf(path, sizeof(path), CLASS_DIR "/%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, value, n) != (ssize_t)n)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	if (ret)
		fprintf(stderr, "ksmbd.control: writing '%s' to %s: %s\n", value,
			path, strerror(-ret));
	return ret;
}

static int print_attr(const char *name)
{
	char path[128], buf[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), CLASS_DIR "/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ksmbd.control: reading %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	close(fd);
	return n < 0 ? -1 : 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A process that has exited, even if its parent has not reaped it yet. */
static bool gone(pid_t pid)
{
	char path[64], buf[256], *paren;
	ssize_t n;
	int fd;

	if (kill(pid, 0) && errno == ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	/* "pid (comm) S ...": the state follows the last ')'. */
	paren = strrchr(buf, ')');
	return paren && (paren[2] == 'Z' || paren[2] == 'X');
}

/* 0 once @pid is gone, -1 on timeout. */
static int wait_gone(pid_t pid)
{
	long waited;

	for (waited = 0; waited < STOP_WAIT_MS; waited += 50) {
		if (gone(pid))
			return 0;
		sleep_ms(50);
	}
	return -1;
}

/*
 * The module's kill switch first (every client is dropped and the
 * listener closes, even if the daemon is gone or hung), then the daemon.
 */
static int shutdown_server(const char *pidfile)
{
	pid_t pid = 0;
	int ret, failed = 0;

	if (module_loaded(true)) {
		if (write_attr("kill_server", "hard"))
			failed = 1;
		else
			printf("ksmbd.control: the server stopped serving\n");
	}
	ret = ksmbd_daemon_signal(pidfile, SIGTERM, &pid);
	if (ret == -ESRCH) {
		printf("ksmbd.control: no ksmbd.mountd is running (%s)\n", pidfile);
		return failed;
	}
	if (ret) {
		fprintf(stderr, "ksmbd.control: stopping ksmbd.mountd (%s): %s\n",
			pidfile, strerror(-ret));
		return 1;
	}
	if (wait_gone(pid)) {
		fprintf(stderr, "ksmbd.control: ksmbd.mountd (pid %d) did not exit within %d s\n",
			(int)pid, STOP_WAIT_MS / 1000);
		return 1;
	}
	printf("ksmbd.control: ksmbd.mountd (pid %d) stopped\n", (int)pid);
	return failed;
}

static int reload(const char *pidfile)
{
	pid_t pid = 0;
	int ret = ksmbd_daemon_signal(pidfile, SIGHUP, &pid);

	if (ret == -ESRCH) {
		fprintf(stderr, "ksmbd.control: no ksmbd.mountd is running (%s)\n",
			pidfile);
		return 1;
	}
	if (ret) {
		fprintf(stderr, "ksmbd.control: cannot signal ksmbd.mountd (%s): %s\n",
			pidfile, strerror(-ret));
		return 1;
	}
	printf("ksmbd.control: ksmbd.mountd (pid %d) reloads the configuration and users\n",
	       (int)pid);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "shutdown", no_argument, NULL, 's' },
		{ "reload", no_argument, NULL, 'r' },
		{ "debug", required_argument, NULL, 'd' },
		{ "ksmbd-version", no_argument, NULL, 'c' },
		{ "status", no_argument, NULL, 'c' },
		{ "pid-file", required_argument, NULL, OPT_PIDFILE },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pidfile = KSMBD_PIDFILE_DEFAULT, *component = NULL;
	int c, shutdown = 0, do_reload = 0, stats = 0;

	while ((c = getopt_long(argc, argv, "srd:cvVh", longopts, NULL)) != -1) {
		switch (c) {
		case 's': shutdown = 1; break;
		case 'r': do_reload = 1; break;
		case 'd': component = optarg; break;
		case 'c': stats = 1; break;
		case OPT_PIDFILE: pidfile = optarg; break;
		case 'v': break;
		case 'V':
			printf("ksmbd.control %s (netlink ABI %u)\n",
			       KSMBD_VERSION, KSMBD_ABI_VERSION);
			return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || shutdown + do_reload + stats + !!component != 1) {
		usage(stderr);
		return 2;
	}
	if (shutdown)
		return shutdown_server(pidfile);
	if (do_reload)
		return reload(pidfile);
	if (!module_loaded(false))
		return 1;
	if (component) {
		if (write_attr("debug", component))
			return 1;
		return print_attr("debug") ? 1 : 0;
	}
	return print_attr("stats") ? 1 : 0;
}
