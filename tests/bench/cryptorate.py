#!/usr/bin/env python3
"""AES-GCM rates of the two libraries the sealed jobs run on, in this guest.

A sealed 1 MiB READ or WRITE is encrypted at one end and decrypted at the
other. The cifs client and our server use the kernel's gcm(aes) (the
implementation crypto_alloc_aead() picks); Samba's smbd uses GnuTLS. So
every sealed MiB costs the client one kernel pass with either server, and
the server one kernel pass (ours) or one GnuTLS pass (Samba's). Measured
here as CPU time per MiB of 64 KiB messages with 32 bytes of associated
data: the kernel's through AF_ALG (its own copies in and out included, so
an upper bound), GnuTLS's through gnutls_aead_cipher_encrypt().

Prints one JSON object: {"aes128": {...}, "aes256": {...}}, each with
kernel_ms_per_mib, gnutls_ms_per_mib, the kernel driver's name, and
bound = the highest ours/Samba throughput a one-request-at-a-time sealed
job can reach when both ends' crypto is all that costs (ours: two kernel
passes per MiB, Samba's: one kernel and one GnuTLS pass).
"""
import ctypes
import json
import os
import socket
import sys
import time

MSG = 64 * 1024
AD = 32
ROUNDS = 5
PER_ROUND = 16          # messages: 1 MiB a round


def cpu():
    return time.process_time()


def kernel_rate(key_len):
    s = socket.socket(socket.AF_ALG, socket.SOCK_SEQPACKET, 0)
    s.bind(('aead', 'gcm(aes)'))
    s.setsockopt(socket.SOL_ALG, socket.ALG_SET_KEY, os.urandom(key_len))
    s.setsockopt(socket.SOL_ALG, socket.ALG_SET_AEAD_AUTHSIZE, None, 16)
    op, _ = s.accept()
    data = os.urandom(AD + MSG)
    best = None
    for _ in range(ROUNDS):
        t0 = cpu()
        for _ in range(PER_ROUND):
            op.sendmsg_afalg([data], op=socket.ALG_OP_ENCRYPT, iv=bytes(12),
                             assoclen=AD)
            op.recv(AD + MSG + 16)
        dt = (cpu() - t0) * 1000
        best = dt if best is None else min(best, dt)
    op.close()
    s.close()
    return best


def kernel_driver():
    name = None
    drivers = []
    try:
        with open('/proc/crypto') as f:
            for line in f:
                k, _, v = line.partition(':')
                k, v = k.strip(), v.strip()
                if k == 'name':
                    name = v
                elif k == 'driver' and name == 'gcm(aes)':
                    drivers.append(v)
    except OSError:
        pass
    return drivers


class Datum(ctypes.Structure):
    _fields_ = [('data', ctypes.c_void_p), ('size', ctypes.c_uint)]


def gnutls_rate(key_len):
    lib = ctypes.CDLL('libgnutls.so.30')
    alg = 10 if key_len == 16 else 11     # GNUTLS_CIPHER_AES_{128,256}_GCM
    key = ctypes.create_string_buffer(os.urandom(key_len), key_len)
    hd = ctypes.c_void_p()
    ret = lib.gnutls_aead_cipher_init(ctypes.byref(hd), alg,
                                      ctypes.byref(Datum(ctypes.cast(key, ctypes.c_void_p),
                                                         key_len)))
    if ret:
        raise RuntimeError('gnutls_aead_cipher_init: %d' % ret)
    nonce = ctypes.create_string_buffer(12)
    ad = ctypes.create_string_buffer(os.urandom(AD), AD)
    src = ctypes.create_string_buffer(os.urandom(MSG), MSG)
    dst = ctypes.create_string_buffer(MSG + 16)
    out_len = ctypes.c_size_t()
    best = None
    for _ in range(ROUNDS):
        t0 = cpu()
        for _ in range(PER_ROUND):
            out_len.value = MSG + 16
            ret = lib.gnutls_aead_cipher_encrypt(hd, nonce, ctypes.c_size_t(12), ad,
                                                 ctypes.c_size_t(AD), ctypes.c_size_t(16),
                                                 src, ctypes.c_size_t(MSG), dst,
                                                 ctypes.byref(out_len))
            if ret:
                raise RuntimeError('gnutls_aead_cipher_encrypt: %d' % ret)
        dt = (cpu() - t0) * 1000
        best = dt if best is None else min(best, dt)
    lib.gnutls_aead_cipher_deinit(hd)
    return best


def main():
    out = {'kernel_drivers': kernel_driver()}
    for name, key_len in (('aes128', 16), ('aes256', 32)):
        r = {}
        try:
            r['kernel_ms_per_mib'] = kernel_rate(key_len)
        except OSError as e:
            r['error'] = 'kernel: %s' % e
        try:
            r['gnutls_ms_per_mib'] = gnutls_rate(key_len)
        except (OSError, RuntimeError) as e:
            r['error'] = 'gnutls: %s' % e
        k, g = r.get('kernel_ms_per_mib'), r.get('gnutls_ms_per_mib')
        if k and g:
            r['bound'] = (k + g) / (2 * k)
        out[name] = r
    json.dump(out, sys.stdout)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main())
