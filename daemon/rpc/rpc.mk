# daemon/rpc/rpc.mk: NDR, DCE/RPC and the srvsvc/wkssvc/lsarpc/samr services.
# libksmbdrpc.a is linked into ksmbd.mountd; its entry point is rpc_pipe.h.

RPC_DIR := $(TOP)/daemon/rpc
RPC_NAMES := ndr dcerpc rpc_pipe rpc_handle idmap srvsvc wkssvc lsarpc \
	lsa_lookup samr
RPC_SRCS := $(RPC_NAMES:%=$(RPC_DIR)/%.c)
RPC_HDRS := $(wildcard $(RPC_DIR)/*.h)
RPC_LIB := $(BUILD)/daemon/libksmbdrpc.a
RPC_OBJS := $(RPC_NAMES:%=$(BUILD)/daemon/rpc/%.o)
# The same sources with sanitizers, for the unit tests.
RPC_SAN_LIB := $(BUILD)/daemon/libksmbdrpc-san.a
RPC_SAN_OBJS := $(RPC_NAMES:%=$(BUILD)/daemon/rpc-san/%.o)

USER_BINS += $(RPC_LIB)

$(RPC_OBJS): $(BUILD)/daemon/rpc/%.o: $(RPC_DIR)/%.c $(RPC_HDRS)
	@mkdir -p $(dir $@)
	$(USER_CC) $(USER_CFLAGS) -c $< -o $@

$(RPC_LIB): $(RPC_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(RPC_SAN_OBJS): $(BUILD)/daemon/rpc-san/%.o: $(RPC_DIR)/%.c $(RPC_HDRS)
	@mkdir -p $(dir $@)
	$(USER_CC) $(UNIT_CFLAGS) -c $< -o $@

$(RPC_SAN_LIB): $(RPC_SAN_OBJS)
	rm -f $@ && ar rcs $@ $^

# Unit tests: each tests/unit/rpc/test_NAME.c becomes build/unit/rpc_NAME,
# linked with the fake backend and the client-side request builders. NDR's
# UTF-16 conversion is daemon/utf16.c's, from the core library.
RPC_TEST_DIR := $(TOP)/tests/unit/rpc
RPC_TEST_HELPERS := $(RPC_TEST_DIR)/fake_backend.c $(RPC_TEST_DIR)/rpc_client.c
RPC_TESTS := $(patsubst $(RPC_TEST_DIR)/test_%.c,$(BUILD)/unit/rpc_%,\
	$(wildcard $(RPC_TEST_DIR)/test_*.c))
UNIT_TESTS += $(RPC_TESTS)

$(RPC_TESTS): $(BUILD)/unit/rpc_%: $(RPC_TEST_DIR)/test_%.c $(RPC_SAN_LIB) $(CORE_SAN_LIB) \
		$(RPC_TEST_HELPERS) $(RPC_HDRS) $(wildcard $(RPC_TEST_DIR)/*.h)
	@mkdir -p $(dir $@)
	$(USER_CC) $(UNIT_CFLAGS) -I$(RPC_DIR) -I$(RPC_TEST_DIR) \
		-DTEST_SUITE_NAME='"rpc_$*"' \
		-DRPC_CORPUS_DIR='"$(TOP)/tests/fuzz/corpus/rpc"' \
		$< $(RPC_TEST_HELPERS) $(RPC_SAN_LIB) $(CORE_SAN_LIB) -o $@

# libFuzzer: byte streams written to (and read from) an open pipe.
FUZZ_TARGETS += rpc
$(BUILD)/fuzz/rpc: $(TOP)/tests/fuzz/fuzz_rpc.c $(RPC_SRCS) $(RPC_HDRS) \
		$(RPC_TEST_DIR)/fake_backend.c $(CORE_DIR)/utf16.c $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(RPC_DIR) -I$(RPC_TEST_DIR) $< \
		$(RPC_TEST_DIR)/fake_backend.c $(RPC_SRCS) $(CORE_DIR)/utf16.c -o $@
