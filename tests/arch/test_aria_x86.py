"""The x86 ARIA drivers (arch/x86/crypto/aria_*_glue.c, 6.1-6.15 shape):
names, priorities, sizes and /proc records; every core (16/32/64 blocks,
AES-NI and GFNI S-boxes) against the model of tests/aria_ref.py; the vectors
through every public and internal driver; remainders of every length; the
CTR counter's carry across 2^64 and 2^128; the FPU sections of the ECB and
CTR walks; and the self-test manager's full tests (fuzzing against
aria-generic) on every driver.  CPU-feature masking (AES-NI S-boxes on a GFNI
CPU, ENODEV) is in test_aria_x86_cpu.py."""

import os
import random
from errno import EINVAL

import pytest

import aria_ref
import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.fpu import fpu_trace
from crypto_api.scatterlist import Scatterlist
from crypto_api.testmgr.vectors import load_json

pytestmark = pytest.mark.skipif(not IS_X86, reason="x86 only")

HAS = {
    "avx": boot_cpu_has("avx") and boot_cpu_has("aes") and boot_cpu_has("xsave_ymm"),
    "avx2": boot_cpu_has("avx2") and boot_cpu_has("aes") and boot_cpu_has("xsave_ymm"),
    "avx512": all(boot_cpu_has(f) for f in ("avx512f", "avx512vl", "avx512bw", "gfni", "xsave_zmm")),
    "gfni": boot_cpu_has("gfni"),
}
WIDTH = {"avx": 16, "avx2": 32, "avx512": 64}
PRIO = {"avx": 400, "avx2": 500, "avx512": 600}
MODULE = {"avx": "aria_aesni_avx_x86_64", "avx2": "aria_aesni_avx2_x86_64",
          "avx512": "aria_gfni_avx512_x86_64"}
NEEDS = {"avx": "AVX and AES-NI", "avx2": "AVX2 and AES-NI", "avx512": "AVX-512 F/VL/BW and GFNI"}
IMPLS = list(WIDTH)
# (impl, S-box method): the cores that exist
CORES = [("avx", "aesni"), ("avx", "gfni"), ("avx2", "aesni"), ("avx2", "gfni"), ("avx512", "gfni")]
VECTORS = load_json("aria.json")["vectors"]
INTERNAL = capi.CRYPTO_ALG_INTERNAL


def need(impl, sbox="aesni"):
    if not HAS[impl]:
        pytest.skip(f"CPU lacks {NEEDS[impl]}")
    if sbox == "gfni" and not HAS["gfni"]:
        pytest.skip("CPU lacks GFNI")


@pytest.fixture(scope="module", autouse=True)
def loaded():
    capi.request_module("aria")


def _ctx(key):
    from crypto_api.algs._aria_generic import ffi, lib
    ctx = ffi.new("struct aria_ctx *")
    assert lib.aria_set_key(ctx, key, len(key)) == 0
    return ctx


