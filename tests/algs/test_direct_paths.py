"""The one-call direct path of tfm.encrypt/decrypt (``SkcipherAlg.direct``).

Each driver's direct path must give the bytes of the request path (scatterlists)
and of an independent peer, in every FPU situation, and must never outlive
its key.  The tests call the installed direct path directly too, so that they
fail if it silently declines instead of running.
"""

import array
import contextlib
import mmap
import os

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from Crypto.Cipher import ChaCha20 as PyChaCha20
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EINVAL, ENOKEY, CryptoError
from drawn_bytes import exactly
from alloc_or_skip import alloc_or_skip

CHACHA_DRIVERS = ["chacha20-generic", "xchacha20-generic", "xchacha12-generic",
                  "chacha20-simd", "xchacha20-simd", "xchacha12-simd"]
ADIANTUM = ["adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)",
            "adiantum(xchacha20-generic,aes-generic,nhpoly1305-generic)",
            "adiantum(xchacha12-generic,aes-aesni,nhpoly1305-sse2)"]


@pytest.fixture
def entry():
    """The direct path: the C entry point (crypto_api/direct_call.c and
    digest_call.h), its one implementation; where it is not built the tfm
    has none (tests/core/test_direct_paths_off.py)."""
    from crypto_api import direct as direct_path
    if direct_path._skcipher_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    return "c"


def _alloc(name, key=None):
    tfm = alloc_or_skip(capi.crypto_alloc_skcipher, name)
    tfm.setkey(key if key is not None else bytes(range(7, 7 + tfm.max_keysize)))
    return tfm


def _request(tfm, data, iv, encrypt=True):
    """The scatterlist request path (what the direct path must equal)."""
    buf = bytearray(data)
    req = capi.skcipher_request_alloc(tfm)
    sgl = capi.sg_init_one(buf)
    capi.skcipher_request_set_crypt(req, sgl, sgl, len(buf), bytearray(iv))
    (capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt)(req)
    return bytes(buf)


def _peer(name, key, iv, data):
    """cryptography (ChaCha20) or pycryptodome (XChaCha20, position 0)."""
    if name.startswith("chacha20"):
        return Cipher(algorithms.ChaCha20(key, iv), None).encryptor().update(data)
    assert name.startswith("xchacha20") and iv[24:] == bytes(8)
    return PyChaCha20.new(key=key, nonce=iv[:24]).encrypt(data)


@pytest.mark.parametrize("name", CHACHA_DRIVERS + ADIANTUM)
def test_fast_path_is_installed_by_setkey_and_taken(name, entry):
    tfm = _alloc(name)
    assert tfm._direct_enc is not None and tfm._direct_dec is not None
    iv = os.urandom(tfm.ivsize)
    data = os.urandom(700)
    out = tfm._direct_enc(data, iv, None)
    assert type(out) is bytes and out == _request(tfm, data, iv)
    assert tfm._direct_dec(out, iv, None) == data


@pytest.mark.parametrize("name", ["xchacha12-simd", ADIANTUM[0]])
def test_an_mmap_is_read_and_written_on_the_fast_path(name, entry):
    tfm = _alloc(name)
    iv = bytes(range(tfm.ivsize))
    msg = os.urandom(5000)
    want = _request(tfm, msg, iv)
    with mmap.mmap(-1, len(msg)) as src, mmap.mmap(-1, len(msg)) as dst:
        src[:] = msg
        assert tfm._direct_enc(src, iv, dst) is dst and dst[:] == want
        assert tfm._direct_dec(dst, iv, dst) is dst and dst[:] == msg        # in place
        assert tfm._direct_enc(src, iv, None) == want


#: The buffer shapes the direct path takes (``_run`` builds each).
HOW = ["bytes", "bytearray", "out", "in place", "in place view", "view to view", "two views in place",
       "array", "read-only view"]


