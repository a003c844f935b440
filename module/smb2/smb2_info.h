/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUERY_INFO (smb2_query.c), SET_INFO (smb2_setinfo.c) and
 * QUERY_DIRECTORY (smb2_dir.c): the handlers the dispatch table names.
 */
#ifndef KSMBD_SMB2_INFO_H
#define KSMBD_SMB2_INFO_H

#include "smb2_handler.h"

/* FileModeInformation bits a handle reports (MS-FSCC 2.4.26) */
#define KSMBD_FILE_MODE_BITS	(0x00000002 | 0x00000004 | 0x00000008 | \
				 0x00000010 | 0x00000020 | 0x00001000)

enum ksmbd_smb2_verdict ksmbd_smb2_query_info(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_set_info(struct ksmbd_smb2_ctx *ctx);

struct ksmbd_file;
/*
 * CREATE made a file or directory with FileAttributes beyond NORMAL and
 * ARCHIVE (MS-FSA 2.1.5.1.2.1): store them as SET_INFO would (READONLY
 * in the mode, the rest in user.DOSATTRIB where the share keeps it).
 */
void ksmbd_create_set_attrs(struct ksmbd_file *fp, u32 attrs);
enum ksmbd_smb2_verdict ksmbd_smb2_query_dir(struct ksmbd_smb2_ctx *ctx);

#endif
