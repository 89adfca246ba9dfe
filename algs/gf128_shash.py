"""What the GF(2^128) hash shashes share (ghash, polyval): the key struct
kept in the tfm's context and wiped on exit.  (The choice between the SIMD
block function in an FPU section and the generic one is algs/simd_blocks.py's.)

No kernel counterpart: the kernel's ghash-generic.c, polyval-generic.c and
their x86 glue each hold this; here algs/ghash_generic.py and
algs/polyval_generic.py build their drivers on it.
"""

from __future__ import annotations

from typing import Any, Callable, Tuple

from crypto_api.errors import EINVAL, CryptoError

KEY_SIZE = 16


def key_struct(ffi: Any, lib: Any, struct: str, c_setkey: Any, driver: str,
               what: str) -> Tuple[Callable, Callable]:
    """``(setkey, exit_tfm)`` for a driver whose key is the C ``struct``
    filled by ``c_setkey`` from exactly 16 bytes (``what`` names them)."""

    def setkey(tfm, key) -> None:
        if len(key) != KEY_SIZE:
            raise CryptoError(EINVAL, f"{driver}: key is {len(key)} bytes, expected {KEY_SIZE} ({what})")
        ctx = tfm.ctx
        k = getattr(ctx, "key", None)
        if k is None:
            k = ctx.key = ffi.new(f"struct {struct} *")
        c_setkey(k, ffi.from_buffer("uint8_t[]", key))

    def exit_tfm(tfm) -> None:
        k = getattr(tfm.ctx, "key", None)
        if k is not None:
            lib.crypto_memzero(k, ffi.sizeof(k[0]))

    return setkey, exit_tfm
