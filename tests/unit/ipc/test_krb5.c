// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's Kerberos side without a KDC: principal to account, the
 * startup flag following the keytab, and SPNEGO_AUTHEN answers (not
 * configured, a keytab GSS-API cannot use, a token that is no AP-REQ)
 * that the kernel's validator accepts), and tokens against a real keytab
 * (krb5_realm.h) with the fuzz target's seeds, tickets forged for its key
 * (tests/fuzz/krb5-seeds.py). Tickets from a KDC are the VM case
 * smb2-kerberos's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "handlers.h"
#include "krb5_gss.h"
#include "ipc_validate.h"
#include "krb5_realm.h"

#define SEEDS KSMBD_BUILD_DIR "/../tests/fuzz/corpus/krb5/"

static struct mountd_state st;

/* The configuration with @keytab, service name @service and @extra lines. */
static int setup_with(const char *keytab, const char *service, const char *extra)
{
	char text[1024];
	struct ksmbd_config *cfg;
	struct ksmbd_userdb *db;

	snprintf(text, sizeof(text),
		 "[global]\n\tkerberos keytab file = %s\n\tkerberos service name = %s\n%s"
		 "[share]\n\tpath = /srv/share\n", keytab, service, extra);
	cfg = ksmbd_config_parse(text, strlen(text), "krb5.conf", NULL);
	db = ksmbd_userdb_new();
	if (!cfg || !db) {
		ksmbd_config_free(cfg);
		ksmbd_userdb_free(db);
		return -1;
	}
	mountd_state_init(&st, cfg, db);
	return 0;
}

static int setup(const char *keytab)
{
	return setup_with(keytab, "cifs", "");
}

/* SPNEGO_AUTHEN with @blob; the answer's status, or -1. */
static int spnego_answer(const void *blob, size_t len,
			 struct ksmbd_spnego_authen_response *ans)
{
	unsigned char buf[sizeof(struct ksmbd_spnego_authen_request) + 2048];
	struct ksmbd_spnego_authen_request *req = (void *)buf;
	struct ksmbd_spnego_authen_response *a;
	struct mountd_reply r;
	const char *why = "";
	int ret = -1;

	if (len > 2048)
		return -1;
	memset(buf, 0, sizeof(buf));
	req->handle = 77;
	req->spnego_blob_len = len;
	memcpy(req->spnego_blob, blob, len);
	if (mountd_handle(&st, KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST, buf,
			  sizeof(*req) + len, &r) || !r.data)
		return -1;
	a = (void *)r.data;
	if (r.type == KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE && a->handle == 77 &&
	    !ksmbd_ipc_msg_validate(r.type, r.data, r.len, &why)) {
		ret = a->status;
		if (ans)
			*ans = *a;
	}
	mountd_reply_free(&r);
	return ret;
}

static int spnego(const void *blob, size_t len)
{
	return spnego_answer(blob, len, NULL);
}

/* SPNEGO_AUTHEN with the seed file @name; its status, or -1. */
static int spnego_seed(const char *name, struct ksmbd_spnego_authen_response *ans)
{
	unsigned char blob[2048];
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), SEEDS "%s", name);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	n = fread(blob, 1, sizeof(blob), f);
	fclose(f);
	if (n == sizeof(blob))
		return -1;
	return spnego_answer(blob, n, ans);
}

static int startup_has_krb5(void)
{
	struct mountd_reply r;
	int ret;

	if (mountd_build_startup(st.cfg, &r))
		return -1;
	ret = !!(((struct ksmbd_startup_request *)r.data)->flags &
		 KSMBD_GLOBAL_FLAG_KERBEROS);
	mountd_reply_free(&r);
	return ret;
}

