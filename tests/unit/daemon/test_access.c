// SPDX-License-Identifier: GPL-2.0
/* Tree-connect access: host lists, user lists, guest and write rules. */
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include "cfgtest.h"

/* A list from words, for the list matchers. */
static struct ksmbd_strlist list_of(char **items, size_t n)
{
	struct ksmbd_strlist l = { n, items };

	return l;
}

#define LIST(...) ({							\
	static char *items_[] = { __VA_ARGS__ };			\
	list_of(items_, sizeof(items_) / sizeof(items_[0]));		\
})

TEST(hosts_ipv4)
{
	struct ksmbd_strlist l;

	l = LIST("192.168.1.10");
	CHECK(ksmbd_hostlist_match(&l, "192.168.1.10"));
	CHECK(!ksmbd_hostlist_match(&l, "192.168.1.11"));
	l = LIST("192.168.1.");
	CHECK(ksmbd_hostlist_match(&l, "192.168.1.200"));
	CHECK(!ksmbd_hostlist_match(&l, "192.168.10.1"));
	CHECK(!ksmbd_hostlist_match(&l, "192.168.2.1"));
	l = LIST("10.");
	CHECK(ksmbd_hostlist_match(&l, "10.255.0.1"));
	CHECK(!ksmbd_hostlist_match(&l, "100.0.0.1"));
	l = LIST("127.");
	CHECK(ksmbd_hostlist_match(&l, "127.0.0.1"));
	CHECK(ksmbd_hostlist_match(&l, "::ffff:127.0.0.1"));	/* v4-mapped */
	l = LIST("172.16.0.0/12");
	CHECK(ksmbd_hostlist_match(&l, "172.31.255.255"));
	CHECK(!ksmbd_hostlist_match(&l, "172.32.0.0"));
	CHECK(!ksmbd_hostlist_match(&l, "172.15.255.255"));
	l = LIST("192.168.0.0/255.255.254.0");
	CHECK(ksmbd_hostlist_match(&l, "192.168.1.7"));
	CHECK(!ksmbd_hostlist_match(&l, "192.168.2.7"));
	l = LIST("0.0.0.0/0");
	CHECK(ksmbd_hostlist_match(&l, "8.8.8.8"));
	CHECK(!ksmbd_hostlist_match(&l, "::1"));
	l = LIST("1.2.3.4/32");
	CHECK(ksmbd_hostlist_match(&l, "1.2.3.4"));
	CHECK(!ksmbd_hostlist_match(&l, "1.2.3.5"));
}

TEST(hosts_ipv6_all_localhost)
{
	struct ksmbd_strlist l;

	l = LIST("fe80::/10");
	CHECK(ksmbd_hostlist_match(&l, "fe80::1"));
	CHECK(ksmbd_hostlist_match(&l, "febf::1%eth0"));
	CHECK(!ksmbd_hostlist_match(&l, "fec0::1"));
	CHECK(!ksmbd_hostlist_match(&l, "10.0.0.1"));
	l = LIST("[2001:db8::1]");
	CHECK(ksmbd_hostlist_match(&l, "2001:db8:0::1"));
	CHECK(!ksmbd_hostlist_match(&l, "2001:db8::2"));
	l = LIST("ALL");
	CHECK(ksmbd_hostlist_match(&l, "1.1.1.1"));
	CHECK(ksmbd_hostlist_match(&l, "::1"));
	CHECK(!ksmbd_hostlist_match(&l, "not-an-address"));
	l = LIST("localhost");
	CHECK(ksmbd_hostlist_match(&l, "127.0.0.2"));
	CHECK(ksmbd_hostlist_match(&l, "::1"));
	CHECK(!ksmbd_hostlist_match(&l, "10.0.0.1"));
	l = LIST("fileserver.example.com");	/* names are not resolved */
	CHECK(!ksmbd_hostlist_match(&l, "10.0.0.1"));
	l = LIST();
	CHECK(!ksmbd_hostlist_match(&l, "10.0.0.1"));
	CHECK(!ksmbd_hostlist_match(&l, NULL));
}

