"""The one-call methods entered in C (crypto_api/direct_method.c, tfm.direct_methods).

Where crypto_api._direct_method is built, ``tfm.encrypt`` and its kin are C
method descriptors that run the Python methods' "direct path first" pattern
without a Python frame.  They must behave exactly as the Python functions
they replace (kept in ``tfm.PYTHON_METHODS``): same results for every shape
of call, same errors, the slot read at every call (a bound method follows
setkey and free), the direct path's exceptions and declines handled as the
function handles them, and no reference left behind.
"""

import inspect
import os
import sys
from errno import EBADMSG

import pytest

import crypto_api as capi
from crypto_api import tfm as tfm_mod
from crypto_api.aead import CryptoAead
from crypto_api.cipher import CryptoCipher
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.shash import CryptoShash
from crypto_api.skcipher import CryptoSkcipher

try:
    from crypto_api import _direct_method
except ImportError:
    _direct_method = None

built = pytest.mark.skipif(_direct_method is None, reason="crypto_api._direct_method is not built")

#: (class, method, slot) entered in C
METHODS = [(CryptoSkcipher, "encrypt", "_direct_enc"), (CryptoSkcipher, "decrypt", "_direct_dec"),
           (CryptoAead, "encrypt", "_direct_enc"), (CryptoAead, "decrypt", "_direct_dec"),
           (CryptoCipher, "encrypt_one", "_direct_enc"), (CryptoCipher, "decrypt_one", "_direct_dec"),
           (CryptoShash, "digest", "_direct_digest")]


@pytest.fixture(params=["c", "python"])
def entry(request, monkeypatch):
    """The methods as entered in C (where built) or as the Python functions."""
    if request.param == "python":
        for (cls, name), func in tfm_mod.PYTHON_METHODS.items():
            monkeypatch.setattr(cls, name, func)
    elif _direct_method is None:
        pytest.skip("crypto_api._direct_method is not built")
    return request.param


def _python(cls, name):
    """The Python function of a method (the class attribute where none was replaced)."""
    return tfm_mod.PYTHON_METHODS.get((cls, name), getattr(cls, name))


def _skcipher(name="xchacha12", key=bytes(range(32))):
    tfm = capi.crypto_alloc_skcipher(name)
    tfm.setkey(key)
    return tfm


@built
@pytest.mark.parametrize("cls, name, slot", METHODS)
def test_methods_are_c_descriptors_with_the_functions_signature(cls, name, slot):
    func = tfm_mod.PYTHON_METHODS[cls, name]
    descr = vars(cls)[name]
    assert type(descr).__name__ == "method_descriptor"
    assert descr.__doc__ == inspect.getdoc(func)
    want = [(p.name, p.default) for p in inspect.signature(func).parameters.values()][1:]
    got = [(p.name, p.default) for p in inspect.signature(descr).parameters.values()][1:]
    assert got == want
    assert func.__code__.co_names[:1] == (slot,)     # the pattern starts by reading that slot


def test_skcipher_call_shapes_agree(entry):
    tfm = _skcipher()
    iv, data = os.urandom(32), os.urandom(1000)
    want = _python(CryptoSkcipher, "encrypt")(tfm, data, iv)
    assert tfm.encrypt(data, iv) == want
    assert tfm.encrypt(data, iv=iv) == want
    assert tfm.encrypt(data=data, iv=iv) == want
    assert tfm.encrypt(iv=iv, data=data, out=None) == want
    out = bytearray(1000)
    assert tfm.encrypt(data, iv, out) is out and out == want
    out2 = bytearray(1000)
    assert tfm.encrypt(data, iv, out=out2) is out2 and out2 == want
    assert tfm.decrypt(want, iv) == data
    enc = tfm.encrypt
    assert enc(data, iv) == want


def test_aead_defaults_are_the_functions(entry):
    tfm = capi.crypto_alloc_aead("rfc7539(chacha20,poly1305)")
    tfm.setkey(bytes(range(32)))
    iv, data = os.urandom(12), os.urandom(100)
    sealed = tfm.encrypt(data, iv)                      # assoc=b"", out=None
    assert sealed == tfm.encrypt(data, iv, b"") == tfm.encrypt(data, iv, assoc=b"", out=None)
    assert tfm.decrypt(sealed, iv) == data
    with pytest.raises(CryptoError) as e:
        tfm.decrypt(sealed, iv, b"x")
    assert e.value.errno == EBADMSG


def test_cipher_and_shash_single_parameter(entry):
    c = capi.crypto_alloc_cipher("aes")
    c.setkey(bytes(16))
    block = bytes(range(16))
    assert c.decrypt_one(c.encrypt_one(block)) == block
    assert c.encrypt_one(block=block) == c.encrypt_one(block)
    h = capi.crypto_alloc_shash("sha256")
    assert h.digest(b"abc").hex().startswith("ba7816bf")
    assert h.digest(data=b"abc") == h.digest(b"abc")


