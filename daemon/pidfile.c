// SPDX-License-Identifier: GPL-2.0
/* The running daemon, found through the pid file it keeps locked. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "pidfile.h"

/* The pid in @fd's file, or 0 when it holds none. */
static pid_t read_pid(int fd)
{
	char buf[32];
	ssize_t n;
	long pid;
	char *end;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	if (end == buf || (*end && *end != '\n') || pid <= 1)
		return 0;
	return (pid_t)pid;
}

int ksmbd_daemon_signal(const char *path, int sig, pid_t *pid)
{
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	/* Whoever can take the lock proves no daemon holds it. */
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		ret = -ESRCH;
		goto out_close;
	}
	if (errno != EWOULDBLOCK) {
		ret = -errno;
		goto out_close;
	}
	*pid = read_pid(fd);
	if (!*pid)
		ret = -ENOENT;
	else if (kill(*pid, sig))
		ret = -errno;
out_close:
	close(fd);
	return ret;
}

int ksmbd_daemon_reload(const char *prog, const char *path)
{
	pid_t pid = 0;
	int ret = ksmbd_daemon_signal(path, SIGHUP, &pid);

	if (ret == -ESRCH)
		return 0;
	if (ret) {
		fprintf(stderr, "%s: cannot ask ksmbd.mountd to reload (%s): %s\n",
			prog, path, strerror(-ret));
		return 1;
	}
	printf("%s: ksmbd.mountd (pid %d) reloads the configuration and users\n",
	       prog, (int)pid);
	return 0;
}
