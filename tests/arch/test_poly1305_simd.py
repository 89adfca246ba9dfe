"""Tests of poly1305-simd (v5.0's arch/x86/crypto/poly1305_glue.c): the SSE2
two-block and AVX2 four-block radix-2^26 block code, its update rules and FPU
sections, and the driver as users get it; the radix-2^44 AVX-512 IFMA
block code (a project addition beyond the kernel) where the CPU has it,
forced on and off.

The block functions are checked against a pure-Python Poly1305 written from
RFC 8439, at every block count around the 2/4-block boundaries and on the
inputs that push the 26-bit limbs hardest; the driver against the
``cryptography`` package's Poly1305, the poly1305.json vectors and the
self-test manager.  The SSE2-only build of the driver is checked in a fresh
interpreter with AVX2 masked, as the kernel's boot_cpu_has() would report it.
"""
import json
import os
import pathlib
import random
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.poly1305 import Poly1305
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.errors import ENOKEY
from shash_pieces import digest_in_pieces

pytestmark = pytest.mark.skipif(not IS_X86 or not boot_cpu_has("sse2"), reason="x86_64 with SSE2 only")

if IS_X86:
    from crypto_api.arch.x86._poly1305_simd import ffi, lib

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"
POLY_VECTORS = json.loads((VECTORS / "poly1305.json").read_text())["vectors"]
P = (1 << 130) - 5
CLAMP = 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
M128 = (1 << 128) - 1
HAS_AVX2 = boot_cpu_has("avx") and boot_cpu_has("avx2") and boot_cpu_has("xsave_ymm")
HAS_IFMA = HAS_AVX2 and all(boot_cpu_has(f) for f in ("avx512f", "avx512ifma", "xsave_zmm"))
ISAS = [0, 1] + ([2] if HAS_AVX2 else []) + ([3] if HAS_IFMA else [])   # scalar, SSE2, AVX2, IFMA
ISA_IDS = {0: "scalar", 1: "sse2", 2: "avx2", 3: "ifma"}


def ref_poly(raw_r, msg):
    """Poly1305 of whole blocks (hibit 1) without "+ s"."""
    r = int.from_bytes(raw_r, "little") & CLAMP
    h = 0
    for i in range(0, len(msg), 16):
        h = (h + int.from_bytes(msg[i:i + 16], "little") + (1 << 128)) * r % P
    return (h & M128).to_bytes(16, "little")


def peer(key, msg):
    return Poly1305.generate_tag(key, msg)


