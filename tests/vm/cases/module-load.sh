#!/bin/bash
# vm: --timeout 300
# The module loads, shows its control class and BTF, unloads and reloads
# cleanly (the harness fails the run on any kernel warning).
. "$VM_TOP/tests/vm/lib/check.sh"
ko=$VM_TOP/build/module/ksmbd.ko

check insmod insmod "$ko"
check control-class test -d /sys/class/ksmbd-control
check stats-readable grep -q '^version ' /sys/class/ksmbd-control/stats
check state-waiting-daemon grep -qx 'state waiting-daemon' /sys/class/ksmbd-control/stats
check live-objects-zero test "$(stat_value connections)$(stat_value sessions)$(stat_value open_files)" = 000
check module-btf test -s /sys/kernel/btf/ksmbd
# Under the guest's slub_debug the buffer caches are poisoned: SLUB
# poisons a cache only when it has no constructor (issue 25 item 12).
if grep -q 'slub_debug=[^ ]*P' /proc/cmdline; then
	for c in ksmbd_rsp ksmbd_scratch; do
		check $c-poisoned sh -c "grep -qx 1 /sys/kernel/slab/$c/poison && ! grep -q . /sys/kernel/slab/$c/ctor"
	done
fi
if command -v bpftool >/dev/null; then
	check btf-has-module-types sh -c "bpftool btf dump file /sys/kernel/btf/ksmbd | grep -q ksmbd_server_config"
fi

# debug: toggling one component brackets it; toggling again clears it.
check debug-lists-components grep -q 'smb auth vfs oplock ipc conn rdma' /sys/class/ksmbd-control/debug
echo auth > /sys/class/ksmbd-control/debug
check debug-toggle-on grep -q '\[auth\]' /sys/class/ksmbd-control/debug
echo auth > /sys/class/ksmbd-control/debug
check debug-toggle-off grep -qv '\[auth\]' /sys/class/ksmbd-control/debug
check_not debug-rejects-unknown sh -c 'echo nosuch > /sys/class/ksmbd-control/debug'
check_not kill-server-rejects-garbage sh -c 'echo maybe > /sys/class/ksmbd-control/kill_server'
check kill-server-accepts-hard sh -c 'echo hard > /sys/class/ksmbd-control/kill_server'

check rmmod rmmod ksmbd
check class-gone-after-rmmod test ! -e /sys/class/ksmbd-control
check btf-gone-after-rmmod test ! -e /sys/kernel/btf/ksmbd
check reinsmod insmod "$ko"
check class-back test -d /sys/class/ksmbd-control
check rmmod-again rmmod ksmbd
check dmesg-load-unload-lines sh -c "dmesg | grep -c 'ksmbd: version .* loaded' | grep -qx 2"
finish
