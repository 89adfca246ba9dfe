"""Fuzz target: dm-crypt's many-sector path against one generic request per sector.

No kernel counterpart (dm-crypt has one request per sector; the batch path is
this project's, crypto_api.dmcrypt.sector_batch and algs/sector_batch.c).
One input picks a cipher specification, a sector size, ``iv_offset``,
``iv_large_sectors``, a worker count, a first sector (near the 32-bit wrap
of ``plain`` too) and a run of sectors; :meth:`VolumeCipher.crypt_sectors`
over a view at an odd offset of a larger buffer (in place, or from a
separate source buffer: ``src=``) must give, sector by sector, the generic
driver's bytes with the IV dm-crypt hands it, and leave the bytes around the
run, and the source, alone.  A refusal must come from both sides alike.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api import VolumeCipher

from dmcrypt_ref import iv_bytes, iv_number
from fuzz_input import FuzzInput
from pairs import cached, outcome

#: (specification, the generic reference of its algorithm)
SPECS = [("xchacha12,aes-adiantum-plain64", "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)"),
         ("xchacha20,aes-adiantum-plain", "adiantum(xchacha20-generic,aes-generic,nhpoly1305-generic)"),
         ("aes-xts-plain64", "xts(aes-generic)"),
         ("aes-cbc-essiv:sha256", "essiv(cbc(aes-generic),sha256-generic)")]
GUARD = 0x5A


def check(data: bytes) -> None:
    fi = FuzzInput(data)
    spec, ref_name = fi.choice(SPECS)
    ref = cached(ref_name, capi.crypto_alloc_skcipher)
    key = fi.blob(ref.max_keysize)
    sector_size = fi.choice((512, 1024, 2048, 4096))
    per = sector_size // 512
    iv_offset = per * fi.uint(3) * fi.choice((1, 1 << 20, 1 << 29))
    large = fi.flag()
    jobs = 1 + fi.uint(2)
    first = fi.choice((fi.uint(64), (1 << 32) - fi.uint(4), fi.uint(0xFFFFFFFF) * fi.uint(3)))
    count = fi.uint(6)
    encrypt = fi.flag()
    msg = fi.blob(count * sector_size)
    lead = fi.uint(31)
    src = bytearray(msg) if fi.flag() else None       # out of place: the run starts as guard bytes
    buf = bytearray([GUARD]) * (lead + len(msg) + 8)
    if src is None:
        buf[lead:lead + len(msg)] = msg
    try:
        vc = VolumeCipher(spec, key, sector_size=sector_size, iv_offset=iv_offset,
                          iv_large_sectors=large, jobs=jobs)
    except capi.CryptoError as e:
        raise AssertionError(f"{spec}, {sector_size}-byte sectors, iv_offset {iv_offset}: refused: {e}")
    with vc:
        ref.setkey(key)
        mode = vc.ivmode if vc.ivmode != "essiv" else "plain64"
        want = []
        for k in range(count):
            number = iv_number(first + k, sector_size, iv_offset, large)
            iv = iv_bytes(number % (1 << 64), mode, ref.ivsize)
            fn = ref.encrypt if encrypt else ref.decrypt
            want.append((number, fn, msg[k * sector_size:(k + 1) * sector_size], iv))
        done, refused = outcome(lambda: vc.crypt_sectors(first, memoryview(buf)[lead:lead + len(msg)], encrypt,
                                                         src=src))
    what = f"{spec} {'encrypt' if encrypt else 'decrypt'} sectors {first}+{count} of {sector_size} bytes " \
           f"(iv_offset {iv_offset}, large {large}, jobs {jobs}, {'in place' if src is None else 'from src'})"
    if src is not None and src != msg:
        raise AssertionError(f"{what}: the source changed")
    too_big = any(n >= (1 << 64) for n, *_ in want)
    if refused:
        if not too_big:
            raise AssertionError(f"{what}: refused: {refused[1]}")
        return
    if too_big:
        raise AssertionError(f"{what}: accepted an IV number past 64 bits")
    got = bytes(buf[lead:lead + len(msg)])
    for k, (_, fn, sector, iv) in enumerate(want):
        if got[k * sector_size:(k + 1) * sector_size] != fn(sector, iv):
            raise AssertionError(f"{what}: sector {first + k} differs from the generic driver")
    if buf[:lead] != bytearray([GUARD]) * lead or buf[lead + len(msg):] != bytearray([GUARD]) * 8:
        raise AssertionError(f"{what}: a byte around the run changed")