@pytest.mark.parametrize("name", CHACHA_DRIVERS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.one_of(st.integers(0, 300), st.integers(0, 9000), st.integers(16380, 40000)), data=st.data())
def test_chacha_fast_path_matches_request_path_and_peer(name, entry, n, data):
    key = data.draw(exactly(32), label="key")
    tfm = _alloc(name, key)
    if tfm.ivsize == 32:
        iv = data.draw(exactly(24), label="nonce") + bytes(8)
    else:
        iv = data.draw(exactly(16), label="iv")
    msg = data.draw(exactly(n), label="msg")
    want = _request(tfm, msg, iv)
    if not name.startswith("xchacha12"):
        assert want == _peer(name, key, iv, msg)
    how = data.draw(st.sampled_from(HOW))
    where = data.draw(st.sampled_from(["simd", "nosimd", "inside fpu section", "irq"]))
    assert _run(tfm, msg, iv, how, where) == want


@pytest.mark.parametrize("name", ADIANTUM)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.one_of(st.integers(16, 300), st.integers(16, 9000), st.integers(16380, 40000)), data=st.data())
def test_adiantum_fast_path_matches_request_path(name, entry, n, data):
    tfm = _alloc(name, data.draw(exactly(32), label="key"))
    iv = data.draw(exactly(32), label="iv")
    msg = data.draw(exactly(n), label="msg")
    want = _request(tfm, msg, iv)
    how = data.draw(st.sampled_from(HOW))
    where = data.draw(st.sampled_from(["simd", "nosimd", "inside fpu section", "irq"]))
    assert _run(tfm, msg, iv, how, where) == want
    assert _request(tfm, want, iv, encrypt=False) == msg
    assert _run(tfm, want, iv, how, where, encrypt=False) == msg


@pytest.mark.parametrize("name", ["xchacha12-simd", "chacha20-generic", ADIANTUM[0]])
@pytest.mark.parametrize("how", HOW)
def test_every_buffer_shape_takes_the_fast_path(name, how, entry):
    """Each shape is called on the direct path directly (``_run`` asserts it
    returned the result, not None) and through tfm.encrypt/decrypt."""
    tfm = _alloc(name)
    iv = bytes(range(tfm.ivsize))
    for n in (16, 100, 4096):
        msg = os.urandom(n)
        want = _request(tfm, msg, iv)
        assert _run(tfm, msg, iv, how, "simd") == want
        assert _run(tfm, want, iv, how, "nosimd", encrypt=False) == msg


def _run(tfm, msg, iv, how, where, encrypt=True):
    """tfm.encrypt in one of the accepted buffer shapes and FPU situations;
    the direct path must accept it (called directly first)."""
    fast = tfm._direct_enc if encrypt else tfm._direct_dec
    crypt = tfm.encrypt if encrypt else tfm.decrypt
    data = bytearray(msg) if how in ("bytearray", "in place") else msg

    def call(fn):
        if how == "out":
            out = bytearray(len(msg))
            assert fn(data, iv, out) is out
            return bytes(out)
        if how == "in place":
            buf = bytearray(msg)
            assert fn(buf, iv, buf) is buf
            return bytes(buf)
        if how == "in place view":      # a sector of a larger buffer, as the disk tool does
            buf = bytearray(b"\xa5" * 7 + msg + b"\x5a" * 9)
            view = memoryview(buf)[7:7 + len(msg)]
            assert fn(view, iv, view) is view
            assert buf[:7] == b"\xa5" * 7 and buf[7 + len(msg):] == b"\x5a" * 9
            return bytes(view)
        if how == "view to view":       # one sector of a buffer into another sector of it
            n = len(msg)
            buf = bytearray(b"\xa5" * 5 + msg + b"\x5a" * 3 + bytes(n) + b"\xc3" * 4)
            src, dst = memoryview(buf)[5:5 + n], memoryview(buf)[8 + n:8 + 2 * n]
            assert fn(src, iv, dst) is dst
            assert buf[:5 + n] == b"\xa5" * 5 + msg and buf[5 + n:8 + n] == b"\x5a" * 3
            assert buf[8 + 2 * n:] == b"\xc3" * 4
            return bytes(dst)
        if how == "two views in place":  # distinct view objects over the same bytes
            buf = bytearray(msg)
            out = memoryview(buf)
            assert fn(memoryview(buf), iv, out) is out
            return bytes(buf)
        if how == "array":              # another exporter: array.array in, array.array out
            out = array.array("B", bytes(len(msg)))
            assert fn(array.array("B", msg), iv, out) is out
            return out.tobytes()
        res = fn(memoryview(msg) if how == "read-only view" else data, iv, None)
        assert type(res) is bytes
        return res

    ctx = {"simd": contextlib.nullcontext, "nosimd": capi.simd_disabled, "irq": capi.interrupt_context,
           "inside fpu section": _fpu_section}[where]
    with ctx():
        direct = call(fast)
        public = call(crypt)
    assert direct == public
    return direct