TEST(hosts_except)
{
	struct ksmbd_strlist l = LIST("10.", "192.168.", "EXCEPT", "10.1.1.1", "192.168.5.");

	CHECK(ksmbd_hostlist_match(&l, "10.2.3.4"));
	CHECK(!ksmbd_hostlist_match(&l, "10.1.1.1"));
	CHECK(ksmbd_hostlist_match(&l, "192.168.4.1"));
	CHECK(!ksmbd_hostlist_match(&l, "192.168.5.1"));
	CHECK(!ksmbd_hostlist_match(&l, "11.0.0.1"));
}

static enum ksmbd_tree_verdict verdict(const char *conf, const char *user,
				       bool guest, const char *peer,
				       bool *writable, bool *admin)
{
	struct ksmbd_config *c = parse(conf);
	enum ksmbd_tree_verdict v;

	if (!c) {
		printf("# refused: %s\n", ksmbd_diag_line(diag, 0));
		return (enum ksmbd_tree_verdict)-1;
	}
	v = ksmbd_share_check_access(ksmbd_config_find_share(c, "s"), user, guest,
				     peer, writable, admin);
	ksmbd_config_free(c);
	return v;
}

TEST(allow_and_deny_rules)
{
	const char *p = "127.0.0.1";

	/* neither list: everyone */
	CHECK_EQ_INT(verdict("[s]\npath=/s\n", "u", false, p, NULL, NULL), KSMBD_TREE_OK);
	/* deny only */
	CHECK_EQ_INT(verdict("[s]\npath=/s\nhosts deny = 127.\n", "u", false, p, NULL, NULL),
		     KSMBD_TREE_DENIED_HOST);
	CHECK_EQ_INT(verdict("[s]\npath=/s\nhosts deny = 10.\n", "u", false, p, NULL, NULL),
		     KSMBD_TREE_OK);
	/* allow only */
	CHECK_EQ_INT(verdict("[s]\npath=/s\nhosts allow = 10.\n", "u", false, p, NULL, NULL),
		     KSMBD_TREE_DENIED_HOST);
	CHECK_EQ_INT(verdict("[s]\npath=/s\nhosts allow = 127.0.0.1\n", "u", false, p, NULL, NULL),
		     KSMBD_TREE_OK);
	/* both: an allow match wins over deny ALL */
	CHECK_EQ_INT(verdict("[s]\npath=/s\nhosts allow = 127.\nhosts deny = ALL\n", "u", false,
			     p, NULL, NULL), KSMBD_TREE_OK);
	CHECK_EQ_INT(verdict("[s]\npath=/s\nhosts allow = 10.\nhosts deny = ALL\n", "u", false,
			     p, NULL, NULL), KSMBD_TREE_DENIED_HOST);
	/* both, matching neither: allowed (Samba's rule) */
	CHECK_EQ_INT(verdict("[s]\npath=/s\nhosts allow = 10.\nhosts deny = 11.\n", "u", false,
			     p, NULL, NULL), KSMBD_TREE_OK);
	/* an unparsable peer never passes an allow list */
	CHECK_EQ_INT(verdict("[s]\npath=/s\nhosts allow = ALL\n", "u", false, "garbage", NULL,
			     NULL), KSMBD_TREE_DENIED_HOST);
	/* [global] host lists are every share's default */
	CHECK_EQ_INT(verdict("[global]\nhosts deny = ::1\n[s]\npath=/s\n", "u", false, "::1",
			     NULL, NULL), KSMBD_TREE_DENIED_HOST);
}

