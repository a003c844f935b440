// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libksmbdstats: load/attach the programs through the skeleton, or open
 * the maps `ksmbd-lat --pin` left in bpffs; copy the maps into snapshots;
 * reset; pin and unpin.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libksmbdstats.h"
#include "ksmbd_stats.skel.h"

#define BPF_FS_MAGIC_NR		0xcafe4a11
#define VMLINUX_BTF		"/sys/kernel/btf/vmlinux"

/* The statistics maps a reader needs, by their names in the object. */
enum { M_CLIENTS, M_CMDS, M_SHARES, M_GLOBAL, M_COUNT };
static const char *const map_names[M_COUNT] = {
	[M_CLIENTS] = "clients",
	[M_CMDS] = "client_cmds",
	[M_SHARES] = "shares",
	[M_GLOBAL] = "global",
};

struct ksmbd_stats {
	struct ksmbd_stats_bpf *skel;	/* NULL for a pinned handle */
	int fd[M_COUNT];
};

static int set_err(char *err, size_t len, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return code;
}

static int libbpf_print_stderr(enum libbpf_print_level level,
			       const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

static int libbpf_print_none(enum libbpf_print_level level, const char *fmt,
			     va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static struct ksmbd_stats *handle_alloc(void)
{
	struct ksmbd_stats *s = calloc(1, sizeof(*s));

	if (s)
		for (int i = 0; i < M_COUNT; i++)
			s->fd[i] = -1;
	return s;
}

/* The environment checks, each with its own line (see the header). */
static int probe_env(const char *btf_path, char *err, size_t errlen)
{
	if (access(VMLINUX_BTF, R_OK))
		return set_err(err, errlen, -ENOSYS,
			       "kernel has no BTF (%s missing): BPF tools need CONFIG_DEBUG_INFO_BTF",
			       VMLINUX_BTF);
	if (access(btf_path, R_OK) && access("/sys/module/ksmbd", F_OK))
		return set_err(err, errlen, -ENOENT, "ksmbd module not loaded");
	/* Loaded without BTF: a DKMS build that found no BTF of its kernel. */
	if (access(btf_path, R_OK))
		return set_err(err, errlen, -ENOENT,
			       "the ksmbd module has no BTF (%s missing): rebuild it with pahole (package dwarves) and its kernel's BTF; the build log says what was missing",
			       btf_path);
	if (geteuid())
		return set_err(err, errlen, -EPERM,
			       "not permitted: run as root (CAP_BPF and CAP_PERFMON)");
	return 0;
}

static int load_error(int ret, char *err, size_t errlen)
{
	if (ret == -ENOSYS)
		return set_err(err, errlen, ret, "kernel has no BPF support");
	if (ret == -EPERM)
		return set_err(err, errlen, ret,
			       "not permitted: run as root (CAP_BPF and CAP_PERFMON)");
	return set_err(err, errlen, ret,
		       "failed to load BPF programs: %s (run with -v for the verifier log)",
		       strerror(-ret));
}

int ksmbd_stats_open(struct ksmbd_stats **out,
		     const struct ksmbd_stats_opts *opts, char *err,
		     size_t errlen)
{
	const char *btf = opts && opts->btf_path ? opts->btf_path :
			  KSMBD_STATS_MODULE_BTF;
	struct ksmbd_stats *s;
	int ret;

	*out = NULL;
	ret = probe_env(btf, err, errlen);
	if (ret)
		return ret;
	libbpf_set_print(opts && opts->verbose ? libbpf_print_stderr :
			 libbpf_print_none);
	s = handle_alloc();
	if (!s)
		return set_err(err, errlen, -ENOMEM, "out of memory");
	s->skel = ksmbd_stats_bpf__open();
	if (!s->skel) {
		ret = set_err(err, errlen, -errno ? -errno : -EINVAL,
			      "failed to open BPF object: %s", strerror(errno));
		goto err_free_handle;
	}
	ret = ksmbd_stats_bpf__load(s->skel);
	if (ret) {
		ret = load_error(ret, err, errlen);
		goto err_destroy_skel;
	}
	ret = ksmbd_stats_bpf__attach(s->skel);
	if (ret) {
		ret = set_err(err, errlen, ret,
			      "failed to attach to the ksmbd tracepoints: %s",
			      strerror(-ret));
		goto err_destroy_skel;
	}
	s->fd[M_CLIENTS] = bpf_map__fd(s->skel->maps.clients);
	s->fd[M_CMDS] = bpf_map__fd(s->skel->maps.client_cmds);
	s->fd[M_SHARES] = bpf_map__fd(s->skel->maps.shares);
	s->fd[M_GLOBAL] = bpf_map__fd(s->skel->maps.global);
	*out = s;
	return 0;

err_destroy_skel:
	ksmbd_stats_bpf__destroy(s->skel);
err_free_handle:
	free(s);
	return ret;
}

int ksmbd_stats_open_pinned(struct ksmbd_stats **out, const char *dir,
			    char *err, size_t errlen)
{
	struct ksmbd_stats *s;
	char path[256];

	*out = NULL;
	dir = dir ? dir : KSMBD_STATS_PIN_DIR;
	s = handle_alloc();
	if (!s)
		return set_err(err, errlen, -ENOMEM, "out of memory");
	for (int i = 0; i < M_COUNT; i++) {
		int e;

		snprintf(path, sizeof(path), "%s/%s", dir, map_names[i]);
		s->fd[i] = bpf_obj_get(path);
		if (s->fd[i] >= 0)
			continue;
		e = errno;
		ksmbd_stats_close(s);
		if (e == EPERM || e == EACCES)
			return set_err(err, errlen, -EPERM,
				       "not permitted: run as root (CAP_BPF and CAP_PERFMON)");
		return set_err(err, errlen, -ENOENT,
			       "nothing pinned under %s (run ksmbd-lat --pin): %s",
			       dir, strerror(e));
	}
	*out = s;
	return 0;
}

int ksmbd_stats_open_auto(struct ksmbd_stats **out,
			  const struct ksmbd_stats_opts *opts, char *err,
			  size_t errlen)
{
	struct stat st;
	int ret;

	if (!stat(KSMBD_STATS_PIN_DIR, &st) && S_ISDIR(st.st_mode)) {
		ret = ksmbd_stats_open_pinned(out, NULL, err, errlen);
		if (ret != -ENOENT)
			return ret;
	}
	return ksmbd_stats_open(out, opts, err, errlen);
}

bool ksmbd_stats_is_pinned(const struct ksmbd_stats *s)
{
	return !s->skel;
}

void ksmbd_stats_close(struct ksmbd_stats *s)
{
	if (!s)
		return;
	if (s->skel) {
		/* The map fds belong to the skeleton. */
		ksmbd_stats_bpf__destroy(s->skel);
	} else {
		for (int i = 0; i < M_COUNT; i++)
			if (s->fd[i] >= 0)
				close(s->fd[i]);
	}
	free(s);
}

/* ---- pinning ---- */

static int ensure_bpffs(const char *dir, char *err, size_t errlen)
{
	struct statfs st;

	if (statfs("/sys/fs/bpf", &st) == 0 &&
	    (unsigned long)st.f_type == BPF_FS_MAGIC_NR)
		goto mkdir_dir;
	if (mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700"))
		return set_err(err, errlen, -errno,
			       "/sys/fs/bpf is not a bpf filesystem and mounting one failed: %s",
			       strerror(errno));
mkdir_dir:
	if (mkdir(dir, 0700) && errno != EEXIST)
		return set_err(err, errlen, -errno, "cannot create %s: %s",
			       dir, strerror(errno));
	return 0;
}

static int pin_maps(struct ksmbd_stats *s, const char *dir, char *err,
		    size_t errlen)
{
	struct bpf_map *map;
	char path[256];

	bpf_object__for_each_map(map, s->skel->obj) {
		int ret;

		/* .bss holds the programs' zero initialisers only. */
		if (bpf_map__is_internal(map))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, bpf_map__name(map));
		ret = bpf_map__pin(map, path);
		if (ret)
			return set_err(err, errlen, ret, "failed to pin %s: %s",
				       path, strerror(-ret));
	}
	return 0;
}

/* bpftool 7.1 cannot autoattach, so the links are pinned for it. */
static int pin_progs_links(struct ksmbd_stats *s, const char *dir, char *err,
			   size_t errlen)
{
	const struct bpf_object_skeleton *sk = s->skel->skeleton;
	char path[256];

	for (int i = 0; i < sk->prog_cnt; i++) {
		struct bpf_link *link = *sk->progs[i].link;
		int ret;

		snprintf(path, sizeof(path), "%s/prog_%s", dir,
			 sk->progs[i].name);
		ret = bpf_program__pin(*sk->progs[i].prog, path);
		if (!ret && link) {
			snprintf(path, sizeof(path), "%s/link_%s", dir,
				 sk->progs[i].name);
			ret = bpf_link__pin(link, path);
		}
		if (ret)
			return set_err(err, errlen, ret, "failed to pin %s: %s",
				       path, strerror(-ret));
	}
	return 0;
}

int ksmbd_stats_pin(struct ksmbd_stats *s, const char *dir, char *err,
		    size_t errlen)
{
	int ret;

	dir = dir ? dir : KSMBD_STATS_PIN_DIR;
	if (!s->skel)
		return set_err(err, errlen, -EINVAL,
			       "already pinned: this handle reads %s", dir);
	ret = ensure_bpffs(dir, err, errlen);
	if (!ret)
		ret = pin_maps(s, dir, err, errlen);
	if (!ret)
		ret = pin_progs_links(s, dir, err, errlen);
	if (ret)
		ksmbd_stats_unpin(dir, NULL, 0);
	return ret;
}

int ksmbd_stats_unpin(const char *dir, char *err, size_t errlen)
{
	struct dirent *de;
	char path[512];
	int ret = 0;
	DIR *d;

	dir = dir ? dir : KSMBD_STATS_PIN_DIR;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 :
		       set_err(err, errlen, -errno, "cannot open %s: %s", dir,
			       strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path) && !ret)
			ret = set_err(err, errlen, -errno, "cannot remove %s: %s",
				      path, strerror(errno));
	}
	closedir(d);
	if (!ret && rmdir(dir))
		ret = set_err(err, errlen, -errno, "cannot remove %s: %s", dir,
			      strerror(errno));
	return ret;
}

