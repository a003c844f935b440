// SPDX-License-Identifier: GPL-2.0
/* ksmbd.conf parser: every key, its synonyms, good and bad values. */
#include <errno.h>
#include <unistd.h>
#include <ctype.h>

#include "cfgtest.h"
#include "helpers.h"

static const struct ksmbd_share *share(const struct ksmbd_config *c, const char *n)
{
	return ksmbd_config_find_share(c, n);
}

TEST(empty_gives_defaults_and_ipc)
{
	struct ksmbd_config *c;
	const struct ksmbd_global *g;
	const struct ksmbd_share *ipc;
	char host[256] = "", want[16];
	size_t i;

	MUST_PARSE(c, "");
	g = ksmbd_config_global(c);
	CHECK_EQ_STR(g->workgroup, "WORKGROUP");
	CHECK_EQ_STR(g->server_string, "SMB SERVER");
	CHECK_EQ_INT(g->tcp_port, 445);
	CHECK_EQ_INT(g->min_protocol, KSMBD_DIALECT_SMB2_10);
	CHECK_EQ_INT(g->max_protocol, KSMBD_DIALECT_SMB3_11);
	CHECK_EQ_INT(g->signing, KSMBD_SIGNING_AUTO);
	CHECK(g->smb2_leases);
	CHECK(g->multi_channel);
	CHECK_EQ_INT(g->smb3_encryption, KSMBD_ENCRYPTION_OFF);
	CHECK_EQ_INT(g->ipc_timeout, 10);
	CHECK_EQ_INT(g->deadtime, 0);
	CHECK_EQ_INT(g->max_open_files, 10000);
	CHECK_EQ_INT(g->smb2_max_read, 4 << 20);
	CHECK_EQ_INT(g->smb2_max_write, 4 << 20);
	CHECK_EQ_INT(g->smb2_max_trans, 4 << 20);
	CHECK_EQ_INT(g->map_to_guest, KSMBD_MAP_TO_GUEST_NEVER);
	CHECK_EQ_STR(g->guest_account, "nobody");
	CHECK_EQ_INT(g->restrict_anonymous, 0);
	CHECK(!g->bind_interfaces_only);
	CHECK_EQ_INT(g->interfaces.count, 0);
	CHECK_EQ_INT(g->max_connections, 0);
	CHECK_EQ_INT(g->max_sessions_per_conn, 16);
	CHECK_EQ_INT(g->max_ip_connections, 128);
	CHECK_EQ_INT(g->max_open_files_per_session, 2048);
	CHECK_EQ_INT(g->max_open_files_per_conn, 4096);
	CHECK_EQ_INT(g->max_notify_watches_per_session, 256);
	CHECK_EQ_INT(g->max_locks_per_handle, 4096);
	CHECK_EQ_INT(g->max_locks_per_file, 16384);
	CHECK(g->max_alloc_reservation == 1ull << 30);
	/* netbios name: upper-cased host name up to the first dot, 15 chars */
	gethostname(host, sizeof(host) - 1);
	for (i = 0; i < 15 && host[i] && host[i] != '.'; i++)
		want[i] = (char)toupper((unsigned char)host[i]);
	want[i] = '\0';
	CHECK_EQ_STR(g->netbios_name, want);

	CHECK_EQ_INT(ksmbd_config_share_count(c), 1);
	ipc = ksmbd_config_share_at(c, 0);
	CHECK_EQ_STR(ipc->name, "IPC$");
	CHECK(ipc->is_pipe);
	CHECK_EQ_STR(ipc->comment, "IPC service");
	CHECK(ipc->path == NULL);
	CHECK(share(c, "ipc$") == ipc);
	CHECK(ksmbd_config_share_at(c, 1) == NULL);
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	ksmbd_config_free(c);
}

TEST(global_keys_good)
{
	struct ksmbd_config *c;
	const struct ksmbd_global *g;

	MUST_PARSE(c,
		"[global]\n"
		"netbios name = fileserv\n"
		"server string = My Server\n"
		"workgroup = HOME\n"
		"tcp port = 4445\n"
		"server min protocol = SMB3_00\n"
		"server max protocol = SMB3_02\n"
		"server signing = mandatory\n"
		"smb2 leases = no\n"
		"server multi channel support = no\n"
		"smb3 encryption = required\n"
		"ipc timeout = 30\n"
		"deadtime = 15\n"
		"max open files = 123\n"
		"smb2 max read = 64K\n"
		"smb2 max write = 8M\n"
		"smb2 max trans = 1048576\n"
		"map to guest = Bad User\n"
		"guest account = guest\n"
		"restrict anonymous = 2\n"
		"bind interfaces only = yes\n"
		"interfaces = eth0, lo 192.168.1.1/24\n"
		"max connections = 50\n"
		"max sessions per connection = 3\n"
		"max ip connections = 7\n"
		"max open files per session = 11\n"
		"max open files per connection = 12\n"
		"max notify watches per session = 13\n"
		"max locks per handle = 14\n"
		"max locks per file = 15\n"
		"max allocation reservation = 3M\n");
	g = ksmbd_config_global(c);
	CHECK_EQ_STR(g->netbios_name, "FILESERV");
	CHECK_EQ_STR(g->server_string, "My Server");
	CHECK_EQ_STR(g->workgroup, "HOME");
	CHECK_EQ_INT(g->tcp_port, 4445);
	CHECK_EQ_INT(g->min_protocol, KSMBD_DIALECT_SMB3_00);
	CHECK_EQ_INT(g->max_protocol, KSMBD_DIALECT_SMB3_02);
	CHECK_EQ_INT(g->signing, KSMBD_SIGNING_MANDATORY);
	CHECK(!g->smb2_leases);
	CHECK(!g->multi_channel);
	CHECK_EQ_INT(g->smb3_encryption, KSMBD_ENCRYPTION_REQUIRED);
	CHECK_EQ_INT(g->ipc_timeout, 30);
	CHECK_EQ_INT(g->deadtime, 15);
	CHECK_EQ_INT(g->max_open_files, 123);
	CHECK_EQ_INT(g->smb2_max_read, 65536);
	CHECK_EQ_INT(g->smb2_max_write, 8 << 20);
	CHECK_EQ_INT(g->smb2_max_trans, 1 << 20);
	CHECK_EQ_INT(g->map_to_guest, KSMBD_MAP_TO_GUEST_BAD_USER);
	CHECK_EQ_STR(g->guest_account, "guest");
	CHECK_EQ_INT(g->restrict_anonymous, 2);
	CHECK(g->bind_interfaces_only);
	CHECK_EQ_INT(g->interfaces.count, 3);
	if (g->interfaces.count == 3) {
		CHECK_EQ_STR(g->interfaces.items[0], "eth0");
		CHECK_EQ_STR(g->interfaces.items[1], "lo");
		CHECK_EQ_STR(g->interfaces.items[2], "192.168.1.1/24");
	}
	CHECK_EQ_INT(g->max_connections, 50);
	CHECK_EQ_INT(g->max_sessions_per_conn, 3);
	CHECK_EQ_INT(g->max_ip_connections, 7);
	CHECK_EQ_INT(g->max_open_files_per_session, 11);
	CHECK_EQ_INT(g->max_open_files_per_conn, 12);
	CHECK_EQ_INT(g->max_notify_watches_per_session, 13);
	CHECK_EQ_INT(g->max_locks_per_handle, 14);
	CHECK_EQ_INT(g->max_locks_per_file, 15);
	CHECK(g->max_alloc_reservation == 3u << 20);
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	/* the global encryption is every share's default, IPC$ included */
	CHECK_EQ_INT(ksmbd_config_share_at(c, 0)->smb3_encryption,
		     KSMBD_ENCRYPTION_REQUIRED);
	ksmbd_config_free(c);
}

