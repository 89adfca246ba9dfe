"""rfc7539 / rfc7539esp through the public API (crypto/chacha20poly1305.c, RFC 8439).

All 72 official vectors (RFC 8439, the kernel's, BoringSSL's, OpenSSL's) both
ways through the one-call methods and through kernel-style requests; random
lengths of AD and text (0 included) against ``cryptography``'s
ChaCha20Poly1305 with random scatterlist layouts; every EBADMSG path (tag,
text, AD) with what the kernel leaves in dst and what the one-call method
never shows; the kernel's refusals (setkey, setauthsize, cryptlen,
the esp assoclen); /proc/crypto; the v5.0 names and priorities.
"""

import logging
import re

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api import registry
from crypto_api.errors import EBADMSG, EINVAL, ENOENT, ENOKEY
from crypto_api.testmgr.vectors import load_json
from aead_vectors import check_vector, unhex
from drawn_bytes import exactly
from sglayout import gather, layouts, outside, scatter

VECTORS = load_json("rfc7539-chacha20poly1305.json")["vectors"]
VALID = [v for v in VECTORS if v["valid"]]
RFC = "rfc7539(chacha20,poly1305)"
ESP = "rfc7539esp(chacha20,poly1305)"
GENERIC = "rfc7539(chacha20-generic,poly1305-generic)"
GENERIC_ESP = "rfc7539esp(chacha20-generic,poly1305-generic)"
KEY = bytes(range(32))
NONCE = bytes(range(100, 112))


@pytest.fixture(scope="module")
def tfms():
    """The default instances and the all-generic ones (asked for by driver names)."""
    out = {name: capi.crypto_alloc_aead(name) for name in (RFC, ESP, GENERIC, GENERIC_ESP)}
    yield out
    for t in out.values():
        t.free()


def tfm_for(tfms, vec, generic):
    name = vec["kernel_alg"]
    if generic:
        name = GENERIC if name == RFC else GENERIC_ESP
    return tfms[name]


def request(tfm, src, dst, cryptlen, assoclen, iv, flags=0, complete=None, data=None):
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_callback(req, flags, complete, data)
    capi.aead_request_set_crypt(req, src, dst, cryptlen, iv)
    capi.aead_request_set_ad(req, assoclen)
    return req


# ---------------------------------------------------------------- official vectors

def test_the_vector_file_holds_the_kernels_and_the_rfcs_vectors():
    assert len(VECTORS) == 72
    assert [v["kernel_alg"] for v in VECTORS].count(ESP) == 1
    assert [v["id"] for v in VECTORS if not v["valid"]] == ["rfc7539-069"]
    for v in VALID:          # the kernel form is the RFC form, rearranged
        b = unhex(v)
        assert b["kernel_ctext"] == b["ciphertext"] + b["tag"]
        assert b["kernel_key"][:32] == b["key"]
        assert b["nonce"] == b["kernel_key"][32:] + b["kernel_iv"]


@pytest.mark.parametrize("generic", [False, True], ids=["default", "generic"])
@pytest.mark.parametrize("vec", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector_through_the_one_call_methods(tfms, vec, generic):
    check_vector(tfm_for(tfms, vec, generic), vec)


@pytest.mark.parametrize("inplace", [False, True], ids=["out-of-place", "in-place"])
@pytest.mark.parametrize("vec", VALID, ids=[v["id"] for v in VALID])
def test_vector_through_requests(tfms, vec, inplace):
    """The kernel layout: src = AD ‖ text, dst = AD region ‖ output; out of place the AD
    region of dst is never written."""
    b = unhex(vec)
    tfm = tfms[vec["kernel_alg"]]
    tfm.setkey(b["kernel_key"])
    ad, pt, ct = b["kernel_assoc"], b["plaintext"], b["kernel_ctext"]
    for encrypt, inp, out in ((True, pt, ct), (False, ct, pt)):
        src = bytearray(ad + inp + (bytes(16) if encrypt and inplace else b""))
        dst = src if inplace else bytearray(b"\xee" * (len(ad) + len(out)))
        iv = bytearray(b["kernel_iv"])
        req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(dst), len(inp), len(ad), iv)
        rc = (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(req)
        assert rc == 0
        assert bytes(dst[len(ad):len(ad) + len(out)]) == out
        assert bytes(dst[:len(ad)]) == (ad if inplace else b"\xee" * len(ad))


# ---------------------------------------------------------------- against cryptography

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=exactly(32), nonce=exactly(12), ad=st.binary(max_size=300), pt=st.binary(max_size=700),
       data=st.data())