class _fpu_section:
    """Inside someone else's kernel_fpu_begin: SIMD not usable, no nesting."""

    def __enter__(self):
        capi.kernel_fpu_begin()

    def __exit__(self, *exc):
        assert capi.in_kernel_fpu()
        capi.kernel_fpu_end()
        return False


@pytest.mark.parametrize("name", ["xchacha12-simd", ADIANTUM[0]])
def test_fast_path_declines_while_tracing_so_sections_are_real(name, entry):
    tfm = _alloc(name)
    iv = os.urandom(32)
    data = os.urandom(3 * 4096)
    with capi.fpu_trace() as tr:
        assert tfm._direct_enc(data, iv, None) is None
        out = tfm.encrypt(data, iv)
    assert out == _request(tfm, data, iv)
    assert tr.sections and sum(tr.nbytes) > 0
    if name == "xchacha12-simd":
        assert tr.nbytes == [4096, 4096, 4096]


def test_small_chacha_request_takes_fast_path_while_tracing(entry):
    """64 bytes or less run the generic code, which opens no section: nothing to record."""
    tfm = _alloc("xchacha12-simd")
    iv = os.urandom(32)
    with capi.fpu_trace() as tr:
        assert tfm._direct_enc(b"x" * 64, iv, None) is not None
    assert tr.sections == []


@pytest.mark.parametrize("name", ["xchacha12-simd", "chacha20-generic", ADIANTUM[0]])
def test_fast_path_declines_what_it_does_not_check(name, entry):
    tfm = _alloc(name)
    iv = os.urandom(tfm.ivsize)
    data = os.urandom(100)
    fast = tfm._direct_enc
    view = memoryview(bytearray(200))[::2]                  # not contiguous
    assert fast(view, iv, view) is None
    assert fast(data, iv, view) is None
    assert fast(data, iv, data) is None                     # bytes cannot be written in place
    with pytest.raises(CryptoError) as e:
        tfm.encrypt(data, iv, out=data)
    assert e.value.errno == EINVAL and "writable" in str(e.value)
    assert fast(data, iv, memoryview(bytes(100))) is None   # read-only
    assert fast("x" * 100, iv, None) is None                # not a buffer
    assert fast(data, bytearray(iv), None) is None
    assert fast(data, iv[:-1], None) is None
    assert fast(data, iv, bytearray(99)) is None
    assert fast(data, iv, memoryview(bytearray(101))) is None
    buf = bytearray(data + bytes(100))
    src = memoryview(buf)[:100]
    for shift in (1, 50, 99):                               # the same memory, shifted
        before = bytes(buf)
        assert fast(src, iv, memoryview(buf)[shift:shift + 100]) is None
        assert fast(memoryview(buf)[shift:shift + 100], iv, src) is None
        with pytest.raises(CryptoError) as e:
            tfm.encrypt(src, iv, out=memoryview(buf)[shift:shift + 100])
        assert e.value.errno == EINVAL and "overlaps" in str(e.value)
        assert bytes(buf) == before
    # ...and the full path then gives the refusals and results
    with pytest.raises(CryptoError) as e:
        tfm.encrypt(data, iv[:-1])
    assert e.value.errno == EINVAL and "IV is" in str(e.value) and tfm.driver_name in str(e.value)
    with pytest.raises(CryptoError) as e:
        tfm.encrypt(data, iv, out=bytearray(99))
    assert e.value.errno == EINVAL and "out must be" in str(e.value)
    assert tfm.encrypt(memoryview(data), bytearray(iv)) == tfm.encrypt(data, iv)


