// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fixed SMB2 responses and the create contexts CREATE answers with
 * (MS-SMB2 2.2.14, 2.2.14.2, 2.2.16). A writer that runs out of room
 * marks the buffer overflowed and the handler answers with an error.
 */
#include "encode.h"
#include "smb2.h"

/* Response contexts start right after the fixed response: 64 + 88. */
#define CREATE_RSP_CTX_OFFSET	(SMB2_HEADER_SIZE + sizeof(struct smb2_create_rsp))

static void put_ctx_header(struct ksmbd_wbuf *w, const char *tag,
			   u32 data_len, bool last)
{
	u32 total = ALIGN(24 + data_len, 8);

	ksmbd_wbuf_put_le32(w, last ? 0 : total);	/* Next */
	ksmbd_wbuf_put_le16(w, 16);			/* NameOffset */
	ksmbd_wbuf_put_le16(w, 4);			/* NameLength */
	ksmbd_wbuf_put_le16(w, 0);
	ksmbd_wbuf_put_le16(w, 24);			/* DataOffset */
	ksmbd_wbuf_put_le32(w, data_len);
	ksmbd_wbuf_put(w, tag, 4);
	ksmbd_wbuf_put_le32(w, 0);			/* pad to DataOffset */
}

/* The RqLs answer (MS-SMB2 2.2.14.2.10, v1 32 bytes, v2 52 bytes). */
static void put_lease_ctx(struct ksmbd_wbuf *w, const struct ksmbd_lease_rsp *g,
			  bool last)
{
	bool v2 = g->version == 2;

	put_ctx_header(w, "RqLs", v2 ? sizeof(struct smb2_create_lease_v2) :
		       sizeof(struct smb2_create_lease), last);
	ksmbd_wbuf_put(w, g->key, 16);
	ksmbd_wbuf_put_le32(w, g->state);
	ksmbd_wbuf_put_le32(w, v2 ? g->flags : g->flags &
			    SMB2_LEASE_FLAG_BREAK_IN_PROGRESS);
	ksmbd_wbuf_put_le64(w, 0);		/* LeaseDuration */
	if (!v2)
		return;
	ksmbd_wbuf_put(w, g->parent_key, 16);
	ksmbd_wbuf_put_le16(w, g->epoch);
	ksmbd_wbuf_put_le16(w, 0);
	ksmbd_wbuf_put_le32(w, 0);		/* pad to 8 */
}

/* DHnQ (2.2.14.2.3: 8 reserved bytes) or DH2Q (2.2.14.2.12) answer. */
static void put_durable_ctx(struct ksmbd_wbuf *w, bool v2, u32 timeout_ms,
			    bool last)
{
	put_ctx_header(w, v2 ? "DH2Q" : "DHnQ", 8, last);
	ksmbd_wbuf_put_le32(w, v2 ? timeout_ms : 0);
	ksmbd_wbuf_put_le32(w, 0);		/* Flags: never persistent */
}

enum { RSP_MXAC, RSP_QFID, RSP_LEASE, RSP_DURABLE, RSP_NR };

static u32 encode_contexts(struct ksmbd_wbuf *w, const struct ksmbd_create_rsp *r)
{
	bool want[RSP_NR] = {
		[RSP_MXAC] = r->mxac,
		[RSP_QFID] = r->qfid,
		[RSP_LEASE] = r->lease,
		[RSP_DURABLE] = r->durable != KSMBD_RSP_DH_NONE,
	};
	u32 start = w->len;
	int i, last = -1;

	for (i = 0; i < RSP_NR; i++)
		if (want[i])
			last = i;
	if (want[RSP_MXAC]) {
		put_ctx_header(w, "MxAc", 8, last == RSP_MXAC);
		ksmbd_wbuf_put_le32(w, 0);		/* QueryStatus: success */
		ksmbd_wbuf_put_le32(w, r->maximal_access);
	}
	if (want[RSP_QFID]) {
		put_ctx_header(w, "QFid", 32, last == RSP_QFID);
		ksmbd_wbuf_put_le64(w, r->disk_file_id);
		ksmbd_wbuf_put_le64(w, r->volume_id);
		ksmbd_wbuf_put_le64(w, 0);
		ksmbd_wbuf_put_le64(w, 0);
	}
	if (want[RSP_LEASE])
		put_lease_ctx(w, &r->ls, last == RSP_LEASE);
	if (want[RSP_DURABLE])
		put_durable_ctx(w, r->durable == KSMBD_RSP_DH_V2,
				r->durable_timeout_ms, last == RSP_DURABLE);
	return w->len - start;
}

