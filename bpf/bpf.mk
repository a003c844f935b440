# bpf/: the CO-RE programs over the ksmbd tracepoints, libksmbdstats and
# ksmbd-lat. Everything generated lands in $(BUILD)/bpf.
#
# For other fragments (monitor/):
#   KSMBDSTATS_CFLAGS   -I for ksmbd_stats.h / libksmbdstats.h
#   KSMBDSTATS_FMT_LIB  the pure half (formatting, percentiles, deltas,
#                       JSON): no BPF, no module build needed; unit tests
#   KSMBDSTATS_LIB      the whole library (load/attach/pin/read); its
#                       programs need only the kernel headers (KDIR)
#   KSMBDSTATS_LDLIBS   what KSMBDSTATS_LIB links against

BPF_SRC := $(TOP)/bpf
BPF_OUT := $(BUILD)/bpf
BPF_CLANG := clang
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -Wall $(WERROR_FLAG) \
	-I$(BPF_OUT) -I$(BPF_SRC)
BPF_TYPES_OUT := $(BPF_OUT)/types

KSMBDSTATS_CFLAGS := -I$(BPF_SRC)
KSMBDSTATS_FMT_LIB := $(BPF_OUT)/libksmbdstats_fmt.a
KSMBDSTATS_LIB := $(BPF_OUT)/libksmbdstats.a
KSMBDSTATS_LDLIBS := $(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf) -lelf -lz

USER_BINS += $(BPF_OUT)/ksmbd-lat

# ksmbd_module.h: every type the programs name, from the debug info of
# ksmbd_types.c compiled against the kernel headers (see that file): the
# same headers ksmbd.ko is built from, no vmlinux, no module build. CO-RE
# relocates the field accesses at load.
BPF_TYPES_DEPS := $(BPF_SRC)/ksmbd_types.c $(BPF_SRC)/Kbuild \
	$(wildcard $(TOP)/module/*.h $(TOP)/module/*/*.h)
