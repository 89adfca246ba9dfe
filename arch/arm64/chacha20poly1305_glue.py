"""One-pass NEON ChaCha20-Poly1305 AEADs for arm64: a vendor-style driver
beyond the kernel, the seed's stitched design.

The kernel has no such driver: no Linux tree has a ChaCha20-Poly1305 AEAD
under arch/arm64/crypto; ``rfc7539(chacha20,poly1305)`` there is the rfc7539
template instance over the NEON ChaCha20 skcipher and a Poly1305 shash (on
this machine ``rfc7539(chacha20-neon,poly1305-neon)``, priority
(300 + 200) / 2 = 250), two passes over the data.  The design here is
libgcrypt's AArch64 ``chacha20_poly1305_aarch64_blocks4`` (the seed): four
ChaCha20 blocks in NEON lanes and sixteen Poly1305 blocks in general-purpose
registers issued in the same loop (core ``chacha20poly1305_neon``,
arch/arm64/chacha20poly1305_neon.c, built from chacha_neon4.c's round code).

Module ``chacha20poly1305_neon``, needs HWCAP asimd (else ENODEV, nothing
registered), registers at priority 400, above the template instance:

* ``rfc7539-chacha20poly1305-neon``    cra_name ``rfc7539(chacha20,poly1305)``,
  key 32 bytes, IV 12;
* ``rfc7539esp-chacha20poly1305-neon`` cra_name ``rfc7539esp(chacha20,poly1305)``,
  key 32 bytes + 4-byte salt, IV 8 (assoclen < 8 is EINVAL).

The request path is the one the x86 AVX2 one-pass driver uses
(arch/chacha20poly1305_onepass.py): one core call per request inside one
kernel_neon_begin/end section that records the AD and text bytes; when
crypto_simd_usable() is false (an interrupt, a nested NEON user, the
self-test manager's nosimd configurations) the request goes to the template
instance, allocated by cra_name with CRYPTO_ALG_NEED_FALLBACK; a wrong tag is
EBADMSG with zeros, never plaintext, in dst's text.  As every emulated core,
it is reachable only through its request callbacks (no in-process one-call
path): ``tfm.encrypt``/``decrypt`` make requests.
"""

from __future__ import annotations

from typing import Any

import crypto_api as capi
from crypto_api.arch.arm64 import neon_glue
from crypto_api.arch.chacha20poly1305_onepass import OnePassCore, make_onepass_aead

MODULE_ARCH = "arm64"
MODULE_NAME = "chacha20poly1305_neon"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "rfc7539(chacha20,poly1305)", "rfc7539esp(chacha20,poly1305)",
    "rfc7539-chacha20poly1305-neon", "rfc7539esp-chacha20poly1305-neon")

PRIORITY = 400
CORE = "chacha20poly1305_neon"
ALGS = []


def make_core(lib: Any) -> OnePassCore:
    """The NEON core (native on an arm64 host, else the qemu-user helper)
    behind the shared request path, in kernel_neon_begin/end sections."""
    return OnePassCore(suffix="neon", seal=lib.chacha20poly1305_seal_neon,
                       open=lib.chacha20poly1305_open_neon, begin=capi.kernel_neon_begin,
                       end=capi.kernel_neon_end, priority=PRIORITY)


def module_init() -> None:
    neon_glue.require_feature("asimd", MODULE_NAME, "ASIMD")
    core = make_core(neon_glue.load_core(CORE))
    ALGS[:] = [make_onepass_aead("rfc7539", 12, core), make_onepass_aead("rfc7539esp", 8, core)]
    capi.crypto_register_aeads(ALGS)


def module_exit() -> None:
    capi.crypto_unregister_aeads(ALGS)
    ALGS.clear()
