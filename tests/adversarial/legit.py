# SPDX-License-Identifier: GPL-2.0-or-later
"""The well-behaved client that runs while the hostile cases do: every
iteration must succeed. It pauses (closing everything, unmounting) when the
runner checks that live-object counts return to zero."""
import multiprocessing as mp
import os
import subprocess
import time

import advlib
from advlib import Client, SUCCESS, sname

# The legitimate client is another peer than the hostile cases, which
# connect from 127.0.0.1 and may flood half-done session setups from it:
# the server makes room among a peer's own setups (oldest first), so from
# the same address the legitimate login could be the one made room for.
LEGIT_PEER = "127.0.0.2"


def one_raw(env, level, n):
    c = Client(env, timeout=15,
               source=LEGIT_PEER if env.host == "127.0.0.1" else None)
    try:
        r = c.negotiate()
        if r.status != SUCCESS:
            raise RuntimeError("negotiate: %s" % sname(r.status))
        if not c.alive():
            raise RuntimeError("echo failed")
        if level in ("session", "tree", "file"):
            r = c.login()
            if r.status != SUCCESS:
                raise RuntimeError("login: %s" % sname(r.status))
        if level in ("tree", "file"):
            r = c.tree_connect()
            if r.status != SUCCESS:
                raise RuntimeError("tree connect: %s" % sname(r.status))
        if level == "file":
            data = os.urandom(4096)
            r = c.create("legit_%d.bin" % (n % 4),
                         disposition=advlib.FILE_OVERWRITE_IF)
            if r.status != SUCCESS:
                raise RuntimeError("create: %s" % sname(r.status))
            fid = r.fid
            w = c.call(advlib.WRITE, advlib.body_write(fid, data))
            rd = c.call(advlib.READ, advlib.body_read(fid, 4096))
            c.close_file(fid)
            if w.status == SUCCESS:
                if rd.status != SUCCESS:
                    raise RuntimeError("read: %s" % sname(rd.status))
                off = rd.body[2]
                got = rd.raw[off:off + 4096]
                if got != data:
                    raise RuntimeError("read back differs")
            elif w.status != advlib.NOT_IMPLEMENTED:
                raise RuntimeError("write: %s" % sname(w.status))
        if level != "negotiate":
            c.call(advlib.LOGOFF, advlib.body_simple())
    finally:
        c.close()


def cifs_mount(env, mnt):
    os.makedirs(mnt, exist_ok=True)
    return subprocess.run(
        ["mount", "-t", "cifs", "//%s/%s" % (env.host, env.share), mnt,
         "-o", "username=%s,password=%s,vers=3.1.1,cache=none,echo_interval=60%s"
         % (env.user, env.password,
            ",srcaddr=" + LEGIT_PEER if env.host == "127.0.0.1" else "")],
        capture_output=True, text=True, timeout=60)


def cifs_umount(mnt):
    subprocess.run(["umount", "-f", mnt], capture_output=True, timeout=60)


def one_cifs(mnt, n):
    data = os.urandom(65536)
    p = os.path.join(mnt, "legit_cifs_%d.bin" % (n % 2))
    with open(p, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    with open(p, "rb") as f:
        if f.read() != data:
            raise RuntimeError("cifs read back differs")


def loop(env, level, use_cifs, ctl):
    n = 0
    mounted = False
    mnt = "/mnt/adv-legit"
    while not ctl["stop"].is_set():
        if ctl["pause"].is_set():
            if mounted:
                cifs_umount(mnt)
                mounted = False
            ctl["paused"].set()
            time.sleep(0.05)
            continue
        ctl["paused"].clear()
        n += 1
        try:
            one_raw(env, level, n)
            with ctl["ok"].get_lock():
                ctl["ok"].value += 1
        except Exception as e:  # any failure of a legitimate request counts
            with ctl["fail"].get_lock():
                ctl["fail"].value += 1
            ctl["errors"].put("raw #%d: %s: %s" % (n, type(e).__name__, e))
        if use_cifs:
            try:
                if not mounted:
                    r = cifs_mount(env, mnt)
                    if r.returncode:
                        raise RuntimeError("mount: " + r.stderr.strip())
                    mounted = True
                one_cifs(mnt, n)
                with ctl["cifs_ok"].get_lock():
                    ctl["cifs_ok"].value += 1
            except Exception as e:
                with ctl["fail"].get_lock():
                    ctl["fail"].value += 1
                ctl["errors"].put("cifs #%d: %s: %s" % (n, type(e).__name__, e))
        time.sleep(0.2)
    if mounted:
        cifs_umount(mnt)
    ctl["paused"].set()


class Legit:
    def __init__(self, env, use_cifs):
        self.ctl = {k: mp.Event() for k in ("stop", "pause", "paused")}
        for k in ("ok", "fail", "cifs_ok"):
            self.ctl[k] = mp.Value("l", 0)
        self.ctl["errors"] = mp.Queue()
        self.proc = mp.Process(target=loop,
                               args=(env, env.level, use_cifs, self.ctl),
                               daemon=True)
        self.errors = []

    def start(self):
        self.proc.start()

    def pause(self, secs=60):
        self.ctl["paused"].clear()
        self.ctl["pause"].set()
        return self.ctl["paused"].wait(secs)

    def resume(self):
        self.ctl["pause"].clear()

    def stop(self):
        self.ctl["stop"].set()
        end = time.monotonic() + 90
        # Drain while it exits: a child with queued items cannot finish.
        while self.proc.is_alive() and time.monotonic() < end:
            self.drain()
            self.proc.join(0.2)
        if self.proc.is_alive():
            self.proc.kill()
        self.drain()

    def drain(self):
        try:
            while True:
                self.errors.append(self.ctl["errors"].get_nowait())
        except Exception:  # queue.Empty, or the queue closed
            pass

    def counts(self):
        return (self.ctl["ok"].value, self.ctl["fail"].value,
                self.ctl["cifs_ok"].value)