TEST(guest_rules)
{
	bool w = true, a = true;

	CHECK_EQ_INT(verdict("[s]\npath=/s\n", "nobody", true, "::1", &w, &a),
		     KSMBD_TREE_DENIED_USER);
	CHECK(!w && !a);
	CHECK_EQ_INT(verdict("[s]\npath=/s\nguest ok = yes\n", "nobody", true, "::1", &w, &a),
		     KSMBD_TREE_OK);
	CHECK(!w);
	CHECK_EQ_INT(verdict("[s]\npath=/s\nguest ok = yes\nread only = no\n", "nobody", true,
			     "::1", &w, &a), KSMBD_TREE_OK);
	CHECK(w);
	/* an authenticated session needs a user name */
	CHECK_EQ_INT(verdict("[s]\npath=/s\n", "", false, "::1", &w, &a), KSMBD_TREE_DENIED_USER);
	CHECK_EQ_INT(verdict("[s]\npath=/s\n", NULL, false, "::1", &w, &a), KSMBD_TREE_DENIED_USER);
}

TEST(user_lists)
{
	const char *conf = "[s]\npath=/s\nvalid users = alice, Bob\ninvalid users = bob\n";

	CHECK_EQ_INT(verdict(conf, "ALICE", false, "::1", NULL, NULL), KSMBD_TREE_OK);
	/* invalid users wins over valid users */
	CHECK_EQ_INT(verdict(conf, "bob", false, "::1", NULL, NULL), KSMBD_TREE_DENIED_USER);
	CHECK_EQ_INT(verdict(conf, "carol", false, "::1", NULL, NULL), KSMBD_TREE_DENIED_USER);
	CHECK_EQ_INT(verdict("[s]\npath=/s\ninvalid users = carol\n", "dave", false, "::1",
			     NULL, NULL), KSMBD_TREE_OK);
	CHECK_EQ_INT(verdict("[s]\npath=/s\nvalid users = \"Domain Users\"\n", "domain users",
			     false, "::1", NULL, NULL), KSMBD_TREE_OK);
	/* NIS netgroups are not supported: they never match */
	CHECK_EQ_INT(verdict("[s]\npath=/s\nvalid users = &netgroup\n", "netgroup", false,
			     "::1", NULL, NULL), KSMBD_TREE_DENIED_USER);
}

TEST(write_and_admin_lists)
{
	const char *conf = "[s]\npath=/s\nread list = alice, carol\nwrite list = carol, dave\n"
			   "admin users = erin\n";
	const char *rw = "[s]\npath=/s\nread only = no\nread list = alice\n";
	bool w, a;

	CHECK_EQ_INT(verdict(conf, "bob", false, "::1", &w, &a), KSMBD_TREE_OK);
	CHECK(!w && !a);
	CHECK_EQ_INT(verdict(conf, "dave", false, "::1", &w, &a), KSMBD_TREE_OK);
	CHECK(w && !a);
	/* in both lists: write list wins */
	CHECK_EQ_INT(verdict(conf, "Carol", false, "::1", &w, &a), KSMBD_TREE_OK);
	CHECK(w);
	CHECK_EQ_INT(verdict(conf, "erin", false, "::1", &w, &a), KSMBD_TREE_OK);
	CHECK(a && !w);
	CHECK_EQ_INT(verdict(rw, "alice", false, "::1", &w, &a), KSMBD_TREE_OK);
	CHECK(!w);
	CHECK_EQ_INT(verdict(rw, "bob", false, "::1", &w, &a), KSMBD_TREE_OK);
	CHECK(w);
}

TEST(unix_groups)
{
	struct passwd *pw = getpwuid(getuid());
	struct group *gr;
	char item[300];
	char *items[1] = { item };
	struct ksmbd_strlist l = { 1, items };
	char user[256];
	char **mem;

	if (!pw)
		SKIP("the current uid has no passwd entry");
	snprintf(user, sizeof(user), "%s", pw->pw_name);
	gr = getgrgid(pw->pw_gid);
	if (!gr)
		SKIP("the current primary gid has no group entry");
	/* primary group */
	snprintf(item, sizeof(item), "@%s", gr->gr_name);
	CHECK(ksmbd_userlist_match(&l, user));
	snprintf(item, sizeof(item), "+%s", gr->gr_name);
	CHECK(ksmbd_userlist_match(&l, user));
	CHECK(!ksmbd_userlist_match(&l, "no-such-user-ksmbd-test"));
	snprintf(item, sizeof(item), "@no-such-group-ksmbd-test");
	CHECK(!ksmbd_userlist_match(&l, user));
	/* supplementary membership (gr_mem), if this system has any */
	setgrent();
	while ((gr = getgrent())) {
		if (gr->gr_mem[0]) {
			snprintf(item, sizeof(item), "@%s", gr->gr_name);
			for (mem = gr->gr_mem; *mem; mem++)
				CHECK(ksmbd_userlist_match(&l, *mem));
			break;
		}
	}
	endgrent();
}

