"""SHA-384 and SHA-512 (crypto/sha512_generic.c): the shashes
``sha384-generic`` and ``sha512-generic`` (priority 100, block size 128)
over the portable C core (algs/sha512_generic.c); from 6.17 crypto/sha512.c's
``*-lib`` wrappers of the SHA-2 library, over the machine's library code where
it has some (crypto_api.algs.sha_library).  :func:`sha512_alg` builds the
descriptor for any core's block function (the x86 drivers use it);
:func:`final_nbytes` serves the SIMD drivers' FPU accounting (x86
sha512_ssse3, arm64 sha512_ce).
"""

from __future__ import annotations

from typing import Callable, Optional

import attrs

import crypto_api as capi
from crypto_api.algs import sha_library
from crypto_api.algs._sha512 import ffi, lib
from crypto_api.algs.md_shash import md_shash_alg
from crypto_api.direct import digest_direct

MODULE_NAME = "sha512_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("sha384", "sha384-generic", "sha512", "sha512-generic")

SHA512_BLOCK_SIZE = 128
SHA512_DIGEST_SIZE = 64
SHA384_DIGEST_SIZE = 48
GENERIC_BLOCKS = ffi.addressof(lib, "sha512_blocks_generic_fn")
DIGEST_CALL = ffi.addressof(lib, "sha512_digest_call")


def final_nbytes(state, more: int = 0) -> int:
    """The bytes the final padding compresses once ``more`` bytes are added
    to the ``struct sha512_state`` ``state``: one block, or two when fewer
    than 17 bytes are left in the last one (the 0x80 and the 16-byte length)."""
    partial = (state.count[0] + more) % SHA512_BLOCK_SIZE
    return SHA512_BLOCK_SIZE * (2 if partial >= SHA512_BLOCK_SIZE - 16 else 1)


def sha512_alg(name: str, driver: str, priority: int, blocks, runner: Callable[[Callable, int], None],
               module: Optional[str] = None) -> capi.ShashAlg:
    """A ``sha384``/``sha512`` shash over the block function ``blocks`` (a
    cffi pointer of the ``sha512_blocks_fn`` type) with the FPU rule
    ``runner(work, nbytes)``: ``work(fn)`` compresses with the block function
    ``fn`` the rule chose (crypto_api.algs.simd_blocks' for the 5.x x86
    drivers, crypto_api.algs.sha_library's for the 6.17+ library).  An update
    that completes no block is the generic code with no section; ``tfm.digest``
    of a contiguous buffer is one C call (sha512_digest_call)."""
    digestsize = SHA512_DIGEST_SIZE if name == "sha512" else SHA384_DIGEST_SIZE
    init = lib.sha512_init if name == "sha512" else lib.sha384_init
    base = md_shash_alg(name=name, driver=driver, priority=priority, ffi=ffi,
                        state_type="struct sha512_state", blocksize=SHA512_BLOCK_SIZE, digestsize=digestsize,
                        init=init, update=lib.sha512_update,
                        final=lambda st, out: lib.sha512_final(st, out, digestsize), module=module)
    from_buffer = ffi.from_buffer

    def state(desc):
        return from_buffer("struct sha512_state *", desc.state)

    def update(desc, data):
        st = state(desc)
        buf = from_buffer("uint8_t[]", data)
        n = len(buf)
        if st.count[0] % SHA512_BLOCK_SIZE + n < SHA512_BLOCK_SIZE:   # no block to compress: no section
            lib.sha512_update(st, buf, n)
            return
        runner(lambda fn: lib.sha512_update_blocks(st, buf, n, fn), n)

    def finup(desc, data):
        st = state(desc)
        buf = from_buffer("uint8_t[]", data)
        n = len(buf)
        out = ffi.new("uint8_t[]", digestsize)

        def work(fn):
            if n:
                lib.sha512_update_blocks(st, buf, n, fn)
            lib.sha512_final_blocks(st, out, digestsize, fn)     # wipes the state
        runner(work, n + final_nbytes(st, n))
        return bytes(ffi.buffer(out))

    def final(desc):
        return finup(desc, b"")

    handles = [ffi.new("struct sha512_call *", {"blocks": fn, "digest_size": digestsize})
               for fn in (GENERIC_BLOCKS, blocks)]

    def direct(tfm):
        """tfm.digest in one C call (crypto_api.direct.digest_direct): ``blocks``
        where the FPU model allows SIMD, else the generic block function; it
        declines while an fpu_trace() records, so that the full path makes the
        real sections."""
        return digest_direct(DIGEST_CALL, handles[0], handles[1], digestsize, keep=(blocks,))

    return attrs.evolve(base, update=update, final=final, finup=finup, direct=direct)


def _generic_alg(name: str, init, digestsize: int) -> capi.ShashAlg:
    return md_shash_alg(name=name, driver=name + "-generic", priority=100, ffi=ffi,
                        state_type="struct sha512_state", blocksize=SHA512_BLOCK_SIZE,
                        digestsize=digestsize, init=init, update=lib.sha512_update,
                        final=lambda st, out: lib.sha512_final(st, out, digestsize))


ALGS: list = []


def _algs() -> list:
    """sha512-generic and sha384-generic (6.17+: the *-lib wrappers) over the
    generic C, or, where the followed kernel wraps the SHA-2 library and this
    machine has library code for it, over that code, a section per batch."""
    code = sha_library.library_code("sha512", ffi, "sha512_blocks_fn", GENERIC_BLOCKS, SHA512_BLOCK_SIZE)
    if code is None:
        return [_generic_alg("sha512", lib.sha512_init, SHA512_DIGEST_SIZE),
                _generic_alg("sha384", lib.sha384_init, SHA384_DIGEST_SIZE)]
    return [sha512_alg(n, f"{n}-generic", 100, code[0], code[1]) for n in ("sha512", "sha384")]


def module_init() -> None:
    ALGS[:] = _algs()
    for a in ALGS:
        capi.crypto_register_shash(a)


def module_exit() -> None:
    for a in reversed(ALGS):
        capi.crypto_unregister_shash(a)
    ALGS.clear()
