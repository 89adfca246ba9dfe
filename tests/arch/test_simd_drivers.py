"""The x86 SIMD drivers against their generic twins and the official vectors.

Mirrors what testmgr's vs-generic fuzzing does for arch/x86/crypto: every
SIMD skcipher/shash/cipher must give the generic driver's bytes for every
length around the block-count dispatch edges, for random scatterlist splits,
in place and out of place, and with SIMD disabled.
"""

import os
import random

import pytest

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has

pytestmark = pytest.mark.skipif(not boot_cpu_has("ssse3"), reason="CPU lacks SSSE3: no x86 SIMD drivers")

STREAMS = [("chacha20", 16), ("xchacha20", 32), ("xchacha12", 32)]


@pytest.fixture(scope="module", autouse=True)
def loaded():
    capi.load_all()


def _pair(name):
    g = capi.crypto_alloc_skcipher(name + "-generic")
    s = capi.crypto_alloc_skcipher(name + "-simd")
    key = os.urandom(32)
    g.setkey(key)
    s.setkey(key)
    return g, s


@pytest.mark.parametrize("name,ivsize", STREAMS)
def test_every_length_to_600(name, ivsize):
    g, s = _pair(name)
    rng = random.Random(600)
    for n in range(0, 601):
        data = rng.randbytes(n)
        iv = rng.randbytes(ivsize)
        assert s.encrypt(data, iv) == g.encrypt(data, iv), n


@pytest.mark.parametrize("name,ivsize", STREAMS)
def test_random_lengths_in_and_out_of_place(name, ivsize):
    g, s = _pair(name)
    rng = random.Random(5000)
    for _ in range(60):
        n = rng.randrange(0, 5001)
        data = rng.randbytes(n)
        iv = rng.randbytes(ivsize)
        expect = g.encrypt(data, iv)
        assert s.encrypt(data, iv) == expect
        buf = bytearray(data)
        req = capi.skcipher_request_alloc(s)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), n, bytearray(iv))
        capi.crypto_skcipher_encrypt(req)
        assert bytes(buf) == expect


def _random_sgl(rng, data: bytes, dst: bool):
    """Split ``data`` over 1-5 entries at random page offsets of separate buffers."""
    n = len(data)
    cuts = sorted(rng.sample(range(1, n), min(n - 1, rng.randrange(0, 5)))) if n > 1 else []
    bounds = [0] + cuts + [n]
    sgl = capi.sg_init_table(len(bounds) - 1)
    bufs = []
    for sg, a, b in zip(sgl, bounds, bounds[1:]):
        off = rng.choice([0, rng.randrange(4096), 4096 - rng.randrange(1, 80)])
        buf = bytearray(off + (b - a) + 64)
        if not dst:
            buf[off:off + b - a] = data[a:b]
        capi.sg_set_buf(sg, buf, off, b - a)
        bufs.append((buf, off, b - a))
    return sgl, bufs


@pytest.mark.parametrize("name,ivsize", STREAMS)
def test_random_scatterlists_match_generic(name, ivsize):
    g, s = _pair(name)
    rng = random.Random(7)
    for _ in range(80):
        n = rng.randrange(1, 9000)
        data = rng.randbytes(n)
        iv = rng.randbytes(ivsize)
        expect = g.encrypt(data, iv)
        src, _ = _random_sgl(rng, data, False)
        dst, dbufs = _random_sgl(rng, bytes(n), True)
        req = capi.skcipher_request_alloc(s)
        capi.skcipher_request_set_crypt(req, src, dst, n, bytearray(iv))
        capi.crypto_skcipher_encrypt(req)
        assert b"".join(bytes(b[o:o + k]) for b, o, k in dbufs) == expect
        # bytes around each destination piece untouched
        assert all(not any(b[:o]) and not any(b[o + k:]) for b, o, k in dbufs)


@pytest.mark.parametrize("name,ivsize", STREAMS)
def test_simd_disabled_falls_back_to_generic(name, ivsize):
    g, s = _pair(name)
    data = os.urandom(3000)
    iv = os.urandom(ivsize)
    with capi.simd_disabled(), capi.fpu_trace() as tr:
        assert s.encrypt(data, iv) == g.encrypt(data, iv)
    assert tr.sections == []


@pytest.mark.parametrize("driver", ["nhpoly1305-sse2", "nhpoly1305-avx2"])
def test_nhpoly1305_simd_matches_generic(driver):
    if driver.endswith("avx2") and not boot_cpu_has("avx2"):
        pytest.skip("CPU lacks AVX2")
    g = capi.crypto_alloc_shash("nhpoly1305-generic")
    s = capi.crypto_alloc_shash(driver)
    key = os.urandom(1088)
    g.setkey(key)
    s.setkey(key)
    rng = random.Random(1088)
    for n in list(range(0, 300)) + [rng.randrange(300, 20000) for _ in range(40)]:
        data = rng.randbytes(n)
        assert s.digest(data) == g.digest(data), n
        d = s.desc().init()
        pos = 0
        while pos < n:
            k = rng.randrange(1, 5000)
            d.update(data[pos:pos + k])
            pos += k
        assert d.final() == g.digest(data)


def test_poly1305_x86_64_matches_generic():
    g = capi.crypto_alloc_shash("poly1305-generic")
    s = capi.crypto_alloc_shash("poly1305-x86_64")
    rng = random.Random(1305)
    for n in list(range(32, 200)) + [rng.randrange(200, 70000) for _ in range(30)]:
        data = rng.randbytes(n)
        assert s.digest(data) == g.digest(data)


def test_aesni_matches_generic_and_peer():
    if not boot_cpu_has("aes"):
        pytest.skip("CPU lacks AES-NI")
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    rng = random.Random(128)
    for klen in (16, 24, 32):
        key = rng.randbytes(klen)
        a = capi.crypto_alloc_cipher("aes-aesni")
        g = capi.crypto_alloc_cipher("aes-generic")
        a.setkey(key)
        g.setkey(key)
        enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
        for _ in range(50):
            block = rng.randbytes(16)
            ct = a.encrypt_one(block)
            assert ct == g.encrypt_one(block) == enc.update(block)
            assert a.decrypt_one(ct) == block


def test_registry_prefers_simd_drivers():
    with capi.crypto_alloc_skcipher("xchacha12") as t:
        assert t.driver_name == "xchacha12-simd"
        assert t.alg.cra_priority == 300
    with capi.crypto_alloc_shash("nhpoly1305") as h:
        assert h.driver_name == ("nhpoly1305-avx2" if boot_cpu_has("avx2") else "nhpoly1305-sse2")


def test_adiantum_on_simd_drivers_name_and_priority():
    if not (boot_cpu_has("avx2") and boot_cpu_has("aes")):
        pytest.skip("needs AVX2 and AES-NI for the full SIMD stack")
    name = "adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)"
    with capi.crypto_alloc_skcipher(name) as t:
        assert t.alg.cra_name == "adiantum(xchacha12,aes)"
        assert t.driver_name == name
        assert t.alg.cra_priority == (4 * 300 + 2 * 300 + 300) // 7 == 300
