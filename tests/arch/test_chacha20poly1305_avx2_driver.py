"""The one-pass AVX2 ChaCha20-Poly1305 AEADs (arch/x86/chacha20poly1305_glue.py):
``rfc7539-chacha20poly1305-avx2`` and ``rfc7539esp-chacha20poly1305-avx2``.

Beyond the kernel (which has no such driver): they answer
``rfc7539(chacha20,poly1305)`` / ``rfc7539esp(chacha20,poly1305)`` at priority
400 over the template instance, whose v5.0 children stay chacha20-simd and
poly1305-simd.  Checked: the official vectors both ways, cryptography's
ChaCha20Poly1305 over random lengths and scatterlist layouts, every EBADMSG
path (no plaintext left in dst), the refusals, one FPU section per request
and the fallback (no FPU) when SIMD is unusable, the self-test manager at
the default and the full level (fuzzing against the generic instance), and
module init on a CPU without AVX2.
"""
import array
import contextlib
import json
import os
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.errors import EBADMSG, EINVAL
from crypto_api.testmgr.vectors import load_json
from aead_vectors import check_vector
from drawn_bytes import exactly
from sglayout import gather, layouts, outside, scatter

HAS_AVX2 = all(boot_cpu_has(f) for f in ("avx", "avx2", "bmi2", "xsave_ymm"))   # what the driver needs
pytestmark = pytest.mark.skipif(not HAS_AVX2, reason="CPU lacks AVX2 or BMI2, or OS YMM state")

VECTORS = load_json("rfc7539-chacha20poly1305.json")["vectors"]
RFC = "rfc7539(chacha20,poly1305)"
ESP = "rfc7539esp(chacha20,poly1305)"
DRIVERS = {RFC: "rfc7539-chacha20poly1305-avx2", ESP: "rfc7539esp-chacha20poly1305-avx2"}


@pytest.fixture(scope="module")
def tfms():
    capi.load_all()
    out = {name: capi.crypto_alloc_aead(name) for name in (RFC, ESP)}
    yield out
    for t in out.values():
        t.free()


def request(tfm, src, dst, cryptlen, assoclen, iv):
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_callback(req, 0, None, None)
    capi.aead_request_set_crypt(req, src, dst, cryptlen, iv)
    capi.aead_request_set_ad(req, assoclen)
    return req


def test_names_and_priorities(tfms):
    for name, driver in DRIVERS.items():
        assert tfms[name].driver_name == driver
        assert tfms[name].alg.cra_priority == 400
        assert (tfms[name].ivsize, tfms[name].maxauthsize) == ((12 if name == RFC else 8), 16)
        # the template instance below it: v5.0's resolution, (300 + 300) // 2
        with capi.crypto_alloc_aead(name, 0, capi.CRYPTO_ALG_NEED_FALLBACK) as t:
            tmpl = name.split("(")[0]
            assert t.driver_name == f"{tmpl}(chacha20-simd,poly1305-simd)"
            assert t.alg.cra_priority == 300


def test_proc_records(tfms, proc_records):
    recs = {r["driver"]: r for r in proc_records()}
    for name, driver in DRIVERS.items():
        r = recs[driver]
        assert (r["name"], r["module"], r["priority"], r["type"], r["async"], r["blocksize"],
                r["ivsize"], r["maxauthsize"], r["selftest"]) == \
            (name, "chacha20poly1305_avx2", "400", "aead", "no", "1", "12" if name == RFC else "8",
             "16", "passed")


@pytest.mark.parametrize("vec", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vectors_both_ways(tfms, vec):
    check_vector(tfms[vec["kernel_alg"]], vec)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=exactly(32), nonce=exactly(12), ad=st.binary(max_size=2000), pt=st.binary(max_size=2000),
       data=st.data())