TEST(global_keys_bad_values)
{
	CHECK_FAILS("[global]\n\ttcp port = abc\n",
		    "t.conf:2: error: 'abc' is not a number");
	CHECK_FAILS("[global]\n\n tcp port = 0\n",
		    "t.conf:3: error: tcp port 0 is out of range 1..65535");
	CHECK_FAILS("[global]\ntcp port = 65536\n",
		    "t.conf:2: error: tcp port 65536 is out of range 1..65535");
	CHECK_FAILS("[global]\ntcp port = -1\n", "t.conf:2: error: '-1' is not a number");
	CHECK_FAILS("[global]\ntcp port = 44 5\n", "t.conf:2: error: '44 5' is not a number");
	CHECK_FAILS("[global]\ntcp port = 99999999999999999999999\n",
		    "t.conf:2: error: '99999999999999999999999' is not a number");
	CHECK_FAILS("[global]\nserver max protocol = SMB4\n",
		    "t.conf:2: error: unknown dialect 'SMB4'");
	CHECK_FAILS("[global]\nserver min protocol = SMB3_11\nserver max protocol = SMB2_10\n",
		    "t.conf:3: error: server min protocol is above server max protocol");
	CHECK_FAILS("[global]\nserver signing = maybe\n",
		    "t.conf:2: error: bad value 'maybe' (expected one of: auto");
	CHECK_FAILS("[global]\nsmb3 encryption = sometimes\n",
		    "t.conf:2: error: bad value 'sometimes'");
	CHECK_FAILS("[global]\nsmb2 leases = perhaps\n",
		    "t.conf:2: error: 'perhaps' is not a boolean");
	CHECK_FAILS("[global]\nipc timeout = 65536\n",
		    "t.conf:2: error: ipc timeout 65536 is out of range 0..65535");
	CHECK_FAILS("[global]\nmax open files = 0\n",
		    "t.conf:2: error: max open files 0 is out of range");
	CHECK_FAILS("[global]\nsmb2 max read = 4X\n",
		    "t.conf:2: error: '4X' is not a size");
	CHECK_FAILS("[global]\nsmb2 max write = 1K\n",
		    "t.conf:2: error: smb2 max write 1024 is out of range 65536..8388608");
	CHECK_FAILS("[global]\nsmb2 max trans = 16M\n",
		    "t.conf:2: error: smb2 max trans 16777216 is out of range");
	CHECK_FAILS("[global]\nsmb2 max read = M\n", "t.conf:2: error: 'M' is not a size");
	CHECK_FAILS("[global]\nsmb2 max read = 4MM\n", "t.conf:2: error: '4MM' is not a size");
	CHECK_FAILS("[global]\nsmb2 max read = 99999999999999999G\n",
		    "t.conf:2: error: '99999999999999999G' is not a size");
	CHECK_FAILS("[global]\nmap to guest = always\n",
		    "t.conf:2: error: bad value 'always'");
	CHECK_FAILS("[global]\nmax sessions per connection = 0\n",
		    "t.conf:2: error: max sessions per connection 0 is out of range 1..1024");
	CHECK_FAILS("[global]\nmax ip connections = 0\n",
		    "t.conf:2: error: max ip connections 0 is out of range 1..65535");
	CHECK_FAILS("[global]\nmax open files per session = 0\n",
		    "t.conf:2: error: max open files per session 0 is out of range");
	CHECK_FAILS("[global]\nmax locks per file = 2000000\n",
		    "t.conf:2: error: max locks per file 2000000 is out of range 1..1048576");
	CHECK_FAILS("[global]\nmax allocation reservation = lots\n",
		    "t.conf:2: error: 'lots' is not a size");
	CHECK_FAILS("[global]\nmax sessions per connection = 1025\n",
		    "t.conf:2: error: max sessions per connection 1025 is out of range");
	CHECK_FAILS("[global]\nrestrict anonymous = 3\n",
		    "t.conf:2: error: restrict anonymous 3 is out of range 0..2");
	CHECK_FAILS("[global]\nnetbios name = ABCDEFGHIJKLMNOP\n",
		    "t.conf:2: error: netbios name must be 1 to 15 characters");
	CHECK_FAILS("[global]\nnetbios name = a.b\n",
		    "t.conf:2: error: netbios name 'a.b' contains '.'");
	CHECK_FAILS("[global]\nworkgroup = "
		    "0123456789012345678901234567890123456789012345678901234567890123\n",
		    "t.conf:2: error: value of 'workgroup' is longer than 63 characters");
	CHECK_FAILS("[global]\nguest account = "
		    "012345678901234567890123456789012345678901234567\n",
		    "t.conf:2: error: value of 'guest account' is longer than 47 characters");
	CHECK_FAILS("[global]\nbind interfaces only = 2\n",
		    "t.conf:2: error: '2' is not a boolean");
	CHECK_FAILS("[global]\nmax connections = many\n",
		    "t.conf:2: error: 'many' is not a number");
	CHECK_FAILS("[global]\ndeadtime = 1.5\n", "t.conf:2: error: '1.5' is not a number");
}

TEST(all_errors_reported_not_just_first)
{
	CHECK_FAILS("[global]\ntcp port = x\nipc timeout = y\n",
		    "t.conf:3: error: 'y' is not a number");
	CHECK_EQ_INT(ksmbd_diag_errors(diag), 2);
}

TEST(protocol_aliases)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\nserver min protocol = SMB3\nserver max protocol = smb3\n");
	CHECK_EQ_INT(ksmbd_config_global(c)->min_protocol, KSMBD_DIALECT_SMB3_00);
	CHECK_EQ_INT(ksmbd_config_global(c)->max_protocol, KSMBD_DIALECT_SMB3_11);
	ksmbd_config_free(c);
	MUST_PARSE(c, "[global]\nserver max protocol = SMB2\n");
	CHECK_EQ_INT(ksmbd_config_global(c)->max_protocol, KSMBD_DIALECT_SMB2_10);
	ksmbd_config_free(c);
	MUST_PARSE(c, "[global]\nmin protocol = SMB2_02\nprotocol = SMB3_00\n");
	CHECK_EQ_INT(ksmbd_config_global(c)->min_protocol, KSMBD_DIALECT_SMB2_10);
	CHECK_EQ_INT(ksmbd_config_global(c)->max_protocol, KSMBD_DIALECT_SMB3_00);
	CHECK_DIAG("t.conf:2: warning: dialect 'SMB2_02' is not supported; using SMB2_10");
	ksmbd_config_free(c);
	MUST_PARSE(c, "[global]\nserver min protocol = SMB2_10\nserver max protocol = SMB3_11\n");
	CHECK_EQ_INT(ksmbd_config_global(c)->min_protocol, 0x0210);
	CHECK_EQ_INT(ksmbd_config_global(c)->max_protocol, 0x0311);
	ksmbd_config_free(c);
	CHECK_FAILS("[global]\nserver max protocol = NT1\n",
		    "t.conf:2: error: unknown dialect 'NT1'");
}