def c_hash(raw_r, msg, isa):
    out = ffi.new("uint8_t[16]")
    lib.poly1305_simd_hash(raw_r, msg, len(msg) // 16, isa, out)
    return bytes(ffi.buffer(out))


def c_digest(data, isa):
    out = ffi.new("char[16]")
    assert lib.poly1305_simd_digest_bytes(data, len(data), out, isa) == 0
    return bytes(ffi.buffer(out))


# ------------------------------------------------------------ block code


@pytest.mark.parametrize("isa", ISAS, ids=ISA_IDS.get)
def test_blocks_every_count_to_40(isa):
    """0..40 blocks: whole 2- and 4-block steps plus every leftover."""
    rng = random.Random(isa)
    for n in range(41):
        raw_r, msg = rng.randbytes(16), rng.randbytes(16 * n)
        assert c_hash(raw_r, msg, isa) == ref_poly(raw_r, msg), n


@pytest.mark.parametrize("isa", ISAS, ids=ISA_IDS.get)
@pytest.mark.parametrize("fill", [0x00, 0xFF])
def test_blocks_extreme_inputs(isa, fill):
    """All-ones key bits and blocks give the largest limbs and products."""
    for raw_r in (b"\xff" * 16, bytes(16), bytes([1]) + bytes(15)):
        for n in (1, 2, 3, 4, 5, 8, 63, 64, 65, 1000):
            msg = bytes([fill]) * (16 * n)
            assert c_hash(raw_r, msg, isa) == ref_poly(raw_r, msg), (raw_r.hex(), n)


@pytest.mark.parametrize("isa", ISAS, ids=ISA_IDS.get)
@settings(max_examples=150, deadline=None)
@given(raw_r=st.binary(min_size=16, max_size=16), msg=st.binary(max_size=16 * 70))
def test_blocks_hypothesis(isa, raw_r, msg):
    msg = msg[:len(msg) - len(msg) % 16]
    assert c_hash(raw_r, msg, isa) == ref_poly(raw_r, msg)


@pytest.mark.parametrize("isa", ISAS, ids=ISA_IDS.get)
def test_c_digest_every_length_to_700(isa):
    rng = random.Random(10 + isa)
    for n in range(700):
        key, msg = rng.randbytes(32), rng.randbytes(n)
        assert c_digest(key + msg, isa) == peer(key, msg), n


def test_c_digest_key_incomplete_is_enokey():
    out = ffi.new("char[16]")
    for isa in ISAS:
        for n in (0, 1, 16, 31):
            assert lib.poly1305_simd_digest_bytes(bytes(n), n, out, isa) == -ENOKEY


# ------------------------------------------------------------ IFMA (beyond the kernel)

needs_ifma = pytest.mark.skipif(not HAS_IFMA, reason="CPU lacks AVX-512F or AVX512_IFMA, or OS ZMM state")


@needs_ifma
def test_ifma_random_lengths_every_residue():
    """The C digest with the IFMA code forced on (isa 3) and off (isa 2) at
    random lengths to 8 KiB, one for every length mod 256 (so every length
    mod 16 and mod the 16-block step), against cryptography."""
    rng = random.Random(31)
    for res in range(256):
        n = 256 * rng.randrange(0, 33) + res
        key, msg = rng.randbytes(32), rng.randbytes(n)
        want = peer(key, msg)
        assert c_digest(key + msg, 3) == want, n
        assert c_digest(key + msg, 2) == want, n


@needs_ifma
@pytest.mark.parametrize("n", [65536, 65536 + 13, 1 << 20, (1 << 20) + 255])
def test_ifma_large(n):
    rng = random.Random(n)
    key, msg = rng.randbytes(32), rng.randbytes(n)
    assert c_digest(key + msg, 3) == peer(key, msg)


@needs_ifma
def test_ifma_split_updates_at_odd_places(tfm):
    """The driver as loaded here runs the IFMA code: updates cut at odd
    offsets, each long one starting mid-block, give cryptography's tag."""
    from crypto_api.arch.x86 import poly1305_glue
    assert poly1305_glue.impl.name == "avx512ifma"
    rng = random.Random(33)
    for _ in range(80):
        key, msg = rng.randbytes(32), rng.randbytes(rng.randrange(0, 9000))
        cuts = sorted(rng.randrange(0, len(msg) + 32) | 1 for _ in range(rng.randrange(1, 6)))
        assert digest_in_pieces(tfm, key + msg, cuts) == peer(key, msg)


# ------------------------------------------------------------ driver


@pytest.fixture(scope="module")
def tfm():
    capi.load_all()
    with capi.crypto_alloc_shash("poly1305") as t:
        yield t


def test_poly1305_resolves_to_simd(tfm):
    """v5.0 priorities: poly1305-simd 300 over poly1305-x86_64 200 and generic 100."""
    assert tfm.driver_name == "poly1305-simd"
    assert tfm.alg.cra_priority == 300
    with capi.crypto_alloc_shash("poly1305-x86_64") as t:
        assert t.alg.cra_priority == 200
    with capi.crypto_alloc_shash("poly1305-generic") as t:
        assert t.alg.cra_priority == 100


def test_module_aliases():
    from crypto_api.arch.x86 import poly1305_glue
    assert poly1305_glue.MODULE_NAME == "poly1305_x86_64"
    for name in ("poly1305", "crypto-poly1305", "poly1305-simd", "crypto-poly1305-simd"):
        assert name in poly1305_glue.MODULE_ALIASES


def test_selftest_manager_passes():
    assert capi.testmgr.alg_test("poly1305-simd", "poly1305") == 0


@pytest.mark.parametrize("vec", POLY_VECTORS, ids=lambda v: v["id"])
def test_vectors_every_buffer_kind(tfm, vec):
    data, tag = bytes.fromhex(vec["kernel_plaintext"]), bytes.fromhex(vec["digest"])
    for buf in (data, bytearray(data), memoryview(data)):
        assert tfm.digest(buf) == tag
    assert tfm.desc().digest(data) == tag
    with capi.simd_disabled():
        assert tfm.digest(data) == tag


def test_every_length_around_the_simd_threshold(tfm):
    """Updates of 288 bytes or less are generic, longer ones SIMD: lengths
    on both sides, with 2- and 4-block leftovers of every size."""
    rng = random.Random(3)
    for n in range(200, 420):
        key, msg = rng.randbytes(32), rng.randbytes(n)
        assert tfm.digest(key + msg) == peer(key, msg), n
        d = tfm.desc().init()
        d.update(key + msg)
        assert d.final() == peer(key, msg), n


@settings(max_examples=200, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), msg=st.binary(max_size=3000),
       cuts=st.lists(st.integers(0, 3032), max_size=6))