TEST(principal_to_account)
{
	char a[KSMBD_REQ_MAX_ACCOUNT_NAME_SZ];
	char longp[100];

	CHECK_EQ_INT(mountd_krb5_account("tester@KSMBD.TEST", a, sizeof(a)), 0);
	CHECK_EQ_STR(a, "tester");
	CHECK_EQ_INT(mountd_krb5_account("me@A@B", a, sizeof(a)), 0);
	CHECK_EQ_STR(a, "me@A");
	CHECK_EQ_INT(mountd_krb5_account("plain", a, sizeof(a)), 0);
	CHECK_EQ_STR(a, "plain");
	CHECK_EQ_INT(mountd_krb5_account("cifs/host@R", a, sizeof(a)), -1);
	CHECK_EQ_INT(mountd_krb5_account("@R", a, sizeof(a)), -1);
	CHECK_EQ_INT(mountd_krb5_account("@REALM", a, sizeof(a)), -1);
	CHECK_EQ_INT(mountd_krb5_account("user", a, sizeof(a)), 0);
	CHECK_EQ_STR(a, "user");
	CHECK_EQ_INT(mountd_krb5_account("user@", a, sizeof(a)), -1);
	CHECK_EQ_INT(mountd_krb5_account("a@b@c", a, sizeof(a)), 0);
	CHECK_EQ_STR(a, "a@b");
	CHECK_EQ_INT(mountd_krb5_account("", a, sizeof(a)), -1);
	CHECK_EQ_INT(mountd_krb5_account("@", a, sizeof(a)), -1);
	/* Exactly the capacity does not fit (the NUL), one less does. */
	CHECK_EQ_INT(mountd_krb5_account("abcd@R", a, 4), -1);
	CHECK_EQ_INT(mountd_krb5_account("abc@R", a, 4), 0);
	CHECK_EQ_STR(a, "abc");
	memset(longp, 'x', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	CHECK_EQ_INT(mountd_krb5_account(longp, a, sizeof(a)), -1);
}

/* MIT's words for each refusal (as the VM case sees them) and the class. */
TEST(refusal_texts)
{
	static const struct {
		const char *text;
		enum mountd_krb5_refusal want;
	} t[] = {
		{ "AP-REQ refused: Unspecified GSS failure.  Minor code may provide more information: Ticket expired",
		  MOUNTD_KRB5_EXPIRED },
		{ "x: Ticket not yet valid", MOUNTD_KRB5_EXPIRED },
		{ "x: Clock skew too great", MOUNTD_KRB5_SKEW },
		{ "x: Request is a replay", MOUNTD_KRB5_REPLAY },
		{ "x: Request ticket server cifs/other.host@KSMBD.TEST not found in keytab (ticket kvno 1)",
		  MOUNTD_KRB5_WRONG_PRINCIPAL },
		{ "x: Request ticket server cifs/h@R kvno 2 enctype aes256-cts found in keytab but cannot decrypt ticket",
		  MOUNTD_KRB5_BAD_KEY },
		{ "x: Request ticket server cifs/h@R kvno 3 not found in keytab; ticket is likely out of date",
		  MOUNTD_KRB5_BAD_KEY },
		{ "x: Decrypt integrity check failed", MOUNTD_KRB5_BAD_KEY },
		{ "x: Wrong principal in request", MOUNTD_KRB5_WRONG_PRINCIPAL },
		{ "x: Invalid token was supplied", MOUNTD_KRB5_REFUSED },
		{ "", MOUNTD_KRB5_REFUSED },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		CHECK_EQ_INT(mountd_krb5_refusal_of(t[i].text), t[i].want);
	CHECK_EQ_STR(mountd_krb5_refusal_name(MOUNTD_KRB5_REPLAY), "replay");
	CHECK_EQ_STR(mountd_krb5_refusal_name(MOUNTD_KRB5_REFUSED), "refused");
}

/* Every named refusal passes the kernel's validator; past the last not. */
TEST(refusal_statuses_validate)
{
	struct ksmbd_spnego_authen_response r;
	const char *why = "";
	uint32_t status;

	memset(&r, 0, sizeof(r));
	for (status = KSMBD_SPNEGO_DENIED; status <= KSMBD_SPNEGO_STATUS_MAX;
	     status++) {
		r.status = status;
		CHECK_EQ_INT(ksmbd_ipc_msg_validate(KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE,
						    &r, sizeof(r), &why), 0);
	}
	r.status = KSMBD_SPNEGO_STATUS_MAX + 1;
	CHECK(ksmbd_ipc_msg_validate(KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE, &r,
				     sizeof(r), &why) != 0);
}

TEST(no_keytab)
{
	if (setup("/nonexistent/krb5.keytab")) {
		test_fail_("%s", "configuration did not load");
		return;
	}
	CHECK_EQ_INT(startup_has_krb5(), 0);
	CHECK_EQ_INT(spnego("\x60\x00", 2), KSMBD_SPNEGO_NOT_SUPPORTED);
	mountd_state_free(&st);
}

TEST(unusable_keytab_and_junk_tokens)
{
	char path[] = "/tmp/ksmbd-krb5-test-XXXXXX";
	static const unsigned char not_ap_req[] = {
		0x60, 0x0d, 0x06, 0x06, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02,
		0xa0, 0x03, 0x30, 0x01, 0x00 };
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, "not a keytab", 12) != 12 || setup(path)) {
		test_fail_("%s", "test keytab or configuration");
		if (fd >= 0)
			close(fd);
		unlink(path);
		return;
	}
	close(fd);
	CHECK_EQ_INT(startup_has_krb5(), 1);
	CHECK_EQ_INT(spnego(not_ap_req, sizeof(not_ap_req)), KSMBD_SPNEGO_DENIED);
	CHECK_EQ_INT(spnego("", 0), KSMBD_SPNEGO_DENIED);
	CHECK_EQ_INT(spnego("\xff\xff\xff", 3), KSMBD_SPNEGO_DENIED);
	mountd_state_free(&st);
	unlink(path);
}

