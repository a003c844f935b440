#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A hostile daemon for tests/vm/cases/ipc-daemon.sh (guest, root, module
loaded, no daemon running). Speaks raw generic netlink to the module: a
foreign ABI, a second daemon, wrong ports, wrong sizes, unknown handles,
answers of the wrong type, late answers. Every one must be dropped (and
logged) while the right answer still gets through. Prints PASS:/FAIL:
lines; exits 1 when any check failed."""
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time

CASE = "ipc-daemon"
NETLINK_GENERIC = 16
NLMSG_ERROR = 2
NLM_F_REQUEST, NLM_F_ACK = 1, 4
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "..", "module", "uapi", "ksmbd_netlink.h")
ABI_MAGIC = 0x4B534D42
# The version the module speaks, from the one header both sides build from
with open(HEADER) as f:
    ABI_VERSION = int(re.search(r"#define KSMBD_ABI_VERSION\s+(\d+)",
                                f.read()).group(1))
EV_HEARTBEAT, EV_STARTING_UP, EV_LOGIN_REQ, EV_LOGIN_RESP = 1, 2, 4, 5
EV_SHARE_REQ, EV_SHARE_RESP, EV_STARTUP_RESP = 6, 7, 17
PROBE = "/sys/kernel/debug/ksmbd/ipc_probe"
failed = 0


def result(name, ok, why=""):
    global failed
    if ok:
        print(f"PASS: {CASE}/{name}", flush=True)
    else:
        failed = 1
        print(f"FAIL: {CASE}/{name}: {why}", flush=True)


def dmesg_count(text):
    out = subprocess.run(["dmesg"], capture_output=True, text=True).stdout
    return out.count(text)


def attr(atype, payload):
    a = struct.pack("=HH", 4 + len(payload), atype) + payload
    return a + b"\0" * (-len(a) % 4)


class Genl:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.s.bind((0, 0))
        self.port = self.s.getsockname()[0]
        self.seq = 1
        self.queue = []  # kernel requests that arrived while we waited
        self.family = self.resolve("SMBD_GENL")

    def send(self, mtype, cmd, payload, version=1):
        self.seq += 1
        body = struct.pack("=BBH", cmd, version, 0) + payload
        hdr = struct.pack("=IHHII", 16 + len(body), mtype,
                          NLM_F_REQUEST | NLM_F_ACK, self.seq, 0)
        self.s.send(hdr + body)
        return self.seq

    def messages(self, timeout):
        self.s.settimeout(timeout)
        try:
            data = self.s.recv(1 << 17)
        except socket.timeout:
            return []
        out, off = [], 0
        while off + 16 <= len(data):
            ln, mtype, flags, seq, pid = struct.unpack_from("=IHHII", data, off)
            out.append((mtype, seq, data[off + 16:off + ln]))
            off += (ln + 3) & ~3
        return out

    def ack(self, seq, timeout=3.0):
        """The error code the kernel acked our message @seq with."""
        end = time.time() + timeout
        while time.time() < end:
            for mtype, mseq, body in self.messages(end - time.time()):
                if mtype == NLMSG_ERROR and mseq == seq:
                    return struct.unpack_from("=i", body)[0]
                if mtype != NLMSG_ERROR:
                    self.queue.append((mtype, body))
        return None

    def resolve(self, name):
        seq = self.send(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                        attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
        for _ in range(10):
            for mtype, mseq, body in self.messages(2.0):
                if mtype == GENL_ID_CTRL and mseq == seq:
                    off = 4
                    while off + 4 <= len(body):
                        ln, at = struct.unpack_from("=HH", body, off)
                        if at == CTRL_ATTR_FAMILY_ID:
                            return struct.unpack_from("=H", body, off + 4)[0]
                        off += (ln + 3) & ~3
        raise SystemExit("cannot resolve SMBD_GENL")

    def event(self, cmd, payload, version=1, atype=None):
        seq = self.send(self.family, cmd, attr(cmd if atype is None else atype, payload),
                        version)
        return self.ack(seq)

    def wait_request(self, cmd, timeout=5.0):
        end = time.time() + timeout
        while time.time() < end:
            for i, (mtype, body) in enumerate(self.queue):
                if mtype == self.family and body[0] == cmd:
                    del self.queue[i]
                    return body[4 + 4:]  # genl header, then the attribute header
            for mtype, mseq, body in self.messages(0.2):
                if mtype != NLMSG_ERROR:
                    self.queue.append((mtype, body))
        return None


def startup(magic=ABI_MAGIC, version=ABI_VERSION, port=4451, ipc_timeout=0):
    s = struct.pack("=IIIiHHHH16s64s64s", magic, version, 0, 2, 0x0210, 0x0311,
                    port, ipc_timeout, b"HOSTILE", b"WG", b"fake daemon")
    # ... max_connections, ifc_list_sz, max_sessions_per_conn and
    # oplock_break_timeout (0: defaults), then the (empty) preference lists
    # and max_ip_connections (0: the default), then the per-client
    # bounds (0: defaults; no allocation reservations), unchanged since ABI 5.
    return s + struct.pack("=IIIIIIIIIII", 0, 1000, 0, 0, 0, 0, 1, 2, 3, 0, 0) + \
        struct.pack("=II", 0, 0) + b"\0" * 12 + b"\0" * 24


def login_resp(handle, account=b"tester", uid=4242, hash_sz=16, ngroups=1):
    return struct.pack("=IIIHH48s16sI", handle, uid, uid, 1, hash_sz, account,
                       b"\x11" * 16, ngroups) + struct.pack("=I", uid) + b"\0" * 252


class Probe(threading.Thread):
    """Writes one command to the probe file (it blocks until answered)."""
    def __init__(self, cmd):
        super().__init__(daemon=True)
        self.cmd = cmd

    def run(self):
        try:
            with open(PROBE, "w") as f:
                f.write(self.cmd)
        except OSError:
            pass


def probe_result():
    with open(PROBE) as f:
        return f.read().strip()


def main():
    a = Genl()
    # A daemon of another ABI: refused, told so, one clear line in dmesg.
    n = dmesg_count("speaks another netlink ABI")
    err = a.event(EV_STARTING_UP, startup(magic=3))
    resp = a.wait_request(EV_STARTUP_RESP)
    status = struct.unpack_from("=i", resp, 8)[0] if resp else None
    result("hostile-abi-mismatch-refused", err == -71 and status == -71,
           f"ack {err}, status {status}")
    result("hostile-abi-mismatch-logged", dmesg_count("speaks another netlink ABI") == n + 1)

    n = dmesg_count("started the server: port 4451")
    err = a.event(EV_STARTING_UP, startup())
    resp = a.wait_request(EV_STARTUP_RESP)
    result("hostile-fake-daemon-registers",
           err == 0 and resp and struct.unpack_from("=i", resp, 8)[0] == 0
           and dmesg_count("started the server: port 4451") == n + 1, f"ack {err}")

    b = Genl()
    err = b.event(EV_STARTING_UP, startup())
    result("hostile-second-daemon-refused", err == -16, f"ack {err}")
    n = dmesg_count("not the registered daemon")
    err = b.event(EV_LOGIN_RESP, login_resp(1))
    result("hostile-wrong-port-dropped",
           err == -1 and dmesg_count("not the registered daemon") == n + 1, f"ack {err}")

    n = dmesg_count("no request waits for this handle")
    err = a.event(EV_LOGIN_RESP, login_resp(0xDEADBEEF))
    result("hostile-unknown-handle-dropped",
           err == 0 and dmesg_count("no request waits for this handle") == n + 1, f"ack {err}")

    n = dmesg_count("dropped malformed login-response")
    err = a.event(EV_LOGIN_RESP, login_resp(1)[:10])
    result("hostile-undersized-dropped",
           err == -22 and dmesg_count("dropped malformed login-response") == n + 1, f"ack {err}")
    err = a.event(EV_LOGIN_RESP, login_resp(1) + b"\0" * 8)
    result("hostile-oversized-refused-by-policy", err is not None and err < 0, f"ack {err}")
    n = dmesg_count("dropped malformed share-config-response")
    share = struct.pack("=IIHHHHIIII", 1, 1, 0, 0, 0, 0, 0, 0, 0, 100) + b"/srv\0"
    err = a.event(EV_SHARE_RESP, share)
    result("hostile-share-path-size-dropped",
           err == -22 and dmesg_count("dropped malformed share-config-response") == n + 1,
           f"ack {err}")
    n = dmesg_count("genl version 2")
    err = a.event(EV_LOGIN_RESP, login_resp(1), version=2)
    result("hostile-genl-version-dropped",
           err == -22 and dmesg_count("genl version 2") == n + 1, f"ack {err}")
    err = a.event(EV_LOGIN_RESP, login_resp(1), atype=EV_SHARE_RESP)
    result("hostile-attribute-type-mismatch-dropped", err is not None and err < 0, f"ack {err}")

    # A real request: wrong answers first, then the right one.
    p = Probe("login tester")
    p.start()
    req = a.wait_request(EV_LOGIN_REQ)
    result("hostile-login-request-received", req is not None)
    if req:
        handle = struct.unpack_from("=I", req)[0]
        n = dmesg_count("expects another event")
        share = struct.pack("=IIHHHHIIII", handle, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        err = a.event(EV_SHARE_RESP, share)
        result("hostile-type-confusion-dropped",
               err == 0 and dmesg_count("expects another event") == n + 1, f"ack {err}")
        err = a.event(EV_LOGIN_RESP, login_resp(handle, account=b"x" * 48))
        result("hostile-unterminated-account-dropped", err == -22, f"ack {err}")
        err = a.event(EV_LOGIN_RESP, login_resp(handle, hash_sz=40))
        result("hostile-bad-hash-size-dropped", err == -22, f"ack {err}")
        err = a.event(EV_LOGIN_RESP, login_resp(handle, ngroups=65))
        result("hostile-too-many-groups-dropped", err == -22, f"ack {err}")
        err = a.event(EV_LOGIN_RESP, login_resp(handle))
        p.join(5)
        res = probe_result()
        result("hostile-valid-answer-accepted", err == 0 and "uid=4242" in res, res)
        n = dmesg_count("no request waits for this handle")
        err = a.event(EV_LOGIN_RESP, login_resp(handle))
        result("hostile-duplicate-answer-dropped",
               err == 0 and dmesg_count("no request waits for this handle") == n + 1)

    # No answer: the request times out (5 s), a late answer is dropped.
    p = Probe("share share")
    p.start()
    req = a.wait_request(EV_SHARE_REQ)
    p.join(10)
    res = probe_result()
    result("hostile-timeout", req is not None and "error -110" in res, res)
    if req:
        handle = struct.unpack_from("=I", req)[0]
        n = dmesg_count("no request waits for this handle")
        late = struct.pack("=IIHHHHIIII", handle, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        err = a.event(EV_SHARE_RESP, late)
        result("hostile-late-answer-dropped",
               err == 0 and dmesg_count("no request waits for this handle") == n + 1)

    # The fake daemon's socket closes: noticed at once, server waits again.
    n = dmesg_count("is gone: daemon exited (netlink socket closed)")
    a.s.close()
    for _ in range(50):
        if dmesg_count("is gone: daemon exited (netlink socket closed)") > n:
            break
        time.sleep(0.1)
    result("hostile-close-noticed", dmesg_count("is gone: daemon exited (netlink socket closed)") == n + 1)
    b.s.close()
    return failed


if __name__ == "__main__":
    sys.exit(main())
