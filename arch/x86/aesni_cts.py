"""``cts-cbc-aes-aesni`` (cra_name ``cts(cbc(aes))``, priority 400, walksize
32): the AES-NI CBC code with ciphertext stealing, added to
arch/x86/crypto/aesni-intel_glue.c by the 5.12 rewrite; internal
``__cts-cbc-aes-aesni`` under the SIMD wrapper up to 6.15, registered
directly from 6.16 (rule ``aesni.modes_wrapping``, as the other modes).

The kernel's driver runs CBC over all but the last two blocks and then an
assembly CTS routine over the final 17..32 bytes; here the stealing is the
cts template's CS3 code (crypto_api.algs.cts.cs3_crypt, the same bytes and
output IV) around this module's CBC routines (aesni_cbc_encrypt/decrypt of
arch/x86/aesni_modes.c), one FPU section for the request (the request path
of aesni_modes_glue).  No one-call path.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from crypto_api.algs.cts import cs3_crypt
from crypto_api.arch.x86._aesni import ffi, lib
from crypto_api.arch.x86.aesni_modes_glue import AES_BLOCK_SIZE, AesMode


class _AesniCbc:
    """The CBC routines on one key schedule, shaped as the cts template's child."""

    def __init__(self, k: Any) -> None:
        self.k = k

    def _run(self, fn: Callable, data: Any, iv: bytes, out: Optional[bytearray]) -> bytearray:
        dst = bytearray(len(data)) if out is None else out
        civ = ffi.new("uint8_t[16]", bytes(iv))
        fn(self.k, ffi.from_buffer("uint8_t[]", dst, require_writable=True),
           ffi.from_buffer("uint8_t[]", data), len(data) // AES_BLOCK_SIZE, civ)
        return dst

    def encrypt(self, data: Any, iv: bytes, out: Optional[bytearray] = None) -> bytearray:
        return self._run(lib.aesni_cbc_encrypt, data, iv, out)

    def decrypt(self, data: Any, iv: bytes, out: Optional[bytearray] = None) -> bytearray:
        return self._run(lib.aesni_cbc_decrypt, data, iv, out)


def _cts(ctx: Any, out: Any, inp: Any, n: int, iv: Any, encrypt: bool) -> int:
    buf = bytearray(ffi.buffer(inp, n))
    try:
        out_iv = cs3_crypt(_AesniCbc(ctx.k), buf, bytes(ffi.buffer(iv)), AES_BLOCK_SIZE, encrypt)
        ffi.buffer(out, n)[:] = buf
        ffi.buffer(iv)[:] = out_iv
    finally:
        buf[:] = bytes(n)
    return 0


#: 5.12's __cts-cbc-aes-aesni (400, walksize 32)
CTS = AesMode("cts", "aesni", 400, _cts, ("aesni_cbc_encrypt", "aesni_cbc_decrypt"),
              walksize=2 * AES_BLOCK_SIZE, stem="cts-cbc", cra="cts(cbc(aes))")
