# ksmbd: one Makefile for the module, the daemon, the tools and the tests.
# See README.md; docs/CONTRIBUTING-build.md describes the fragment contract.

TOP := $(CURDIR)
BUILD := $(TOP)/build
export TOP BUILD

# The one version of the module, every tool, dkms.conf and the Debian
# packages (tests/pkg/deb checks that they agree).
VERSION := $(shell cat $(TOP)/VERSION)

# The kernel we target is whatever Debian's linux-headers-amd64 points at.
# Recursive (=) so that it is only read after `make deps` installed it.
# KVER=... or KDIR=... on the command line builds against that header tree
# instead, with no guest kernel download (see module-btf for the BTF).
KVER = $(shell $(TOP)/scripts/kver)
KDIR = $(firstword $(wildcard /lib/modules/$(KVER)/build) /usr/src/linux-headers-$(KVER))
KERNEL_GIVEN := $(filter command line,$(origin KVER) $(origin KDIR))
# KDIR alone: the release that header tree was configured for.
ifeq ($(origin KDIR)$(origin KVER),command linefile)
KVER = $(shell cat $(KDIR)/include/config/kernel.release)
endif

# Packagers' CPPFLAGS, CFLAGS and LDFLAGS (dpkg-buildflags) come after ours,
# so their hardening and optimisation win. WERROR=0 drops -Werror: a newer
# compiler's new warning must not break a distribution's build; our own
# builds and CI keep it.
WERROR ?= 1
WERROR_FLAG := $(if $(filter 1,$(WERROR)),-Werror)
USER_CC := gcc
USER_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR_FLAG) -O2 -g \
	-DKSMBD_VERSION='"$(VERSION)"' $(CPPFLAGS) $(CFLAGS)
USER_LDFLAGS := $(LDFLAGS)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
UNIT_CFLAGS := $(USER_CFLAGS) $(SAN_FLAGS) -I$(TOP)/tests/lib
FUZZ_CC := clang
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -D_GNU_SOURCE \
	-DKSMBD_VERSION='"$(VERSION)"'
FUZZ_SECONDS ?= 5

UNIT_TESTS :=
FUZZ_TARGETS :=
USER_BINS :=

.DEFAULT_GOAL := all
.PHONY: all deps module kernel user unit fuzz fuzz-targets vmtest vmtest-full check check-full run clean initramfs vmwarn bench

# Every target below depends on deps; scripts/deps is a no-op when everything
# is installed. NO_DEPS=1 skips it (debian/rules: dpkg-buildpackage has
# checked the Build-Depends already, and a build chroot has no QEMU).
deps:
	@$(if $(filter 1,$(NO_DEPS)),true,$(TOP)/scripts/deps)

include $(sort $(wildcard mk/*.mk daemon/*.mk daemon/*/*.mk module/*.mk module/*/*.mk bpf/*.mk monitor/*.mk man/*.mk tests/*/*.mk))

all: module user

# (The sub-make gets explicit targets only: with none it would build the
# default goal and recurse.)
# Every user-space program, the BPF object included, from the installed
# packages alone: no module build, no guest kernel, no root, no network
# (bpf/ takes its types from the kernel headers; tests/pkg/user-build).
user: deps
	@$(if $(strip $(USER_BINS)),$(MAKE) --no-print-directory $(USER_BINS),true)

# The guest kernel image, its modules tree and vmlinux (for BTF).
kernel: deps
	@$(TOP)/scripts/guest-kernel

# Kbuild builds in a mirror of the source folder made of symlinks, so that
# no output lands in the source tree: $(call kbuild,SRC_DIR,OUT_DIR)
define kbuild
	@mkdir -p $(2)
	@cd $(1) && find . -type d -exec mkdir -p $(2)/{} \; && \
		find . -type f \( -name '*.[ch]' -o -name Kbuild -o -name dirs.mk \) -exec ln -sf $(1)/{} $(2)/{} \;
	@find $(2) -xtype l -delete
	$(MAKE) -C $(KDIR) M=$(2) KSMBD_VERSION=$(VERSION) KSMBD_WERROR=$(WERROR) modules
endef

# For the guest kernel (the default) the module's BTF is made against the
# downloaded image's vmlinux; for a header tree named with KVER=/KDIR=,
# module-btf finds that kernel's BTF on this machine or says why not.
MODULE_OUT := $(BUILD)/module
module: $(if $(KERNEL_GIVEN),deps,kernel)
	$(call kbuild,$(TOP)/module,$(MODULE_OUT))
	@$(TOP)/scripts/module-btf $(MODULE_OUT)/ksmbd.ko $(KVER) \
		$(if $(KERNEL_GIVEN),,$(BUILD)/kernel/vmlinux)

