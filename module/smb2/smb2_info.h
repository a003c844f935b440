/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUERY_INFO (smb2_query.c), SET_INFO (smb2_setinfo.c) and
 * QUERY_DIRECTORY (smb2_dir.c): the handlers the dispatch table names.
 */
#ifndef KSMBD_SMB2_INFO_H
#define KSMBD_SMB2_INFO_H

#include "smb2_handler.h"

enum ksmbd_smb2_verdict ksmbd_smb2_query_info(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_set_info(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_query_dir(struct ksmbd_smb2_ctx *ctx);

#endif
