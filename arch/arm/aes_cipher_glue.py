"""aes-arm: the arm machine's scalar table AES (arch/arm/crypto/aes-cipher-glue.c).

Module ``aes_arm``, priority 200, alias ``aes`` only; always registers (no
CPU feature: it runs on a CPU without NEON too).  setkey is the generic AES
key expansion; encrypt/decrypt run the core ``aes_arm`` one block per call,
no SIMD section.  The descriptor builder is the one arm64's aes-arm64
shares (crypto_api.arch.common.aes_table).

arm32's other AES drivers, ``aes-arm-bs`` (NEON bit-sliced, 250; not
built here) and ``aes-ce`` (300, arch/arm/aes_ce_glue.py), register only
modes, never a bare ``aes`` cipher (reference §2.1), so they cannot serve
Adiantum.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.common import aes_table as shared
from crypto_api.machine import backend

MODULE_ARCH = "arm"
MODULE_NAME = "aes_arm"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aes")
ALGS = []


def module_init() -> None:
    ALGS[:] = [shared.make_alg(backend.load("arm", "aes_arm"), "aes-arm")]
    capi.crypto_register_cipher(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_cipher(ALGS.pop())
