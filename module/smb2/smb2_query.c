// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUERY_INFO (MS-SMB2 3.3.5.20): file, file system and security classes.
 *
 * Decode (ksmbd_query_info_decode), look the handle up, stat it once, then
 * encode the class into a bounded writer whose capacity is the smaller of
 * OutputBufferLength and what the response buffer has left. Size rules
 * (3.3.5.20.1-3): a buffer smaller than the class's minimum is
 * STATUS_INFO_LENGTH_MISMATCH (the whole structure of a fixed-size class;
 * for a variable one what Windows requires, fileinfo.h's *_MIN); variable
 * data that does not fit is cut and answered with STATUS_BUFFER_OVERFLOW; a security descriptor is never cut:
 * STATUS_BUFFER_TOO_SMALL with the size it needs.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include <linux/uidgid.h>
#include <linux/xattr.h>
#include "connection.h"
#include "dosattr.h"
#include "fattr.h"
#include "file.h"
#include "fileinfo.h"
#include "proto/decode.h"
#include "proto/encode.h"
#include "proto/utf16.h"
#include "ntacl_store.h"
#include "proto/sd_build.h"
#include "secdesc.h"
#include "server.h"
#include "share.h"
#include "shortname.h"
#include "smb2_dispatch.h"
#include "smb2_info.h"
#include "streams.h"
#include "tree.h"
#include "vfs.h"
#include "vfs_name.h"

/* Everything a class encoder may need. */
struct qinfo {
	struct ksmbd_smb2_ctx *ctx;
	struct ksmbd_file *fp;
	const struct ksmbd_query_info_req *rq;
	struct kstat st;
	struct ksmbd_fattr a;
	struct ksmbd_wbuf w;	/* the OutputBuffer */
	u32 need;		/* bytes the whole answer needs */
};

/* ---- File classes ---- */

/*
 * UTF-16 of "\" + the share-relative name with '\' separators, then
 * ":" + stream when one is given. Takes name (kfree'd here).
 */
static u8 *name16(char *name, const char *stream, u32 *len)
{
	u32 n, i, cap;
	u8 *out;
	int ret;

	if (!name)
		return NULL;
	n = strlen(name);
	cap = 2 * (n + 1) + 2 + (stream ? 2 * (strlen(stream) + 1) : 0);
	out = kmalloc(cap, GFP_KERNEL);
	if (!out)
		goto out_free;
	put_unaligned_le16('\\', out);
	ret = ksmbd_utf8_to_utf16(name, n, out + 2, cap - 2);
	if (ret < 0) {
		kfree(out);
		out = NULL;
		goto out_free;
	}
	*len = 2 + ret;
	for (i = 2; i < *len; i += 2)
		if (get_unaligned_le16(out + i) == '/')
			put_unaligned_le16('\\', out + i);
	if (stream) {
		put_unaligned_le16(':', out + *len);
		ret = ksmbd_utf8_to_utf16(stream, strlen(stream), out + *len + 2,
					  cap - *len - 2);
		if (ret < 0) {
			kfree(out);
			out = NULL;
			goto out_free;
		}
		*len += 2 + ret;
	}
out_free:
	kfree(name);
	return out;
}

static u8 *full_name16(struct ksmbd_file *fp, u32 *len)
{
	return name16(ksmbd_file_name_dup(fp, GFP_KERNEL), NULL, len);
}

static int q_all(struct qinfo *q)
{
	struct ksmbd_fileinfo_handle h = {
		.access_flags = q->fp->daccess,
		.position = READ_ONCE(q->fp->position),
		.mode = READ_ONCE(q->fp->mode),
	};
	u8 *name = full_name16(q->fp, &h.name16_len);

	if (!name)
		return -ENOMEM;
	h.name16 = name;
	q->need = ksmbd_fileinfo_all(&q->w, &q->a, &h);
	kfree(name);
	return 0;
}

/*
 * FileNormalizedNameInformation (SMB 3.1.1 only, MS-SMB2 3.3.5.20.1): the
 * share-relative path without a leading '\', empty for the root, spelled
 * as stored (each component and the stream name), whatever case the open
 * used; a stream handle's ends in ":name" (no ":$DATA").
 */
static int q_normalized(struct qinfo *q)
{
	const char *stream = q->fp->stream;
	u8 *name;
	u32 len;

	if (q->ctx->conn->neg.dialect != SMB311_DIALECT)
		return -EOPNOTSUPP;
	if (stream)
		stream += KSMBD_STREAM_XATTR_PREFIX_LEN;
	name = name16(ksmbd_file_stored_name(q->fp), stream, &len);
	if (!name)
		return -ENOMEM;
	q->need = ksmbd_fileinfo_name(&q->w, name + 2, len - 2);
	kfree(name);
	return 0;
}

static bool is_user_ea(const char *name)
{
	return !strncmp(name, XATTR_USER_PREFIX, XATTR_USER_PREFIX_LEN) &&
	       strcmp(name, KSMBD_DOSATTR_XATTR) &&
	       strncmp(name, "user.DosStream.", 15) &&
	       strncmp(name, KSMBD_STREAM_XATTR_PREFIX,
		       KSMBD_STREAM_XATTR_PREFIX_LEN) &&
	       name[XATTR_USER_PREFIX_LEN];
}

/*
 * Walk the user.* EAs: call fn for each with its value. The list and a
 * value buffer are allocated here and bounded by XATTR_LIST_MAX / SIZE_MAX.
 */
static int for_each_ea(struct ksmbd_file *fp,
		       int (*fn)(void *arg, const char *name, const void *v,
				 u32 vlen),
		       void *arg)
{
	char *list, *p, *val;
	ssize_t n, vl;
	int ret = 0;

	n = ksmbd_vfs_listxattr(fp, NULL, 0);
	if (n <= 0)
		return n == -EOPNOTSUPP ? 0 : (int)n;
	n = min_t(ssize_t, n, XATTR_LIST_MAX);
	list = kvmalloc(n, GFP_KERNEL);
	val = kvmalloc(XATTR_SIZE_MAX, GFP_KERNEL);
	if (!list || !val) {
		ret = -ENOMEM;
		goto out_free;
	}
	n = ksmbd_vfs_listxattr(fp, list, n);
	if (n < 0) {
		ret = (int)n;
		goto out_free;
	}
	for (p = list; p < list + n && !ret; p += strnlen(p, list + n - p) + 1) {
		if (!is_user_ea(p))
			continue;
		vl = ksmbd_vfs_getxattr(fp, p, val, XATTR_SIZE_MAX);
		if (vl < 0)
			continue;	/* removed meanwhile */
		ret = fn(arg, p + XATTR_USER_PREFIX_LEN, val, (u32)vl);
	}
out_free:
	kvfree(val);
	kvfree(list);
	return ret;
}

/* FILE_FULL_EA_INFORMATION entry size, padded as in a chain */
static u32 ea_entry_size(u32 nlen, u32 vlen)
{
	return ALIGN(8 + nlen + 1 + vlen, 4);
}

static int ea_size_fn(void *arg, const char *name, const void *v, u32 vlen)
{
	u32 *size = arg;
	u32 nlen = strlen(name);

	/* EaNameLength is a byte and EaValueLength 16 bits */
	if (nlen <= 255 && vlen <= U16_MAX)
		*size += ea_entry_size(nlen, vlen);
	return 0;
}

static int q_ea(struct qinfo *q)
{
	u32 size = 0;
	int ret = for_each_ea(q->fp, ea_size_fn, &size);

	if (ret)
		return ret;
	ksmbd_wbuf_put_le32(&q->w, size);
	return 0;
}

struct ea_out {
	struct qinfo *q;
	const struct ksmbd_buf *want;	/* FILE_GET_EA_INFORMATION list or empty */
	u32 last;			/* offset of the previous entry */
	bool any, cut;
};

/* Is name in the client's FILE_GET_EA_INFORMATION list (or no list)? */
static bool ea_wanted(const struct ksmbd_buf *want, const char *name)
{
	u32 pos = 0, next, nlen = strlen(name);
	struct ksmbd_buf n;

	if (!want->len)
		return true;
	for (;;) {
		if (ksmbd_get_ea_entry(want, pos, &n, &next))
			return false;
		if (n.len == nlen &&
		    !strncasecmp((const char *)n.p, name, n.len))
			return true;
		if (!next)
			return false;
		pos += next;
	}
}

static int ea_put_fn(void *arg, const char *name, const void *v, u32 vlen)
{
	struct ea_out *o = arg;
	struct ksmbd_wbuf *w = &o->q->w;
	u32 nlen = strlen(name), at, size;

	if (nlen > 255 || vlen > U16_MAX || !ea_wanted(o->want, name))
		return 0;
	/* only the entries before another are padded: a list whose last
	 * entry fits is whole (not BUFFER_OVERFLOW) */
	size = 8 + nlen + 1 + vlen;
	at = ALIGN(w->len, 4);
	o->q->need = max(o->q->need, at + size);
	if (o->cut || !ksmbd_range_ok(w->cap, at, size)) {
		o->cut = true;
		return 0;
	}
	ksmbd_wbuf_pad(w, 4);
	if (o->any)
		put_unaligned_le32(at - o->last, w->p + o->last);
	o->last = at;
	o->any = true;
	ksmbd_wbuf_put_le32(w, 0);
	ksmbd_wbuf_put_u8(w, 0);		/* Flags */
	ksmbd_wbuf_put_u8(w, (u8)nlen);
	ksmbd_wbuf_put_le16(w, (u16)vlen);
	ksmbd_wbuf_put(w, name, nlen + 1);
	ksmbd_wbuf_put(w, v, vlen);
	return 0;
}

/*
 * FileFullEaInformation. The input buffer, when present, is a
 * FILE_GET_EA_INFORMATION list whose smallest entry has 4 + 1 + 1 + NUL
 * bytes (bug class 3: read before its length was checked).
 */
static int q_full_ea(struct qinfo *q)
{
	struct ea_out o = { .q = q, .want = &q->rq->input };
	int ret;

	if (q->rq->input.len && q->rq->input.len < 7)
		return -EINVAL;
	q->need = 0;
	ret = for_each_ea(q->fp, ea_put_fn, &o);
	if (ret)
		return ret;
	if (!o.any)
		return o.cut ? -KSMBD_EINFO_LENGTH : -ENODATA;
	return 0;
}

static int q_fixed(struct qinfo *q)
{
	switch (q->rq->info_class) {
	case FILE_BASIC_INFORMATION:
		ksmbd_fileinfo_basic(&q->w, &q->a);
		break;
	case FILE_STANDARD_INFORMATION:
		ksmbd_fileinfo_standard(&q->w, &q->a);
		break;
	case FILE_INTERNAL_INFORMATION:
		ksmbd_fileinfo_internal(&q->w, &q->a);
		break;
	case FILE_ACCESS_INFORMATION:
		ksmbd_wbuf_put_le32(&q->w, q->fp->daccess);
		break;
	case FILE_POSITION_INFORMATION:
		ksmbd_wbuf_put_le64(&q->w, READ_ONCE(q->fp->position));
		break;
	case FILE_MODE_INFORMATION:
		ksmbd_wbuf_put_le32(&q->w, READ_ONCE(q->fp->mode));
		break;
	case FILE_ALIGNMENT_INFORMATION:
		ksmbd_wbuf_put_le32(&q->w, 0);
		break;
	case FILE_NETWORK_OPEN_INFORMATION:
		ksmbd_fileinfo_network_open(&q->w, &q->a);
		break;
	case FILE_ATTRIBUTE_TAG_INFORMATION:
		ksmbd_fileinfo_attribute_tag(&q->w, &q->a);
		break;
	case FILE_COMPRESSION_INFORMATION:
		ksmbd_fileinfo_compression(&q->w, &q->a);
		break;
	}
	q->need = q->w.len;
	return 0;
}

/*
 * FileAlternateNameInformation: the 8.3 name of the last component
 * (shortname.h); the share root has none.
 */
static int q_alt_name(struct qinfo *q)
{
	char *name = ksmbd_file_name_dup(q->fp, GFP_KERNEL);
	char sn[KSMBD_SHORT_NAME_MAX + 1];
	u8 sn16[2 * KSMBD_SHORT_NAME_MAX];
	const char *base;
	u32 n, i;

	if (!name)
		return -ENOMEM;
	base = strrchr(name, '/');
	base = base ? base + 1 : name;
	n = ksmbd_short_name(base, strlen(base), sn);
	kfree(name);
	if (!n)
		return -ENOENT;
	for (i = 0; i < n; i++)
		put_unaligned_le16((u8)sn[i], sn16 + 2 * i);
	q->need = ksmbd_fileinfo_name(&q->w, sn16, 2 * n);
	return 0;
}

static int q_stream(struct qinfo *q)
{
	q->need = ksmbd_stream_list(q->fp, &q->w);
	return 0;
}

struct file_class {
	u8 cls;
	u8 fixed;		/* bytes that must fit */
	u32 access;		/* granted access the class needs */
	int (*fill)(struct qinfo *q);
};

static const struct file_class file_classes[] = {
	{ FILE_BASIC_INFORMATION, FILE_BASIC_INFO_SIZE, FILE_READ_ATTRIBUTES, q_fixed },
	{ FILE_STANDARD_INFORMATION, FILE_STANDARD_INFO_SIZE, 0, q_fixed },
	{ FILE_INTERNAL_INFORMATION, FILE_INTERNAL_INFO_SIZE, 0, q_fixed },
	{ FILE_EA_INFORMATION, FILE_EA_INFO_SIZE, 0, q_ea },
	{ FILE_ACCESS_INFORMATION, FILE_ACCESS_INFO_SIZE, 0, q_fixed },
	{ FILE_POSITION_INFORMATION, FILE_POSITION_INFO_SIZE, 0, q_fixed },
	{ FILE_MODE_INFORMATION, FILE_MODE_INFO_SIZE, 0, q_fixed },
	{ FILE_ALIGNMENT_INFORMATION, FILE_ALIGNMENT_INFO_SIZE, 0, q_fixed },
	{ FILE_ALL_INFORMATION, FILE_ALL_INFO_MIN, FILE_READ_ATTRIBUTES, q_all },
	{ FILE_ALTERNATE_NAME_INFORMATION, FILE_ALTERNATE_NAME_INFO_MIN, 0,
	  q_alt_name },
	{ FILE_NETWORK_OPEN_INFORMATION, FILE_NETWORK_OPEN_INFO_SIZE,
	  FILE_READ_ATTRIBUTES, q_fixed },
	{ FILE_ATTRIBUTE_TAG_INFORMATION, FILE_ATTRIBUTE_TAG_INFO_SIZE,
	  FILE_READ_ATTRIBUTES, q_fixed },
	{ FILE_COMPRESSION_INFORMATION, FILE_COMPRESSION_INFO_SIZE, 0, q_fixed },
	{ FILE_STREAM_INFORMATION, FILE_STREAM_INFO_MIN, 0, q_stream },
	{ FILE_NORMALIZED_NAME_INFORMATION, FILE_NAME_INFO_MIN, 0, q_normalized },
	{ FILE_FULL_EA_INFORMATION, 0, FILE_READ_EA, q_full_ea },
};

/* MS-FSCC 2.4 documents classes 1..76; the rest are not classes at all. */
static u32 unknown_class_status(u8 cls, u8 max_documented)
{
	return cls && cls <= max_documented ? STATUS_NOT_SUPPORTED :
					      STATUS_INVALID_INFO_CLASS;
}

/* Standard information of a pipe, as Windows answers it. */
static u32 query_pipe(struct qinfo *q)
{
	if (q->rq->info_class != FILE_STANDARD_INFORMATION)
		return unknown_class_status(q->rq->info_class, 76);
	if (q->w.cap < FILE_STANDARD_INFO_SIZE)
		return STATUS_INFO_LENGTH_MISMATCH;
	q->a.allocation_size = 4096;
	q->a.nlink = 1;
	q->a.delete_pending = true;
	ksmbd_fileinfo_standard(&q->w, &q->a);
	return STATUS_SUCCESS;
}

/* A class's outcome, then the status the size rules give. */
static u32 size_status(struct qinfo *q, int ret)
{
	if (ret)
		return ksmbd_ntstatus_from_errno(ret);
	if (q->w.overflow)
		return STATUS_INFO_LENGTH_MISMATCH;
	return q->need > q->w.len ? STATUS_BUFFER_OVERFLOW : STATUS_SUCCESS;
}

static u32 query_file(struct qinfo *q)
{
	const struct file_class *c = NULL;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(file_classes); i++)
		if (file_classes[i].cls == q->rq->info_class)
			c = &file_classes[i];
	if (!c)
		return unknown_class_status(q->rq->info_class, 76);
	if (c->access && !(q->fp->daccess & c->access))
		return STATUS_ACCESS_DENIED;
	if (!q->rq->output_len || q->w.cap < c->fixed)
		return STATUS_INFO_LENGTH_MISMATCH;
	ret = ksmbd_fattr_of_file(q->fp, &q->st, &q->a);
	if (!ret)
		ret = c->fill(q);
	return size_status(q, ret);
}

