"""Skcipher self-tests (test_skcipher / test_skcipher_vec_cfg in crypto/testmgr.c).

Every vector is run under every configuration, encryption then decryption:
set the key (once per vector), lay the input out as the config says, run the request, compare
the output, check the poison around every piece and that the request itself
was not changed.  Each vector is also run through the one-buffer
``tfm.encrypt``/``tfm.decrypt`` (a driver's optional ``encrypt_contiguous`` entry,
our counterpart of the 6.7+ kernel's lskcipher, which test_lskcipher checks).
"""

from __future__ import annotations

import contextlib

from .. import alg as A
from ..completion import crypto_init_wait, crypto_req_done, wait_status
from ..errors import CryptoError
from ..fpu import simd_disabled
from ..skcipher import (crypto_skcipher_decrypt, crypto_skcipher_encrypt,
                        skcipher_request_alloc, skcipher_request_set_callback,
                        skcipher_request_set_crypt)
from .buffers import TestSgl
from .configs import TestvecConfig
from .failure import fail, outcome


def test_skcipher_vec_cfg(tfm, vec, vec_name, cfg: TestvecConfig, encrypt: bool,
                          set_key: bool = True) -> None:
    """One vector, one configuration, one direction.

    ``set_key=False``: the vector's key is already set on ``tfm`` (by the
    previous call for the same vector), as v5.0 sets it once per vector.
    """
    driver = tfm.alg.cra_driver_name
    op = "encryption" if encrypt else "decryption"
    where = f'on test vector {vec_name}, cfg="{cfg.name}"'
    if not set_key:
        if vec.setkey_error:
            return
    elif vec.setkey_error:
        try:
            tfm.setkey(vec.key)
        except CryptoError as e:
            if e.errno != vec.setkey_error:
                fail(f"alg: skcipher: {driver} setkey failed on test vector {vec_name}; "
                     f"expected_error={vec.setkey_error}, actual_error={e.errno}")
            return
        fail(f"alg: skcipher: {driver} setkey unexpectedly succeeded on test vector {vec_name}")
    else:
        try:
            tfm.setkey(vec.key)
        except CryptoError as e:
            fail(f"alg: skcipher: {driver} setkey failed on test vector {vec_name}; "
                 f"expected_error=0, actual_error={e.errno}, flags={tfm.crt_flags:#x}", e.errno)
    inp, expected = (vec.ptext, vec.ctext) if encrypt else (vec.ctext, vec.ptext)
    n = len(inp)
    am = tfm.alg.cra_alignmask
    src = TestSgl(n, cfg.src_divs, am, inp)
    dst = src if cfg.inplace else TestSgl(n, cfg.dst_divs, am)
    ivsize = tfm.ivsize
    iv_off = cfg.iv_offset + (am if cfg.iv_offset_relative_to_alignmask else 0)
    ivbuf = bytearray(iv_off) + bytearray(vec.iv if vec.iv else bytes(ivsize))
    iv = memoryview(ivbuf)[iv_off:] if ivsize else None
    req = skcipher_request_alloc(tfm)
    flags = A.CRYPTO_TFM_REQ_MAY_SLEEP if cfg.may_sleep else 0
    wait = crypto_init_wait()       # an async driver completes through the callback
    skcipher_request_set_callback(req, flags | A.CRYPTO_TFM_REQ_MAY_BACKLOG, crypto_req_done, wait)
    skcipher_request_set_crypt(req, src.sgl, dst.sgl, n, iv)
    before = (req.src, req.dst, req.cryptlen, req.iv, req.flags)
    crypt = crypto_skcipher_encrypt if encrypt else crypto_skcipher_decrypt
    with simd_disabled() if cfg.nosimd else contextlib.nullcontext():
        done, _ = outcome(lambda: wait_status(crypt(req), wait, driver), vec.crypt_error,
                          f"alg: skcipher: {driver} {op}", where)
    if not done:
        return
    if vec.crypt_error:
        fail(f"alg: skcipher: {driver} {op} unexpectedly succeeded {where}")
    after = (req.src, req.dst, req.cryptlen, req.iv, req.flags)
    if any(a is not b and a != b for a, b in zip(before, after)):
        fail(f"alg: skcipher: {driver} {op} corrupted the request struct {where}")
    if not src.poison_intact() or (dst is not src and not dst.poison_intact()):
        fail(f"alg: skcipher: {driver} {op} overran dst buffer {where}")
    if dst.contents() != expected:
        fail(f"alg: skcipher: {driver} {op} test failed (wrong result) {where}")


