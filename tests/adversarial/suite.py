# SPDX-License-Identifier: GPL-2.0-or-later
"""Case registry and the environment cases run in: how deep the server can
be driven right now (negotiate, session, tree, file), clients at that
depth, and the checks every case ends with."""
import os
import re
import struct
import subprocess

import advlib
from advlib import (Client, Skip, SUCCESS, NOT_IMPLEMENTED, sname, expect,
                    CMD_NAMES)

CASES = []
LEVELS = ["negotiate", "session", "tree", "file"]


class Case:
    def __init__(self, fn, group, expected, timeout):
        self.fn = fn
        self.name = fn.__name__.replace("case_", "").replace("_", "-")
        self.group = group
        self.expected = expected
        self.timeout = timeout


def case(group, expected, timeout=60):
    """Register a case; expected is the one-line result the README lists."""
    def wrap(fn):
        CASES.append(Case(fn, group, expected, timeout))
        return fn
    return wrap


STATS = "/sys/class/ksmbd-control/stats"
LIVE_KEYS = ("connections", "sessions", "trees", "open_files", "works",
             "buffers", "byte_range_locks", "notify_watches")
BAD_LOG = re.compile(r"BUG:|BUG [^ ]+ \(|WARNING:|Oops|general protection|"
                     r"Kernel panic|list_add corruption|list_del corruption|"
                     r"[Ss]lab corruption|Redzone overwritten|"
                     r"Poison overwritten|Object padding overwritten|"
                     r"Freepointer corrupt|double free|"
                     r"unloading with live objects|hung_task|soft lockup|"
                     r"INFO: task .* blocked")


def read_stats():
    try:
        with open(STATS) as f:
            out = {}
            for line in f:
                k, _, v = line.strip().partition(" ")
                out[k] = v
            return out
    except OSError:
        return None


def live_counts():
    s = read_stats()
    if s is None:
        return None
    return {k: int(s.get(k, "0")) for k in LIVE_KEYS if k in s}


def kernel_log():
    try:
        return subprocess.run(["dmesg"], capture_output=True, text=True,
                              timeout=10).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return []


def mem_available_kb():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1])
    return 0


class Env:
    def __init__(self, args):
        self.host = args.host
        self.port = args.port
        self.user = args.user
        self.password = args.password
        self.share = args.share
        self.share_path = args.share_path
        self.race_seconds = args.race_seconds
        self.race_iters = args.race_iters
        self.flood = args.flood
        self.level = "negotiate"
        self.probe_notes = []

    def has(self, level):
        return LEVELS.index(self.level) >= LEVELS.index(level)

    def need(self, level):
        if self.has(level):
            return
        what = {"session": "SESSION_SETUP", "tree": "TREE_CONNECT",
                "file": "CREATE"}[level]
        raise Skip("%s not implemented yet" % what)

    def not_impl(self, c, r, what):
        """A command without a handler: check the answer is the plain
        NOT_IMPLEMENTED on a usable connection, then skip the rest."""
        if r.status != NOT_IMPLEMENTED:
            return
        expect(c.alive(), "%s: connection unusable after NOT_IMPLEMENTED"
               % what)
        raise Skip("%s not implemented yet" % what)

    def client(self, level="negotiate", dialect=0x0311, name="adv.txt",
               guid=None, user=None, password=None, source=None):
        """A connection driven as deep as asked and possible; check
        c.level for how deep it got. guid: its ClientGuid; user and
        password: another account than the suite's; source: the local
        address to connect from (127.0.0.x: another peer)."""
        c = Client(self, source=source)
        r = c.negotiate((dialect,), guid=guid)
        expect(r.status == SUCCESS, "negotiate: %s" % sname(r.status))
        c.level = "negotiate"
        c.fid = None
        if not self.has("session") or level == "negotiate":
            return c
        r = c.login(user, password)
        expect(r.status == SUCCESS, "login as %s: %s" %
               (user or self.user, sname(r.status)))
        c.level = "session"
        if not self.has("tree") or level == "session":
            return c
        r = c.tree_connect()
        expect(r.status == SUCCESS, "tree connect: %s" % sname(r.status))
        c.level = "tree"
        if not self.has("file") or level == "tree":
            return c
        r = c.create(name)
        expect(r.status == SUCCESS, "create %s: %s" % (name, sname(r.status)))
        c.fid = r.fid
        c.level = "file"
        return c

    def probe(self):
        """How deep a well-behaved client gets today."""
        c = Client(self)
        try:
            r = c.negotiate()
            if r.status != SUCCESS:
                self.probe_notes.append("negotiate: %s" % sname(r.status))
                return
            r = c.login()
            if r.status == NOT_IMPLEMENTED:
                return
            if r.status != SUCCESS:
                self.probe_notes.append("login as %s: %s" %
                                        (self.user, sname(r.status)))
                return
            self.level = "session"
            r = c.tree_connect()
            if r.status == NOT_IMPLEMENTED:
                return
            if r.status != SUCCESS:
                self.probe_notes.append("tree connect: %s" % sname(r.status))
                return
            self.level = "tree"
            r = c.create("adv_probe.txt", disposition=advlib.FILE_OVERWRITE_IF)
            if r.status == NOT_IMPLEMENTED:
                return
            if r.status != SUCCESS:
                self.probe_notes.append("create: %s" % sname(r.status))
                return
            self.level = "file"
            c.close_file(r.fid)
        finally:
            c.close()


def cmd_name(cmd):
    return CMD_NAMES[cmd].upper() if cmd < len(CMD_NAMES) else hex(cmd)


def unpack_fid(body):
    return struct.unpack_from("<16s", body, 0)[0]


def host_path(env, name):
    return os.path.join(env.share_path, name)
