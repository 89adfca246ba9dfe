"""GHASH (crypto/ghash-generic.c): the shash ``ghash-generic`` (priority
100, block size 16, digest 16) over the portable C core
(algs/ghash_generic.c).  The key is the 16-byte hash subkey H; the digest is
the accumulator after the data, zero-padded to whole blocks, has been
absorbed (no length block: the GCM template feeds that itself).
:func:`ghash_alg` builds the descriptor for any block function over the same
key and state; the x86 PCLMULQDQ driver uses it too.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._ghash_generic import ffi, lib
from crypto_api.algs.gf128_shash import key_struct
from crypto_api.algs.simd_blocks import block_runner

MODULE_NAME = "ghash_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("ghash", "ghash-generic")

GHASH_BLOCK_SIZE = 16
GHASH_DIGEST_SIZE = 16
DESCSIZE = ffi.sizeof("struct ghash_desc_ctx")
GENERIC_BLOCKS = ffi.addressof(lib, "ghash_blocks_generic")

_from_buffer = ffi.from_buffer


def layout() -> int:
    """sizeof(struct ghash_desc_ctx) << 8 | sizeof(struct ghash_key) on the host:
    what an emulated GHASH core built over the same structs must report."""
    return (DESCSIZE << 8) | ffi.sizeof("struct ghash_key")


def ghash_alg(driver: str, priority: int, blocks=GENERIC_BLOCKS, simd: bool = False,
              module: str = None) -> capi.ShashAlg:
    """A ``ghash`` shash over the block function ``blocks``; ``simd``: it runs
    inside an FPU section when the FPU model allows, else the generic block
    function does the work."""

    setkey, exit_tfm = key_struct(ffi, lib, "ghash_key", lib.ghash_setkey, driver, "the hash subkey H")
    _section = block_runner(simd, blocks, GENERIC_BLOCKS)

    def state(desc):
        return _from_buffer("struct ghash_desc_ctx *", desc.state)

    def init(desc):
        lib.ghash_init(state(desc))

    def update(desc, data):
        buf = _from_buffer("uint8_t[]", data)
        st, key = state(desc), desc.tfm.ctx.key
        _section(lambda fn: lib.ghash_update(st, key, buf, len(buf), fn), len(buf))

    def final(desc):
        out = ffi.new("uint8_t[16]")
        st, key = state(desc), desc.tfm.ctx.key
        if st.pending:              # a partial block to multiply in: an FPU section
            _section(lambda fn: lib.ghash_final(st, key, out, fn), GHASH_BLOCK_SIZE)
        else:                       # nothing to compute, no section (as the kernel's flush)
            lib.ghash_final(st, key, out, GENERIC_BLOCKS)
        return bytes(ffi.buffer(out))

    return capi.ShashAlg(
        cra_name="ghash", cra_driver_name=driver, cra_priority=priority, cra_module=module,
        cra_blocksize=GHASH_BLOCK_SIZE, digestsize=GHASH_DIGEST_SIZE, descsize=DESCSIZE,
        statesize=DESCSIZE, setkey=setkey, exit_tfm=exit_tfm, init=init, update=update,
        final=final)


ALG = ghash_alg("ghash-generic", 100)


def module_init() -> None:
    capi.crypto_register_shash(ALG)


def module_exit() -> None:
    capi.crypto_unregister_shash(ALG)
