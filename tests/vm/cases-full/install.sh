#!/bin/bash
# vm: --dpkg --timeout 2400
# Not in make check: depmod over the guest's modules tree (9p) alone took
# 468 s under TCG here, the whole case about 13 minutes.
# The packages as an admin installs them (issue 24's acceptance): a guest
# with nothing of ours loaded installs build/deb's three packages with
# dpkg -i (make deb first; the host's dpkg database under an overlay, see
# --dpkg), the module lands under updates/dkms, modprobe loads ours and
# not the kernel's, a ksmbd.conf in ksmbd-tools' style and a user from
# ksmbd.adduser, the server started by the installed unit's own
# ExecStartPre=/ExecStart= lines, smbclient and a cifs mount, shares
# published by ExecReload=, ExecStop=, rmmod.
#
# DKMS's own build of the module takes more than an hour under TCG, so
# here the package's postinst is told not to build
# (/etc/dkms/no-autoinstall) and the tree's build/module/ksmbd.ko (same
# sources, same VERSION) is put where DKMS puts it;
# tests/vm/cases-full/install-dkms.sh runs this case with the real DKMS
# build (INSTALL_DKMS=1).
. "$VM_TOP/tests/vm/lib/check.sh"
dkms_build=${INSTALL_DKMS:-0}
case_start=$(date +%s)
ver=$(cat "$VM_TOP/VERSION")
kver=$(uname -r)
debs=$VM_TOP/build/deb
arch=$(dpkg --print-architecture)
pkgs=("$debs/ksmbd-dkms_${ver}_all.deb" "$debs/ksmbd-server_${ver}_$arch.deb"
      "$debs/ksmbd-monitor_${ver}_$arch.deb")
for p in "${pkgs[@]}"; do
	[ -f "$p" ] || { fail packages "$p is missing: run make deb first"; finish; }
done

check nothing-of-ours-loaded sh -c '! grep -q "^ksmbd " /proc/modules'
check dpkg-database sh -c 'dpkg-query -W -f "\${db:Status-Abbrev}" dkms | grep -q ^ii'

# The modules tree is the host's build/kernel/root (9p): DKMS and depmod
# write to a tmpfs overlay on it instead, and the headers link that the
# headers package puts there (hidden by that tree) is made again.
mkdir -p /run/mods/up /run/mods/work
mount -t tmpfs mods /run/mods && mkdir -p /run/mods/up /run/mods/work &&
	mount -t overlay -o lowerdir=/usr/lib/modules,upperdir=/run/mods/up,workdir=/run/mods/work \
		overlay /usr/lib/modules
ln -sfn "/usr/src/linux-headers-$kver" "/usr/lib/modules/$kver/build"
check modules-tree-writable test -w "/usr/lib/modules/$kver"
mkdir -p /var/lib/dkms /var/cache/debconf /var/log
export DEBIAN_FRONTEND=noninteractive

# ---- dpkg -i: DKMS builds and installs the module in the postinst ----
[ "$dkms_build" = 1 ] || touch /etc/dkms/no-autoinstall
start=$(date +%s)
dpkg -i "${pkgs[@]}" > /tmp/dpkg.log 2>&1 &
dpid=$!
# A line a minute while DKMS compiles: how far it got.
n=0
while kill -0 $dpid 2>/dev/null; do
	sleep 2; n=$((n + 2))
	[ $((n % 60)) = 0 ] &&
		echo "# dpkg -i: $n s, $(find /var/lib/dkms/ksmbd -name '*.o' 2>/dev/null | wc -l) objects compiled"
done
wait $dpid
rc=$?
secs=$(($(date +%s) - start))
sed 's/^/# dpkg: /' /tmp/dpkg.log | grep -v '^# dpkg: (Reading database' | tail -25
echo "# dpkg -i of the three packages$([ "$dkms_build" = 1 ] && echo ', DKMS build and install included'): $secs s"
if [ $rc = 0 ]; then pass dpkg-install; else fail dpkg-install "exit $rc"; fi
for p in ksmbd-dkms ksmbd-server ksmbd-monitor; do
	check "installed-$p" sh -c "dpkg-query -W -f '\${db:Status-Abbrev} \${Version}' $p | grep -qx 'ii  $ver'"