def test_matches_cryptography_over_random_lengths_and_layouts(tfms, key, nonce, ad, pt, data):
    ref = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
    for name in (RFC, GENERIC):
        tfm = tfms[name]
        tfm.setkey(key)
        assert tfm.encrypt(pt, nonce, ad) == ref
        assert tfm.decrypt(ref, nonce, ad) == pt
        # the same through scattered requests: splits anywhere across AD and text
        src_layout = data.draw(layouts(len(ad) + len(pt)))
        dst_layout = data.draw(layouts(len(ad) + len(ref)))
        src, sbufs = scatter(ad + pt, src_layout, b"\x5a")
        dst, dbufs = scatter(bytes(len(ad) + len(ref)), dst_layout, b"\xa5")
        around = outside(dbufs, dst_layout)
        req = request(tfm, src, dst, len(pt), len(ad), bytearray(nonce))
        assert capi.crypto_aead_encrypt(req) == 0
        assert gather(dbufs, dst_layout) == bytes(len(ad)) + ref      # AD region untouched
        assert outside(dbufs, dst_layout) == around
        assert gather(sbufs, src_layout) == ad + pt


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=exactly(32), salt=exactly(4), iv=exactly(8), ad=st.binary(max_size=100),
       pt=st.binary(max_size=300))
def test_esp_is_rfc7539_with_salt_and_an_iv_copy_outside_the_mac(tfms, key, salt, iv, ad, pt):
    ref = ChaCha20Poly1305(key).encrypt(salt + iv, pt, ad)
    tfm = tfms[ESP]
    tfm.setkey(key + salt)
    assert tfm.encrypt(pt, iv, ad + iv) == ref
    assert tfm.decrypt(ref, iv, ad + iv) == pt
    # the implementation uses req->iv: the IV copy in the AD is not authenticated
    assert tfm.decrypt(ref, iv, ad + bytes(8)) == pt


# ---------------------------------------------------------------- inauthentic inputs

SEALED_PT = bytes(range(200)) * 2
SEALED_AD = b"header bytes"


def sealed(tfm):
    tfm.setkey(KEY)
    return tfm.encrypt(SEALED_PT, NONCE, SEALED_AD)


@pytest.mark.parametrize("where", ["tag", "text", "assoc", "nonce", "truncated"])
def test_any_change_is_ebadmsg_and_the_one_call_decrypt_releases_nothing(tfms, where):
    tfm = tfms[RFC]
    ct, ad, nonce = bytearray(sealed(tfm)), bytearray(SEALED_AD), bytearray(NONCE)
    {"tag": lambda: ct.__setitem__(-1, ct[-1] ^ 0x80),
     "text": lambda: ct.__setitem__(5, ct[5] ^ 1),
     "assoc": lambda: ad.__setitem__(0, ad[0] ^ 4),
     "nonce": lambda: nonce.__setitem__(11, nonce[11] ^ 1),
     "truncated": lambda: ct.__delitem__(slice(-17, -16))}[where]()
    out = bytearray(b"\x77" * (len(ct) - 16))
    with pytest.raises(capi.CryptoError) as e:
        tfm.decrypt(bytes(ct), bytes(nonce), bytes(ad), out=out)
    assert e.value.errno == EBADMSG
    assert out == b"\x77" * len(out)          # not one plaintext byte reached the caller
    assert "tag" in e.value.message


