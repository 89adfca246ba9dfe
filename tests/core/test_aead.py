"""The AEAD type (crypto/aead.c, v5.0): registration, lookup, setauthsize, requests, grab.

Drivers here are written against the public driver interface; the ChaCha20-Poly1305
one (tests/aead_ref.py) computes with the ``cryptography`` package, so it is
independent of this project's C code and of the rfc7539 template.
"""

import gc
from errno import ENOSPC

import pytest

import crypto_api as capi
from aead_ref import rfc7539_driver, seal
from crypto_api.errors import EINVAL, ENOENT, ENOKEY

KEY = bytes(range(32))
NONCE = bytes(12)


def toy_aead(driver, **extra):
    """An AEAD whose 'tag' is authsize copies of the key byte; no vectors exist for it."""

    def crypt(req):
        return None

    fields = dict(cra_name="toy-aead", cra_driver_name=driver, cra_priority=100, cra_blocksize=1,
                  ivsize=0, maxauthsize=8, setkey=lambda tfm, key: None, encrypt=crypt, decrypt=crypt)
    fields.update(extra)
    return capi.AeadAlg(**fields)


def test_a_registered_driver_is_self_tested_typed_and_listed(register, proc_records):
    alg = register(rfc7539_driver("rfc7539-ref-test", priority=50))
    rec = [r for r in proc_records() if r["driver"] == "rfc7539-ref-test"][0]
    assert rec["selftest"] == "passed" and rec["type"] == "aead" and rec["maxauthsize"] == "16"
    with capi.crypto_alloc_aead("rfc7539-ref-test") as tfm:
        assert tfm.alg.cra_flags & capi.CRYPTO_ALG_TYPE_MASK == capi.CRYPTO_ALG_TYPE_AEAD == 3
        assert tfm.chunksize == 1                      # defaulted to the block size
        tfm.setkey(KEY)
        assert tfm.encrypt(b"hello", NONCE, b"ad") == seal(KEY, NONCE, b"ad", b"hello")
    assert alg.chunksize == 0                          # the caller's descriptor is not changed


@pytest.mark.parametrize("field, value", [("maxauthsize", 513), ("ivsize", 513), ("chunksize", 600),
                                          ("ivsize", -1), ("maxauthsize", True)])
def test_sizes_above_page_size_over_8_are_refused(field, value):
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_aead(toy_aead("toy-aead-bad", **{field: value}))
    assert e.value.errno == EINVAL and field in e.value.message


@pytest.mark.parametrize("missing", ["setkey", "encrypt", "decrypt"])
def test_mandatory_callbacks(missing):
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_register_aead(toy_aead("toy-aead-bad", **{missing: None}))
    assert e.value.errno == EINVAL and missing in e.value.message


def test_register_aeads_undoes_the_registered_ones_on_failure():
    good = toy_aead("toy-aead-1")
    with pytest.raises(capi.CryptoError):
        capi.crypto_register_aeads([good, toy_aead("toy-aead-2", maxauthsize=1000)])
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_aead("toy-aead-1")
    assert e.value.errno == ENOENT
    with pytest.raises(TypeError):
        capi.crypto_register_aead(capi.SkcipherAlg(cra_name="x", setkey=len, encrypt=len, decrypt=len))
    capi.crypto_register_aeads([good])
    capi.crypto_unregister_aeads([good])


def test_lookups_find_only_their_type(register):
    register(toy_aead("toy-aead-typed"))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("toy-aead-typed")
    assert e.value.errno == ENOENT
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_aead("chacha20-generic")
    assert e.value.errno == ENOENT


def test_setauthsize_v50_frontend_rule_without_a_hook(register):
    register(toy_aead("toy-aead-tags"))
    with capi.crypto_alloc_aead("toy-aead-tags") as tfm:
        assert capi.crypto_aead_authsize(tfm) == capi.crypto_aead_maxauthsize(tfm) == 8
        for n in (0, 1, 8):                          # v5.0 lets 0 through (5.4+ refuses it)
            tfm.setauthsize(n)
            assert tfm.authsize == n
        for n in (9, -1):
            with pytest.raises(capi.CryptoError) as e:
                tfm.setauthsize(n)
            assert e.value.errno == EINVAL and "maxauthsize" in e.value.message
        assert tfm.authsize == 8


