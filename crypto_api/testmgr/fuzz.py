"""Full self-tests: random configurations and fuzzing against the generic driver.

Mirrors the CRYPTO_MANAGER_EXTRA_TESTS part of crypto/testmgr.c (5.2+):

* every vector again under ``fuzz_iterations`` random configurations per
  direction (:mod:`.random_config`);
* test_skcipher_vs_generic_impl / test_hash_vs_generic_impl: allocate the
  generic driver (ENOENT: warn and skip this part), check that the two agree
  on their sizes, then ``fuzz_iterations * 8`` times let the *generic* driver
  compute a random vector (random key, usually of the maximum length but 1/4
  of the time of a random length, so wrong lengths are tried with the error
  the generic gives; random IV; random data length up to 2*4096-16, small ones
  preferred) and check the driver on it under a fresh random configuration,
  encrypting and decrypting (and through the one-buffer ``tfm.encrypt``).

All randomness comes from one ``random.Random(seed)`` per test; the seed is
the fixed one (``set_fuzz_seed``) or a fresh one, and every failure message
ends with ``(seed N)`` so that ``selftest --full --seed N DRIVER`` replays it.
"""

from __future__ import annotations

import logging
import random
import secrets
from typing import Optional

from ..errors import ENOENT, CryptoError
from ..shash import crypto_alloc_shash
from ..skcipher import crypto_alloc_skcipher
from .configs import PAGE_SIZE
from .descs import AlgTestDesc, generic_driver_name
from .failure import fail, note
from .hash_test import test_hash_vec_cfg
from .level import DEFAULT_FUZZ_ITERATIONS, get_fuzz_iterations, get_fuzz_seed
from .random_config import random_length, random_testvec_config
from .skcipher_test import test_skcipher_one_buffer, test_skcipher_vec_cfg
from .vectors import CipherTestvec, HashTestvec

log = logging.getLogger("crypto_api")

TESTMGR_POISON_LEN = 16
MAX_DATA_SIZE = 2 * PAGE_SIZE - TESTMGR_POISON_LEN      # 8176


def _start(driver: str):
    """(rng, fuzz iterations, note text) for one full test of ``driver``."""
    seed = get_fuzz_seed()
    if seed is None:
        seed = secrets.randbits(32)
    iterations = get_fuzz_iterations()
    text = f"seed {seed}"
    if iterations != DEFAULT_FUZZ_ITERATIONS:
        text += f", fuzz_iterations={iterations}"
    log.debug("alg: full self-tests for %s: %s", driver, text)
    return random.Random(seed), iterations, text


def _generic_tfm(alloc, kind: str, driver: str, cra_name: str, desc: Optional[AlgTestDesc]):
    """The generic implementation to compare with, or None (same driver, or absent)."""
    generic = generic_driver_name(cra_name, desc)
    if generic == driver:
        return None
    if not generic:                 # the chosen kernel version's testmgr has no such comparison
        log.debug("alg: %s: no comparison with a generic driver for %s in this kernel version", kind, driver)
        return None
    try:
        return alloc(generic)
    except CryptoError as e:
        if e.errno == ENOENT:
            log.warning("alg: %s: skipping comparison tests for %s because %s is unavailable",
                        kind, driver, generic)
            return None
        fail(f"alg: {kind}: error allocating {generic} (generic impl of {driver}): {e.message}", e.errno)


def _same(kind: str, what: str, driver: str, mine: int, generic: int) -> None:
    if mine != generic:
        fail(f"alg: {kind}: {what} for {driver} ({mine}) doesn't match generic impl ({generic})")


# --------------------------------------------------------------------------
# skcipher

def random_cipher_testvec(gtfm, rng: random.Random, max_keysize: int, max_len: int) -> CipherTestvec:
    """A random vector computed by the generic transform ``gtfm``."""
    klen = max_keysize if rng.randrange(4) else rng.randrange(max_keysize + 1)
    key = rng.randbytes(klen)
    setkey_error = 0
    try:
        gtfm.setkey(key)
    except CryptoError as e:
        setkey_error = e.errno
    ivsize = gtfm.ivsize
    iv = rng.randbytes(ivsize)
    n = random_length(rng, max_len)
    if n < gtfm.blocksize and rng.randrange(4):
        n = gtfm.blocksize       # mostly the algorithm's minimum; 1 in 4 keeps the error case
    ptext = rng.randbytes(n)
    ctext, crypt_error = bytes(n), 0
    if not setkey_error:
        try:
            ctext = gtfm.encrypt(ptext, iv if ivsize else None)
        except CryptoError as e:
            crypt_error = e.errno
    return CipherTestvec(f"random: len={n} klen={klen}", key, iv, ptext, ctext,
                         setkey_error=setkey_error, crypt_error=crypt_error)


