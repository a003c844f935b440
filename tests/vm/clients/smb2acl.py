#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/vm/clients/smb2acl.py SHARE USER PASSWORD WHAT [NAME]: one probe of
a share that stores security descriptors (tests/vm/cases/smb2-acl.sh).

  fsattr        FileFsAttributeInformation of the share root: prints the
                FileSystemAttributes in hex
  maxaccess N   opens N with MAXIMUM_ALLOWED and prints the access the
                handle was granted (FileAccessInformation), in hex, or the
                NT status of a refused open
  shareflags    the ShareFlags of the TREE_CONNECT response, in hex
  sacl N        opens N with ACCESS_SYSTEM_SECURITY, sets a SACL of one
                audit ACE (Everyone, read, success and failure) and reads
                it back: prints "sacl TYPE FLAGS MASK SID", or the NT status
                the open was refused with
  autoinherit D sets SE_DACL_AUTO_INHERITED in directory D's DACL (what
                Windows' own ACL editors send; smbcacls does not)
"""
import os
import struct
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import Tree  # noqa: E402
from smb2.create import (DIRECTORY_FILE, MAXIMUM_ALLOWED, OPEN,  # noqa: E402
                         FILE_READ_ATTRIBUTES, create_body)
from smb2 import wire  # noqa: E402

INFO_FILE, INFO_FS, INFO_SECURITY = 1, 2, 3
READ_CONTROL, WRITE_DAC = 0x20000, 0x40000
DACL_SECINFO, ALL_SECINFO, SACL_SECINFO = 0x4, 0x7, 0x8
ACCESS_SYSTEM_SECURITY = 0x01000000
SE_SACL_PRESENT, SE_SELF_RELATIVE = 0x0010, 0x8000
EVERYONE = bytes([1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0])


def audit_sd():
    """A self-relative descriptor with only a SACL: one SYSTEM_AUDIT ACE,
    Everyone, FILE_GENERIC_READ, successful and failed access."""
    ace = struct.pack("<BBHI", 2, 0x40 | 0x80, 8 + len(EVERYONE),
                      0x00120089) + EVERYONE
    acl = struct.pack("<BBHHH", 2, 0, 8 + len(ace), 1, 0) + ace
    return struct.pack("<BBHIIII", 1, 0, SE_SELF_RELATIVE | SE_SACL_PRESENT,
                       0, 0, 20, 0) + acl


def sid_text(b):
    n = b[1]
    auth = int.from_bytes(b[2:8], "big")
    subs = struct.unpack_from("<%dI" % n, b, 8)
    return "S-%d-%d" % (b[0], auth) + "".join("-%d" % s for s in subs)
SE_DACL_AUTO_INHERITED = 0x0400
FILE_ACCESS_INFORMATION = 8
FS_ATTRIBUTE_INFORMATION = 5


def opened(t, name, access, options=0):
    r = t.call(wire.CREATE, create_body(name, access=access, disp=OPEN,
                                        options=options, attrs=0))
    return r.status, (r.body[64:80] if r.status == 0 else None)


def main():
    share, user, password, what = sys.argv[1:5]
    env = types.SimpleNamespace(host="127.0.0.1", port=445, user=user,
                                password=password)
    t = Tree(env, share)
    if what == "fsattr":
        st, fid = opened(t, "", FILE_READ_ATTRIBUTES, DIRECTORY_FILE)
        assert st == 0, "open root 0x%x" % st
        r, data = t.query_info(fid, INFO_FS, FS_ATTRIBUTE_INFORMATION, 512)
        assert r.status == 0, "query 0x%x" % r.status
        print("0x%08x" % struct.unpack_from("<I", data, 0)[0])
    elif what == "shareflags":
        print("0x%08x" % t.share_flags)
    elif what == "maxaccess":
        st, fid = opened(t, sys.argv[5], MAXIMUM_ALLOWED)
        if st:
            print(wire.status_name(st))
            return
        r, data = t.query_info(fid, INFO_FILE, FILE_ACCESS_INFORMATION, 4)
        assert r.status == 0, "query 0x%x" % r.status
        print("0x%08x" % struct.unpack_from("<I", data, 0)[0])
    elif what == "sacl":
        st, fid = opened(t, sys.argv[5], ACCESS_SYSTEM_SECURITY | READ_CONTROL)
        if st:
            print(wire.status_name(st))
            return
        r = t.set_info(fid, INFO_SECURITY, 0, audit_sd(), SACL_SECINFO)
        assert r.status == 0, "set 0x%x" % r.status
        r, sd = t.query_info(fid, INFO_SECURITY, 0, 4096, SACL_SECINFO)
        assert r.status == 0, "query 0x%x" % r.status
        control, sacl = struct.unpack_from("<H", sd, 2)[0], \
            struct.unpack_from("<I", sd, 12)[0]
        assert control & SE_SACL_PRESENT and sacl, "no SACL: 0x%x" % control
        count = struct.unpack_from("<H", sd, sacl + 4)[0]
        atype, aflags, _, mask = struct.unpack_from("<BBHI", sd, sacl + 8)
        print("sacl %d %d 0x%02x 0x%08x %s" % (count, atype, aflags, mask,
                                              sid_text(sd[sacl + 16:])))
    elif what == "autoinherit":
        st, fid = opened(t, sys.argv[5], READ_CONTROL | WRITE_DAC,
                         DIRECTORY_FILE)
        assert st == 0, "open 0x%x" % st
        r, sd = t.query_info(fid, INFO_SECURITY, 0, 4096, ALL_SECINFO)
        assert r.status == 0, "query 0x%x" % r.status
        sd = bytearray(sd)
        control = struct.unpack_from("<H", sd, 2)[0] | SE_DACL_AUTO_INHERITED
        struct.pack_into("<H", sd, 2, control)
        r = t.set_info(fid, INFO_SECURITY, 0, bytes(sd), DACL_SECINFO)
        assert r.status == 0, "set 0x%x" % r.status
        print("0x%04x" % control)
    t.close(fid)


if __name__ == "__main__":
    main()