def test_the_one_call_decrypt_writes_out_only_when_authentic(tfms):
    tfm = tfms[RFC]
    ct = sealed(tfm)
    out = bytearray(len(SEALED_PT))
    assert tfm.decrypt(ct, NONCE, SEALED_AD, out=out) is out
    assert out == SEALED_PT
    with pytest.raises(capi.CryptoError):
        tfm.decrypt(ct, NONCE, SEALED_AD, out=bytearray(len(SEALED_PT) + 1))


def test_the_request_path_leaves_the_plaintext_in_dst_on_ebadmsg_as_the_kernel_does(tfms):
    """rfc7539 decrypts first and verifies afterwards; the kernel does not scrub dst."""
    tfm = tfms[RFC]
    ct = bytearray(sealed(tfm))
    ct[-16] ^= 1
    src = bytearray(SEALED_AD + ct)
    dst = bytearray(len(SEALED_AD) + len(SEALED_PT))
    req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(dst), len(ct), len(SEALED_AD),
                  bytearray(NONCE))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_aead_decrypt(req)
    assert e.value.errno == EBADMSG and tfm.driver_name in e.value.message
    assert bytes(dst[len(SEALED_AD):]) == SEALED_PT


def test_a_synchronous_instance_never_calls_the_callback(tfms):
    tfm = tfms[RFC]
    ct = bytearray(sealed(tfm))
    calls = []
    for data, expect in ((ct, None), (ct[:-1] + bytes([ct[-1] ^ 1]), EBADMSG)):
        src = bytearray(SEALED_AD + data)
        req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(src), len(data),
                      len(SEALED_AD), bytearray(NONCE), capi.CRYPTO_TFM_REQ_MAY_BACKLOG,
                      lambda r, err: calls.append(err))
        if expect is None:
            assert capi.crypto_aead_decrypt(req) == 0
        else:
            with pytest.raises(capi.CryptoError) as e:
                capi.crypto_aead_decrypt(req)
            assert e.value.errno == expect
    assert calls == []
    assert not tfm.alg.cra_flags & capi.CRYPTO_ALG_ASYNC


# ---------------------------------------------------------------- refusals

def test_no_key_is_enokey_for_both_paths():
    with capi.crypto_alloc_aead(RFC) as tfm:
        with pytest.raises(capi.CryptoError) as e:
            tfm.encrypt(b"x", NONCE)
        assert e.value.errno == ENOKEY
        req = request(tfm, capi.sg_init_one(bytearray(17)), capi.sg_init_one(bytearray(17)), 1, 0,
                      bytearray(NONCE))
        with pytest.raises(capi.CryptoError) as e:
            capi.crypto_aead_encrypt(req)
        assert e.value.errno == ENOKEY


@pytest.mark.parametrize("name, good, bad", [(RFC, 32, (0, 16, 31, 33, 36)), (ESP, 36, (32, 35, 37))])
def test_key_length_is_32_plus_the_salt(name, good, bad):
    with capi.crypto_alloc_aead(name) as tfm:
        tfm.setkey(bytes(good))
        for n in bad:
            with pytest.raises(capi.CryptoError) as e:
                tfm.setkey(bytes(n))
            assert e.value.errno == EINVAL
            assert f"key is {n} bytes, expected {good}" in e.value.message
            with pytest.raises(capi.CryptoError) as e:      # a failed re-key leaves no key
                tfm.encrypt(b"", bytes(tfm.ivsize))
            assert e.value.errno == ENOKEY
            tfm.setkey(bytes(good))


def test_setauthsize_bounds(tfms):
    tfm = tfms[RFC]
    assert tfm.authsize == tfm.maxauthsize == 16
    with pytest.raises(capi.CryptoError) as e:          # the frontend: above maxauthsize
        tfm.setauthsize(17)
    assert e.value.errno == EINVAL and "maxauthsize" in e.value.message
    for n in (0, 4, 8, 12, 15):                         # the template: only 16
        with pytest.raises(capi.CryptoError) as e:
            capi.crypto_aead_setauthsize(tfm, n)
        assert e.value.errno == EINVAL and "only 16" in e.value.message
        assert capi.crypto_aead_authsize(tfm) == 16     # unchanged
    tfm.setauthsize(16)
    with pytest.raises(TypeError):
        tfm.setauthsize(16.0)


