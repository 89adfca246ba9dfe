"""aes-aesni: the AES single-block cipher with AES-NI (arch/x86/crypto/aesni-intel_glue.c).

Priority 300; module ``aesni_intel``; needs the AES-NI CPU feature.  Each
block runs in its own FPU section; when crypto_simd_usable() is false the
generic code runs instead (with its own key schedule).  The
descriptor comes from crypto_api.algs.aes_generic.aes_cipher_alg over the
AES-NI C core (arch/x86/aesni.c).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "aesni_intel"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aes", "aes-aesni")
ALGS = []


def module_init() -> None:
    capi.require_cpu(boot_cpu_has("aes"), "aes-aesni", "the CPU lacks AES-NI")
    from crypto_api.algs.aes_generic import aes_cipher_alg
    from crypto_api.arch.x86._aesni import ffi, lib
    ALGS[:] = [aes_cipher_alg("aes-aesni", 300, ffi, lib, "struct aesni_ctx *",
                              "aesni_setkey", "aesni_encrypt", "aesni_decrypt", simd=True)]
    capi.crypto_register_cipher(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_cipher(ALGS.pop())
