// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-client, per-command, per-share and global request statistics over
 * the ksmbd tracepoints (module/core/ksmbd_trace.h), attached with tp_btf so
 * the typed arguments are read with CO-RE against the module's BTF.
 *
 * Attribution of file I/O: bytes read and written are the `done` of the
 * ksmbd_vfs_read/write events (file data that really moved), not message
 * sizes. Those events run on the kernel thread that runs the request,
 * between its ksmbd_request_start and ksmbd_request_done. request_start
 * records the request in `inflight` (the thread's task storage, so an
 * element that ends without a done event is simply overwritten by the
 * thread's next one); the VFS events add to it and request_done folds it into the
 * client, command, share and global counters of that request. I/O on a
 * thread with no request of that connection in flight is charged to the
 * client the event names (connection peer + the handle's session).
 */
#include "ksmbd_module.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "ksmbd_stats.h"

char LICENSE[] SEC("license") = "GPL";

/* STATUS_MORE_PROCESSING_REQUIRED: an interim SESSION_SETUP leg. */
#define STATUS_MORE_PROCESSING	0xC0000016u

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KSMBD_STATS_MAX_CLIENTS);
	__type(key, struct ksmbd_client_key);
	__type(value, struct ksmbd_client_val);
} clients SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KSMBD_STATS_MAX_CLIENT_CMDS);
	__type(key, struct ksmbd_client_cmd_key);
	__type(value, struct ksmbd_cmd_val);
} client_cmds SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KSMBD_STATS_MAX_SHARES);
	__type(key, struct ksmbd_share_key);
	__type(value, struct ksmbd_share_val);
} shares SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ksmbd_global_val);
} global SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KSMBD_STATS_MAX_CONNS);
	__type(key, __u64);
	__type(value, struct ksmbd_conn_info);
} conns SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, KSMBD_STATS_MAX_TREES);
	__type(key, struct ksmbd_tree_key);
	__type(value, struct ksmbd_share_key);
} trees SEC(".maps");

/*
 * Task-local: the request a thread runs lives with the thread, found
 * without hashing or locking a shared table on every request and VFS call.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ksmbd_inflight);
} inflight SEC(".maps");

/* Initial values for lookup-or-insert; too large for the BPF stack. */
static struct ksmbd_client_val zero_client;
static struct ksmbd_cmd_val zero_cmd;
static struct ksmbd_share_val zero_share;

/* One finished request, as the counters see it. */
struct req_sample {
	__u64 latency_ns;
	__u64 bytes_read;
	__u64 bytes_written;
	__u32 bytes_in;
	__u32 bytes_out;
	__u32 slot;
	__u16 charge;
	__u16 granted;
	bool error;
};

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r;
}

static __always_inline __u32 hist_slot(__u64 latency_ns)
{
	__u64 us = latency_ns / 1000;
	__u32 slot = us ? log2_u64(us) : 0;

	return slot < KSMBD_STATS_HIST_SLOTS ? slot : KSMBD_STATS_HIST_SLOTS - 1;
}

