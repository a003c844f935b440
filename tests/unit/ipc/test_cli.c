// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.mountd and ksmbd.control as shipped, on the host (where our module
 * is never loaded): the paths that end before any netlink traffic, and
 * how the tools find a running daemon (a stand-in holding the pid file's
 * lock, as ksmbd.mountd does) to make it reload or stop.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"
#include "uapi/ksmbd_netlink.h"

static char dir[] = "/tmp/ksmbd-ipc-cli-XXXXXX";

/* Runs @cmd with stderr folded into stdout; its exit status, output in @out. */
static int run(const char *cmd, char *out, size_t cap)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	int st;

	out[0] = '\0';
	if (!p)
		return -1;
	while (n + 1 < cap && fgets(out + n, cap - n, p))
		n = strlen(out);
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * A stand-in daemon: holds @lock as ksmbd.mountd does, with its pid in it,
 * and exits 10 on SIGHUP, 20 on SIGTERM (30 after 20 s of nothing). Its pid
 * once the lock is held, or -1.
 */
static pid_t fake_daemon(const char *lock)
{
	int ready[2], sig = 0;
	sigset_t set;
	pid_t pid;
	char c;

	if (pipe(ready))
		return -1;
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGALRM);
	pid = fork();
	if (pid == 0) {
		char buf[32];
		int fd, n;

		sigprocmask(SIG_BLOCK, &set, NULL);
		fd = open(lock, O_RDWR | O_CREAT, 0644);
		if (fd < 0 || flock(fd, LOCK_EX))
			_exit(1);
		n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
		if (ftruncate(fd, 0) || write(fd, buf, n) != n ||
		    write(ready[1], "r", 1) != 1)
			_exit(1);
		alarm(20);
		sigwait(&set, &sig);
		_exit(sig == SIGHUP ? 10 : sig == SIGTERM ? 20 : 30);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		return -1;
	}
	close(ready[0]);
	return pid;
}

/* The stand-in's exit code (waits for it), after a SIGKILL if it lingers. */
static int fake_daemon_end(pid_t pid)
{
	int st, i;

	for (i = 0; i < 100; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		usleep(50000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

TEST(control_reload_signals_the_daemon)
{
	char cmd[512], out[4096], lock[300], want[64];
	pid_t pid;

	snprintf(lock, sizeof(lock), "%s/reload.lock", dir);
	pid = fake_daemon(lock);
	CHECK(pid > 0);
	if (pid <= 0)
		return;
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.control --reload --pid-file=%s 2>&1",
		 KSMBD_BUILD_DIR, lock);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "ksmbd.mountd (pid %d) reloads", (int)pid);
	CHECK(strstr(out, want) != NULL);
	CHECK_EQ_INT(fake_daemon_end(pid), 10);
	/* The lock is free now: nobody to reload is an error, said once. */
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.control -r --pid-file %s 2>&1",
		 KSMBD_BUILD_DIR, lock);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 1);
	CHECK(strstr(out, "no ksmbd.mountd is running") != NULL);
	CHECK(strchr(out, '\n') == out + strlen(out) - 1);
}

TEST(control_shutdown_stops_the_daemon)
{
	char cmd[512], out[4096], lock[300], want[64];
	pid_t pid;

	if (access("/sys/class/ksmbd-control", F_OK) == 0)
		SKIP("a ksmbd module is loaded on this machine");
	snprintf(lock, sizeof(lock), "%s/stop.lock", dir);
	pid = fake_daemon(lock);
	CHECK(pid > 0);
	if (pid <= 0)
		return;
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.control --shutdown --pid-file=%s 2>&1",
		 KSMBD_BUILD_DIR, lock);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "ksmbd.mountd (pid %d) stopped", (int)pid);
	CHECK(strstr(out, want) != NULL);
	CHECK_EQ_INT(fake_daemon_end(pid), 20);
	/* A stale pid file (no lock held) is never signalled. */
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.control -s --pid-file=%s 2>&1",
		 KSMBD_BUILD_DIR, lock);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 0);
	CHECK(strstr(out, "no ksmbd.mountd is running") != NULL);
}

