"""ChaCha20/XChaCha20/XChaCha12 NEON skciphers of the arm machine
(arch/arm/crypto/chacha-neon-glue.c, v5.0).

Module ``chacha_neon`` registers ``chacha20-neon``, ``xchacha20-neon`` and
``xchacha12-neon`` (priority 300, walksize 256 = four blocks) when the CPU
reports HWCAP ``neon`` (else ENODEV: nothing registered).  As in v5.0 it
loads ``chacha_generic`` (the exported generic helpers), which registers
the three ``*-generic`` drivers.

The request rules are v5.0 arm64's (reference §2.3), whose request path
arch/arm64/chacha_neon_glue.py shares (crypto_api.arch.common.chacha_neon):
64 bytes or less, or SIMD not usable → the generic code on the whole
request with this tfm (stride 256); otherwise one NEON section per walk
step (non-final steps rounded down to 256), XChaCha's HChaCha in a section
of its own first.  Inside a step the core
(arch/arm/chacha_neon.c) runs the 4-block routine per 256 bytes, the
1-block routine per 64 and bounces a last partial block.  The v5.0 module
has no Cortex-A7 special case (that came with 5.5's scalar ``*-arm``).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api import modules
from crypto_api.algs import chacha_generic as generic
from crypto_api.arch.common import chacha_neon as shared
from crypto_api.machine import backend, current_machine

MODULE_ARCH = "arm"
MODULE_NAME = "chacha_neon"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "chacha20", "chacha20-neon", "xchacha20", "xchacha20-neon", "xchacha12", "xchacha12-neon")

WALKSIZE = 4 * generic.CHACHA_BLOCK_SIZE
_core = None                  # the arm chacha_neon core, loaded at module init

chacha_neon, xchacha_neon = shared.v5_requests(lambda: _core)
ALGS = shared.neon_algs(WALKSIZE, (chacha_neon, xchacha_neon))


def module_init() -> None:
    global _core
    capi.require_cpu(current_machine().has("neon"), MODULE_NAME, "the CPU lacks NEON")
    _core = backend.load("arm", "chacha_neon")
    if not modules.is_loaded(generic.MODULE_NAME):      # the exported generic helpers' module
        modules.insmod(generic.MODULE_NAME)
    capi.crypto_register_skciphers(ALGS)


def module_exit() -> None:
    capi.crypto_unregister_skciphers(ALGS)