/* ---- File system classes ---- */

static u32 share_serial(const char *name)
{
	u32 h = 2166136261u;

	/* FNV-1a: stable per share name, so clients see a stable volume */
	while (*name)
		h = (h ^ (u8)*name++) * 16777619u;
	return h;
}

static u32 query_fs(struct qinfo *q)
{
	static const u8 ntfs[] = { 'N', 0, 'T', 0, 'F', 0, 'S', 0 };
	const char *share = q->fp->tree->share->name;
	struct ksmbd_fsinfo f = { };
	struct kstatfs sfs;
	u8 label[2 * KSMBD_REQ_MAX_SHARE_NAME];
	int ret, n;

	ret = ksmbd_vfs_statfs(q->fp, &sfs);
	if (ret)
		return ksmbd_ntstatus_from_errno(ret);
	n = ksmbd_utf8_to_utf16(share, strlen(share), label, sizeof(label));
	f.label16 = label;
	f.label16_len = n > 0 ? n : 0;
	f.total_units = sfs.f_blocks;
	f.free_units = sfs.f_bfree;
	f.avail_units = sfs.f_bavail;
	f.bytes_per_sector = 512;
	f.sectors_per_unit = max_t(u32, sfs.f_bsize / 512, 1);
	f.name_max = sfs.f_namelen;
	f.serial = share_serial(share);
	/*
	 * What Samba answers for a Linux file system, less what we do not
	 * do: case-preserving, Unicode, hard links (SET_INFO FileLink) and
	 * EAs (user.*). Not FILE_CASE_SENSITIVE_SEARCH: lookups ignore case.
	 * The name is "NTFS", which Windows clients treat best.
	 */
	f.attributes = FILE_CASE_PRESERVED_NAMES | FILE_UNICODE_ON_DISK |
		       FILE_SUPPORTS_HARD_LINKS |
		       FILE_SUPPORTS_EXTENDED_ATTRIBUTES;
	if (ksmbd_stream_supported(q->fp->filp->f_path.dentry)) {
		f.attributes |= FILE_NAMED_STREAMS;
		/* FSCTL_SET_SPARSE keeps its attribute in user.DOSATTRIB. */
		if (ksmbd_fattr_stores_dos(q->fp))
			f.attributes |= FILE_SUPPORTS_SPARSE_FILES;
	}
	/* acl xattr: descriptors are stored, not derived from the mode */
	if (ksmbd_sd_stored_share(q->fp->tree))
		f.attributes |= FILE_PERSISTENT_ACLS;
	/* "share:fake_fscaps": what the administrator vouches for on top. */
	f.attributes |= ksmbd_server_conf.fake_fscaps;
	f.fsname16 = ntfs;
	f.fsname16_len = sizeof(ntfs);
	memcpy(f.object_id, &sfs.f_fsid, min(sizeof(sfs.f_fsid), sizeof(f.object_id)));

	switch (q->rq->info_class) {
	case FS_VOLUME_INFORMATION:
		if (q->w.cap < FS_VOLUME_INFO_MIN)
			return STATUS_INFO_LENGTH_MISMATCH;
		q->need = ksmbd_fsinfo_volume(&q->w, &f);
		break;
	case FS_SIZE_INFORMATION:
		ksmbd_fsinfo_size(&q->w, &f);
		break;
	case FS_DEVICE_INFORMATION:
		ksmbd_fsinfo_device(&q->w);
		break;
	case FS_ATTRIBUTE_INFORMATION:
		if (q->w.cap < FS_ATTRIBUTE_INFO_MIN)
			return STATUS_INFO_LENGTH_MISMATCH;
		q->need = ksmbd_fsinfo_attribute(&q->w, &f);
		break;
	case FS_FULL_SIZE_INFORMATION:
		ksmbd_fsinfo_full_size(&q->w, &f);
		break;
	case FS_CONTROL_INFORMATION:
		ksmbd_fsinfo_control(&q->w);
		break;
	case FS_OBJECT_ID_INFORMATION:
		ksmbd_fsinfo_object_id(&q->w, &f);
		break;
	case FS_SECTOR_SIZE_INFORMATION:
		ksmbd_fsinfo_sector_size(&q->w, &f);
		break;
	default:
		return unknown_class_status(q->rq->info_class, 14);
	}
	if (!q->need)
		q->need = q->w.len;
	return size_status(q, 0);
}

