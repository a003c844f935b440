# daemon/core.mk: configuration, user database and the adduser/addshare tools.
# libksmbdcore.a is what ksmbd.mountd and the RPC services link against.

CORE_DIR := $(TOP)/daemon
CORE_NAMES := diag config config_keys config_access confedit fileio pidfile \
	md4 base64 utf16 userdb tool
CORE_SRCS := $(CORE_NAMES:%=$(CORE_DIR)/%.c)
CORE_HDRS := $(addprefix $(CORE_DIR)/,diag.h config.h config_int.h confedit.h \
	fileio.h md4.h base64.h utf16.h userdb.h tool.h pidfile.h) \
	$(addprefix $(TOP)/module/proto/,utf16.c utf16.h shim.h)
CORE_LIB := $(BUILD)/daemon/libksmbdcore.a
CORE_OBJS := $(CORE_NAMES:%=$(BUILD)/daemon/core/%.o)
# The same sources with sanitizers, for the unit tests.
CORE_SAN_OBJS := $(CORE_NAMES:%=$(BUILD)/daemon/core-san/%.o)
CORE_SAN_LIB := $(BUILD)/daemon/libksmbdcore-san.a
CORE_ADDUSER := $(BUILD)/daemon/ksmbd.adduser
CORE_ADDSHARE := $(BUILD)/daemon/ksmbd.addshare

USER_BINS += $(CORE_LIB) $(CORE_ADDUSER) $(CORE_ADDSHARE)

$(CORE_OBJS): $(BUILD)/daemon/core/%.o: $(CORE_DIR)/%.c $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(USER_CC) $(USER_CFLAGS) -c $< -o $@

$(CORE_LIB): $(CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(CORE_SAN_OBJS): $(BUILD)/daemon/core-san/%.o: $(CORE_DIR)/%.c $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(USER_CC) $(UNIT_CFLAGS) -c $< -o $@

$(CORE_SAN_LIB): $(CORE_SAN_OBJS)
	rm -f $@ && ar rcs $@ $^

$(CORE_ADDUSER) $(CORE_ADDSHARE): $(BUILD)/daemon/ksmbd.%: $(CORE_DIR)/%.c $(CORE_LIB) $(CORE_HDRS)
	$(USER_CC) $(USER_CFLAGS) $(USER_LDFLAGS) -I$(CORE_DIR) $< $(CORE_LIB) -o $@

# Unit tests: each tests/unit/daemon/test_NAME.c becomes build/unit/daemon_NAME.
CORE_TEST_DIR := $(TOP)/tests/unit/daemon
CORE_TESTS := $(patsubst $(CORE_TEST_DIR)/test_%.c,$(BUILD)/unit/daemon_%,\
	$(wildcard $(CORE_TEST_DIR)/test_*.c))
UNIT_TESTS += $(CORE_TESTS)

# The tools test runs the shipped binaries.
$(BUILD)/unit/daemon_tools: $(CORE_ADDUSER) $(CORE_ADDSHARE)

$(CORE_TESTS): $(BUILD)/unit/daemon_%: $(CORE_TEST_DIR)/test_%.c $(CORE_SAN_LIB) \
		$(CORE_HDRS) $(wildcard $(CORE_TEST_DIR)/*.h)
	@mkdir -p $(dir $@)
	$(USER_CC) $(UNIT_CFLAGS) -I$(CORE_DIR) -DTEST_SUITE_NAME='"daemon_$*"' \
		-DKSMBD_BUILD_DIR='"$(BUILD)"' -DKSMBD_TOP_DIR='"$(TOP)"' \
		$< $(CORE_SAN_LIB) -o $@

# libFuzzer: arbitrary bytes into ksmbd_config_parse.
FUZZ_TARGETS += config
$(BUILD)/fuzz/config: $(TOP)/tests/fuzz/fuzz_config.c $(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(CORE_DIR) $< $(CORE_SRCS) -o $@

# Debian's ksmbd-tools 3.4.7 is the reference for the ksmbdpwd.db format.
# Installing it would remove samba (the packages conflict), so its .deb is
# only unpacked under build/. Without network the round-trip test SKIPs;
# delete the stamp to try the download again.
CORE_DEBIAN_DIR := $(BUILD)/debian
$(CORE_DEBIAN_DIR)/ksmbd-tools.stamp:
	@mkdir -p $(CORE_DEBIAN_DIR)
	-@cd $(CORE_DEBIAN_DIR) && rm -f ksmbd-tools_*.deb && \
		apt-get download -q ksmbd-tools >/dev/null 2>&1 && \
		dpkg-deb -x ksmbd-tools_*.deb ksmbd-tools
	@touch $@
$(BUILD)/unit/daemon_userdb: | $(CORE_DEBIAN_DIR)/ksmbd-tools.stamp
