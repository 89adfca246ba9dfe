"""This project's XTS ARIA driver on x86 (arch/x86/aria_xts_glue.py,
arch/x86/aria_xts.c; no kernel counterpart): its name, priority and kernel
table row; every core's XTS routine (16/32/64 blocks, AES-NI and GFNI
S-boxes) against the pure-Python model of tests/aria_ref.py; the driver
against the xts template over aria-generic on random lengths with and
without ciphertext stealing, both directions, every key size, the one-call
and request paths and scattered buffers; the FPU sections; the key and
length refusals; and the self-test manager's full tests (fuzzing against
``xts(ecb(aria-generic))``)."""

import random
from errno import EINVAL

import pytest

import aria_ref
import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.fpu import fpu_trace
from crypto_api.scatterlist import Scatterlist

pytestmark = pytest.mark.skipif(not IS_X86, reason="x86 only")

AVX512 = all(boot_cpu_has(f) for f in ("avx", "avx2", "avx512f", "avx512vl", "avx512bw", "gfni", "xsave_zmm"))
need_avx512 = pytest.mark.skipif(not AVX512, reason="CPU lacks AVX-512 F/VL/BW and GFNI")
# (impl, S-box method, blocks per call): the cores that exist
CORES = [("avx", "aesni", 16), ("avx", "gfni", 16), ("avx2", "aesni", 32), ("avx2", "gfni", 32),
         ("avx512", "gfni", 64)]
CORE_NEEDS = {"avx": ("avx",), "avx2": ("avx", "avx2"), "avx512": ("avx512f", "avx512vl", "avx512bw")}


@pytest.fixture(scope="module", autouse=True)
def loaded():
    capi.request_module("aria")


def _gf_x(t: bytes) -> bytes:
    v = int.from_bytes(t, "little")
    return (((v << 1) & (2 ** 128 - 1)) ^ (0x87 if v >> 127 else 0)).to_bytes(16, "little")


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def model_xts(key: bytes, tweak: bytes, data: bytes, encrypt: bool) -> bytes:
    """XTS over whole blocks with the first tweak given (IEEE P1619 without stealing)."""
    block = aria_ref.encrypt_block if encrypt else aria_ref.decrypt_block
    out = b""
    for i in range(0, len(data), 16):
        out += _xor(block(key, _xor(data[i:i + 16], tweak)), tweak)
        tweak = _gf_x(tweak)
    return out


def _ctx(key):
    from crypto_api.algs._aria_generic import ffi, lib
    ctx = ffi.new("struct aria_ctx *")
    assert lib.aria_set_key(ctx, key, len(key)) == 0
    return ctx


@pytest.mark.parametrize("impl,sbox,width", CORES)
def test_every_core_xts_matches_the_model(impl, sbox, width):
    """Each wide XTS routine alone: 2 calls both ways, each key size, and
    the tweak it leaves (the tweak of the block after them)."""
    if not all(boot_cpu_has(f) for f in CORE_NEEDS[impl]) or not boot_cpu_has("gfni" if sbox == "gfni" else "aes"):
        pytest.skip(f"CPU lacks the {impl}/{sbox} core's instructions")
    from crypto_api.arch.x86._aria import ffi, lib
    fn = getattr(lib, f"aria_{impl}_{sbox}_xts")
    rng = random.Random(impl + sbox)
    for klen in (16, 24, 32):
        key = rng.randbytes(klen)
        ctx = _ctx(key)
        data, t0 = rng.randbytes(2 * 16 * width), rng.randbytes(16)
        for encrypt in (1, 0):
            out, t = ffi.new("uint8_t[]", len(data)), ffi.new("uint8_t[16]", t0)
            fn(ctx, out, data, 2, t, encrypt)
            assert bytes(out) == model_xts(key, t0, data, bool(encrypt))
            want_t = t0
            for _ in range(2 * width):
                want_t = _gf_x(want_t)
            assert bytes(t) == want_t


def _pair(klen, rng):
    key = rng.randbytes(klen)
    ours = capi.crypto_alloc_skcipher("xts-aria-avx512")
    ref = capi.crypto_alloc_skcipher("xts(ecb(aria-generic))")
    ours.setkey(key)
    ref.setkey(key)
    return ours, ref


def _request(tfm, data, iv, encrypt, pieces=()):
    cuts = [0] + sorted(pieces) + [len(data)]
    src = [Scatterlist(memoryview(bytearray(data[a:b])), 0, b - a) for a, b in zip(cuts, cuts[1:]) if b > a]
    out = bytearray(len(data))
    req = capi.SkcipherRequest(tfm, src, [Scatterlist(memoryview(out), 0, len(data))], len(data), bytearray(iv))
    assert (capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt)(req) == 0
    assert bytes(req.iv) == iv                      # XTS leaves the caller's IV as it was
    return bytes(out)