/* ---- Security ---- */

/* MS-SMB2 2.2.2 with an error context on 3.1.1: the size it needs. */
static void put_need_error(struct ksmbd_smb2_ctx *ctx, u32 need)
{
	struct ksmbd_wbuf *w = &ctx->body;
	bool v311 = ctx->conn->neg.dialect == SMB311_DIALECT;

	w->len = 0;
	w->overflow = false;
	ksmbd_wbuf_put_le16(w, SMB2_ERROR_RSP_SIZE);
	ksmbd_wbuf_put_u8(w, v311 ? 1 : 0);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le32(w, v311 ? 12 : 4);
	if (v311) {
		ksmbd_wbuf_put_le32(w, 4);	/* ErrorDataLength */
		ksmbd_wbuf_put_le32(w, 0);	/* ErrorId */
	}
	ksmbd_wbuf_put_le32(w, need);
}

/* A stored descriptor: the parts asked for, canonical (sd_build.h). */
static u32 query_stored(struct qinfo *q, const struct ksmbd_sd *sd, u32 want)
{
	int ret = ksmbd_sd_write_parts(&q->w, sd, want);

	if (ret < 0)
		return STATUS_INVALID_SECURITY_DESCR;
	q->need = ret;
	return q->w.overflow ? STATUS_BUFFER_TOO_SMALL : STATUS_SUCCESS;
}

