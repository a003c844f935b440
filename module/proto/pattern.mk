# SPDX-License-Identifier: GPL-2.0-or-later
# Host builds for QUERY_INFO / SET_INFO / QUERY_DIRECTORY's plain-C parts:
# the pattern matcher and the security descriptor parser (module/proto/),
# and the encoders in module/ (fileinfo.c, dosattr.c, secdesc.c). Unit
# tests under ASan/UBSan and the libFuzzer targets "pattern" and "secdesc".
# tests/unit/proto/test_pattern.c and test_secdesc_parse.c are built by
# proto.mk's wildcard; this fragment adds tests/unit/query/ and the fuzzers.
# (Read before proto.mk, so it compiles its own copies of what it links.)

QUERY_SRCS := $(TOP)/module/fs/fileinfo.c $(TOP)/module/fs/dosattr.c $(TOP)/module/fs/shortname.c \
	$(TOP)/module/fs/secdesc.c $(TOP)/module/proto/secdesc_parse.c \
	$(TOP)/module/proto/sd_posix.c $(TOP)/module/proto/sd_access.c \
	$(TOP)/module/proto/pattern.c
QUERY_TEST_DIR := $(TOP)/tests/unit/query
QUERY_HOST_CFLAGS := -DKSMBD_USERSPACE $(KSMBD_MODULE_INC)
QUERY_HEADERS = $(TOP)/module/fs/fileinfo.h $(TOP)/module/fs/shortname.h $(TOP)/module/fs/dosattr.h $(TOP)/module/fs/create_rules.h \
	$(TOP)/module/fs/secdesc.h $(wildcard $(TOP)/module/proto/*.h)

QUERY_UNIT_OBJS := $(QUERY_SRCS:$(TOP)/module/%.c=$(BUILD)/query/unit/%.o)
QUERY_FUZZ_OBJS := $(QUERY_SRCS:$(TOP)/module/%.c=$(BUILD)/query/fuzz/%.o)

$(QUERY_UNIT_OBJS): $(BUILD)/query/unit/%.o: $(TOP)/module/%.c $(QUERY_HEADERS)
	@mkdir -p $(@D)
	$(USER_CC) $(UNIT_CFLAGS) $(QUERY_HOST_CFLAGS) -c $< -o $@

$(QUERY_FUZZ_OBJS): $(BUILD)/query/fuzz/%.o: $(TOP)/module/%.c $(QUERY_HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(QUERY_HOST_CFLAGS) -c $< -o $@

# One binary per tests/unit/query/test_NAME.c, named query_NAME.
QUERY_TESTS := $(patsubst $(QUERY_TEST_DIR)/test_%.c,%,$(sort $(wildcard $(QUERY_TEST_DIR)/test_*.c)))
QUERY_UNIT_BINS := $(QUERY_TESTS:%=$(BUILD)/unit/query_%)
UNIT_TESTS += $(QUERY_UNIT_BINS)

$(QUERY_UNIT_BINS): $(BUILD)/unit/query_%: $(QUERY_TEST_DIR)/test_%.c $(QUERY_UNIT_OBJS) $(QUERY_HEADERS)
	@mkdir -p $(@D)
	$(USER_CC) $(UNIT_CFLAGS) $(QUERY_HOST_CFLAGS) -DTEST_SUITE_NAME='"query-$*"' \
		$< $(QUERY_UNIT_OBJS) -o $@

FUZZ_TARGETS += pattern secdesc

$(BUILD)/fuzz/pattern $(BUILD)/fuzz/secdesc: $(BUILD)/fuzz/%: $(TOP)/tests/fuzz/fuzz_%.c $(QUERY_FUZZ_OBJS) $(QUERY_HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(QUERY_HOST_CFLAGS) $< $(QUERY_FUZZ_OBJS) -o $@