static __always_inline void *lookup_or_insert(void *map, const void *key,
					      const void *init)
{
	void *val = bpf_map_lookup_elem(map, key);

	if (val)
		return val;
	/* EEXIST: another CPU inserted it first; use theirs. */
	bpf_map_update_elem(map, key, init, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

static __always_inline bool is_v4_mapped(const __u8 *a)
{
	for (int i = 0; i < 10; i++)
		if (a[i])
			return false;
	return a[10] == 0xff && a[11] == 0xff;
}

static __always_inline void client_key_fill(const struct ksmbd_conn *conn,
					    __u64 session_id,
					    struct ksmbd_client_key *key)
{
	struct sockaddr_in6 sa = {};

	bpf_core_read(&sa, sizeof(sa), &conn->peer);
	key->family = sa.sin6_family;
	key->session_id = session_id;
	if (sa.sin6_family == KSMBD_STATS_AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&sa;

		__builtin_memcpy(key->addr, &in->sin_addr, 4);
		return;
	}
	if (sa.sin6_family != KSMBD_STATS_AF_INET6)
		return;
	/*
	 * A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d; key
	 * them as IPv4 so one client has one key whichever socket took it.
	 */
	if (is_v4_mapped(sa.sin6_addr.in6_u.u6_addr8)) {
		key->family = KSMBD_STATS_AF_INET;
		__builtin_memcpy(key->addr, &sa.sin6_addr.in6_u.u6_addr8[12], 4);
		return;
	}
	__builtin_memcpy(key->addr, &sa.sin6_addr, 16);
}

static __always_inline void counters_add(struct ksmbd_req_counters *c,
					 const struct req_sample *s)
{
	__sync_fetch_and_add(&c->requests, 1);
	if (s->error)
		__sync_fetch_and_add(&c->errors, 1);
	__sync_fetch_and_add(&c->bytes_in, s->bytes_in);
	__sync_fetch_and_add(&c->bytes_out, s->bytes_out);
	if (s->bytes_read)
		__sync_fetch_and_add(&c->bytes_read, s->bytes_read);
	if (s->bytes_written)
		__sync_fetch_and_add(&c->bytes_written, s->bytes_written);
	__sync_fetch_and_add(&c->credits_charged, s->charge);
	__sync_fetch_and_add(&c->credits_granted, s->granted);
	__sync_fetch_and_add(&c->latency_ns_sum, s->latency_ns);
	if (s->slot < KSMBD_STATS_HIST_SLOTS)
		__sync_fetch_and_add(&c->lat.slots[s->slot], 1);
}

static __always_inline struct ksmbd_global_val *global_val(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&global, &zero);
}

/* The connection's credit balance after this response; see ksmbd_stats.h. */
static __always_inline __s64 conn_account(__u64 conn_id,
					  const struct ksmbd_client_key *key,
					  __u16 dialect, const struct req_sample *s)
{
	struct ksmbd_conn_info init = { .outstanding = 1 };
	struct ksmbd_conn_info *ci;

	ci = lookup_or_insert(&conns, &conn_id, &init);
	if (!ci)
		return 0;
	ci->last = *key;
	ci->dialect = dialect;
	return __sync_add_and_fetch(&ci->outstanding,
				    (__s64)s->granted - (__s64)s->charge);
}

static __always_inline void client_account(const struct ksmbd_client_key *key,
					   __u64 conn_id, __u16 dialect,
					   __s64 outstanding,
					   const struct req_sample *s)
{
	struct ksmbd_client_val *cv;
	__u64 now = bpf_ktime_get_ns();

	cv = lookup_or_insert(&clients, key, &zero_client);
	if (!cv)
		return;
	counters_add(&cv->c, s);
	if (!cv->first_seen_ns)
		cv->first_seen_ns = now;
	cv->last_seen_ns = now;
	cv->conn_id = conn_id;
	if (dialect)
		cv->dialect = dialect;
	cv->outstanding = outstanding;
	if (outstanding > cv->outstanding_max)
		cv->outstanding_max = outstanding;
}

static __always_inline void cmd_account(const struct ksmbd_client_key *key,
					__u16 command, const struct req_sample *s)
{
	struct ksmbd_client_cmd_key ck = { .client = *key, .command = command };
	struct ksmbd_cmd_val *v;

	if (command >= KSMBD_STATS_NR_CMDS)
		return;
	v = lookup_or_insert(&client_cmds, &ck, &zero_cmd);
	if (v)
		counters_add(&v->c, s);
}

static __always_inline void share_account(__u64 conn_id, __u64 session_id,
					  __u32 tree_id, const struct req_sample *s)
{
	struct ksmbd_tree_key tk = {
		.conn_id = conn_id, .session_id = session_id, .tree_id = tree_id,
	};
	struct ksmbd_share_key *name;
	struct ksmbd_share_val *v;

	if (!tree_id)
		return;
	name = bpf_map_lookup_elem(&trees, &tk);
	if (!name)
		return;
	/* Inserted again after a reset from user space. */
	v = lookup_or_insert(&shares, name, &zero_share);
	if (v)
		counters_add(&v->c, s);
}

SEC("tp_btf/ksmbd_request_start")
int BPF_PROG(ksmbd_req_start, const struct ksmbd_conn *conn,
	     const struct ksmbd_req_hdr *hdr, u32 compound_index)
{
	struct ksmbd_inflight *in;

	in = bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!in)
		return 0;
	/* The thread's last request (if it had no done event) is replaced. */
	__builtin_memset(in, 0, sizeof(*in));
	client_key_fill(conn, hdr->session_id, &in->client);
	in->conn_id = conn->id;
	in->tree_id = hdr->tree_id;
	in->command = hdr->command;
	return 0;
}

