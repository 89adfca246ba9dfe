"""Full AEAD self-tests: random configurations, the generic driver, inauthentic inputs.

Mirrors test_aead_extra of crypto/testmgr.c (5.10+, CRYPTO_MANAGER_EXTRA_TESTS),
on the plumbing of :mod:`.fuzz` (seed, iterations, the generic transform):

* every vector again under ``fuzz_iterations`` random configurations, each way;
* test_aead_vs_generic_impl: the generic instance (for
  ``rfc7539(chacha20,poly1305)``: ``rfc7539(chacha20-generic,poly1305-generic)``)
  must agree on maxauthsize, ivsize and block size; then ``8 * fuzz_iterations``
  random vectors made by it (key mostly of the vectors' largest length, tag
  mostly maxauthsize, total length up to 2*4096-16 less the tag, no AD a quarter
  of the time; a quarter of them inauthentic) are checked on the driver under
  a fresh random configuration, encrypting (unless inauthentic) and decrypting;
* test_aead_inauthentic_inputs: ``8 * fuzz_iterations`` inauthentic vectors
  made by the driver itself (half random ciphertexts, half real ones with
  one bit flipped in the AD, the tag or the ciphertext), each of which it
  must refuse with EBADMSG (or EINVAL where the suite allows it).

For the IPsec forms (``aad_iv``) the last ``ivsize`` bytes of an AD long
enough hold a copy of the IV, and a flipped AD bit never lands there.
"""

from __future__ import annotations

import random
from typing import Optional

from ..aead import crypto_alloc_aead
from ..errors import CryptoError
from .descs import AlgTestDesc
from .aead_test import test_aead_one_call, test_aead_vec_cfg
from .failure import note
from .fuzz import MAX_DATA_SIZE, _generic_tfm, _same, _start
from .random_config import random_length, random_testvec_config
from .vectors import AeadTestvec

MAX_INAUTHENTIC_TRIES = 10


def _flip_bit(buf: bytearray, start: int, end: int, rng: random.Random) -> None:
    pos = start + rng.randrange(end - start)
    buf[pos] ^= 1 << rng.randrange(8)


def mutate_aead_message(assoc: bytearray, ctext: bytearray, authsize: int, ivsize: int,
                        aad_iv: bool, rng: random.Random) -> None:
    """Flip one bit of an authentic message: in the AD (half the time, and then
    half the time nowhere else), then in the tag or anywhere in the ciphertext."""
    ad_len = len(assoc) - (ivsize if aad_iv and len(assoc) >= ivsize else 0)
    if ad_len and rng.randrange(2) == 0:
        _flip_bit(assoc, 0, ad_len, rng)
        if rng.randrange(2) == 0:
            return
    if rng.randrange(2) == 0:
        _flip_bit(ctext, len(ctext) - authsize, len(ctext), rng)
    else:
        _flip_bit(ctext, 0, len(ctext), rng)


def random_aead_testvec(tfm, rng: random.Random, max_keysize: int, max_len: int,
                        prefer_inauthentic: bool, aad_iv: bool) -> AeadTestvec:
    """A random vector computed by ``tfm`` (generate_random_aead_testvec)."""
    klen = max_keysize if rng.randrange(4) else rng.randrange(max_keysize + 1)
    key = rng.randbytes(klen)
    setkey_error = setauthsize_error = crypt_error = 0
    try:
        tfm.setkey(key)
    except CryptoError as e:
        setkey_error = e.errno
    ivsize, maxauthsize = tfm.ivsize, tfm.maxauthsize
    iv = rng.randbytes(ivsize)
    authsize = maxauthsize if rng.randrange(4) else rng.randrange(maxauthsize + 1)
    if prefer_inauthentic and authsize < min(8, maxauthsize):
        authsize = maxauthsize
    try:
        tfm.setauthsize(authsize)
    except CryptoError as e:
        setauthsize_error = e.errno
    total = random_length(rng, max_len - authsize)
    alen = 0 if rng.randrange(4) == 0 else rng.randrange(total + 1)
    plen = total - alen
    assoc = bytearray(rng.randbytes(alen))
    if aad_iv and alen >= ivsize:
        assoc[alen - ivsize:] = iv
    ptext = rng.randbytes(plen)
    inauthentic = authsize >= 8 and (prefer_inauthentic or rng.randrange(4) == 0)
    ctext = bytearray(plen + authsize)
    if not setkey_error and not setauthsize_error:
        if inauthentic and rng.randrange(2) == 0:
            ctext = bytearray(rng.randbytes(plen + authsize))
        else:
            try:
                ctext = bytearray(tfm.encrypt(ptext, iv, bytes(assoc)))
            except CryptoError as e:
                crypt_error = e.errno
            if inauthentic and not crypt_error:
                mutate_aead_message(assoc, ctext, authsize, ivsize, aad_iv, rng)
    novrfy = inauthentic and not (setkey_error or setauthsize_error or crypt_error)
    name = f"random: alen={alen} plen={plen} authsize={authsize} klen={klen} novrfy={int(novrfy)}"
    return AeadTestvec(name, key, iv, bytes(assoc), ptext, bytes(ctext), novrfy=novrfy,
                       setkey_error=setkey_error, setauthsize_error=setauthsize_error,
                       crypt_error=crypt_error)


