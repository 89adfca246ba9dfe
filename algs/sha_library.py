"""crypto/sha256.c and crypto/sha512.c (6.17+) over a machine's SHA-2 library
(lib/crypto/sha256.c, sha512.c and lib/crypto/<arch>/sha256.h, sha512.h).

From 6.17 the ``sha224``/``sha256``/``sha384``/``sha512`` shashes are thin
``*-lib`` wrappers of the SHA-2 library, and the arch drivers (x86's
sha256_ssse3/sha512_ssse3 modules ...) are gone.  The library compresses in
batches: the block that completes a buffered partial one, then the whole
blocks of an update, then each padding block of the final (one or two); the
machine's library code takes each batch: where its SIMD unit is usable
(x86: ``irq_fpu_usable()``, not the self-test manager's switch) one section
around the batch, else the generic C.  The rule ``sha2.library``
(crypto_api.kernels.core_rules) says which versions do this; the machine's
part is its package's ``sha_library`` module (``sha256()`` / ``sha512()``:
an :class:`ArchShaLibrary`, or None where the CPU has no such code), so
no machine is named here.  A machine with none runs the generic C.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Optional, Tuple

import attrs

import crypto_api as capi
from crypto_api.version_rules import rule

#: crypto_api.version_rules: "driver" (each module registers its own drivers)
#: or "library" (6.17+: the generic module's *-lib wrappers over the library)
RULE = "sha2.library"
LIBRARY = "library"


@attrs.frozen
class ArchShaLibrary:
    """One machine's code for one SHA-2 size: ``blocks`` (a cffi function
    pointer of the core's ``(state, data, nblocks)`` type), the ``usable()``
    test and the unit's ``begin``/``end``; ``name`` says which code it is."""

    name: str
    blocks: Any
    usable: Callable[[], bool]
    begin: Callable[[], None]
    end: Callable[[], None]


def followed() -> bool:
    """True where the followed kernel's sha* shashes wrap the library (6.17+)."""
    return rule(RULE, "driver") == LIBRARY


def arch_library(size: str) -> Optional[ArchShaLibrary]:
    """The current machine's library code for ``size`` ("sha256" or "sha512"),
    or None (the machine has no ``sha_library`` module, or the CPU lacks the code)."""
    from crypto_api.machine.selection import current_machine
    from crypto_api.machine.known import machines
    spec = machines().get(current_machine().arch)
    if spec is None:
        return None
    try:
        mod = importlib.import_module(spec.package + ".sha_library")
    except ModuleNotFoundError as e:
        if e.name != spec.package + ".sha_library":
            raise
        return None
    return getattr(mod, size)()


def library_code(size: str, ffi: Any, fn_type: str, generic: Any, block_size: int) -> Optional[Tuple[Any, Any]]:
    """Where the followed kernel wraps the library and this machine has code for
    ``size``: (its block function, ``runner(work, nbytes)`` giving ``work`` the
    batch function of :func:`library_blocks`); else None (the generic C)."""
    arch = arch_library(size) if followed() else None
    if arch is None:
        return None
    batch = library_blocks(ffi, fn_type, arch, generic, block_size)
    return arch.blocks, lambda work, _nbytes: work(batch)


def library_blocks(ffi: Any, fn_type: str, arch: ArchShaLibrary, generic: Any, block_size: int) -> Any:
    """A block function of type ``fn_type`` for the C core: each batch the
    core hands it runs ``arch.blocks`` in a section of its own where
    ``arch.usable()``, else ``generic`` with no section (keep the returned
    callback alive as long as the core may call it)."""
    arch_blocks, usable, begin, end = arch.blocks, arch.usable, arch.begin, arch.end

    def run(state, data, nblocks):
        if usable():
            begin()
            try:
                arch_blocks(state, data, nblocks)
                capi.fpu_account(nblocks * block_size)
            finally:
                end()
        else:
            generic(state, data, nblocks)

    return ffi.callback(fn_type, run)
