"""The IV generators seqiv and echainiv (crypto/seqiv.c, crypto/echainiv.c, crypto/geniv.c).

seqiv(rfc4106(gcm(aes))) against ``cryptography``'s AESGCM with the IV rule
applied by hand (IV = sequence number XOR the tfm's salt, nonce = key salt ‖
IV, the GCM AD the ESP AD without the IV); echainiv(authenc(hmac(sha256),
cbc(aes))) against ``cryptography``'s AES-CBC and Python's hmac with its IV
rule by hand (salt words, low bit set, times the big-endian sequence number,
little-endian; the zeroed IV room encrypted first).  Each packet the model
makes decrypts through a fresh tfm (another salt: decryption reads the IV
from the packet), as scattered out-of-place requests too (AD copied); the
IV written back into the request; the kernel's refusals (inner IV sizes,
short requests, an inauthentic packet); names, priority and shape.
"""

import hashlib
import hmac

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.algs.authenc import authenc_key
from crypto_api.errors import EBADMSG, EINVAL
from drawn_bytes import exactly
from sglayout import gather, layouts, scatter
from aead_wait import run

SEQIV = "seqiv(rfc4106(gcm(aes)))"
ECHAINIV = "echainiv(authenc(hmac(sha256),cbc(aes)))"
FUNNY = dict(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)


def crypt_one(tfm, encrypt, data, assoclen, iv):
    """In place over one buffer (room for the tag after the text when
    encrypting); returns (rc, the buffer, the IV buffer after)."""
    buf, ivbuf = bytearray(data), bytearray(iv)
    sg = capi.sg_init_one(buf)
    cryptlen = len(data) - assoclen - (tfm.authsize if encrypt else 0)
    rc = run(tfm, encrypt, sg, sg, cryptlen, assoclen, ivbuf)
    return rc, bytes(buf), bytes(ivbuf)


# ---------------------------------------------------------------- the models

class AES:
    def __init__(self, key):
        self.key = key

    def encrypt(self, block):
        enc = Cipher(algorithms.AES(self.key), modes.ECB()).encryptor()
        return enc.update(block) + enc.finalize()


def seqiv_model(key, gsalt, seq, ad, pt):
    """AD ‖ IV ‖ ciphertext ‖ tag of seqiv(rfc4106(gcm(aes))), and the IV."""
    iv = bytes(a ^ b for a, b in zip(seq, gsalt))
    ct = AESGCM(key[:-4]).encrypt(key[-4:] + iv, pt, ad)
    return ad + iv + ct, iv


def echainiv_model(authkey, enckey, gsalt, seq, ad, pt, authsize):
    """AD ‖ E(IV) ‖ CBC rest ‖ tag of echainiv(authenc(hmac(sha256),cbc(aes))), and the IV."""
    n = int.from_bytes(seq[-8:], "big")
    iv = bytearray(16)
    for end in (16, 8):                     # the kernel's loop order; each word independent
        word = int.from_bytes(gsalt[end - 8:end], "little") | 1
        iv[end - 8:end] = ((word * n) % 2 ** 64).to_bytes(8, "little")
    enc = Cipher(algorithms.AES(enckey), modes.CBC(bytes(iv))).encryptor()
    ct = enc.update(bytes(16) + pt) + enc.finalize()
    return ad + ct + hmac.new(authkey, ad + ct, hashlib.sha256).digest()[:authsize], bytes(iv)


# ---------------------------------------------------------------- seqiv

@settings(max_examples=30, **FUNNY)
@given(klen=st.sampled_from([16, 24, 32]), data=st.data(), seq=exactly(8),
       adlen=st.sampled_from([8, 12]), ptlen=st.integers(0, 300))
