/* SPDX-License-Identifier: GPL-2.0 */
/* Parse helpers shared by the config and access tests. */
#ifndef KSMBD_TEST_CFGTEST_H
#define KSMBD_TEST_CFGTEST_H

#include "config.h"
#include "testlib.h"

static struct ksmbd_diag *diag;

__attribute__((unused))
static struct ksmbd_config *parse(const char *text)
{
	ksmbd_diag_clear(diag);
	return ksmbd_config_parse(text, strlen(text), "t.conf", diag);
}

/* The diagnostics must contain @msg (e.g. "t.conf:3: error: ..."). */
#define CHECK_DIAG(msg) do {						\
	if (!ksmbd_diag_find(diag, (msg)))				\
		test_fail_("no diagnostic \"%s\"; got \"%s\"", (msg),	\
			   ksmbd_diag_line(diag, 0) ?			\
			   ksmbd_diag_line(diag, 0) : "(none)");	\
} while (0)

/* Loading @text must fail and say @msg. */
#define CHECK_FAILS(text, msg) do {					\
	struct ksmbd_config *c_ = parse(text);				\
	if (c_)								\
		test_fail_("accepted: %s", (text));			\
	ksmbd_config_free(c_);						\
	CHECK_DIAG(msg);						\
} while (0)

/* Parses @text, which must load; the caller frees. */
#define MUST_PARSE(var, text) do {					\
	(var) = parse(text);						\
	if (!(var)) {							\
		test_fail_("refused: %s", ksmbd_diag_line(diag, 0) ?	\
			   ksmbd_diag_line(diag, 0) : "(no diag)");	\
		return;							\
	}								\
} while (0)

#endif
