# tests/vm: the guest harness runs under make vmtest; on the host, the
# KVM probe's own test (stand-ins for /dev/kvm and QEMU) is a unit test.
UNIT_TESTS += $(BUILD)/unit/vm_kvm_probe
$(BUILD)/unit/vm_kvm_probe: $(TOP)/tests/vm/kvm-probe-test $(TOP)/tests/vm/kvm-probe
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec %s "$$@"\n' $< > $@ && chmod +x $@