def test_decrypt_cryptlen_below_the_tag_is_einval_before_the_algorithm_runs(tfms):
    tfm = tfms[RFC]
    tfm.setkey(KEY)
    dst = bytearray(b"\x11" * 40)
    req = request(tfm, capi.sg_init_one(bytearray(40)), capi.sg_init_one(dst), 15, 0, bytearray(NONCE))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_aead_decrypt(req)
    assert e.value.errno == EINVAL and "15" in e.value.message
    assert dst == b"\x11" * 40
    with pytest.raises(capi.CryptoError) as e:
        tfm.decrypt(bytes(15), NONCE)
    assert e.value.errno == EINVAL


def test_iv_and_buffer_refusals(tfms):
    tfm = tfms[RFC]
    tfm.setkey(KEY)
    for iv in (None, bytes(8), bytes(16)):
        with pytest.raises(capi.CryptoError) as e:
            tfm.encrypt(b"abc", iv)
        assert e.value.errno == EINVAL
    short = request(tfm, capi.sg_init_one(bytearray(10)), capi.sg_init_one(bytearray(10)), 10, 0,
                    bytearray(NONCE))
    with pytest.raises(capi.CryptoError) as e:          # dst has no room for the tag
        capi.crypto_aead_encrypt(short)
    assert e.value.errno == EINVAL and "dst" in e.value.message
    with pytest.raises(capi.CryptoError):
        tfm.encrypt(b"abc", NONCE, out=bytearray(3))


def test_esp_assoclen_below_the_iv_copy(tfms):
    """v5.0: encryption writes the ciphertext, then refuses; decryption refuses first."""
    tfm = tfms[ESP]
    tfm.setkey(KEY + b"salt")
    pt = b"p" * 40
    src = bytearray(b"AD" + pt + bytes(16))
    dst = bytearray(len(src))
    req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(dst), len(pt), 2, bytearray(8))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_aead_encrypt(req)
    assert e.value.errno == EINVAL and "assoclen 2" in e.value.message
    expected_ct = ChaCha20Poly1305(KEY).encrypt(b"salt" + bytes(8), pt, b"")[:len(pt)]
    assert bytes(dst[2:2 + len(pt)]) == expected_ct
    dst2 = bytearray(b"\x33" * len(src))
    req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(dst2), len(pt) + 16, 2, bytearray(8))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_aead_decrypt(req)
    assert e.value.errno == EINVAL
    assert dst2 == b"\x33" * len(src)


@pytest.mark.parametrize("name, errno, words", [
    ("rfc7539(chacha20)", ENOENT, "parameter 2 missing"),
    ("rfc7539(chacha20,poly1305,poly1305)", EINVAL, "takes 2 parameters"),
    ("rfc7539(xchacha12,poly1305)", EINVAL, "ivsize 32"),
    ("rfc7539esp(chacha20,sha1-nonexistent)", ENOENT, "sha1-nonexistent"),
])
def test_template_refusals(name, errno, words):
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_aead(name)
    assert e.value.errno == errno and words in e.value.message


def test_an_instance_is_no_skcipher():
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher(RFC)
    assert e.value.errno == EINVAL and "AEAD" in e.value.message


# ---------------------------------------------------------------- names, priorities, /proc

def best(cra_name):
    found = registry.crypto_alg_mod_lookup(cra_name, 0, 0)
    registry.crypto_mod_put(found)
    return found


