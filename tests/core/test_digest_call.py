"""The C entry point of the fixed-size direct paths (crypto_api/digest_call.h):
``tfm.digest`` of the sha256, x86 sha512, poly1305 and nhpoly1305 shashes and
``encrypt_one``/``decrypt_one`` of the AES ciphers.

tests/algs/test_direct_paths.py runs the direct-path tests (results, FPU choices,
refusals left to the full path) on it and on the Python functions alike.
Here: what only it does.  It holds the GIL for inputs shorter than
``crypto_api.direct.NOGIL_MIN`` and releases it for longer ones with the input kept
exported, so that another thread cannot resize it under C (the GIL tests are
deterministic where they say "held", as in test_direct_call.py); a routine
that answers nonzero declines; a failing choice() is raised with the export
released.
"""

import hashlib
import os

import pytest

import crypto_api as capi
from crypto_api import direct as direct_path
from buffer_shrinker import shrinking
from alloc_or_skip import alloc_or_skip

pytestmark = pytest.mark.skipif(direct_path._digest_call is None, reason="crypto_api._direct_call is not built")

SHASHES = ["sha256-generic", "sha224-ni", "sha256-avx2", "sha512-avx2", "sha384-ssse3", "poly1305-generic",
           "poly1305-simd", "nhpoly1305-generic", "nhpoly1305-avx2"]
CIPHERS = ["aes-generic", "aes-aesni"]


def _shash(name):
    return alloc_or_skip(capi.crypto_alloc_shash, name,
                         os.urandom(1088) if name.startswith("nhpoly1305") else None)


def _cipher(name):
    return alloc_or_skip(capi.crypto_alloc_cipher, name, os.urandom(32))


@pytest.mark.parametrize("name", SHASHES)
def test_shash_digest_is_the_c_entry_point(name):
    tfm = _shash(name)
    fn = tfm._direct_digest
    assert type(fn).__name__ == "builtin_function_or_method"
    assert type(fn.__self__).__name__ == "DigestCallState"
    data = os.urandom(5000)
    d = tfm.desc().init()
    d.update(data)
    assert fn(data) == d.final()


@pytest.mark.parametrize("name", CIPHERS)
def test_cipher_block_is_the_c_entry_point(name):
    tfm = _cipher(name)
    for fn in (tfm._direct_enc, tfm._direct_dec):
        assert type(fn.__self__).__name__ == "DigestCallState"
    block = os.urandom(16)
    assert tfm._direct_dec(tfm._direct_enc(block)) == block


def _digests_seen_by_another_thread(tfm, n, tries):
    """Digest a bytearray of n bytes ``tries`` times; the other thread's turns
    during the calls, and its refused / successful shrinks."""
    data = os.urandom(n)
    want = hashlib.sha256(data).digest()
    buf = bytearray(data)
    with shrinking(buf) as other:
        for _ in range(tries):
            buf[:] = data
            other.go = True
            got = tfm.digest(buf)
            other.go = False
            assert got == want
            if n >= direct_path.NOGIL_MIN and other.turns:
                break
    return other.turns, other.refused, other.shrunk


@pytest.mark.parametrize("name", ["sha256-generic", "sha256-ni"])
def test_gil_held_for_short_digests(name):
    tfm = _shash(name)
    for n in (0, 64, 600, direct_path.NOGIL_MIN - 1):
        assert _digests_seen_by_another_thread(tfm, n, 200) == (0, 0, 0), n


@pytest.mark.parametrize("name", ["sha256-generic", "sha256-ni"])
def test_gil_released_for_long_digests_with_the_buffer_kept_exported(name):
    tfm = _shash(name)
    turns, refused, shrunk = _digests_seen_by_another_thread(tfm, 8 << 20, 50)
    assert turns > 0, "the other thread never ran during 50 long digests"
    assert refused == turns and shrunk == 0


def test_a_routine_that_answers_nonzero_declines():
    """poly1305's routine refuses fewer than 32 bytes (the key r||s): with no
    min_len in front of it, the entry point still answers None."""
    from crypto_api.algs import poly1305_generic as p
    fn = direct_path.digest_direct(p.DIGEST_CALL, p.GENERIC_OPS, p.GENERIC_OPS, 16)
    key, msg = os.urandom(32), os.urandom(50)
    from cryptography.hazmat.primitives.poly1305 import Poly1305
    assert fn(key + msg) == Poly1305.generate_tag(key, msg)
    assert fn(key[:31]) is None and fn(b"") is None


def test_lengths_other_than_the_block_and_non_buffers_decline():
    tfm = _cipher("aes-generic")
    for arg in (b"", bytes(15), bytearray(17), memoryview(bytes(32))[::2], "x" * 16, 16):
        assert tfm._direct_enc(arg) is None, arg


def test_a_failing_choice_is_raised_and_the_buffer_released():
    from crypto_api.algs import sha256_generic as s

    def choice():
        raise RuntimeError("choice failed")

    handle = direct_path._ffi.new("char[1]")            # never read: the choice fails first
    fn = direct_path._digest_call(direct_path._address(s.DIGEST_CALL), direct_path._address(handle) + 1,
                              direct_path._address(handle), (handle,), choice, -1, 0, 32, 0, 2048,
                              capi.SIMD, capi.DECLINE)
    buf = bytearray(100)
    with pytest.raises(RuntimeError, match="choice failed"):
        fn(buf)
    del buf[-10:]                                   # no export left behind
    assert len(buf) == 90


def test_make_digest_refuses_null_pointers_and_negative_lengths():
    make = direct_path._digest_call
    with pytest.raises(ValueError):
        make(0, 1, 1, (), capi.simd_choice, -1, 0, 32, 0, 2048, 0, 2)
    with pytest.raises(ValueError):
        make(1, 1, 1, (), capi.simd_choice, -2, 0, 32, 0, 2048, 0, 2)
    with pytest.raises(ValueError):
        make(1, 1, 1, (), capi.simd_choice, -1, 0, -32, 0, 2048, 0, 2)
    with pytest.raises(TypeError):
        make(1, 1, 1, (), None, -1, 0, 32, 0, 2048, 0, 2)
    fn = _shash("sha256-generic")._direct_digest
    with pytest.raises(TypeError):
        fn(b"a", b"b")                              # one argument, always
