# tests/smb2: the Python test library every raw client builds on; on the
# host its pure parts (keys, NTLMv2, signing, transform, DER, CREATE and
# framing layouts) are checked against published vectors.
SMB2_PYLIB_DIR := $(TOP)/tests/smb2
SMB2_PYLIB_SELFTEST := $(BUILD)/unit/smb2-pylib
UNIT_TESTS += $(SMB2_PYLIB_SELFTEST)

# Debian's python3: pycryptodomex, impacket and cryptography are its packages.
$(SMB2_PYLIB_SELFTEST): $(wildcard $(SMB2_PYLIB_DIR)/*.py) $(TOP)/tests/unit/proto/vectors.h
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nPYTHONDONTWRITEBYTECODE=1 exec /usr/bin/python3 %s "$$@"\n' $(SMB2_PYLIB_DIR)/selftest.py > $@
	@chmod +x $@