def test_matches_cryptography_over_random_lengths_and_layouts(tfms, key, nonce, ad, pt, data):
    tfm = tfms[RFC]
    tfm.setkey(key)
    ref = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
    assert tfm.encrypt(pt, nonce, ad) == ref
    assert tfm.decrypt(ref, nonce, ad) == pt
    for encrypt, inp, out in ((True, pt, ref), (False, ref, pt)):
        src_layout = data.draw(layouts(len(ad) + len(inp)))
        dst_layout = data.draw(layouts(len(ad) + len(out)))
        src, sbufs = scatter(ad + inp, src_layout, b"\x5a")
        dst, dbufs = scatter(bytes(len(ad) + len(out)), dst_layout, b"\xa5")
        around = outside(dbufs, dst_layout)
        req = request(tfm, src, dst, len(inp), len(ad), bytearray(nonce))
        assert (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(req) == 0
        assert gather(dbufs, dst_layout) == bytes(len(ad)) + out      # AD region untouched
        assert outside(dbufs, dst_layout) == around
        assert gather(sbufs, src_layout) == ad + inp


@pytest.mark.parametrize("n", [64, 512, 4096, 65536, 1 << 20])
def test_large_in_place_requests(tfms, n):
    key, nonce, ad, pt = os.urandom(32), os.urandom(12), os.urandom(13), os.urandom(n)
    tfm = tfms[RFC]
    tfm.setkey(key)
    buf = bytearray(ad + pt + bytes(16))
    sg = capi.sg_init_one(buf)
    assert capi.crypto_aead_encrypt(request(tfm, sg, sg, n, len(ad), bytearray(nonce))) == 0
    assert bytes(buf[len(ad):]) == ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
    assert capi.crypto_aead_decrypt(request(tfm, sg, sg, n + 16, len(ad), bytearray(nonce))) == 0
    assert bytes(buf[len(ad):len(ad) + n]) == pt
    sealed = tfm.encrypt(pt, nonce, ad)                      # the one-call path, long results direct
    assert sealed == ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
    assert tfm.decrypt(sealed, nonce, ad) == pt
    with pytest.raises(capi.CryptoError) as e:
        tfm.decrypt(sealed[:-1] + bytes([sealed[-1] ^ 1]), nonce, ad)
    assert e.value.errno == EBADMSG


@pytest.mark.parametrize("part", ["tag", "text", "assoc"])
def test_tampering_is_ebadmsg_and_leaves_no_plaintext(tfms, part):
    key, nonce, ad, pt = os.urandom(32), os.urandom(12), os.urandom(40), os.urandom(700)
    tfm = tfms[RFC]
    tfm.setkey(key)
    ct = bytearray(tfm.encrypt(pt, nonce, ad))
    ad = bytearray(ad)
    {"tag": ct, "text": ct, "assoc": ad}[part][{"tag": -1, "text": 5, "assoc": 3}[part]] ^= 0x10
    with pytest.raises(capi.CryptoError) as e:
        tfm.decrypt(ct, nonce, ad)
    assert e.value.errno == EBADMSG
    src = bytearray(ad + ct)
    dst = bytearray(b"\xee" * (len(ad) + len(pt)))
    req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(dst), len(ct), len(ad), bytearray(nonce))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_aead_decrypt(req)
    assert e.value.errno == EBADMSG and DRIVERS[RFC] in e.value.message
    assert bytes(dst) == b"\xee" * len(ad) + bytes(len(pt))     # zeros, not plaintext


def test_refusals(tfms):
    for name, good in ((RFC, 32), (ESP, 36)):
        tfm = tfms[name]
        for n in (0, 16, 31, 33, 35, 37):
            if n != good:
                with pytest.raises(capi.CryptoError) as e:
                    tfm.setkey(bytes(n))
                assert e.value.errno == EINVAL and DRIVERS[name] in e.value.message
        tfm.setkey(bytes(good))
        for size in (0, 4, 8, 12, 15):
            with pytest.raises(capi.CryptoError) as e:
                tfm.setauthsize(size)
            assert e.value.errno == EINVAL
        tfm.setauthsize(16)
    tfm = tfms[ESP]
    src = bytearray(7 + 20)
    dst = bytearray(b"\xee" * (7 + 36))
    for ctx in (contextlib.nullcontext, capi.simd_disabled, capi.interrupt_context):
        req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(dst), 20, 7, bytearray(8))
        with ctx(), pytest.raises(capi.CryptoError) as e:
            capi.crypto_aead_encrypt(req)
        assert e.value.errno == EINVAL and "assoclen 7" in e.value.message
        assert dst == bytearray(b"\xee" * (7 + 36))       # refused before writing anything