static u32 query_security(struct qinfo *q)
{
	u32 want = q->rq->additional &
		   (KSMBD_OWNER_SECINFO | KSMBD_GROUP_SECINFO |
		    KSMBD_DACL_SECINFO | KSMBD_SACL_SECINFO);
	struct ksmbd_sd_held h;
	struct ksmbd_sd_unix u;
	u32 status;
	int ret;

	if ((want & KSMBD_SACL_SECINFO) &&
	    !(q->fp->daccess & FILE_ACCESS_SYSTEM_SECURITY))
		return STATUS_ACCESS_DENIED;
	if ((want & ~KSMBD_SACL_SECINFO) &&
	    !(q->fp->daccess & FILE_READ_CONTROL))
		return STATUS_ACCESS_DENIED;
	if (ksmbd_sd_stored_share(q->fp->tree)) {
		ret = ksmbd_sd_load(q->fp->filp->f_path.dentry, &h);
		if (ret)
			return ksmbd_ntstatus_from_errno(ret);
		if (h.stored) {
			status = query_stored(q, &h.sd, want);
			ksmbd_sd_held_free(&h);
			return status;
		}
		ksmbd_sd_held_free(&h);
	}
	ret = ksmbd_vfs_getattr(q->fp, &q->st);
	if (ret)
		return ksmbd_ntstatus_from_errno(ret);
	u.uid = from_kuid_munged(&init_user_ns, q->st.uid);
	u.gid = from_kgid_munged(&init_user_ns, q->st.gid);
	u.mode = q->st.mode & 0777;
	u.directory = S_ISDIR(q->st.mode);
	q->need = ksmbd_secdesc_build(&q->w, &u, want);
	if (q->w.overflow)
		return STATUS_BUFFER_TOO_SMALL;
	return STATUS_SUCCESS;
}

