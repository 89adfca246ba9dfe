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

From 6.16 the module registers crypto/chacha.c's drivers over the arm ChaCha
library (``*-arm`` 300 in 6.16-6.17, ``*-lib`` from 6.18, registered on
every CPU, walksize 64): per walk step, 64 bytes or less or NEON not usable
run the kernel's scalar arm code (here the generic C: this project has no
scalar arm core), a longer step NEON pieces of at most 4 KiB, each its own
kernel_neon_begin/end, HChaCha NEON in a section of its own
(crypto_api.algs.chacha_library).  The library's Cortex-A5/A7 rule (scalar
code only) is not modelled, as the 5.5-6.15 priority 0 is not.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import chacha_generic as generic
from crypto_api.arch.common.chacha_neon import NeonChachaModule

MODULE_ARCH = "arm"
MODULE_NAME = "chacha_neon"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "chacha20", "chacha20-neon", "xchacha20", "xchacha20-neon", "xchacha12", "xchacha12-neon")

WALKSIZE = 4 * generic.CHACHA_BLOCK_SIZE
_module = NeonChachaModule(MODULE_ARCH, MODULE_NAME, "neon", WALKSIZE)
ALGS = _module.algs
module_init = _module.init
module_exit = _module.exit
