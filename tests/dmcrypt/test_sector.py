"""crypto_api.dmcrypt.sector: ``VolumeCipher`` (sector n of a dm-crypt volume) and
which ciphers suit sector encryption.

The reference IVs come from the dm-crypt table's definition
(tests/dmcrypt_ref.py), not from crypto_api.dmcrypt.ivgen; the tfm underneath is
checked against the official Adiantum vectors of sector-sized messages, and
the SIMD drivers against the generic ones.
"""

import os
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crypto_api as capi
from crypto_api import CryptoError
from crypto_api.dmcrypt.sector import VolumeCipher, sector_cipher_problem
from crypto_api.testmgr.vectors import load_json
from dmcrypt_ref import iv_bytes, iv_number
from kernel_names import specs

KEY = bytes(range(32))
SPECS = {"xchacha12,aes-adiantum-plain64": ("adiantum(xchacha12,aes)", "plain64"),
         "xchacha20,aes-adiantum-plain": ("adiantum(xchacha20,aes)", "plain"),
         "capi:adiantum(xchacha12,aes)-plain64": ("adiantum(xchacha12,aes)", "plain64")}


@settings(max_examples=60, deadline=None)
@given(spec=st.sampled_from(sorted(SPECS)), ss=st.sampled_from([512, 1024, 2048, 4096]),
       large=st.booleans(), n=st.integers(0, 1 << 40), skip_units=st.integers(0, 1 << 20),
       data=st.data())
