# SPDX-License-Identifier: GPL-2.0-or-later
# tests/ntacl: ntacl-tool, proto/ntacl.c as a command the guest runs
# (tests/vm/cases/ntacl-interop.sh): built for make vmtest, by hand with
# make build/tests/ntacl-tool. Plain flags, no sanitizers: it runs in the
# guest against the host's /usr. Not _GNU_SOURCE: its statx pulls in
# <linux/types.h>, whose __le64 proto/shim.h defines too.
NTACL_TOOL := $(BUILD)/tests/ntacl-tool
NTACL_TOOL_SRCS := $(TOP)/tests/ntacl/ntacl_tool.c $(TOP)/module/proto/ntacl.c \
	$(TOP)/module/proto/secdesc_parse.c $(TOP)/tests/unit/proto/crypto_openssl.c \
	$(TOP)/tests/unit/proto/posix_xattr.c

$(NTACL_TOOL): $(NTACL_TOOL_SRCS) $(wildcard $(TOP)/module/proto/*.h) \
		$(TOP)/tests/unit/proto/posix_xattr.h
	@mkdir -p $(@D)
	$(USER_CC) $(USER_CFLAGS) -U_GNU_SOURCE -D_DEFAULT_SOURCE -DKSMBD_USERSPACE $(KSMBD_MODULE_INC) \
		-I$(TOP)/tests/unit/proto $(NTACL_TOOL_SRCS) -lcrypto -o $@

vmtest: $(NTACL_TOOL)
