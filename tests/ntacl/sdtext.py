#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""
sdtext.py HEX: a self-relative security descriptor's owner, group and
DACL as `smbcacls --numeric` prints them (OWNER:SID, GROUP:SID, then
ACL:SID:TYPE/0xFLAGS/0xMASK per ACE), so that the two can be diffed.
"""
import struct
import sys


def sid_at(b, off):
    n = b[off + 1]
    auth = int.from_bytes(b[off + 2:off + 8], 'big')
    subs = struct.unpack_from('<%dI' % n, b, off + 8)
    return 'S-1-%d' % auth + ''.join('-%d' % s for s in subs)


def main(argv):
    b = bytes.fromhex(argv[1].removeprefix('0x'))
    control, owner, group, _sacl, dacl = struct.unpack_from('<HIIII', b, 2)
    if owner:
        print('OWNER:%s' % sid_at(b, owner))
    if group:
        print('GROUP:%s' % sid_at(b, group))
    if not (control & 0x4) or not dacl:
        return
    count = struct.unpack_from('<H', b, dacl + 4)[0]
    pos = dacl + 8
    for _ in range(count):
        kind, flags, size, mask = struct.unpack_from('<BBHI', b, pos)
        print('ACL:%s:%d/0x%x/0x%08x' % (sid_at(b, pos + 8), kind, flags, mask))
        pos += size


if __name__ == '__main__':
    main(sys.argv)