def test_entry_checks_in_kernel_order_then_the_drivers_errno(register):
    register(toy_aead("toy-aead-err", encrypt=lambda req: -ENOSPC))
    with capi.crypto_alloc_aead("toy-aead-err") as tfm:
        buf = capi.sg_init_one(bytearray(64))
        req = capi.aead_request_alloc(tfm)
        capi.aead_request_set_crypt(req, buf, buf, 4, None)
        with pytest.raises(capi.CryptoError) as e:           # NEED_KEY before anything else
            capi.crypto_aead_decrypt(req)
        assert e.value.errno == ENOKEY
        tfm.setkey(b"k")
        with pytest.raises(capi.CryptoError) as e:           # cryptlen 4 < authsize 8
            capi.crypto_aead_decrypt(req)
        assert e.value.errno == EINVAL
        with pytest.raises(capi.CryptoError) as e:           # a driver returning -errno
            capi.crypto_aead_encrypt(req)
        assert e.value.errno == ENOSPC
        capi.aead_request_set_ad(req, 60)                    # 60 + 4 + 8 > 64 bytes of dst
        with pytest.raises(capi.CryptoError) as e:
            capi.crypto_aead_encrypt(req)
        assert e.value.errno == EINVAL and "dst" in e.value.message
        with pytest.raises(TypeError):
            capi.crypto_aead_encrypt("not a request")


def test_a_freed_tfm_refuses(register):
    register(toy_aead("toy-aead-free"))
    tfm = capi.crypto_alloc_aead("toy-aead-free")
    tfm.setkey(b"k")
    capi.crypto_free_aead(tfm)
    with pytest.raises(capi.CryptoError) as e:
        tfm.encrypt(b"")
    assert e.value.errno == EINVAL and "freed" in e.value.message


# ---------------------------------------------------------------- crypto_grab_aead

def passthrough_create(tmpl, tb):
    """``pass(<aead>)``: an instance that hands every request to its inner AEAD."""
    spawn = capi.crypto_grab_aead(capi.crypto_attr_alg_name(tb, 1, "pass"))
    inner = spawn.alg

    def init(tfm):
        tfm.ctx.child = capi.crypto_spawn_aead(tfm.alg.instance.spawns[0])

    def exit_(tfm):
        tfm.ctx.child.free()

    def setkey(tfm, key):
        tfm.ctx.child.setkey(key)

    def setauthsize(tfm, n):
        tfm.ctx.child.setauthsize(n)

    def crypt(enc):
        def run(req):
            sub = capi.aead_request_alloc(tfm_child(req))
            capi.aead_request_set_crypt(sub, req.src, req.dst, req.cryptlen, req.iv)
            capi.aead_request_set_ad(sub, req.assoclen)
            return (capi.crypto_aead_encrypt if enc else capi.crypto_aead_decrypt)(sub)
        return run

    def tfm_child(req):
        return capi.crypto_aead_ctx(capi.crypto_aead_reqtfm(req)).child

    capi.aead_register_instance(tmpl, capi.AeadAlg(
        cra_name=capi.crypto_inst_name("pass", inner.cra_name),
        cra_driver_name=capi.crypto_inst_name("pass", inner.cra_driver_name),
        cra_priority=inner.cra_priority, cra_blocksize=1, ivsize=inner.ivsize,
        maxauthsize=inner.maxauthsize, setkey=setkey, setauthsize=setauthsize,
        encrypt=crypt(True), decrypt=crypt(False), init=init, exit=exit_), [spawn])