static void status_line(FILE *f, const char *dir, const char *name)
{
	char path[512];
	union {
		struct bpf_map_info map;
		struct bpf_prog_info prog;
		struct bpf_link_info link;
	} info;
	__u32 len = sizeof(info);
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = bpf_obj_get(path);
	memset(&info, 0, sizeof(info));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len)) {
		fprintf(f, "%-28s unreadable: %s\n", name, strerror(errno));
	} else if (!strncmp(name, "link_", 5)) {
		fprintf(f, "%-28s link id %u prog id %u\n", name, info.link.id,
			info.link.prog_id);
	} else if (!strncmp(name, "prog_", 5)) {
		fprintf(f, "%-28s prog id %u run_cnt %llu\n", name,
			info.prog.id, (unsigned long long)info.prog.run_cnt);
	} else {
		fprintf(f, "%-28s map id %u max_entries %u\n", name,
			info.map.id, info.map.max_entries);
	}
	if (fd >= 0)
		close(fd);
}

int ksmbd_stats_pin_status(const char *dir, FILE *f, char *err,
			   size_t errlen)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	dir = dir ? dir : KSMBD_STATS_PIN_DIR;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 :
		       set_err(err, errlen, -errno, "cannot open %s: %s", dir,
			       strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		status_line(f, dir, de->d_name);
		n++;
	}
	closedir(d);
	return n;
}

