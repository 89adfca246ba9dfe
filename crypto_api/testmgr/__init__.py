"""The self-test manager (crypto/testmgr.c): ``alg_test`` and its levels.

``alg_test(driver, alg)`` runs the descriptor-table entries for the algorithm
name and for the driver name (both, when both exist) against the driver
allocated by its driver name; a plain cipher is tested with the
``ecb(<name>)`` vectors; AEADs run :mod:`.aead_test` (and, at ``full``, :mod:`.aead_fuzz`).  It raises :class:`~crypto_api.CryptoError` on
failure and logs the kernel's lines.  The crypto manager
(:mod:`crypto_api.algboss`) calls it for every registration (unless the level
is ``off``), answering the registry's CRYPTO_MSG_ALG_REGISTER.  At level
``full`` it also runs :mod:`.fuzz` (random configurations, comparison with
the generic driver);
``set_fuzz_iterations`` and ``set_fuzz_seed`` tune and replay those.
"""

from __future__ import annotations

import logging

from .. import alg as A
from .. import registry
from ..aead import crypto_alloc_aead
from ..cipher import crypto_alloc_cipher
from ..shash import crypto_alloc_shash
from ..skcipher import crypto_alloc_skcipher
from . import aead_fuzz, fuzz
from .aead_test import test_aead
from .cipher_test import test_cipher
from .configs import (DEFAULT_CIPHER_TESTVEC_CONFIGS, DEFAULT_HASH_TESTVEC_CONFIGS,
                      DivSpec, TestvecConfig)
from .descs import ALG_TEST_DESCS, AlgTestDesc, find_test, generic_driver_name
from .hash_test import test_hash
from .level import (DEFAULT_FUZZ_ITERATIONS, LEVELS, get_fuzz_iterations, get_fuzz_seed,
                    get_level, set_fuzz_iterations, set_fuzz_seed, set_level)
from .skcipher_test import test_skcipher
from .vectors import AeadTestvec, CipherTestvec, HashTestvec, suite

log = logging.getLogger("crypto_api")

__all__ = [
    "alg_test", "get_level", "set_level", "LEVELS", "get_fuzz_iterations",
    "set_fuzz_iterations", "get_fuzz_seed", "set_fuzz_seed", "DEFAULT_FUZZ_ITERATIONS", "ALG_TEST_DESCS", "AlgTestDesc",
    "find_test", "generic_driver_name", "TestvecConfig", "DivSpec", "CipherTestvec",
    "HashTestvec", "AeadTestvec", "DEFAULT_CIPHER_TESTVEC_CONFIGS", "DEFAULT_HASH_TESTVEC_CONFIGS",
]


def _run_desc(desc: AlgTestDesc, driver: str, type: int, mask: int, kind: int = 0) -> None:
    vecs = suite(desc.suite)
    # an ecb(<cipher>) entry tests both a cipher and an ecb skcipher (v5.0 alg_test)
    if desc.test == "skcipher" or (desc.test == "cipher" and kind == A.CRYPTO_ALG_TYPE_SKCIPHER):
        with crypto_alloc_skcipher(driver, type, mask) as tfm:
            test_skcipher(tfm, vecs, DEFAULT_CIPHER_TESTVEC_CONFIGS)
            if get_level() == "full":
                fuzz.test_skcipher_full(tfm, desc, driver, vecs)
    elif desc.test == "hash":
        with crypto_alloc_shash(driver, type, mask) as tfm:
            test_hash(tfm, vecs, DEFAULT_HASH_TESTVEC_CONFIGS)
            if get_level() == "full":
                fuzz.test_hash_full(tfm, desc, driver, vecs)
    elif desc.test == "aead":
        with crypto_alloc_aead(driver, type, mask) as tfm:
            test_aead(tfm, vecs, DEFAULT_CIPHER_TESTVEC_CONFIGS, desc.einval_allowed)
            if get_level() == "full":
                aead_fuzz.test_aead_full(tfm, desc, driver, vecs)
    elif desc.test == "cipher":
        with crypto_alloc_cipher(driver, type, mask) as tfm:
            test_cipher(tfm, vecs)


def _registered_type(driver: str) -> int:
    with registry.lock:
        for q in registry.alg_list:
            if q.cra_driver_name == driver and not q.is_larval and not q.is_moribund:
                return q.cra_flags & A.CRYPTO_ALG_TYPE_MASK
    return 0


def alg_test(driver: str, alg: str, type: int = 0, mask: int = 0) -> int:
    """Test ``driver`` (an implementation of ``alg``); 0 on success, raises on failure.

    The registry passes ``mask=CRYPTO_ALG_TESTED`` so the untested driver
    itself is allocated; a caller testing a registered driver leaves both 0.
    """
    kind = type & A.CRYPTO_ALG_TYPE_MASK
    if not type and not mask:
        kind = _registered_type(driver)
    if kind == A.CRYPTO_ALG_TYPE_CIPHER:
        descs = [d for d in (find_test(f"ecb({alg})"),) if d is not None]
    else:
        i = find_test(alg)
        j = find_test(driver)
        descs = [i] if i is not None else []
        if j is not None and j is not i:
            descs.append(j)
    if not descs:
        log.info("alg: No test for %s (%s)", alg, driver)
        return 0
    for desc in descs:
        _run_desc(desc, driver, type, mask, kind)
    log.info("alg: self-tests for %s (%s) passed", driver, alg)
    return 0