done
ours=/usr/lib/modules/$kver/updates/dkms/ksmbd.ko
if [ "$dkms_build" = 1 ]; then
	# DKMS keeps the build's log once the build folder is gone.
	mlog=/var/lib/dkms/ksmbd/$ver/$kver/$(uname -m)/log/make.log
	[ -f "$mlog" ] && sed 's/^/# dkms make.log: /' "$mlog" | grep -iE 'btf|error|warning' | head -10
	check dkms-status sh -c "dkms status ksmbd/$ver -k $kver | grep -q installed"
	check dkms-module-btf grep -q 'has BTF' "$mlog"
else
	# What the skipped DKMS build would have done: our build of the same
	# sources into updates/dkms, depmod.
	check dkms-told-not-to-build grep -q 'autoinstall for dkms modules has been disabled' /tmp/dpkg.log
	# What the postinst does first: DKMS takes the packaged tree.
	check dkms-add dkms add -m ksmbd -v "$ver"
	check dkms-added sh -c "dkms status ksmbd/$ver | grep -q added"
	mkdir -p "$(dirname "$ours")" && cp "$VM_TOP/build/module/ksmbd.ko" "$ours"
	t0=$(date +%s)
	depmod -a "$kver"
	echo "# depmod over the guest's modules tree: $(($(date +%s) - t0)) s"
	rm -f /etc/dkms/no-autoinstall
fi
check dkms-installed-under-updates test -f "$ours"

# ---- modprobe picks ours over fs/smb/server/ksmbd.ko ----
check modinfo-finds-ours sh -c "[ \"\$(modinfo -n ksmbd)\" = '$ours' ] || [ \"\$(readlink -f \"\$(modinfo -n ksmbd)\")\" = '$(readlink -f "$ours")' ]"
check modinfo-version sh -c "[ \"\$(modinfo -F version ksmbd)\" = '$ver' ]"

echo "# case at $(($(date +%s) - case_start)) s"
# ---- the configuration, as ksmbd-tools documents it ----
mkdir -p /srv/pub /srv/added /srv/byhand
id installer >/dev/null 2>&1 || useradd -M -d /srv/pub -s /bin/bash installer
chown installer: /srv/pub /srv/added /srv/byhand
cat > /etc/ksmbd/ksmbd.conf <<'CONF'
; ksmbd.conf as ksmbd-tools documents it: a [global] section, one section
; per share, "key = value", comments with ';' or '#'.
[global]
	workgroup = WORKGROUP
	server string = ksmbd installed from packages
	netbios name = KSMBDPKG
	server min protocol = SMB2_10
	server signing = auto
	map to guest = never

# a share for the one user
[pub]
	comment = packaged server
	path = /srv/pub
	read only = no
	browseable = yes
	valid users = installer
CONF
check adduser sh -c 'ksmbd.adduser -a installer -p inst-pass-1'
check adduser-wrote-db grep -q '^installer:' /etc/ksmbd/ksmbdpwd.db