@need_avx512
def test_name_priority_and_row(proc_records):
    """xts(aria) answers with the project driver, one above the template
    instance over ecb-aria-avx512; the kernel table marks it as the project's."""
    from crypto_api.arch.x86.kernel_rows import ROWS
    with capi.crypto_alloc_skcipher("xts(aria)") as tfm:
        recs = {r["driver"]: r for r in proc_records()}
        assert tfm.driver_name == "xts-aria-avx512"
        assert tfm.alg.cra_priority == 601
        assert (tfm.ivsize, tfm.blocksize, tfm.min_keysize, tfm.max_keysize, tfm.chunksize) == (16, 16, 32, 64, 16)
    with capi.crypto_alloc_skcipher("xts(ecb-aria-avx512)") as tmpl:
        assert tmpl.alg.cra_priority == 600
    rows = {r.ours: r for r in ROWS if "xts-aria" in r.ours}
    assert set(rows) == {"xts-aria-avx512", "__xts-aria-avx512"}
    assert all(r.status == "project" and r.priority == 601 for r in rows.values())
    for drv in rows:
        assert recs[drv]["priority"] == "601" and recs[drv]["module"] == "aria_gfni_avx512_x86_64"
    assert recs["xts-aria-avx512"]["name"] == "xts(aria)" and recs["__xts-aria-avx512"]["name"] == "__xts(aria)"


@need_avx512
@pytest.mark.parametrize("klen", [32, 48, 64])
def test_matches_the_xts_template_on_random_lengths(klen):
    """Random lengths 16..6 KiB (stealing included), both directions, the
    one-call path and the request path (under a trace), against the xts
    template over aria-generic."""
    rng = random.Random(klen)
    ours, ref = _pair(klen, rng)
    with ours, ref:
        lengths = [16, 17, 31, 32, 33, 255, 256, 257, 1023, 1024, 1040, 1041] + \
                  [rng.randrange(16, 6 * 1024) for _ in range(25)]
        for n in lengths:
            data, iv = rng.randbytes(n), rng.randbytes(16)
            ct = ref.encrypt(data, iv)
            assert ours.encrypt(data, iv) == ct, n
            assert ours.decrypt(ct, iv) == data, n
            with fpu_trace():
                assert _request(ours, data, iv, True) == ct, n
                assert _request(ours, ct, iv, False) == data, n


@need_avx512
def test_scattered_buffers_and_in_place():
    """Walk steps that split blocks and the stolen pair across pieces; in place."""
    rng = random.Random(7)
    ours, ref = _pair(64, rng)
    with ours, ref:
        for n, pieces in ((16 * 100 + 9, [7, 16 * 64 + 3, 16 * 99 + 20]), (16 * 70, [16 * 5, 16 * 69 + 1]),
                          (40, [17, 25])):
            data, iv = rng.randbytes(n), rng.randbytes(16)
            ct = ref.encrypt(data, iv)
            assert _request(ours, data, iv, True, pieces) == ct
            assert _request(ours, ct, iv, False, pieces) == data
            buf = bytearray(data)
            sg = [Scatterlist(memoryview(buf), 0, n)]
            req = capi.SkcipherRequest(ours, sg, sg, n, bytearray(iv))
            assert capi.crypto_skcipher_encrypt(req) == 0
            assert bytes(buf) == ct


@need_avx512
def test_one_fpu_section_per_walk_step():
    """As the module's ECB: one section per walk step with 16 blocks or
    more, around its wide calls; the rest and the stolen pair outside."""
    rng = random.Random(3)
    ours, ref = _pair(32, rng)
    with ours, ref:
        nblocks = 2 * 64 + 16 + 5
        data, iv = rng.randbytes(16 * nblocks + 3), rng.randbytes(16)
        with fpu_trace() as t:
            out = _request(ours, data, iv, True)
        assert out == ref.encrypt(data, iv)
        # the last full block goes with the 3 stolen bytes: nblocks - 1 on the walk
        assert t.nbytes == [16 * ((nblocks - 1) // 16 * 16)]
        with fpu_trace() as t:
            _request(ours, data[:16 * 15], iv, True)
        assert t.nbytes == []
        with fpu_trace() as t:
            out = _request(ours, data, iv, True, pieces=[16 * 20, 16 * 30])
        assert out == ref.encrypt(data, iv)
        assert t.nbytes == [16 * 16, 16 * ((nblocks - 1 - 30) // 16 * 16)]


@need_avx512
def test_generic_fallback_when_simd_is_unusable():
    rng = random.Random(11)
    ours, ref = _pair(48, rng)
    with ours, ref:
        data, iv = rng.randbytes(16 * 80 + 5), rng.randbytes(16)
        with capi.simd_disabled():
            assert ours.encrypt(data, iv) == ref.encrypt(data, iv)


@need_avx512
def test_bad_keys_and_lengths():
    with capi.crypto_alloc_skcipher("xts-aria-avx512") as tfm:
        for n in (16, 33, 40, 63, 66):
            with pytest.raises(capi.CryptoError) as e:
                tfm.setkey(bytes(range(n)))
            assert e.value.errno == EINVAL and "xts-aria-avx512" in str(e.value)
        tfm.setkey(bytes(range(64)))
        for n in (0, 1, 15):
            with pytest.raises(capi.CryptoError) as e:
                tfm.encrypt(bytes(n), bytes(16))
            assert e.value.errno == EINVAL and "at least 16" in str(e.value)
        tfm.crt_flags |= capi.CRYPTO_TFM_REQ_FORBID_WEAK_KEYS
        with pytest.raises(capi.CryptoError) as e:
            tfm.setkey(bytes(32) * 2)
        assert e.value.errno == EINVAL and "equal" in str(e.value)

