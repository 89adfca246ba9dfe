"""The mode templates ecb, cbc, ctr, rfc3686, xts and essiv (algs/*.py):
names, priorities and sizes, official vectors, and any data, key and
scatterlist layout against cryptography (tests/modes_ref.py)."""

import hashlib

import pytest
from cryptography.hazmat.primitives.ciphers import modes
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EINVAL
from crypto_api.testmgr.vectors import load_json
from modes_ref import aes, xts
from sglayout import gather, layouts, outside, scatter

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

GENERIC = {"ecb": "ecb(aes-generic)", "cbc": "cbc(aes-generic)", "ctr": "ctr(aes-generic)",
           "xts": "xts(ecb(aes-generic))"}


def alloc(name, key=None):
    t = capi.crypto_alloc_skcipher(name)
    if key is not None:
        t.setkey(key)
    return t


@pytest.mark.parametrize("name, cra_name, driver, blocksize, ivsize, keys", [
    ("ecb(aes-generic)", "ecb(aes)", "ecb(aes-generic)", 16, 0, (16, 32)),
    ("cbc(aes-generic)", "cbc(aes)", "cbc(aes-generic)", 16, 16, (16, 32)),
    ("ctr(aes-generic)", "ctr(aes)", "ctr(aes-generic)", 1, 16, (16, 32)),
    ("xts(aes-generic)", "xts(aes)", "xts(ecb(aes-generic))", 16, 16, (32, 64)),
    ("rfc3686(ctr(aes-generic))", "rfc3686(ctr(aes))", "rfc3686(ctr(aes-generic))", 1, 8, (20, 36)),
])
def test_generic_instances_have_the_kernels_names_and_sizes(name, cra_name, driver, blocksize, ivsize, keys):
    with alloc(name) as t:
        a = t.alg
        assert (a.cra_name, a.cra_driver_name, a.cra_priority) == (cra_name, driver, 100)
        assert (a.cra_blocksize, a.ivsize, a.min_keysize, a.max_keysize) == (blocksize, ivsize, *keys)
        assert (a.chunksize, a.walksize) == (16, 16)


def aes_drivers():
    return sorted({r.split("driver       : ")[1].split("\n")[0]
                   for r in capi.proc_crypto().split("\n\n") if "name         : aes\n" in r})


def test_instances_over_each_aes_driver_take_its_priority_and_proc_shows_them():
    capi.crypto_alloc_cipher("aes").free()
    for d in aes_drivers():
        with capi.crypto_alloc_cipher(d) as c, alloc(f"xts({d})") as t:
            assert t.driver_name == f"xts(ecb({d}))"
            assert t.alg.cra_priority == c.alg.cra_priority
            assert t.alg.cra_alignmask & 7 == 7
    text = capi.proc_crypto()
    rec = text.split("driver       : xts(ecb(aes-generic))", 1)[1].split("\n\n", 1)[0]
    for line in ("type         : skcipher", "async        : no", "min keysize  : 32", "max keysize  : 64",
                 "ivsize       : 16", "chunksize    : 16", "walksize     : 16"):
        assert line in rec


# --------------------------------------------------------------------------
# vectors

XTS_VECS = load_json("aes-xts.json")["vectors"]


@pytest.mark.parametrize("driver", ["xts(ecb(aes-generic))", "xts(aes)"])
def test_every_xts_vector_both_ways(driver):
    with alloc(driver) as t:
        for v in XTS_VECS:
            key, iv = bytes.fromhex(v["key"]), bytes.fromhex(v["kernel_iv"])
            p, c = bytes.fromhex(v["plaintext"]), bytes.fromhex(v["ciphertext"])
            t.setkey(key)
            assert t.encrypt(p, iv) == c, v["id"]
            assert t.decrypt(c, iv) == p, v["id"]
    assert any(len(v["plaintext"]) % 32 for v in XTS_VECS)        # stealing vectors ran


