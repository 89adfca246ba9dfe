"""Registration entry points for drivers (crypto/algapi.c, per-type register).

``crypto_register_skcipher`` / ``crypto_register_shash`` /
``crypto_register_cipher`` / ``crypto_register_aead`` (and the plural forms that register a list and
undo it on failure) run the registration checks and the self-test; the
unregister calls refuse with EBUSY while a transform still uses the driver.
"""

from __future__ import annotations

from typing import Sequence

from . import alg as A
from . import registry


def _register(desc, kind) -> None:
    if not isinstance(desc, kind):
        raise TypeError(f"expected a {kind.__name__}, not {type(desc).__name__}")
    registry.register(desc)


def _register_many(descs: Sequence, kind) -> None:
    done = []
    try:
        for d in descs:
            _register(d, kind)
            done.append(d)
    except BaseException:
        for d in reversed(done):
            registry.unregister(d)
        raise


def crypto_register_skcipher(alg: A.SkcipherAlg) -> int:
    _register(alg, A.SkcipherAlg)
    return 0


def crypto_register_skciphers(algs: Sequence[A.SkcipherAlg]) -> int:
    _register_many(algs, A.SkcipherAlg)
    return 0


def crypto_register_shash(alg: A.ShashAlg) -> int:
    _register(alg, A.ShashAlg)
    return 0


def crypto_register_shashes(algs: Sequence[A.ShashAlg]) -> int:
    _register_many(algs, A.ShashAlg)
    return 0


def crypto_register_cipher(alg: A.CipherAlg) -> int:
    _register(alg, A.CipherAlg)
    return 0


def crypto_register_aead(alg: A.AeadAlg) -> int:
    _register(alg, A.AeadAlg)
    return 0


def crypto_register_aeads(algs: Sequence[A.AeadAlg]) -> int:
    _register_many(algs, A.AeadAlg)
    return 0


def crypto_register_alg(alg: A.AlgDescriptor) -> int:
    registry.register(alg)
    return 0


def crypto_unregister_alg(alg: A.AlgDescriptor) -> None:
    registry.unregister(alg)


def _unregister_many(algs: Sequence) -> None:
    for d in reversed(list(algs)):
        registry.unregister(d)


crypto_unregister_skcipher = crypto_unregister_alg
crypto_unregister_shash = crypto_unregister_alg
crypto_unregister_cipher = crypto_unregister_alg
crypto_unregister_skciphers = _unregister_many
crypto_unregister_shashes = _unregister_many
crypto_unregister_aead = crypto_unregister_alg
crypto_unregister_aeads = _unregister_many
