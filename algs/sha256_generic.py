"""SHA-224 and SHA-256 (crypto/sha256_generic.c): the shashes
``sha224-generic`` and ``sha256-generic`` (priority 100, block size 64) over
the portable C core (algs/sha256_generic.c); from 6.17 crypto/sha256.c's
``*-lib`` wrappers of the SHA-2 library, over the machine's library code where
it has some (crypto_api.algs.sha_library).  :func:`sha256_alg` builds the
descriptor for any core's block function; the x86 drivers use it too.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import sha_library
from crypto_api.algs._sha256 import ffi, lib
from crypto_api.algs.simd_blocks import block_runner
from crypto_api.direct import digest_direct

MODULE_NAME = "sha256_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("sha224", "sha224-generic", "sha256", "sha256-generic")

SHA256_BLOCK_SIZE = 64
SHA256_DIGEST_SIZE = 32
SHA224_DIGEST_SIZE = 28
DESCSIZE = ffi.sizeof("struct sha256_state")
GENERIC_BLOCKS = ffi.addressof(lib, "sha256_blocks_generic")
DIGEST_CALL = ffi.addressof(lib, "sha256_digest_call")

_from_buffer = ffi.from_buffer


def sha256_alg(name: str, driver: str, priority: int, blocks, simd: bool = False,
               module: str = None, runner=None) -> capi.ShashAlg:
    """A ``sha224``/``sha256`` shash over the block function ``blocks``;
    ``simd``: it runs inside an FPU section when the FPU model allows, else
    the generic block function does the work (as the x86 glue falls back).
    ``runner(work, nbytes)`` replaces that rule where given (the library's:
    crypto_api.algs.sha_library)."""
    digestsize = SHA256_DIGEST_SIZE if name == "sha256" else SHA224_DIGEST_SIZE
    init_fn = lib.sha256_init if name == "sha256" else lib.sha224_init

    def state(desc):
        return _from_buffer("struct sha256_state *", desc.state)

    _section = runner or block_runner(simd, blocks, GENERIC_BLOCKS)

    def init(desc):
        init_fn(state(desc))

    def update(desc, data):
        buf = _from_buffer("uint8_t[]", data)
        st = state(desc)
        n = len(buf)
        if st.count % SHA256_BLOCK_SIZE + n < SHA256_BLOCK_SIZE:   # no block to compress: no section
            lib.sha256_update(st, buf, n, GENERIC_BLOCKS)
            return
        _section(lambda fn: lib.sha256_update(st, buf, n, fn), n)

    def final(desc):
        out = ffi.new("uint8_t[32]")
        st = state(desc)
        _section(lambda fn: lib.sha256_final(st, out, digestsize, fn), SHA256_BLOCK_SIZE)
        return bytes(ffi.buffer(out, digestsize))

    def call_handle(fn_blocks):
        return ffi.new("struct sha256_call *", {"blocks": fn_blocks, "digest_size": digestsize})

    generic_handle = call_handle(GENERIC_BLOCKS)
    simd_handle = call_handle(blocks) if simd else generic_handle

    def direct(tfm):
        """tfm.digest of any C-contiguous buffer in one C call, with the
        request path's rule: the SIMD block function when the FPU model
        allows, else the generic one; it declines while an fpu_trace()
        records (the full path then makes the real sections).  The C entry
        point (crypto_api.direct.digest_direct); None where it is not built."""
        return digest_direct(DIGEST_CALL, generic_handle, simd_handle, digestsize)

    return capi.ShashAlg(
        cra_name=name, cra_driver_name=driver, cra_priority=priority, cra_module=module,
        cra_blocksize=SHA256_BLOCK_SIZE, digestsize=digestsize, descsize=DESCSIZE,
        statesize=DESCSIZE, init=init, update=update, final=final, direct=direct)


ALGS: list = []


def _algs() -> list:
    """sha224-generic and sha256-generic (6.17+: the *-lib wrappers) over the
    generic C, or, where the followed kernel wraps the SHA-2 library and this
    machine has library code for it, over that code, a section per batch."""
    code = sha_library.library_code("sha256", ffi, "sha256_blocks_fn", GENERIC_BLOCKS, SHA256_BLOCK_SIZE)
    if code is None:
        return [sha256_alg(n, f"{n}-generic", 100, GENERIC_BLOCKS) for n in ("sha224", "sha256")]
    return [sha256_alg(n, f"{n}-generic", 100, code[0], simd=True, runner=code[1]) for n in ("sha224", "sha256")]


def module_init() -> None:
    ALGS[:] = _algs()
    for a in ALGS:
        capi.crypto_register_shash(a)


def module_exit() -> None:
    for a in reversed(ALGS):
        capi.crypto_unregister_shash(a)
    ALGS.clear()
