"""rfc7539's direct chain (algs/chacha20poly1305.py, crypto/chacha20poly1305.c).

Over a synchronous ChaCha20 child, with no fpu_trace() recording, the chain
hands its two ChaCha20 sub-requests to the child's one-call methods, gathers
small Poly1305 inputs into one update, and the one-call methods on bytes skip
the frontend's generic set-up.  These tests check that this gives the bytes of
the full chain (run under a trace, which keeps every sub-request) and of an
independent implementation (``cryptography``), on random inputs, at the sizes
where the gathering and the buffer split change; that a traced request still
issues both sub-requests with the kernel's IVs while a direct one issues none;
and that the reused Poly1305 descs keep no key material between requests.
"""

import contextlib

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EBADMSG
from drawn_bytes import exactly

RFC = "rfc7539(chacha20,poly1305)"
GENERIC = "rfc7539(chacha20-generic,poly1305-generic)"
ESP = "rfc7539esp(chacha20,poly1305)"
KEY = bytes(range(32))
NONCE = bytes(range(100, 112))


@pytest.fixture(scope="module")
def tfms():
    out = {name: capi.crypto_alloc_aead(name) for name in (RFC, GENERIC, ESP)}
    yield out
    for t in out.values():
        t.free()


def request_encrypt(tfm, ad, pt, iv):
    """ciphertext ‖ tag through crypto_aead_encrypt over one buffer per side."""
    src = bytearray(ad + pt)
    dst = bytearray(len(ad) + len(pt) + 16)
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(dst), len(pt),
                                bytearray(iv))
    capi.aead_request_set_ad(req, len(ad))
    assert capi.crypto_aead_encrypt(req) == 0
    return bytes(dst[len(ad):])


def request_decrypt(tfm, ad, ct, iv):
    """(errno or 0, what dst holds after the AD) through crypto_aead_decrypt."""
    src = bytearray(ad + ct)
    dst = bytearray(len(ad) + len(ct) - 16)
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(dst), len(ct),
                                bytearray(iv))
    capi.aead_request_set_ad(req, len(ad))
    try:
        capi.crypto_aead_decrypt(req)
        err = 0
    except capi.CryptoError as e:
        err = e.errno
    return err, bytes(dst[len(ad):])


def both_ways(tfm, ad, pt, iv, ref):
    """Every path, direct and traced, encrypts to ``ref`` and decrypts it back;
    a flipped tag bit is EBADMSG everywhere, with the same plaintext left in dst."""
    bad = ref[:-1] + bytes([ref[-1] ^ 1])
    seen = []
    for traced in (False, True):
        with capi.fpu_trace() if traced else contextlib.nullcontext():
            assert tfm.encrypt(pt, iv, ad) == ref
            assert tfm.decrypt(ref, iv, ad) == pt
            assert request_encrypt(tfm, ad, pt, iv) == ref
            assert request_decrypt(tfm, ad, ref, iv) == (0, pt)
            with pytest.raises(capi.CryptoError) as e:
                tfm.decrypt(bad, iv, ad)
            assert e.value.errno == EBADMSG
            seen.append(request_decrypt(tfm, ad, bad, iv))
    assert seen[0] == seen[1] == (EBADMSG, pt)      # the kernel leaves the plaintext in dst


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=exactly(32), nonce=exactly(12), ad=st.binary(max_size=300), pt=st.binary(max_size=700))
def test_direct_and_traced_chains_give_cryptographys_bytes(tfms, key, nonce, ad, pt):
    ref = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
    for name in (RFC, GENERIC):
        tfm = tfms[name]
        tfm.setkey(key)
        both_ways(tfm, ad, pt, nonce, ref)


@pytest.mark.parametrize("alen", [0, 1, 223, 224, 250, 300])
@pytest.mark.parametrize("n", [0, 15, 208, 209, 256, 257, 4096, 4097, 10000])
def test_sizes_where_gathering_and_the_split_change(tfms, alen, n):
    """32 key bytes + AD + pads around POLY_PEND (256), texts around SPLIT_MAX (4096)."""
    ad = bytes(range(256))[:alen] + b"\x07" * max(0, alen - 256)
    pt = bytes((i * 7) & 0xFF for i in range(n))
    ref = ChaCha20Poly1305(KEY).encrypt(NONCE, pt, ad)
    tfm = tfms[RFC]
    tfm.setkey(KEY)
    both_ways(tfm, ad, pt, NONCE, ref)


def test_esp_direct_and_traced(tfms):
    salt, iv, ad, pt = b"salt", bytes(range(8)), b"header", b"payload" * 20
    ref = ChaCha20Poly1305(KEY).encrypt(salt + iv, pt, ad)
    tfm = tfms[ESP]
    tfm.setkey(KEY + salt)
    both_ways(tfm, ad + iv, pt, iv, ref)


@pytest.fixture
def subrequests(monkeypatch):
    """Every ChaCha20 sub-request the template issues: (op, cryptlen, iv)."""
    seen = []
    for op in ("encrypt", "decrypt"):
        real = getattr(capi, f"crypto_skcipher_{op}")

        def spy(req, real=real, op=op):
            seen.append((op, req.cryptlen, bytes(req.iv)))
            return real(req)
        monkeypatch.setattr(capi, f"crypto_skcipher_{op}", spy)
    return seen


@pytest.mark.parametrize("one_call", [True, False])
def test_a_traced_request_issues_both_sub_requests_and_a_direct_one_none(tfms, subrequests,
                                                                          one_call):
    tfm = tfms[RFC]
    tfm.setkey(KEY)
    pt = bytes(100)
    call = (lambda: tfm.encrypt(pt, NONCE, b"ad")) if one_call else \
        (lambda: request_encrypt(tfm, b"ad", pt, NONCE))
    direct = call()
    assert subrequests == []
    with capi.fpu_trace():
        assert call() == direct
    # the text from block 1, then the Poly1305 key: block 0 over 32 zero bytes
    assert subrequests == [("encrypt", 100, (1).to_bytes(4, "little") + NONCE),
                           ("decrypt", 32, bytes(4) + NONCE)]


def test_reused_descs_keep_no_key_material(tfms):
    tfm = tfms[GENERIC]
    tfm.setkey(KEY)
    for n in (0, 64, 1000):
        ct = tfm.encrypt(bytes(n), NONCE, b"ad")
        tfm.decrypt(ct, NONCE, b"ad")
    pool = tfm.ctx.poly_pool
    assert len(pool) == 1               # one desc and gather buffer, reused by every request
    desc, pend = pool[0]
    assert not any(desc.state) and not any(pend)


@pytest.mark.parametrize("shift", [1, 16, 63])
def test_a_dst_partly_overlapping_src_gives_the_full_chains_bytes(tfms, shift):
    """The child's one-call methods refuse such a pair; the direct chain then
    issues the sub-request, as the traced one does, and both write the same bytes."""
    tfm = tfms[RFC]
    tfm.setkey(KEY)
    results = []
    for traced in (False, True):
        buf = bytearray(bytes(range(200)))
        src = [capi.Scatterlist(memoryview(buf), 0, 100)]
        dst = [capi.Scatterlist(memoryview(buf), shift, 116)]
        req = capi.aead_request_alloc(tfm)
        capi.aead_request_set_crypt(req, src, dst, 100, bytearray(NONCE))
        with capi.fpu_trace() if traced else contextlib.nullcontext():
            assert capi.crypto_aead_encrypt(req) == 0
        results.append(bytes(buf))
    assert results[0] == results[1]