/* ---- The handler ---- */

static u32 query_dispatch(struct qinfo *q)
{
	if (q->fp->kind == KSMBD_FILE_PIPE)
		return q->rq->info_type == SMB2_0_INFO_FILE ? query_pipe(q) :
							 STATUS_NOT_SUPPORTED;
	switch (q->rq->info_type) {
	case SMB2_0_INFO_FILE:
		return query_file(q);
	case SMB2_0_INFO_FILESYSTEM:
		if (!q->rq->output_len)
			return STATUS_INFO_LENGTH_MISMATCH;
		return query_fs(q);
	case SMB2_0_INFO_SECURITY:
		return query_security(q);
	case SMB2_0_INFO_QUOTA:
		return STATUS_NOT_SUPPORTED;
	default:
		return STATUS_INVALID_PARAMETER;
	}
}

/* The answer did not fit the room the body had, but the client allows more. */
static bool wants_more_room(const struct qinfo *q, u32 status)
{
	if (q->w.cap >= q->rq->output_len)
		return false;
	switch (status) {
	case STATUS_BUFFER_TOO_SMALL:
		return q->need <= q->rq->output_len;
	case STATUS_BUFFER_OVERFLOW:
	case STATUS_INFO_LENGTH_MISMATCH:
		return true;
	default:
		return false;
	}
}