@pytest.mark.parametrize("v", load_json("aes-modes.json")["vectors"], ids=lambda v: v["id"])
@pytest.mark.parametrize("which", ["generic", "best"])
def test_cbc_ctr_rfc3686_vectors_and_output_iv(v, which):
    name = v["kernel_alg"] if which == "best" else v["kernel_alg"].replace("(aes)", "(aes-generic)")
    with alloc(name, bytes.fromhex(v["key"])) as t:
        for encrypt, src, want in ((True, v["plaintext"], v["ciphertext"]), (False, v["ciphertext"], v["plaintext"])):
            iv = bytearray.fromhex(v["iv"])
            data = bytearray.fromhex(src)
            req = capi.skcipher_request_alloc(t)
            capi.skcipher_request_set_crypt(req, [capi.sg_init_one(data)[0]], [capi.sg_init_one(data)[0]],
                                            len(data), iv)
            (capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt)(req)
            assert data.hex() == want
            if "iv_out" in v:
                assert iv.hex() == v["iv_out"]


# --------------------------------------------------------------------------
# against cryptography

def reference(mode, key, iv, data, encrypt):
    if mode == "xts":
        return xts(key, iv, data, encrypt)
    m = {"ecb": modes.ECB(), "cbc": modes.CBC(iv), "ctr": modes.CTR(iv)}[mode]
    return aes(key, m, data, encrypt)


@st.composite
def cases(draw):
    mode = draw(st.sampled_from(["ecb", "cbc", "ctr", "xts"]))
    if mode == "xts":
        key = draw(st.binary(min_size=1, max_size=1).flatmap(
            lambda _: st.sampled_from([32, 48, 64]).flatmap(lambda n: st.binary(min_size=n, max_size=n))))
        n = draw(st.integers(16, 600))
    else:
        key = draw(st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)))
        n = draw(st.integers(0, 600)) if mode == "ctr" else 16 * draw(st.integers(0, 37))
    iv = draw(st.binary(min_size=16, max_size=16))
    data = draw(st.binary(min_size=n, max_size=n))
    return mode, key, iv, data


