"""AEAD self-tests (test_aead / test_aead_vec_cfg in crypto/testmgr.c, 5.1+ framework).

Every vector is encrypted under every configuration (vectors marked
``novrfy`` are not), then every vector is decrypted under every
configuration.  A configuration lays out the whole AD ‖ text stream, so its
scatterlist splits fall anywhere across the AD and the text.  Each run sets
the key and the tag length, waits for an asynchronous driver, then checks the
error (EBADMSG, or EINVAL where the suite allows it, for an inauthentic
input), that the request was left as it was, that no poison around any piece
was touched, that an out-of-place source was not written, and the output
after the AD region (which is never compared).  Each vector also goes through
the one-call ``tfm.encrypt``/``tfm.decrypt``, whose decryption of an
inauthentic input must leave the caller's ``out`` buffer untouched.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable

from .. import alg as A
from ..aead import (aead_request_alloc, aead_request_set_ad, aead_request_set_callback,
                    aead_request_set_crypt, crypto_aead_decrypt, crypto_aead_encrypt)
from ..completion import crypto_init_wait, crypto_req_done, crypto_wait_req
from ..errors import EBADMSG, EINVAL, CryptoError
from ..fpu import simd_disabled
from .buffers import TestSgl
from .configs import TestvecConfig
from .failure import TestFailure, fail
from .skcipher_test import check_config

ONE_CALL_CFG = "one call (tfm.encrypt/tfm.decrypt)"


def _set_key_and_authsize(tfm, vec, vec_name) -> bool:
    """setkey and setauthsize as the vector says; False when an expected error ends it."""
    driver = tfm.alg.cra_driver_name
    try:
        tfm.setkey(vec.key)
    except CryptoError as e:
        if e.errno != vec.setkey_error:
            fail(f"alg: aead: {driver} setkey failed on test vector {vec_name}; "
                 f"expected_error={vec.setkey_error}, actual_error={e.errno}, "
                 f"flags={tfm.crt_flags:#x}", e.errno)
        return False
    if vec.setkey_error:
        fail(f"alg: aead: {driver} setkey unexpectedly succeeded on test vector {vec_name}; "
             f"expected_error={vec.setkey_error}")
    try:
        tfm.setauthsize(vec.authsize)
    except CryptoError as e:
        if e.errno != vec.setauthsize_error:
            fail(f"alg: aead: {driver} setauthsize failed on test vector {vec_name}; "
                 f"expected_error={vec.setauthsize_error}, actual_error={e.errno}", e.errno)
        return False
    if vec.setauthsize_error:
        fail(f"alg: aead: {driver} setauthsize unexpectedly succeeded on test vector {vec_name}; "
             f"expected_error={vec.setauthsize_error}")
    return True


def _errno_of(call: Callable[[], Any], what: str, where: str) -> Any:
    """``(errno, result)`` of one operation: 0 and the result, or the error's errno."""
    try:
        rc = call()
    except TestFailure:
        raise
    except CryptoError as e:
        return e.errno, None
    except Exception as e:          # a driver bug: still a test failure
        fail(f"{what} failed {where}: {type(e).__name__}: {e}")
    if isinstance(rc, int) and not isinstance(rc, bool) and rc < 0:
        return -rc, None
    return 0, rc


def _check_error(err: int, vec, what: str, where: str, einval_allowed: bool) -> bool:
    """True if the operation succeeded as it should; False if it failed as it should."""
    if vec.novrfy:
        if err == 0:
            fail(f"{what} unexpectedly succeeded {where}; expected_error=-{EBADMSG} "
                 "(inauthentic input)")
        if err == EBADMSG or err == vec.crypt_error or (einval_allowed and err == EINVAL):
            return False
        fail(f"{what} failed {where}; expected_error=-{EBADMSG}, actual_error=-{err}", err)
    if err != vec.crypt_error:
        if err == 0:
            fail(f"{what} unexpectedly succeeded {where}; expected_error=-{vec.crypt_error}")
        fail(f"{what} failed {where}; expected_error=-{vec.crypt_error}, actual_error=-{err}", err)
    return err == 0


