"""ChaCha20/XChaCha20/XChaCha12 NEON skciphers (arch/arm64/crypto/chacha-neon-glue.c, v5.0).

Module ``chacha_neon`` registers ``chacha20-neon``, ``xchacha20-neon`` and
``xchacha12-neon`` (priority 300, walksize 320 = five blocks) when the CPU
has ASIMD (else ENODEV: nothing registered).  As v5.0's module calls the
exported generic helpers, loading it loads ``chacha_generic`` too, which
registers the three ``*-generic`` drivers.

v5.0 request rules: a request of 64 bytes or less, or one
made while SIMD is not usable (may_use_simd() false, or the self-test
manager's nosimd), runs the generic code on the whole request with this
tfm, so its walk strides 320 bytes.  Otherwise the walk is not atomic and
each step runs in a NEON section of its own (kernel_neon_begin/end): no
4 KiB budget, a step is at most a page or a 320-byte bounce step; non-final
steps are rounded down to 320.  Inside a step the core's chacha_doneon loop
runs the 5-block routine per 320 bytes and the 1-block routine for a last
piece of 64 bytes or less (arch/arm64/chacha_neon.c).  XChaCha derives its
subkey with the NEON HChaCha in a section of its own, before the walk.

The request path is the one the arm machine's module shares
(crypto_api.arch.common.chacha_neon).  The core runs wherever
crypto_api.machine.backend puts it (natively on an arm64 host, else under
qemu-user); this glue does not know which.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api import modules
from crypto_api.algs import chacha_generic as generic
from crypto_api.arch.common.chacha_neon import neon_algs, v5_requests
from crypto_api.machine import backend, current_machine

MODULE_ARCH = "arm64"
MODULE_NAME = "chacha_neon"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "chacha20", "chacha20-neon", "xchacha20", "xchacha20-neon", "xchacha12", "xchacha12-neon")

WALKSIZE = 5 * generic.CHACHA_BLOCK_SIZE
_core = None                  # the chacha_neon core, loaded at module init

chacha_neon, xchacha_neon = v5_requests(lambda: _core)
ALGS = neon_algs(WALKSIZE, (chacha_neon, xchacha_neon))


def module_init() -> None:
    global _core
    capi.require_cpu(current_machine().has("asimd"), MODULE_NAME, "the CPU lacks ASIMD")
    _core = backend.load("arm64", "chacha_neon")
    if not modules.is_loaded(generic.MODULE_NAME):      # the exported generic helpers' module
        modules.insmod(generic.MODULE_NAME)
    capi.crypto_register_skciphers(ALGS)


def module_exit() -> None:
    capi.crypto_unregister_skciphers(ALGS)
