"""Fuzz target: every x86 SIMD hash (shash) against its generic twin.

No kernel counterpart (crypto/testmgr.c's test_hash_vs_generic_impl).  One
input picks a pair (Poly1305, NHPoly1305, SHA-224/256 and SHA-384/512 on
each ISA, GHASH, POLYVAL), a key where the hash takes one, and a message;
the one-call digest of a bytes object or of a view at an odd offset, and the
same message fed to a desc in random pieces (with an export and import at a
random point), must give the reference's digest; a desc's update after
final must be refused alike.
"""

from __future__ import annotations

import crypto_api as capi

from fuzz_input import FuzzInput
from pairs import HASHES, pick, same_outcome

MAX_LEN = 4096 + 300


def _pieces(fi: FuzzInput, n: int) -> list:
    cuts = sorted(fi.uint(n) for _ in range(fi.uint(5)))
    return list(zip([0] + cuts, cuts + [n]))


def _by_desc(tfm, msg: bytes, pieces: list, export_at: int) -> bytes:
    d = tfm.desc().init()
    for i, (a, b) in enumerate(pieces):
        if i == export_at:
            d = tfm.desc().import_(d.export())
        d.update(memoryview(msg)[a:b])
    return d.final()


def check(data: bytes) -> None:
    fi = FuzzInput(data)
    picked = pick(fi, HASHES, capi.crypto_alloc_shash)
    if picked is None:
        return
    _, drv_name, ref, drv = picked
    if ref.alg.setkey is not None:
        keylen = fi.choice((1072, 1072, fi.uint(1100)))
        key = fi.blob(keylen)
        if same_outcome(f"{drv_name} setkey({keylen} bytes)",
                        lambda: ref.setkey(key) or b"", lambda: drv.setkey(key) or b"") is None:
            return
    msg = fi.blob(fi.length(MAX_LEN))
    what = f"{drv_name} digest of {len(msg)} bytes"
    want = same_outcome(what, lambda: ref.digest(msg), lambda: drv.digest(msg))
    if want is None:
        return
    off = fi.uint(63)
    view = memoryview(bytes(off) + msg)[off:]
    same_outcome(what + f" at offset {off}", lambda: want, lambda: drv.digest(view))
    pieces = _pieces(fi, len(msg))
    same_outcome(what + f" in pieces {pieces}", lambda: want,
                 lambda: _by_desc(drv, msg, pieces, fi.uint(len(pieces))))
