/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Server-wide state: whether a daemon has started us, the global
 * configuration it sent, and the transitions between states.
 *
 *   WAITING_DAEMON --(STARTING_UP from the daemon)--> RUNNING
 *   RUNNING --(kill_server, daemon SHUTTING_DOWN)--> WAITING_DAEMON
 *   any --(module unload)--> SHUTTING_DOWN
 *
 * A daemon that stops answering heartbeats does not stop the server:
 * existing sessions keep working, new logins fail until a daemon returns.
 */
#ifndef KSMBD_SERVER_H
#define KSMBD_SERVER_H

#include <linux/types.h>

/* The top-level VERSION file, passed by Kbuild (module/Kbuild). */
#ifndef KSMBD_VERSION
#error "KSMBD_VERSION is unset: build with the top-level Makefile or DKMS"
#endif

enum ksmbd_server_state {
	KSMBD_SERVER_WAITING_DAEMON,
	KSMBD_SERVER_RUNNING,
	KSMBD_SERVER_SHUTTING_DOWN,
};

enum ksmbd_config_opt {
	KSMBD_OPT_DISABLED,
	KSMBD_OPT_ENABLED,
	KSMBD_OPT_AUTO,
	KSMBD_OPT_MANDATORY,
};

#define KSMBD_NAME_MAX_LEN	64
#define KSMBD_IFACES_MAX_LEN	1024
/* Sessions (valid or in progress) one connection may hold by default. */
#define KSMBD_DEFAULT_SESSIONS_PER_CONN	16
/* Connections one peer address may hold by default ("max ip connections"). */
#define KSMBD_DEFAULT_IP_CONNECTIONS	128
/* Per-client bounds by default; ksmbd.conf(5) says why these numbers. */
#define KSMBD_DEFAULT_FILES_PER_SESSION	2048
#define KSMBD_DEFAULT_FILES_PER_CONN	4096
#define KSMBD_DEFAULT_NOTIFY_PER_SESSION	256
#define KSMBD_DEFAULT_LOCKS_PER_HANDLE	4096
#define KSMBD_DEFAULT_LOCKS_PER_FILE	16384
#define KSMBD_DEFAULT_ALLOC_RESERVATION_MIB	1024

/* The daemon's [global] section, as the module uses it. */
struct ksmbd_server_config {
	u32 flags;			/* KSMBD_GLOBAL_FLAG_* of the netlink ABI */
	enum ksmbd_config_opt signing;
	u16 min_dialect;		/* SMB2 dialect numbers, e.g. 0x0210 */
	u16 max_dialect;
	char netbios_name[16];
	char work_group[KSMBD_NAME_MAX_LEN];
	char server_string[KSMBD_NAME_MAX_LEN];
	u16 tcp_port;
	u16 ipc_timeout_s;		/* 0: no heartbeat check */
	u32 deadtime_s;			/* 0: idle connections never time out */
	u32 file_max;
	u32 max_read;
	u32 max_write;
	u32 max_trans;
	u32 fake_fscaps;
	u32 sub_auth[3];		/* the server's SID: S-1-5-21-a-b-c */
	u32 max_connections;
	u32 max_ip_connections;		/* per peer address, >= 1 */
	u32 max_sessions_per_conn;	/* >= 1 */
	u32 oplock_break_timeout_s;	/* 0: KSMBD_OPLOCK_BREAK_TIMEOUT_S */
	/* Per-client bounds, each >= 1 (KSMBD_DEFAULT_* when not configured) */
	u32 max_open_files_per_session;
	u32 max_open_files_per_conn;
	u32 max_notify_watches_per_session;
	u32 max_locks_per_handle;
	u32 max_locks_per_file;
	/* bytes beyond EOF one connection may hold reserved; 0: reserve none */
	u64 max_alloc_reservation;
	/* Preference orders; 0 entries: the defaults (smb2_negotiate.c). */
	u8 nr_ciphers, nr_signing_algs;
	u16 ciphers[4];
	u16 signing_algs[4];
	/* NUL-separated interface names; empty: every interface */
	char interfaces[KSMBD_IFACES_MAX_LEN];
	u32 interfaces_len;
};

/* Read-mostly; replaced as a whole under the server lock when a daemon starts us. */
extern struct ksmbd_server_config ksmbd_server_conf;

/*
 * What starting and stopping the server does, from the layers above this
 * one (main.c: the transport, and the durable handles' scavenger).
 * start(port): serve on port; stop(): stop serving and wait until every
 * connection is gone. Both run under the server's lock.
 */
struct ksmbd_server_ops {
	int (*start)(u16 port);
	void (*stop)(void);
};

int ksmbd_server_init(const struct ksmbd_server_ops *ops);
void ksmbd_server_exit(void);

/*
 * Called by the IPC layer when the daemon sends STARTING_UP: starts the
 * server, or, when it runs already (a restarted daemon), takes the new
 * configuration without dropping anybody and returns -EALREADY.
 */
int ksmbd_server_start(const struct ksmbd_server_config *conf);
/* Stop serving (kill_server, ksmbd.control --shutdown); back to waiting. */
void ksmbd_server_reset(const char *why);

enum ksmbd_server_state ksmbd_server_state(void);
const char *ksmbd_server_state_name(void);
bool ksmbd_server_running(void);
u64 ksmbd_server_uptime_s(void);

#endif