void ksmbd_create_rsp_encode(struct ksmbd_wbuf *w,
			     const struct ksmbd_create_rsp *r)
{
	const struct ksmbd_fattr *a = r->a;
	u32 ctx_len_at, ctx_len;

	ksmbd_wbuf_put_le16(w, SMB2_CREATE_RSP_SIZE);
	ksmbd_wbuf_put_u8(w, r->oplock_level);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le32(w, r->action);
	ksmbd_put_file_times(w, a);
	ksmbd_wbuf_put_le64(w, a->allocation_size);
	ksmbd_wbuf_put_le64(w, a->end_of_file);
	ksmbd_wbuf_put_le32(w, a->attributes);
	ksmbd_wbuf_put_le32(w, 0);
	ksmbd_wbuf_put_le64(w, r->persistent_id);
	ksmbd_wbuf_put_le64(w, r->volatile_id);
	ctx_len_at = w->len;
	ksmbd_wbuf_put_le32(w, 0);
	ksmbd_wbuf_put_le32(w, 0);
	ctx_len = encode_contexts(w, r);
	if (ctx_len && !w->overflow) {
		put_unaligned_le32(CREATE_RSP_CTX_OFFSET, w->p + ctx_len_at);
		put_unaligned_le32(ctx_len, w->p + ctx_len_at + 4);
	}
}

void ksmbd_close_rsp_encode(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a)
{
	ksmbd_wbuf_put_le16(w, SMB2_CLOSE_RSP_SIZE);
	if (!a) {
		ksmbd_wbuf_put_le16(w, 0);
		ksmbd_wbuf_put_le32(w, 0);
		/* Times, sizes and attributes: all zero without POSTQUERY. */
		ksmbd_wbuf_reserve(w, 52);
		return;
	}
	ksmbd_wbuf_put_le16(w, SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB);
	ksmbd_wbuf_put_le32(w, 0);
	ksmbd_put_file_times(w, a);
	ksmbd_wbuf_put_le64(w, a->allocation_size);
	ksmbd_wbuf_put_le64(w, a->end_of_file);
	ksmbd_wbuf_put_le32(w, a->attributes);
}

/* ---- Fixed responses finished after their payload ---- */

/* The data right after the fixed part: 64 + 16. */
#define READ_RSP_DATA_OFFSET	(SMB2_HEADER_SIZE + sizeof(struct smb2_read_rsp))
/* IOCTL input and output both start after the fixed part: 64 + 48. */
#define IOCTL_RSP_OUT_OFFSET	(SMB2_HEADER_SIZE + sizeof(struct smb2_ioctl_rsp))

void ksmbd_read_rsp_encode(struct ksmbd_wbuf *w)
{
	ksmbd_wbuf_put_le16(w, SMB2_READ_RSP_SIZE);
	ksmbd_wbuf_put_u8(w, READ_RSP_DATA_OFFSET);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le32(w, 0);		/* DataLength, below */
	ksmbd_wbuf_put_le32(w, 0);		/* DataRemaining */
	ksmbd_wbuf_put_le32(w, 0);		/* Flags */
}

void ksmbd_read_rsp_set_length(struct ksmbd_wbuf *w, u32 data_len)
{
	put_unaligned_le32(data_len,
			   w->p + offsetof(struct smb2_read_rsp, data_length));
}

void ksmbd_write_rsp_encode(struct ksmbd_wbuf *w, u32 count)
{
	ksmbd_wbuf_put_le16(w, SMB2_WRITE_RSP_SIZE);
	ksmbd_wbuf_put_le16(w, 0);
	ksmbd_wbuf_put_le32(w, count);
	ksmbd_wbuf_put_le32(w, 0);		/* Remaining */
	ksmbd_wbuf_put_le16(w, 0);		/* WriteChannelInfoOffset */
	ksmbd_wbuf_put_le16(w, 0);
}

void ksmbd_ioctl_rsp_encode(struct ksmbd_wbuf *w, u32 ctl_code, u64 pid,
			    u64 vid)
{
	ksmbd_wbuf_put_le16(w, SMB2_IOCTL_RSP_SIZE);
	ksmbd_wbuf_put_le16(w, 0);
	ksmbd_wbuf_put_le32(w, ctl_code);
	ksmbd_wbuf_put_le64(w, pid);
	ksmbd_wbuf_put_le64(w, vid);
	ksmbd_wbuf_put_le32(w, IOCTL_RSP_OUT_OFFSET);	/* InputOffset */
	ksmbd_wbuf_put_le32(w, 0);			/* InputCount */
	ksmbd_wbuf_put_le32(w, IOCTL_RSP_OUT_OFFSET);	/* OutputOffset */
	ksmbd_wbuf_put_le32(w, 0);			/* OutputCount, below */
	ksmbd_wbuf_put_le32(w, 0);			/* Flags */
	ksmbd_wbuf_put_le32(w, 0);
}

void ksmbd_ioctl_rsp_set_output(struct ksmbd_wbuf *w, u32 out_len)
{
	put_unaligned_le32(out_len,
			   w->p + offsetof(struct smb2_ioctl_rsp, output_count));
}

/* Both buffers start right after their fixed part: 64 + 8. */
#define OUTPUT_RSP_BUF_OFFSET \
	(SMB2_HEADER_SIZE + sizeof(struct smb2_output_buffer_rsp))
