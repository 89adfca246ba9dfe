"""The C entry point of the one-call AEAD direct path (crypto_api/aead_call.h,
in crypto_api._direct_call).

Where it is built, setkey installs it as ``tfm._direct_enc``/``_direct_dec`` of the
one-pass ChaCha20-Poly1305 drivers (tests/arch/test_chacha20poly1305_avx2_driver.py
runs the direct-path tests on it and on the Python function alike).  Here:
what only it does.  Its results against an independent implementation
(cryptography's ChaCha20Poly1305) over drawn lengths and buffer shapes; the
GIL held for short texts and released for long ones, with the buffers kept
exported; a wrong tag; reference counts; the constructor's refusals.
"""

import array
import os
import sys
import threading

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api import direct as direct_path
from crypto_api.errors import EBADMSG
from buffer_shrinker import shrinking
from drawn_bytes import exactly
from alloc_or_skip import alloc_or_skip

pytestmark = pytest.mark.skipif(direct_path._aead_call is None, reason="crypto_api._direct_call is not built")

RFC, ESP = "rfc7539(chacha20,poly1305)", "rfc7539esp(chacha20,poly1305)"
SHAPES = {"bytes": bytes, "bytearray": bytearray, "memoryview": lambda b: memoryview(bytearray(b)),
          "array": lambda b: array.array("B", b)}


def _alloc(name, key):
    tfm = alloc_or_skip(capi.crypto_alloc_aead, name)
    if not tfm.driver_name.endswith("-avx2"):
        tfm.free()
        pytest.skip(f"{name}: no one-pass AVX2 driver on this CPU")
    tfm.setkey(key)
    assert type(tfm._direct_enc.__self__).__name__ == "AeadCallState"
    return tfm


@pytest.mark.parametrize("name", [RFC, ESP])
@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.one_of(st.integers(0, 300), st.integers(0, 9000)), alen=st.integers(0, 40))
def test_matches_cryptography_in_every_shape(name, data, n, alen):
    esp = name == ESP
    key = data.draw(exactly(36 if esp else 32), label="key")
    tfm = _alloc(name, key)
    iv = data.draw(exactly(tfm.ivsize), label="iv")
    pt = data.draw(exactly(n), label="pt")
    ad = data.draw(exactly(alen + (8 if esp else 0)), label="ad")
    ref = ChaCha20Poly1305(key[:32]).encrypt(key[32:] + iv, pt, ad[:alen])
    shape = SHAPES[data.draw(st.sampled_from(sorted(SHAPES)))]
    assert tfm._direct_enc(shape(pt), shape(iv), shape(ad), None) == ref
    assert tfm._direct_dec(shape(ref), shape(iv), shape(ad), None) == pt
    out = bytearray(n + 16)
    assert tfm._direct_enc(shape(pt), iv, ad, out) is out and out == ref
    back = memoryview(bytearray(n))
    assert tfm._direct_dec(ref, iv, shape(ad), back) is back and bytes(back) == pt
    tfm.free()


def test_a_wrong_tag_raises_and_releases_nothing():
    key, iv, ad = os.urandom(32), os.urandom(12), b"hdr"
    tfm = _alloc(RFC, key)
    for n in (0, 100, 5000):
        sealed = bytearray(tfm.encrypt(os.urandom(n), iv, ad))
        sealed[n // 2] ^= 4                     # the text, or the tag where n is 0
        out = bytearray(b"\x5a" * n)
        for dest in (None, out):
            with pytest.raises(capi.CryptoError) as e:
                tfm._direct_dec(bytes(sealed), iv, ad, dest)
            assert e.value.errno == EBADMSG and tfm.driver_name in str(e.value)
        assert out == b"\x5a" * n
    tfm.free()


def _turns_during_calls(tfm, n, tries):
    """Seal n bytes of a bytearray ``tries`` times with a 10 s switch
    interval: the other thread's turns during the calls, its refused and
    successful shrinks."""
    iv, pt = os.urandom(12), os.urandom(n)
    want = tfm.encrypt(pt, iv, b"")
    buf = bytearray(pt)
    with shrinking(buf) as other:
        for _ in range(tries):
            other.go = True
            got = tfm.encrypt(buf, iv, b"")
            other.go = False
            assert got == want
            if n >= direct_path.NOGIL_MIN and other.turns:
                break
    return other.turns, other.refused, other.shrunk


def test_gil_held_for_short_texts():
    tfm = _alloc(RFC, os.urandom(32))
    for n in (0, 64, direct_path.NOGIL_MIN - 1):
        assert _turns_during_calls(tfm, n, 200) == (0, 0, 0), n


def test_gil_released_for_long_texts_with_the_buffer_kept_exported():
    tfm = _alloc(RFC, os.urandom(32))
    turns, refused, shrunk = _turns_during_calls(tfm, 8 << 20, 50)
    assert turns > 0, "the other thread never ran during 50 long calls"
    assert refused == turns and shrunk == 0


def test_reference_counts_are_unchanged():
    tfm = _alloc(ESP, os.urandom(36))
    pt, iv, ad = os.urandom(300), os.urandom(8), os.urandom(16)
    out, back = bytearray(316), bytearray(300)
    sealed = tfm.encrypt(pt, iv, ad)
    objs = (pt, iv, ad, out, back, sealed, tfm)
    before = [sys.getrefcount(o) for o in objs]
    for _ in range(3000):
        tfm._direct_enc(pt, iv, ad, out)
        tfm._direct_dec(sealed, iv, ad, back)
        tfm._direct_enc(pt, iv, ad, None)
        tfm._direct_enc(pt, iv[:-1], ad, None)           # declined
    assert [sys.getrefcount(o) for o in objs] == before
    assert back == pt and out == sealed


def test_make_aead_refuses_what_it_cannot_use():
    def bad_tag():
        raise AssertionError
    args = dict(core=1, key=1, keep=(), choice=capi.simd_choice, bad_tag=bad_tag, salt=b"",
                noncelen=12, taglen=16, ad_tail=0, nogil_min=2048, scratch_max=1 << 22, simd_value=0,
                encrypt=True)
    direct_path._aead_call(*args.values())
    for change, err in ((dict(core=0), ValueError), (dict(key=0), ValueError),
                        (dict(salt=bytes(13)), ValueError), (dict(noncelen=33), ValueError),
                        (dict(taglen=-1), ValueError), (dict(choice=None), TypeError),
                        (dict(bad_tag=None), TypeError), (dict(salt="x"), TypeError)):
        with pytest.raises(err):
            direct_path._aead_call(*dict(args, **change).values())
    tfm = _alloc(RFC, os.urandom(32))
    with pytest.raises(TypeError):
        tfm._direct_enc(b"x", bytes(12), b"")            # four arguments, always


def test_two_threads_decrypting_into_out_on_one_tfm():
    """The private buffer is the function's; a thread that finds it in use
    (the other one's, while the GIL is released) takes a fresh one."""
    tfm = _alloc(RFC, os.urandom(32))
    iv = os.urandom(12)
    texts = [os.urandom(65536 + i) for i in range(2)]
    sealed = [tfm.encrypt(t, iv, b"") for t in texts]
    wrong = []

    def work(i):
        out = bytearray(len(texts[i]))
        for _ in range(200):
            out[:] = bytes(len(out))
            if tfm._direct_dec(sealed[i], iv, b"", out) is not out or out != texts[i]:
                wrong.append(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