/* ---- reading ---- */

/*
 * Copy every entry of a hash map into rows of row_size bytes: the key at
 * offset 0, the value at val_off. A concurrent delete can restart the key
 * walk, so the walk is capped at max entries and duplicates are dropped
 * after sorting (by the caller). The buffer grows with the rows found:
 * room for max rows would be zeroed on every read (tens of MB a second
 * for the per-command map), which was most of a 1-second observer's CPU.
 */
static int dump_map(int fd, size_t key_size, size_t val_off, size_t row_size,
		    size_t max, void **rows, size_t *nr)
{
	unsigned char key[sizeof(struct ksmbd_client_cmd_key) + 64];
	const void *prev = NULL;
	unsigned char *buf = NULL, *row;
	size_t n = 0, cap = 0;

	while (n < max && !bpf_map_get_next_key(fd, prev, key)) {
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			unsigned char *nbuf;

			if (ncap > max)
				ncap = max;
			nbuf = realloc(buf, ncap * row_size);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
			cap = ncap;
		}
		row = buf + n * row_size;
		memset(row, 0, row_size);
		memcpy(row, key, key_size);
		prev = row;
		/* Evicted since get_next_key: skip it, keep walking. */
		if (bpf_map_lookup_elem(fd, key, row + val_off))
			continue;
		n++;
	}
	if (!buf)
		buf = calloc(1, row_size);	/* callers free rows, even empty */
	if (!buf)
		return -ENOMEM;
	*rows = buf;
	*nr = n;
	return 0;
}

