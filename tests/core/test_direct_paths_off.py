"""Direct paths have one implementation: the C entry points of
crypto_api._direct_call.

Where that extension is absent (switched off here as a test does: the
constructors of crypto_api.direct read ``_skcipher_call``), no driver has a
direct path, and ``tfm.encrypt``/``decrypt``, AEAD seal/open, ``digest`` and
``encrypt_one``/``decrypt_one`` give the same bytes and the same refusals
through the full path.  Where it is there, the C entry serves (the tfm's
direct slot holds a function of the extension's state type).  And no module
keeps a Python copy of a C entry point's checks.
"""

import ast
import os
import pathlib
import random

import pytest

import crypto_api as capi
from crypto_api import direct as direct_path
from crypto_api.errors import EBADMSG, CryptoError
from crypto_api.simd import simd_direct_child
from alloc_or_skip import alloc_or_skip

ROOT = pathlib.Path(__file__).resolve().parents[2]

SKCIPHERS = ["chacha20-generic", "xchacha12-generic", "chacha20-simd", "xchacha12-simd",
             "xchacha20-simd", "ecb-aes-aesni", "cbc-aes-aesni", "ctr-aes-aesni", "xts-aes-aesni",
             "ecb-aria-avx", "ctr-aria-avx2", "ecb-aria-avx512", "xts-aria-avx512",
             "adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)",
             "adiantum(xchacha20-generic,aes-generic,nhpoly1305-generic)"]
AEADS = ["rfc7539-chacha20poly1305-avx2", "rfc7539esp-chacha20poly1305-avx2"]
SHASHES = ["sha256-generic", "sha256-ni", "sha224-generic", "poly1305-generic", "poly1305-simd",
           "nhpoly1305-generic", "nhpoly1305-sse2", "nhpoly1305-avx2"]
CIPHERS = ["aes-generic", "aes-aesni", "aria-generic"]

#: The state type behind each kind's C entry (crypto_api/direct_call.c).
STATE = {"skcipher": "SkcipherCallState", "aead": "AeadCallState", "digest": "DigestCallState"}


@pytest.fixture(scope="module", autouse=True)
def aria_loaded():
    capi.request_module("aria")


@pytest.fixture(params=["c", "off"])
def c_entry(request, monkeypatch):
    """True: the C entry points as built; False: switched off."""
    if request.param == "off":
        monkeypatch.setattr(direct_path, "_skcipher_call", None)
    elif direct_path._skcipher_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    return request.param == "c"


def _outcome(call):
    """What a call gives: ("ok", bytes) or ("refused", errno or the
    exception's type (a TypeError for a buffer that is none), message)."""
    try:
        res = call()
    except CryptoError as e:
        return ("refused", e.errno, str(e))
    except TypeError as e:
        return ("refused", "TypeError", str(e))
    return ("ok", bytes(res))


def _served_by_c(fn, kind):
    return fn is not None and type(getattr(fn, "__self__", None)).__name__ == STATE[kind]


def _check_slot(fn, kind, c_entry):
    if c_entry:
        assert _served_by_c(fn, kind)
    else:
        assert fn is None


def _skcipher_calls(tfm, rng_seed):
    """Every shape of call the direct path takes or declines, and refusals."""
    rng = random.Random(rng_seed)
    ivs = tfm.ivsize
    calls = []
    for n in (0, 15, 16, 17, 64, 65, 700, 4096 + 3 * 16):
        data = rng.randbytes(n)
        iv = rng.randbytes(ivs) if ivs else None
        for shape in (bytes, bytearray, memoryview):
            calls.append(lambda d=shape(data), iv=iv: tfm.encrypt(d, iv))
            calls.append(lambda d=shape(data), iv=iv: tfm.decrypt(d, iv))
        calls.append(lambda d=data, iv=iv: tfm.encrypt(d, iv, out=bytearray(len(d))))
        calls.append(lambda d=bytearray(data), iv=iv: tfm.encrypt(d, iv, out=d))      # in place
        if ivs:
            calls.append(lambda d=data, iv=iv: tfm.encrypt(d, iv[:-1]))              # short IV
            calls.append(lambda d=data: tfm.encrypt(d, None))                       # no IV
        calls.append(lambda d=data, iv=iv: tfm.encrypt(d, iv, out=bytearray(len(d) + 1)))
        calls.append(lambda d=data, iv=iv: tfm.encrypt(memoryview(d * 2)[::2], iv))   # not contiguous
    return calls


