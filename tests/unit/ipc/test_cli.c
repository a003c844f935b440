// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.mountd and ksmbd.control as shipped, on the host (where our module
 * is never loaded): the paths that end before any netlink traffic.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

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

TEST(mountd_config_error_exits_1)
{
	char cmd[512], out[4096];

	write_file("bad.conf", "[global]\n\ttcp port = 0\n[share]\n\tpath = /srv\n");
	snprintf(cmd, sizeof(cmd), "%s/daemon/ksmbd.mountd -n -c %s/bad.conf -u %s/none.db -p %s/pid 2>&1",
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
	snprintf(cmd, sizeof(cmd), "timeout 10 %s/daemon/ksmbd.mountd -n -c %s/good.conf -u %s/none.db -p %s 2>&1",
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
	CHECK(strstr(out, "netlink ABI 2") != NULL);
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
	ret = test_report();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return ret;
}