def test_one_fpu_section_per_request_and_none_without_simd(tfms):
    key, nonce, ad, pt = os.urandom(32), os.urandom(12), os.urandom(20), os.urandom(9000)
    tfm = tfms[RFC]
    tfm.setkey(key)
    ref = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
    with capi.fpu_trace() as tr:
        assert tfm.encrypt(pt, nonce, ad) == ref
        assert tfm.decrypt(ref, nonce, ad) == pt
    assert tr.nbytes == [20 + 9000, 20 + 9000]
    for ctx in (capi.simd_disabled, capi.interrupt_context):
        with capi.fpu_trace() as tr, ctx():
            assert tfm.encrypt(pt, nonce, ad) == ref        # the template instance, generic paths
            assert tfm.decrypt(ref, nonce, ad) == pt
        assert tr.sections == []


@pytest.fixture
def entry():
    """The direct path: the C entry point (crypto_api/aead_call.h), where
    built; else there is none.  Made at setkey, which the tests below call."""
    from crypto_api import direct as direct_path
    if direct_path._aead_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    return "c"


def test_the_one_call_fast_path(tfms, entry):
    """Built at setkey, taken for any C-contiguous buffers when SIMD is
    usable and untraced, declined otherwise; a bad tag raises EBADMSG from
    it too."""
    for name in (RFC, ESP):
        tfm = tfms[name]
        key, iv, ad, pt = os.urandom(36 if name == ESP else 32), os.urandom(tfm.ivsize), os.urandom(24), \
            os.urandom(1000)
        tfm.setkey(key)
        assert (type(tfm._direct_enc).__name__ == "builtin_function_or_method") == (entry == "c")
        nonce = key[32:] + iv
        ref = ChaCha20Poly1305(key[:32]).encrypt(nonce, pt, ad[:-8] if name == ESP else ad)
        assert tfm._direct_enc(pt, iv, ad, None) == ref
        assert tfm._direct_dec(ref, iv, bytearray(ad), None) == pt
        with capi.simd_disabled():
            assert tfm._direct_enc(pt, iv, ad, None) is None
        with capi.fpu_trace():
            assert tfm._direct_enc(pt, iv, ad, None) is None
        assert tfm._direct_enc(pt, iv[:-1], ad, None) is None
        assert tfm._direct_enc(pt, None, ad, None) is None
        assert tfm._direct_enc("x" * 1000, iv, ad, None) is None
        _buffer_shapes(tfm, iv, ad, pt, ref)
        bad = bytearray(ref)
        bad[0] ^= 1
        with pytest.raises(capi.CryptoError) as e:
            tfm._direct_dec(bytes(bad), iv, ad, None)
        assert e.value.errno == EBADMSG
    assert tfms[ESP]._direct_enc(pt, iv, ad[:7], None) is None        # EINVAL is the request path's


