# tests/fuzz/krb5.mk: the daemon's Kerberos/SPNEGO wrapper under libFuzzer,
# with a real keytab made at start (fuzz_krb5.c). Included after
# daemon/mountd.mk, whose IPC_TEST_SRCS (the handlers without netlink)
# and GSS/krb5 libraries it links; the core and RPC sources expand late.
FUZZ_TARGETS += krb5
$(BUILD)/fuzz/krb5: $(TOP)/tests/fuzz/fuzz_krb5.c $(IPC_TEST_SRCS) $(MOUNTD_HDRS) \
		$(IPC_TEST_DIR)/krb5_realm.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(MOUNTD_DIR) $(KSMBD_MODULE_INC) -I$(IPC_TEST_DIR) $< \
		$(IPC_TEST_SRCS) $(RPC_SRCS) $(CORE_SRCS) $(MOUNTD_KRB5_LIBS) -o $@
