# SPDX-License-Identifier: GPL-2.0-or-later
# Host builds of the file layer's plain-C parts (create_rules.c, vfs_name.c):
# unit tests under ASan/UBSan and one libFuzzer target. The same sources go
# into ksmbd.ko through module/Kbuild. The two proto/ files they use are
# compiled here too (this fragment is read before proto/proto.mk).

FILES_SRCS := $(TOP)/module/fs/create_rules.c $(TOP)/module/fs/vfs_name.c \
	$(TOP)/module/proto/utf16.c $(TOP)/module/proto/ntstatus.c
FILES_TEST_DIR := $(TOP)/tests/unit/files
FILES_HOST_CFLAGS := -DKSMBD_USERSPACE $(KSMBD_MODULE_INC)
FILES_HEADERS = $(TOP)/module/fs/create_rules.h $(TOP)/module/fs/vfs_name.h \
	$(wildcard $(TOP)/module/proto/*.h)

FILES_UNIT_OBJS := $(FILES_SRCS:$(TOP)/module/%.c=$(BUILD)/files/unit/%.o)
FILES_FUZZ_OBJS := $(FILES_SRCS:$(TOP)/module/%.c=$(BUILD)/files/fuzz/%.o)

$(FILES_UNIT_OBJS): $(BUILD)/files/unit/%.o: $(TOP)/module/%.c $(FILES_HEADERS)
	@mkdir -p $(@D)
	$(USER_CC) $(UNIT_CFLAGS) $(FILES_HOST_CFLAGS) -c $< -o $@

$(FILES_FUZZ_OBJS): $(BUILD)/files/fuzz/%.o: $(TOP)/module/%.c $(FILES_HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FILES_HOST_CFLAGS) -c $< -o $@

# One binary per tests/unit/files/test_NAME.c, named files_NAME.
FILES_TESTS := $(patsubst $(FILES_TEST_DIR)/test_%.c,%,$(sort $(wildcard $(FILES_TEST_DIR)/test_*.c)))
FILES_UNIT_BINS := $(FILES_TESTS:%=$(BUILD)/unit/files_%)
UNIT_TESTS += $(FILES_UNIT_BINS)

$(FILES_UNIT_BINS): $(BUILD)/unit/files_%: $(FILES_TEST_DIR)/test_%.c $(FILES_UNIT_OBJS) $(FILES_HEADERS)
	@mkdir -p $(@D)
	$(USER_CC) $(UNIT_CFLAGS) $(FILES_HOST_CFLAGS) -DTEST_SUITE_NAME='"files-$*"' \
		$< $(FILES_UNIT_OBJS) -o $@

FUZZ_TARGETS += files_names

$(BUILD)/fuzz/files_names: $(TOP)/tests/fuzz/fuzz_files_names.c $(FILES_FUZZ_OBJS) $(FILES_HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FILES_HOST_CFLAGS) $< $(FILES_FUZZ_OBJS) -o $@