def _buffer_shapes(tfm, iv, ad, pt, ref):
    """Any C-contiguous buffers are taken, ``out`` among them; an ``out``
    sharing memory with the data or the AD is declined, and the full path
    (through a private buffer) gives the same bytes."""
    n = len(pt)
    assert tfm._direct_enc(memoryview(pt), memoryview(iv), array.array("B", ad), None) == ref
    assert tfm._direct_dec(memoryview(bytearray(ref)), bytearray(iv), memoryview(ad), None) == pt
    buf = bytearray(3 + n + 16 + 5)
    out = memoryview(buf)[3:3 + n + 16]                 # a record inside a larger buffer
    assert tfm._direct_enc(pt, iv, ad, out) is out and bytes(out) == ref
    assert buf[:3] == bytes(3) and buf[3 + n + 16:] == bytes(5)
    back = memoryview(bytearray(n))
    assert tfm._direct_dec(out, iv, ad, back) is back and bytes(back) == pt
    bad = bytearray(ref)
    bad[-1] ^= 1
    untouched = array.array("B", b"\x5a" * n)
    with pytest.raises(capi.CryptoError) as e:
        tfm._direct_dec(memoryview(bad), iv, ad, untouched)
    assert e.value.errno == EBADMSG and untouched.tobytes() == b"\x5a" * n
    # in place: the text at the start of out, the tag after it
    whole = bytearray(pt + bytes(16))
    text, out = memoryview(whole)[:n], memoryview(whole)
    assert tfm._direct_enc(text, iv, ad, out) is None
    assert tfm.encrypt(text, iv, ad, out=out) is out and bytes(whole) == ref
    whole = bytearray(ref)
    assert tfm._direct_dec(memoryview(whole), iv, ad, memoryview(whole)[:n]) is None
    assert bytes(tfm.decrypt(memoryview(whole), iv, ad, out=memoryview(whole)[:n])) == pt
    both = bytearray(ad + pt + bytes(16))                # out over the AD's bytes
    a, t = memoryview(both)[:len(ad)], memoryview(both)[len(ad):len(ad) + n]
    assert tfm._direct_enc(t, iv, a, memoryview(both)[2:2 + n + 16]) is None
    assert tfm._direct_enc(pt, iv, ad, memoryview(bytes(n + 16))) is None     # read-only out


@pytest.mark.parametrize("level", ["fast", "full"])
def test_selftest_manager(level, selftest_level):
    selftest_level(level)
    for name, driver in DRIVERS.items():
        assert capi.testmgr.alg_test(driver, name) == 0


PROBE = r"""
import json, crypto_api as capi
res = capi.load_all()
with capi.crypto_alloc_aead("rfc7539(chacha20,poly1305)") as t:
    got = [t.driver_name, t.alg.cra_priority]
print(json.dumps({"error": getattr(res.get("chacha20poly1305_avx2"), "errno", None), "rfc7539": got}))
"""


@pytest.mark.parametrize("missing", ["avx2", "bmi2"])
def test_without_avx2_the_template_answers(missing):
    """Without AVX2, or without BMI2 (the stitched Poly1305's mulx): ENODEV."""
    env = dict(os.environ, CRYPTO_API_CPU_MASK=missing, CRYPTO_API_SELFTESTS="off")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["error"] == 19                                 # ENODEV
    assert r["rfc7539"] == ["rfc7539(chacha20-simd,poly1305-simd)", 300]


def test_core_form_follows_the_cpu_features():
    """The core's form: AVX-512 with the IFMA Poly1305 where the CPU has
    AVX512_IFMA, the plain AVX-512 one with it masked, AVX2 with AVX-512F
    masked (the IFMA path forced off as boot_cpu_has would report it)."""
    from crypto_api.arch.x86.chacha20poly1305_glue import core_isa
    from crypto_api.arch.x86.cpufeature import masked_features
    avx512 = all(boot_cpu_has(f) for f in ("avx512f", "avx512vl", "avx512bw", "xsave_zmm"))
    want = ("avx512ifma" if boot_cpu_has("avx512ifma") else "avx512") if avx512 else "avx2"
    assert core_isa() == want
    with masked_features("avx512ifma"):
        assert core_isa() == ("avx512" if avx512 else "avx2")
    with masked_features("avx512f"):
        assert core_isa() == "avx2"


@pytest.mark.parametrize("n", [4095, 4096, 65536 + 7, 1 << 20])
def test_long_texts_direct_and_request_path(tfms, n):
    """Texts on both sides of the IFMA sweep's 4 KiB threshold through
    tfm.encrypt/decrypt (the direct path) and a request, against cryptography."""
    rng = os.urandom
    key, nonce, ad, pt = rng(32), rng(12), rng(8), rng(n)
    tfm = tfms[RFC]
    tfm.setkey(key)
    want = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
    assert tfm.encrypt(pt, nonce, ad) == want
    assert tfm.decrypt(want, nonce, ad) == pt
    buf = bytearray(ad + pt + bytes(16))
    sg = capi.sg_init_one(buf)
    capi.crypto_aead_encrypt(request(tfm, sg, sg, n, len(ad), nonce))
    assert bytes(buf[len(ad):]) == want