static size_t dedup(void *rows, size_t n, size_t row_size, size_t key_size)
{
	unsigned char *r = rows;
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		if (out && !memcmp(r + (out - 1) * row_size, r + i * row_size,
				   key_size))
			continue;
		if (out != i)
			memcpy(r + out * row_size, r + i * row_size, row_size);
		out++;
	}
	return out;
}

#define DUMP(s, m, snap, field, nfield, type, max)			\
	dump_map((s)->fd[m], sizeof(((type *)0)->key),			\
		 offsetof(type, val), sizeof(type), (max),		\
		 (void **)&(snap)->field, &(snap)->nfield)

int ksmbd_stats_read(struct ksmbd_stats *s, struct ksmbd_stats_snapshot *snap,
		     char *err, size_t errlen)
{
	struct timespec ts;
	__u32 zero = 0;
	int ret;

	memset(snap, 0, sizeof(*snap));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snap->taken_ns = (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
	if (bpf_map_lookup_elem(s->fd[M_GLOBAL], &zero, &snap->global))
		return set_err(err, errlen, -errno, "cannot read map global: %s",
			       strerror(errno));
	/*
	 * Commands before clients. ksmbd_request_done inserts a client's
	 * row before its command rows, so a command row read here has its
	 * client row in the map when the clients are read next. Read the
	 * other way round, a client's first request could land between the
	 * two walks: its command row read, its client row not, and readers
	 * that list commands under clients would never show that request.
	 */
	ret = DUMP(s, M_CMDS, snap, cmds, nr_cmds, struct ksmbd_stats_cmd_row,
		   KSMBD_STATS_MAX_CLIENT_CMDS);
	if (!ret)
		ret = DUMP(s, M_CLIENTS, snap, clients, nr_clients,
			   struct ksmbd_stats_client_row,
			   KSMBD_STATS_MAX_CLIENTS);
	if (!ret)
		ret = DUMP(s, M_SHARES, snap, shares, nr_shares,
			   struct ksmbd_stats_share_row, KSMBD_STATS_MAX_SHARES);
	if (ret) {
		ksmbd_stats_snapshot_free(snap);
		return set_err(err, errlen, ret, "out of memory");
	}
	ksmbd_stats_snapshot_sort(snap);
	snap->nr_clients = dedup(snap->clients, snap->nr_clients,
				 sizeof(*snap->clients),
				 sizeof(snap->clients->key));
	snap->nr_cmds = dedup(snap->cmds, snap->nr_cmds, sizeof(*snap->cmds),
			      sizeof(snap->cmds->key));
	snap->nr_shares = dedup(snap->shares, snap->nr_shares,
				sizeof(*snap->shares),
				sizeof(snap->shares->key));
	/* A client row evicted (LRU) or reset while its commands stayed. */
	if (ksmbd_stats_snapshot_complete(snap)) {
		ksmbd_stats_snapshot_free(snap);
		return set_err(err, errlen, -ENOMEM, "out of memory");
	}
	return 0;
}

/* Delete every key; collected first because deleting breaks the walk. */
static int clear_map(int fd, size_t key_size, size_t max)
{
	unsigned char *keys = calloc(max, key_size);
	const void *prev = NULL;
	size_t n = 0;

	if (!keys)
		return -ENOMEM;
	while (n < max && !bpf_map_get_next_key(fd, prev, keys + n * key_size)) {
		prev = keys + n * key_size;
		n++;
	}
	for (size_t i = 0; i < n; i++)
		bpf_map_delete_elem(fd, keys + i * key_size);
	free(keys);
	return 0;
}

int ksmbd_stats_reset(struct ksmbd_stats *s, char *err, size_t errlen)
{
	struct ksmbd_global_val zero_val = { 0 };
	__u32 zero = 0;
	int ret;

	ret = clear_map(s->fd[M_CLIENTS], sizeof(struct ksmbd_client_key),
			KSMBD_STATS_MAX_CLIENTS);
	if (!ret)
		ret = clear_map(s->fd[M_CMDS],
				sizeof(struct ksmbd_client_cmd_key),
				KSMBD_STATS_MAX_CLIENT_CMDS);
	if (!ret)
		ret = clear_map(s->fd[M_SHARES], sizeof(struct ksmbd_share_key),
				KSMBD_STATS_MAX_SHARES);
	if (ret)
		return set_err(err, errlen, ret, "out of memory");
	if (bpf_map_update_elem(s->fd[M_GLOBAL], &zero, &zero_val, BPF_ANY))
		return set_err(err, errlen, -errno, "cannot reset map global: %s",
			       strerror(errno));
	return 0;
}
