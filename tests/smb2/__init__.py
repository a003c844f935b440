# SPDX-License-Identifier: GPL-2.0-or-later
"""The one SMB2 test library every Python test client builds on.

  wire     header, commands, flags, NT statuses, NEGOTIATE bodies, framing
  crypto   SP800-108 KDF, HMAC-SHA256/AES-CMAC/AES-GMAC signing,
           AES-CCM/GCM transform (128 and 256 bit), NT hash
  spnego   DER and the SPNEGO tokens (MS-SPNG, RFC 4178)
  ntlm     NTLMv2 (MS-NLMP): messages, proof, MIC, signing/sealing keys
  create   CREATE request body, create contexts, the CREATE response
  conn     Conn: one TCP connection (imports only wire: starts fast)
  client   Conn -> AuthConn (negotiate, session setup,
           signing) -> Tree (a share connected, handle helpers) ->
           AsyncTree (responses matched by MessageId)
  runner   the case registry and the command line every case client shares

Pure byte builders take every field as an argument with the valid value as
default, so hostile callers (tests/adversarial) can corrupt one at a time.
"""
