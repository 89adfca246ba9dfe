"""The shash descriptor of a plain Merkle-Damgard hash over a C core (SHA-1,
SHA-384, SHA-512): init, update and final map the descriptor's state onto the
core's struct.  The role of include/crypto/sha1_base.h and sha512_base.h
(the glue every kernel SHA driver shares); no SIMD paths.
"""

from __future__ import annotations

from typing import Callable, Optional

import crypto_api as capi


def md_shash_alg(*, name: str, driver: str, priority: int, ffi, state_type: str, blocksize: int,
                 digestsize: int, init: Callable, update: Callable, final: Callable,
                 module: Optional[str] = None) -> capi.ShashAlg:
    """A shash whose descriptor state is the C ``state_type``; ``init(st)``,
    ``update(st, buf, len)`` and ``final(st, out)`` are the core's (final
    writes ``digestsize`` bytes and wipes the state)."""
    descsize = ffi.sizeof(state_type)
    ptr_type = state_type + " *"
    from_buffer = ffi.from_buffer

    def _init(desc):
        init(from_buffer(ptr_type, desc.state))

    def _update(desc, data):
        buf = from_buffer("uint8_t[]", data)
        update(from_buffer(ptr_type, desc.state), buf, len(buf))

    def _final(desc):
        out = ffi.new("uint8_t[]", digestsize)
        final(from_buffer(ptr_type, desc.state), out)
        return bytes(ffi.buffer(out))

    return capi.ShashAlg(
        cra_name=name, cra_driver_name=driver, cra_priority=priority, cra_module=module,
        cra_blocksize=blocksize, digestsize=digestsize, descsize=descsize, statesize=descsize,
        init=_init, update=_update, final=_final)
