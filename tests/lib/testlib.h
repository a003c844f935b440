/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test runner for host tests.
 *
 * Every test binary prints one line per test case:
 *   PASS: suite/name
 *   FAIL: suite/name: file:line: message
 *   SKIP: suite/name: reason
 * tests/run-suite collects these lines; tests/summary adds them up into the
 * closing "N passed, N failed, N skipped" line of make check.
 *
 * Usage:
 *   #include "testlib.h"
 *   TEST(parse_empty) { CHECK(parse("") == -EINVAL); CHECK_EQ_INT(x, 3); }
 *   int main(void) { RUN(parse_empty); return test_report(); }
 */
#ifndef KSMBD_TESTLIB_H
#define KSMBD_TESTLIB_H

#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <inttypes.h>

struct test_state {
	const char *suite;
	const char *name;
	int failed_here;	/* failures inside the current case */
	int passed, failed, skipped;
	const char *skip_reason;
};

static struct test_state test_state_ = { .suite = TEST_SUITE_NAME };

#define TEST(fn) static void test_##fn(void)

#define RUN(fn)	do {							\
	test_state_.name = #fn;						\
	test_state_.failed_here = 0;					\
	test_state_.skip_reason = NULL;					\
	test_##fn();							\
	if (test_state_.skip_reason) {					\
		printf("SKIP: %s/%s: %s\n", test_state_.suite, #fn,	\
		       test_state_.skip_reason);			\
		test_state_.skipped++;					\
	} else if (test_state_.failed_here) {			\
		test_state_.failed++;					\
	} else {							\
		printf("PASS: %s/%s\n", test_state_.suite, #fn);	\
		test_state_.passed++;					\
	}								\
	fflush(stdout);							\
} while (0)

#define test_fail_(fmt, ...) do {					\
	if (!test_state_.failed_here)					\
		printf("FAIL: %s/%s: %s:%d: " fmt "\n",			\
		       test_state_.suite, test_state_.name,		\
		       __FILE__, __LINE__, __VA_ARGS__);		\
	test_state_.failed_here++;					\
} while (0)

#define CHECK(cond) do {						\
	if (!(cond))							\
		test_fail_("check failed: %s", #cond);			\
} while (0)

#define CHECK_EQ_INT(a, b) do {						\
	long long a_ = (long long)(a), b_ = (long long)(b);		\
	if (a_ != b_)							\
		test_fail_("%s == %lld, expected %s == %lld",		\
			   #a, a_, #b, b_);				\
} while (0)

#define CHECK_EQ_STR(a, b) do {						\
	const char *a_ = (a), *b_ = (b);				\
	if (!a_ || !b_ || strcmp(a_, b_))				\
		test_fail_("%s == \"%s\", expected \"%s\"", #a,		\
			   a_ ? a_ : "(null)", b_ ? b_ : "(null)");	\
} while (0)

#define CHECK_EQ_MEM(a, b, n) do {					\
	if (memcmp((a), (b), (n)))					\
		test_fail_("%s differs from %s over %zu bytes",		\
			   #a, #b, (size_t)(n));			\
} while (0)

#define SKIP(reason) do { test_state_.skip_reason = (reason); return; } while (0)

/* Exit status is non-zero when any case failed. */
static inline int test_report(void)
{
	printf("# %s: %d passed, %d failed, %d skipped\n", test_state_.suite,
	       test_state_.passed, test_state_.failed, test_state_.skipped);
	return test_state_.failed ? 1 : 0;
}

#endif
