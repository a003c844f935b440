// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CREATE's decisions that need no file system (see create_rules.h).
 */
#include "create_rules.h"
#include "proto/ntstatus.h"

#define FILE_ACCESS_VALID	(FILE_ALL_ACCESS_MASK | \
				 FILE_ACCESS_SYSTEM_SECURITY | \
				 FILE_MAXIMUM_ALLOWED | FILE_GENERIC_ALL | \
				 FILE_GENERIC_EXECUTE | FILE_GENERIC_WRITE | \
				 FILE_GENERIC_READ)

static bool dir_disposition_ok(u32 disposition)
{
	/* MS-FSA 2.1.5.1: a directory cannot be superseded or overwritten. */
	return disposition == FILE_OPEN || disposition == FILE_CREATE ||
	       disposition == FILE_OPEN_IF;
}

u32 ksmbd_create_args_check(const struct ksmbd_create_args *a)
{
	if (a->impersonation_level > SMB2_IMPERSONATION_DELEGATE)
		return STATUS_BAD_IMPERSONATION_LEVEL;
	if (a->options & ~FILE_CREATE_OPTIONS_VALID)
		return STATUS_INVALID_PARAMETER;
	if ((a->options & FILE_DIRECTORY_FILE) &&
	    (a->options & FILE_NON_DIRECTORY_FILE))
		return STATUS_INVALID_PARAMETER;
	if (a->disposition > FILE_OVERWRITE_IF)
		return STATUS_INVALID_PARAMETER;
	if ((a->options & FILE_DIRECTORY_FILE) &&
	    !dir_disposition_ok(a->disposition))
		return STATUS_INVALID_PARAMETER;
	if (a->share_access & ~FILE_SHARE_ALL)
		return STATUS_INVALID_PARAMETER;
	/*
	 * Access before attributes: reserved access bits with an invalid
	 * attribute answer ACCESS_DENIED (smbtorture smb2.create.gentest).
	 * ACCESS_SYSTEM_SECURITY needs SeSecurityPrivilege (MS-SMB2 3.3.5.9),
	 * which only administrators of a share storing descriptors hold.
	 */
	if (a->desired_access & ~FILE_ACCESS_VALID)
		return STATUS_ACCESS_DENIED;
	if ((a->desired_access & FILE_ACCESS_SYSTEM_SECURITY) && !a->may_audit)
		return STATUS_PRIVILEGE_NOT_HELD;
	/*
	 * An SMB2 open must ask for something: no right at all is refused
	 * as Windows does (smbtorture smb2.create.gentest). SYNCHRONIZE
	 * alone is a right like another here: smb2.getinfo.getinfo_access
	 * opens with it (gentest, wanting it refused, fails with Samba too).
	 */
	if (!a->desired_access)
		return STATUS_ACCESS_DENIED;
	if (a->file_attributes & ~FILE_ATTRIBUTE_VALID_FLAGS)
		return STATUS_INVALID_PARAMETER;
	/* as Windows answers (smbtorture smb2.create.gentest) */
	if (a->options & (FILE_RESERVE_OPFILTER | FILE_OPEN_BY_FILE_ID |
			  FILE_CREATE_TREE_CONNECTION))
		return STATUS_NOT_SUPPORTED;
	if ((a->options & FILE_DELETE_ON_CLOSE) &&
	    !(a->desired_access & (FILE_DELETE | FILE_GENERIC_ALL |
				   FILE_MAXIMUM_ALLOWED)))
		return STATUS_ACCESS_DENIED;
	return STATUS_SUCCESS;
}

u32 ksmbd_access_map_generic(u32 access)
{
	u32 out = access & ~(FILE_GENERIC_ALL | FILE_GENERIC_EXECUTE |
			     FILE_GENERIC_WRITE | FILE_GENERIC_READ);

	if (access & FILE_GENERIC_READ)
		out |= FILE_GENERIC_READ_MASK;
	if (access & FILE_GENERIC_WRITE)
		out |= FILE_GENERIC_WRITE_MASK;
	if (access & FILE_GENERIC_EXECUTE)
		out |= FILE_GENERIC_EXEC_MASK;
	if (access & FILE_GENERIC_ALL)
		out |= FILE_ALL_ACCESS_MASK;
	return out;
}

u32 ksmbd_access_from_perms(bool may_read, bool may_write, bool may_exec,
			    bool may_delete)
{
	/* Anyone who can see a file may read its attributes. */
	u32 a = FILE_READ_ATTRIBUTES | FILE_READ_CONTROL | FILE_SYNCHRONIZE;

	if (may_read)
		a |= FILE_READ_DATA | FILE_READ_EA;
	if (may_write)
		a |= FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_WRITE_EA |
		     FILE_WRITE_ATTRIBUTES | FILE_DELETE_CHILD;
	if (may_exec)
		a |= FILE_EXECUTE;
	if (may_delete)
		a |= FILE_DELETE;
	return a;
}

bool ksmbd_access_shares(u32 access)
{
	return access & (FILE_READ_RIGHTS | FILE_WRITE_RIGHTS | FILE_DELETE);
}

/* Does an open with access need a share bit the other open withheld? */
static bool one_way_conflict(u32 access, u32 other_share)
{
	if ((access & FILE_READ_RIGHTS) && !(other_share & FILE_SHARE_READ))
		return true;
	if ((access & FILE_WRITE_RIGHTS) && !(other_share & FILE_SHARE_WRITE))
		return true;
	if ((access & FILE_DELETE) && !(other_share & FILE_SHARE_DELETE))
		return true;
	return false;
}

