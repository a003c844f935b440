// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON string writer ksmbd-lat and ksmbdtop share: UTF-8 passes
 * through, control characters are escaped, and bytes that are not UTF-8
 * become U+FFFD, so the result is always valid JSON in valid UTF-8.
 */
#include "testlib.h"

#include <stdbool.h>
#include <stdlib.h>

#include "ksmbd_json.h"

static char *render(const char *s, size_t max)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	ksmbd_json_str(f, s, max);
	fclose(f);
	return buf;
}

static bool valid_utf8(const char *s)
{
	size_t n = strlen(s), i, len;

	for (i = 0; i < n; i += len) {
		len = ksmbd_utf8_len((const unsigned char *)s + i, n - i);
		if (!len)
			return false;
	}
	return true;
}

#define CHECK_JSON(in, max, want) do {					\
	char *got_ = render((in), (max));				\
	CHECK_EQ_STR(got_, (want));					\
	CHECK(valid_utf8(got_));					\
	free(got_);							\
} while (0)

TEST(utf8_round_trip)
{
	/* José, Ærø, 日本, a 4-byte emoji: written as they are */
	CHECK_JSON("Jos\xc3\xa9", 64, "\"Jos\xc3\xa9\"");
	CHECK_JSON("\xc3\x86r\xc3\xb8", 64, "\"\xc3\x86r\xc3\xb8\"");
	CHECK_JSON("\xe6\x97\xa5\xe6\x9c\xac", 64, "\"\xe6\x97\xa5\xe6\x9c\xac\"");
	CHECK_JSON("\xf0\x9f\x98\x80!", 64, "\"\xf0\x9f\x98\x80!\"");
	/* the largest code points of each length */
	CHECK_JSON("\xdf\xbf\xef\xbf\xbd\xf4\x8f\xbf\xbf", 64,
		   "\"\xdf\xbf\xef\xbf\xbd\xf4\x8f\xbf\xbf\"");
	CHECK_JSON("", 64, "\"\"");
}

TEST(invalid_bytes_become_replacement)
{
	CHECK_JSON("a\xff" "b", 64, "\"a\\ufffdb\"");
	CHECK_JSON("\x80", 64, "\"\\ufffd\"");			/* lone continuation */
	CHECK_JSON("\xc0\xaf", 64, "\"\\ufffd\\ufffd\"");	/* overlong '/' */
	CHECK_JSON("\xe0\x80\xaf", 64, "\"\\ufffd\\ufffd\\ufffd\"");
	CHECK_JSON("\xed\xa0\x80", 64, "\"\\ufffd\\ufffd\\ufffd\"");	/* surrogate */
	CHECK_JSON("\xf4\x90\x80\x80", 64,
		   "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");			/* > U+10FFFF */
	CHECK_JSON("\xc3(", 64, "\"\\ufffd(\"");		/* cut by ASCII */
	/* Latin-1 "José" as some clients' bytes: one replacement, no mojibake */
	CHECK_JSON("Jos\xe9", 64, "\"Jos\\ufffd\"");
	/* a sequence cut by the field's end */
	CHECK_JSON("ab\xc3\xa9", 3, "\"ab\\ufffd\"");
}

TEST(escapes)
{
	CHECK_JSON("a\"b\\c", 64, "\"a\\\"b\\\\c\"");
	CHECK_JSON("line\nbreak\ttab\x01\x1f\x7f", 64,
		   "\"line\\u000abreak\\u0009tab\\u0001\\u001f\\u007f\"");
}

TEST(bounded_by_max)
{
	CHECK_JSON("abcdef", 3, "\"abc\"");
	/* no NUL within max: stops at max, reads nothing past it */
	{
		char field[4] = { 'w', 'x', 'y', 'z' };

		CHECK_JSON(field, sizeof(field), "\"wxyz\"");
	}
}

int main(void)
{
	RUN(utf8_round_trip);
	RUN(invalid_bytes_become_replacement);
	RUN(escapes);
	RUN(bounded_by_max);
	return test_report();
}