def test_split_updates_hypothesis(tfm, key, msg, cuts):
    """Any split of key ‖ message into updates (short ones generic, long
    ones SIMD, on one descriptor) gives cryptography's tag."""
    data = key + msg
    assert digest_in_pieces(tfm, data, cuts) == peer(key, msg)


def test_export_import_midway(tfm):
    """The raw descriptor (with r^2..r^4 cached) carries over."""
    rng = random.Random(4)
    key, msg = rng.randbytes(32), rng.randbytes(5000)
    d = tfm.desc().init()
    d.update(key + msg[:1003])
    state = d.export()
    d2 = tfm.desc().init()
    d2.import_(state)
    d2.update(msg[1003:])
    assert d2.final() == peer(key, msg)


def test_short_input_is_enokey(tfm):
    for n in (0, 1, 16, 31):
        with pytest.raises(capi.CryptoError) as e:
            tfm.digest(bytes(n))
        assert e.value.errno == ENOKEY and "poly1305-simd" in str(e.value)


# ------------------------------------------------------------ FPU sections


def test_fpu_one_section_per_long_update(tfm):
    """v5.0: an update above 288 bytes is one section, whatever its length;
    shorter updates and final use no FPU."""
    rng = random.Random(5)
    key = rng.randbytes(32)
    sizes = [288, 289, 10, 4096, 65536, 100, 8193]
    data = [rng.randbytes(n) for n in sizes]
    with capi.fpu_trace() as tr:
        d = tfm.desc().init()
        d.update(key)
        for chunk in data:
            d.update(chunk)
        tag = d.final()
    assert tag == peer(key, b"".join(data))
    assert tr.nbytes == [n for n in sizes if n > 288]
    assert all(s.closed for s in tr.sections)


def test_fpu_digest_is_one_section(tfm):
    rng = random.Random(6)
    for n in (0, 256, 257, 1 << 16):
        data = rng.randbytes(32 + n)
        with capi.fpu_trace() as tr:
            tag = tfm.digest(data)
        assert tag == peer(data[:32], data[32:])
        assert tr.nbytes == ([32 + n] if 32 + n > 288 else []), n


def test_fpu_none_when_simd_unusable(tfm):
    rng = random.Random(7)
    data = rng.randbytes(10000)
    for ctx in (capi.simd_disabled, capi.interrupt_context):
        with capi.fpu_trace() as tr, ctx():
            d = tfm.desc().init()
            d.update(data)
            assert d.final() == peer(data[:32], data[32:])
            assert tfm.digest(data) == peer(data[:32], data[32:])
        assert tr.sections == [], ctx


def test_fpu_not_left_open_on_bad_buffer(tfm):
    d = tfm.desc().init()
    with pytest.raises(TypeError):
        d.update("not bytes" * 100)
    assert not capi.in_kernel_fpu()


# ------------------------------------------------------------ CPU features

PROBE = r"""
import json, random, crypto_api as capi
from cryptography.hazmat.primitives.poly1305 import Poly1305
from crypto_api.arch.x86 import poly1305_glue
res = capi.load_all()
drivers = [a.cra_driver_name for a in capi.registry.snapshot()]
ok = None
if "poly1305-simd" in drivers:
    rng = random.Random(8)
    with capi.crypto_alloc_shash("poly1305-simd") as t:
        ok = all(t.digest(k + m) == Poly1305.generate_tag(k, m)
                 for k, m in ((rng.randbytes(32), rng.randbytes(n)) for n in range(250, 700, 7)))
print(json.dumps({"error": getattr(res.get("poly1305_x86_64"), "errno", None), "drivers": drivers,
                  "impl": poly1305_glue.impl.name, "ok": ok}))
"""


def probe(mask: str) -> dict:
    env = dict(os.environ, CRYPTO_API_CPU_MASK=mask, CRYPTO_API_SELFTESTS="off")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_avx2_masked_uses_sse2():
    r = probe("avx2")
    assert r["impl"] == "sse2" and r["ok"] is True
    if HAS_AVX2:
        assert probe("")["impl"] == ("avx512ifma" if HAS_IFMA else "avx2")


@pytest.mark.parametrize("mask", ["avx512ifma", "avx512f", "xsave_zmm"])
def test_ifma_masked_uses_avx2(mask):
    """The IFMA path forced off (the feature, AVX-512F or the OS's ZMM state
    masked): AVX2, with the same tags."""
    if not HAS_AVX2:
        pytest.skip("the CPU lacks AVX2")
    r = probe(mask)
    assert r["impl"] == "avx2" and r["ok"] is True


def test_sse2_masked_no_module():
    r = probe("sse2")
    assert r["error"] == 19                      # ENODEV, nothing registered
    assert "poly1305-simd" not in r["drivers"]
    assert "poly1305-generic" in r["drivers"]