#define SESS_SETUP_RSP_BLOB_OFFSET \
	(SMB2_HEADER_SIZE + sizeof(struct smb2_sess_setup_rsp))

void ksmbd_output_rsp_set(void *fixed, u32 out_len)
{
	struct smb2_output_buffer_rsp *r = fixed;

	r->structure_size = cpu_to_le16(SMB2_OUTPUT_BUFFER_RSP_SIZE);
	r->output_buffer_offset = cpu_to_le16(out_len ? OUTPUT_RSP_BUF_OFFSET : 0);
	r->output_buffer_length = cpu_to_le32(out_len);
}

void ksmbd_notify_info_encode(struct ksmbd_wbuf *w, u32 action,
			      const void *name, u32 name_len, bool last)
{
	ksmbd_wbuf_put_le32(w, last ? 0 : ksmbd_notify_info_size(name_len));
	ksmbd_wbuf_put_le32(w, action);
	ksmbd_wbuf_put_le32(w, name_len);
	ksmbd_wbuf_put(w, name, name_len);
	ksmbd_wbuf_pad(w, 4);
}

/* SOCKADDR_STORAGE's Family (2.2.32.5.1): InterNetwork, InterNetworkV6. */
#define NETIF_FAMILY_INET	0x0002
#define NETIF_FAMILY_INET6	0x0017
/* Family, then the 16 (IPv4) or 28 (IPv6) bytes of SOCKADDR_IN(6). */
#define NETIF_SOCKADDR_SIZE	128

void ksmbd_netif_info_encode(struct ksmbd_wbuf *w,
			     const struct ksmbd_netif_info *ni, bool last)
{
	u8 *sa;

	if (w->cap - w->len < KSMBD_NETIF_INFO_SIZE) {
		w->overflow = true;
		return;
	}
	ksmbd_wbuf_put_le32(w, last ? 0 : KSMBD_NETIF_INFO_SIZE);
	ksmbd_wbuf_put_le32(w, ni->ifindex);
	ksmbd_wbuf_put_le32(w, ni->capability);
	ksmbd_wbuf_put_le32(w, 0);		/* Reserved */
	ksmbd_wbuf_put_le64(w, ni->link_speed);
	/* Zeroed: Port, FlowInfo, ScopeId and the reserved tail. */
	sa = ksmbd_wbuf_reserve(w, NETIF_SOCKADDR_SIZE);
	if (!sa)
		return;
	put_unaligned_le16(ni->ipv6 ? NETIF_FAMILY_INET6 : NETIF_FAMILY_INET,
			   sa);
	if (ni->ipv6)
		memcpy(sa + 8, ni->addr, 16);	/* after Port, FlowInfo */
	else
		memcpy(sa + 4, ni->addr, 4);	/* after Port */
}

void ksmbd_sess_setup_rsp_set(void *fixed, u16 session_flags, u16 blob_len)
{
	struct smb2_sess_setup_rsp *r = fixed;

	r->structure_size = cpu_to_le16(SMB2_SESSION_SETUP_RSP_SIZE);
	r->session_flags = cpu_to_le16(session_flags);
	r->security_buffer_offset =
		cpu_to_le16(blob_len ? SESS_SETUP_RSP_BLOB_OFFSET : 0);
	r->security_buffer_length = cpu_to_le16(blob_len);
}

void ksmbd_oplock_break_rsp_encode(struct ksmbd_wbuf *w, u8 level, u64 pid,
				   u64 vid)
{
	ksmbd_wbuf_put_le16(w, SMB2_OPLOCK_BREAK_SIZE);
	ksmbd_wbuf_put_u8(w, level);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le32(w, 0);
	ksmbd_wbuf_put_le64(w, pid);
	ksmbd_wbuf_put_le64(w, vid);
}

void ksmbd_lease_ack_rsp_encode(struct ksmbd_wbuf *w, const u8 *key,
				u32 state)
{
	ksmbd_wbuf_put_le16(w, SMB2_LEASE_ACK_SIZE);
	ksmbd_wbuf_put_le16(w, 0);
	ksmbd_wbuf_put_le32(w, 0);		/* Flags */
	ksmbd_wbuf_put(w, key, SMB2_LEASE_KEY_SIZE);
	ksmbd_wbuf_put_le32(w, state);
	ksmbd_wbuf_put_le64(w, 0);		/* LeaseDuration */
}

void ksmbd_negotiate_rsp_set_security_len(struct ksmbd_wbuf *w, u16 len)
{
	put_unaligned_le16(len, w->p + offsetof(struct smb2_negotiate_rsp,
						security_buffer_length));
}

void ksmbd_negotiate_rsp_set_contexts(struct ksmbd_wbuf *w, u32 offset,
				      u16 count)
{
	put_unaligned_le32(offset, w->p + offsetof(struct smb2_negotiate_rsp,
						   negotiate_context_offset));
	put_unaligned_le16(count, w->p + offsetof(struct smb2_negotiate_rsp,
						  negotiate_context_count));
}
