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
DACL_SECINFO, ALL_SECINFO = 0x4, 0x7
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