def _run_skcipher(name, c_entry):
    tfm = alloc_or_skip(capi.crypto_alloc_skcipher, name)
    with tfm:
        key = bytes(range(3, 3 + tfm.max_keysize))
        tfm.setkey(key)                                     # builds the direct path
        # a SIMD wrapper's slot passes calls on to its internal tfm's (crypto_api/simd.py)
        inner = simd_direct_child(tfm) if tfm.alg.cra_flags & capi.CRYPTO_ALG_ASYNC else tfm
        _check_slot(inner._direct_enc, "skcipher", c_entry)
        _check_slot(inner._direct_dec, "skcipher", c_entry)
        assert (tfm._direct_enc is None) == (not c_entry)
        got = [_outcome(c) for c in _skcipher_calls(tfm, name)]
        with capi.simd_disabled():
            got += [_outcome(c) for c in _skcipher_calls(tfm, name)[:12]]
        with capi.fpu_trace():
            got += [_outcome(c) for c in _skcipher_calls(tfm, name)[:12]]
    return got


@pytest.mark.parametrize("name", SKCIPHERS)
def test_skcipher_bytes_and_refusals_without_the_c_entry(name, monkeypatch):
    if direct_path._skcipher_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    with_c = _run_skcipher(name, True)
    monkeypatch.setattr(direct_path, "_skcipher_call", None)
    without = _run_skcipher(name, False)
    assert with_c == without
    assert any(o[0] == "ok" for o in with_c) and any(o[0] == "refused" for o in with_c)


def _run_aead(name, c_entry):
    tfm = alloc_or_skip(capi.crypto_alloc_aead, name)
    with tfm:
        esp = "esp" in name
        key = bytes(range(5, 5 + 32 + (4 if esp else 0)))
        tfm.setkey(key)
        _check_slot(tfm._direct_enc, "aead", c_entry)
        _check_slot(tfm._direct_dec, "aead", c_entry)
        rng = random.Random(name)
        got = []
        for n in (0, 1, 64, 1024, 5000):
            pt, ad, iv = rng.randbytes(n), rng.randbytes(24), rng.randbytes(tfm.ivsize)
            ct = tfm.encrypt(pt, iv, ad)
            bad = bytearray(ct)
            bad[-1] ^= 1
            calls = [lambda: tfm.encrypt(pt, iv, ad), lambda: tfm.decrypt(ct, iv, ad),
                     lambda: tfm.encrypt(bytearray(pt), memoryview(iv), bytearray(ad)),
                     lambda: tfm.encrypt(pt, iv, ad, out=bytearray(n + 16)),
                     lambda: tfm.decrypt(bytes(bad), iv, ad),                      # EBADMSG
                     lambda: tfm.encrypt(pt, iv[:-1], ad),                         # short IV
                     lambda: tfm.decrypt(ct[:15], iv, ad),                         # no whole tag
                     lambda: tfm.encrypt(pt, iv, ad[:7]),                          # esp: short AD
                     lambda: tfm.encrypt(pt, iv, ad, out=bytearray(n))]            # wrong out size
            got += [_outcome(c) for c in calls]
            with capi.simd_disabled():
                got += [_outcome(c) for c in calls[:5]]
    return got


@pytest.mark.parametrize("name", AEADS)
def test_aead_seal_open_and_refusals_without_the_c_entry(name, monkeypatch):
    if direct_path._skcipher_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    with_c = _run_aead(name, True)
    monkeypatch.setattr(direct_path, "_skcipher_call", None)
    without = _run_aead(name, False)
    # a wrong tag is EBADMSG both ways; the direct path's message adds that
    # no plaintext was released (the request path's releases none either)
    suffix = "; no plaintext released"
    assert [o[:2] + tuple(x.replace(suffix, "") for x in o[2:]) for o in with_c] == without
    assert any(o[:2] == ("refused", EBADMSG) for o in with_c)