def skcipher_random_configs(tfm, vecs, rng: random.Random, iterations: int) -> None:
    """Every vector under ``iterations`` random configs, encryption then decryption."""
    for encrypt in (True, False):
        for i, vec in enumerate(vecs):
            for k in range(iterations):
                test_skcipher_vec_cfg(tfm, vec, i, random_testvec_config(rng), encrypt, set_key=k == 0)


def skcipher_vs_generic(tfm, desc: Optional[AlgTestDesc], driver: str, rng: random.Random,
                        iterations: int) -> None:
    gtfm = _generic_tfm(crypto_alloc_skcipher, "skcipher", driver, tfm.alg.cra_name, desc)
    if gtfm is None:
        return
    with gtfm:
        for what in ("min_keysize", "max_keysize", "ivsize", "blocksize"):
            _same("skcipher", what.replace("_", " "), driver, getattr(tfm, what), getattr(gtfm, what))
        for _ in range(iterations * 8):
            vec = random_cipher_testvec(gtfm, rng, tfm.max_keysize, MAX_DATA_SIZE)
            cfg = random_testvec_config(rng)
            test_skcipher_vec_cfg(tfm, vec, vec.id, cfg, True)
            test_skcipher_vec_cfg(tfm, vec, vec.id, cfg, False, set_key=False)
            test_skcipher_one_buffer(tfm, vec, vec.id, True, cfg.nosimd, set_key=False)
            test_skcipher_one_buffer(tfm, vec, vec.id, False, cfg.nosimd, set_key=False)


def test_skcipher_full(tfm, desc: Optional[AlgTestDesc], driver: str, vecs) -> None:
    """The full (EXTRA_TESTS) part of a skcipher self-test."""
    rng, iterations, text = _start(driver)
    with note(text):
        skcipher_random_configs(tfm, vecs, rng, iterations)
        skcipher_vs_generic(tfm, desc, driver, rng, iterations)


# --------------------------------------------------------------------------
# hash

def random_hash_testvec(gtfm, rng: random.Random, max_keysize: int, max_len: int) -> HashTestvec:
    """A random vector computed by the generic hash ``gtfm``."""
    n = random_length(rng, max_len)
    plaintext = rng.randbytes(n)
    key, setkey_error, digest, digest_error = b"", 0, b"", 0
    if max_keysize:
        ksize = max_keysize if rng.randrange(4) else 1 + rng.randrange(max_keysize)
        key = rng.randbytes(ksize)
        try:
            gtfm.setkey(key)
        except CryptoError as e:
            setkey_error = e.errno
    if not setkey_error:
        try:
            digest = gtfm.digest(plaintext)
        except CryptoError as e:
            digest_error = e.errno
    return HashTestvec(f"random: psize={n} ksize={len(key)}", key, plaintext, digest,
                       setkey_error=setkey_error, digest_error=digest_error)


def hash_random_configs(tfm, vecs, rng: random.Random, iterations: int) -> None:
    for i, vec in enumerate(vecs):
        for _ in range(iterations):
            test_hash_vec_cfg(tfm, vec, i, random_testvec_config(rng, hash=True))


def hash_vs_generic(tfm, desc: Optional[AlgTestDesc], driver: str, vecs, rng: random.Random,
                    iterations: int) -> None:
    gtfm = _generic_tfm(crypto_alloc_shash, "hash", driver, tfm.alg.cra_name, desc)
    if gtfm is None:
        return
    with gtfm:
        _same("hash", "digestsize", driver, tfm.digestsize, gtfm.digestsize)
        _same("hash", "blocksize", driver, tfm.blocksize, gtfm.blocksize)
        max_keysize = max((len(v.key) for v in vecs), default=0)
        for _ in range(iterations * 8):
            vec = random_hash_testvec(gtfm, rng, max_keysize, MAX_DATA_SIZE)
            test_hash_vec_cfg(tfm, vec, vec.id, random_testvec_config(rng, hash=True))


def test_hash_full(tfm, desc: Optional[AlgTestDesc], driver: str, vecs) -> None:
    """The full (EXTRA_TESTS) part of a hash self-test."""
    rng, iterations, text = _start(driver)
    with note(text):
        hash_random_configs(tfm, vecs, rng, iterations)
        hash_vs_generic(tfm, desc, driver, vecs, rng, iterations)
