# Host test of tracing/ksmbd-trace's summary (a script, run as a unit test).
UNIT_TESTS += $(BUILD)/unit/tracing_summary
$(BUILD)/unit/tracing_summary: $(TOP)/tests/unit/tracing/test_summary.sh $(TOP)/tracing/ksmbd-trace
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec %s "$$@"\n' $< > $@ && chmod +x $@
