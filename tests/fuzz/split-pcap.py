#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Splits captured SMB2 traffic into seed corpora for the fuzz targets.

tests/fuzz/split-pcap.py CORPUS_DIR NAME=FILE.pcap...

Reads classic pcap files (tcpdump -w) of unencrypted SMB2 over TCP/445,
reassembles each TCP direction, cuts the RFC1002 frames, walks compounds,
and writes small, de-duplicated seed files named cap-NAME-... into the
targets' directories under CORPUS_DIR:

  frame        whole client frames (after the 4-byte transport header)
  decode       the same, when an element is a file command (CREATE and on)
  negctx       le16 count + the NEGOTIATE context list
  spnego       SESSION_SETUP security buffers
  ntlmssp      the NTLMSSP messages inside them
  create_ctx   CREATE context lists
  files_names  0x00 + CREATE/rename names, 0x01 + EA chains,
               0x02 + query-directory pattern/name pairs
  secdesc      security descriptors set by the client or returned by the server
  pattern      query-directory patterns (the fuzz_pattern split byte + name)
  rpc          DCE/RPC traffic of one named-pipe open (fuzz_rpc's layout)

Old cap-* files in those directories are removed first, so the script
regenerates exactly what the capture holds.
"""
import hashlib
import os
import struct
import sys

MAX_FILE = 16384          # a seed larger than this is not kept
PER_KIND = 6              # at most this many seeds of one kind per capture
RPC_MARKER = b'\xf0\x9f\x94\xaa'
RPC_PIPES = {'srvsvc': 0, 'wkssvc': 1, 'lsarpc': 2, 'samr': 3}
TARGETS = ('frame', 'decode', 'negctx', 'spnego', 'ntlmssp', 'create_ctx', 'files_names',
           'secdesc', 'pattern', 'rpc')
CMD = {0: 'negotiate', 1: 'sess_setup', 2: 'logoff', 3: 'tree_connect',
       4: 'tree_disconnect', 5: 'create', 6: 'close', 7: 'flush', 8: 'read',
       9: 'write', 10: 'lock', 11: 'ioctl', 12: 'cancel', 13: 'echo',
       14: 'query_dir', 15: 'change_notify', 16: 'query_info', 17: 'set_info',
       18: 'oplock_break'}
FSCTL_PIPE_TRANSCEIVE = 0x0011C017


# ---- pcap and TCP -------------------------------------------------------

def pcap_packets(path):
    """(src, dst, payload, seq) for each IPv4 TCP packet with payload."""
    with open(path, 'rb') as f:
        data = f.read()
    magic = data[:4]
    if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
        end = '<'
    elif magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
        end = '>'
    else:
        raise SystemExit('%s: not a classic pcap file' % path)
    linktype = struct.unpack(end + 'I', data[20:24])[0]
    skip = {1: 14, 113: 16, 276: 20, 0: 4, 108: 4, 101: 0}.get(linktype)
    if skip is None:
        raise SystemExit('%s: link type %d not handled' % (path, linktype))
    pos = 24
    while pos + 16 <= len(data):
        incl = struct.unpack(end + 'I', data[pos + 8:pos + 12])[0]
        pkt = data[pos + 16:pos + 16 + incl]
        pos += 16 + incl
        ip = pkt[skip:]
        if len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != 6:
            continue
        ihl = (ip[0] & 15) * 4
        total = struct.unpack('>H', ip[2:4])[0]
        tcp = ip[ihl:total]
        if len(tcp) < 20:
            continue
        sport, dport, seq = struct.unpack('>HHI', tcp[:8])
        payload = tcp[(tcp[12] >> 4) * 4:]
        if payload:
            yield (ip[12:16], sport), (ip[16:20], dport), payload, seq


def streams(path):
    """Each TCP direction's byte stream, in order of first appearance."""
    out, nxt = {}, {}
    for src, dst, payload, seq in pcap_packets(path):
        key = (src, dst)
        if key not in out:
            out[key], nxt[key] = bytearray(), seq
        # loopback does not reorder; drop what was already seen
        if (seq - nxt[key]) & 0x80000000:
            over = (nxt[key] - seq) & 0xffffffff
            if over >= len(payload):
                continue
            payload = payload[over:]
        out[key] += payload
        nxt[key] = (nxt[key] + len(payload)) & 0xffffffff
    return out


def frames(stream):
    pos = 0
    while pos + 4 <= len(stream):
        n = struct.unpack('>I', b'\0' + stream[pos + 1:pos + 4])[0]
        if stream[pos] != 0 or pos + 4 + n > len(stream):
            break
        yield bytes(stream[pos + 4:pos + 4 + n])
        pos += 4 + n


def elements(frame):
    """The SMB2 elements of one frame (compound walk)."""
    pos = 0
    while pos + 64 <= len(frame) and frame[pos:pos + 4] == b'\xfeSMB':
        nxt = struct.unpack('<I', frame[pos + 20:pos + 24])[0]
        end = pos + nxt if nxt else len(frame)
        if end > len(frame) or (nxt and nxt < 64):
            break
        yield frame[pos:end]
        if not nxt:
            break
        pos = end


def u16(b, o):
    return struct.unpack('<H', b[o:o + 2])[0]


def u32(b, o):
    return struct.unpack('<I', b[o:o + 4])[0]


def hdr(e):
    return {'cmd': u16(e, 12), 'flags': u32(e, 16), 'mid': struct.unpack('<Q', e[24:32])[0]}


def blob(e, off, ln):
    """Bytes [off, off+ln) of an element (offsets from the header), or b''."""
    return e[off:off + ln] if ln and off + ln <= len(e) else b''


# ---- DER: find NTLMSSP tokens in a SPNEGO blob ---------------------------

def der_items(b):
    pos = 0
    while pos + 2 <= len(b):
        tag, ln = b[pos], b[pos + 1]
        pos += 2
        if ln & 0x80:
            k = ln & 0x7f
            if k == 0 or k > 4 or pos + k > len(b):
                return
            ln = int.from_bytes(b[pos:pos + k], 'big')
            pos += k
        if pos + ln > len(b):
            return
        yield tag, b[pos:pos + ln]
        pos += ln


def ntlmssp_tokens(b, depth=0):
    if b.startswith(b'NTLMSSP\0'):
        yield b
        return
    if depth > 8:
        return
    for tag, val in der_items(b):
        if tag & 0x20 or tag == 0x04:
            yield from ntlmssp_tokens(val, depth + 1)


def utf16(b):
    return b.decode('utf-16-le', 'replace')


# ---- the splitter -------------------------------------------------------

class Corpus:
    def __init__(self, top, name):
        self.top, self.name = top, name
        self.seen, self.count = set(), {}

    def add(self, target, kind, data):
        if not data or len(data) > MAX_FILE:
            return
        h = hashlib.sha1(data).hexdigest()
        if (target, h) in self.seen or self.count.get((target, kind), 0) >= PER_KIND:
            return
        self.seen.add((target, h))
        n = self.count[(target, kind)] = self.count.get((target, kind), 0) + 1
        path = os.path.join(self.top, target, 'cap-%s-%s-%d' % (self.name, kind, n))
        with open(path, 'wb') as f:
            f.write(data)


def frame_key(frame):
    """Frames that differ only in ids, credits and signatures are one kind."""
    b = bytearray(frame)
    for e_off in offsets(frame):
        for lo, hi in ((14, 16), (24, 32), (36, 64)):
            b[e_off + lo:e_off + hi] = bytes(hi - lo)
    return hashlib.sha1(bytes(b)).digest()


def offsets(frame):
    pos, out = 0, []
    for e in elements(frame):
        out.append(pos)
        pos += len(e)
    return out


def split(corpus, path):
    st = streams(path)
    reqs = {}      # (conn, mid) -> (cmd, element)
    pipes = {}     # (conn, file id) -> [pipe index, writes]
    names = set()
    frame_keys = set()
    order = []     # (conn, cmd, element) of every request, in order
    # requests first (client -> port 445), then the responses
    for (src, dst), data in st.items():
        if dst[1] != 445:
            continue
        conn = (src, dst)
        for frame in frames(data):
            els = list(elements(frame))
            if not els:
                continue
            k = frame_key(frame)
            if k not in frame_keys:
                frame_keys.add(k)
                kind = '+'.join(CMD.get(hdr(e)['cmd'], 'x') for e in els)
                corpus.add('frame', kind, frame)
                if any(hdr(e)['cmd'] >= 5 for e in els):
                    corpus.add('decode', kind, frame)
            for e in els:
                h = hdr(e)
                reqs[(conn, h['mid'])] = (h['cmd'], e)
                order.append((conn, h['cmd'], e))
                request(corpus, h['cmd'], e, names)
    for (src, dst), data in st.items():
        if src[1] != 445:
            continue
        conn = (dst, src)
        for frame in frames(data):
            for e in elements(frame):
                h = hdr(e)
                if u32(e, 8) == 0x103:     # STATUS_PENDING interim
                    continue
                req = reqs.get((conn, h['mid']))
                if req:
                    response(corpus, conn, req, e, pipes)
    # the pipe traffic (opens are known from the CREATE responses), in
    # request order per open
    for conn, cmd, e in order:
        pipe_request(conn, cmd, e, pipes)
    for (conn, fid), (pipe, writes) in pipes.items():
        if writes:
            corpus.add('rpc', 'pipe%d' % pipe, bytes([pipe]) + RPC_MARKER.join(writes))


def request(corpus, cmd, e, names):
    body = 64
    if cmd == 0 and len(e) >= body + 36:
        off, cnt = u32(e, body + 28), u16(e, body + 32)
        if cnt and off < len(e):
            corpus.add('negctx', 'list', struct.pack('<H', cnt) + e[off:])
    elif cmd == 1 and len(e) >= body + 24:
        sec = blob(e, u16(e, body + 12), u16(e, body + 14))
        corpus.add('spnego', 'blob', sec)
        for t in ntlmssp_tokens(sec):
            corpus.add('ntlmssp', 'type%d' % (t[8] if len(t) > 8 else 0), t)
    elif cmd == 5 and len(e) >= body + 56:
        name = blob(e, u16(e, body + 44), u16(e, body + 46))
        if name:
            names.add(utf16(name))
            corpus.add('files_names', 'name', b'\x00' + name)
        ctx = blob(e, u32(e, body + 48), u32(e, body + 52))
        if ctx:
            corpus.add('create_ctx', 'list', ctx)
            for tag, data in create_contexts(ctx):
                if tag == b'ExtA':
                    corpus.add('files_names', 'ea', b'\x01' + data)
                elif tag == b'SecD':
                    corpus.add('secdesc', 'create', data)
    elif cmd == 14 and len(e) >= body + 32:
        pat = blob(e, u16(e, body + 24), u16(e, body + 26))
        if pat:
            p = utf16(pat).encode('utf-8', 'replace')
            for n in sorted(names)[:3] or ['']:
                leaf = n.rsplit('\\', 1)[-1].encode('utf-8', 'replace')
                if len(p) < 256:
                    corpus.add('pattern', 'pattern', bytes([len(p)]) + p + leaf)
                corpus.add('files_names', 'pattern', b'\x02' + p[:62] + leaf)
    elif cmd == 17 and len(e) >= body + 32:
        itype, cls = e[body + 2], e[body + 3]
        buf = blob(e, u16(e, body + 8), u32(e, body + 4))
        if itype == 1 and cls == 15:
            corpus.add('files_names', 'ea', b'\x01' + buf)
        elif itype == 1 and cls in (10, 11) and len(buf) >= 20:
            corpus.add('files_names', 'rename', b'\x00' + buf[20:20 + u32(buf, 16)])
        elif itype == 3:
            corpus.add('secdesc', 'set', buf)


def pipe_request(conn, cmd, e, pipes):
    body = 64
    if cmd == 9 and len(e) >= body + 48:
        fid = e[body + 16:body + 32]
        p = pipes.get((conn, fid))
        if p is not None:
            p[1].append(blob(e, u16(e, body + 2), u32(e, body + 4)))
    elif cmd == 11 and len(e) >= body + 56:
        fid = e[body + 8:body + 24]
        p = pipes.get((conn, fid))
        if p is not None and u32(e, body + 4) == FSCTL_PIPE_TRANSCEIVE:
            p[1].append(blob(e, u32(e, body + 24), u32(e, body + 28)))


def response(corpus, conn, req, e, pipes):
    cmd, r = req
    body = 64
    if u32(e, 8) != 0:
        return
    if cmd == 5 and len(e) >= body + 80 and len(r) >= body + 56:
        name = utf16(blob(r, u16(r, body + 44), u16(r, body + 46))).lower()
        leaf = name.rsplit('\\', 1)[-1]
        if leaf in RPC_PIPES:
            pipes[(conn, e[body + 64:body + 80])] = [RPC_PIPES[leaf], []]
    elif cmd == 16 and len(r) >= body + 40 and len(e) >= body + 8:
        out = blob(e, u16(e, body + 2), u32(e, body + 4))
        if r[body + 2] == 3:
            corpus.add('secdesc', 'query', out)
        elif r[body + 2] == 1 and r[body + 3] == 15:
            corpus.add('files_names', 'ea', b'\x01' + out)


def create_contexts(ctx):
    pos = 0
    while pos + 16 <= len(ctx):
        nxt = u32(ctx, pos)
        no, nl, do, dl = u16(ctx, pos + 4), u16(ctx, pos + 6), u16(ctx, pos + 10), u32(ctx, pos + 12)
        yield ctx[pos + no:pos + no + nl], ctx[pos + do:pos + do + dl] if dl else b''
        if not nxt:
            break
        pos += nxt


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    top = sys.argv[1]
    for t in TARGETS:
        d = os.path.join(top, t)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            if f.startswith('cap-'):
                os.unlink(os.path.join(d, f))
    for arg in sys.argv[2:]:
        name, path = arg.split('=', 1)
        c = Corpus(top, name)
        split(c, path)
        per = {}
        for (t, _k), n in c.count.items():
            per[t] = per.get(t, 0) + n
        print('split-pcap: %s: %s' % (name, ', '.join('%s %d' % kv for kv in sorted(per.items()))))


if __name__ == '__main__':
    main()
