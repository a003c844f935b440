// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: arbitrary bytes as ksmbd.conf. The parser must neither
 * crash nor leak, and whatever it accepts must be self-consistent.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"

static void check_share(const struct ksmbd_config *cfg, const struct ksmbd_share *s)
{
	bool w, a;

	/* Every share is found again by its name, and non-pipe shares have a path. */
	if (ksmbd_config_find_share(cfg, s->name) != s)
		abort();
	if (!s->is_pipe && (!s->path || !*s->path))
		abort();
	if (!s->comment)
		abort();
	ksmbd_share_check_access(s, "alice", false, "192.168.1.10", &w, &a);
	ksmbd_share_check_access(s, "nobody", true, "fe80::1", &w, &a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksmbd_diag *diag = ksmbd_diag_new();
	struct ksmbd_config *cfg;
	size_t i, n;

	cfg = ksmbd_config_parse((const char *)data, size, "fuzz.conf", diag);
	if (cfg) {
		const struct ksmbd_global *g = ksmbd_config_global(cfg);

		if (ksmbd_diag_errors(diag))
			abort();	/* accepted despite an error */
		if (g->min_protocol > g->max_protocol || !g->tcp_port)
			abort();
		n = ksmbd_config_share_count(cfg);
		if (!n || !ksmbd_config_share_at(cfg, 0)->is_pipe)
			abort();	/* IPC$ always first */
		for (i = 0; i < n; i++)
			check_share(cfg, ksmbd_config_share_at(cfg, i));
		ksmbd_config_free(cfg);
	} else if (!ksmbd_diag_errors(diag)) {
		abort();		/* refused without saying why */
	}
	ksmbd_diag_free(diag);
	return 0;
}
