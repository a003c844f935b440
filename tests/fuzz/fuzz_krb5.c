// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: the daemon's Kerberos path with hostile bytes. Each input is
 *  1. the payload of a SPNEGO_AUTHEN_REQUEST as the kernel would hand it
 *     (header and blob, the handler's size checks);
 *  2. the blob of a well-formed SPNEGO_AUTHEN_REQUEST, so that MIT's
 *     gss_accept_sec_context really parses it with a real keytab;
 *  3. a principal name for mountd_krb5_account() and a GSS status text
 *     for mountd_krb5_refusal_of().
 * Every answer the daemon produces must pass the kernel's validator.
 *
 * The realm is krb5_realm.h's (tests/unit/ipc): a FILE keytab with
 * cifs/fuzzhost@FUZZ.TEST, no KDC, no replay cache; the seeds in
 * corpus/krb5 are tickets for its key (krb5-seeds.py).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "ipc_validate.h"
#include "krb5_gss.h"
#include "krb5_realm.h"

static struct krb5_realm realm;
static struct mountd_state st;

static void cleanup(void)
{
	krb5_realm_remove(&realm);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char text[256];
	struct ksmbd_config *cfg;
	struct ksmbd_userdb *db;
	FILE *quiet;

	(void)argc;
	(void)argv;
	if (krb5_realm_make(&realm))
		abort();
	atexit(cleanup);

	snprintf(text, sizeof(text),
		 "[global]\n\tkerberos keytab = %s\n\tkerberos service name = cifs\n"
		 "[share]\n\tpath = /srv/share\n", realm.keytab);
	cfg = ksmbd_config_parse(text, strlen(text), "fuzz", NULL);
	db = ksmbd_userdb_new();
	if (!cfg || !db || ksmbd_userdb_set(db, "root", "pw"))
		abort();
	/*
	 * One refusal line per input would drown libFuzzer's output: the
	 * daemon's log goes to a stdio stream of its own (sanitizer and
	 * libFuzzer reports write to fd 2 or their own copy of it).
	 * KSMBD_FUZZ_LOG=1 keeps the lines, to see why a seed is refused.
	 */
	if (!getenv("KSMBD_FUZZ_LOG")) {
		quiet = fopen("/dev/null", "w");
		if (!quiet)
			abort();
		stderr = quiet;
	}
	mountd_log_init(true, false);
	mountd_state_init(&st, cfg, db);
	return 0;
}

/* Hand @payload to the SPNEGO_AUTHEN handler; check what comes back. */
static void handle(const void *payload, size_t len)
{
	struct mountd_reply r;
	const char *why;

	if (!mountd_handle(&st, KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST, payload, len,
			   &r) && r.type &&
	    ksmbd_ipc_msg_validate(r.type, r.data, r.len, &why))
		abort();
	mountd_reply_free(&r);
}

static void strings(const uint8_t *data, size_t size)
{
	char acct[KSMBD_REQ_MAX_ACCOUNT_NAME_SZ];
	char *s = malloc(size + 1);
	size_t cap;

	if (!s)
		return;
	memcpy(s, data, size);
	s[size] = '\0';
	/* The account buffer's size from the first byte: 1..capacity. */
	cap = size ? (size_t)data[0] % sizeof(acct) + 1 : sizeof(acct);
	if (!mountd_krb5_account(s, acct, cap) &&
	    (strlen(acct) >= cap || strchr(acct, '/')))
		abort();
	if ((unsigned int)mountd_krb5_refusal_of(s) > MOUNTD_KRB5_BAD_KEY)
		abort();
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksmbd_spnego_authen_request *req;
	uint8_t *copy;

	if (size > KSMBD_SPNEGO_MAX_BLOB)
		return 0;
	/* Exact-size copies, so ASan sees any read past the payload. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	handle(copy, size);
	free(copy);

	req = malloc(sizeof(*req) + size);
	if (!req)
		return 0;
	req->handle = 0x4b524235;
	req->spnego_blob_len = size;
	memcpy(req->spnego_blob, data, size);
	handle(req, sizeof(*req) + size);
	free(req);

	strings(data, size);
	return 0;
}
