// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.control: the administrator's switch for a running server, through
 * /sys/class/ksmbd-control and the daemon's pid file.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../module/uapi/ksmbd_netlink.h"

#define CLASS_DIR	"/sys/class/ksmbd-control"
#define PIDFILE_DEFAULT	"/run/ksmbd.lock"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: ksmbd.control [-p PIDFILE] -s | -d COMPONENT | -c | -V\n"
		"  -s            shut the server down and stop ksmbd.mountd\n"
		"  -d COMPONENT  toggle debug messages of a component (or \"all\")\n"
		"  -c            print the module's state, version and counters\n"
		"  -p PIDFILE    ksmbd.mountd's pid file (default %s)\n"
		"  -V            print the version\n", PIDFILE_DEFAULT);
}

static int module_loaded(void)
{
	if (access(CLASS_DIR, F_OK) == 0)
		return 1;
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

/* SIGTERM to the daemon named in @pidfile; 0 also when none runs. */
static int stop_daemon(const char *pidfile)
{
	char buf[32] = "";
	ssize_t n;
	long pid;
	int fd;

	fd = open(pidfile, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("ksmbd.control: no ksmbd.mountd pid file (%s)\n", pidfile);
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	pid = strtol(buf, NULL, 10);
	if (pid <= 1) {
		fprintf(stderr, "ksmbd.control: %s holds no pid\n", pidfile);
		return -1;
	}
	if (kill((pid_t)pid, SIGTERM)) {
		if (errno == ESRCH)
			return 0;
		fprintf(stderr, "ksmbd.control: signalling ksmbd.mountd (pid %ld): %s\n",
			pid, strerror(errno));
		return -1;
	}
	printf("ksmbd.control: asked ksmbd.mountd (pid %ld) to stop\n", pid);
	return 0;
}

int main(int argc, char **argv)
{
	const char *pidfile = PIDFILE_DEFAULT, *component = NULL;
	int c, shutdown = 0, stats = 0;

	while ((c = getopt(argc, argv, "sd:cp:Vh")) != -1) {
		switch (c) {
		case 's': shutdown = 1; break;
		case 'd': component = optarg; break;
		case 'c': stats = 1; break;
		case 'p': pidfile = optarg; break;
		case 'V':
			printf("ksmbd.control %s (netlink ABI %u)\n",
			       KSMBD_VERSION, KSMBD_ABI_VERSION);
			return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || shutdown + stats + !!component != 1) {
		usage(stderr);
		return 2;
	}
	if (!module_loaded())
		return 1;
	if (shutdown) {
		if (write_attr("kill_server", "hard"))
			return 1;
		return stop_daemon(pidfile) ? 1 : 0;
	}
	if (component) {
		if (write_attr("debug", component))
			return 1;
		return print_attr("debug") ? 1 : 0;
	}
	return print_attr("stats") ? 1 : 0;
}
