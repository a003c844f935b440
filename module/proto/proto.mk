# SPDX-License-Identifier: GPL-2.0-or-later
# Host builds of the protocol library (module/proto/): unit tests under
# ASan/UBSan and libFuzzer targets.  The same sources go into ksmbd.ko
# through module/Kbuild.

PROTO_DIR := $(TOP)/module/proto
PROTO_TEST_DIR := $(TOP)/tests/unit/proto
PROTO_SRCS := $(sort $(wildcard $(PROTO_DIR)/*.c))
PROTO_HOST_CFLAGS := -DKSMBD_USERSPACE $(KSMBD_MODULE_INC) -I$(PROTO_TEST_DIR)

# Helpers shared by tests and corpus generation: crypto over OpenSSL and
# sample message builders.
PROTO_HELPERS := crypto_openssl samples posix_xattr

PROTO_UNIT_OBJDIR := $(BUILD)/proto/unit
PROTO_FUZZ_OBJDIR := $(BUILD)/proto/fuzz
PROTO_UNIT_LIBOBJS := $(PROTO_SRCS:$(PROTO_DIR)/%.c=$(PROTO_UNIT_OBJDIR)/%.o) \
	$(PROTO_HELPERS:%=$(PROTO_UNIT_OBJDIR)/t_%.o)
PROTO_FUZZ_LIBOBJS := $(PROTO_SRCS:$(PROTO_DIR)/%.c=$(PROTO_FUZZ_OBJDIR)/%.o) \
	$(PROTO_FUZZ_OBJDIR)/t_crypto_openssl.o $(PROTO_FUZZ_OBJDIR)/t_samples.o

$(PROTO_SRCS:$(PROTO_DIR)/%.c=$(PROTO_UNIT_OBJDIR)/%.o): $(PROTO_UNIT_OBJDIR)/%.o: $(PROTO_DIR)/%.c
	@mkdir -p $(@D)
	$(USER_CC) $(UNIT_CFLAGS) $(PROTO_HOST_CFLAGS) -MMD -MP -c $< -o $@

$(PROTO_HELPERS:%=$(PROTO_UNIT_OBJDIR)/t_%.o): $(PROTO_UNIT_OBJDIR)/t_%.o: $(PROTO_TEST_DIR)/%.c
	@mkdir -p $(@D)
	$(USER_CC) $(UNIT_CFLAGS) $(PROTO_HOST_CFLAGS) -MMD -MP -c $< -o $@

$(PROTO_SRCS:$(PROTO_DIR)/%.c=$(PROTO_FUZZ_OBJDIR)/%.o): $(PROTO_FUZZ_OBJDIR)/%.o: $(PROTO_DIR)/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(PROTO_HOST_CFLAGS) -MMD -MP -c $< -o $@

$(PROTO_HELPERS:%=$(PROTO_FUZZ_OBJDIR)/t_%.o): $(PROTO_FUZZ_OBJDIR)/t_%.o: $(PROTO_TEST_DIR)/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(PROTO_HOST_CFLAGS) -MMD -MP -c $< -o $@

# One test binary per tests/unit/proto/test_NAME.c, named proto_NAME.
PROTO_TESTS := $(patsubst $(PROTO_TEST_DIR)/test_%.c,%,$(sort $(wildcard $(PROTO_TEST_DIR)/test_*.c)))
PROTO_UNIT_BINS := $(PROTO_TESTS:%=$(BUILD)/unit/proto_%)
UNIT_TESTS += $(PROTO_UNIT_BINS)

PROTO_HEADERS = $(wildcard $(PROTO_DIR)/*.h $(PROTO_TEST_DIR)/*.h)

$(PROTO_UNIT_BINS): $(BUILD)/unit/proto_%: $(PROTO_TEST_DIR)/test_%.c $(PROTO_UNIT_LIBOBJS) $(PROTO_HEADERS)
	@mkdir -p $(@D)
	$(USER_CC) $(UNIT_CFLAGS) $(PROTO_HOST_CFLAGS) -DTEST_SUITE_NAME='"proto-$*"' \
		$< $(PROTO_UNIT_LIBOBJS) -lcrypto -o $@

# Regenerates the seed corpora from the sample builders (run by hand).
$(BUILD)/proto/gen_corpus: $(PROTO_TEST_DIR)/gen_corpus.c $(PROTO_UNIT_LIBOBJS) $(PROTO_HEADERS)
	@mkdir -p $(@D)
	$(USER_CC) $(UNIT_CFLAGS) $(PROTO_HOST_CFLAGS) $< $(PROTO_UNIT_LIBOBJS) -lcrypto -o $@

.PHONY: proto-corpus
proto-corpus: $(BUILD)/proto/gen_corpus
	$(BUILD)/proto/gen_corpus $(TOP)/tests/fuzz/corpus

PROTO_FUZZERS := $(patsubst $(TOP)/tests/fuzz/fuzz_%.c,%,$(wildcard $(addprefix $(TOP)/tests/fuzz/fuzz_,frame.c decode.c negctx.c spnego.c ntlmssp.c create_ctx.c transform.c ntacl.c sd.c)))
FUZZ_TARGETS += $(PROTO_FUZZERS)

$(PROTO_FUZZERS:%=$(BUILD)/fuzz/%): $(BUILD)/fuzz/%: $(TOP)/tests/fuzz/fuzz_%.c $(PROTO_FUZZ_LIBOBJS) $(PROTO_HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(PROTO_HOST_CFLAGS) $< $(PROTO_FUZZ_LIBOBJS) -lcrypto -o $@

-include $(wildcard $(PROTO_UNIT_OBJDIR)/*.d $(PROTO_FUZZ_OBJDIR)/*.d)