SEC("tp_btf/ksmbd_request_done")
int BPF_PROG(ksmbd_req_done, const struct ksmbd_conn *conn,
	     const struct ksmbd_req_hdr *hdr, u32 compound_index, u32 status,
	     u16 credits_granted, u32 bytes_in, u32 bytes_out, u64 latency_ns)
{
	__u64 conn_id = conn->id;
	__u64 session_id = hdr->session_id;
	__u16 command = hdr->command;
	__u16 dialect = conn->neg.dialect;
	struct ksmbd_client_key key = {};
	struct ksmbd_global_val *g;
	struct ksmbd_inflight *in;
	struct req_sample s = {
		.latency_ns = latency_ns,
		.bytes_in = bytes_in,
		.bytes_out = bytes_out,
		.charge = hdr->credit_charge,
		.granted = credits_granted,
		.error = KSMBD_STATS_STATUS_IS_ERROR(status) &&
			 status != STATUS_MORE_PROCESSING,
	};
	__s64 outstanding;

	/* MS-SMB2 3.3.5.2.5: a CreditCharge of 0 costs one credit. */
	if (!s.charge)
		s.charge = 1;
	s.slot = hist_slot(latency_ns);

	in = bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), 0, 0);
	if (in && in->conn_id == conn_id) {
		s.bytes_read = in->bytes_read;
		s.bytes_written = in->bytes_written;
		in->conn_id = 0;	/* done: later I/O on this thread is not its */
		/* The start event's key, unless the response names a new session. */
		if (in->client.session_id == session_id)
			key = in->client;
	}
	if (!key.family)
		client_key_fill(conn, session_id, &key);

	outstanding = conn_account(conn_id, &key, dialect, &s);
	client_account(&key, conn_id, dialect, outstanding, &s);
	cmd_account(&key, command, &s);
	share_account(conn_id, session_id, hdr->tree_id, &s);
	g = global_val();
	if (g)
		counters_add(&g->c, &s);
	return 0;
}

/* File data moved for the request this thread runs (see the top). */
static __always_inline void io_account(const struct ksmbd_conn *conn,
				       const struct ksmbd_file *fp, __u32 done,
				       bool write)
{
	struct ksmbd_inflight *in =
		bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), 0, 0);
	__u64 conn_id = conn ? conn->id : 0;
	struct ksmbd_client_key key = {};
	struct ksmbd_client_val *cv;
	struct ksmbd_global_val *g;

	if (!done)
		return;
	if (conn && in && in->conn_id == conn_id) {
		if (write)
			__sync_fetch_and_add(&in->bytes_written, done);
		else
			__sync_fetch_and_add(&in->bytes_read, done);
		return;
	}
	/* Off the request path (async work): charge the event's client. */
	g = global_val();
	if (g)
		__sync_fetch_and_add(&g->untracked_io, 1);
	if (!conn)
		return;
	client_key_fill(conn, fp->session_id, &key);
	cv = lookup_or_insert(&clients, &key, &zero_client);
	if (!cv)
		return;
	if (write)
		__sync_fetch_and_add(&cv->c.bytes_written, done);
	else
		__sync_fetch_and_add(&cv->c.bytes_read, done);
}

SEC("tp_btf/ksmbd_vfs_read")
int BPF_PROG(ksmbd_vfs_rd, const struct ksmbd_conn *conn,
	     const struct ksmbd_file *fp, u64 offset, u32 requested, u32 done,
	     u64 latency_ns)
{
	io_account(conn, fp, done, false);
	return 0;
}

SEC("tp_btf/ksmbd_vfs_write")
int BPF_PROG(ksmbd_vfs_wr, const struct ksmbd_conn *conn,
	     const struct ksmbd_file *fp, u64 offset, u32 requested, u32 done,
	     u64 latency_ns)
{
	io_account(conn, fp, done, true);
	return 0;
}

SEC("tp_btf/ksmbd_session_setup")
int BPF_PROG(ksmbd_sess_setup, const struct ksmbd_conn *conn, u64 session_id,
	     const char *user, const char *mech, u32 status, bool signing,
	     bool encryption, bool binding, u64 latency_ns)
{
	struct ksmbd_client_key key = {};
	struct ksmbd_client_val *cv;
	struct ksmbd_global_val *g = global_val();

	if (status == STATUS_MORE_PROCESSING)
		return 0;
	if (status) {
		if (g)
			__sync_fetch_and_add(&g->session_failures, 1);
		return 0;
	}
	if (g)
		__sync_fetch_and_add(&g->sessions, 1);
	client_key_fill(conn, session_id, &key);
	cv = lookup_or_insert(&clients, &key, &zero_client);
	if (!cv)
		return 0;
	bpf_probe_read_kernel_str(cv->user, sizeof(cv->user), user);
	cv->last_status = status;
	cv->signing = signing;
	cv->encryption = encryption;
	cv->dialect = BPF_CORE_READ(conn, neg.dialect);
	cv->conn_id = BPF_CORE_READ(conn, id);
	return 0;
}

