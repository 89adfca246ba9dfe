"""ARIA generic single-block cipher (crypto/aria_generic.c, include/crypto/aria.h).

``aria-generic`` (priority 100, module ``aria_generic``, aliases ``aria`` and
``aria-generic``): RFC 5794 with 16-, 24- or 32-byte keys (12, 14 or 16
rounds), one 16-byte block per call, on the portable C core
algs/aria_generic.c.  It offers its C block functions (a BLOCK offer, crypto_api.cinterface)
so that the ecb/cbc/ctr/xts templates run whole walk steps in C, and
:func:`aria_setkey` / :func:`generic_ops` give the x86 glue the same key
schedule and the single-block remainder functions.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import crypto_api as capi
from crypto_api.algs._aria_generic import ffi, lib
from crypto_api.cinterface import BlockEntries, Kind, Offer
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.direct import digest_direct

MODULE_NAME = "aria_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aria", "aria-generic")

ARIA_BLOCK_SIZE = 16
ARIA_MIN_KEY_SIZE = 16
ARIA_MAX_KEY_SIZE = 32
ARIA_ALIGNMASK = 3          # 6.0-6.13: the generic code reads aligned words

_from_buffer = ffi.from_buffer
_ENC = ffi.addressof(lib, "aria_encrypt")
_DEC = ffi.addressof(lib, "aria_decrypt")
_ENC_CALL = ffi.addressof(lib, "aria_encrypt_call")
_DEC_CALL = ffi.addressof(lib, "aria_decrypt_call")


def aria_setkey(ctx: Any, key: Any, driver: str) -> Any:
    """Expand ``key`` into ``ctx.aria`` (a ``struct aria_ctx``, wiped and reused
    on a re-key); EINVAL naming ``driver`` unless it is 16, 24 or 32 bytes."""
    c = getattr(ctx, "aria", None)
    if c is None:
        c = ctx.aria = ffi.new("struct aria_ctx *")
    n = len(key)
    if n not in (16, 24, 32):
        raise CryptoError(EINVAL, f"{driver}: key is {n} bytes, expected 16, 24 or 32")
    lib.crypto_memzero(c, ffi.sizeof(c[0]))
    lib.aria_set_key(c, _from_buffer("uint8_t[]", key), n)
    return c


def aria_wipe(ctx: Any) -> None:
    c = getattr(ctx, "aria", None)
    if c is not None:
        lib.crypto_memzero(c, ffi.sizeof(c[0]))


def _setkey(tfm: Any, key: Any) -> None:
    aria_setkey(tfm.ctx, key, "aria-generic")


def _block_entries(tfm: Any, simd: bool) -> BlockEntries:
    """The BLOCK offer (no SIMD code: the same routines either way)."""
    return BlockEntries(encrypt=_ENC, decrypt=_DEC, key=tfm.ctx.aria)


def _one(tfm: Any, dst: Any, src: Any, encrypt: bool) -> None:
    (lib.aria_encrypt if encrypt else lib.aria_decrypt)(
        tfm.ctx.aria, _from_buffer("uint8_t[]", dst, require_writable=True), _from_buffer("uint8_t[]", src))


def _direct(tfm: Any, encrypt: bool) -> Optional[Callable]:
    """encrypt_one/decrypt_one in one C call: the C entry point (a block in
    any C-contiguous buffer; crypto_api.direct.digest_direct), None where it
    is not built."""
    key = tfm.ctx.aria
    return digest_direct(_ENC_CALL if encrypt else _DEC_CALL, key, key, ARIA_BLOCK_SIZE,
                         in_len=ARIA_BLOCK_SIZE)


ALG = capi.CipherAlg(
    cra_name="aria", cra_driver_name="aria-generic", cra_priority=100,
    cra_blocksize=ARIA_BLOCK_SIZE, cra_alignmask=ARIA_ALIGNMASK,
    min_keysize=ARIA_MIN_KEY_SIZE, max_keysize=ARIA_MAX_KEY_SIZE,
    setkey=_setkey, encrypt=lambda tfm, d, s: _one(tfm, d, s, True),
    decrypt=lambda tfm, d, s: _one(tfm, d, s, False),
    cra_exit=lambda tfm: aria_wipe(tfm.ctx), direct=_direct,
    c_entries=(Offer(Kind.BLOCK, _block_entries),))


def module_init() -> None:
    capi.crypto_register_cipher(ALG)


def module_exit() -> None:
    capi.crypto_unregister_cipher(ALG)
