/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Builders of well-formed sample messages, shared by the unit tests and
 * the seed-corpus generator.  Layouts follow MS-SMB2 section 2.2 directly;
 * they do not use the library's own encoders, so a test comparing the two
 * compares two independent readings of the specification.
 */
#ifndef KSMBD_TEST_SAMPLES_H
#define KSMBD_TEST_SAMPLES_H

#include "proto/shim.h"

/* Writes a 64-byte sync request header; returns 64. */
u32 sample_hdr(u8 *buf, u16 command, u64 message_id);

/* A minimal valid request element for command; returns its length. */
u32 sample_request(u16 command, u8 *buf, u32 cap);

/* A 3.1.1 negotiate context list (preauth, encryption, signing, netname,
 * posix); returns its length and sets *count. */
u32 sample_negctx_list(u8 *buf, u32 cap, u16 *count);

/* A compound of the given commands, NextCommand 8-aligned; returns length. */
u32 sample_compound(u8 *buf, u32 cap, const u16 *commands, u32 n);

/* Decode hex (whitespace ignored) into out; returns bytes or 0 on error. */
u32 sample_unhex(const char *hex, u8 *out, u32 cap);

#endif
