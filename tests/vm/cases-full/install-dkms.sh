#!/bin/bash
# vm: --dpkg --timeout 5400
# Not in make check: DKMS compiling the module inside the TCG guest takes
# more than an hour (this case's "# dpkg -i" lines count it). The same
# acceptance case as tests/vm/cases-full/install.sh, with the ksmbd-dkms
# postinst's real DKMS build and install for the guest kernel, and the
# module's BTF made by it from /sys/kernel/btf/vmlinux.
INSTALL_DKMS=1 . "$VM_TOP/tests/vm/cases-full/install.sh"