TEST(signing_and_encryption_words)
{
	static const struct { const char *v; int want; } sign[] = {
		{ "auto", KSMBD_SIGNING_AUTO }, { "yes", KSMBD_SIGNING_AUTO },
		{ "Mandatory", KSMBD_SIGNING_MANDATORY }, { "required", KSMBD_SIGNING_MANDATORY },
		{ "disabled", KSMBD_SIGNING_DISABLED }, { "no", KSMBD_SIGNING_DISABLED },
	};
	static const struct { const char *v; int want; } enc[] = {
		{ "no", KSMBD_ENCRYPTION_OFF }, { "off", KSMBD_ENCRYPTION_OFF },
		{ "yes", KSMBD_ENCRYPTION_DESIRED }, { "auto", KSMBD_ENCRYPTION_DESIRED },
		{ "desired", KSMBD_ENCRYPTION_DESIRED }, { "required", KSMBD_ENCRYPTION_REQUIRED },
		{ "mandatory", KSMBD_ENCRYPTION_REQUIRED },
	};
	char text[128];
	struct ksmbd_config *c;
	size_t i;

	for (i = 0; i < sizeof(sign) / sizeof(sign[0]); i++) {
		snprintf(text, sizeof(text), "[global]\nserver signing = %s\n", sign[i].v);
		MUST_PARSE(c, text);
		CHECK_EQ_INT(ksmbd_config_global(c)->signing, sign[i].want);
		ksmbd_config_free(c);
	}
	for (i = 0; i < sizeof(enc) / sizeof(enc[0]); i++) {
		snprintf(text, sizeof(text), "[global]\nsmb3 encryption = %s\n"
			 "[s]\npath = /s\n[t]\npath = /t\nsmb3 encryption = off\n", enc[i].v);
		MUST_PARSE(c, text);
		CHECK_EQ_INT(ksmbd_config_global(c)->smb3_encryption, enc[i].want);
		CHECK_EQ_INT(share(c, "s")->smb3_encryption, enc[i].want);
		CHECK_EQ_INT(share(c, "t")->smb3_encryption, KSMBD_ENCRYPTION_OFF);
		ksmbd_config_free(c);
	}
}

TEST(algorithm_lists)
{
	const struct ksmbd_global *g;
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\n");
	CHECK_EQ_INT(ksmbd_config_global(c)->encryption_algs.count, 0);
	CHECK_EQ_INT(ksmbd_config_global(c)->signing_algs.count, 0);
	ksmbd_config_free(c);
	MUST_PARSE(c, "[global]\nserver smb3 encryption algorithms = "
		   "AES-256-GCM, aes-128-ccm AES-256-GCM\n"
		   "server smb3 signing algorithms = HMAC-SHA256 AES-128-GMAC\n");
	g = ksmbd_config_global(c);
	CHECK_EQ_INT(g->encryption_algs.count, 2);
	CHECK_EQ_INT(g->encryption_algs.ids[0], 4);
	CHECK_EQ_INT(g->encryption_algs.ids[1], 1);
	CHECK_EQ_INT(g->signing_algs.count, 2);
	CHECK_EQ_INT(g->signing_algs.ids[0], 0);
	CHECK_EQ_INT(g->signing_algs.ids[1], 2);
	ksmbd_config_free(c);
	CHECK_FAILS("[global]\nserver smb3 encryption algorithms = AES-512-GCM\n",
		    "t.conf:2: error: unknown algorithm 'AES-512-GCM'");
	CHECK_FAILS("[global]\nserver smb3 signing algorithms = AES-128-CCM\n",
		    "t.conf:2: error: unknown algorithm 'AES-128-CCM'");
	CHECK_FAILS("[global]\nserver smb3 signing algorithms = ,\n",
		    "t.conf:2: error: 'server smb3 signing algorithms' lists no algorithm");
}

TEST(booleans)
{
	/* Samba's spellings and ksmbd-tools' enable/disable. */
	static const char *const yes[] = { "yes", "YES", "true", "True", "1", "on", "ON",
					   "enable", "Enabled" };
	static const char *const no[] = { "no", "No", "false", "FALSE", "0", "off", "Off",
					  "disable", "DISABLED" };
	char text[128];
	struct ksmbd_config *c;
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		snprintf(text, sizeof(text), "[s]\npath = /s\noplocks = %s\n", no[i]);
		MUST_PARSE(c, text);
		CHECK(!share(c, "s")->oplocks);
		ksmbd_config_free(c);
		snprintf(text, sizeof(text), "[s]\npath = /s\nguest ok = %s\n", yes[i]);
		MUST_PARSE(c, text);
		CHECK(share(c, "s")->guest_ok);
		ksmbd_config_free(c);
	}
	CHECK_FAILS("[s]\npath = /s\nguest ok = yep\n",
		    "t.conf:3: error: 'yep' is not a boolean (yes/no/true/false/1/0/on/off)");
	CHECK_FAILS("[s]\npath = /s\nread only = 2\n", "t.conf:3: error: '2' is not a boolean");
	CHECK_FAILS("[s]\npath = /s\nread only = yesplease\n",
		    "t.conf:3: error: 'yesplease' is not a boolean");
}

TEST(share_defaults)
{
	struct ksmbd_config *c;
	const struct ksmbd_share *s;

	MUST_PARSE(c, "[data]\npath = /srv/data\n");
	s = share(c, "DATA");
	CHECK(s != NULL);
	if (!s)
		goto out;
	CHECK_EQ_STR(s->name, "data");
	CHECK_EQ_STR(s->path, "/srv/data");
	CHECK_EQ_STR(s->comment, "");
	CHECK(!s->is_pipe);
	CHECK(s->read_only);
	CHECK(s->browseable);
	CHECK(!s->guest_ok);
	CHECK(!s->guest_only);
	CHECK(s->oplocks);
	CHECK(s->store_dos_attributes);
	CHECK(s->hide_dot_files);
	CHECK_EQ_INT(s->create_mask, 0744);
	CHECK_EQ_INT(s->directory_mask, 0755);
	CHECK_EQ_INT(s->force_create_mode, 0);
	CHECK_EQ_INT(s->force_directory_mode, 0);
	CHECK(s->force_user == NULL);
	CHECK(s->force_group == NULL);
	CHECK_EQ_INT(s->max_connections, 0);
	CHECK_EQ_INT(s->valid_users.count + s->invalid_users.count + s->read_list.count +
		     s->write_list.count + s->admin_users.count + s->hosts_allow.count +
		     s->hosts_deny.count + s->veto_files.count, 0);
	CHECK_EQ_INT(s->line, 1);
	CHECK_EQ_INT(ksmbd_config_share_count(c), 2);
	CHECK(ksmbd_config_share_at(c, 1) == s);
out:
	ksmbd_config_free(c);
}