TEST(ipc_and_missing_share)
{
	struct ksmbd_config *c = parse("[global]\nguest ok = no\n");
	const struct ksmbd_share *ipc;
	bool w = false, a = true;

	CHECK(c != NULL);
	if (!c)
		return;
	ipc = ksmbd_config_find_share(c, "IPC$");
	CHECK_EQ_INT(ksmbd_share_check_access(ipc, "nobody", true, "10.0.0.1", &w, &a),
		     KSMBD_TREE_OK);
	CHECK(w && !a);
	ksmbd_config_free(c);
	/* [global] host lists cover IPC$ too */
	c = parse("[global]\nhosts allow = 127.\n");
	CHECK(c != NULL);
	if (!c)
		return;
	ipc = ksmbd_config_find_share(c, "IPC$");
	CHECK_EQ_INT(ksmbd_share_check_access(ipc, "nobody", true, "10.0.0.1", &w, &a),
		     KSMBD_TREE_DENIED_HOST);
	CHECK_EQ_INT(ksmbd_share_check_access(ipc, "nobody", true, "127.0.0.1", &w, &a),
		     KSMBD_TREE_OK);
	CHECK_EQ_INT(ksmbd_share_check_access(NULL, "alice", false, "10.0.0.1", &w, &a),
		     KSMBD_TREE_NO_SHARE);
	CHECK(!w);
	ksmbd_config_free(c);
}

TEST(connection_limit)
{
	struct ksmbd_config *c = parse("[s]\npath = /s\nmax connections = 2\n[t]\npath = /t\n");
	const struct ksmbd_share *s, *t;

	CHECK(c != NULL);
	if (!c)
		return;
	s = ksmbd_config_find_share(c, "s");
	t = ksmbd_config_find_share(c, "t");
	CHECK_EQ_INT(ksmbd_share_check_connections(s, 0), KSMBD_TREE_OK);
	CHECK_EQ_INT(ksmbd_share_check_connections(s, 1), KSMBD_TREE_OK);
	CHECK_EQ_INT(ksmbd_share_check_connections(s, 2), KSMBD_TREE_TOO_MANY);
	CHECK_EQ_INT(ksmbd_share_check_connections(t, 100000), KSMBD_TREE_OK);
	CHECK_EQ_INT(ksmbd_share_check_connections(NULL, 0), KSMBD_TREE_NO_SHARE);
	ksmbd_config_free(c);
}

TEST(host_name_warning)
{
	struct ksmbd_config *c = parse("[s]\npath = /s\nhosts allow = server1.lan, 10.\n");

	CHECK(c != NULL);
	CHECK_DIAG("t.conf:3: warning: host name 'server1.lan' is not resolved and never matches");
	ksmbd_config_free(c);
}

int main(void)
{
	diag = ksmbd_diag_new();
	RUN(hosts_ipv4);
	RUN(hosts_ipv6_all_localhost);
	RUN(hosts_except);
	RUN(allow_and_deny_rules);
	RUN(guest_rules);
	RUN(user_lists);
	RUN(write_and_admin_lists);
	RUN(unix_groups);
	RUN(ipc_and_missing_share);
	RUN(connection_limit);
	RUN(host_name_warning);
	ksmbd_diag_free(diag);
	return test_report();
}
