# tests/adversarial: the hostile-client suite itself runs in the guest
# (tests/vm/cases/adversarial.sh); on the host only its library's
# self-test runs (vectors, framing, README in step with the cases).
ADV_DIR := $(TOP)/tests/adversarial
ADV_SELFTEST := $(BUILD)/unit/adversarial-selftest
UNIT_TESTS += $(ADV_SELFTEST)

# Debian's python3: impacket and cryptography come from its packages.
$(ADV_SELFTEST): $(wildcard $(ADV_DIR)/*.py $(ADV_DIR)/cases/*.py) $(ADV_DIR)/README.md
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nPYTHONDONTWRITEBYTECODE=1 exec /usr/bin/python3 %s "$$@"\n' $(ADV_DIR)/selftest.py > $@
	@chmod +x $@