BAD_CALLS = [
    ((), {}),                                           # data missing
    ((b"x" * 64, bytes(32), None, 1), {}),              # too many
    ((b"x" * 64,), {"bogus": 1}),                       # no such parameter
    ((b"x" * 64, bytes(32)), {"iv": bytes(32)}),        # iv twice
    ((b"x" * 64, bytes(32)), {"self": 1}),
]


@pytest.mark.parametrize("args, kwargs", BAD_CALLS)
def test_bad_calls_raise_the_functions_type_error(args, kwargs):
    tfm = _skcipher()
    func = _python(CryptoSkcipher, "encrypt")
    with pytest.raises(TypeError) as want:
        func(tfm, *args, **kwargs)
    with pytest.raises(TypeError) as got:
        tfm.encrypt(*args, **kwargs)
    assert str(got.value) == str(want.value)


def _python_calls(func, call):
    """How many times the Python function ``func`` ran during ``call()``."""
    seen = []

    def prof(frame, event, arg):
        if event == "call" and frame.f_code is func.__code__:
            seen.append(1)
    sys.setprofile(prof)
    try:
        call()
    finally:
        sys.setprofile(None)
    return len(seen)


@built
def test_fast_path_runs_without_the_python_function():
    tfm = _skcipher()
    func = tfm_mod.PYTHON_METHODS[CryptoSkcipher, "encrypt"]
    iv, data = bytes(32), bytes(5000)
    assert _python_calls(func, lambda: tfm.encrypt(data, iv)) == 0
    assert _python_calls(func, lambda: tfm.encrypt(data, iv=iv)) == 0
    # a shape C does not take (a bytearray IV), and a decline (a trace records): the function runs
    assert _python_calls(func, lambda: tfm.encrypt(data, bytearray(iv))) == 1
    with capi.fpu_trace() as trace:
        assert _python_calls(func, lambda: tfm.encrypt(data, iv)) == 1
    assert trace.sections


def test_bound_method_follows_setkey_and_free(entry):
    tfm = _skcipher()
    iv, data = bytes(32), bytes(300)
    enc = tfm.encrypt
    first = enc(data, iv)
    tfm.setkey(bytes(range(1, 33)))
    assert enc(data, iv) != first
    assert enc(data, iv) == _skcipher(key=bytes(range(1, 33))).encrypt(data, iv)
    tfm.free()
    with pytest.raises(CryptoError) as e:
        enc(data, iv)
    assert e.value.errno == EINVAL


def test_what_the_fast_path_answers(entry):
    """A result is returned as it is, an exception raised, None falls back."""
    tfm = _skcipher()
    iv, data = bytes(32), bytes(64)
    want = tfm.encrypt(data, iv)
    calls = []

    def fake(*args):
        calls.append(args)
        return answer(*args)

    tfm._direct_enc = fake
    answer = lambda *a: "fast"                           # noqa: E731
    assert tfm.encrypt(data, iv) == "fast"
    assert calls[-1] == (data, iv, None)                 # every parameter, defaults filled in

    def boom(*a):
        raise ValueError("from the direct path")
    answer = boom
    with pytest.raises(ValueError, match="from the direct path"):
        tfm.encrypt(data, iv)
    answer = lambda *a: None                             # noqa: E731
    assert tfm.encrypt(data, iv) == want                 # declined: the full path
    tfm._direct_enc = None
    assert tfm.encrypt(data, iv) == want


@built
def test_no_reference_is_left_behind():
    tfm = _skcipher()
    iv, data, out = bytes(32), bytes(4096), bytearray(4096)
    before = [sys.getrefcount(x) for x in (iv, data, out, tfm)]
    for _ in range(2000):
        tfm.encrypt(data, iv)
        tfm.encrypt(data, iv, out)
        tfm.encrypt(data, iv=iv, out=out)
    assert [sys.getrefcount(x) for x in (iv, data, out, tfm)] == before


@built
def test_method_on_a_class_of_ones_own():
    class Thing:
        __slots__ = ("_fast",)

        def go(self, a, b=7):
            fast = self._fast
            if fast is not None:
                res = fast(a, b)
                if res is not None:
                    return res
            return ("full", a, b)

    descr = _direct_method.method(Thing, vars(Thing)["go"], vars(Thing)["_fast"], None)
    if descr is None:
        pytest.skip("the pool is full")
    Thing.go = descr
    t = Thing()
    t._fast = None
    assert t.go(1) == ("full", 1, 7)
    t._fast = lambda a, b: a + b
    assert t.go(1) == 8 and t.go(1, b=2) == 3 and t.go(b=3, a=1) == 4
    t._fast = lambda a, b: None
    assert t.go(2) == ("full", 2, 7)
    del t._fast
    with pytest.raises(AttributeError):
        t.go(1)


@built
@pytest.mark.parametrize("src", ["def f(self, *a): pass", "def f(self, *, a): pass",
                                 "def f(self, a, /): pass", "def f(self, **k): pass",
                                 "def f(self, a, b, c, d, e): pass"])
def test_functions_of_another_shape_are_refused(src):
    class Thing:
        __slots__ = ("_fast",)
    ns = {}
    exec(src, ns)
    with pytest.raises(ValueError):
        _direct_method.method(Thing, ns["f"], vars(Thing)["_fast"], None)