TEST(share_keys_good)
{
	struct ksmbd_config *c;
	const struct ksmbd_share *s;

	MUST_PARSE(c,
		"[global]\n"
		"[Data]\n"
		"\tpath = /srv/data dir\n"
		"\tcomment = Team files\n"
		"\tread only = no\n"
		"\tbrowseable = no\n"
		"\tguest ok = yes\n"
		"\tguest only = yes\n"
		"\tvalid users = alice, bob @staff\n"
		"\tinvalid users = root\n"
		"\tread list = carol\n"
		"\twrite list = \"Domain Users\", dave\n"
		"\tadmin users = +admins\n"
		"\thosts allow = 192.168.1. 10.0.0.0/8\n"
		"\thosts deny = ALL\n"
		"\tveto files = /*.tmp/.DS_Store/Thumbs db/\n"
		"\tcreate mask = 0664\n"
		"\tdirectory mask = 775\n"
		"\tforce create mode = 0600\n"
		"\tforce directory mode = 02700\n"
		"\tforce user = www-data\n"
		"\tforce group = staff\n"
		"\toplocks = no\n"
		"\tstore dos attributes = no\n"
		"\thide dot files = no\n"
		"\tmax connections = 7\n"
		"\tsmb3 encryption = desired\n");
	s = share(c, "data");
	CHECK(s != NULL);
	if (!s)
		goto out;
	CHECK_EQ_STR(s->path, "/srv/data dir");
	CHECK_EQ_STR(s->comment, "Team files");
	CHECK(!s->read_only);
	CHECK(!s->browseable);
	CHECK(s->guest_ok);
	CHECK(s->guest_only);
	CHECK_EQ_INT(s->valid_users.count, 3);
	if (s->valid_users.count == 3) {
		CHECK_EQ_STR(s->valid_users.items[0], "alice");
		CHECK_EQ_STR(s->valid_users.items[1], "bob");
		CHECK_EQ_STR(s->valid_users.items[2], "@staff");
	}
	CHECK_EQ_INT(s->invalid_users.count, 1);
	CHECK_EQ_INT(s->read_list.count, 1);
	CHECK_EQ_INT(s->write_list.count, 2);
	if (s->write_list.count == 2)
		CHECK_EQ_STR(s->write_list.items[0], "Domain Users");
	CHECK_EQ_INT(s->admin_users.count, 1);
	CHECK_EQ_INT(s->hosts_allow.count, 2);
	CHECK_EQ_INT(s->hosts_deny.count, 1);
	CHECK_EQ_INT(s->veto_files.count, 3);
	if (s->veto_files.count == 3) {
		CHECK_EQ_STR(s->veto_files.items[0], "*.tmp");
		CHECK_EQ_STR(s->veto_files.items[1], ".DS_Store");
		CHECK_EQ_STR(s->veto_files.items[2], "Thumbs db");
	}
	CHECK_EQ_INT(s->create_mask, 0664);
	CHECK_EQ_INT(s->directory_mask, 0775);
	CHECK_EQ_INT(s->force_create_mode, 0600);
	CHECK_EQ_INT(s->force_directory_mode, 02700);
	CHECK_EQ_STR(s->force_user, "www-data");
	CHECK_EQ_STR(s->force_group, "staff");
	CHECK(!s->oplocks);
	CHECK(!s->store_dos_attributes);
	CHECK(!s->hide_dot_files);
	CHECK_EQ_INT(s->max_connections, 7);
	CHECK_EQ_INT(s->smb3_encryption, KSMBD_ENCRYPTION_DESIRED);
	CHECK_EQ_INT(s->line, 2);
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
out:
	ksmbd_config_free(c);
}

TEST(share_keys_bad_values)
{
	CHECK_FAILS("[s]\npath = /s\ncreate mask = 0668\n",
		    "t.conf:3: error: '0668' is not an octal mode (0 to 07777)");
	CHECK_FAILS("[s]\npath = /s\ndirectory mask = 017777\n",
		    "t.conf:3: error: '017777' is not an octal mode");
	CHECK_FAILS("[s]\npath = /s\nforce create mode = rw\n",
		    "t.conf:3: error: 'rw' is not an octal mode");
	CHECK_FAILS("[s]\npath = /s\nmax connections = -2\n",
		    "t.conf:3: error: '-2' is not a number");
	CHECK_FAILS("[s]\npath = /s\nsmb3 encryption = strong\n",
		    "t.conf:3: error: bad value 'strong'");
	CHECK_FAILS("[s]\npath =\n", "t.conf:1: error: share [s] has no path");
	CHECK_FAILS("[s]\ndirectory = srv/s\n",
		    "t.conf:2: error: 'directory' must be an absolute path, got 'srv/s'");
	CHECK_FAILS("[s]\npath = /s\nhosts allow = 300.1.1.1\n",
		    "t.conf:3: error: bad host or network '300.1.1.1'");
	CHECK_FAILS("[s]\npath = /s\nhosts deny = 10.0.0.0/33\n",
		    "t.conf:3: error: bad host or network '10.0.0.0/33'");
	CHECK_FAILS("[s]\npath = /s\nhosts deny = fe80::/129\n",
		    "t.conf:3: error: bad host or network 'fe80::/129'");
	CHECK_FAILS("[s]\npath = /s\nhosts allow = 10.0.0.0/255.0.255.0\n",
		    "t.conf:3: error: bad host or network '10.0.0.0/255.0.255.0'");
	CHECK_FAILS("[s]\npath = /s\nhosts allow = 1.2.3.4.5.\n",
		    "t.conf:3: error: bad host or network '1.2.3.4.5.'");
	CHECK_FAILS("[s]\npath = /s\nhosts allow = a$b\n",
		    "t.conf:3: error: bad host or network 'a$b'");
}

TEST(synonyms)
{
	static const struct { const char *line; bool read_only; } ro[] = {
		{ "read only = yes", true }, { "readonly = no", false },
		{ "Read Only = no", false }, { "READ  ONLY=no", false },
		{ "writeable = yes", false }, { "writable = no", true },
		{ "write ok = yes", false }, { "writeok = no", true },
	};
	char text[256];
	struct ksmbd_config *c;
	const struct ksmbd_share *s;
	size_t i;

	for (i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
		snprintf(text, sizeof(text), "[s]\npath = /s\n%s\n", ro[i].line);
		MUST_PARSE(c, text);
		CHECK_EQ_INT(share(c, "s")->read_only, ro[i].read_only);
		ksmbd_config_free(c);
	}
	MUST_PARSE(c, "[s]\ndirectory = /d\nbrowsable = no\npublic = yes\nonly guest = yes\n"
		   "create mode = 0600\ndirectory mode = 0700\nallow hosts = 10.\n"
		   "deny hosts = 11.\nserver smb encrypt = required\n");
	s = share(c, "s");
	CHECK_EQ_STR(s->path, "/d");
	CHECK(!s->browseable);
	CHECK(s->guest_ok);
	CHECK(s->guest_only);
	CHECK_EQ_INT(s->create_mask, 0600);
	CHECK_EQ_INT(s->directory_mask, 0700);
	CHECK_EQ_INT(s->hosts_allow.count, 1);
	CHECK_EQ_INT(s->hosts_deny.count, 1);
	CHECK_EQ_INT(s->smb3_encryption, KSMBD_ENCRYPTION_REQUIRED);
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	ksmbd_config_free(c);
	/* Section names and key spelling are case-insensitive too. */
	MUST_PARSE(c, "[GLOBAL]\nTCP_PORT = 1\nTcp Port = 139\nsmb ports = 140\n");
	CHECK_EQ_INT(ksmbd_config_global(c)->tcp_port, 139);
	CHECK_DIAG("t.conf:2: warning: unknown parameter 'TCP_PORT' ignored");
	CHECK_DIAG("t.conf:4: warning: 'smb ports' was already set on line 3: the first value is kept");
	ksmbd_config_free(c);
}