$(BPF_OUT)/ksmbd_module.h: $(BPF_TYPES_DEPS)
	@mkdir -p $(BPF_TYPES_OUT)
	@ln -sf $(BPF_SRC)/ksmbd_types.c $(BPF_SRC)/Kbuild $(BPF_TYPES_OUT)/
	$(MAKE) -C $(KDIR) M=$(BPF_TYPES_OUT) KSMBD_MODULE_SRC=$(TOP)/module \
		KSMBD_VERSION=$(VERSION) ksmbd_types.o
	cp $(BPF_TYPES_OUT)/ksmbd_types.o $(BPF_TYPES_OUT)/btf.o
	pahole -J $(BPF_TYPES_OUT)/btf.o
	bpftool btf dump file $(BPF_TYPES_OUT)/btf.o format c > $@.tmp
	@grep -q 'btf_trace_ksmbd_request_done' $@.tmp || \
		{ echo "bpf.mk: no ksmbd tracepoint types in $@" >&2; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

$(BPF_OUT)/%.bpf.o: $(BPF_SRC)/%.bpf.c $(BPF_SRC)/ksmbd_stats.h $(BPF_OUT)/ksmbd_module.h
	@mkdir -p $(dir $@)
	$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp.o
	bpftool gen object $@ $@.tmp.o
	@rm -f $@.tmp.o

$(BPF_OUT)/%.skel.h: $(BPF_OUT)/%.bpf.o
	bpftool gen skeleton $< name $(subst -,_,$*)_bpf > $@.tmp && mv $@.tmp $@

BPF_USER_CFLAGS := $(USER_CFLAGS) -I$(BPF_SRC) -I$(BPF_OUT)
BPF_FMT_OBJS := $(BPF_OUT)/ksmbd_stats_fmt.o $(BPF_OUT)/ksmbd_stats_json.o \
	$(BPF_OUT)/ksmbd_json.o

$(BPF_OUT)/ksmbd_stats_fmt.o: $(BPF_SRC)/ksmbd_stats_fmt.c $(BPF_SRC)/libksmbdstats.h $(BPF_SRC)/ksmbd_stats.h
	@mkdir -p $(dir $@)
	$(USER_CC) $(BPF_USER_CFLAGS) -c $< -o $@

$(BPF_OUT)/ksmbd_stats_json.o: $(BPF_SRC)/ksmbd_stats_json.c $(BPF_SRC)/libksmbdstats.h \
		$(BPF_SRC)/ksmbd_stats.h $(BPF_SRC)/ksmbd_json.h
	@mkdir -p $(dir $@)
	$(USER_CC) $(BPF_USER_CFLAGS) -c $< -o $@

$(BPF_OUT)/ksmbd_json.o: $(BPF_SRC)/ksmbd_json.c $(BPF_SRC)/ksmbd_json.h
	@mkdir -p $(dir $@)
	$(USER_CC) $(BPF_USER_CFLAGS) -c $< -o $@

$(BPF_OUT)/libksmbdstats.o: $(BPF_SRC)/libksmbdstats.c $(BPF_SRC)/libksmbdstats.h \
		$(BPF_SRC)/ksmbd_stats.h $(BPF_OUT)/ksmbd_stats.skel.h
	$(USER_CC) $(BPF_USER_CFLAGS) -c $< -o $@

$(KSMBDSTATS_FMT_LIB): $(BPF_FMT_OBJS)
	rm -f $@ && ar rcs $@ $^

$(KSMBDSTATS_LIB): $(BPF_FMT_OBJS) $(BPF_OUT)/libksmbdstats.o
	rm -f $@ && ar rcs $@ $^

$(BPF_OUT)/ksmbd-lat: $(BPF_SRC)/ksmbd-lat.c $(BPF_SRC)/ksmbd_lat_print.c \
		$(BPF_SRC)/ksmbd_lat.h $(KSMBDSTATS_LIB)
	$(USER_CC) $(BPF_USER_CFLAGS) $(USER_LDFLAGS) -o $@ $(BPF_SRC)/ksmbd-lat.c \
		$(BPF_SRC)/ksmbd_lat_print.c $(KSMBDSTATS_LIB) $(KSMBDSTATS_LDLIBS)

# Keep the object for bpftool prog inspection; make would delete it.
.SECONDARY: $(BPF_OUT)/ksmbd_stats.bpf.o $(BPF_OUT)/ksmbd_stats.skel.h

# Host unit tests of the pure half (no BPF, no module build).
UNIT_TESTS += $(BUILD)/unit/bpf_stats
BPF_UNIT_SRCS := $(TOP)/tests/unit/bpf/test_stats.c $(BPF_SRC)/ksmbd_stats_fmt.c \
	$(BPF_SRC)/ksmbd_stats_json.c $(BPF_SRC)/ksmbd_json.c $(BPF_SRC)/ksmbd_lat_print.c
$(BUILD)/unit/bpf_stats: $(BPF_UNIT_SRCS) $(BPF_SRC)/libksmbdstats.h \
		$(BPF_SRC)/ksmbd_stats.h $(BPF_SRC)/ksmbd_lat.h $(BPF_SRC)/ksmbd_json.h
	@mkdir -p $(dir $@)
	$(USER_CC) $(UNIT_CFLAGS) -I$(BPF_SRC) -o $@ $(BPF_UNIT_SRCS)

# The JSON string writer both tools share.
UNIT_TESTS += $(BUILD)/unit/bpf_json
$(BUILD)/unit/bpf_json: $(TOP)/tests/unit/bpf/test_json.c $(BPF_SRC)/ksmbd_json.c \
		$(BPF_SRC)/ksmbd_json.h
	@mkdir -p $(dir $@)
	$(USER_CC) $(UNIT_CFLAGS) -I$(BPF_SRC) -DTEST_SUITE_NAME='"bpf_json"' -o $@ \
		$< $(BPF_SRC)/ksmbd_json.c

# tracing/ksmbd-hist over hand-written bpftool JSON (a script test).
UNIT_TESTS += $(BUILD)/unit/bpf_hist
$(BUILD)/unit/bpf_hist: $(TOP)/tests/unit/bpf/test_hist.sh $(TOP)/tracing/ksmbd-hist
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec %s "$$@"\n' $< > $@ && chmod +x $@