/*
 * Answer into the room the body has (a few KiB: most classes fit); an
 * answer that needs more runs again in room made for it, up to the
 * client's OutputBufferLength (queries change nothing, so running one
 * twice is safe). The buffer is sized from the answer, not from what
 * the client allows.
 */
static u32 query_sized(struct qinfo *q)
{
	struct ksmbd_wbuf *body = &q->ctx->body;
	u32 base = body->len, want, status;

	q->w = ksmbd_wbuf_make(body->p + base,
			       min(q->rq->output_len, body->cap - base));
	status = query_dispatch(q);
	if (!wants_more_room(q, status))
		return status;
	want = q->need > q->w.cap ? min(q->need, q->rq->output_len) :
				    q->rq->output_len;
	if (!ksmbd_smb2_body_room(q->ctx, base, want))
		return status;
	q->need = 0;
	q->w = ksmbd_wbuf_make(body->p + base,
			       min(q->rq->output_len, body->cap - base));
	return query_dispatch(q);
}

enum ksmbd_smb2_verdict ksmbd_smb2_query_info(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_wbuf *body = &ctx->body;
	struct ksmbd_query_info_req rq;
	struct qinfo q = { .ctx = ctx, .rq = &rq };
	u32 hdr_at;
	u8 *hdr;

	if (ksmbd_query_info_decode(ctx->req, &rq)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	q.fp = ksmbd_file_lookup(ksmbd_smb2_caller(ctx), rq.pid, rq.vid);
	if (!q.fp) {
		ctx->status = STATUS_FILE_CLOSED;
		return KSMBD_SMB2_REPLY;
	}
	hdr_at = body->len;
	if (!ksmbd_wbuf_reserve(body, SMB2_OUTPUT_BUFFER_RSP_SIZE - 1)) {
		ctx->status = STATUS_INSUFFICIENT_RESOURCES;
		goto out_put;
	}
	ctx->status = query_sized(&q);
	hdr = body->p + hdr_at;
	if (ctx->status == STATUS_BUFFER_TOO_SMALL) {
		put_need_error(ctx, q.need);
		goto out_put;
	}
	if (ksmbd_ntstatus_is_error(ctx->status)) {
		body->len = 0;
		goto out_put;
	}
	/* Raw: q.w wrote these bytes in place (its reserves zeroed them). */
	ksmbd_wbuf_reserve_raw(body, q.w.len);
	ksmbd_output_rsp_set(hdr, q.w.len);
	/* StructureSize 9 counts one byte of buffer: keep it when empty */
	if (!q.w.len)
		ksmbd_wbuf_put_u8(body, 0);
out_put:
	ksmbd_file_put(q.fp);
	return KSMBD_SMB2_REPLY;
}
