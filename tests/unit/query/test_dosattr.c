// SPDX-License-Identifier: GPL-2.0-or-later
#include "testlib.h"
#include "dosattr.h"

TEST(encode_version5_layout)
{
	static const u8 want[24] = {
		0x00, 0x00,			/* "" and padding */
		0x05, 0x00, 0x05, 0x00,		/* version, level */
		0x00, 0x00,			/* align 4 */
		0x11, 0x00, 0x00, 0x00,		/* ATTRIB | CREATE_TIME */
		0x21, 0x00, 0x00, 0x00,		/* ARCHIVE | READONLY */
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
	};
	u8 out[64];

	CHECK_EQ_INT(ksmbd_dosattr_encode(0x21, 0x0102030405060708ULL, true,
					  out, sizeof(out)), 24);
	CHECK_EQ_MEM(out, want, 24);
	CHECK_EQ_INT(ksmbd_dosattr_encode(0x21, 0, false, out, 23), -ENOSPC);
}

TEST(round_trip)
{
	struct ksmbd_dosattr da;
	u8 out[64];
	int n = ksmbd_dosattr_encode(0x2, 132000000000000000ULL, true, out,
				     sizeof(out));

	CHECK(n > 0);
	CHECK_EQ_INT(ksmbd_dosattr_decode(out, (u32)n, &da), 0);
	CHECK_EQ_INT(da.version, 5);
	CHECK_EQ_INT(da.attrib, 0x2);
	CHECK_EQ_INT(da.valid, KSMBD_DOSINFO_ATTRIB | KSMBD_DOSINFO_CREATE_TIME);
	CHECK(da.create_time == 132000000000000000ULL);
}

/* What Linux's ksmbd and Samba 4.11-4.14 write: version 4 with itime. */
TEST(decode_version4)
{
	static const u8 v4[32] = {
		0x00, 0x00, 0x04, 0x00, 0x04, 0x00, 0x00, 0x00,
		0x51, 0x00, 0x00, 0x00,		/* ATTRIB | CREATE | ITIME */
		0x20, 0x00, 0x00, 0x00,
		0x01, 0, 0, 0, 0, 0, 0, 0x01,	/* itime */
		0x02, 0, 0, 0, 0, 0, 0, 0x01,	/* create_time */
	};
	struct ksmbd_dosattr da;

	CHECK_EQ_INT(ksmbd_dosattr_decode(v4, sizeof(v4), &da), 0);
	CHECK_EQ_INT(da.version, 4);
	CHECK_EQ_INT(da.attrib, 0x20);
	CHECK(da.itime == 0x0100000000000001ULL);
	CHECK(da.create_time == 0x0100000000000002ULL);
}

/* Version 3 carries the attributes twice: as "0x.." and in the structure. */
TEST(decode_version3)
{
	u8 v3[64] = { '0', 'x', '2', '1', 0, 0, 0x03, 0x00, 0x03, 0x00, 0, 0 };
	struct ksmbd_dosattr da;

	put_unaligned_le32(KSMBD_DOSINFO_ATTRIB | KSMBD_DOSINFO_CREATE_TIME, v3 + 12);
	put_unaligned_le32(0x21, v3 + 16);
	put_unaligned_le32(0, v3 + 20);		/* ea_size */
	put_unaligned_le64(10, v3 + 24);	/* size */
	put_unaligned_le64(4096, v3 + 32);	/* alloc */
	put_unaligned_le64(777, v3 + 40);	/* create */
	put_unaligned_le64(888, v3 + 48);	/* change */
	CHECK_EQ_INT(ksmbd_dosattr_decode(v3, 56, &da), 0);
	CHECK_EQ_INT(da.version, 3);
	CHECK_EQ_INT(da.attrib, 0x21);
	CHECK_EQ_INT(da.create_time, 777);
	CHECK_EQ_INT(da.change_time, 888);
	/* one byte short of change_time */
	CHECK_EQ_INT(ksmbd_dosattr_decode(v3, 55, &da), -EINVAL);
}

TEST(decode_hex_only)
{
	struct ksmbd_dosattr da;

	CHECK_EQ_INT(ksmbd_dosattr_decode((const u8 *)"0x22", 4, &da), 0);
	CHECK_EQ_INT(da.attrib, 0x22);
	CHECK_EQ_INT(ksmbd_dosattr_decode((const u8 *)"0x10\0", 5, &da), 0);
	CHECK_EQ_INT(da.attrib, 0x10);
	CHECK_EQ_INT(ksmbd_dosattr_decode((const u8 *)"0xzz", 4, &da), -EINVAL);
	CHECK_EQ_INT(ksmbd_dosattr_decode((const u8 *)"", 0, &da), -EINVAL);
	CHECK_EQ_INT(ksmbd_dosattr_decode((const u8 *)"0x123456789", 11, &da),
		     -EINVAL);
}

TEST(hostile_blobs)
{
	u8 out[64], bad[64];
	struct ksmbd_dosattr da;
	int n = ksmbd_dosattr_encode(0x20, 5, true, out, sizeof(out)), i;

	/* every truncation fails cleanly */
	for (i = 1; i < n; i++)
		CHECK(ksmbd_dosattr_decode(out, (u32)i, &da) != 0);
	memcpy(bad, out, (size_t)n);
	bad[4] = 4;			/* level differs from version */
	CHECK_EQ_INT(ksmbd_dosattr_decode(bad, (u32)n, &da), -EINVAL);
	memcpy(bad, out, (size_t)n);
	bad[2] = bad[4] = 9;		/* unknown version */
	CHECK_EQ_INT(ksmbd_dosattr_decode(bad, (u32)n, &da), -EOPNOTSUPP);
	memcpy(bad, out, (size_t)n);
	bad[2] = bad[4] = 2;		/* the old version 2: not read */
	CHECK_EQ_INT(ksmbd_dosattr_decode(bad, (u32)n, &da), -EOPNOTSUPP);
	/* a string with no NUL and no hex */
	memset(bad, 'A', sizeof(bad));
	CHECK_EQ_INT(ksmbd_dosattr_decode(bad, sizeof(bad), &da), -EINVAL);
}

int main(void)
{
	RUN(encode_version5_layout);
	RUN(round_trip);
	RUN(decode_version4);
	RUN(decode_version3);
	RUN(decode_hex_only);
	RUN(hostile_blobs);
	return test_report();
}