/* Edges of the token against a keytab GSS-API can use. */
TEST(real_keytab)
{
	static const unsigned char ntlmssp_only[] = {
		/* NegTokenInit, mechTypes = { NTLMSSP }, no token */
		0x60, 0x1c, 0x06, 0x06, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02,
		0xa0, 0x12, 0x30, 0x10, 0xa0, 0x0e, 0x30, 0x0c, 0x06, 0x0a,
		0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x0a };
	struct ksmbd_spnego_authen_response a;
	struct krb5_realm realm;

	if (krb5_realm_make(&realm) || setup(realm.keytab)) {
		test_fail_("%s", "throwaway realm or configuration");
		krb5_realm_remove(&realm);
		return;
	}
	CHECK_EQ_INT(startup_has_krb5(), 1);
	CHECK_EQ_INT(spnego("", 0), KSMBD_SPNEGO_DENIED);
	CHECK_EQ_INT(spnego("\x60", 1), KSMBD_SPNEGO_DENIED);
	CHECK_EQ_INT(spnego("\x00", 1), KSMBD_SPNEGO_DENIED);
	CHECK_EQ_INT(spnego(ntlmssp_only, sizeof(ntlmssp_only)), KSMBD_SPNEGO_DENIED);

	/* A ticket sealed with the keytab's key: the session key (aes256's
	 * 32 bytes) and an AP-REP in a NegTokenResp come back. */
	memset(&a, 0, sizeof(a));
	CHECK_EQ_INT(spnego_seed("negtokeninit-ap-req", &a), KSMBD_SPNEGO_OK);
	CHECK_EQ_INT(a.session_key_len, 32);
	CHECK(a.spnego_blob_len > 16);
	CHECK_EQ_STR(a.login_response.account, "root");
	/* the seed's ticket ends 2045-01-01: the session may last that long */
	CHECK(a.valid_secs > 10u * 365 * 24 * 3600);
	CHECK_EQ_INT(spnego_seed("negtokeninit-ap-req-truncated", NULL),
		     KSMBD_SPNEGO_DENIED);
	CHECK_EQ_INT(spnego_seed("negtokenresp", NULL), KSMBD_SPNEGO_DENIED);
	CHECK_EQ_INT(spnego_seed("krb5-ap-req", NULL), KSMBD_SPNEGO_DENIED);
	CHECK_EQ_INT(spnego_seed("negtokeninit-ntlmssp", NULL), KSMBD_SPNEGO_DENIED);
	CHECK_EQ_INT(spnego_seed("expired", NULL), KSMBD_SPNEGO_EXPIRED);
	CHECK_EQ_INT(spnego_seed("wrong-key", NULL), KSMBD_SPNEGO_BAD_KEY);
	/*
	 * Which key opened the ticket decides, not its sname (outside the
	 * sealed part): MIT names the target by the keytab entry whose key
	 * worked. A host/ ticket is refused even with its sname edited to
	 * cifs/; a ticket sealed with the cifs key is ours whatever sname
	 * it shows (host/fuzzhost, cifs/otherhost).
	 */
	CHECK_EQ_INT(spnego_seed("host-ticket", NULL), KSMBD_SPNEGO_WRONG_PRINCIPAL);
	CHECK_EQ_INT(spnego_seed("host-ticket-sname-cifs", NULL),
		     KSMBD_SPNEGO_WRONG_PRINCIPAL);
	CHECK_EQ_INT(spnego_seed("other-service", NULL), KSMBD_SPNEGO_OK);
	CHECK_EQ_INT(spnego_seed("other-host", NULL), KSMBD_SPNEGO_OK);
	/* Client principals: longer than MOUNTD_KRB5_NAME_MAX, an account
	 * name past the netlink field, a service principal. */
	CHECK_EQ_INT(spnego_seed("client-too-long", NULL), KSMBD_SPNEGO_DENIED);
	CHECK_EQ_INT(spnego_seed("client-account-too-long", NULL),
		     KSMBD_SPNEGO_NO_USER);
	CHECK_EQ_INT(spnego_seed("client-service", NULL), KSMBD_SPNEGO_NO_USER);
	mountd_state_free(&st);
	krb5_realm_remove(&realm);
}

