#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""
mksd.py OWNER GROUP [ACE ...]: a self-relative security descriptor
(MS-DTYP 2.4.6) in hex, for ntacl-tool encode. SIDs as S-1-...; an ACE is
TYPE:SID:MASK[:FLAGS], TYPE A (allowed) or D (denied), MASK and FLAGS in
hex. The DACL is present (and empty when no ACE is given).
"""
import struct
import sys


def sid(text):
    parts = text.split('-')
    if parts[0] != 'S' or parts[1] != '1' or len(parts) < 3:
        raise SystemExit('bad SID %s' % text)
    auth = int(parts[2])
    subs = [int(p) for p in parts[3:]]
    return (struct.pack('<BB', 1, len(subs)) + auth.to_bytes(6, 'big') +
            b''.join(struct.pack('<I', s) for s in subs))


def ace(text):
    f = text.split(':')
    kind = {'A': 0, 'D': 1}[f[0]]
    body = struct.pack('<I', int(f[2], 16)) + sid(f[1])
    flags = int(f[3], 16) if len(f) > 3 else 0
    return struct.pack('<BBH', kind, flags, 4 + len(body)) + body


def main(argv):
    if len(argv) < 3:
        raise SystemExit(__doc__)
    owner, group = sid(argv[1]), sid(argv[2])
    aces = b''.join(ace(a) for a in argv[3:])
    acl = struct.pack('<BBHHH', 2, 0, 8 + len(aces), len(argv) - 3, 0) + aces
    o = 20
    g = o + len(owner)
    d = g + len(group)
    hdr = struct.pack('<BBHIIII', 1, 0, 0x8004, o, g, 0, d)
    print((hdr + owner + group + acl).hex())


if __name__ == '__main__':
    main(sys.argv)
