# SPDX-License-Identifier: GPL-2.0-or-later
"""One TCP connection carrying SMB2 frames: the bottom layer of client.py.

Its own module so that clients that only frame requests import nothing
but wire: case files start them in the background and give them seconds
to connect, and a TCG guest takes that long to load hashlib's OpenSSL
and Cryptodome."""
import socket
import struct

from . import wire
from .wire import Response

ECHO_BODY = struct.pack("<HH", 4, 0)


class Conn:
    """One TCP connection: frames out and in, MessageIds counted."""

    def __init__(self, host="127.0.0.1", port=445, timeout=10, source=None):
        # source: a local address to connect from (another loopback
        # address stands for another peer).
        self.sock = socket.create_connection(
            (host, port), timeout=timeout,
            source_address=(source, 0) if source else None)
        self.mid = 0

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def send_raw(self, data):
        self.sock.sendall(data)

    def send_frame(self, payload):
        self.send_raw(wire.frame(payload))

    def _recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            try:
                chunk = self.sock.recv(n - len(buf))
            except ConnectionResetError:
                raise wire.Dropped("connection reset")
            if not chunk:
                raise wire.Dropped("connection closed")
            buf += chunk
        return buf

    def recv_frame(self):
        hdr = self._recv_exact(4)
        (n,) = struct.unpack(">I", hdr)
        return self._recv_exact(n & 0xFFFFFF)

    def recv(self):
        return Response(self.recv_frame())

    def request(self, command, body, credit_req=1, charge=0, mid=None):
        if mid is None:
            mid = self.mid
            self.mid += max(charge, 1)
        self.send_frame(wire.header(command, mid, credit_req, charge=charge)
                        + body)
        return self.recv()

    def negotiate(self, dialects, contexts=None, credit_req=1):
        return self.request(wire.NEGOTIATE,
                            wire.negotiate_body(dialects, contexts),
                            credit_req)

    def echo(self, **kw):
        return self.request(wire.ECHO, ECHO_BODY, **kw)

    def is_dropped(self, wait=5.0):
        """True when the server closes the connection within wait seconds."""
        self.sock.settimeout(wait)
        try:
            data = self.sock.recv(4096)
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False
        return data == b""
