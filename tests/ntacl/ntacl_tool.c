// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ntacl-tool: proto/ntacl.c on the command line, for the interop case
 * (tests/vm/cases/ntacl-interop.sh) and for capturing fixtures.
 *
 *   ntacl-tool encode SD_HEX PATH    the security.NTACL value for PATH's
 *                                    current owner, mode and POSIX ACLs
 *   ntacl-tool decode VALUE_HEX [PATH]
 *                                    version, hash type, hash_ok, result
 *                                    and the descriptor (hash checked
 *                                    against PATH's state when given)
 *
 * Hex may start with 0x (getfattr -e hex). Exit 0 on success, 3 when
 * decode says -EBADMSG, 2 on any other failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "proto/ntacl.h"
#include "posix_xattr.h"

enum { TOOL_MAX = KSMBD_NTACL_MAX + 4096, TOOL_ACES = 8191 };

static u8 in_buf[TOOL_MAX], out_buf[TOOL_MAX];
static struct ksmbd_posix_ace acl_ents[TOOL_ACES], def_ents[TOOL_ACES];

static int unhex(const char *h, u8 *out, u32 cap, u32 *len)
{
	size_t n;
	u32 i;

	if (!strncmp(h, "0x", 2) || !strncmp(h, "0X", 2))
		h += 2;
	n = strlen(h);
	if (n % 2 || n / 2 > cap)
		return -1;
	for (i = 0; i < n / 2; i++) {
		unsigned int v;

		if (sscanf(h + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (u8)v;
	}
	*len = (u32)(n / 2);
	return 0;
}

static void put_hex(const u8 *p, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* One POSIX ACL of path; *present false when the file has none. */
static int read_acl(const char *path, const char *name,
		    struct ksmbd_posix_ace *ents, u16 *count, bool *present)
{
	static u8 val[65536];
	ssize_t n = getxattr(path, name, val, sizeof(val));

	*present = false;
	*count = 0;
	if (n < 0)
		return errno == ENODATA || errno == EOPNOTSUPP ? 0 : -1;
	if (posix_xattr_parse(val, (u32)n, ents, TOOL_ACES, count))
		return -1;
	*present = true;
	return 0;
}

static int file_state(const char *path, struct ksmbd_ntacl_unix *u)
{
	struct stat st;
	bool has_acl, has_def = false;

	if (stat(path, &st)) {
		perror(path);
		return -1;
	}
	memset(u, 0, sizeof(*u));
	u->uid = st.st_uid;
	u->gid = st.st_gid;
	u->mode = st.st_mode;
	if (read_acl(path, "system.posix_acl_access", acl_ents, &u->acl_count,
		     &has_acl))
		return -1;
	if (S_ISDIR(st.st_mode) &&
	    read_acl(path, "system.posix_acl_default", def_ents, &u->def_count,
		     &has_def))
		return -1;
	u->acl = has_acl ? acl_ents : NULL;
	u->def = has_def ? def_ents : NULL;
	return 0;
}

static int do_encode(const char *hex, const char *path)
{
	struct ksmbd_ntacl_unix u;
	u32 len;
	int rc;

	if (unhex(hex, in_buf, sizeof(in_buf), &len) || file_state(path, &u))
		return 2;
	rc = ksmbd_ntacl_encode(in_buf, len, &u, out_buf, sizeof(out_buf));
	if (rc < 0) {
		fprintf(stderr, "encode: %s\n", strerror(-rc));
		return 2;
	}
	put_hex(out_buf, (u32)rc);
	return 0;
}

static int do_decode(const char *hex, const char *path)
{
	struct ksmbd_ntacl_info info;
	struct ksmbd_ntacl_unix u;
	u32 len;
	int rc;

	if (unhex(hex, in_buf, sizeof(in_buf), &len) ||
	    (path && file_state(path, &u)))
		return 2;
	rc = ksmbd_ntacl_decode(in_buf, len, path ? &u : NULL, out_buf,
				sizeof(out_buf), &info);
	printf("version %u\nhash_type %u\nhash_ok %d\nresult %d\n",
	       info.version, info.hash_type, info.hash_ok, rc < 0 ? rc : 0);
	if (rc < 0)
		return rc == -EBADMSG ? 3 : 2;
	printf("sd ");
	put_hex(out_buf, (u32)rc);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "encode"))
		return do_encode(argv[2], argv[3]);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "decode"))
		return do_decode(argv[2], argc == 4 ? argv[3] : NULL);
	fprintf(stderr, "usage: ntacl-tool encode SD_HEX PATH\n"
		"       ntacl-tool decode VALUE_HEX [PATH]\n");
	return 2;
}