def test_seqiv_is_rfc4106_under_the_salted_sequence_number(klen, data, seq, adlen, ptlen):
    key = data.draw(exactly(klen + 4))
    ad, pt = data.draw(exactly(adlen)), data.draw(exactly(ptlen))
    room = data.draw(exactly(8))            # whatever the caller left there is overwritten
    tfm = capi.crypto_alloc_aead(SEQIV)
    tfm.setkey(key)
    want, want_iv = seqiv_model(key, bytes(tfm.ctx.salt), seq, ad, pt)
    rc, got, iv_after = crypt_one(tfm, True, ad + room + pt + bytes(16), adlen, seq)
    assert (rc, got, iv_after) == (0, want, want_iv)
    other = capi.crypto_alloc_aead(SEQIV)       # its own salt: decryption reads the IV
    other.setkey(key)
    rc, got, iv_after = crypt_one(other, False, want, adlen, bytes(8))
    assert (rc, got[adlen + 8:len(want) - 16], iv_after) == (0, pt, want_iv)


@settings(max_examples=20, **FUNNY)
@given(data=st.data(), seq=exactly(8), ptlen=st.integers(0, 200))
def test_seqiv_scattered_out_of_place(data, seq, ptlen):
    """dst gets the AD (copied), the IV and the ciphertext; src is left as it was."""
    key, ad, pt = data.draw(exactly(20)), data.draw(exactly(8)), data.draw(exactly(ptlen))
    tfm = capi.crypto_alloc_aead(SEQIV)
    tfm.setkey(key)
    want, _ = seqiv_model(key, bytes(tfm.ctx.salt), seq, ad, pt)
    inp = ad + bytes(8) + pt
    slay, dlay = data.draw(layouts(len(inp))), data.draw(layouts(len(want)))
    src, sbufs = scatter(inp, slay, b"\x5a")
    dst, dbufs = scatter(bytes(len(want)), dlay, b"\xa5")
    assert run(tfm, True, src, dst, 8 + ptlen, 8, bytearray(seq)) == 0
    assert gather(dbufs, dlay) == want and gather(sbufs, slay) == inp


def test_seqiv_salts_differ_between_tfms():
    a, b = capi.crypto_alloc_aead(SEQIV), capi.crypto_alloc_aead(SEQIV)
    assert len(a.ctx.salt) == 8 and a.ctx.salt != b.ctx.salt


def test_seqiv_refusals():
    tfm = capi.crypto_alloc_aead(SEQIV)
    tfm.setkey(bytes(20))
    # encrypt: cryptlen must hold the IV; decrypt: the IV and the tag
    with pytest.raises(capi.CryptoError, match="no room for the 8-byte IV") as e:
        crypt_one(tfm, True, bytes(8 + 7 + 16), 8, bytes(8))
    assert e.value.errno == EINVAL
    with pytest.raises(capi.CryptoError, match="less than the 24 bytes") as e:
        crypt_one(tfm, False, bytes(8 + 23), 8, bytes(8))
    assert e.value.errno == EINVAL
    good, _ = seqiv_model(bytes(20), bytes(tfm.ctx.salt), bytes(8), bytes(8), b"text")
    bad = bytearray(good)
    bad[8] ^= 1                              # the IV is authenticated (it is the GCM nonce)
    with pytest.raises(capi.CryptoError) as e:
        crypt_one(tfm, False, bytes(bad), 8, bytes(8))
    assert e.value.errno == EBADMSG


@pytest.mark.parametrize("name, why", [
    ("seqiv(gcm(aes))", "12-byte IV; seqiv takes only 8-byte IVs"),
    ("seqiv(authenc(hmac(sha256),cbc(aes)))", "16-byte IV; seqiv takes only 8-byte IVs"),
    ("echainiv(gcm(aes))", "12-byte IV; echainiv takes only multiples of 8 bytes"),
    ("echainiv(rfc7539(chacha20,poly1305))", "12-byte IV; echainiv takes only multiples of 8 bytes"),
])
def test_inner_iv_sizes_the_generators_refuse(name, why):
    with pytest.raises(capi.CryptoError, match=why) as e:
        capi.crypto_alloc_aead(name)
    assert e.value.errno == EINVAL


# ---------------------------------------------------------------- echainiv

@settings(max_examples=30, **FUNNY)
@given(klen=st.sampled_from([16, 24, 32]), data=st.data(), seq=exactly(16),
       adlen=st.sampled_from([8, 12]), blocks=st.integers(0, 12), authsize=st.sampled_from([12, 16, 32]))
