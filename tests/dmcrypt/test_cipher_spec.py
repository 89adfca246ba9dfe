"""cryptsetup / dm-crypt cipher specifications (dmcrypt/cipher_spec.py).

The forms are the ones dm-crypt.rst documents: ``cipher-chainmode-ivmode``
(cryptsetup, e.g. ``aes-xts-plain64`` meaning ``xts(aes)``) and
``capi:<crypto API name>-ivmode``.
"""

import errno

import pytest

from crypto_api import CryptoError
from crypto_api.dmcrypt.cipher_spec import parse_cipher_spec


@pytest.mark.parametrize("spec, algorithm, ivmode", [
    ("xchacha12,aes-adiantum-plain64", "adiantum(xchacha12,aes)", "plain64"),
    ("xchacha20,aes-adiantum-plain64", "adiantum(xchacha20,aes)", "plain64"),
    ("xchacha12,aes-adiantum-plain", "adiantum(xchacha12,aes)", "plain"),
    ("capi:adiantum(xchacha12,aes)-plain64", "adiantum(xchacha12,aes)", "plain64"),
    ("capi:adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)-plain",
     "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)", "plain"),
    ("aes-xts-plain64", "xts(aes)", "plain64"),
    ("aes:1-cbc-plain", "cbc(aes)", "plain"),
    ("aes-xts-plain", "xts(aes)", "plain"),
    ("aes-cbc-essiv:sha256", "essiv(cbc(aes),sha256)", "essiv"),
    ("capi:essiv(cbc(aes),sha256)-essiv", "essiv(cbc(aes),sha256)", "essiv"),
])
def test_accepted(spec, algorithm, ivmode):
    cs = parse_cipher_spec(spec)
    assert (cs.algorithm, cs.ivmode) == (algorithm, ivmode)
    assert cs.capi == f"capi:{algorithm}-{ivmode}"
    assert parse_cipher_spec(cs.capi).algorithm == algorithm


@pytest.mark.parametrize("spec, words", [
    ("aes-cbc-essiv", ["IV mode 'essiv' needs a hash"]),
    ("capi:cbc(aes)-essiv", ["needs an essiv(...) algorithm"]),
    ("capi:essiv(cbc(aes),sha256)-essiv:sha256", ["takes no options"]),
    ("xchacha12,aes-adiantum-benbi", ["IV mode 'benbi'"]),
    ("capi:adiantum(xchacha12,aes)-null", ["IV mode 'null'"]),
    ("xchacha12,aes-adiantum-plain64:opt", ["options"]),
    ("aes:64-cbc-lmk", ["key count '64'"]),
    ("aes:64-cbc-plain", ["key count"]),
    ("aes-cbc", ["<cipher>-<chainmode>-<ivmode>"]),
    ("aes", ["<cipher>-<chainmode>-<ivmode>"]),
    ("a-b-c-plain64", ["too many"]),
    ("capi:plain64", ["capi:<algorithm>-<ivmode>"]),
    ("capi:-plain64", ["capi:<algorithm>-<ivmode>"]),
    ("-adiantum-plain64", ["empty"]),
    ("", ["empty"]),
    ("xchacha12, aes-adiantum-plain64", ["spaces"]),
    ("xchacha12\0-adiantum-plain64", ["control"]),
    ("capi:" + "a" * 130 + "-plain64", ["at most 127"]),
    ("x" * 300, ["at most 256"]),
])
def test_refused(spec, words):
    with pytest.raises(CryptoError) as e:
        parse_cipher_spec(spec)
    assert e.value.errno in (22, 36)
    for w in words:
        assert w in e.value.message


def test_not_a_string():
    with pytest.raises(TypeError):
        parse_cipher_spec(b"aes-xts-plain64")


@pytest.mark.parametrize("spec", ["capi:" + "x" * 130 + "-plain64",        # found by the cipher_spec fuzzer
                                  "aes-" + "y" * 130 + "-plain64",
                                  "aes-cbc-essiv:" + "s" * 120])
def test_an_algorithm_name_too_long_is_an_invalid_specification(spec):
    """Within the specification's length limit, but naming an algorithm longer
    than CRYPTO_MAX_ALG_NAME allows: EINVAL like every other unusable
    specification (the registry's own check says ENAMETOOLONG)."""
    with pytest.raises(CryptoError) as e:
        parse_cipher_spec(spec)
    assert e.value.errno == errno.EINVAL
    assert "at most 127" in str(e.value) and spec[:20] in str(e.value)
