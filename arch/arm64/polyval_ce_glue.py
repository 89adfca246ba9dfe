"""polyval-ce: POLYVAL with PMULL (arch/arm64/crypto/polyval-ce-glue.c, 6.0-6.18).

Module ``polyval_ce``, priority 200, aliases ``polyval`` and ``polyval-ce``,
loaded at boot through module_cpu_feature_match(PMULL) (here
``MODULE_CPU_FEATURE``); its init fails with ENODEV (nothing registered) on
a CPU without PMULL.  The descriptor is the generic driver's
(algs/polyval_generic.py: key, state and results), with these request rules
of the kernel's glue:

* update: a buffered partial block that this update completes is one block
  multiply in a NEON section of its own (16 bytes); then the whole blocks go
  in pieces of at most 4 KiB, each in a NEON section (the kernel's
  rescheduling points); a trailing partial block is only buffered (no
  section).  Where SIMD is not usable the generic code does the same work.
* final: a partial last block (zero-padded) is one more multiply in a NEON
  section; none without one.

The core ``polyval_ce`` runs algs/polyval_generic.c's streaming code over the
PMULL block function, on the host's state and key structs (the glue checks
their sizes at init).  setkey is the generic one: the key powers are the
same numbers, computed by the host's C rather than by PMULL inside NEON
sections as the kernel's setkey does.  6.19 made POLYVAL a library; this
project keeps the driver (hctr2 spawns a polyval shash in every version).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import polyval_generic as generic
from crypto_api.algs._polyval_generic import ffi as gffi
from crypto_api.arch.arm64 import neon_glue
from crypto_api.errors import ENODEV, CryptoError

MODULE_ARCH = "arm64"
MODULE_NAME = "polyval_ce"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("polyval", "polyval-ce")
MODULE_CPU_FEATURE = "pmull"              # module_cpu_feature_match(PMULL, ...)
PRIORITY = 200
BLOCK = generic.POLYVAL_BLOCK_SIZE
CHUNK = generic.SIMD_CHUNK                # 4 KiB per NEON section
ALGS = []
_core = None


def _partial(desc) -> int:
    return gffi.from_buffer("struct polyval_state *", desc.state).partial


def make_alg() -> capi.ShashAlg:
    base = generic.polyval_alg("polyval-ce", PRIORITY, module=MODULE_NAME)
    core_update, core_final = _core.polyval_ce_update, _core.polyval_ce_final

    def multiply(desc, data, nbytes: int) -> None:
        neon_glue.neon_call(core_update, desc.state, desc.tfm.ctx.key, data, len(data), nbytes=nbytes)

    def update(desc, data):
        if not neon_glue.simd_usable():
            base.update(desc, data)
            return
        data = memoryview(data).cast("B")
        n, pos, partial = len(data), 0, _partial(desc)
        if partial:
            pos = min(BLOCK - partial, n)
            if partial + pos == BLOCK:
                multiply(desc, data[:pos], BLOCK)
            else:
                base.update(desc, data[:pos])          # buffered only
        end = pos + (n - pos) // BLOCK * BLOCK
        for o in range(pos, end, CHUNK):
            piece = data[o:min(o + CHUNK, end)]
            multiply(desc, piece, len(piece))
        if end < n:
            base.update(desc, data[end:])              # buffered only

    def final(desc):
        if not (_partial(desc) and neon_glue.simd_usable()):
            return base.final(desc)
        out = bytearray(BLOCK)
        neon_glue.neon_call(core_final, desc.state, desc.tfm.ctx.key, out, nbytes=BLOCK)
        return bytes(out)

    return neon_glue.arm64_variant(base, update=update, final=final)


def module_init() -> None:
    global _core
    neon_glue.require_feature("pmull", MODULE_NAME, "PMULL")
    _core = neon_glue.load_core("polyval_ce")
    for what, got, host in (("state", _core.polyval_ce_state_size(), gffi.sizeof("struct polyval_state")),
                            ("key", _core.polyval_ce_key_size(), gffi.sizeof("struct polyval_key"))):
        if got != host:
            raise CryptoError(ENODEV, f"polyval-ce: the arm64 core's {what} struct is {got} bytes, "
                                      f"the host's {host}")
    ALGS[:] = [make_alg()]
    capi.crypto_register_shash(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_shash(ALGS.pop())