TEST(sizes)
{
	/* Every form ksmbd-tools reads: K/M/G..., with B or iB after it. */
	static const struct { const char *v; uint32_t want; } sz[] = {
		{ "65536", 65536 }, { "64K", 65536 }, { "64k", 65536 },
		{ "1M", 1 << 20 }, { "4m", 4 << 20 }, { "8M", 8 << 20 }, { "8192K", 8 << 20 },
		{ "4MB", 4 << 20 }, { "4mb", 4 << 20 }, { "4 MB", 4 << 20 },
		{ "4MiB", 4 << 20 }, { "1024KB", 1 << 20 }, { "65536B", 65536 },
		{ "4M ; four", 4 << 20 },
	};
	char text[128];
	struct ksmbd_config *c;
	size_t i;

	for (i = 0; i < sizeof(sz) / sizeof(sz[0]); i++) {
		snprintf(text, sizeof(text), "[global]\nsmb2 max read = %s\n", sz[i].v);
		MUST_PARSE(c, text);
		CHECK_EQ_INT(ksmbd_config_global(c)->smb2_max_read, sz[i].want);
		ksmbd_config_free(c);
	}
	CHECK_FAILS("[global]\nsmb2 max read = 1G\n",
		    "t.conf:2: error: smb2 max read 1073741824 is out of range");
	CHECK_FAILS("[global]\nsmb2 max read = 1T\n",
		    "t.conf:2: error: smb2 max read 1099511627776 is out of range");
	CHECK_FAILS("[global]\nsmb2 max read = 4MBB\n", "t.conf:2: error: '4MBB' is not a size");
	CHECK_FAILS("[global]\nsmb2 max read = 4 M B\n", "t.conf:2: error: '4 M B' is not a size");
	CHECK_FAILS("[global]\nsmb2 max read = 16E\n", "t.conf:2: error: '16E' is not a size");
}

TEST(continuation_lines)
{
	struct ksmbd_config *c;
	const struct ksmbd_share *s;

	MUST_PARSE(c,
		"[s]\n"
		"path = /s\n"
		"comment = one \\\n"
		"\t two \\\n"
		"three\n"
		"valid users = alice, \\\n"
		"   bob\n"
		"hosts allow = 10. \\\r\n"
		"  11.\r\n");
	s = share(c, "s");
	CHECK_EQ_STR(s->comment, "one two three");
	CHECK_EQ_INT(s->valid_users.count, 2);
	CHECK_EQ_INT(s->hosts_allow.count, 2);
	ksmbd_config_free(c);
	/* An error after continued lines names the right physical line... */
	CHECK_FAILS("[s]\npath = /s\ncomment = a \\\nb \\\nc\noplocks = maybe\n",
		    "t.conf:6: error: 'maybe' is not a boolean");
	/* ...and one inside a continued line names its first line. */
	CHECK_FAILS("[s]\npath = /s\noplocks = \\\nmaybe\n",
		    "t.conf:3: error: 'maybe' is not a boolean");
	/* A continuation at the very end of the file is harmless. */
	MUST_PARSE(c, "[s]\npath = /s\\");
	CHECK_EQ_STR(share(c, "s")->path, "/s");
	ksmbd_config_free(c);
}

TEST(comments)
{
	struct ksmbd_config *c;

	MUST_PARSE(c,
		"# leading comment\n"
		"; another\n"
		"   # indented comment = not a key\n"
		"[s]\n"
		"\t; comment inside\n"
		"path = /s   \n"
		"# a comment ending in a backslash \\\n"
		"comment = kept # the rest of a line is a comment, as ksmbd-tools reads it\n"
		"read only = ; yes (ksmbd-tools' example: an empty value)\n"
		"[t]   ; a header may have one too\n"
		"path = /t;x\n");
	CHECK_EQ_STR(share(c, "s")->path, "/s");
	CHECK_EQ_STR(share(c, "s")->comment, "kept");
	CHECK(share(c, "s")->read_only);
	CHECK_EQ_STR(share(c, "t")->path, "/t");
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	ksmbd_config_free(c);
}

TEST(sections_and_structure)
{
	CHECK_FAILS("[a]\ncomment = x\n[b]\npath = /b\n", "t.conf:1: error: share [a] has no path");
	CHECK_FAILS("[b]\npath = /b\n[a]\ncomment = x\n", "t.conf:3: error: share [a] has no path");
	CHECK_FAILS("path = /x\n", "t.conf:1: error: 'path' is outside of any [section]");
	CHECK_FAILS("[abc\npath = /x\n", "t.conf:1: error: bad section header '[abc'");
	CHECK_FAILS("[abc] junk\n", "t.conf:1: error: bad section header '[abc] junk'");
	CHECK_FAILS("[]\n", "t.conf:1: error: empty section name");
	CHECK_FAILS("[a]\npath = /a\njust words\n",
		    "t.conf:3: error: expected 'key = value', got 'just words'");
	CHECK_FAILS("[a]\npath = /a\n = value\n", "t.conf:3: error: missing key before '='");
	CHECK_FAILS("[IPC$]\npath = /x\n", "t.conf:1: error: [IPC$] is reserved");
	CHECK_FAILS("[a/b]\npath = /x\n", "t.conf:1: error: share name 'a/b' contains '/'");
	CHECK_FAILS("[0123456789012345678901234567890123456789012345678901234567890123]\n",
		    "t.conf:1: error: share name '0123456789");
}

TEST(nul_byte_with_length)
{
	static const char text[] = "[a]\npath = /a\ncomment = x\0y\n";
	struct ksmbd_config *c;

	ksmbd_diag_clear(diag);
	c = ksmbd_config_parse(text, sizeof(text) - 1, "t.conf", diag);
	CHECK(c == NULL);
	CHECK_DIAG("t.conf:3: error: NUL byte in line");
	ksmbd_config_free(c);
	/* The length is honoured: the text after @len is never read. */
	c = ksmbd_config_parse("[a]\npath = /a\ntcp port = x", 13, "t.conf", diag);
	CHECK(c != NULL);
	ksmbd_config_free(c);
}

TEST(unknown_keys_warn)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\nfrobnicate = yes\n[s]\npath = /s\nvfs objects = fruit\n"
		   "workgroup = X\n");
	CHECK_DIAG("t.conf:2: warning: unknown parameter 'frobnicate' ignored");
	CHECK_DIAG("t.conf:5: warning: vfs object 'fruit' is not built in: ignored");
	CHECK_DIAG("t.conf:6: warning: global parameter 'workgroup' in share [s] ignored");
	CHECK_EQ_INT(ksmbd_diag_warnings(diag), 3);
	CHECK_EQ_INT(ksmbd_diag_errors(diag), 0);
	CHECK_EQ_STR(ksmbd_config_global(c)->workgroup, "WORKGROUP");
	ksmbd_config_free(c);
	/* A warning does not hide an error elsewhere. */
	CHECK_FAILS("[global]\nfoo = 1\ntcp port = 0\n", "t.conf:3: error:");
}

TEST(inherit_owner_refused)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[s]\npath = /s\ninherit owner = yes\n[t]\npath = /t\n"
		   "inherit owner = no\n");
	CHECK_DIAG("t.conf:3: warning: 'inherit owner' is not supported: "
		   "share [s] is refused");
	CHECK_EQ_INT(ksmbd_diag_warnings(diag), 1);
	CHECK(share(c, "s")->inherit_owner);
	CHECK(!share(c, "t")->inherit_owner);
	ksmbd_config_free(c);
}

TEST(global_share_defaults)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\nguest ok = yes\nread only = no\nmax connections = 9\n"
		   "hosts deny = 10.\n[a]\npath = /a\n[b]\npath = /b\nguest ok = no\n");
	CHECK(share(c, "a")->guest_ok);
	CHECK(!share(c, "a")->read_only);
	CHECK_EQ_INT(share(c, "a")->hosts_deny.count, 1);
	CHECK(!share(c, "b")->guest_ok);
	/* "max connections" in [global] is the server-wide limit only. */
	CHECK_EQ_INT(ksmbd_config_global(c)->max_connections, 9);
	CHECK_EQ_INT(share(c, "a")->max_connections, 0);
	/* IPC$ takes the host lists of [global], no other share default. */
	CHECK(!ksmbd_config_share_at(c, 0)->guest_ok);
	CHECK(ksmbd_config_share_at(c, 0)->read_only);
	CHECK_EQ_INT(ksmbd_config_share_at(c, 0)->hosts_deny.count, 1);
	ksmbd_config_free(c);
}