bool ksmbd_share_conflict(u32 old_access, u32 old_share, u32 new_access,
			  u32 new_share)
{
	/* Opens for attributes only neither check nor count. */
	if (!ksmbd_access_shares(old_access) || !ksmbd_access_shares(new_access))
		return false;
	return one_way_conflict(new_access, old_share) ||
	       one_way_conflict(old_access, new_share);
}

enum ksmbd_create_step ksmbd_create_step(u32 disposition, bool exists)
{
	switch (disposition) {
	case FILE_SUPERSEDE:
		return exists ? KSMBD_STEP_TRUNCATE : KSMBD_STEP_CREATE;
	case FILE_OPEN:
		return exists ? KSMBD_STEP_OPEN : KSMBD_STEP_FAIL_MISSING;
	case FILE_CREATE:
		return exists ? KSMBD_STEP_FAIL_EXISTS : KSMBD_STEP_CREATE;
	case FILE_OPEN_IF:
		return exists ? KSMBD_STEP_OPEN : KSMBD_STEP_CREATE;
	case FILE_OVERWRITE:
		return exists ? KSMBD_STEP_TRUNCATE : KSMBD_STEP_FAIL_MISSING;
	case FILE_OVERWRITE_IF:
		return exists ? KSMBD_STEP_TRUNCATE : KSMBD_STEP_CREATE;
	default:
		/* Refused by ksmbd_create_args_check() already. */
		return KSMBD_STEP_FAIL_MISSING;
	}
}

u32 ksmbd_create_action(u32 disposition, enum ksmbd_create_step step)
{
	switch (step) {
	case KSMBD_STEP_CREATE:
		return FILE_CREATED;
	case KSMBD_STEP_TRUNCATE:
		return disposition == FILE_SUPERSEDE ? FILE_SUPERSEDED :
						       FILE_OVERWRITTEN;
	default:
		return FILE_OPENED;
	}
}

/* Fixed part of one FILE_FULL_EA_INFORMATION entry. */
#define EA_HDR_SIZE	8

static int ea_entry(const struct ksmbd_buf *buf, u32 pos, u32 *next,
		    struct ksmbd_ea_entry *e)
{
	struct ksmbd_buf ent;
	u8 name_len, nul;
	u16 value_len;
	u32 size;

	if (!ksmbd_buf_sub(buf, pos, buf->len - pos, &ent) ||
	    !ksmbd_buf_get_le32(&ent, 0, next) ||
	    !ksmbd_buf_get_u8(&ent, 4, &e->flags) ||
	    !ksmbd_buf_get_u8(&ent, 5, &name_len) ||
	    !ksmbd_buf_get_le16(&ent, 6, &value_len))
		return -EINVAL;
	size = EA_HDR_SIZE + name_len + 1 + value_len;
	if (!name_len || size > ent.len)
		return -EINVAL;
	if (!ksmbd_buf_get_u8(&ent, EA_HDR_SIZE + name_len, &nul) || nul)
		return -EINVAL;
	if (*next && (*next < size || *next & 3 || *next >= ent.len))
		return -EINVAL;
	if (!ksmbd_buf_sub(&ent, EA_HDR_SIZE, name_len, &e->name) ||
	    !ksmbd_buf_sub(&ent, EA_HDR_SIZE + name_len + 1, value_len,
			   &e->value))
		return -EINVAL;
	return 0;
}

int ksmbd_ea_chain_check(const struct ksmbd_buf *buf)
{
	struct ksmbd_ea_entry e;
	u32 pos = 0;
	int n = 0, ret;

	if (!buf->len)
		return -EINVAL;
	while ((ret = ksmbd_ea_next(buf, &pos, &e)) > 0)
		n++;
	return ret < 0 ? ret : n;
}

int ksmbd_ea_next(const struct ksmbd_buf *buf, u32 *pos,
		  struct ksmbd_ea_entry *e)
{
	u32 next;

	/* pos == len marks the end (set after the last entry). */
	if (*pos >= buf->len)
		return 0;
	if (ea_entry(buf, *pos, &next, e))
		return -EINVAL;
	/* Each step moves forward by at least one entry: the walk ends. */
	*pos = next ? *pos + next : buf->len;
	return 1;
}

static bool ascii_prefix_ci(const struct ksmbd_buf *n, const char *prefix,
			    bool whole)
{
	u32 i, len = strlen(prefix);

	if (n->len < len || (whole && n->len != len))
		return false;
	for (i = 0; i < len; i++) {
		u8 a = n->p[i], b = prefix[i];

		if (a >= 'A' && a <= 'Z')
			a += 'a' - 'A';
		if (b >= 'A' && b <= 'Z')
			b += 'a' - 'A';
		if (a != b)
			return false;
	}
	return true;
}

bool ksmbd_ea_name_reserved(const struct ksmbd_buf *name)
{
	return memchr(name->p, 0, name->len) ||
	       ascii_prefix_ci(name, "DOSATTRIB", true) ||
	       ascii_prefix_ci(name, "DosStream.", false) ||
	       ascii_prefix_ci(name, "KsmbdStream.", false);
}
