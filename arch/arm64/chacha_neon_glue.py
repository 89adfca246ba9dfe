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

From 6.16 the module registers crypto/chacha.c's drivers over the arm64
ChaCha library instead (``*-arm64`` in 6.16-6.17 where the CPU has ASIMD,
``*-lib`` from 6.18 on every CPU; walksize 64): per walk step, 64 bytes or
less or no SIMD run the generic code, a longer step NEON pieces of at most
4 KiB, each its own kernel_neon_begin/end (chacha_doneon with 5.6+'s block
count), and XChaCha's HChaCha NEON in a section of its own
(crypto_api.algs.chacha_library).

The module is the one the arm machine's glue declares too
(crypto_api.arch.common.chacha_neon).  The core runs wherever
crypto_api.machine.backend puts it (natively on an arm64 host, else under
qemu-user); this glue does not know which.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import chacha_generic as generic
from crypto_api.arch.common.chacha_neon import NeonChachaModule

MODULE_ARCH = "arm64"
MODULE_NAME = "chacha_neon"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "chacha20", "chacha20-neon", "xchacha20", "xchacha20-neon", "xchacha12", "xchacha12-neon")

WALKSIZE = 5 * generic.CHACHA_BLOCK_SIZE
_module = NeonChachaModule(MODULE_ARCH, MODULE_NAME, "asimd", WALKSIZE)
ALGS = _module.algs
module_init = _module.init
module_exit = _module.exit