@pytest.mark.parametrize("tmpl, ivsize", [("rfc7539", 12), ("rfc7539esp", 8)])
def test_names_and_priority_follow_the_best_children(tmpl, ivsize):
    capi.request_module("crypto-chacha20")          # every chacha20 driver this machine has
    capi.request_module("crypto-poly1305")
    chacha, poly = best("chacha20"), best("poly1305")
    with capi.crypto_alloc_aead(f"{tmpl}(chacha20,poly1305)") as tfm:
        assert tfm.alg.cra_name == f"{tmpl}(chacha20,poly1305)"
        assert tfm.driver_name == f"{tmpl}({chacha.cra_driver_name},{poly.cra_driver_name})"
        assert tfm.alg.cra_priority == (chacha.cra_priority + poly.cra_priority) // 2
        assert (tfm.ivsize, tfm.maxauthsize, tfm.blocksize, tfm.chunksize) == (ivsize, 16, 1, 64)
        assert tfm.alg.cra_module == "chacha20poly1305"
        assert tfm.alg.cra_flags & capi.CRYPTO_ALG_TYPE_MASK == capi.CRYPTO_ALG_TYPE_AEAD


def test_v50_asking_by_driver_names_echoes_them_in_cra_name_and_runs_no_test(caplog):
    """v5.0: cra_name repeats the request's parameters; testmgr has no entry for it,
    so the instance is marked tested without running a vector."""
    name = "rfc7539(chacha20-generic,poly1305-generic)"
    with capi.crypto_alloc_aead(name) as tfm:
        assert tfm.alg.cra_name == tfm.driver_name == name
        assert tfm.alg.cra_priority == 100
        assert tfm.alg.cra_flags & capi.CRYPTO_ALG_TESTED
    assert capi.testmgr.find_test(name) is None
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        assert capi.testmgr.alg_test(name, name) == 0
    assert f"alg: No test for {name} ({name})" in caplog.text
    mixed = "rfc7539(chacha20-generic,poly1305)"                # the echo is literal
    poly = best("poly1305")
    driver = f"rfc7539(chacha20-generic,{poly.cra_driver_name})"
    if any(a.cra_driver_name == driver for a in registry.snapshot()):
        return      # an instance of those drivers exists (e.g. the default one, when the
                    # best chacha20 is the generic): the template hands that one back
    with capi.crypto_alloc_aead(mixed) as tfm:
        assert tfm.alg.cra_name == mixed
        assert tfm.driver_name == driver
        assert tfm.alg.cra_priority == (100 + poly.cra_priority) // 2


@pytest.mark.parametrize("name, ivsize", [(RFC, "12"), (ESP, "8")])
def test_proc_record_of_the_instances(proc_records, name, ivsize):
    with capi.crypto_alloc_aead(name) as tfm:
        (rec,) = [r for r in proc_records() if (r["name"], r["driver"]) == (name, tfm.driver_name)]
        assert rec == {
            "name": name, "driver": tfm.driver_name, "module": "chacha20poly1305",
            "priority": str(tfm.alg.cra_priority), "refcnt": rec["refcnt"], "selftest": "passed",
            "internal": "no", "type": "aead", "async": "no", "blocksize": "1", "ivsize": ivsize,
            "maxauthsize": "16", "geniv": "<none>"}
        assert list(rec) == ["name", "driver", "module", "priority", "refcnt", "selftest",
                             "internal", "type", "async", "blocksize", "ivsize", "maxauthsize",
                             "geniv"]


def test_the_module_is_found_through_its_aliases_and_entry_point():
    from crypto_api import modules
    assert modules.available_modules()["chacha20poly1305"] == "crypto_api.algs.chacha20poly1305"
    for alias in ("crypto-rfc7539", "crypto-rfc7539esp", "rfc7539", "rfc7539esp"):
        assert modules.alias_index()[alias] == ["chacha20poly1305"]
    capi.request_module("crypto-rfc7539esp")
    assert "chacha20poly1305" in capi.loaded_modules()
    assert {"rfc7539", "rfc7539esp"} <= set(capi.template.registered_templates())


