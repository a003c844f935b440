# tests/torture: smbtorture itself runs in the guest (tests/vm/cases/
# smbtorture.sh, tests/vm/cases-full/smbtorture-*.sh); on the host only
# the self-test of run, pending and the lists' coverage runs.
TORTURE_DIR := $(TOP)/tests/torture
TORTURE_SELFTEST := $(BUILD)/unit/torture-selftest
UNIT_TESTS += $(TORTURE_SELFTEST)

$(TORTURE_SELFTEST): $(addprefix $(TORTURE_DIR)/,selftest run pending expected full.list rest.list)
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nPYTHONDONTWRITEBYTECODE=1 exec %s "$$@"\n' $(TORTURE_DIR)/selftest > $@
	@chmod +x $@
