// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one translation unit that instantiates the ksmbd tracepoints. The
 * events' assignments read the structures below: they are included here
 * and not in ksmbd_trace.h.
 */
#include "connection.h"
#include "file.h"
#define CREATE_TRACE_POINTS
#include "ksmbd_trace.h"
