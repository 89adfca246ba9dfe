"""authencesn(hmac(sha*),cbc(aes)) (crypto/authencesn.c): authenc for ESP with 64-bit
sequence numbers (RFC 4303 §2.2.1).

Against an independent construction: the ciphertext is AES-CBC's (as
authenc's), the tag HMAC(SPI ‖ seq_lo ‖ rest of the AD ‖ ciphertext ‖ seq_hi)
for the AD SPI ‖ seq_hi ‖ seq_lo ‖ …; the AD region in dst ends as it began,
out-of-place requests copy it (decryption: AD and ciphertext) to dst; an
in-place decryption leaves seq_hi over the first tag bytes, as the kernel;
EBADMSG before decrypting; the refusals (tag lengths 1..3, AD under 8
bytes); names and priority.  No testmgr entry has vectors for authencesn (the
kernel's entries are alg_test_null).
"""

import hashlib
import hmac

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.algs.authenc import authenc_key
from crypto_api.errors import EBADMSG, EINVAL
from drawn_bytes import exactly
from sglayout import gather, layouts, scatter
from aead_wait import run

HASHES = {"sha1": 20, "sha256": 32, "sha512": 64}
FUNNY = dict(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)


def generic(h):
    return f"authencesn(hmac({h}-generic),cbc(aes-generic))"


@pytest.fixture(scope="module")
def tfms():
    out = {}
    for h in HASHES:
        for name in (generic(h), f"authencesn(hmac({h}),cbc(aes))"):
            out[name] = capi.crypto_alloc_aead(name)
    yield out
    for t in out.values():
        t.free()


def reference(h, authkey, enckey, iv, ad, pt, authsize):
    enc = Cipher(algorithms.AES(enckey), modes.CBC(iv)).encryptor()
    ct = enc.update(pt) + enc.finalize()
    mac_input = ad[0:4] + ad[8:] + ct + ad[4:8]
    return ct + hmac.new(authkey, mac_input, getattr(hashlib, h)).digest()[:authsize]


@settings(max_examples=50, **FUNNY)
@given(h=st.sampled_from(sorted(HASHES)), klen=st.sampled_from([16, 24, 32]), data=st.data(),
       authkey=st.binary(max_size=80), iv=exactly(16), ad=st.binary(min_size=8, max_size=40),
       blocks=st.integers(0, 8))
def test_the_esn_construction(tfms, h, klen, data, authkey, iv, ad, blocks):
    enckey, pt = data.draw(exactly(klen)), data.draw(exactly(16 * blocks))
    authsize = data.draw(st.integers(4, HASHES[h]))
    ref = reference(h, authkey, enckey, iv, ad, pt, authsize)
    ct = ref[:len(pt)]
    for name in (generic(h), f"authencesn(hmac({h}),cbc(aes))"):
        tfm = tfms[name]
        tfm.setkey(authenc_key(authkey, enckey))
        tfm.setauthsize(authsize)
        assert tfm.encrypt(pt, iv, ad) == ref
        assert tfm.decrypt(ref, iv, ad) == pt
        # scattered, out of place: dst gets the AD unchanged, src is left alone
        n = len(ad) + len(ref)
        src_layout, dst_layout = data.draw(layouts(len(ad) + len(pt))), data.draw(layouts(n))
        src, sbufs = scatter(ad + pt, src_layout, b"\x5a")
        dst, dbufs = scatter(bytes(n), dst_layout, b"\xa5")
        assert run(tfm, True, src, dst, len(pt), len(ad), bytearray(iv)) == 0
        assert gather(dbufs, dst_layout) == ad + ref
        assert gather(sbufs, src_layout) == ad + pt
        # decrypting out of place: AD ‖ ciphertext copied to dst, then decrypted there
        src, sbufs = scatter(ad + ref, dst_layout, b"\x5a")
        dst, dbufs = scatter(bytes(n), dst_layout, b"\xa5")
        assert run(tfm, False, src, dst, len(ref), len(ad), bytearray(iv)) == 0
        assert gather(dbufs, dst_layout)[:len(ad) + len(pt)] == ad + pt
        assert gather(sbufs, dst_layout) == ad + ref
        # in place: the kernel's parked seq_hi stays over the first tag bytes
        buf = bytearray(ad + ref)
        assert run(tfm, False, capi.sg_init_one(buf), capi.sg_init_one(buf), len(ref), len(ad),
                   bytearray(iv)) == 0
        assert bytes(buf) == ad + pt + ad[4:8] + ref[len(ct) + 4:]


@pytest.mark.parametrize("where", [0, 5, 9, 12, 20, 40])
def test_any_changed_byte_is_ebadmsg_before_decrypting(tfms, where):
    tfm = tfms[generic("sha1")]
    tfm.setkey(authenc_key(b"a" * 20, bytes(range(16))))
    tfm.setauthsize(12)
    ad, iv, pt = bytes(range(100, 112)), bytes(16), b"q" * 32
    msg = bytearray(ad + tfm.encrypt(pt, iv, ad))           # 12 + 32 + 12 bytes
    msg[where] ^= 1
    dst = bytearray(b"\xee" * len(msg))
    with pytest.raises(capi.CryptoError) as e:
        run(tfm, False, capi.sg_init_one(msg), capi.sg_init_one(dst), 44, 12, bytearray(iv))
    assert e.value.errno == EBADMSG
    # AD and ciphertext copied, nothing decrypted; seq_hi parked after them
    assert dst[:44] == msg[:44] and dst[44:48] == msg[4:8] and dst[48:] == b"\xee" * 8


def test_tag_lengths(tfms):
    tfm = tfms[generic("sha256")]
    for authsize in (1, 2, 3, 33):
        with pytest.raises(capi.CryptoError) as e:
            tfm.setauthsize(authsize)
        assert e.value.errno == EINVAL and generic("sha256") in str(e.value)
    for authsize in (4, 16, 32):
        tfm.setauthsize(authsize)


@pytest.mark.parametrize("assoclen", [0, 4, 7])
def test_an_ad_shorter_than_8_bytes_is_einval(tfms, assoclen):
    tfm = tfms[generic("sha256")]
    tfm.setkey(authenc_key(bytes(32), bytes(16)))
    tfm.setauthsize(32)
    for encrypt in (True, False):
        buf = bytearray(assoclen + 16 + 32)
        with pytest.raises(capi.CryptoError) as e:
            run(tfm, encrypt, capi.sg_init_one(buf), capi.sg_init_one(buf), 16 if encrypt else 48,
                assoclen, bytearray(16))
        assert e.value.errno == EINVAL and f"assoclen {assoclen}" in str(e.value)


def test_names_priority_and_shape():
    with capi.crypto_alloc_shash("hmac(sha1)") as a, capi.crypto_alloc_skcipher("cbc(aes)") as e, \
            capi.crypto_alloc_aead(f"authencesn({a.driver_name},{e.driver_name})") as tfm:
        assert tfm.alg.cra_name == "authencesn(hmac(sha1),cbc(aes))"
        assert tfm.driver_name == f"authencesn({a.driver_name},{e.driver_name})"
        assert tfm.alg.cra_priority == 10 * e.alg.cra_priority + a.alg.cra_priority
        assert (tfm.ivsize, tfm.maxauthsize, tfm.authsize, tfm.blocksize) == (16, 20, 20, 16)
        assert tfm.alg.cra_module == "authencesn"