/* adduser and addshare make a running daemon reload; none is no error. */
TEST(tools_tell_the_daemon)
{
	char cmd[1024], out[4096], lock[300], want[96];
	pid_t pid;

	write_file("tools.conf", "[global]\n");
	snprintf(lock, sizeof(lock), "%s/tools.lock", dir);
	pid = fake_daemon(lock);
	CHECK(pid > 0);
	if (pid <= 0)
		return;
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.adduser -a alice -p secret -i %s/tools.db "
		 "-c %s/tools.conf --pid-file=%s 2>&1", KSMBD_BUILD_DIR, dir, dir, lock);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "ksmbd.adduser: ksmbd.mountd (pid %d) reloads", (int)pid);
	CHECK(strstr(out, want) != NULL);
	CHECK(strchr(out, '\n') == out + strlen(out) - 1);
	CHECK_EQ_INT(fake_daemon_end(pid), 10);

	pid = fake_daemon(lock);
	CHECK(pid > 0);
	if (pid <= 0)
		return;
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.addshare -a data -o 'path = /srv/data' "
		 "-c %s/tools.conf --pid-file=%s 2>&1", KSMBD_BUILD_DIR, dir, lock);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "ksmbd.addshare: ksmbd.mountd (pid %d) reloads", (int)pid);
	CHECK(strstr(out, want) != NULL);
	CHECK_EQ_INT(fake_daemon_end(pid), 10);

	/* No daemon: done quietly. */
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.addshare -u data -o 'comment = x' "
		 "-c %s/tools.conf --pid-file=%s 2>&1", KSMBD_BUILD_DIR, dir, lock);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 0);
	CHECK_EQ_STR(out, "");
}

TEST(mountd_options)
{
	char cmd[512], out[4096];

	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.mountd --port=0 2>&1", KSMBD_BUILD_DIR);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 2);
	CHECK(strstr(out, "bad port '0'") != NULL);
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.mountd -p 70000 2>&1", KSMBD_BUILD_DIR);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 2);
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.mountd --nodetach=2 2>&1", KSMBD_BUILD_DIR);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 2);
	CHECK(strstr(out, "-n takes 0 or 1") != NULL);
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.mountd --help 2>&1", KSMBD_BUILD_DIR);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 0);
	CHECK(strstr(out, "--pid-file") && strstr(out, "--port") && strstr(out, "--pwddb"));
	/* Upstream 3.5's -C and -P name the same files. */
	write_file("c.conf", "[global]\n\ttcp port = 0\n");
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.mountd -n -C %s/c.conf -P %s/none.db "
		 "--pid-file=%s/pid 2>&1", KSMBD_BUILD_DIR, dir, dir, dir);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 1);
	CHECK(strstr(out, "c.conf:2:") != NULL);
}

TEST(mountd_config_error_exits_1)
{
	char cmd[512], out[4096];

	write_file("bad.conf", "[global]\n\ttcp port = 0\n[share]\n\tpath = /srv\n");
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.mountd -n -c %s/bad.conf -u %s/none.db --pid-file=%s/pid 2>&1",
		 KSMBD_BUILD_DIR, dir, dir, dir);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 1);
	CHECK(strstr(out, "bad.conf:2:") != NULL);
	/* Refused before the lock and before netlink. */
	CHECK(strstr(out, "module") == NULL);
}

TEST(mountd_second_instance_refused)
{
	char cmd[512], out[4096], path[256];
	int fd;

	write_file("good.conf", "[global]\n\tnetbios name = CLI\n");
	snprintf(path, sizeof(path), "%s/lock", dir);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, "4242\n", 5) == 5);
	CHECK_EQ_INT(flock(fd, LOCK_EX), 0);
	snprintf(cmd, sizeof(cmd), "timeout 10 %s/daemon/ksmbd.mountd -n -c %s/good.conf -u %s/none.db --pid-file=%s 2>&1",
		 KSMBD_BUILD_DIR, dir, dir, path);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 1);
	CHECK(strstr(out, "another ksmbd.mountd is running (pid 4242") != NULL);
	close(fd);
}

TEST(mountd_version_and_usage)
{
	char cmd[512], out[4096];

	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.mountd -V 2>&1", KSMBD_BUILD_DIR);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 0);
	snprintf(cmd, sizeof(cmd), "netlink ABI %d", KSMBD_ABI_VERSION);
	CHECK(strstr(out, cmd) != NULL);
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.mountd -x 2>&1", KSMBD_BUILD_DIR);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 2);
	CHECK(strstr(out, "Usage:") != NULL);
}

TEST(control_without_module)
{
	char cmd[512], out[4096];

	if (access("/sys/class/ksmbd-control", F_OK) == 0)
		SKIP("a ksmbd module is loaded on this machine");
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.control -c 2>&1", KSMBD_BUILD_DIR);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 1);
	CHECK(strstr(out, "module is not loaded") != NULL);
	/* Exactly one line. */
	CHECK(strchr(out, '\n') == out + strlen(out) - 1);
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.control -s -c 2>&1", KSMBD_BUILD_DIR);
	CHECK_EQ_INT(run(cmd, out, sizeof(out)), 2);
}

int main(void)
{
	char cmd[300];
	int ret;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(mountd_config_error_exits_1);
	RUN(mountd_second_instance_refused);
	RUN(mountd_version_and_usage);
	RUN(control_without_module);
	RUN(control_reload_signals_the_daemon);
	RUN(control_shutdown_stops_the_daemon);
	RUN(tools_tell_the_daemon);
	RUN(mountd_options);
	ret = test_report();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return ret;
}
