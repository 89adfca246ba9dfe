"""One-pass AVX2 ChaCha20-Poly1305 AEADs: a vendor-style driver beyond the kernel.

The kernel has no such driver: no Linux tree (v5.0 to 6.19) has a stitched
ChaCha20-Poly1305 under arch/x86; ``rfc7539(chacha20,poly1305)`` there is
always the template instance ``rfc7539(chacha20-simd,poly1305-simd)``,
priority (300 + 300) / 2 = 300, which makes one pass over the data for
ChaCha20 and another for Poly1305.  This module registers, where the CPU has
AVX2 and BMI2 and the OS saves YMM state (else ENODEV):

* ``rfc7539-chacha20poly1305-avx2``    cra_name ``rfc7539(chacha20,poly1305)``,
  key 32 bytes, IV 12;
* ``rfc7539esp-chacha20poly1305-avx2`` cra_name ``rfc7539esp(chacha20,poly1305)``,
  key 32 bytes + 4-byte salt, IV 8, the AD ending with an unauthenticated
  8-byte IV copy (assoclen < 8 is EINVAL, refused before anything is written);

both at priority 400, above the template instance, as a vendor driver would
be, with the template's construction and bytes (RFC 8439 section 2.8).  The
core (chacha20poly1305_avx2.c) runs one request in one FPU section, with
Poly1305 stitched into the AVX2 ChaCha rounds, or into the 16-block AVX-512
rounds where the CPU has AVX-512F/VL/BW (the same drivers: chacha20-simd
likewise runs its widest code under one name).  Where the CPU also has
AVX512_IFMA, a text of 4 KiB or more (CHACHAPOLY_IFMA_MIN) has its
Poly1305 done in radix 2^44 with vpmadd52luq/vpmadd52huq, sixteen blocks in
flight, 4 KiB at a time after (sealing) or before (opening) the AVX-512
ChaCha20 of that chunk: the block code poly1305-simd uses too
(arch/x86/poly1305_ifma.c).  That is a project addition beyond the kernel as
well: no Linux x86 Poly1305 has an IFMA path (the cryptogams perlasm of 5.6
and later builds its base 2^44 code only outside the kernel, as read in one
5.17+ copy: the kernel table's poly1305-simd row).  The FPU
section is the same one section per request either way.  When
crypto_simd_usable() is false the request goes to a fallback transform
allocated the kernel's way, by cra_name with CRYPTO_ALG_NEED_FALLBACK in the
mask: the template instance (whose SIMD children then take their own
generic paths).  Unlike the template, decryption checks the tag in the same
pass and leaves zeros, not unauthenticated plaintext, in the text part of
dst when the tag is wrong (EBADMSG).  The AD part of dst is never written.
The request path is shared with the arm64 NEON one-pass driver
(arch/chacha20poly1305_onepass.py); this module supplies the core and its
FPU section.
``tfm.encrypt``/``decrypt`` take a direct path (``direct``): the same core
in one C call, declining (to the request path) whenever SIMD is unusable or
an FPU trace records.  That path is the AEAD entry point of
crypto_api._direct_call (crypto_api/aead_call.h); where it is not built the
driver has none.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.chacha20poly1305_onepass import KEY_SIZE, NONCE_SIZE, TAG_SIZE, ESP_IV_COPY, \
    OnePassCore, make_onepass_aead
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.errors import EBADMSG, CryptoError
from crypto_api.direct import aead_direct

MODULE_NAME = "chacha20poly1305_avx2"
MODULE_ARCH = "x86_64"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "rfc7539(chacha20,poly1305)", "rfc7539esp(chacha20,poly1305)",
    "rfc7539-chacha20poly1305-avx2", "rfc7539esp-chacha20poly1305-avx2")

PRIORITY = 400
ALGS = []


def core_isa() -> str:
    """"avx512ifma", "avx512" or "avx2": the form of the core this CPU runs."""
    if all(boot_cpu_has(f) for f in ("avx512f", "avx512vl", "avx512bw", "xsave_zmm")):
        return "avx512ifma" if boot_cpu_has("avx512ifma") else "avx512"
    return "avx2"


def make_core() -> OnePassCore:
    """The core (an in-process cffi extension) behind the shared request path:
    its 16-block AVX-512 form where the CPU has AVX-512F/VL/BW and the OS
    saves ZMM state (as chacha20-simd picks its widest code), with the IFMA
    Poly1305 for long texts where it also has AVX512_IFMA, else AVX2."""
    from crypto_api.arch.x86._chacha20poly1305_avx2 import ffi, lib
    isa = core_isa()
    seal_name, open_name = f"chacha20poly1305_seal_{isa}", f"chacha20poly1305_open_{isa}"
    seal, open_, fb = getattr(lib, seal_name), getattr(lib, open_name), ffi.from_buffer
    seal_ptr, open_ptr = ffi.addressof(lib, seal_name), ffi.addressof(lib, open_name)

    def seal_buffers(key, nonce, ad, alen, src, n, out):
        seal(fb("uint8_t[]", key), nonce, fb("uint8_t[]", ad), alen, fb("uint8_t[]", src), n,
             fb("uint8_t[]", out, require_writable=True))

    def open_buffers(key, nonce, ad, alen, src, n, tag, out):
        return open_(fb("uint8_t[]", key), nonce, fb("uint8_t[]", ad), alen, fb("uint8_t[]", src), n,
                     tag, fb("uint8_t[]", out, require_writable=True))

    def direct_hook(driver: str, saltlen: int):
        def bad_tag():
            raise CryptoError(EBADMSG, f"{driver}: authentication failed (tag mismatch); "
                                       "no plaintext released")

        def direct(tfm, encrypt: bool):
            """tfm.encrypt/decrypt in one C call (crypto_api.direct.aead_direct)
            for data, AD and IV in any C-contiguous buffers and no ``out`` or a
            writable one that shares no memory with the data or the AD, when
            SIMD is usable and no FPU trace records; anything else declines to
            the request path."""
            if tfm.authsize != TAG_SIZE:
                return None
            key = fb("uint8_t[]", tfm.ctx.key)
            return aead_direct(seal_ptr if encrypt else open_ptr, key, tfm.ctx.key,
                               bytes(tfm.ctx.key[KEY_SIZE:]), NONCE_SIZE, TAG_SIZE,
                               ESP_IV_COPY if saltlen else 0, encrypt, bad_tag)
        return direct

    return OnePassCore(suffix="avx2", seal=seal_buffers, open=open_buffers, begin=capi.kernel_fpu_begin,
                       end=capi.kernel_fpu_end, priority=PRIORITY, direct=direct_hook)


def make_alg(tmpl: str, ivsize: int) -> capi.AeadAlg:
    """The driver for ``tmpl`` ("rfc7539" or "rfc7539esp")."""
    return make_onepass_aead(tmpl, ivsize, make_core())


def module_init() -> None:
    capi.require_cpu(boot_cpu_has("avx") and boot_cpu_has("avx2") and boot_cpu_has("bmi2")
                     and boot_cpu_has("xsave_ymm"), "rfc7539-chacha20poly1305-avx2",
                     "the CPU lacks AVX2 or BMI2 (the stitched Poly1305's mulx), or the OS does not "
                     "save YMM state")
    core = make_core()
    ALGS[:] = [make_onepass_aead("rfc7539", 12, core), make_onepass_aead("rfc7539esp", 8, core)]
    capi.crypto_register_aeads(ALGS)


def module_exit() -> None:
    capi.crypto_unregister_aeads(ALGS)
    ALGS.clear()