# A test-only module whose load triggers a WARN (the harness self-test).
vmwarn: kernel
	$(call kbuild,$(TOP)/tests/vm/warn-module,$(BUILD)/vm/warn-module)

# Each suite's first line says which of how many it is (PROGRESS, read by
# tests/run-suite) and, under make check, how long the check has run.
check check-full: export KSMBD_CHECK_START := $(shell date +%s)

unit: deps
	@$(if $(strip $(UNIT_TESTS)),$(MAKE) --no-print-directory $(UNIT_TESTS),true)
	@n=$(words $(UNIT_TESTS)); i=0; for t in $(UNIT_TESTS); do i=$$((i + 1)); \
		PROGRESS="unit $$i of $$n" $(TOP)/tests/run-suite unit-$$(basename $$t) $$t; done

# The fuzz targets alone, built (tests/fuzz/long-run runs them).
fuzz-targets: deps
	@$(if $(strip $(FUZZ_TARGETS)),$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%),true)

fuzz: fuzz-targets
	@n=$(words $(FUZZ_TARGETS)); i=0; for t in $(FUZZ_TARGETS); do i=$$((i + 1)); \
		PROGRESS="fuzz $$i of $$n" $(TOP)/tests/run-suite fuzz-$$t \
		$(TOP)/tests/fuzz/run-fuzzer $$t $(FUZZ_SECONDS); done

VM_CASES = $(wildcard $(TOP)/tests/vm/cases/*.sh)
vmtest: all initramfs vmwarn
	@n=$$(( $(words $(VM_CASES)) + 2 )); \
	PROGRESS="vm 1 of $$n" $(TOP)/tests/run-suite vm-harness $(TOP)/tests/vm/selftest; \
	PROGRESS="vm 2 of $$n" $(TOP)/tests/run-suite vm-make-run $(TOP)/tests/vm/interactive-test; \
	i=2; for t in $(VM_CASES); do i=$$((i + 1)); \
		PROGRESS="vm $$i of $$n" $(TOP)/tests/run-suite vm-$$(basename $$t .sh) \
		$(TOP)/tests/vm/run-case $$t; done

initramfs: kernel
	@$(TOP)/tests/vm/mkinitramfs

# A phase that does not even build still ends in the summary, as a failure.
check: deps
	@rm -rf $(BUILD)/results && mkdir -p $(BUILD)/results
	@$(MAKE) --no-print-directory unit || echo "FAIL: build: unit tests did not build" >> $(BUILD)/results/build.log
	@$(MAKE) --no-print-directory fuzz || echo "FAIL: build: fuzz targets did not build" >> $(BUILD)/results/build.log
	@$(MAKE) --no-print-directory pkgtest || echo "FAIL: build: packaging tests did not run" >> $(BUILD)/results/build.log
	@$(MAKE) --no-print-directory vmtest || echo "FAIL: build: module, tools or guest did not build" >> $(BUILD)/results/build.log
	@$(TOP)/tests/summary

# The long or not yet dependable runs: longer fuzzing and the VM cases in
# tests/vm/cases-full/ (each says there why it is not in make check).
# install.sh installs build/deb's packages in the guest: deb first.
VM_FULL_CASES = $(wildcard $(TOP)/tests/vm/cases-full/*.sh)
vmtest-full: all initramfs deb
	@n=$(words $(VM_FULL_CASES)); i=0; for t in $(VM_FULL_CASES); do i=$$((i + 1)); \
		PROGRESS="vm-full $$i of $$n" $(TOP)/tests/run-suite vm-$$(basename $$t .sh) \
		$(TOP)/tests/vm/run-case $$t; done

check-full: deps
	@rm -rf $(BUILD)/results && mkdir -p $(BUILD)/results
	@$(MAKE) --no-print-directory unit || echo "FAIL: build: unit tests did not build" >> $(BUILD)/results/build.log
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(or $(FULL_FUZZ_SECONDS),300) || echo "FAIL: build: fuzz targets did not build" >> $(BUILD)/results/build.log
	@$(MAKE) --no-print-directory pkgtest || echo "FAIL: build: packaging tests did not run" >> $(BUILD)/results/build.log
	@$(MAKE) --no-print-directory vmtest || echo "FAIL: build: module, tools or guest did not build" >> $(BUILD)/results/build.log
	@$(MAKE) --no-print-directory vmtest-full || echo "FAIL: build: vmtest-full" >> $(BUILD)/results/build.log
	@$(TOP)/tests/summary

run: all initramfs
	@$(TOP)/tests/vm/run --server --interactive

# Our server against Samba's smbd in one guest boot (not part of check).
bench: all initramfs
	@$(TOP)/tests/bench/run

clean:
	rm -rf $(BUILD)
