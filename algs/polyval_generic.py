"""POLYVAL generic shash (crypto/polyval-generic.c, Linux 6.0 to 6.18).

``polyval-generic`` (priority 100): key 16 bytes (H, exactly), digest and
block size 16.  The hash of RFC 8452 section 3 over the message, a partial
last block zero-padded (the kernel's rule; HCTR2 pads its own input before
hashing).  The streaming state is C (algs/polyval_generic.c) and takes the
block function as an argument, so :func:`polyval_alg` can build a driver
over another block function.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._polyval_generic import ffi, lib
from crypto_api.cinterface import Kind, Offer, PolyvalEntries
from crypto_api.algs.gf128_shash import key_struct
from crypto_api.algs.simd_blocks import block_runner

MODULE_NAME = "polyval_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("polyval", "polyval-generic")

POLYVAL_BLOCK_SIZE = 16
POLYVAL_DIGEST_SIZE = 16
POLYVAL_KEY_SIZE = 16
DESCSIZE = ffi.sizeof("struct polyval_state")
GENERIC_BLOCKS = ffi.addressof(lib, "polyval_blocks_generic")

_from_buffer = ffi.from_buffer


#: Bytes per FPU section of a SIMD driver's update (the x86 glue's 4 KiB,
#: which lets the kernel reschedule between them).
SIMD_CHUNK = 4096


def polyval_alg(driver: str, priority: int, blocks=GENERIC_BLOCKS, simd: bool = False,
                module: str = None) -> capi.ShashAlg:
    """A ``polyval`` shash over the C block function ``blocks``; ``simd``:
    it runs inside FPU sections of at most :data:`SIMD_CHUNK` bytes when the
    FPU model allows, else the generic block function does the work (as the
    kernel's x86 glue falls back)."""

    setkey, exit_tfm = key_struct(ffi, lib, "polyval_key", lib.polyval_setkey, driver, "POLYVAL's key H")
    _run = block_runner(simd, blocks, GENERIC_BLOCKS)

    def state(desc):
        return _from_buffer("struct polyval_state *", desc.state)

    def init(desc):
        lib.polyval_init(state(desc))

    def update(desc, data):
        buf = _from_buffer("uint8_t[]", data)
        st, key, n = state(desc), desc.tfm.ctx.key, len(buf)
        for pos in range(0, n, SIMD_CHUNK):
            piece = min(SIMD_CHUNK, n - pos)
            _run(lambda fn: lib.polyval_update(st, key, buf + pos, piece, fn), piece)

    def final(desc):
        out = ffi.new("uint8_t[16]")
        st, key = state(desc), desc.tfm.ctx.key
        if st.partial:                  # one last block to multiply: a section for it
            _run(lambda fn: lib.polyval_final(st, key, out, fn), POLYVAL_BLOCK_SIZE)
        else:
            lib.polyval_final(st, key, out, GENERIC_BLOCKS)
        return bytes(ffi.buffer(out))

    def c_entries(tfm, use_simd: bool):
        """The POLYVAL offer (crypto_api.cinterface): the block function
        (the generic one where SIMD may not run) and the key."""
        key = getattr(tfm.ctx, "key", None)
        if key is None:
            return None
        return PolyvalEntries(blocks=blocks if use_simd or not simd else GENERIC_BLOCKS, key=key)

    return capi.ShashAlg(
        cra_name="polyval", cra_driver_name=driver, cra_priority=priority, cra_module=module,
        cra_blocksize=POLYVAL_BLOCK_SIZE, digestsize=POLYVAL_DIGEST_SIZE, descsize=DESCSIZE,
        statesize=DESCSIZE, setkey=setkey, init=init, update=update, final=final, exit_tfm=exit_tfm,
        c_entries=(Offer(Kind.POLYVAL, c_entries),))


ALG = polyval_alg("polyval-generic", 100)


def module_init() -> None:
    capi.crypto_register_shash(ALG)


def module_exit() -> None:
    capi.crypto_unregister_shash(ALG)
