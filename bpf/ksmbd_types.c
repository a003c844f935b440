// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Not part of any module: compiled against the kernel headers (bpf/Kbuild)
 * only for its debug info. pahole turns that into BTF and bpftool into
 * build/bpf/ksmbd_module.h, the one header the BPF programs include: every
 * type they name (the module's request, connection and file structures,
 * socket addresses, the BPF UAPI enums), taken from the same headers
 * ksmbd.ko is built from. No vmlinux, no built module and no running
 * kernel are needed, so `make user` and a package build work anywhere;
 * CO-RE relocates each field access at load against the running kernel's
 * and the module's own BTF.
 *
 * The tracepoints are instantiated here too (as in module/trace.c) so that
 * their btf_trace_* prototypes, which name the argument types, are in it;
 * the structures the events read come first, as there.
 */
#include "connection.h"
#include "file.h"
#define CREATE_TRACE_POINTS
#include "ksmbd_trace.h"

#include <linux/bpf.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/socket.h>

/*
 * Built with -fno-eliminate-unused-debug-types (bpf/Kbuild): every type of
 * the headers above reaches the debug info, including the anonymous enums
 * that hold BPF_ANY or BPF_F_NO_PREALLOC, which no variable could name.
 */