def aead_random_configs(tfm, vecs, rng: random.Random, iterations: int, einval_allowed: bool) -> None:
    """Every vector under ``iterations`` random configs, encryption then decryption."""
    for encrypt in (True, False):
        for i, vec in enumerate(vecs):
            for _ in range(iterations):
                test_aead_vec_cfg(tfm, vec, i, random_testvec_config(rng), encrypt, einval_allowed)


def _max_keysize(vecs) -> int:
    return max((len(v.key) for v in vecs), default=0)


def aead_vs_generic(tfm, desc: Optional[AlgTestDesc], driver: str, vecs, rng: random.Random,
                    iterations: int) -> None:
    gtfm = _generic_tfm(crypto_alloc_aead, "aead", driver, tfm.alg.cra_name, desc)
    if gtfm is None:
        return
    aad_iv = bool(desc and desc.aad_iv)
    einval_allowed = bool(desc and desc.einval_allowed)
    with gtfm:
        for what in ("maxauthsize", "ivsize", "blocksize"):
            _same("aead", what, driver, getattr(tfm, what), getattr(gtfm, what))
        for _ in range(iterations * 8):
            vec = random_aead_testvec(gtfm, rng, _max_keysize(vecs), MAX_DATA_SIZE, False, aad_iv)
            cfg = random_testvec_config(rng)
            if not vec.novrfy:
                test_aead_vec_cfg(tfm, vec, vec.id, cfg, True, einval_allowed)
            if vec.crypt_error == 0 or vec.novrfy:
                test_aead_vec_cfg(tfm, vec, vec.id, cfg, False, einval_allowed)
                test_aead_one_call(tfm, vec, vec.id, False, cfg.nosimd, einval_allowed)


def aead_inauthentic_inputs(tfm, desc: Optional[AlgTestDesc], vecs, rng: random.Random,
                            iterations: int) -> None:
    """Inauthentic messages made by the driver itself must all be refused."""
    aad_iv = bool(desc and desc.aad_iv)
    einval_allowed = bool(desc and desc.einval_allowed)
    for _ in range(iterations * 8):
        for _ in range(MAX_INAUTHENTIC_TRIES):
            vec = random_aead_testvec(tfm, rng, _max_keysize(vecs), MAX_DATA_SIZE, True, aad_iv)
            if vec.novrfy:
                test_aead_vec_cfg(tfm, vec, vec.id, random_testvec_config(rng), False, einval_allowed)
                break


def test_aead_full(tfm, desc: Optional[AlgTestDesc], driver: str, vecs) -> None:
    """The full (EXTRA_TESTS) part of an AEAD self-test."""
    rng, iterations, text = _start(driver)
    einval_allowed = bool(desc and desc.einval_allowed)
    with note(text):
        aead_random_configs(tfm, vecs, rng, iterations, einval_allowed)
        aead_vs_generic(tfm, desc, driver, vecs, rng, iterations)
        aead_inauthentic_inputs(tfm, desc, vecs, rng, iterations)