def _run_shash(name, c_entry):
    tfm = alloc_or_skip(capi.crypto_alloc_shash, name)     # an unkeyed hash: built here
    with tfm:
        if name.startswith("nhpoly1305"):
            tfm.setkey(bytes(range(256)) * 4 + bytes(64))
        _check_slot(tfm._direct_digest, "digest", c_entry)
        rng = random.Random(name)
        got = []
        for n in (0, 16, 31, 32, 63, 64, 65, 288, 1000, 5000):
            data = rng.randbytes(n)
            calls = [lambda: tfm.digest(data), lambda: tfm.digest(bytearray(data)),
                     lambda: tfm.digest(memoryview(data * 2)[::2])]
            got += [_outcome(c) for c in calls]
            with capi.simd_disabled():
                got.append(_outcome(calls[0]))
            with capi.fpu_trace():
                got.append(_outcome(calls[0]))
    return got


@pytest.mark.parametrize("name", SHASHES)
def test_digest_bytes_and_refusals_without_the_c_entry(name, monkeypatch):
    if direct_path._skcipher_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    with_c = _run_shash(name, True)
    monkeypatch.setattr(direct_path, "_skcipher_call", None)
    without = _run_shash(name, False)
    assert with_c == without
    assert any(o[0] == "ok" for o in with_c)


def _run_cipher(name, c_entry):
    tfm = alloc_or_skip(capi.crypto_alloc_cipher, name)
    with tfm:
        tfm.setkey(bytes(range(32)))
        _check_slot(tfm._direct_enc, "digest", c_entry)
        _check_slot(tfm._direct_dec, "digest", c_entry)
        got = []
        for block in (bytes(range(16)), bytes(range(99, 115)), b"x" * 15, b"y" * 17):
            got += [_outcome(lambda: tfm.encrypt_one(block)), _outcome(lambda: tfm.decrypt_one(block)),
                    _outcome(lambda: tfm.encrypt_one(bytearray(block)))]
            with capi.simd_disabled():
                got.append(_outcome(lambda: tfm.encrypt_one(block)))
    return got


@pytest.mark.parametrize("name", CIPHERS)
def test_cipher_blocks_and_refusals_without_the_c_entry(name, monkeypatch):
    if direct_path._skcipher_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    with_c = _run_cipher(name, True)
    monkeypatch.setattr(direct_path, "_skcipher_call", None)
    without = _run_cipher(name, False)
    assert with_c == without
    assert any(o[0] == "refused" for o in with_c) and any(o[0] == "ok" for o in with_c)


def test_the_c_entry_serves_the_calls(c_entry):
    """With the extension, tfm.encrypt goes through the C entry (a call of
    the slot is what tfm.encrypt returns); switched off, the slot is empty."""
    with capi.crypto_alloc_skcipher("xchacha12-simd") as tfm:
        tfm.setkey(bytes(32))
        iv, data = bytes(32), os.urandom(4096)
        if c_entry:
            assert _served_by_c(tfm._direct_enc, "skcipher")
            assert tfm._direct_enc(data, iv, None) == tfm.encrypt(data, iv)
        else:
            assert tfm._direct_enc is None and tfm._direct_dec is None


# -- no Python copy of a C entry point ----------------------------------------

def _python_files():
    for top in ("crypto_api", "algs", "arch", "tools", "dmcrypt"):
        for path in sorted((ROOT / top).rglob("*.py")):
            yield path


def test_no_module_defines_a_python_twin_of_a_direct_path():
    """No ``py_*_direct`` / ``c_*_direct`` functions anywhere (the direct
    path is the C entry, or nothing), and nothing outside direct.py calls
    the extension's constructors."""
    twins, callers = [], []
    for path in _python_files():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.name
                if n.endswith("_direct") and (n.startswith("py_") or n.startswith("c_")):
                    twins.append(f"{path.relative_to(ROOT)}: {n}")
            if isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("_direct_call") \
                    and path.name != "direct.py":
                callers.append(str(path.relative_to(ROOT)))
    assert twins == [] and callers == []


def test_direct_module_has_one_constructor_per_kind():
    """crypto_api/direct.py: exactly one function per kind calls the C
    entry's constructor (skcipher, AEAD, fixed-size result), and each is
    the kind's public ``*_direct``."""
    tree = ast.parse((ROOT / "crypto_api" / "direct.py").read_text())
    makers = {"_skcipher_call": [], "_aead_call": [], "_digest_call": []}
    publics = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        if node.name.endswith("_direct"):
            publics.append(node.name)
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in makers:
                makers[call.func.id].append(node.name)
    assert makers == {"_skcipher_call": ["skcipher_direct"], "_aead_call": ["aead_direct"],
                      "_digest_call": ["digest_direct"]}
    assert sorted(publics) == ["aead_direct", "digest_direct", "skcipher_direct"]
