/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The module's list of connected clients, /proc/fs/ksmbd/clients (format in
 * module/conn/clients.c): every connection from its first frame and every
 * session not yet ended, idle ones included. ksmbdtop makes a row of each
 * address in it, so an idle client shows as smbstatus would show it, not
 * only once it has sent requests the BPF programs saw. Root only.
 */
#ifndef KSMBDTOP_CLIENTS_H
#define KSMBDTOP_CLIENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "libksmbdstats.h"

#define KT_CLIENTS_PATH "/proc/fs/ksmbd/clients"

struct kt_listed_conn {
	uint64_t id;
	struct ksmbd_client_key key;	/* address only; family 0: unknown */
	uint16_t dialect;		/* 0 before NEGOTIATE */
	uint64_t idle_s;
};

struct kt_listed_sess {
	uint64_t id;
	uint64_t conn_id;
	bool valid;			/* false: the logon is under way */
	bool signing;
	bool encryption;
	char user[KSMBD_STATS_USER_LEN];	/* "" while setting up */
};

struct kt_clients {
	struct kt_listed_conn *conns;
	size_t nr_conns;
	struct kt_listed_sess *sess;
	size_t nr_sess;
};

/*
 * Parse the listing. Lines that do not parse are skipped (a newer module
 * may add kinds); returns 0 or -ENOMEM.
 */
int kt_clients_parse(FILE *f, struct kt_clients *out);
/* Read path: 0, or a negative errno (-EACCES without root). */
int kt_clients_read(const char *path, struct kt_clients *out);
void kt_clients_free(struct kt_clients *c);

/* The connection with this id, or NULL. */
const struct kt_listed_conn *kt_clients_conn(const struct kt_clients *c,
					     uint64_t id);

#endif