/*
 * ksmbd-tools keeps the first value of a key given twice in a section
 * (an empty value does not count: it sets nothing); each later one is
 * one warning naming both lines. Synonyms are one key.
 */
TEST(first_value_kept)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[s]\npath = /one\npath = /two\nvalid users = a b\nvalid users = c\n"
		   "force user =\nforce user = x\nread only = no\nwriteable = no\n");
	CHECK_EQ_STR(share(c, "s")->path, "/one");
	CHECK_EQ_INT(share(c, "s")->valid_users.count, 2);
	CHECK_EQ_STR(share(c, "s")->force_user, "x");
	CHECK(!share(c, "s")->read_only);
	CHECK_DIAG("t.conf:3: warning: 'path' was already set on line 2: the first value is kept, as ksmbd-tools keeps it");
	CHECK_DIAG("t.conf:5: warning: 'valid users' was already set on line 4");
	CHECK_DIAG("t.conf:9: warning: 'writeable' was already set on line 8");
	CHECK_EQ_INT(ksmbd_diag_warnings(diag), 3);
	CHECK_EQ_INT(ksmbd_diag_errors(diag), 0);
	ksmbd_config_free(c);
	/* A share setting wins over the [global] default whatever the order. */
	MUST_PARSE(c, "[global]\nread only = no\n[s]\npath = /s\nread only = yes\n");
	CHECK(share(c, "s")->read_only);
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	ksmbd_config_free(c);
}

/* ksmbd-tools' whole documented vocabulary, as an admin would have it. */
TEST(ksmbd_tools_documented_keys)
{
	const struct ksmbd_global *g;
	const struct ksmbd_share *s;
	struct ksmbd_config *c;

	ksmbd_diag_clear(diag);
	c = ksmbd_config_load(KSMBD_TOP_DIR "/tests/unit/daemon/data/ksmbd-tools.conf", diag);
	CHECK(c != NULL);
	if (!c) {
		test_fail_("refused: %s", ksmbd_diag_line(diag, 0));
		return;
	}
	CHECK_EQ_INT(ksmbd_diag_errors(diag), 0);
	g = ksmbd_config_global(c);
	CHECK_EQ_STR(g->netbios_name, "NAS BOX");
	CHECK_EQ_STR(g->server_string, "Files of the 3rd floor");
	CHECK_EQ_STR(g->workgroup, "OFFICE");
	CHECK_EQ_INT(g->smb2_max_read, 4 << 20);
	CHECK_EQ_INT(g->smb2_max_write, 4 << 20);
	CHECK_EQ_INT(g->smb2_max_trans, 1 << 20);
	CHECK_EQ_INT(g->max_open_files, 20000);
	CHECK_EQ_INT(g->max_connections, 1024);
	CHECK_EQ_INT(g->deadtime, 30);
	CHECK_EQ_INT(g->ipc_timeout, 0);
	CHECK_EQ_INT(g->map_to_guest, KSMBD_MAP_TO_GUEST_BAD_USER);
	CHECK_EQ_INT(g->restrict_anonymous, 1);
	CHECK_EQ_INT(g->krb5_support, KSMBD_KRB5_NO);
	CHECK_EQ_STR(g->krb5_keytab, "/etc/krb5.keytab");
	CHECK_EQ_STR(g->krb5_service, "cifs/nas.example.test@EXAMPLE.TEST");
	CHECK(!g->multi_channel);
	CHECK_EQ_INT(g->smb3_encryption, KSMBD_ENCRYPTION_DESIRED);
	CHECK_EQ_INT(g->fake_fscaps, 64);
	CHECK(g->root_dir == NULL);
	CHECK_EQ_INT(g->interfaces.count, 0);
	/* six shares: IPC$ and the five sections, [PROJECTS] merged */
	CHECK_EQ_INT(ksmbd_config_share_count(c), 5);
	s = share(c, "projects");
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ_STR(s->name, "projects");
		CHECK_EQ_STR(s->comment, "Shared project folders");
		CHECK(!s->read_only);
		CHECK_EQ_INT(s->valid_users.count, 3);
		CHECK_EQ_INT(s->hosts_allow.count, 2);
		CHECK_EQ_INT(s->veto_files.count, 2);
		CHECK_EQ_INT(s->create_mask, 0660);
		CHECK_EQ_INT(s->max_connections, 64);
		CHECK_EQ_STR(s->force_user, "projects");
		CHECK_EQ_STR(s->force_group, "staff");
		CHECK(!s->oplocks);
	}
	CHECK(share(c, "public") && share(c, "public")->read_only &&
	      share(c, "public")->guest_ok);
	CHECK(share(c, "scratch") && !share(c, "scratch")->read_only);
	CHECK(share(c, "drop") && !share(c, "drop")->read_only);
	/* What we do not do is said, once each, with its line. */
	CHECK_DIAG("ksmbd-tools.conf:26: warning: 'smbd max io size = 8MB' is not honoured: SMB Direct");
	CHECK_DIAG("ksmbd-tools.conf:30: warning: 'max active sessions = 1024' is not honoured");
	CHECK_DIAG("ksmbd-tools.conf:52: warning: 'crossmnt = no' is not honoured");
	CHECK_DIAG("ksmbd-tools.conf:102: warning: 'guest account = visitor' is not honoured");
	CHECK_DIAG("ksmbd-tools.conf:114: warning: section [PROJECTS] repeats [projects] of line 76: merged into it");
	CHECK_EQ_INT(ksmbd_diag_warnings(diag), 5);
	CHECK_EQ_INT(g->max_ip_connections, 16);
	ksmbd_config_free(c);
}

/*
 * Every bad value is exactly one error, naming the file and line, and
 * nothing else is said about it.
 */
TEST(bad_values_one_error_each)
{
	static const struct {
		const char *text;
		const char *msg;
	} bad[] = {
		{ "[global]\ntcp port = 0x1bd\n", "t.conf:2: error: '0x1bd' is not a number" },
		{ "[global]\nsmb2 max write = 4QB\n", "t.conf:2: error: '4QB' is not a size" },
		{ "[global]\nsmb2 max read = 32K\n",
		  "t.conf:2: error: smb2 max read 32768 is out of range 65536..8388608" },
		{ "[global]\nmax connections = 5X\n", "t.conf:2: error: '5X' is not a number" },
		{ "[global]\nserver signing = sometimes\n", "t.conf:2: error: bad value 'sometimes'" },
		{ "[global]\nmap to guest = bad guest\n", "t.conf:2: error: bad value 'bad guest'" },
		{ "[global]\nkerberos support = maybe\n", "t.conf:2: error: bad value 'maybe'" },
		{ "[global]\nnetbios name = NAS.BOX\n",
		  "t.conf:2: error: netbios name 'NAS.BOX' contains '.'" },
		{ "[global]\nroot directory = srv\n",
		  "t.conf:2: error: 'root directory' must be an absolute path, got 'srv'" },
		{ "[global]\nshare:fake_fscaps = sparse\n", "t.conf:2: error: 'sparse' is not a number" },
		{ "[global]\ninterfaces = eth*\nbind interfaces only = yes\n",
		  "t.conf:2: error: 'eth*' is not an interface name" },
		{ "[global]\ninterfaces = 10.0.0.1/33\nbind interfaces only = yes\n",
		  "t.conf:2: error: '10.0.0.1/33' is not an interface name" },
		{ "[global]\ninterfaces = averyveryverylongname\nbind interfaces only = yes\n",
		  "t.conf:2: error: 'averyveryverylongname' is not an interface name" },
		{ "[global]\nbind interfaces only = yes\n",
		  "t.conf:2: error: 'bind interfaces only = yes' needs 'interfaces'" },
		{ "[global]\ndurable handles = sure\n", "t.conf:2: error: 'sure' is not a boolean" },
		{ "[global]\nsmbd max io size = lots\n", "t.conf:2: error: 'lots' is not a size" },
		{ "[s]\npath = /s\nfollow symlinks = 2\n", "t.conf:3: error: '2' is not a boolean" },
		{ "[s]\npath = /s\ncreate mask = 0999 ; octal only\n",
		  "t.conf:3: error: '0999' is not an octal mode" },
		{ "[s]\ncomment = no path\n", "t.conf:1: error: share [s] has no path" },
		{ "[s]\npath = /s\nhosts allow = 10.0.0.0/40\n",
		  "t.conf:3: error: bad host or network '10.0.0.0/40'" },
	};
	struct ksmbd_config *c;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = parse(bad[i].text);
		if (c)
			test_fail_("accepted: %s", bad[i].text);
		ksmbd_config_free(c);
		if (ksmbd_diag_count(diag) != 1 || !ksmbd_diag_find(diag, bad[i].msg))
			test_fail_("%s: %zu messages, first \"%s\", expected only \"%s\"",
				   bad[i].text, ksmbd_diag_count(diag),
				   ksmbd_diag_line(diag, 0) ? ksmbd_diag_line(diag, 0) : "",
				   bad[i].msg);
	}
}

