# monitor/: ksmbdtop, the live monitor, on top of bpf/'s libksmbdstats.
#   $(BUILD)/monitor/ksmbdtop   joins USER_BINS once bpf/ has put ksmbd-lat
#                               there (the whole library builds then)
#   $(BUILD)/unit/monitor       model, sort, format, JSON tests: links only
#                               the library's pure half (no module build)

MON_SRC := $(TOP)/monitor
MON_OUT := $(BUILD)/monitor
MON_HDRS := $(wildcard $(MON_SRC)/*.h) $(TOP)/bpf/ksmbd_stats.h $(TOP)/bpf/libksmbdstats.h \
	$(TOP)/bpf/ksmbd_json.h
# Everything but curses, collection and main: what the host tests link.
MON_PURE := model.c clients.c modstats.c format.c batch_format.c
MON_ALL := $(MON_PURE) collect.c render_batch.c render_curses.c ksmbdtop.c
MON_CURSES_LIBS := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo)

ifneq ($(filter $(BUILD)/bpf/ksmbd-lat,$(USER_BINS)),)
USER_BINS += $(MON_OUT)/ksmbdtop
endif

$(MON_OUT)/ksmbdtop: $(MON_ALL:%=$(MON_SRC)/%) $(MON_HDRS) $(KSMBDSTATS_LIB)
	@mkdir -p $(dir $@)
	$(USER_CC) $(USER_CFLAGS) $(USER_LDFLAGS) $(KSMBDSTATS_CFLAGS) -o $@ \
		$(MON_ALL:%=$(MON_SRC)/%) $(KSMBDSTATS_LIB) \
		$(KSMBDSTATS_LDLIBS) $(MON_CURSES_LIBS)

# The pure half of the library must exist for the tests to link.
ifneq ($(KSMBDSTATS_FMT_LIB),)
ifneq ($(wildcard $(TOP)/bpf/ksmbd_stats_fmt.c),)
UNIT_TESTS += $(BUILD)/unit/monitor

$(BUILD)/unit/monitor: $(TOP)/tests/unit/monitor/test_monitor.c \
		$(MON_PURE:%=$(MON_SRC)/%) $(MON_HDRS) $(KSMBDSTATS_FMT_LIB)
	@mkdir -p $(dir $@)
	$(USER_CC) $(UNIT_CFLAGS) -DTEST_SUITE_NAME='"monitor"' \
		-I$(MON_SRC) $(KSMBDSTATS_CFLAGS) -o $@ $< \
		$(MON_PURE:%=$(MON_SRC)/%) $(KSMBDSTATS_FMT_LIB)
endif
endif
