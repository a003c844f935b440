// SPDX-License-Identifier: GPL-2.0-or-later
/* The one translation unit that instantiates the ksmbd tracepoints. */
#define CREATE_TRACE_POINTS
#include "ksmbd_trace.h"