/* An empty value sets nothing: the default (or [global]'s) stays. */
TEST(empty_values_unset)
{
	struct ksmbd_config *c;
	const struct ksmbd_share *s;

	MUST_PARSE(c, "[global]\nworkgroup =\ntcp port =\nvalid users = alice\n"
		   "kerberos keytab file =\nkerberos service name =\n"
		   "[s]\npath = /s\nvalid users =\ncreate mask =\nbrowseable =\n"
		   "force user =\t\ncomment = ;\n");
	CHECK_EQ_STR(ksmbd_config_global(c)->workgroup, "WORKGROUP");
	CHECK_EQ_INT(ksmbd_config_global(c)->tcp_port, 445);
	CHECK_EQ_STR(ksmbd_config_global(c)->krb5_keytab, "/etc/krb5.keytab");
	CHECK_EQ_STR(ksmbd_config_global(c)->krb5_service, "cifs");
	s = share(c, "s");
	CHECK_EQ_INT(s->valid_users.count, 1);
	CHECK_EQ_INT(s->create_mask, 0744);
	CHECK(s->browseable);
	CHECK(s->force_user == NULL);
	CHECK_EQ_STR(s->comment, "");
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	ksmbd_config_free(c);
}

/*
 * A repeated section continues the first one (with a warning); [global]
 * holds the share defaults wherever it stands, even after the shares.
 */
TEST(repeated_sections_merge)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[a]\npath = /a\n[global]\nworkgroup = ONE\n[b]\npath = /b\n"
		   "[A]\ncomment = second part\n[Global]\nguest ok = yes\nworkgroup = TWO\n");
	CHECK_EQ_INT(ksmbd_config_share_count(c), 3);
	CHECK_EQ_STR(share(c, "a")->name, "a");
	CHECK_EQ_STR(share(c, "a")->comment, "second part");
	CHECK(share(c, "a")->guest_ok);
	CHECK(share(c, "b")->guest_ok);
	CHECK_EQ_STR(ksmbd_config_global(c)->workgroup, "ONE");
	CHECK_DIAG("t.conf:7: warning: section [A] repeats [a] of line 1: merged into it, as ksmbd-tools does");
	CHECK_DIAG("t.conf:9: warning: section [Global] repeats [global] of line 3");
	CHECK_DIAG("t.conf:11: warning: 'workgroup' was already set on line 4");
	CHECK_EQ_INT(ksmbd_diag_warnings(diag), 3);
	CHECK_EQ_INT(ksmbd_diag_errors(diag), 0);
	/* Shares keep the order of their first header. */
	CHECK(ksmbd_config_share_at(c, 1) == share(c, "a"));
	ksmbd_config_free(c);
}

TEST(netbios_name_and_server_string_with_blanks)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\nnetbios name = ksmbd server\nserver string = My  NAS # home\n");
	CHECK_EQ_STR(ksmbd_config_global(c)->netbios_name, "KSMBD SERVER");
	CHECK_EQ_STR(ksmbd_config_global(c)->server_string, "My  NAS");
	ksmbd_config_free(c);
}

TEST(map_to_guest_words)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\nmap to guest = Bad Password\n");
	CHECK_EQ_INT(ksmbd_config_global(c)->map_to_guest, KSMBD_MAP_TO_GUEST_BAD_USER);
	CHECK_DIAG("t.conf:2: warning: 'bad password' works as 'bad user' here");
	ksmbd_config_free(c);
	MUST_PARSE(c, "[global]\nmap to guest = bad uid\n");
	CHECK_EQ_INT(ksmbd_config_global(c)->map_to_guest, KSMBD_MAP_TO_GUEST_NEVER);
	CHECK_DIAG("t.conf:2: warning: 'bad uid' applies to domain members only");
	ksmbd_config_free(c);
	MUST_PARSE(c, "[global]\nmap to guest = never\n");
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	ksmbd_config_free(c);
}

/* Values that match what we do are quiet; the others say what happens. */
TEST(unhonoured_keys)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\ndurable handles = yes\nsmb2 max credits = 8K\n"
		   "crossmnt = yes\n[s]\npath = /s\nfollow symlinks = no\ninherit owner = no\n"
		   "vfs objects = streams_xattr\n");
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	ksmbd_config_free(c);
	MUST_PARSE(c, "[global]\ndurable handles = no\nsmb2 max credits = 512\n"
		   "crossmnt = no\n[s]\npath = /s\nfollow symlinks = yes\ninherit owner = yes\n"
		   "vfs objects = catia, streams_xattr\n");
	CHECK_DIAG("t.conf:2: warning: 'durable handles = no' is not honoured: durable handles are always granted");
	CHECK_DIAG("t.conf:3: warning: 'smb2 max credits = 512' is not honoured");
	CHECK_DIAG("t.conf:4: warning: 'crossmnt = no' is not honoured");
	CHECK_DIAG("t.conf:7: warning: 'follow symlinks = yes' is not honoured: symbolic links are never followed");
	CHECK_DIAG("t.conf:8: warning: 'inherit owner' is not supported: share [s] is refused");
	CHECK_DIAG("t.conf:9: warning: vfs object 'catia' is not built in: ignored");
	CHECK_EQ_INT(ksmbd_diag_warnings(diag), 6);
	ksmbd_config_free(c);
}

/* "acl xattr" (ksmbd-tools) and Samba's "vfs objects = acl_xattr" */
TEST(acl_xattr_keys)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[a]\npath = /a\n[b]\npath = /b\nacl xattr = yes\n"
		   "[c]\npath = /c\nvfs objects = streams_xattr ACL_XATTR\n"
		   "[d]\npath = /d\nvfs objects = streams_xattr\n");
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	CHECK(!share(c, "a")->acl_xattr);
	CHECK(share(c, "b")->acl_xattr);
	CHECK(share(c, "c")->acl_xattr);
	CHECK(!share(c, "d")->acl_xattr);
	ksmbd_config_free(c);
	/* a [global] default; one key per field: the first setting wins */
	MUST_PARSE(c, "[global]\nvfs objects = acl_xattr\n[a]\npath = /a\n"
		   "[b]\npath = /b\nacl xattr = no\nvfs objects = acl_xattr\n");
	CHECK(share(c, "a")->acl_xattr);
	CHECK(!share(c, "b")->acl_xattr);
	ksmbd_config_free(c);
}

