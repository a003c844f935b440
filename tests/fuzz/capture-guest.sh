#!/bin/bash
# Guest half of tests/fuzz/capture-corpus (runs with --server): records a
# cifs mount session and an smbclient session against our server with
# tcpdump on lo, one pcap each, into build/fuzz/capture/. Unencrypted, so
# every SMB2 frame can be split out on the host.
set -u
top=$VM_TOP
out=$top/build/fuzz/capture
mkdir -p "$out"
rm -f "$out"/*.pcap
mnt=/mnt/cap
mkdir -p $mnt

# capture NAME CMD...: runs CMD with tcpdump recording port 445 on lo.
capture() {
	local name=$1; shift
	tcpdump -i lo -s 0 -U -w "$out/$name.pcap" tcp port 445 2>"$out/$name.tcpdump.log" &
	local tp=$!
	sleep 2
	"$@"
	sleep 1
	kill -INT $tp
	wait $tp
	echo "capture: $name: $(tail -1 "$out/$name.tcpdump.log")"
}

cifs_session() {
	mount -t cifs //127.0.0.1/share $mnt -o username=tester,password=tester,vers=3.1.1,cache=none ||
		{ echo "capture: cifs mount failed"; return; }
	mkdir -p $mnt/dir/sub
	printf 'hello corpus\n' > $mnt/dir/a.txt
	head -c 5000 /dev/urandom > $mnt/dir/b.bin
	cat $mnt/dir/a.txt $mnt/dir/b.bin > /dev/null
	ls -la $mnt $mnt/dir > /dev/null
	stat $mnt/dir/a.txt > /dev/null
	mv $mnt/dir/a.txt $mnt/dir/renamed.txt
	ln -s renamed.txt $mnt/dir/link 2>/dev/null
	touch -d '2020-01-02 03:04:05' $mnt/dir/renamed.txt
	truncate -s 100 $mnt/dir/b.bin
	chmod 0640 $mnt/dir/b.bin
	setfattr -n user.corpus -v value1 $mnt/dir/b.bin 2>/dev/null
	setfattr -n user.second -v 0x0102030405 $mnt/dir/b.bin 2>/dev/null
	getfattr -d $mnt/dir/b.bin > /dev/null 2>&1
	getcifsacl $mnt/dir/b.bin > /dev/null 2>&1
	getfattr -n system.cifs_ntsd_full $mnt/dir/b.bin > /dev/null 2>&1
	setcifsacl -a "ACL:S-1-1-0:ALLOWED/0x0/R" $mnt/dir/b.bin > /dev/null 2>&1
	df $mnt > /dev/null
	rm -f $mnt/dir/link $mnt/dir/renamed.txt
	rm -rf $mnt/dir
	umount $mnt
}

smbclient_session() {
	local sc="smbclient -U tester%tester"
	$sc -L //127.0.0.1 -m SMB3 > /dev/null 2>&1
	printf 'smbclient data\n' > /tmp/cap-local.txt
	$sc //127.0.0.1/share -m SMB3 -c '
		mkdir scdir; cd scdir; put /tmp/cap-local.txt one.txt;
		put /tmp/cap-local.txt two.txt; ls; ls o*; ls *.txt; ls t?o.txt;
		allinfo one.txt; get one.txt /tmp/cap-back.txt;
		rename two.txt three.txt; del one.txt; del three.txt; cd ..;
		rmdir scdir; ls nosuchname*' > /dev/null 2>&1
	$sc //127.0.0.1/share -m SMB2_10 -c 'ls' > /dev/null 2>&1
	$sc //127.0.0.1/IPC\$ -m SMB3 -c 'ls' > /dev/null 2>&1
	rpcclient -U tester%tester 127.0.0.1 -c 'srvinfo; netshareenumall; lsaquery; enumdomusers' \
		> /dev/null 2>&1
}

capture cifs cifs_session
capture smbclient smbclient_session
ls -la "$out"