def test_sector_n_is_the_tfm_with_the_dm_crypt_iv(spec, ss, large, n, skip_units, data):
    algorithm, mode = SPECS[spec]
    skip = skip_units * (ss // 512)
    plain = data.draw(st.binary(min_size=ss, max_size=ss))
    with VolumeCipher(spec, KEY, sector_size=ss, iv_offset=skip, iv_large_sectors=large) as vc, \
            capi.crypto_alloc_skcipher(algorithm) as tfm:
        tfm.setkey(KEY)
        iv = iv_bytes(iv_number(n, ss, skip, large), mode)
        ct = vc.encrypt_sector(n, plain)
        assert ct == tfm.encrypt(plain, iv)
        assert vc.decrypt_sector(n, ct) == plain
        assert vc.iv(n) == iv


@settings(max_examples=20, deadline=None)
@given(first=st.integers(0, 1 << 30), count=st.integers(1, 8), large=st.booleans(), data=st.data())
def test_many_sectors_in_place_equal_one_by_one(first, count, large, data):
    buf = bytearray(data.draw(st.binary(min_size=count * 1024, max_size=count * 1024)))
    orig = bytes(buf)
    with VolumeCipher("xchacha12,aes-adiantum-plain64", KEY, sector_size=1024, iv_offset=64,
                      iv_large_sectors=large) as vc:
        vc.encrypt_sectors(first, buf)
        assert bytes(buf) == b"".join(vc.encrypt_sector(first + k, orig[k * 1024:(k + 1) * 1024])
                                      for k in range(count))
        vc.decrypt_sectors(first, memoryview(buf))
        assert bytes(buf) == orig


def test_simd_and_generic_drivers_agree():
    data = os.urandom(4096)
    with VolumeCipher("xchacha12,aes-adiantum-plain64", KEY, sector_size=4096) as a, VolumeCipher(
            specs(["capi:adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)-plain64"])[0], KEY,
            sector_size=4096) as b:
        for n in (0, 1, 7, (1 << 61) - 1):
            assert a.encrypt_sector(n, data) == b.encrypt_sector(n, data)


@pytest.mark.parametrize("variant", ["xchacha12", "xchacha20"])
def test_the_tfm_underneath_passes_the_official_sector_sized_vectors(variant):
    """google/adiantum and Linux testmgr vectors of 512- and 4096-byte messages."""
    vecs = [v for v in load_json(f"adiantum-{variant}-aes.json")["vectors"]
            if v["kernel_compatible"] and len(v["plaintext"]) // 2 in (512, 4096)]
    assert vecs
    for v in vecs:
        pt = bytes.fromhex(v["plaintext"])
        with VolumeCipher(f"{variant},aes-adiantum-plain64", bytes.fromhex(v["key"]),
                          sector_size=len(pt)) as vc:
            assert vc.tfm.encrypt(pt, bytes.fromhex(v["kernel_iv"])) == bytes.fromhex(v["ciphertext"])


@pytest.mark.parametrize("spec", specs(["capi:chacha20-plain64", "capi:xchacha12-plain64",
                                        "capi:xchacha20-plain", "capi:xchacha12-generic-plain64"]))
def test_stream_ciphers_are_refused_unless_forced(spec):
    with pytest.raises(CryptoError) as e:
        VolumeCipher(spec, KEY)
    assert e.value.errno == 22
    assert "stream cipher" in e.value.message and "allow_unsafe=True" in e.value.message
    with VolumeCipher(spec, KEY, allow_unsafe=True) as vc:
        assert len(vc.encrypt_sector(0, bytes(512))) == 512


def test_why_chacha20_plain64_is_refused():
    """chacha20's IV starts with its block counter, so plain64 IVs of
    neighbouring 512-byte sectors (8 blocks each) overlap: sector 1 reuses
    the keystream of sector 0 from its second block on."""
    with VolumeCipher("capi:chacha20-plain64", KEY, allow_unsafe=True) as vc:
        ks0 = vc.encrypt_sector(0, bytes(512))
        ks1 = vc.encrypt_sector(1, bytes(512))
    assert ks1[:448] == ks0[64:]


def fake(name, blocksize):
    return SimpleNamespace(alg=SimpleNamespace(cra_name=name), blocksize=blocksize)


@pytest.mark.parametrize("name, blocksize, ok", [
    ("adiantum(xchacha12,aes)", 16, True),
    ("hctr2(aes)", 16, True),
    ("xts(aes)", 16, True),
    ("cbc(aes)", 16, True),
    ("essiv(cbc(aes),sha256)", 16, True),
    ("lrw(serpent)", 16, True),
    ("ecb(aes)", 16, False),                 # ignores the IV: equal blocks show
    ("ctr(aes)", 1, False),                  # a stream cipher
    ("rfc3686(ctr(aes))", 1, False),
    ("xchacha12", 1, False),
    ("xts(aes)", 1, False),                  # a block size of 1 is a stream cipher whatever the name
    ("pcbc(aes)", 16, False),                # not a known sector mode
])
def test_the_decision_follows_the_algorithm_properties(name, blocksize, ok):
    assert (sector_cipher_problem(fake(name, blocksize)) is None) == ok


@pytest.mark.parametrize("kwargs, words", [
    (dict(sector_size=100), ["sector size 100"]),
    (dict(sector_size=4096, iv_offset=4), ["--skip", "4", "multiple"]),
    (dict(iv_offset=-1), ["iv_offset"]),
])
def test_bad_geometry_is_einval(kwargs, words):
    with pytest.raises(CryptoError) as e:
        VolumeCipher("xchacha12,aes-adiantum-plain64", KEY, **kwargs)
    assert e.value.errno == 22
    for w in words:
        assert w in e.value.message


def test_bad_sectors_are_einval():
    with VolumeCipher("xchacha12,aes-adiantum-plain64", KEY) as vc:
        for call in (lambda: vc.encrypt_sector(0, bytes(511)), lambda: vc.encrypt_sector(-1, bytes(512)),
                     lambda: vc.encrypt_sector(1 << 64, bytes(512)),
                     lambda: vc.encrypt_sectors(0, bytearray(700)),
                     lambda: vc.encrypt_sectors(0, bytes(512))):
            with pytest.raises(CryptoError) as e:
                call()
            assert e.value.errno == 22
    with pytest.raises(CryptoError) as e:
        VolumeCipher("xchacha12,aes-adiantum-plain64", bytes(16))
    assert e.value.message.startswith("key: ")
