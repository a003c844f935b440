#!/bin/bash
# vm: --server --timeout 600
# QUERY_INFO, SET_INFO and QUERY_DIRECTORY: through mount.cifs (stat,
# ls -l, touch -d, truncate, rename, hard links, rmdir of a non-empty
# directory, a 5000-entry directory, chmod of someone else's file),
# smbclient (allinfo, ls), then the raw client's edge cases
# (clients/smb2query.py). Ends with every live counter back at zero.
. "$VM_TOP/tests/vm/lib/check.sh"
q=$VM_TOP/tests/vm/clients/smb2query.py
share=/srv/share
mnt=/mnt/ksmbd-query
w=$share/query-case
m=$mnt/query-case

mtime() { stat -c %Y "$1"; }
size() { stat -c %s "$1"; }

require_server

rm -rf "$w"
mkdir -p "$w" $mnt
chown tester:tester "$w"
if ! timeout 60 mount -t cifs //127.0.0.1/share $mnt \
	-o username=tester,password=tester,vers=3.1.1,actimeo=0 2>/tmp/mount.err; then
	fail mount "$(tail -1 /tmp/mount.err)"
else
	pass mount

	# ---- stat and ls ----
	head -c 12345 /dev/urandom > "$w/data"
	chown tester:tester "$w/data"
	check stat-size test "$(size "$m/data")" = 12345
	check ls-l-lists sh -c "ls -l '$m' | grep -q ' 12345 .* data\$'"
	mkdir "$w/sub" && chown tester:tester "$w/sub"
	check stat-dir test -d "$m/sub"

	# ---- times and sizes ----
	check touch-d touch -d '2001-02-03 04:05:06 UTC' "$m/data"
	check touch-d-backing test "$(mtime "$w/data")" = 981173106
	check truncate-shrink truncate -s 100 "$m/data"
	check truncate-shrink-backing test "$(size "$w/data")" = 100
	check truncate-extend truncate -s 1000000 "$m/data"
	check truncate-extend-backing test "$(size "$w/data")" = 1000000
	check truncate-extend-seen test "$(size "$m/data")" = 1000000

	# ---- rename ----
	echo one > "$w/r1"; echo two > "$w/r2"; chown tester:tester "$w/r1" "$w/r2"
	check rename-same-dir mv "$m/r1" "$m/r1b"
	check rename-same-dir-backing test -f "$w/r1b" -a ! -e "$w/r1"
	check rename-across-dirs mv "$m/r1b" "$m/sub/r1c"
	check rename-across-backing test -f "$w/sub/r1c"
	check rename-replace mv -f "$m/sub/r1c" "$m/r2"
	check rename-replace-backing grep -qx one "$w/r2"
	check rename-dir mv "$m/sub" "$m/sub2"
	check rename-dir-backing test -d "$w/sub2"

	# ---- hard link ----
	check ln ln "$m/r2" "$m/r2link"
	check ln-same-inode test "$(stat -c %i "$w/r2")" = "$(stat -c %i "$w/r2link")"
	check ln-count test "$(stat -c %h "$w/r2")" = 2

	# ---- delete ----
	mkdir -p "$w/full" && touch "$w/full/x" && chown -R tester:tester "$w/full"
	check_not rmdir-non-empty rmdir "$m/full"
	check rmdir-non-empty-kept test -f "$w/full/x"
	check rm-file rm "$m/full/x"
	check rmdir-empty rmdir "$m/full"
	check rmdir-gone test ! -e "$w/full"

	# ---- chmod of a file the user does not own ----
	echo root > "$w/rootfile"; chown root:root "$w/rootfile"; chmod 0666 "$w/rootfile"
	# cifs.ko ignores a failed SET_INFO behind chmod (only the mode on
	# the server shows the refusal); the raw client checks the status.
	chmod a-w "$m/rootfile" 2>/dev/null
	check chmod-foreign-mode-kept test "$(stat -c %a "$w/rootfile")" = 666
	check chmod-own-file chmod a-w "$m/r2"
	check chmod-own-file-backing test "$(stat -c %a "$w/r2")" = 444

	# ---- a big directory ----
	mkdir "$w/big"
	(cd "$w/big" && seq -f 'entry-%05g' 1 5000 | xargs touch)
	chown -R tester:tester "$w/big"
	n=$(ls "$m/big" | wc -l)
	check big-dir-count test "$n" = 5000
	check big-dir-same-names cmp <(ls "$m/big" | sort) <(ls "$w/big" | sort)
	check big-dir-pattern test "$(ls -d "$m"/big/entry-0499? | wc -l)" = 10

	umount $mnt
fi

# ---- smbclient ----
out=$(timeout 60 smbclient //127.0.0.1/share -U tester%tester -m SMB3 \
	-c 'cd query-case; allinfo data; ls' 2>&1)
echo "$out" | sed 's/^/smbclient: /' | head -30
check smbclient-allinfo-size grep -q 'stream: \[::\$DATA\], 1000000 bytes' <<<"$out"
# touch -d set both times; the truncates since moved write_time on
check smbclient-allinfo-access-time grep -q 'access_time:.*2001' <<<"$out"
check smbclient-ls-data grep -qE '^ +data +[A-Z]* +1000000 ' <<<"$out"
# the alternate (8.3) name is not supported, which smbclient reports and skips
check_not smbclient-no-error sh -c "grep -v 'getting alt name' | grep -q NT_STATUS_" <<<"$out"

# ---- raw client ----
[ -f "$w/rootfile" ] || { echo root > "$w/rootfile"; chmod 0666 "$w/rootfile"; }
python3 "$q" --prefix "$CASE" --foreign 'query-case\rootfile' || CHECK_FAILED=1
check foreign-mode-kept-raw test "$(stat -c %a%U "$w/rootfile")" = 666root

check live-zero wait_for 15 live_is_zero
rm -rf "$w" "$share"/q-*
finish
