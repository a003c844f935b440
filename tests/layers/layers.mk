# tests/layers: the module's layering (issue 26), checked from its own
# includes on every `make unit`: no include cycle of more than two units,
# no .c over 1000 lines, no include of a higher layer folder, a typed
# decoder per command, module/README.md naming every file once.
LAYERS_CHECK := $(BUILD)/unit/layers
UNIT_TESTS += $(LAYERS_CHECK)

$(LAYERS_CHECK): $(TOP)/tests/layers/check.py
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nPYTHONDONTWRITEBYTECODE=1 exec /usr/bin/python3 %s %s "$$@"\n' $< $(TOP)/module > $@
	@chmod +x $@