SEC("tp_btf/ksmbd_session_end")
int BPF_PROG(ksmbd_sess_end, u64 conn_id, u64 session_id, const char *user,
	     const char *reason)
{
	struct ksmbd_global_val *g = global_val();

	if (g)
		__sync_fetch_and_add(&g->sessions_ended, 1);
	return 0;
}

SEC("tp_btf/ksmbd_tree_connect")
int BPF_PROG(ksmbd_tcon, u64 conn_id, u64 session_id, u32 tree_id,
	     const char *share, u32 flags, u32 status)
{
	struct ksmbd_tree_key tk = {
		.conn_id = conn_id, .session_id = session_id, .tree_id = tree_id,
	};
	struct ksmbd_share_key name = {};
	struct ksmbd_share_val *v;

	bpf_probe_read_kernel_str(name.name, sizeof(name.name), share);
	v = lookup_or_insert(&shares, &name, &zero_share);
	if (status) {
		if (v)
			__sync_fetch_and_add(&v->tree_connect_errors, 1);
		return 0;
	}
	if (v) {
		__sync_fetch_and_add(&v->tree_connects, 1);
		__sync_fetch_and_add(&v->trees_now, 1);
	}
	bpf_map_update_elem(&trees, &tk, &name, BPF_ANY);
	return 0;
}

SEC("tp_btf/ksmbd_tree_disconnect")
int BPF_PROG(ksmbd_tdis, u64 conn_id, u64 session_id, u32 tree_id,
	     const char *share, u32 flags, u32 status)
{
	struct ksmbd_tree_key tk = {
		.conn_id = conn_id, .session_id = session_id, .tree_id = tree_id,
	};
	struct ksmbd_share_key *name = bpf_map_lookup_elem(&trees, &tk);
	struct ksmbd_share_val *v;

	if (!name)
		return 0;
	v = bpf_map_lookup_elem(&shares, name);
	if (v && v->trees_now)
		__sync_fetch_and_sub(&v->trees_now, 1);
	bpf_map_delete_elem(&trees, &tk);
	return 0;
}

SEC("tp_btf/ksmbd_credit_window")
int BPF_PROG(ksmbd_credit_stall, const struct ksmbd_conn *conn,
	     u64 message_id, u16 charge, u64 window_lo, u64 window_hi)
{
	__u64 conn_id = BPF_CORE_READ(conn, id);
	struct ksmbd_global_val *g = global_val();
	struct ksmbd_client_val *cv;
	struct ksmbd_conn_info *ci;

	if (g)
		__sync_fetch_and_add(&g->credit_stalls, 1);
	ci = bpf_map_lookup_elem(&conns, &conn_id);
	if (!ci)
		return 0;
	cv = bpf_map_lookup_elem(&clients, &ci->last);
	if (cv)
		__sync_fetch_and_add(&cv->credit_stalls, 1);
	return 0;
}

SEC("tp_btf/ksmbd_conn_accept")
int BPF_PROG(ksmbd_accept, const struct ksmbd_conn *conn, u16 local_port)
{
	struct ksmbd_conn_info ci = { .outstanding = 1 };
	__u64 conn_id = BPF_CORE_READ(conn, id);
	struct ksmbd_global_val *g = global_val();

	if (g)
		__sync_fetch_and_add(&g->conns_accepted, 1);
	client_key_fill(conn, 0, &ci.last);
	bpf_map_update_elem(&conns, &conn_id, &ci, BPF_ANY);
	return 0;
}

SEC("tp_btf/ksmbd_conn_close")
int BPF_PROG(ksmbd_close, const struct ksmbd_conn *conn, const char *reason,
	     u64 lifetime_ms, u64 requests, u64 bytes_in, u64 bytes_out)
{
	__u64 conn_id = BPF_CORE_READ(conn, id);
	struct ksmbd_global_val *g = global_val();

	if (g)
		__sync_fetch_and_add(&g->conns_closed, 1);
	bpf_map_delete_elem(&conns, &conn_id);
	return 0;
}