def test_adiantum_short_message_still_refused(entry):
    tfm = _alloc(ADIANTUM[0])
    assert tfm._direct_enc(b"x" * 15, bytes(32), None) is None
    with pytest.raises(CryptoError) as e:
        tfm.encrypt(b"x" * 15, bytes(32))
    assert e.value.errno == EINVAL and "at least 16" in str(e.value)


@pytest.mark.parametrize("name", ["xchacha12-simd", "chacha20-generic", ADIANTUM[0]])
def test_fast_path_follows_the_key(name, entry):
    k1, k2 = os.urandom(32), os.urandom(32)
    tfm = _alloc(name, k1)
    iv = os.urandom(tfm.ivsize)
    data = os.urandom(300)
    c1 = tfm.encrypt(data, iv)
    tfm.setkey(k2)
    assert tfm.encrypt(data, iv) == _alloc(name, k2).encrypt(data, iv) != c1
    with pytest.raises(CryptoError):
        tfm.setkey(b"short")
    assert tfm._direct_enc is None
    with pytest.raises(CryptoError) as e:
        tfm.encrypt(data, iv)
    assert e.value.errno == ENOKEY
    tfm.setkey(k1)
    assert tfm.encrypt(data, iv) == c1
    tfm.free()
    assert tfm._direct_enc is None and tfm._direct_dec is None
    with pytest.raises(CryptoError) as e:
        tfm.encrypt(data, iv)
    assert e.value.errno == EINVAL and "freed" in str(e.value)


def test_plugin_without_c_entry_points_has_no_fast_path(register):
    """An Adiantum instance over a plug-in stream cipher composes through the API."""
    import crypto_api.algs.chacha_generic as g
    alg = capi.SkcipherAlg(
        cra_name="xchacha12", cra_driver_name="xchacha12-plainpy", cra_priority=50,
        cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=32, chunksize=64,
        setkey=g.chacha12_setkey, encrypt=g.crypto_xchacha_crypt, decrypt=g.crypto_xchacha_crypt)
    register(alg)
    key = os.urandom(32)
    with _alloc("adiantum(xchacha12-plainpy,aes-generic,nhpoly1305-generic)", key) as tfm, \
            _alloc("adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)", key) as ref:
        assert tfm._direct_enc is None and ref._direct_enc is not None
        iv, data = os.urandom(32), os.urandom(999)
        assert tfm.encrypt(data, iv) == ref.encrypt(data, iv)


# -- shash: tfm.digest -------------------------------------------------------

POLY_DRIVERS = ["poly1305-generic", "poly1305-x86_64", "poly1305-simd"]
#: The buffers a digest takes on its direct path, built from the message's bytes.
SHAPES = {"bytes": bytes, "bytearray": bytearray, "memoryview": lambda b: memoryview(bytearray(b)),
          "array": lambda b: array.array("B", b)}
NHPOLY_DRIVERS = ["nhpoly1305-generic", "nhpoly1305-sse2", "nhpoly1305-avx2"]


def _shash(name, key=None):
    return alloc_or_skip(capi.crypto_alloc_shash, name, key)