/* "hide unreadable" (access-based enumeration): off unless asked */
TEST(hide_unreadable_key)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\nhide unreadable = yes\n[a]\npath = /a\n"
		   "[b]\npath = /b\nhide unreadable = no\n");
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	CHECK(share(c, "a")->hide_unreadable);
	CHECK(!share(c, "b")->hide_unreadable);
	ksmbd_config_free(c);
	MUST_PARSE(c, "[a]\npath = /a\n");
	CHECK(!share(c, "a")->hide_unreadable);
	ksmbd_config_free(c);
}

TEST(root_directory)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\nroot directory = /srv/root/\n[a]\npath = /a\n[b]\npath = /x/y\n");
	CHECK_EQ_STR(share(c, "a")->path, "/srv/root/a");
	CHECK_EQ_STR(share(c, "b")->path, "/srv/root/x/y");
	CHECK(ksmbd_config_share_at(c, 0)->path == NULL);
	ksmbd_config_free(c);
}

TEST(interfaces)
{
	const struct ksmbd_global *g;
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\nbind interfaces only = yes\n"
		   "interfaces = eth0 192.168.1.10 10.1.2.3/255.255.0.0, fe80::1/64 ::1\n");
	g = ksmbd_config_global(c);
	CHECK_EQ_INT(g->interfaces.count, 5);
	if (g->interfaces.count == 5) {
		CHECK_EQ_STR(g->interfaces.items[0], "eth0");
		CHECK_EQ_STR(g->interfaces.items[1], "192.168.1.10/32");
		CHECK_EQ_STR(g->interfaces.items[2], "10.1.2.3/16");
		CHECK_EQ_STR(g->interfaces.items[3], "fe80::1/64");
		CHECK_EQ_STR(g->interfaces.items[4], "::1/128");
	}
	CHECK_EQ_INT(ksmbd_diag_count(diag), 0);
	ksmbd_config_free(c);
	MUST_PARSE(c, "[global]\ninterfaces = eth0\n");
	CHECK_DIAG("t.conf:2: warning: 'interfaces' has no effect without 'bind interfaces only = yes'");
	ksmbd_config_free(c);
	CHECK_FAILS("[global]\nbind interfaces only = yes\ninterfaces = 10.0.0.1/255.0.255.0\n",
		    "t.conf:3: error: '10.0.0.1/255.0.255.0' is not an interface name");
}

TEST(kerberos_keys)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[global]\nkerberos keytab file = /etc/ksmbd/krb5.keytab\n"
		   "kerberos service name = cifs/files.example.test@EXAMPLE.TEST\n"
		   "kerberos support = yes\n");
	CHECK_EQ_STR(ksmbd_config_global(c)->krb5_keytab, "/etc/ksmbd/krb5.keytab");
	CHECK_EQ_STR(ksmbd_config_global(c)->krb5_service,
		     "cifs/files.example.test@EXAMPLE.TEST");
	CHECK_EQ_INT(ksmbd_config_global(c)->krb5_support, KSMBD_KRB5_YES);
	ksmbd_config_free(c);
	MUST_PARSE(c, "[global]\n");
	CHECK_EQ_INT(ksmbd_config_global(c)->krb5_support, KSMBD_KRB5_AUTO);
	ksmbd_config_free(c);
}

TEST(find_share)
{
	struct ksmbd_config *c;

	MUST_PARSE(c, "[Alpha]\npath = /a\n[beta]\npath = /b\n");
	CHECK_EQ_INT(ksmbd_config_share_count(c), 3);
	CHECK(share(c, "alpha") == ksmbd_config_share_at(c, 1));
	CHECK(share(c, "BETA") == ksmbd_config_share_at(c, 2));
	CHECK(share(c, "gamma") == NULL);
	CHECK(share(c, "") == NULL);
	ksmbd_config_free(c);
}

TEST(load_from_file)
{
	const char *dir = th_tmpdir();
	struct ksmbd_config *c;
	char want[600];

	th_write(th_path(dir, "ok.conf"), "[global]\nworkgroup = FILES\n[s]\npath = /s\n");
	th_write(th_path(dir, "bad.conf"), "[global]\n\ntcp port = 0\n");
	ksmbd_diag_clear(diag);
	c = ksmbd_config_load(th_path(dir, "ok.conf"), diag);
	CHECK(c != NULL);
	if (c)
		CHECK_EQ_STR(ksmbd_config_global(c)->workgroup, "FILES");
	ksmbd_config_free(c);

	c = ksmbd_config_load(th_path(dir, "bad.conf"), diag);
	CHECK(c == NULL);
	snprintf(want, sizeof(want), "%s:3: error: tcp port 0 is out of range",
		 th_path(dir, "bad.conf"));
	CHECK_DIAG(want);

	ksmbd_diag_clear(diag);
	c = ksmbd_config_load(th_path(dir, "missing.conf"), diag);
	CHECK(c == NULL);
	snprintf(want, sizeof(want), "%s: error: cannot read: No such file or directory",
		 th_path(dir, "missing.conf"));
	CHECK_DIAG(want);
	c = ksmbd_config_load(dir, diag);	/* a folder is not a config */
	CHECK(c == NULL);
	th_rmtree(dir);
}

TEST(diag_print_format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ksmbd_diag_clear(diag);
	ksmbd_config_free(parse("[global]\nx = 1\ntcp port = 0\n"));
	f = open_memstream(&buf, &len);
	ksmbd_diag_print(diag, f);
	fclose(f);
	CHECK_EQ_STR(buf, "t.conf:2: warning: unknown parameter 'x' ignored\n"
		     "t.conf:3: error: tcp port 0 is out of range 1..65535\n");
	free(buf);
	/* Parsing without a diag is allowed. */
	CHECK(ksmbd_config_parse("[a]\n", 4, NULL, NULL) == NULL);
}

int main(void)
{
	diag = ksmbd_diag_new();
	RUN(empty_gives_defaults_and_ipc);
	RUN(global_keys_good);
	RUN(global_keys_bad_values);
	RUN(all_errors_reported_not_just_first);
	RUN(protocol_aliases);
	RUN(signing_and_encryption_words);
	RUN(algorithm_lists);
	RUN(booleans);
	RUN(share_defaults);
	RUN(share_keys_good);
	RUN(share_keys_bad_values);
	RUN(synonyms);
	RUN(sizes);
	RUN(continuation_lines);
	RUN(comments);
	RUN(sections_and_structure);
	RUN(nul_byte_with_length);
	RUN(unknown_keys_warn);
	RUN(inherit_owner_refused);
	RUN(global_share_defaults);
	RUN(first_value_kept);
	RUN(ksmbd_tools_documented_keys);
	RUN(bad_values_one_error_each);
	RUN(empty_values_unset);
	RUN(repeated_sections_merge);
	RUN(netbios_name_and_server_string_with_blanks);
	RUN(map_to_guest_words);
	RUN(unhonoured_keys);
	RUN(acl_xattr_keys);
	RUN(hide_unreadable_key);
	RUN(root_directory);
	RUN(interfaces);
	RUN(kerberos_keys);
	RUN(find_share);
	RUN(load_from_file);
	RUN(diag_print_format);
	ksmbd_diag_free(diag);
	return test_report();
}