def test_grab_aead_builds_an_instance_that_dies_with_its_inner_aead(register):
    inner = register(rfc7539_driver("rfc7539-ref-inner", priority=60))
    register(capi.Template(name="pass", create=passthrough_create))
    with capi.crypto_alloc_aead("pass(rfc7539-ref-inner)") as tfm:
        assert tfm.driver_name == "pass(rfc7539-ref-inner)" and tfm.ivsize == 12
        tfm.setkey(KEY)
        ct = tfm.encrypt(b"through a spawn", NONCE, b"hdr")
        assert ct == seal(KEY, NONCE, b"hdr", b"through a spawn")
        assert tfm.decrypt(ct, NONCE, b"hdr") == b"through a spawn"
    gc.collect()
    capi.crypto_unregister_aead(inner)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_aead("pass(rfc7539-ref-inner)")
    assert e.value.errno == ENOENT


class Tracked(bytearray):
    """A bytearray that records its contents when it is freed."""

    freed = []

    def __del__(self):
        Tracked.freed.append(bytes(self))


def test_setkey_hands_the_driver_a_wipeable_copy_zeroed_afterwards(register, monkeypatch):
    import crypto_api.tfm as tfm_module
    monkeypatch.setattr(tfm_module, "bytearray", Tracked, raising=False)
    Tracked.freed = []
    types = []

    def setkey(tfm, key):
        types.append(type(key))
        assert key == KEY

    register(toy_aead("toy-aead-keycopy", setkey=setkey))
    with capi.crypto_alloc_aead("toy-aead-keycopy") as tfm:
        tfm.setkey(KEY)
        gc.collect()
        assert types == [Tracked] and Tracked.freed == [bytes(32)]     # zeroed, then freed


def test_a_drivers_direct_path_is_tried_first_and_dropped_with_the_key(register):
    """``AeadAlg.direct``: built after setkey/setauthsize, declining falls back to the
    request path, gone after a failed setkey or free."""
    import attrs
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from crypto_api.errors import EBADMSG, CryptoError
    from cryptography.exceptions import InvalidTag

    made, used = [], []

    def direct(tfm, encrypt):
        made.append((encrypt, tfm.authsize))
        aead = ChaCha20Poly1305(tfm.ctx.key)

        def fn(data, iv, assoc, out):
            if len(data) == 3:
                return None                       # declines: the request path runs
            used.append(encrypt)
            try:
                res = (aead.encrypt if encrypt else aead.decrypt)(bytes(iv), bytes(data), bytes(assoc))
            except InvalidTag:
                raise CryptoError(EBADMSG, "toy: tag mismatch") from None
            if out is None:
                return res
            out[:] = res
            return out
        return fn

    register(attrs.evolve(rfc7539_driver("rfc7539-ref-direct", priority=40), direct=direct))
    with capi.crypto_alloc_aead("rfc7539-ref-direct") as tfm:
        assert tfm._direct_enc is None and tfm._direct_dec is None       # no key, no direct path
        made.clear()
        used.clear()
        tfm.setkey(KEY)
        assert made == [(True, 16), (False, 16)]
        ct = tfm.encrypt(b"fast", NONCE, b"ad")
        assert ct == seal(KEY, NONCE, b"ad", b"fast") and used == [True]
        assert tfm.decrypt(ct, NONCE, b"ad") == b"fast" and used == [True, False]
        assert tfm.encrypt(b"abc", NONCE) == seal(KEY, NONCE, b"", b"abc") and len(used) == 2
        with pytest.raises(capi.CryptoError) as e:
            tfm.decrypt(ct[:-1] + bytes([ct[-1] ^ 1]), NONCE, b"ad")
        assert e.value.errno == EBADMSG
        tfm.setauthsize(16)
        assert len(made) == 4                                # rebuilt for the new tag length
        with pytest.raises(capi.CryptoError):
            tfm.setkey(bytes(5))
        with pytest.raises(capi.CryptoError) as e:           # the old key's direct path is gone
            tfm.encrypt(b"fast", NONCE)
        assert e.value.errno == ENOKEY and len(used) == 3