def test_echainiv_encrypts_the_zeroed_iv_room_under_the_salted_product(klen, data, seq, adlen, blocks,
                                                                      authsize):
    authkey, enckey = data.draw(exactly(32)), data.draw(exactly(klen))
    ad, pt = data.draw(exactly(adlen)), data.draw(exactly(16 * blocks))
    tfm = capi.crypto_alloc_aead(ECHAINIV)
    tfm.setkey(authenc_key(authkey, enckey))
    tfm.setauthsize(authsize)
    want, want_iv = echainiv_model(authkey, enckey, bytes(tfm.ctx.salt), seq, ad, pt, authsize)
    rc, got, iv_after = crypt_one(tfm, True, ad + data.draw(exactly(16)) + pt + bytes(authsize), adlen, seq)
    assert (rc, got) == (0, want)
    # the IV buffer went to CBC as its IV: it leaves holding the last ciphertext block
    last = want[len(want) - authsize - 16:len(want) - authsize]
    assert iv_after == last and (blocks or last == AES(enckey).encrypt(want_iv))
    other = capi.crypto_alloc_aead(ECHAINIV)
    other.setkey(authenc_key(authkey, enckey))
    other.setauthsize(authsize)
    rc, got, _ = crypt_one(other, False, want, adlen, bytes(16))
    assert (rc, got[adlen + 16:len(want) - authsize]) == (0, pt)


def test_echainiv_uses_only_the_last_8_bytes_as_the_sequence_number():
    tfm = capi.crypto_alloc_aead(ECHAINIV)
    tfm.setkey(authenc_key(bytes(32), bytes(16)))
    a = crypt_one(tfm, True, bytes(8 + 16 + 16 + 32), 8, bytes(8) + (5).to_bytes(8, "big"))
    b = crypt_one(tfm, True, bytes(8 + 16 + 16 + 32), 8, b"\xff" * 8 + (5).to_bytes(8, "big"))
    assert a == b and a[0] == 0


def test_echainiv_refusals():
    tfm = capi.crypto_alloc_aead(ECHAINIV)
    tfm.setkey(authenc_key(bytes(32), bytes(16)))
    for encrypt in (True, False):
        with pytest.raises(capi.CryptoError) as e:
            crypt_one(tfm, encrypt, bytes(8 + 15), 8, bytes(16))
        assert e.value.errno == EINVAL


# ---------------------------------------------------------------- names

@pytest.mark.parametrize("tmpl, inner", [("seqiv", "rfc4106(gcm(aes))"), ("seqiv", "rfc4543(gcm(aes))"),
                                         ("seqiv", "rfc7539esp(chacha20,poly1305)"),
                                         ("echainiv", "authenc(hmac(sha256),cbc(aes))"),
                                         ("echainiv", "rfc4106(gcm(aes))")])
def test_names_priority_and_shape_are_the_inner_aeads(tmpl, inner):
    t, i = capi.crypto_alloc_aead(f"{tmpl}({inner})"), capi.crypto_alloc_aead(inner)
    a, b = t.alg, i.alg
    assert a.cra_name == f"{tmpl}({b.cra_name})"
    assert t.driver_name == f"{tmpl}({i.driver_name})"
    assert (a.cra_priority, a.cra_blocksize, a.cra_alignmask, a.ivsize, a.maxauthsize) == \
        (b.cra_priority, b.cra_blocksize, b.cra_alignmask, b.ivsize, b.maxauthsize)
    assert a.cra_flags & capi.CRYPTO_ALG_ASYNC == b.cra_flags & capi.CRYPTO_ALG_ASYNC


@pytest.mark.parametrize("name", [SEQIV, ECHAINIV])
def test_no_testmgr_entry_so_the_self_test_passes_with_no_test(name, caplog):
    """The kernel's testmgr has no entry for a geniv instance: alg_test says
    "No test" and passes; /proc/crypto says the self-test passed."""
    import logging
    from crypto_api import testmgr
    t = capi.crypto_alloc_aead(name)
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        assert testmgr.alg_test(t.driver_name, name) == 0
    assert f"No test for {name}" in caplog.text
    rec = [b for b in capi.proc_crypto().split("\n\n") if f": {t.driver_name}\n" in b + "\n"]
    assert rec and "selftest     : passed" in rec[0]
