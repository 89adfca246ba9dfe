"""Fuzz target: the single-block cipher drivers against the generic one.

No kernel counterpart (crypto/testmgr.c's alg_test_cipher).  One input picks
a pair (aes-aesni against aes-generic), a key of any length (AES takes 16, 24
or 32 bytes; both refuse the others alike), a block or a wrong-sized one
(refused alike), and a direction; the block comes as bytes, a bytearray or a
view at an odd offset, and must give the reference's bytes and round-trip.
"""

from __future__ import annotations

import crypto_api as capi

from fuzz_input import FuzzInput
from pairs import CIPHERS, pick, same_outcome


def check(data: bytes) -> None:
    fi = FuzzInput(data)
    picked = pick(fi, CIPHERS, capi.crypto_alloc_cipher)
    if picked is None:
        return
    _, drv_name, ref, drv = picked
    key = fi.blob(fi.choice((16, 24, 32, fi.uint(40))))
    if same_outcome(f"{drv_name} setkey({len(key)} bytes)",
                    lambda: ref.setkey(key) or b"", lambda: drv.setkey(key) or b"") is None:
        return
    bs = ref.alg.cra_blocksize
    n = bs if fi.uint(7) else fi.uint(2 * bs)
    block = fi.blob(n)
    off = fi.uint(15)
    shape = fi.choice((bytes, bytearray, lambda b: memoryview(bytes(off) + b)[off:]))(block)
    encrypt = fi.flag()
    what = f"{drv_name} {'encrypt' if encrypt else 'decrypt'}_one of {n} bytes"
    fn = "encrypt_one" if encrypt else "decrypt_one"
    want = same_outcome(what, lambda: getattr(ref, fn)(block), lambda: getattr(drv, fn)(shape))
    if want is not None:
        back = drv.decrypt_one(want) if encrypt else drv.encrypt_one(want)
        if back != block:
            raise AssertionError(f"{what}: does not round-trip")
