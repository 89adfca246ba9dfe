"""The disk journal's check values per format version (tools/disk_seal.py).

Version 1 must stay exactly the old sealing (SHA-256 of the header digest and
the record; a sector's SHA-256 cut to 16 bytes), or journals left by older
runs would no longer resume: checked against hashlib.  Version 2 is checked
against its documented construction computed with the generic NH-Poly1305
driver (the tool's tfm is the registry's pick, the AVX2 one here), and for
what it is for: any torn or changed record, any changed sector, and another
journal's header all change the digest.
"""

import hashlib
import os
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crypto_api as capi
from crypto_api.tools.disk_seal import MAGICS, SECTOR_DIGEST, SealV1, SealV2, make_seal

HEADER = hashlib.sha256(b"a header").digest()


@settings(max_examples=30, deadline=None)
@given(data=st.binary(min_size=0, max_size=3000), ss=st.sampled_from([512, 1024]), count=st.integers(0, 4))
def test_version_1_is_the_old_sha256_sealing(data, ss, count):
    seal = make_seal(1, HEADER)
    assert isinstance(seal, SealV1)
    assert seal.record(data) == hashlib.sha256(HEADER + data).digest()
    sectors = (data * (1 + ss * count // max(1, len(data))))[:ss * count] if data else bytes(ss * count)
    want = b"".join(hashlib.sha256(sectors[k * ss:(k + 1) * ss]).digest()[:16] for k in range(count))
    assert seal.sectors(sectors, ss) == want
    if count:
        assert seal.sector(sectors[:ss]) == want[:16]


def _generic_v2(header, data):
    key = hashlib.shake_256(b"crypto-api disk journal v2: NH-Poly1305 key" + header).digest(1088)
    with capi.crypto_alloc_shash("nhpoly1305-generic") as h:
        h.setkey(key)
        nh = h.digest(data)
    return nh, hashlib.sha256(b"crypto-api disk journal v2: record" + header
                              + len(data).to_bytes(8, "little") + nh).digest()


@settings(max_examples=25, deadline=None)
@given(data=st.binary(min_size=0, max_size=5000))
def test_version_2_is_its_documented_construction(data):
    seal = make_seal(2, HEADER)
    try:
        nh, rec = _generic_v2(HEADER, data)
        assert seal.record(data) == rec
        assert seal.sector(data) == nh and len(nh) == SECTOR_DIGEST
    finally:
        seal.close()


def test_version_2_sector_digests_are_per_sector_and_thread_safe():
    seal = make_seal(2, HEADER)
    buf = os.urandom(4096 * 8)
    want = b"".join(_generic_v2(HEADER, buf[k:k + 4096])[0] for k in range(0, len(buf), 4096))
    got = []

    def run():
        got.append(seal.sectors(bytearray(buf), 4096))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seal.close()
    assert got == [want] * 4


@pytest.mark.parametrize("version", sorted(MAGICS))
def test_every_change_a_tear_or_another_header_changes_the_record_digest(version):
    data = bytearray(os.urandom(64 * 1024 + 32))
    seal, other = make_seal(version, HEADER), make_seal(version, hashlib.sha256(b"another").digest())
    try:
        good = seal.record(data)
        assert other.record(data) != good
        for at in (0, 31, 32, 4096, len(data) - 1):
            data[at] ^= 1
            assert seal.record(data) != good, at
            data[at] ^= 1
        torn = bytearray(data)
        torn[len(torn) // 2 // 4096 * 4096:] = bytes(len(torn) - len(torn) // 2 // 4096 * 4096)
        assert seal.record(torn) != good                   # the end never reached the file
        assert seal.record(data[:-16]) != good
        assert seal.record(data) == good
    finally:
        seal.close()
        other.close()


def test_close_wipes_the_key_and_frees_the_tfms():
    seal = SealV2(HEADER)
    seal.record(b"x" * 100)
    assert seal._tfms and any(seal._key)
    seal.close()
    assert not seal._tfms and not any(seal._key)
