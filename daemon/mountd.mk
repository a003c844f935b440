# daemon/mountd.mk: ksmbd.mountd (netlink IPC with the module), ksmbd.control,
# their unit tests and the IPC fuzz targets.
#
# Fragments are included in sorted order, so rpc/rpc.mk comes after this
# one: its libraries are named by path here, not by its variables.

MOUNTD_DIR := $(TOP)/daemon
MOUNTD_OUT := $(BUILD)/daemon/mountd
MOUNTD_NAMES := handlers handlers_tree handlers_rpc handlers_krb5 krb5_gss \
	rpc_adapter netlink
MOUNTD_HDRS := $(addprefix $(MOUNTD_DIR)/,handlers.h handlers_int.h netlink.h krb5_gss.h \
	config.h userdb.h diag.h rpc/rpc_pipe.h rpc/rpc_backend.h) \
	$(TOP)/module/uapi/ksmbd_netlink.h
MOUNTD_NL_CFLAGS := $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null || echo -I/usr/include/libnl3)
MOUNTD_NL_LIBS := $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null || echo -lnl-genl-3 -lnl-3)
# MIT Kerberos GSS-API (libkrb5-dev) for SPNEGO_AUTHEN.
MOUNTD_GSS_LIBS := $(shell pkg-config --libs krb5-gssapi 2>/dev/null || echo -lgssapi_krb5)
# The tests also make keytabs with libkrb5 (tests/unit/ipc/krb5_realm.h).
MOUNTD_KRB5_LIBS := $(shell pkg-config --libs krb5-gssapi krb5 2>/dev/null || echo -lgssapi_krb5 -lkrb5)
MOUNTD_CFLAGS := -I$(MOUNTD_DIR) $(MOUNTD_NL_CFLAGS)
MOUNTD_OBJS := $(MOUNTD_NAMES:%=$(MOUNTD_OUT)/%.o) $(MOUNTD_OUT)/mountd.o
MOUNTD_CORE_LIB := $(BUILD)/daemon/libksmbdcore.a
MOUNTD_RPC_LIB := $(BUILD)/daemon/libksmbdrpc.a
MOUNTD_BIN := $(BUILD)/daemon/ksmbd.mountd
CONTROL_BIN := $(BUILD)/daemon/ksmbd.control

USER_BINS += $(MOUNTD_BIN) $(CONTROL_BIN)

$(MOUNTD_OBJS): $(MOUNTD_OUT)/%.o: $(MOUNTD_DIR)/%.c $(MOUNTD_HDRS)
	@mkdir -p $(dir $@)
	$(USER_CC) $(USER_CFLAGS) $(MOUNTD_CFLAGS) -c $< -o $@

$(MOUNTD_BIN): $(MOUNTD_OBJS) $(MOUNTD_RPC_LIB) $(MOUNTD_CORE_LIB)
	$(USER_CC) $(USER_CFLAGS) $(USER_LDFLAGS) $(MOUNTD_OBJS) $(MOUNTD_RPC_LIB) \
		$(MOUNTD_CORE_LIB) $(MOUNTD_NL_LIBS) $(MOUNTD_GSS_LIBS) -o $@

$(CONTROL_BIN): $(MOUNTD_DIR)/control.c $(TOP)/module/uapi/ksmbd_netlink.h \
		$(MOUNTD_DIR)/pidfile.h $(MOUNTD_CORE_LIB)
	@mkdir -p $(dir $@)
	$(USER_CC) $(USER_CFLAGS) $(USER_LDFLAGS) -I$(MOUNTD_DIR) $< $(MOUNTD_CORE_LIB) -o $@

# Unit tests: tests/unit/ipc/test_NAME.c -> build/unit/ipc_NAME, linked with
# the daemon's handlers (no netlink), the kernel's payload validator built
# for user space, and the sanitized core and RPC libraries.
IPC_TEST_DIR := $(TOP)/tests/unit/ipc
IPC_TESTS := $(patsubst $(IPC_TEST_DIR)/test_%.c,$(BUILD)/unit/ipc_%,\
	$(wildcard $(IPC_TEST_DIR)/test_*.c))
IPC_TEST_SRCS := $(MOUNTD_NAMES:%=$(MOUNTD_DIR)/%.c) $(TOP)/module/core/ipc_validate.c
IPC_TEST_SRCS := $(filter-out $(MOUNTD_DIR)/netlink.c,$(IPC_TEST_SRCS))
UNIT_TESTS += $(IPC_TESTS)

# The command-line test runs the shipped binaries.
$(BUILD)/unit/ipc_cli: $(MOUNTD_BIN) $(CONTROL_BIN) $(BUILD)/daemon/ksmbd.adduser \
	$(BUILD)/daemon/ksmbd.addshare

$(IPC_TESTS): $(BUILD)/unit/ipc_%: $(IPC_TEST_DIR)/test_%.c $(IPC_TEST_SRCS) \
		$(MOUNTD_HDRS) $(TOP)/module/core/ipc_validate.h \
		$(BUILD)/daemon/libksmbdrpc-san.a $(BUILD)/daemon/libksmbdcore-san.a \
		$(wildcard $(IPC_TEST_DIR)/*.h)
	@mkdir -p $(dir $@)
	$(USER_CC) $(UNIT_CFLAGS) -I$(MOUNTD_DIR) $(KSMBD_MODULE_INC) \
		-DTEST_SUITE_NAME='"ipc_$*"' -DKSMBD_BUILD_DIR='"$(BUILD)"' $< $(IPC_TEST_SRCS) \
		$(BUILD)/daemon/libksmbdrpc-san.a $(BUILD)/daemon/libksmbdcore-san.a \
		$(MOUNTD_KRB5_LIBS) -o $@

# Fuzz: bytes from a hostile daemon into the kernel's validator, and bytes
# from the kernel into the daemon's handlers.
FUZZ_TARGETS += ipc_validate ipc_handlers
$(BUILD)/fuzz/ipc_validate: $(IPC_TEST_DIR)/fuzz_validate.c \
		$(TOP)/module/core/ipc_validate.c $(TOP)/module/core/ipc_validate.h \
		$(TOP)/module/uapi/ksmbd_netlink.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(KSMBD_MODULE_INC) $< $(TOP)/module/core/ipc_validate.c -o $@

# Recipes expand late, so the core and RPC source lists of the fragments
# included after this one are known by the time this runs.
$(BUILD)/fuzz/ipc_handlers: $(IPC_TEST_DIR)/fuzz_handlers.c $(IPC_TEST_SRCS) \
		$(MOUNTD_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(MOUNTD_DIR) $(KSMBD_MODULE_INC) $< \
		$(IPC_TEST_SRCS) $(RPC_SRCS) $(CORE_SRCS) $(MOUNTD_GSS_LIBS) -o $@
