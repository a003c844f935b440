# man/: the manual pages. ksmbd.conf.5 is generated from the key table
# (daemon/config_keys.c) and its words (daemon/config_doc.c) by
# gen-ksmbd-conf; the others are written by hand. `make man` (and `make
# all`) put every page in $(BUILD)/man, where packaging installs from.

MAN_SRC := $(TOP)/man
MAN_OUT := $(BUILD)/man
MAN_HAND := $(filter-out %.in,$(wildcard $(MAN_SRC)/*.[1-8]))
MAN_PAGES := $(MAN_OUT)/ksmbd.conf.5 $(MAN_HAND:$(MAN_SRC)/%=$(MAN_OUT)/%)
MAN_GEN := $(MAN_OUT)/gen-ksmbd-conf

.PHONY: man
man: $(MAN_PAGES)
USER_BINS += $(MAN_PAGES)

$(MAN_GEN): $(MAN_SRC)/gen-ksmbd-conf.c $(TOP)/daemon/config_doc.c \
		$(TOP)/daemon/config_doc.h $(CORE_LIB) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(USER_CC) $(USER_CFLAGS) -I$(TOP)/daemon -o $@ $< $(TOP)/daemon/config_doc.c $(CORE_LIB)

$(MAN_OUT)/ksmbd.conf.5: $(MAN_SRC)/ksmbd.conf.5.in $(MAN_GEN)
	@mkdir -p $(dir $@)
	$(MAN_GEN) $< > $@.tmp && mv $@.tmp $@

$(MAN_OUT)/%: $(MAN_SRC)/%
	@mkdir -p $(dir $@)
	cp $< $@

# Host test: every page renders without a groff warning, every key is in
# ksmbd.conf.5, every long option of the daemon tools' and the tracing
# scripts' --help is in their page (ksmbdtop's and ksmbd-lat's are checked where they run: the VM
# cases ksmbdtop and bpf).
UNIT_TESTS += $(BUILD)/unit/man
$(BUILD)/unit/man: $(TOP)/tests/unit/man/check-man $(MAN_PAGES) $(MAN_GEN) \
		$(BUILD)/daemon/ksmbd.mountd $(BUILD)/daemon/ksmbd.control \
		$(BUILD)/daemon/ksmbd.adduser $(BUILD)/daemon/ksmbd.addshare \
		$(TOP)/tracing/ksmbd-trace $(TOP)/tracing/ksmbd-hist
	@mkdir -p $(dir $@)
	cp $< $@