/*
 * "kerberos service name" as ksmbd-tools documents it, a whole principal:
 * only a ticket opened with exactly that principal's key is taken.
 */
TEST(service_as_principal)
{
	static const struct {
		const char *service;
		int want;
	} cases[] = {
		{ KRB5_REALM_SERVICE, KSMBD_SPNEGO_OK },
		{ "cifs/fuzzhost", KSMBD_SPNEGO_OK },
		{ "cifs/otherhost@" KRB5_REALM_NAME, KSMBD_SPNEGO_WRONG_PRINCIPAL },
		{ "cifs/fuzzhost@OTHER.TEST", KSMBD_SPNEGO_WRONG_PRINCIPAL },
		{ "cifs/fuzz", KSMBD_SPNEGO_WRONG_PRINCIPAL },
		{ KRB5_REALM_HOST, KSMBD_SPNEGO_WRONG_PRINCIPAL },
	};
	struct krb5_realm realm;
	size_t i;

	if (krb5_realm_make(&realm)) {
		test_fail_("%s", "throwaway realm");
		return;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (setup_with(realm.keytab, cases[i].service, "")) {
			test_fail_("configuration with %s", cases[i].service);
			continue;
		}
		if (spnego_seed("negtokeninit-ap-req", NULL) != cases[i].want)
			test_fail_("service %s: status %d, expected %d",
				   cases[i].service,
				   spnego_seed("negtokeninit-ap-req", NULL),
				   cases[i].want);
		mountd_state_free(&st);
	}
	krb5_realm_remove(&realm);
}

/* "kerberos support": no switches it off, yes needs the keytab. */
TEST(kerberos_support)
{
	struct krb5_realm realm;
	struct mountd_reply r;

	if (krb5_realm_make(&realm) ||
	    setup_with(realm.keytab, "cifs", "\tkerberos support = no\n")) {
		test_fail_("%s", "throwaway realm or configuration");
		krb5_realm_remove(&realm);
		return;
	}
	CHECK_EQ_INT(startup_has_krb5(), 0);
	CHECK_EQ_INT(spnego_seed("negtokeninit-ap-req", NULL),
		     KSMBD_SPNEGO_NOT_SUPPORTED);
	mountd_state_free(&st);
	if (!setup_with(realm.keytab, "cifs", "\tkerberos support = yes\n")) {
		CHECK_EQ_INT(startup_has_krb5(), 1);
		mountd_state_free(&st);
	}
	krb5_realm_remove(&realm);
	/* Asked for, but the keytab cannot be read: the start is refused. */
	if (!setup_with("/nonexistent/krb5.keytab", "cifs",
			"\tkerberos support = yes\n")) {
		CHECK_EQ_INT(mountd_build_startup(st.cfg, &r), -ENOKEY);
		mountd_state_free(&st);
	}
}

TEST(config_keys)
{
	char text[512], name[300];
	struct ksmbd_config *cfg;

	memset(name, 's', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(text, sizeof(text), "[global]\n\tkerberos service name = %s\n", name);
	cfg = ksmbd_config_parse(text, strlen(text), "long.conf", NULL);
	CHECK(cfg == NULL);
	ksmbd_config_free(cfg);
	cfg = ksmbd_config_parse("[global]\n", 9, "empty.conf", NULL);
	CHECK(cfg != NULL);
	if (cfg) {
		CHECK_EQ_STR(ksmbd_config_global(cfg)->krb5_keytab, "/etc/krb5.keytab");
		CHECK_EQ_STR(ksmbd_config_global(cfg)->krb5_service, "cifs");
	}
	ksmbd_config_free(cfg);
}

int main(void)
{
	mountd_log_init(true, false);
	RUN(principal_to_account);
	RUN(refusal_texts);
	RUN(refusal_statuses_validate);
	RUN(no_keytab);
	RUN(unusable_keytab_and_junk_tokens);
	RUN(real_keytab);
	RUN(service_as_principal);
	RUN(kerberos_support);
	RUN(config_keys);
	return test_report();
}