# ---- start exactly as the installed unit says ----
unit=/lib/systemd/system/ksmbd.service
check unit-installed test -f "$unit"
# run_unit_lines KEY: every KEY= line of the unit, in order, as systemd runs
# them (no shell; a leading '-' means a failure is ignored).
run_unit_lines() {
	local key=$1 cmd ignore argv rc=0
	while IFS= read -r cmd; do
		ignore=0
		[ "${cmd#-}" != "$cmd" ] && { ignore=1; cmd=${cmd#-}; }
		read -ra argv <<<"$cmd"
		echo "# $key: ${argv[*]}"
		"${argv[@]}" || { [ $ignore = 1 ] || rc=1; }
	done < <(sed -n "s/^$key=//p" "$unit")
	return $rc
}
check unit-has-start-lines sh -c "grep -q '^ExecStartPre=' '$unit' && grep -q '^ExecStart=' '$unit'"
check exec-start-pre run_unit_lines ExecStartPre
check module-loaded-by-unit grep -q '^ksmbd ' /proc/modules
check loaded-is-ours sh -c "[ \"\$(cat /sys/module/ksmbd/version)\" = '$ver' ]"
check loaded-has-btf test -s /sys/kernel/btf/ksmbd
check exec-start run_unit_lines ExecStart
check pid-file sh -c 'kill -0 "$(cat /run/ksmbd.lock)"'
check server-running wait_for 30 grep -qx 'state running' /sys/class/ksmbd-control/stats
check listening wait_for 30 listening

echo "# case at $(($(date +%s) - case_start)) s"
# ---- clients ----
echo "from smbclient" > /tmp/up.txt
out=$(timeout 60 smbclient //127.0.0.1/pub -U installer%inst-pass-1 -m SMB3 \
	-c 'put /tmp/up.txt up.txt; ls' 2>&1)
echo "$out" | sed 's/^/# smbclient: /' | tail -4
check smbclient-put-ls grep -q 'up.txt' <<<"$out"
check smbclient-file-on-disk grep -qx 'from smbclient' /srv/pub/up.txt
mkdir -p /mnt/pub
check cifs-mount timeout 60 mount -t cifs //127.0.0.1/pub /mnt/pub \
	-o username=installer,password=inst-pass-1,vers=3.1.1
if mountpoint -q /mnt/pub; then
	check cifs-read grep -qx 'from smbclient' /mnt/pub/up.txt
	check cifs-write sh -c 'echo "from cifs" > /mnt/pub/cifs.txt && sync'
	check cifs-file-on-disk grep -qx 'from cifs' /srv/pub/cifs.txt
	check cifs-umount umount /mnt/pub
fi
if command -v ksmbdtop >/dev/null; then
	check monitor-ksmbdtop-version sh -c "ksmbdtop -V | grep -qF '$ver'"
	check monitor-ksmbd-lat-attaches timeout 60 ksmbd-lat 1 1
fi

# ---- publishing shares through ExecReload= ----
reachable() { timeout 60 smbclient "//127.0.0.1/$1" -U installer%inst-pass-1 -m SMB3 -c ls >/dev/null 2>&1; }
# within SECS CMD...: CMD succeeds before SECS have passed (for commands
# that take seconds each under TCG, unlike wait_for's 0.1 s polls).
within() {
	local end=$(($(date +%s) + $1)); shift
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 2
	done
}
check_not byhand-not-yet reachable byhand
check addshare ksmbd.addshare -a added -o 'path = /srv/added' -o 'read only = no' -o 'valid users = installer'
printf '\n[byhand]\n\tpath = /srv/byhand\n\tvalid users = installer\n' >> /etc/ksmbd/ksmbd.conf
check exec-reload run_unit_lines ExecReload
check added-share-published within 60 reachable added
check byhand-share-published within 60 reachable byhand
check pub-still-served reachable pub

echo "# case at $(($(date +%s) - case_start)) s"
# ---- ExecStop=, then the module goes ----
pid=$(cat /run/ksmbd.lock 2>/dev/null)
check exec-stop run_unit_lines ExecStop
check daemon-exited within 30 sh -c "! kill -0 '$pid' 2>/dev/null"
check server-stopped within 30 sh -c '! ss -ltnH "sport = :445" | grep -q LISTEN'
# Whatever ExecStop left, the unload below must not race a daemon.
[ -n "$pid" ] && kill "$pid" 2>/dev/null && sleep 1
check rmmod rmmod ksmbd
check module-gone test ! -e /sys/module/ksmbd
echo "# case took $(($(date +%s) - case_start)) s"
finish
