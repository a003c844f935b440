// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.mountd's answers to the kernel: login, share configuration, tree
 * connect and disconnect, logout, SPNEGO, heartbeats, and the start-up
 * message. Named pipes are in handlers_rpc.c.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "handlers.h"
#include "handlers_int.h"
#include "../module/uapi/ksmbd_netlink.h"

static bool log_stderr = true;
static bool log_debug;

void mountd_log_init(bool to_stderr, bool debug)
{
	log_stderr = to_stderr;
	log_debug = debug;
	if (!to_stderr)
		openlog("ksmbd.mountd", LOG_PID, LOG_DAEMON);
}

void mountd_log(int prio, const char *fmt, ...)
{
	va_list ap;

	if (prio == LOG_DEBUG && !log_debug)
		return;
	va_start(ap, fmt);
	if (log_stderr) {
		fputs("ksmbd.mountd: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else {
		vsyslog(prio, fmt, ap);
	}
	va_end(ap);
}

bool mountd_str_ok(const char *s, size_t cap)
{
	return memchr(s, '\0', cap) != NULL;
}

int mountd_drop(unsigned int type, size_t len, const char *why)
{
	mountd_log(LOG_WARNING, "dropped kernel event %u (%zu bytes): %s",
		   type, len, why);
	return -EINVAL;
}

void *mountd_reply_alloc(struct mountd_reply *r, unsigned int type,
			 size_t len)
{
	r->data = calloc(1, len);
	if (!r->data)
		return NULL;
	r->type = type;
	r->len = len;
	return r->data;
}

void mountd_reply_free(struct mountd_reply *r)
{
	if (r->data) {
		explicit_bzero(r->data, r->len);
		free(r->data);
	}
	r->data = NULL;
	r->len = 0;
	r->type = 0;
}

void mountd_state_init(struct mountd_state *st, struct ksmbd_config *cfg,
		       struct ksmbd_userdb *db)
{
	memset(st, 0, sizeof(*st));
	st->cfg = cfg;
	st->db = db;
	mountd_rpc_backend_init(st);
}

void mountd_state_replace(struct mountd_state *st, struct ksmbd_config *cfg,
			  struct ksmbd_userdb *db)
{
	ksmbd_config_free(st->cfg);
	ksmbd_userdb_free(st->db);
	st->cfg = cfg;
	st->db = db;
}

void mountd_state_reset(struct mountd_state *st)
{
	mountd_pipes_close_all(st);
	free(st->trees);
	st->trees = NULL;
	st->ntrees = 0;
	st->trees_cap = 0;
}

void mountd_state_free(struct mountd_state *st)
{
	mountd_state_reset(st);
	ksmbd_config_free(st->cfg);
	ksmbd_userdb_free(st->db);
	st->cfg = NULL;
	st->db = NULL;
}

/* FNV-1a: a stable, well-spread value from the server's names. */
static uint32_t fnv1a(uint32_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

void mountd_server_sid(const struct ksmbd_global *g, uint32_t sub[3])
{
	uint32_t h = fnv1a(2166136261u, g->netbios_name);

	h = fnv1a(h, "/");
	h = fnv1a(h, g->workgroup);
	sub[0] = h;
	sub[1] = fnv1a(h, "ksmbd-sid-1");
	sub[2] = fnv1a(sub[1], "ksmbd-sid-2");
}

static int32_t signing_opt(enum ksmbd_signing s)
{
	switch (s) {
	case KSMBD_SIGNING_MANDATORY:
		return KSMBD_CONFIG_OPT_MANDATORY;
	case KSMBD_SIGNING_DISABLED:
		return KSMBD_CONFIG_OPT_DISABLED;
	default:
		return KSMBD_CONFIG_OPT_AUTO;
	}
}

static uint32_t global_flags(const struct ksmbd_global *g)
{
	uint32_t f = 0;

	if (g->smb2_leases)
		f |= KSMBD_GLOBAL_FLAG_SMB2_LEASES;
	if (g->multi_channel)
		f |= KSMBD_GLOBAL_FLAG_SMB3_MULTICHANNEL;
	if (g->smb2_leases && g->dir_leases)
		f |= KSMBD_GLOBAL_FLAG_DIR_LEASES;
	if (g->smb3_encryption != KSMBD_ENCRYPTION_OFF)
		f |= KSMBD_GLOBAL_FLAG_SMB2_ENCRYPTION;
	if (g->smb3_encryption == KSMBD_ENCRYPTION_REQUIRED)
		f |= KSMBD_GLOBAL_FLAG_ENCRYPTION_REQUIRED;
	if (g->map_to_guest == KSMBD_MAP_TO_GUEST_BAD_USER)
		f |= KSMBD_GLOBAL_FLAG_MAP_TO_GUEST;
	if (g->restrict_anonymous < 2)
		f |= KSMBD_GLOBAL_FLAG_NULL_SESSIONS;
	if (mountd_krb5_configured(g))
		f |= KSMBD_GLOBAL_FLAG_KERBEROS;
	return f;
}

/* Interfaces are sent only with "bind interfaces only", as Samba binds. */
static size_t ifc_list_size(const struct ksmbd_global *g)
{
	size_t i, n = 0;

	if (!g->bind_interfaces_only)
		return 0;
	for (i = 0; i < g->interfaces.count; i++)
		n += strlen(g->interfaces.items[i]) + 1;
	return n;
}

int mountd_build_startup(const struct ksmbd_config *cfg,
			 struct mountd_reply *out)
{
	const struct ksmbd_global *g = ksmbd_config_global(cfg);
	struct ksmbd_startup_request *r;
	size_t ifc = ifc_list_size(g), i, off = 0;
	uint64_t mib;

	if (ifc > KSMBD_IFC_LIST_MAX)
		return -E2BIG;
	if (g->krb5_support == KSMBD_KRB5_YES && !mountd_krb5_configured(g)) {
		mountd_log(LOG_ERR, "kerberos support = yes, but the keytab %s is not readable",
			   g->krb5_keytab);
		return -ENOKEY;
	}
	r = mountd_reply_alloc(out, KSMBD_EVENT_STARTING_UP, sizeof(*r) + ifc);
	if (!r)
		return -ENOMEM;
	r->abi_magic = KSMBD_ABI_MAGIC;
	r->abi_version = KSMBD_ABI_VERSION;
	r->flags = global_flags(g);
	r->signing = signing_opt(g->signing);
	r->min_dialect = g->min_protocol;
	r->max_dialect = g->max_protocol;
	r->tcp_port = g->tcp_port;
	r->ipc_timeout = g->ipc_timeout > 0xffff ? 0xffff : g->ipc_timeout;
	/* Same sizes on both sides (config.h follows the ABI). */
	memcpy(r->netbios_name, g->netbios_name, sizeof(r->netbios_name));
	memcpy(r->work_group, g->workgroup, sizeof(r->work_group));
	memcpy(r->server_string, g->server_string, sizeof(r->server_string));
	r->deadtime = g->deadtime;
	r->file_max = g->max_open_files;
	r->smb2_max_write = g->smb2_max_write;
	r->smb2_max_read = g->smb2_max_read;
	r->smb2_max_trans = g->smb2_max_trans;
	mountd_server_sid(g, r->sub_auth);
	r->max_connections = g->max_connections;
	r->share_fake_fscaps = g->fake_fscaps;
	r->max_sessions_per_conn = g->max_sessions_per_conn;
	r->max_ip_connections = g->max_ip_connections;
	r->oplock_break_timeout = g->oplock_break_timeout;
	r->max_open_files_per_session = g->max_open_files_per_session;
	r->max_open_files_per_conn = g->max_open_files_per_conn;
	r->max_notify_watches_per_session = g->max_notify_watches_per_session;
	r->max_locks_per_handle = g->max_locks_per_handle;
	r->max_locks_per_file = g->max_locks_per_file;
	/* In MiB on the wire, rounded up: a few bytes still reserve. */
	mib = g->max_alloc_reservation / (1u << 20) +
	      !!(g->max_alloc_reservation % (1u << 20));
	r->max_alloc_reservation_mib = mib > UINT32_MAX ? UINT32_MAX : (uint32_t)mib;
	/* The parser keeps at most KSMBD_ALGLIST_MAX distinct known ids. */
	_Static_assert(KSMBD_ALGLIST_MAX == KSMBD_MAX_ALGS, "alg list sizes");
	r->nr_ciphers = (uint8_t)g->encryption_algs.count;
	for (i = 0; i < g->encryption_algs.count; i++)
		r->ciphers[i] = (uint8_t)g->encryption_algs.ids[i];
	r->nr_signing_algs = (uint8_t)g->signing_algs.count;
	for (i = 0; i < g->signing_algs.count; i++)
		r->signing_algs[i] = (uint8_t)g->signing_algs.ids[i];
	r->ifc_list_sz = ifc;
	for (i = 0; ifc && i < g->interfaces.count; i++) {
		size_t n = strlen(g->interfaces.items[i]) + 1;

		memcpy(r->payload + off, g->interfaces.items[i], n);
		off += n;
	}
	return 0;
}

int mountd_parse_startup_response(const void *data, size_t len,
				  uint32_t *abi_version)
{
	struct ksmbd_startup_response r;

	if (len != sizeof(r))
		return -EINVAL;
	memcpy(&r, data, sizeof(r));
	*abi_version = r.abi_version;
	if (r.abi_magic != KSMBD_ABI_MAGIC)
		return -EPROTO;
	if (r.status > 0)
		return -EINVAL;
	return r.status;
}

/* uid, gid and groups of @unix_name into @r; false when it has none. */
bool mountd_fill_unix(const char *unix_name, struct ksmbd_login_response *r)
{
	gid_t groups[KSMBD_LOGIN_MAX_GROUPS];
	uid_t uid;
	gid_t gid;
	int i, n;

	if (ksmbd_user_unix_ids(unix_name, &uid, &gid)) {
		mountd_log(LOG_WARNING, "user %s has no Unix account: login refused",
			   unix_name);
		return false;
	}
	if (ksmbd_user_unix_groups(unix_name, gid, groups,
				   KSMBD_LOGIN_MAX_GROUPS, &n)) {
		mountd_log(LOG_WARNING, "user %s is in more than %d groups: login refused",
			   unix_name, KSMBD_LOGIN_MAX_GROUPS);
		return false;
	}
	r->uid = uid;
	r->gid = gid;
	r->ngroups = n;
	for (i = 0; i < n; i++)
		r->groups[i] = groups[i];
	return true;
}

/*
 * @guest: the kernel asks for the guest account itself (anonymous logon,
 * or an unknown user under "map to guest = bad user"); @name is unused.
 */
static void fill_login(const struct mountd_state *st, const char *name,
		       bool guest_req, struct ksmbd_login_response *r)
{
	const struct ksmbd_global *g = ksmbd_config_global(st->cfg);
	const struct ksmbd_user *u = guest_req ? NULL :
				     ksmbd_userdb_find(st->db, name);
	bool guest = !u && g->guest_account[0] &&
		     (guest_req || !strcasecmp(name, g->guest_account));
	const char *unix_name = u ? u->name : g->guest_account;

	/* Both names are shorter than the array: they were checked. */
	snprintf(r->account, sizeof(r->account), "%s",
		 u ? u->name : guest ? g->guest_account : name);
	if (!u && !guest) {
		r->status = KSMBD_USER_FLAG_BAD_USER;
		return;
	}
	if (!mountd_fill_unix(unix_name, r)) {
		r->status = KSMBD_USER_FLAG_BAD_UID;
		return;
	}
	r->status = KSMBD_USER_FLAG_OK;
	if (guest) {
		r->status |= KSMBD_USER_FLAG_GUEST_ACCOUNT;
		return;
	}
	memcpy(r->hash, u->nt_hash, sizeof(r->hash));
	r->hash_sz = sizeof(r->hash);
}

static int handle_login(struct mountd_state *st, const void *data, size_t len,
			struct mountd_reply *reply)
{
	struct ksmbd_login_request req;
	struct ksmbd_login_response *r;

	if (len != sizeof(req))
		return mountd_drop(KSMBD_EVENT_LOGIN_REQUEST, len, "size");
	memcpy(&req, data, sizeof(req));
	if (!mountd_str_ok(req.account, sizeof(req.account)))
		return mountd_drop(KSMBD_EVENT_LOGIN_REQUEST, len,
				   "unterminated account");
	r = mountd_reply_alloc(reply, KSMBD_EVENT_LOGIN_RESPONSE, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->handle = req.handle;
	fill_login(st, req.account, req.flags & KSMBD_LOGIN_FLAG_GUEST, r);
	mountd_log(LOG_DEBUG, "login %s: status 0x%x", req.account, r->status);
	return 0;
}

static int group_id(const char *name, gid_t *gid)
{
	struct group gr, *res = NULL;
	char buf[4096];

	if (getgrnam_r(name, &gr, buf, sizeof(buf), &res) || !res)
		return -ENOENT;
	*gid = res->gr_gid;
	return 0;
}

static uint32_t share_flags(const struct ksmbd_share *s)
{
	uint32_t f = KSMBD_SHARE_FLAG_AVAILABLE;

	f |= s->read_only ? KSMBD_SHARE_FLAG_READONLY : KSMBD_SHARE_FLAG_WRITEABLE;
	if (s->browseable)
		f |= KSMBD_SHARE_FLAG_BROWSEABLE;
	if (s->guest_ok)
		f |= KSMBD_SHARE_FLAG_GUEST_OK;
	if (s->guest_only)
		f |= KSMBD_SHARE_FLAG_GUEST_ONLY;
	if (s->store_dos_attributes)
		f |= KSMBD_SHARE_FLAG_STORE_DOS_ATTRS;
	if (s->oplocks)
		f |= KSMBD_SHARE_FLAG_OPLOCKS;
	if (s->is_pipe)
		f |= KSMBD_SHARE_FLAG_PIPE;
	if (s->hide_dot_files)
		f |= KSMBD_SHARE_FLAG_HIDE_DOT_FILES;
	if (s->acl_xattr)
		f |= KSMBD_SHARE_FLAG_ACL_XATTR;
	if (s->hide_unreadable)
		f |= KSMBD_SHARE_FLAG_HIDE_UNREADABLE;
	if (s->smb3_encryption == KSMBD_ENCRYPTION_REQUIRED)
		f |= KSMBD_SHARE_FLAG_ENCRYPT;
	else if (s->smb3_encryption == KSMBD_ENCRYPTION_DESIRED)
		f |= KSMBD_SHARE_FLAG_ENCRYPT_DESIRED;
	return f;
}

/*
 * Why @s cannot be described to the kernel, or NULL. A share is refused
 * rather than trimmed: a shorter veto list or a dropped forced identity
 * would quietly grant more than the administrator wrote.
 */
static const char *share_problem(const struct ksmbd_share *s, size_t *veto_sz,
				 size_t *path_sz, uint32_t *fuid, uint32_t *fgid)
{
	uid_t uid;
	gid_t gid;
	size_t i;

	*veto_sz = 0;
	for (i = 0; i < s->veto_files.count; i++)
		*veto_sz += strlen(s->veto_files.items[i]) + 1;
	if (*veto_sz > KSMBD_VETO_LIST_MAX)
		return "veto files list too long";
	*path_sz = s->is_pipe || !s->path ? 0 : strlen(s->path) + 1;
	if (!s->is_pipe && (*path_sz < 2 || s->path[0] != '/'))
		return "path is not absolute";
	if (*path_sz > KSMBD_SHARE_PATH_MAX)
		return "path too long";
	/* The kernel would serve it as if it were not set. */
	if (s->inherit_owner)
		return "inherit owner is not supported";
	*fuid = *fgid = KSMBD_SHARE_INVALID_ID;
	if (s->force_user) {
		if (ksmbd_user_unix_ids(s->force_user, &uid, &gid))
			return "force user is not a Unix user";
		*fuid = uid;
		/* Samba's force user: that user's primary group too. */
		*fgid = gid;
	}
	if (s->force_group) {
		if (group_id(s->force_group, &gid))
			return "force group is not a Unix group";
		*fgid = gid;
	}
	return NULL;
}

static int build_share(struct mountd_state *st, uint32_t handle,
		       const char *name, struct mountd_reply *reply)
{
	const struct ksmbd_share *s = ksmbd_config_find_share(st->cfg, name);
	struct ksmbd_share_config_response *r;
	size_t veto_sz = 0, path_sz = 0, i, off = 0;
	uint32_t fuid, fgid;
	const char *why;

	if (s) {
		why = share_problem(s, &veto_sz, &path_sz, &fuid, &fgid);
		if (why) {
			mountd_log(LOG_ERR, "share [%s] refused: %s", s->name, why);
			s = NULL;
			veto_sz = path_sz = 0;
		}
	}
	r = mountd_reply_alloc(reply, KSMBD_EVENT_SHARE_CONFIG_RESPONSE,
			       sizeof(*r) + veto_sz + path_sz);
	if (!r)
		return -ENOMEM;
	r->handle = handle;
	if (!s)
		return 0;
	r->flags = share_flags(s);
	r->create_mask = s->create_mask & 07777;
	r->directory_mask = s->directory_mask & 07777;
	r->force_create_mode = s->force_create_mode & 07777;
	r->force_directory_mode = s->force_directory_mode & 07777;
	r->force_uid = fuid;
	r->force_gid = fgid;
	r->veto_list_sz = veto_sz;
	r->path_sz = path_sz;
	for (i = 0; i < s->veto_files.count; i++) {
		size_t n = strlen(s->veto_files.items[i]) + 1;

		memcpy(r->payload + off, s->veto_files.items[i], n);
		off += n;
	}
	if (path_sz)
		memcpy(r->payload + off, s->path, path_sz);
	return 0;
}

static int handle_share(struct mountd_state *st, const void *data, size_t len,
			struct mountd_reply *reply)
{
	struct ksmbd_share_config_request req;

	if (len != sizeof(req))
		return mountd_drop(KSMBD_EVENT_SHARE_CONFIG_REQUEST, len, "size");
	memcpy(&req, data, sizeof(req));
	if (!mountd_str_ok(req.share_name, sizeof(req.share_name)))
		return mountd_drop(KSMBD_EVENT_SHARE_CONFIG_REQUEST, len,
				   "unterminated share name");
	return build_share(st, req.handle, req.share_name, reply);
}

static int handle_heartbeat(const void *data, size_t len,
			    struct mountd_reply *reply)
{
	struct ksmbd_heartbeat hb, *r;

	if (len != sizeof(hb))
		return mountd_drop(KSMBD_EVENT_HEARTBEAT_REQUEST, len, "size");
	memcpy(&hb, data, sizeof(hb));
	r = mountd_reply_alloc(reply, KSMBD_EVENT_HEARTBEAT_RESPONSE, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->handle = hb.handle;
	return 0;
}

static int handle_logout(const void *data, size_t len)
{
	struct ksmbd_logout_request req;

	if (len != sizeof(req))
		return mountd_drop(KSMBD_EVENT_LOGOUT_REQUEST, len, "size");
	memcpy(&req, data, sizeof(req));
	if (!mountd_str_ok(req.account, sizeof(req.account)))
		return mountd_drop(KSMBD_EVENT_LOGOUT_REQUEST, len,
				   "unterminated account");
	mountd_log(LOG_DEBUG, "logout %s", req.account);
	return 0;
}

int mountd_handle(struct mountd_state *st, unsigned int type,
		  const void *data, size_t len, struct mountd_reply *reply)
{
	memset(reply, 0, sizeof(*reply));
	switch (type) {
	case KSMBD_EVENT_HEARTBEAT_REQUEST:
		return handle_heartbeat(data, len, reply);
	case KSMBD_EVENT_LOGIN_REQUEST:
		return handle_login(st, data, len, reply);
	case KSMBD_EVENT_SHARE_CONFIG_REQUEST:
		return handle_share(st, data, len, reply);
	case KSMBD_EVENT_TREE_CONNECT_REQUEST:
		return mountd_handle_tree_connect(st, data, len, reply);
	case KSMBD_EVENT_TREE_DISCONNECT_REQUEST:
		return mountd_handle_tree_disconnect(st, data, len);
	case KSMBD_EVENT_LOGOUT_REQUEST:
		return handle_logout(data, len);
	case KSMBD_EVENT_RPC_REQUEST:
		return mountd_handle_rpc(st, data, len, reply);
	case KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST:
		return mountd_handle_spnego(st, data, len, reply);
	case KSMBD_EVENT_STARTING_UP_RESPONSE:
		/* A late verdict on a start-up we already settled. */
		return 0;
	default:
		return mountd_drop(type, len, "not an event the kernel sends");
	}
}