def _streamed(tfm, data):
    """The descriptor path, in two updates (what the direct path must equal)."""
    d = tfm.desc().init()
    d.update(data[:len(data) // 3])
    d.update(data[len(data) // 3:])
    return d.final()


SHA256_DRIVERS = [f"{name}-{impl}" for impl in ("generic", "ssse3", "avx", "avx2", "ni")
                  for name in ("sha256", "sha224")]
# the x86 SHA-512 drivers have the C entry too (sha512-generic has no direct path)
SHA2_DRIVERS = SHA256_DRIVERS + [f"{name}-{impl}" for impl in ("ssse3", "avx", "avx2")
                                 for name in ("sha512", "sha384")]


@pytest.mark.parametrize("name", SHA2_DRIVERS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.integers(0, 200), st.integers(0, 9000)).flatmap(exactly),
       shape=st.sampled_from(sorted(SHAPES)),
       where=st.sampled_from(["simd", "nosimd", "inside fpu section"]))
def test_sha256_digest_fast_path_matches_descriptor_and_hashlib(name, entry, data, shape, where):
    import hashlib
    tfm = _shash(name)
    ctx = {"simd": contextlib.nullcontext, "nosimd": capi.simd_disabled, "inside fpu section": _fpu_section}[where]
    with ctx():
        direct = tfm._direct_digest(SHAPES[shape](data))
        assert direct == tfm.digest(data) == _streamed(tfm, data)
    assert direct == hashlib.new(name.split("-")[0], data).digest()


@pytest.mark.parametrize("name", SHA2_DRIVERS)
def test_sha256_fast_path_declines_simd_while_tracing(name, entry):
    import hashlib
    tfm = _shash(name)
    with capi.fpu_trace() as tr:
        got = tfm._direct_digest(b"abc")
        assert tfm.digest(b"abc") == hashlib.new(name.split("-")[0], b"abc").digest()
    if name.endswith("-generic"):
        assert got is not None and tr.sections == []
    else:
        assert got is None and tr.sections          # the full path made the real sections
    assert tfm._direct_digest("abc") is None and tfm._direct_digest(memoryview(b"abcd")[::2]) is None


@pytest.mark.parametrize("name", POLY_DRIVERS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.integers(32, 200), st.integers(32, 70000)).flatmap(exactly),
       shape=st.sampled_from(sorted(SHAPES)))
def test_poly1305_digest_fast_path_matches_descriptor_and_peer(name, entry, data, shape):
    from cryptography.hazmat.primitives.poly1305 import Poly1305
    tfm = _shash(name)
    arg = SHAPES[shape](data)
    direct = tfm._direct_digest(arg)
    assert direct == tfm.digest(arg) == _streamed(tfm, data)
    assert direct == Poly1305.generate_tag(data[:32], data[32:])


@pytest.mark.parametrize("name", POLY_DRIVERS)
def test_poly1305_fast_path_leaves_refusals_to_the_full_path(name, entry):
    tfm = _shash(name)
    assert tfm._direct_digest(b"x" * 31) is None
    assert tfm._direct_digest(memoryview(b"x" * 80)[::2]) is None     # not contiguous
    assert tfm._direct_digest("x" * 40) is None
    with pytest.raises(CryptoError) as e:
        tfm.digest(b"x" * 31)
    assert e.value.errno == ENOKEY and name in str(e.value)
    tfm.free()
    assert tfm._direct_digest is None


@pytest.mark.parametrize("name", NHPOLY_DRIVERS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.one_of(st.integers(0, 300), st.integers(0, 20000)), data=st.data())
def test_nhpoly1305_digest_fast_path_matches_descriptor(name, entry, n, data):
    tfm = _shash(name, data.draw(exactly(1088), label="key"))
    msg = data.draw(exactly(n), label="msg")
    want = _streamed(tfm, msg)
    where = data.draw(st.sampled_from(["simd", "nosimd", "inside fpu section"]))
    ctx = {"simd": contextlib.nullcontext, "nosimd": capi.simd_disabled, "inside fpu section": _fpu_section}[where]
    with ctx():
        direct = tfm._direct_digest(SHAPES[data.draw(st.sampled_from(sorted(SHAPES)))](msg))
        public = tfm.digest(msg)
    assert direct == public == want


def test_nhpoly1305_fast_path_declines_traced_simd_and_follows_the_key(entry):
    k1, k2 = os.urandom(1088), os.urandom(1088)
    tfm = _shash("nhpoly1305-avx2", k1)
    msg = os.urandom(9000)
    with capi.fpu_trace() as tr:
        assert tfm._direct_digest(msg) is None
        assert tfm._direct_digest(msg[:63]) is not None     # generic NH: no section to show
        d1 = tfm.digest(msg)
    assert tr.nbytes == [4096, 4096, 808]
    tfm.setkey(k2)
    assert tfm.digest(msg) == _shash("nhpoly1305-generic", k2).digest(msg) != d1
    with pytest.raises(CryptoError):
        tfm.setkey(b"short")
    assert tfm._direct_digest is None
    with pytest.raises(CryptoError) as e:
        tfm.digest(msg)
    assert e.value.errno == ENOKEY


# -- results: new bytes objects of their own ------------------------------------

@pytest.mark.parametrize("name", ["xchacha20-simd", "chacha20-generic", ADIANTUM[0]])
def test_results_are_independent_bytes(name, entry):
    """Each result is a bytes object of its own (the C entry fills a fresh
    one per call), short or long, and holds exactly the references an
    ordinary bytes object does."""
    import sys
    tfm = _alloc(name)                          # the direct path is built at setkey
    iv = os.urandom(tfm.ivsize)
    a, b = os.urandom(4086), os.urandom(20483)
    ca, cb = tfm._direct_enc(a, iv, None), tfm._direct_enc(b, iv, None)
    ca2, cb2 = tfm.encrypt(a, iv), tfm.encrypt(b, iv)
    assert type(ca) is bytes and type(cb) is bytes
    assert ca == ca2 == _request(tfm, a, iv) and cb == cb2 == _request(tfm, b, iv)
    assert cb is not cb2 and tfm.decrypt(cb, iv) == b
    assert ca == ca2 and cb == _request(tfm, b, iv)     # earlier results are not overwritten
    assert hash(cb) == hash(bytes(bytearray(cb)))       # a normal, hashable bytes object
    other = bytes(bytearray(cb))
    assert sys.getrefcount(cb) == sys.getrefcount(other)
    tfm.free()


# -- cipher: encrypt_one / decrypt_one -----------------------------------------

AES_DRIVERS = ["aes-generic", "aes-aesni"]


def _aes(name, key):
    return alloc_or_skip(capi.crypto_alloc_cipher, name, key)


@pytest.mark.parametrize("name", AES_DRIVERS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from([16, 24, 32]).flatmap(exactly), block=exactly(16),
       where=st.sampled_from(["simd", "nosimd", "inside fpu section"]))
def test_aes_block_fast_path_matches_full_path_and_peer(name, entry, key, block, where):
    from cryptography.hazmat.primitives.ciphers import modes
    c = _aes(name, key)
    peer = Cipher(algorithms.AES(key), modes.ECB())
    want = peer.encryptor().update(block)
    ctx = {"simd": contextlib.nullcontext, "nosimd": capi.simd_disabled, "inside fpu section": _fpu_section}[where]
    with ctx():
        assert c._direct_enc(block) == c._direct_enc(memoryview(block)) == c.encrypt_one(block) \
            == c.encrypt_one(memoryview(block)) == want
        assert c._direct_dec(want) == c._direct_dec(bytearray(want)) == c.decrypt_one(want) \
            == c.decrypt_one(bytearray(want)) == block


def test_aesni_block_fast_path_declines_while_tracing(entry):
    key, block = os.urandom(32), os.urandom(16)
    c = _aes("aes-aesni", key)
    with capi.fpu_trace() as tr:
        assert c._direct_enc(block) is None
        out = c.encrypt_one(block)
    assert tr.nbytes == [16]                # the block's own FPU section
    assert out == _aes("aes-generic", key).encrypt_one(block)


@pytest.mark.parametrize("name", AES_DRIVERS)
def test_aes_block_fast_path_declines_and_follows_the_key(name, entry):
    k1, k2 = os.urandom(32), os.urandom(16)
    c = _aes(name, k1)
    assert c._direct_enc(b"x" * 15) is None and c._direct_enc(bytearray(17)) is None
    assert c._direct_enc(memoryview(bytearray(32))[::2]) is None and c._direct_enc("x" * 16) is None
    with pytest.raises(CryptoError) as e:
        c.encrypt_one(b"x" * 15)
    assert e.value.errno == EINVAL and "block is 15 bytes" in str(e.value)
    c.setkey(k2)
    assert c.encrypt_one(bytes(16)) == _aes("aes-generic", k2).encrypt_one(bytes(16))
    with pytest.raises(CryptoError):
        c.setkey(b"bad")
    assert c._direct_enc is None and c._direct_dec is None
    with pytest.raises(CryptoError) as e:
        c.encrypt_one(bytes(16))
    assert e.value.errno == ENOKEY
    c.free()
    assert c._direct_enc is None