@pytest.mark.parametrize("n", [0, 100, 4096, 10000])
def test_the_fpu_sections_of_a_request_are_those_of_its_chacha_child(tfms, n):
    """The template adds no FPU use of its own: text (block 1 on), then the 32-byte key block,
    then poly1305-simd's (v5.0: one section per update above 288 bytes, and the
    template updates one page piece at a time; the one-call path hands the AD and
    the text over as two scatterlist entries, so the text's pieces start with it)."""
    tfm = tfms[RFC]
    tfm.setkey(KEY)
    with capi.crypto_alloc_skcipher(tfm.ctx.chacha.driver_name) as chacha:
        chacha.setkey(KEY)
        with capi.fpu_trace() as expected:
            if n:
                chacha.encrypt(bytes(n), (1).to_bytes(4, "little") + NONCE)
            chacha.encrypt(bytes(32), bytes(4) + NONCE)
    with capi.fpu_trace() as got:
        tfm.encrypt(bytes(n), NONCE, b"ad")
    poly = []
    if tfm.ctx.poly.driver_name == "poly1305-simd":     # the text, an entry after 2 bytes of AD
        ends = sorted({0, n} | set(range(4096, n, 4096)))
        poly = [b - a for a, b in zip(ends, ends[1:]) if b - a > 288]
    assert [s.nbytes for s in got.sections] == [s.nbytes for s in expected.sections] + poly
    if tfm.ctx.chacha.driver_name == "chacha20-simd" and n >= 4096:
        assert [s.nbytes for s in expected.sections] == [4096] * (n // 4096) + ([n % 4096] if n % 4096 else [])


def test_the_selftest_command_tests_both_templates(capsys):
    from crypto_api.__main__ import main
    assert main(["selftest", RFC, ESP]) == 0
    out = capsys.readouterr().out
    for name in (RFC, ESP):
        assert re.search(rf"^alg: self-tests for {re.escape(name[:-len('(chacha20,poly1305)')])}"
                         rf"\(chacha20-\S+,poly1305-\S+\) \({re.escape(name)}\) passed$", out, re.M)
    assert re.search(r"^2 drivers: 2 passed, 0 failed", out, re.M)


def _toy_hash(digestsize):
    return capi.ShashAlg(cra_name="toyhash", cra_driver_name=f"toyhash{digestsize}", cra_priority=1,
                         digestsize=digestsize, descsize=1, init=lambda d: None,
                         update=lambda d, data: None, final=lambda d: bytes(digestsize))


def _toy_stream(blocksize, ivsize):
    return capi.SkcipherAlg(cra_name="toystream", cra_driver_name=f"toystream{blocksize}-{ivsize}",
                            cra_priority=1, cra_blocksize=blocksize, min_keysize=32, max_keysize=32,
                            ivsize=ivsize, setkey=lambda t, k: None, encrypt=lambda r: None,
                            decrypt=lambda r: None)


@pytest.mark.parametrize("chacha, poly, words", [
    ("chacha20", "toyhash8", "toyhash8 has a 8-byte digest"),
    ("toystream16-16", "poly1305", "toystream16-16 (ivsize 16, blocksize 16) is no ChaCha20"),
    ("toystream1-12", "poly1305", "toystream1-12 (ivsize 12, blocksize 1) is no ChaCha20"),
])
def test_children_of_the_wrong_shape_are_refused(register, chacha, poly, words):
    for alg in (_toy_hash(8), _toy_stream(16, 16), _toy_stream(1, 12)):
        register(alg)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_aead(f"rfc7539({chacha},{poly})")
    assert e.value.errno == EINVAL and words in e.value.message


@pytest.mark.parametrize("encrypt", [True, False])
def test_the_one_call_path_holds_the_message_at_most_twice(tfms, encrypt):
    """No private copy of bytes input, no zero temporaries for wiping: a 1 MiB
    message costs its private result buffer and the returned bytes (the old path
    copied src and dst and built a zero bytes object per wipe: about 4x)."""
    import tracemalloc
    tfm = tfms[RFC]
    tfm.setkey(KEY)
    n = 1 << 20
    pt = bytes(range(256)) * (n // 256)
    data = pt if encrypt else tfm.encrypt(pt, NONCE, b"ad")
    call = tfm.encrypt if encrypt else tfm.decrypt
    tracemalloc.start()
    try:
        res = call(data, NONCE, b"ad")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert res == (tfm.encrypt(pt, NONCE, b"ad") if encrypt else pt)
    assert peak < 2.3 * n, peak
