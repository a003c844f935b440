/* SPDX-License-Identifier: GPL-2.0 */
/* Temp files and child processes for the daemon unit tests. */
#ifndef KSMBD_TEST_DAEMON_HELPERS_H
#define KSMBD_TEST_DAEMON_HELPERS_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define HELPER __attribute__((unused)) static

/* A fresh private folder under $TMPDIR or /tmp; exits on failure. */
HELPER const char *th_tmpdir(void)
{
	static char dir[256];
	const char *base = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/ksmbd-test-XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(2);
	}
	return dir;
}

HELPER void th_rmtree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

HELPER char *th_path(const char *dir, const char *name)
{
	static char bufs[4][512];
	static int next;
	char *p = bufs[next++ % 4];

	snprintf(p, sizeof(bufs[0]), "%s/%s", dir, name);
	return p;
}

HELPER int th_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* Whole file as a NUL-terminated string (caller frees); NULL if unreadable. */
HELPER char *th_read(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, len = 0, n;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap * 2 + 8192;
			buf = realloc(buf, cap);
			if (!buf)
				break;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n);
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/*
 * Runs argv[0] with @input on stdin (NULL: /dev/null); its stderr lands in
 * @err (truncated to @errcap). Returns the exit status, or -1.
 */
HELPER int th_run(char *const argv[], const char *input, char *err, size_t errcap)
{
	int in[2], errp[2], status;
	pid_t pid;
	ssize_t n;
	size_t got = 0;

	if (pipe(in) || pipe(errp))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(in[0], 0);
		dup2(errp[1], 2);
		dup2(null, 1);
		close(in[1]);
		close(errp[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(errp[1]);
	if (input && write(in[1], input, strlen(input)) < 0)
		perror("write");
	close(in[1]);
	while (errcap && (n = read(errp[0], err + got, errcap - 1 - got)) > 0)
		got += (size_t)n;
	if (errcap)
		err[got] = '\0';
	close(errp[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif
