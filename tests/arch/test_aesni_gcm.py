"""The x86 AES-NI GCM AEADs (arch/x86/aesni_gcm_glue.py, aesni_gcm_wrapper.py,
aesni_gcm.c): ``generic-gcm-aesni`` (gcm(aes)) and ``rfc4106-gcm-aesni``
(rfc4106(gcm(aes))), 400, over their internal ``__generic-gcm-aesni`` /
``__rfc4106-gcm-aesni`` (the composite registry's form, 5.4-6.15's; the
later generations are tests/arch/test_aesni_gcm_generations.py).

Checked: the NIST CAVP and kernel vectors both ways; cryptography's AESGCM
over random keys, lengths, AD, tag lengths and scatterlist layouts (in place
and out of place, misaligned views); each of the C core's four forms on
its own where the CPU has it; EBADMSG on the request path (the kernel's
rule: plaintext left in dst) and on the direct path (nothing released);
every refusal with gcm.py's errno; one FPU section per request, cryptd when
SIMD is unusable; the self-test manager at the full level (fuzzing against
the generic gcm_base); rfc4543 over generic-gcm-aesni (the kernel has no
AES-NI rfc4543: the template's instance over this driver) with its vectors
and the self-test manager; module init without PCLMULQDQ and on a CPU without
VAES; the kernel-version rows.
"""
import array
import json
import os
from errno import EINPROGRESS
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.errors import EBADMSG, EINVAL
from crypto_api.testmgr.vectors import load_json
from aead_vectors import check_vector
from aead_selftests import full_selftests
from drawn_bytes import exactly
from sglayout import gather, layouts, outside, scatter

pytestmark = pytest.mark.skipif(not (boot_cpu_has("aes") and boot_cpu_has("pclmulqdq")),
                                reason="CPU lacks AES-NI or PCLMULQDQ")

GCM, ESP = "gcm(aes)", "rfc4106(gcm(aes))"
DRIVERS = {GCM: "generic-gcm-aesni", ESP: "rfc4106-gcm-aesni"}
INTERNAL = {GCM: "__generic-gcm-aesni", ESP: "__rfc4106-gcm-aesni"}
GCM_VECTORS = load_json("aes-gcm.json")["vectors"]
ESP_VECTORS = load_json("aes-gcm-rfc4106.json")["vectors"]
GCM_TAGS = (4, 8, 12, 13, 14, 15, 16)


@pytest.fixture(scope="module")
def tfms():
    capi.load_all()
    # by driver name: a gcm_base instance that earlier tests of this process
    # built over the VAES CTR driver outranks them for the plain names (as in
    # the kernel); what a fresh process answers is tests/kernels' first answer
    out = {name: capi.crypto_alloc_aead(DRIVERS[name]) for name in (GCM, ESP)}
    yield out
    for t in out.values():
        t.free()


def request(tfm, src, dst, cryptlen, assoclen, iv):
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_callback(req, 0, None, None)
    capi.aead_request_set_crypt(req, src, dst, cryptlen, iv)
    capi.aead_request_set_ad(req, assoclen)
    return req


def test_names_priorities_and_internals(tfms):
    for name, driver in DRIVERS.items():
        tfm = tfms[name]
        assert (tfm.driver_name, tfm.alg.cra_priority) == (driver, 400)
        assert tfm.alg.cra_flags & capi.CRYPTO_ALG_ASYNC
        assert (tfm.ivsize, tfm.maxauthsize, tfm.blocksize) == ((12 if name == GCM else 8), 16, 1)
        with capi.crypto_alloc_aead(INTERNAL[name], capi.CRYPTO_ALG_INTERNAL,
                                    capi.CRYPTO_ALG_INTERNAL) as inner:
            assert inner.alg.cra_priority == 400
            assert inner.alg.cra_name == "__" + name
            assert inner.alg.cra_flags & capi.CRYPTO_ALG_INTERNAL
    with pytest.raises(capi.CryptoError):       # internal: not reachable without asking for it
        capi.crypto_alloc_aead(INTERNAL[GCM])


def test_proc_records(tfms, proc_records):
    recs = {r["driver"]: r for r in proc_records()}
    for name, driver in DRIVERS.items():
        r = recs[driver]
        assert (r["name"], r["module"], r["priority"], r["type"], r["async"], r["ivsize"],
                r["maxauthsize"], r["selftest"]) == \
            (name, "aesni_intel", "400", "aead", "yes", "12" if name == GCM else "8", "16", "passed")


@pytest.mark.parametrize("vec", GCM_VECTORS + ESP_VECTORS,
                         ids=[v["id"] for v in GCM_VECTORS + ESP_VECTORS])
def test_vectors_both_ways(tfms, vec):
    check_vector(tfms[vec["kernel_alg"]], vec)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(klen=st.sampled_from([16, 24, 32]), data=st.data(), nonce=exactly(12),
       ad=st.binary(max_size=400), pt=st.binary(max_size=5000), tag=st.sampled_from(GCM_TAGS))
def test_matches_cryptography_over_random_inputs_and_layouts(tfms, klen, data, nonce, ad, pt, tag):
    key = data.draw(exactly(klen))
    tfm = tfms[GCM]
    tfm.setkey(key)
    tfm.setauthsize(tag)
    full = AESGCM(key).encrypt(nonce, pt, ad)
    ref = full[:len(pt) + tag]
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
        assert gather(dbufs, dst_layout) == bytes(len(ad)) + out       # AD region untouched
        assert outside(dbufs, dst_layout) == around
        assert gather(sbufs, src_layout) == ad + inp
    tfm.setauthsize(16)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=exactly(32), salt=exactly(4), iv=exactly(8), seq=st.sampled_from([8, 12]),
       pt=st.binary(max_size=3000), tag=st.sampled_from([8, 12, 16]), data=st.data())
def test_rfc4106_matches_cryptography(tfms, key, salt, iv, seq, pt, tag, data):
    tfm = tfms[ESP]
    tfm.setkey(key + salt)
    tfm.setauthsize(tag)
    spi = data.draw(exactly(seq))
    ref = AESGCM(key).encrypt(salt + iv, pt, spi)[:len(pt) + tag]
    assert tfm.encrypt(pt, iv, spi + iv) == ref
    assert tfm.decrypt(ref, iv, spi + iv) == pt
    buf = bytearray(spi + iv + pt + bytes(tag))                # in place, through a request
    sg = capi.sg_init_one(buf)
    assert capi.crypto_aead_encrypt(request(tfm, sg, sg, len(pt), seq + 8, bytearray(iv))) == 0
    assert bytes(buf[seq + 8:]) == ref
    tfm.setauthsize(16)


@pytest.mark.parametrize("isa", ["aesni", "vaes-avx2", "avx512", "avx10_256"])
@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 127, 128, 255, 256, 257, 4095, 4096, 4097, 70001])
def test_each_core_form_matches_cryptography(isa, n):
    """aesni_gcm.c's four forms, each where the CPU has it (each driver uses one)."""
    from crypto_api.arch.x86 import aesni_glue
    from crypto_api.arch.x86._aesni import ffi, lib
    needs = {"aesni": True, "vaes-avx2": aesni_glue.has_vaes_avx2(), "avx512": aesni_glue.has_vaes_avx10(),
             "avx10_256": aesni_glue.has_vaes_avx10()}
    if not needs[isa]:
        pytest.skip(f"CPU lacks what the {isa} form needs")
    code = {"aesni": lib.AESNI_GCM_ISA_AESNI, "vaes-avx2": lib.AESNI_GCM_ISA_VAES_AVX2,
            "avx512": lib.AESNI_GCM_ISA_AVX512, "avx10_256": lib.AESNI_GCM_ISA_AVX10_256}[isa]
    for klen in (16, 24, 32):
        for alen in (0, 5, 16, 300):
            key, nonce, ad, pt = os.urandom(klen), os.urandom(12), os.urandom(alen), os.urandom(n)
            ctx = ffi.new("struct aesni_gcm_ctx *")
            assert lib.aesni_gcm_setkey(ctx, key, klen, code) == 0
            k = ffi.cast("uint8_t *", ctx)
            out = bytearray(n + 16)
            lib.aesni_gcm_seal(k, nonce, ad, alen, pt, n, ffi.from_buffer(out))
            ref = AESGCM(key).encrypt(nonce, pt, ad)
            assert bytes(out) == ref
            back = bytearray(n)
            assert lib.aesni_gcm_open(k, nonce, ad, alen, ref[:n], n, ref[n:], ffi.from_buffer(back)) == 0
            assert back == pt
            inplace = bytearray(ref[:n])                       # dst == src
            assert lib.aesni_gcm_open(k, nonce, ad, alen, ffi.from_buffer(inplace), n, ref[n:],
                                      ffi.from_buffer(inplace)) == 0
            assert inplace == pt


@pytest.mark.parametrize("n", [4096, 65536, 1 << 20])
def test_large_and_misaligned(tfms, n):
    key, nonce, ad = os.urandom(32), os.urandom(12), os.urandom(13)
    pt = os.urandom(n)
    tfm = tfms[GCM]
    tfm.setkey(key)
    ref = AESGCM(key).encrypt(nonce, pt, ad)
    buf = bytearray(3 + len(ad) + n + 16)                     # odd offsets inside one buffer
    view = memoryview(buf)[3:]
    view[:len(ad) + n] = ad + pt
    sg = capi.sg_init_one(view)
    assert capi.crypto_aead_encrypt(request(tfm, sg, sg, n, len(ad), bytearray(nonce))) == 0
    assert bytes(view[len(ad):]) == ref
    assert capi.crypto_aead_decrypt(request(tfm, sg, sg, n + 16, len(ad), bytearray(nonce))) == 0
    assert bytes(view[len(ad):len(ad) + n]) == pt
    assert tfm.encrypt(memoryview(pt)[1:], nonce, ad) == AESGCM(key).encrypt(nonce, pt[1:], ad)
    assert tfm.decrypt(ref, nonce, ad) == pt


@pytest.mark.parametrize("part", ["tag", "text", "assoc"])
def test_tampering(tfms, part):
    """EBADMSG both ways; the request path leaves the unauthenticated
    plaintext in dst as the kernel does (decrypt, then verify); the one-call
    path releases nothing."""
    key, nonce, ad, pt = os.urandom(16), os.urandom(12), os.urandom(40), os.urandom(700)
    tfm = tfms[GCM]
    tfm.setkey(key)
    ct = bytearray(tfm.encrypt(pt, nonce, ad))
    ad = bytearray(ad)
    {"tag": ct, "text": ct, "assoc": ad}[part][{"tag": -1, "text": 5, "assoc": 3}[part]] ^= 0x10
    out = bytearray(b"\xee" * len(pt))
    with pytest.raises(capi.CryptoError) as e:
        tfm.decrypt(ct, nonce, ad, out=out)
    assert e.value.errno == EBADMSG and out == b"\xee" * len(pt)
    src = bytearray(ad + ct)
    dst = bytearray(b"\xee" * (len(ad) + len(pt)))
    req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(dst), len(ct), len(ad), bytearray(nonce))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_aead_decrypt(req)
    assert e.value.errno == EBADMSG and INTERNAL[GCM] in e.value.message
    expect = AESGCM(key).encrypt(nonce, bytes(ct[:len(pt)]), b"")[:len(pt)]   # CTR is its own inverse
    assert bytes(dst) == b"\xee" * len(ad) + expect


def test_refusals(tfms):
    """gcm.py's rules with its errnos, on the request and the one-call path."""
    g, e4106 = tfms[GCM], tfms[ESP]
    for n in (0, 8, 15, 17, 33):
        with pytest.raises(capi.CryptoError) as e:
            g.setkey(bytes(n))
        assert e.value.errno == EINVAL
    for n in (0, 3, 19, 37):
        with pytest.raises(capi.CryptoError) as e:
            e4106.setkey(bytes(n))
        assert e.value.errno == EINVAL
    g.setkey(bytes(16))
    e4106.setkey(bytes(20))
    for tfm, good in ((g, GCM_TAGS), (e4106, (8, 12, 16))):
        for size in range(0, 18):
            if size in good:
                tfm.setauthsize(size)
                continue
            with pytest.raises(capi.CryptoError) as e:
                tfm.setauthsize(size)
            assert e.value.errno == EINVAL
        tfm.setauthsize(16)
    with pytest.raises(capi.CryptoError) as e:                 # 12-byte IVs only
        g.encrypt(b"x", bytes(16), b"")
    assert e.value.errno == EINVAL
    for alen in (0, 8, 15, 17, 24):
        src = bytearray(alen + 20)
        dst = bytearray(b"\xee" * (alen + 36))
        req = request(e4106, capi.sg_init_one(src), capi.sg_init_one(dst), 20, alen, bytearray(8))
        with pytest.raises(capi.CryptoError) as e:
            capi.crypto_aead_encrypt(req)
        assert e.value.errno == EINVAL and f"assoclen {alen}" in e.value.message
        assert dst == b"\xee" * (alen + 36)
        with pytest.raises(capi.CryptoError) as e:             # the one-call path declines to it
            e4106.encrypt(bytes(20), bytes(8), bytes(alen))
        assert e.value.errno == EINVAL
    with pytest.raises(capi.CryptoError) as e:                 # shorter than the tag
        g.decrypt(bytes(15), bytes(12), b"")
    assert e.value.errno == EINVAL


