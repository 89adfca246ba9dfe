"""The peer of ``crypto-api speed disk``: the same cipher through ``tfm.encrypt``.

What the ``disk`` command could reach if reading, journalling and writing
cost nothing: the cipher spec's algorithm, keyed with the same key, encrypts
as many bytes as the image holds, 4 MiB per ``tfm.encrypt`` call, in place,
in the calling thread.  ``speed disk`` times it in every round beside the
command, so the ratios of the report come from the same moments of machine
load.  No kernel counterpart.
"""

from __future__ import annotations

import os
import time

import crypto_api as capi
from crypto_api.dmcrypt import parse_cipher_spec

#: Bytes per tfm.encrypt call.
PEER_BATCH = 4 << 20
#: How the report names the peer.
PEER_LABEL = "tfm.encrypt, 4 MiB per call"


class EncryptPeer:
    """A keyed tfm of one cipher spec and a 4 MiB buffer; :meth:`mbps` times one pass."""

    def __init__(self, spec: str, key_file: str) -> None:
        with open(key_file, "rb") as f:
            key = bytearray(f.read())
        self.tfm = capi.crypto_alloc_skcipher(parse_cipher_spec(spec).algorithm)
        try:
            self.tfm.setkey(key)
        except BaseException:
            self.tfm.free()
            raise
        finally:
            key[:] = bytes(len(key))
        self.buf = bytearray(os.urandom(PEER_BATCH))
        self.iv = bytes(self.tfm.ivsize)

    def mbps(self, size: int) -> float:
        """MB/s (10^6 B/s) encrypting ``size`` bytes in PEER_BATCH-byte calls."""
        calls = max(1, -(-size // PEER_BATCH))
        buf, iv, enc = self.buf, self.iv, self.tfm.encrypt
        t0 = time.perf_counter()
        for _ in range(calls):
            enc(buf, iv, buf)
        return calls * PEER_BATCH / (time.perf_counter() - t0) / 1e6

    def close(self) -> None:
        self.tfm.free()