ONE_BUFFER_CFG = "one buffer (tfm.encrypt)"
ONE_BUFFER_VIEW_CFG = "one buffer, memoryview (tfm.encrypt)"
ONE_BUFFER_DECLINED_CFG = "one buffer, direct path declined (tfm.encrypt)"


def test_skcipher_one_buffer(tfm, vec, vec_name, encrypt: bool, nosimd: bool = False,
                         set_key: bool = True) -> None:
    """The vector through ``tfm.encrypt``/``tfm.decrypt`` three times: on bytes
    and on a memoryview (the direct path its ``direct`` hook built when it has one),
    and as the method goes on when that path declines (``encrypt_contiguous``,
    else the request path)."""
    if vec.setkey_error:
        return                      # covered by test_skcipher_vec_cfg
    driver = tfm.alg.cra_driver_name
    op = "encryption" if encrypt else "decryption"
    if set_key:
        try:
            tfm.setkey(vec.key)
        except CryptoError as e:
            fail(f"alg: skcipher: {driver} setkey failed on test vector {vec_name}; "
                 f"expected_error=0, actual_error={e.errno}", e.errno)
    inp, expected = (vec.ptext, vec.ctext) if encrypt else (vec.ctext, vec.ptext)
    iv = (vec.iv or bytes(tfm.ivsize)) if tfm.ivsize else None
    public = tfm.encrypt if encrypt else tfm.decrypt

    def declined(data, iv):
        return tfm._crypt(data, iv, encrypt, None)

    for cfg, crypt, data in ((ONE_BUFFER_CFG, public, bytes(inp)),
                             (ONE_BUFFER_VIEW_CFG, public, memoryview(bytearray(inp))),
                             (ONE_BUFFER_DECLINED_CFG, declined, bytes(inp))):
        name = cfg + (", nosimd" if nosimd else "")
        where = f'on test vector {vec_name}, cfg="{name}"'
        with simd_disabled() if nosimd else contextlib.nullcontext():
            done, out = outcome(lambda: crypt(data, iv), vec.crypt_error, f"alg: skcipher: {driver} {op}", where)
        if not done:
            continue
        if vec.crypt_error:
            fail(f"alg: skcipher: {driver} {op} unexpectedly succeeded {where}")
        if out != expected:
            fail(f"alg: skcipher: {driver} {op} test failed (wrong result) {where}")


def check_config(kind: str, driver: str, cfg: TestvecConfig) -> None:
    """A config that cannot be met fails the test, naming the config."""
    try:
        cfg.check()
    except ValueError as e:
        fail(f"alg: {kind}: {driver}: invalid test configuration: {e}")


def test_skcipher(tfm, vecs, configs) -> None:
    """Every vector under every config, encryption then decryption, then through tfm.encrypt.

    The key is set once per vector (v5.0 does so; 5.1+ sets it for every
    config, which costs Adiantum's key derivation each time for no finding).
    """
    for cfg in configs:
        check_config("skcipher", tfm.alg.cra_driver_name, cfg)
    for i, vec in enumerate(vecs):
        first = True
        for cfg in configs:
            for encrypt in (True, False):
                test_skcipher_vec_cfg(tfm, vec, i, cfg, encrypt, set_key=first)
                first = False
        test_skcipher_one_buffer(tfm, vec, i, True, set_key=first)
        test_skcipher_one_buffer(tfm, vec, i, False, set_key=False)