@pytest.mark.parametrize("impl,sbox", CORES)
def test_every_core_matches_the_model(impl, sbox):
    """Each wide function alone: 2 calls of ECB both ways and CTR, each key size."""
    need(impl, sbox)
    from crypto_api.arch.x86._aria import ffi, lib
    w = WIDTH[impl]
    rng = random.Random(w)
    for klen in (16, 24, 32):
        key = rng.randbytes(klen)
        ctx = _ctx(key)
        data = rng.randbytes(2 * 16 * w)
        ecb, ctr = getattr(lib, f"aria_{impl}_{sbox}_ecb"), getattr(lib, f"aria_{impl}_{sbox}_ctr")
        out = ffi.new("uint8_t[]", len(data))
        ecb(ctx, out, data, 2, 1)
        assert bytes(out) == aria_ref.ecb(key, data)
        back = ffi.new("uint8_t[]", len(data))
        ecb(ctx, back, bytes(out), 2, 0)
        assert bytes(back) == data
        iv0 = rng.randbytes(16)
        iv = ffi.new("uint8_t[16]", iv0)
        ctr(ctx, out, data, 2, iv)
        assert bytes(out) == aria_ref.ctr(key, iv0, data)
        assert int.from_bytes(bytes(iv), "big") == (int.from_bytes(iv0, "big") + 2 * w) % 2 ** 128


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("mode", ["ecb", "ctr"])
def test_names_priorities_sizes(impl, mode, proc_records):
    need(impl)
    drv = f"{mode}-aria-{impl}"
    with capi.crypto_alloc_skcipher(drv) as tfm:
        assert tfm.alg.cra_flags & capi.CRYPTO_ALG_ASYNC
        recs = proc_records()
    by = {r["driver"]: r for r in recs}
    common = {"priority": str(PRIO[impl]), "blocksize": "16" if mode == "ecb" else "1",
              "min keysize": "16", "max keysize": "32", "ivsize": "0" if mode == "ecb" else "16",
              "chunksize": "16", "type": "skcipher", "module": MODULE[impl]}
    pub, inner = by[drv], by["__" + drv]
    assert pub["name"] == f"{mode}(aria)" and inner["name"] == f"__{mode}(aria)"
    assert {k: pub[k] for k in common} == common and {k: inner[k] for k in common} == common
    assert (pub["async"], pub["internal"], inner["async"], inner["internal"]) == ("yes", "no", "no", "yes")
    assert pub["walksize"] == "16"           # the SIMD wrapper does not copy it
    assert inner["walksize"] == ("256" if (mode, impl) == ("ctr", "avx") else "16")
    assert pub["selftest"] == "passed"
    assert by[f"cryptd(__{drv})"]["priority"] == str(PRIO[impl] + 50)


def test_module_aliases():
    from crypto_api.arch.x86 import aria_aesni_avx2_glue, aria_aesni_avx_glue, aria_gfni_avx512_glue
    for mod, alias in ((aria_aesni_avx_glue, "aria-aesni-avx"), (aria_aesni_avx2_glue, "aria-aesni-avx2"),
                       (aria_gfni_avx512_glue, "aria-gfni-avx512")):
        assert set(mod.MODULE_ALIASES) == {"aria", "crypto-aria", alias, "crypto-" + alias}
    with pytest.raises(capi.CryptoError):               # an alias, not a driver name
        capi.crypto_alloc_skcipher("aria-aesni-avx")


def test_internal_algs_need_the_internal_flag():
    need("avx")
    with pytest.raises(capi.CryptoError):
        capi.crypto_alloc_skcipher("__ecb-aria-avx")
    with capi.crypto_alloc_skcipher("__ecb-aria-avx", INTERNAL, INTERNAL) as tfm:
        assert tfm.alg.cra_priority == 400


def test_best_drivers_by_priority():
    best = max((i for i in IMPLS if HAS[i]), key=PRIO.get, default=None)
    if best is None:
        pytest.skip("CPU lacks AVX and AES-NI")
    for mode in ("ecb", "ctr"):
        with capi.crypto_alloc_skcipher(f"{mode}(aria)") as tfm:   # a second lookup: every module loaded
            pass
        with capi.crypto_alloc_skcipher(f"{mode}(aria)") as tfm:
            assert tfm.alg.cra_driver_name == f"{mode}-aria-{best}"


def _drivers(mode):
    out = []
    for impl in IMPLS:
        for internal in (False, True):
            out.append(pytest.param(impl, internal, id=f"{'__' if internal else ''}{mode}-aria-{impl}"))
    return out


def _alloc(mode, impl, internal):
    need(impl)
    drv = f"{'__' if internal else ''}{mode}-aria-{impl}"
    return capi.crypto_alloc_skcipher(drv, INTERNAL, INTERNAL) if internal else capi.crypto_alloc_skcipher(drv)