def test_fpu_sections_and_cryptd_without_simd(tfms):
    key, nonce, ad, pt = os.urandom(32), os.urandom(12), os.urandom(20), os.urandom(9000)
    tfm = tfms[GCM]
    tfm.setkey(key)
    ref = AESGCM(key).encrypt(nonce, pt, ad)
    with capi.fpu_trace() as tr:
        assert tfm.encrypt(pt, nonce, ad) == ref
        assert tfm.decrypt(ref, nonce, ad) == pt
    assert tr.nbytes == [20 + 9000, 20 + 9000]
    with capi.simd_disabled(), capi.fpu_trace() as tr:      # queued to cryptd, done there
        for encrypt, inp, out in ((True, pt, ref), (False, ref, pt)):
            buf = bytearray(ad + inp + bytes(16 if encrypt else 0))
            sg = capi.sg_init_one(buf)
            req = request(tfm, sg, sg, len(inp), len(ad), bytearray(nonce))
            wait = capi.crypto_init_wait()
            capi.aead_request_set_callback(req, 0, capi.crypto_req_done, wait)
            rc = (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(req)
            assert rc == -EINPROGRESS
            assert capi.crypto_wait_req(rc, wait) == 0
            assert bytes(buf[len(ad):len(ad) + len(out)]) == out
        assert tfm.encrypt(pt, nonce, ad) == ref                # the one-call method waits
    assert tr.sections == []                                    # none in the caller's context


@pytest.fixture
def entry():
    from crypto_api import direct as direct_path
    if direct_path._aead_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    return "c"


def test_the_one_call_path(tfms, entry):
    for name in (GCM, ESP):
        tfm = tfms[name]
        key = os.urandom(36 if name == ESP else 32)
        iv, ad, pt = os.urandom(tfm.ivsize), os.urandom(16), os.urandom(1000)
        tfm.setkey(key)
        nonce = key[32:] + iv
        ref = AESGCM(key[:32]).encrypt(nonce, pt, ad[:-8] if name == ESP else ad)
        assert tfm._direct_enc is not None
        assert tfm._direct_enc(pt, iv, ad, None) == ref
        assert tfm._direct_dec(ref, iv, bytearray(ad), None) == pt
        with capi.simd_disabled():
            assert tfm._direct_enc(pt, iv, ad, None) is None
        with capi.fpu_trace():
            assert tfm._direct_enc(pt, iv, ad, None) is None
        assert tfm._direct_enc(pt, iv[:-1], ad, None) is None
        assert tfm._direct_enc(memoryview(pt), memoryview(iv), array.array("B", ad), None) == ref
        out = bytearray(len(pt) + 16)
        assert tfm._direct_enc(pt, iv, ad, out) is out and out == ref
        bad = bytearray(ref)
        bad[-1] ^= 1
        untouched = bytearray(b"\x5a" * len(pt))
        with pytest.raises(capi.CryptoError) as e:
            tfm._direct_dec(bytes(bad), iv, ad, untouched)
        assert e.value.errno == EBADMSG and untouched == b"\x5a" * len(pt)
        tfm.setauthsize(8)                                     # rebuilt for the new tag length
        assert tfm._direct_enc(pt, iv, ad, None) == ref[:len(pt) + 8]
        tfm.setauthsize(16)


def test_selftest_manager_full(selftest_level, caplog):
    """The vectors and configurations, then fuzzing against the generic gcm_base."""
    full_selftests(selftest_level, caplog, DRIVERS, 7)


def test_rfc4543_over_the_aesni_gcm(selftest_level, caplog):
    """The template's instance over generic-gcm-aesni: the kernel's vectors,
    then the full self-tests (fuzzing against the generic instance)."""
    name, driver = "rfc4543(gcm(aes))", "rfc4543(generic-gcm-aesni)"
    with capi.crypto_alloc_aead(driver) as tfm:
        assert (tfm.alg.cra_name, tfm.alg.cra_priority) == (name, 400)
        for vec in load_json("aes-gcm-rfc4543.json")["vectors"]:
            check_vector(tfm, vec)
    full_selftests(selftest_level, caplog, {name: driver}, 11)


PROBE = r"""
import json, os, crypto_api as capi
capi.boot(kernel="5.10")        # one GCM pair, its code picked by CPU
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
res = capi.load_all()
from crypto_api.arch.x86 import aesni_glue
with capi.crypto_alloc_aead("gcm(aes)") as t:
    key, nonce, pt = os.urandom(32), os.urandom(12), os.urandom(5000)
    t.setkey(key)
    ok = t.encrypt(pt, nonce, b"ad") == AESGCM(key).encrypt(nonce, pt, b"ad")
    print(json.dumps({"driver": t.driver_name, "isa": aesni_glue.gcm_isa(), "ok": ok}))
"""


@pytest.mark.parametrize("missing, driver, isa", [
    ("pclmulqdq", None, None), ("vaes", "generic-gcm-aesni", "aesni"),
    ("avx512bw", "generic-gcm-aesni", "vaes-avx2")])
def test_cpu_classes(missing, driver, isa):
    """Up to 6.10 (one GCM pair): without PCLMULQDQ no AES-NI GCM driver (the
    template answers); without VAES the AES-NI form, without AVX-512 the
    256-bit VAES one."""
    if missing != "pclmulqdq" and not boot_cpu_has("vaes"):
        pytest.skip("the CPU lacks VAES already")
    env = dict(os.environ, CRYPTO_API_CPU_MASK=missing, CRYPTO_API_SELFTESTS="off")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["ok"]
    if driver is None:
        assert r["driver"].startswith("gcm_base(")
    else:
        assert (r["driver"], r["isa"]) == (driver, isa)


def test_kernel_rows():
    from crypto_api.kernels.query import snapshot
    for version, internal in (("5.0", "__driver-generic-gcm-aes-aesni"), ("5.10", "__generic-gcm-aesni"),
                              ("6.19", None)):
        snap = snapshot(version, "x86_64")
        assert snap["generic-gcm-aesni"] == ("gcm(aes)", 400)
        assert snap["rfc4106-gcm-aesni"] == ("rfc4106(gcm(aes))", 400)
        assert [d for d in snap if d.startswith("__") and "gcm" in d and "generic" in d] == \
            ([internal] if internal else [])