@SETTINGS
@given(case=cases(), encrypt=st.booleans(), best=st.booleans(), inplace=st.booleans(), data=st.data())
def test_any_layout_matches_cryptography(case, encrypt, best, inplace, data):
    mode, key, iv, msg = case
    want = reference(mode, key, iv, msg, encrypt)
    with alloc(f"{mode}(aes)" if best else GENERIC[mode], key) as t:
        assert (t.encrypt if encrypt else t.decrypt)(msg, iv if t.ivsize else None) == want
        src_layout = data.draw(layouts(len(msg)))
        sgl, bufs = scatter(msg, src_layout, b"\xa5")
        if inplace:
            dsg, dbufs, dlayout = sgl, bufs, src_layout
        else:
            dlayout = data.draw(layouts(len(msg)))
            dsg, dbufs = scatter(bytes(len(msg)), dlayout, b"\x5a")
        before = outside(dbufs, dlayout)
        ivbuf = bytearray(iv)
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_crypt(req, sgl, dsg, len(msg), ivbuf)
        (capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt)(req)
        assert gather(dbufs, dlayout) == want
        assert outside(dbufs, dlayout) == before
        if mode == "cbc" and msg:
            assert ivbuf == (want if encrypt else msg)[-16:]
        elif mode == "ctr":
            assert int.from_bytes(ivbuf, "big") == (int.from_bytes(iv, "big") + -(-len(msg) // 16)) % (1 << 128)
        else:
            assert ivbuf == iv                      # xts leaves req->iv alone


@SETTINGS
@given(case=cases(), encrypt=st.booleans())
def test_the_python_and_composed_paths_give_the_same(case, encrypt):
    """Without the C block function (a cipher publishing none; xts over a
    child it cannot see into) the per-block / composed paths are taken."""
    mode, key, iv, msg = case
    with alloc(GENERIC[mode], key) as t:
        if mode == "xts":
            t.ctx.data_run = None
        else:
            t.ctx.run = None
        assert (t.encrypt if encrypt else t.decrypt)(msg, iv if t.ivsize else None) == \
            reference(mode, key, iv, msg, encrypt)


def test_an_fpu_trace_sees_the_sections_of_the_composed_path():
    key, iv, msg = bytes(range(64)), bytes(16), bytes(100)
    with alloc("xts(aes)", key) as t:
        with capi.fpu_trace():
            assert t.encrypt(msg, iv) == xts(key, iv, msg)


# --------------------------------------------------------------------------
# refusals

@pytest.mark.parametrize("mode, n", [("ecb", 17), ("cbc", 31), ("xts", 0), ("xts", 15)])
def test_lengths_the_mode_cannot_take_are_einval_and_leave_out_alone(mode, n):
    with alloc(GENERIC[mode], bytes(64 if mode == "xts" else 16)) as t:
        out = bytearray(b"\x77" * n)
        with pytest.raises(capi.CryptoError) as e:
            t.encrypt(bytes(n), bytes(16) if t.ivsize else None, out)
        assert e.value.errno == EINVAL and t.driver_name in e.value.message
        assert out == b"\x77" * n


def test_xts_keys():
    with alloc("xts(aes)") as t:
        for n in (31, 33, 40, 63):
            with pytest.raises(capi.CryptoError) as e:
                t.setkey(bytes(n))
            assert e.value.errno == EINVAL
        t.setkey(bytes(32))                       # equal halves: accepted without the flag
        t.set_flags(capi.CRYPTO_TFM_REQ_FORBID_WEAK_KEYS)
        with pytest.raises(capi.CryptoError, match="equal"):
            t.setkey(bytes(32))
        t.setkey(bytes(range(64)))


@pytest.mark.parametrize("name", ["xts(ecb(aes-generic))", "xts(aes)"])   # the template, the best driver
def test_xts_keys_in_fips_mode(monkeypatch, name):
    import crypto_api.algs.xts as xts_mod
    with alloc(name) as t:          # built and self-tested first: vectors with 48-byte keys
        monkeypatch.setattr(xts_mod, "fips_enabled", True)
        with pytest.raises(capi.CryptoError, match="FIPS"):
            t.setkey(bytes(range(48)))
        with pytest.raises(capi.CryptoError, match="equal"):
            t.setkey(bytes(64))
        t.setkey(bytes(range(32)))


def test_rfc3686_key_without_nonce_is_einval():
    with alloc("rfc3686(ctr(aes))") as t:
        with pytest.raises(capi.CryptoError) as e:
            t.setkey(bytes(3))
        assert e.value.errno == EINVAL


@pytest.mark.parametrize("name", ["xts(sha256)", "cbc(sha256)", "rfc3686(cbc(aes))", "essiv(ecb(aes),sha256)"])
def test_unusable_parameters_are_refused(name):
    with pytest.raises(capi.CryptoError):
        capi.crypto_alloc_skcipher(name)


# --------------------------------------------------------------------------
# essiv

def test_essiv_names_and_dm_crypt_semantics():
    with alloc("essiv(cbc(aes-generic),sha256-generic)") as t:
        assert t.alg.cra_name == "essiv(cbc(aes),sha256)"
        assert (t.alg.cra_priority, t.ivsize, t.alg.min_keysize, t.alg.max_keysize) == (100, 16, 16, 32)
    for d in aes_drivers():
        with alloc(f"essiv(cbc({d}),sha256-generic)") as t:
            assert t.driver_name == f"essiv(cbc({d}),sha256-generic)"
            assert t.alg.cra_name == "essiv(cbc(aes),sha256)"


@SETTINGS
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       iv=st.binary(min_size=16, max_size=16), blocks=st.integers(1, 20), data=st.data())
def test_essiv_matches_salt_encrypted_iv_cbc(key, iv, blocks, data):
    msg = data.draw(st.binary(min_size=16 * blocks, max_size=16 * blocks))
    salt = hashlib.sha256(key).digest()
    want = aes(key, modes.CBC(aes(salt, modes.ECB(), iv)), msg)
    with alloc("essiv(cbc(aes),sha256)", key) as t:
        assert t.encrypt(msg, iv) == want
        assert t.decrypt(want, iv) == msg
        ivbuf = bytearray(iv)
        buf = bytearray(msg)
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), len(buf), ivbuf)
        capi.crypto_skcipher_encrypt(req)
        assert buf == want and ivbuf == want[-16:]     # the inner's output IV