@pytest.mark.parametrize("impl,internal", _drivers("ecb"))
def test_ecb_vectors(impl, internal):
    with _alloc("ecb", impl, internal) as tfm:
        for v in (v for v in VECTORS if v["mode"] == "block"):
            key, pt, ct = (bytes.fromhex(v[k]) for k in ("key", "plaintext", "ciphertext"))
            tfm.setkey(key)
            assert tfm.encrypt(pt) == ct and tfm.decrypt(ct) == pt


@pytest.mark.parametrize("impl,internal", _drivers("ctr"))
def test_ctr_vectors(impl, internal):
    with _alloc("ctr", impl, internal) as tfm:
        for v in (v for v in VECTORS if v["mode"] == "ctr"):
            key, iv, pt, ct = (bytes.fromhex(v[k]) for k in ("key", "iv", "plaintext", "ciphertext"))
            tfm.setkey(key)
            assert tfm.encrypt(pt, iv) == ct and tfm.decrypt(ct, iv) == pt


def _request(tfm, data, iv, pieces=None):
    """A request over src/dst scatterlists (split at ``pieces`` offsets), run
    to completion; returns (dst bytes, iv after)."""
    cuts = [0] + sorted(pieces or []) + [len(data)]
    src = [Scatterlist(memoryview(bytearray(data[a:b])), 0, b - a) for a, b in zip(cuts, cuts[1:]) if b > a]
    out = bytearray(len(data))
    dst = [Scatterlist(memoryview(out), 0, len(data))] if data else []
    req = capi.SkcipherRequest(tfm, src, dst, len(data), bytearray(iv) if iv is not None else None)
    assert capi.crypto_skcipher_encrypt(req) == 0
    return bytes(out), req.iv


@pytest.mark.parametrize("impl", IMPLS)
def test_ecb_every_remainder(impl):
    """Block counts 0..2*width+ (every remainder below the width), one-call
    path and request path (the FPU trace makes tfm.encrypt take it)."""
    w = WIDTH[impl]
    rng = random.Random(impl)
    key = rng.randbytes(32)
    with _alloc("ecb", impl, True) as tfm:
        tfm.setkey(key)
        for nblocks in range(1, 2 * w + 2):
            data = rng.randbytes(16 * nblocks)
            want = aria_ref.ecb(key, data)
            assert tfm.encrypt(data) == want, nblocks
            with fpu_trace():
                assert tfm.encrypt(data) == want, nblocks
                assert tfm.decrypt(want) == data, nblocks


