// SPDX-License-Identifier: GPL-2.0
/* Whole-file reads and atomic replacement. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

int ksmbd_read_file(const char *path, size_t max, char **text, size_t *len)
{
	struct stat st;
	size_t got = 0;
	char *buf;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		goto out_close;
	}
	if ((unsigned long long)st.st_size > max) {
		err = -EFBIG;
		goto out_close;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		err = -ENOMEM;
		goto out_close;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			free(buf);
			goto out_close;
		}
		if (n == 0)
			break;		/* the file shrank under us */
		got += (size_t)n;
	}
	buf[got] = '\0';
	*text = buf;
	*len = got;
out_close:
	close(fd);
	return err;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void sync_parent(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int ksmbd_write_file_atomic(const char *path, const void *data, size_t len,
			    mode_t mode)
{
	char *tmp;
	int fd, err;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		goto out_free;
	}
	/* mkstemp gives 0600; set the wanted mode before any data lands. */
	if (fchmod(fd, mode)) {
		err = -errno;
		goto out_unlink;
	}
	err = write_all(fd, data, len);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (err)
		goto out_unlink_closed;
	if (rename(tmp, path)) {
		err = -errno;
		goto out_unlink_closed;
	}
	sync_parent(path);
	free(tmp);
	return 0;
out_unlink:
	close(fd);
out_unlink_closed:
	unlink(tmp);
out_free:
	free(tmp);
	return err;
}