def test_aead_vec_cfg(tfm, vec, vec_name, cfg: TestvecConfig, encrypt: bool,
                      einval_allowed: bool = False) -> None:
    """One vector, one configuration, one direction."""
    driver = tfm.alg.cra_driver_name
    op = "encryption" if encrypt else "decryption"
    where = f'on test vector {vec_name}, cfg="{cfg.name}"'
    what = f"alg: aead: {driver} {op}"
    if encrypt and vec.novrfy:
        return
    if not _set_key_and_authsize(tfm, vec, vec_name):
        return
    inp, expected = (vec.ptext, vec.ctext) if encrypt else (vec.ctext, vec.ptext)
    alen, outlen = len(vec.assoc), len(expected)
    am = tfm.alg.cra_alignmask
    stream = vec.assoc + inp
    if cfg.inplace:
        room = alen + max(len(inp), outlen)         # encrypting in place: room for the tag
        src = dst = TestSgl(room, cfg.src_divs, am, stream + bytes(room - len(stream)))
    else:
        src = TestSgl(len(stream), cfg.src_divs, am, stream)
        dst = TestSgl(alen + outlen, cfg.dst_divs, am)
    ivsize = tfm.ivsize
    iv_off = cfg.iv_offset + (am if cfg.iv_offset_relative_to_alignmask else 0)
    ivbuf = bytearray(iv_off) + bytearray(vec.iv if vec.iv else bytes(ivsize))
    iv = memoryview(ivbuf)[iv_off:]
    req = aead_request_alloc(tfm)
    wait = crypto_init_wait()
    flags = A.CRYPTO_TFM_REQ_MAY_BACKLOG | (A.CRYPTO_TFM_REQ_MAY_SLEEP if cfg.may_sleep else 0)
    aead_request_set_callback(req, flags, crypto_req_done, wait)
    aead_request_set_crypt(req, src.sgl, dst.sgl, len(inp), iv)
    aead_request_set_ad(req, alen)
    fields = ("src", "dst", "cryptlen", "assoclen", "iv", "flags", "complete", "data", "tfm")
    before = [getattr(req, f) for f in fields]
    crypt = crypto_aead_encrypt if encrypt else crypto_aead_decrypt
    with simd_disabled() if cfg.nosimd else contextlib.nullcontext():
        err, _ = _errno_of(lambda: crypto_wait_req(crypt(req), wait), what, where)
    after = [getattr(req, f) for f in fields]
    if any(a is not b and a != b for a, b in zip(before, after)):
        changed = [f for f, a, b in zip(fields, before, after) if a is not b and a != b]
        fail(f"alg: aead: {driver} {op} corrupted the request struct ({', '.join(changed)}) {where}")
    if not src.poison_intact() or (dst is not src and not dst.poison_intact()):
        fail(f"alg: aead: {driver} {op} overran dst buffer {where}")
    if dst is not src and src.contents() != stream:
        fail(f"alg: aead: {driver} {op} corrupted src buffer {where}")
    if not _check_error(err, vec, what, where, einval_allowed):
        return
    if dst.contents()[alen:alen + outlen] != expected:
        fail(f"alg: aead: {driver} {op} test failed (wrong result) {where}")


def test_aead_one_call(tfm, vec, vec_name, encrypt: bool, nosimd: bool = False,
                      einval_allowed: bool = False) -> None:
    """The vector through ``tfm.encrypt``/``tfm.decrypt``.  An inauthentic input must fail
    and leave the ``out`` buffer it was given exactly as it was."""
    if (encrypt and vec.novrfy) or not _set_key_and_authsize(tfm, vec, vec_name):
        return
    driver = tfm.alg.cra_driver_name
    op = "encryption" if encrypt else "decryption"
    name = ONE_CALL_CFG + (", nosimd" if nosimd else "")
    where = f'on test vector {vec_name}, cfg="{name}"'
    what = f"alg: aead: {driver} {op}"
    iv = (vec.iv or bytes(tfm.ivsize)) if tfm.ivsize else None
    inp, expected = (vec.ptext, vec.ctext) if encrypt else (vec.ctext, vec.ptext)
    marker = bytes([0xA5]) * len(expected)
    out = bytearray(marker)
    call = tfm.encrypt if encrypt else tfm.decrypt
    with simd_disabled() if nosimd else contextlib.nullcontext():
        err, res = _errno_of(lambda: call(inp, iv, vec.assoc, out), what, where)
    if not _check_error(err, vec, what, where, einval_allowed):
        if out != marker:
            fail(f"alg: aead: {driver} {op} wrote into the caller's buffer although it failed {where}")
        return
    if res is not out or bytes(out) != expected:
        fail(f"alg: aead: {driver} {op} test failed (wrong result) {where}")


def test_aead(tfm, vecs, configs, einval_allowed: bool = False) -> None:
    """Every vector encrypted under every config, then every vector decrypted."""
    for cfg in configs:
        check_config("aead", tfm.alg.cra_driver_name, cfg)
    for encrypt in (True, False):
        for i, vec in enumerate(vecs):
            for cfg in configs:
                test_aead_vec_cfg(tfm, vec, i, cfg, encrypt, einval_allowed)
            test_aead_one_call(tfm, vec, i, encrypt, einval_allowed=einval_allowed)