@pytest.mark.parametrize("impl", IMPLS)
def test_ctr_every_remainder(impl):
    """Lengths 1..(2*width+1) blocks plus every partial tail, both paths, and
    the IV the request leaves: IV + ceil(len / 16)."""
    w = WIDTH[impl]
    rng = random.Random(impl + "ctr")
    key = rng.randbytes(24)
    with _alloc("ctr", impl, True) as tfm:
        tfm.setkey(key)
        for n in list(range(1, 40)) + [16 * b + t for b in range(w - 2, 2 * w + 2) for t in (0, 1, 15)]:
            data, iv = rng.randbytes(n), rng.randbytes(16)
            want = aria_ref.ctr(key, iv, data)
            assert tfm.encrypt(data, iv) == want, n
            with fpu_trace():
                out, iv_out = _request(tfm, data, iv)
            assert out == want, n
            assert int.from_bytes(iv_out, "big") == (int.from_bytes(iv, "big") + -(-n // 16)) % 2 ** 128


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("start", [2 ** 64 - 5, 2 ** 128 - 7, 2 ** 96 - 1])
def test_ctr_counter_carries(impl, start):
    """The counter is one 128-bit big-endian integer: carries across the low
    64 bits and wraps at 2^128, inside a wide call and at its edges."""
    w = WIDTH[impl]
    key = bytes(range(16))
    iv = start.to_bytes(16, "big")
    data = bytes(range(256)) * (w // 4) + b"tail!"
    want = aria_ref.ctr(key, iv, data)
    with _alloc("ctr", impl, False) as tfm:
        tfm.setkey(key)
        assert tfm.encrypt(data, iv) == want
        with fpu_trace():
            out, iv_out = _request(tfm, data, iv)
        assert out == want
        assert iv_out == ((start + -(-len(data) // 16)) % 2 ** 128).to_bytes(16, "big")


@pytest.mark.parametrize("impl", IMPLS)
def test_ecb_one_fpu_section_per_walk_step(impl):
    """ECB: one section per walk step holding >= 16 blocks, around all its
    wide calls; the remainder (and a step under 16 blocks) outside."""
    w = WIDTH[impl]
    key = os.urandom(16)
    with _alloc("ecb", impl, True) as tfm:
        tfm.setkey(key)
        nblocks = 2 * w + 15
        data = os.urandom(16 * nblocks)
        with fpu_trace() as t:
            out, _ = _request(tfm, data, None)
        assert out == aria_ref.ecb(key, data)
        assert t.nbytes == [16 * (nblocks - 15)]
        with fpu_trace() as t:
            _request(tfm, data[:16 * 15], None)
        assert t.nbytes == []
        # three walk steps (scatterlist pieces): a section for each big one
        with fpu_trace() as t:
            out, _ = _request(tfm, data, None, pieces=[16 * 20, 16 * 30])
        assert out == aria_ref.ecb(key, data)
        widths = [x for x in (64, 32, 16) if x <= w]

        def wide(n):
            done = 0
            for x in widths:
                done += (n - done) // x * x
            return 16 * done
        assert t.nbytes == [wide(20), wide(nblocks - 30)]


@pytest.mark.parametrize("impl", IMPLS)
def test_ctr_one_fpu_section_per_wide_call(impl):
    w = WIDTH[impl]
    key = os.urandom(16)
    with _alloc("ctr", impl, True) as tfm:
        tfm.setkey(key)
        n = 16 * (3 * w + 16 + 5) + 7          # avx512: 64, 64, 64, 32 (no), 16, ...
        data, iv = os.urandom(n), os.urandom(16)
        with fpu_trace() as t:
            out, _ = _request(tfm, data, iv)
        assert out == aria_ref.ctr(key, iv, data)
        sizes, left = [], n
        for x in [x for x in (64, 32, 16) if x <= w]:
            while left >= 16 * x:
                sizes.append(16 * x)
                left -= 16 * x
        assert t.nbytes == sizes


def test_ctr_avx_walksize_bounces_across_pieces():
    """__ctr-aria-avx's walksize 256: a scatterlist split inside 16 blocks is
    bounced so the 16-way call still runs (the wider drivers go generic)."""
    need("avx")
    key, iv = os.urandom(16), os.urandom(16)
    data = os.urandom(512)
    with _alloc("ctr", "avx", True) as tfm:
        tfm.setkey(key)
        with fpu_trace() as t:
            out, _ = _request(tfm, data, iv, pieces=[100])
        assert out == aria_ref.ctr(key, iv, data)
        assert t.nbytes == [256, 256]


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("mode", ["ecb", "ctr"])
def test_bad_keys_and_lengths(impl, mode):
    with _alloc(mode, impl, False) as tfm:
        with pytest.raises(capi.CryptoError) as e:
            tfm.setkey(bytes(20))
        assert e.value.errno == EINVAL and f"{mode}-aria-{impl}" in str(e.value)
        if mode == "ecb":
            tfm.setkey(bytes(16))
            with pytest.raises(capi.CryptoError) as e:
                tfm.encrypt(bytes(17))
            assert e.value.errno == EINVAL


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("mode", ["ecb", "ctr"])
def test_full_selftests(impl, mode, selftest_level):
    """The self-test manager's full tests (vectors, random configs, fuzzing
    against aria-generic up to 8 KiB) pass on the public driver."""
    need(impl)
    selftest_level("full")
    assert capi.testmgr.alg_test(f"{mode}-aria-{impl}", f"{mode}(aria)") == 0
