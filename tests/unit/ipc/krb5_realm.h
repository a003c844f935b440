/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A throwaway Kerberos realm for the daemon's krb5 tests and fuzz target,
 * without a KDC: a temporary directory with a FILE keytab holding
 * cifs/fuzzhost@FUZZ.TEST and host/fuzzhost@FUZZ.TEST (aes256, kvno 1, the
 * fixed keys below, the ones tests/fuzz/krb5-seeds.py forges the seed
 * tickets with: a host keytab has other services' keys too) and a krb5.conf
 * without KDC or DNS lookups whose clock skew is ten years (so the seeds'
 * authenticators stay fresh until 2036; MIT compares times modulo 2^32,
 * so a ticket's endtime plus the skew must stay within 68 years of now),
 * and no replay cache (KRB5RCACHETYPE=none:
 * a replayed seed is taken every time, and nothing is written).
 */
#ifndef KSMBD_TEST_KRB5_REALM_H
#define KSMBD_TEST_KRB5_REALM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <krb5.h>

#define KRB5_REALM_NAME		"FUZZ.TEST"
#define KRB5_REALM_SERVICE	"cifs/fuzzhost@" KRB5_REALM_NAME
#define KRB5_REALM_HOST		"host/fuzzhost@" KRB5_REALM_NAME

struct krb5_realm {
	char dir[32];
	char keytab[48];
	char conf[48];
};

/* The service keys; tests/fuzz/krb5-seeds.py has the same bytes. */
static const uint8_t krb5_realm_key[32] = {
	0x6b, 0x73, 0x6d, 0x62, 0x64, 0x2d, 0x66, 0x75,
	0x7a, 0x7a, 0x2d, 0x6b, 0x72, 0x62, 0x35, 0x2d,
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
};
static const uint8_t krb5_realm_host_key[32] = {
	0x68, 0x6f, 0x73, 0x74, 0x2d, 0x6b, 0x65, 0x79,
	0x2d, 0x6f, 0x66, 0x2d, 0x66, 0x75, 0x7a, 0x7a,
	0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88,
	0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00,
};

static int krb5_realm_conf(const struct krb5_realm *r)
{
	FILE *f = fopen(r->conf, "w");

	if (!f)
		return -1;
	fputs("[libdefaults]\n"
	      "\tdefault_realm = " KRB5_REALM_NAME "\n"
	      "\tdns_lookup_kdc = false\n"
	      "\tdns_lookup_realm = false\n"
	      "\tdns_canonicalize_hostname = false\n"
	      "\trdns = false\n"
	      "\tclockskew = 315360000\n"
	      "[realms]\n"
	      "\t" KRB5_REALM_NAME " = {\n\t\tkdc = 127.0.0.1:1\n\t}\n", f);
	return fclose(f) ? -1 : 0;
}

static int krb5_realm_entry(krb5_context ctx, krb5_keytab kt,
			    const char *principal, const uint8_t key[32])
{
	krb5_keytab_entry e;
	int ret;

	memset(&e, 0, sizeof(e));
	if (krb5_parse_name(ctx, principal, &e.principal))
		return -1;
	e.vno = 1;
	e.key.enctype = ENCTYPE_AES256_CTS_HMAC_SHA1_96;
	e.key.length = 32;
	e.key.contents = (krb5_octet *)key;
	ret = krb5_kt_add_entry(ctx, kt, &e) ? -1 : 0;
	krb5_free_principal(ctx, e.principal);
	return ret;
}

static int krb5_realm_keytab(const struct krb5_realm *r)
{
	char name[sizeof(r->keytab) + 8];
	krb5_context ctx;
	krb5_keytab kt;
	int ret = -1;

	snprintf(name, sizeof(name), "FILE:%s", r->keytab);
	if (krb5_init_context(&ctx))
		return -1;
	if (!krb5_kt_resolve(ctx, name, &kt)) {
		ret = krb5_realm_entry(ctx, kt, KRB5_REALM_SERVICE, krb5_realm_key) ||
		      krb5_realm_entry(ctx, kt, KRB5_REALM_HOST,
				       krb5_realm_host_key) ? -1 : 0;
		if (krb5_kt_close(ctx, kt))
			ret = -1;
	}
	krb5_free_context(ctx);
	return ret;
}

/* Removes what krb5_realm_make() made. */
static void krb5_realm_remove(const struct krb5_realm *r)
{
	unlink(r->keytab);
	unlink(r->conf);
	rmdir(r->dir);
}

/*
 * Makes the realm and points MIT's environment at it (KRB5_CONFIG, no
 * replay cache, no default keytab or credential cache of the host).
 */
static int krb5_realm_make(struct krb5_realm *r)
{
	snprintf(r->dir, sizeof(r->dir), "/tmp/ksmbd-krb5-XXXXXX");
	if (!mkdtemp(r->dir))
		return -1;
	snprintf(r->keytab, sizeof(r->keytab), "%s/keytab", r->dir);
	snprintf(r->conf, sizeof(r->conf), "%s/krb5.conf", r->dir);
	setenv("KRB5_CONFIG", r->conf, 1);
	setenv("KRB5RCACHETYPE", "none", 1);
	setenv("KRB5RCACHEDIR", r->dir, 1);
	setenv("KRB5_KTNAME", "FILE:/nonexistent", 1);
	setenv("KRB5_CLIENT_KTNAME", "FILE:/nonexistent", 1);
	setenv("KRB5CCNAME", "MEMORY:ksmbd-test", 1);
	unsetenv("KRB5_TRACE");
	if (krb5_realm_conf(r) || krb5_realm_keytab(r)) {
		krb5_realm_remove(r);
		return -1;
	}
	return 0;
}

#endif
