"""Plumbing shared by the glue modules whose cores load through crypto_api.machine.backend.

What a kernel glue file gets from asm/simd.h, crypto/internal/simd.h and
module_cpu_feature_match, for any machine: the CPU-feature check at module
init, loading a core (native on a host of its arch, else the qemu-user
helper: the glue never knows which), "is SIMD usable for this request", a
call inside one SIMD section that records the bytes it processed (NEON's
:func:`neon_call`, shared by arm and arm64), and a generic driver's
descriptor with the request callbacks swapped for the arch's ones
(:func:`request_path_variant`).  That last also drops what only in-process C
code can use (the ``direct`` hook's direct paths, and the C entries offered to
templates such as Adiantum, crypto_api.cinterface): an emulated core is
reachable only through its request callbacks.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

import crypto_api as capi
from crypto_api import modules
from crypto_api.fpu import GENERIC
from crypto_api.machine import backend, current_machine


def require_feature(feature: str, module: str, what: str) -> None:
    """module_cpu_feature_match / the HWCAP test of a v5.0 module_init:
    ENODEV (nothing registered) unless the machine's CPU has ``feature``."""
    capi.require_cpu(current_machine().has(feature), module,
                     f"the {current_machine().arch} CPU {current_machine().cpu!r} lacks {what}")


def load_core(arch: str, name: str) -> Any:
    """The functions of core ``name`` of machine ``arch`` (CryptoError ENODEV when the
    tools or the CPU feature are missing)."""
    return backend.load(arch, name)


def ensure_module(name: str) -> None:
    """Load a module this one depends on (its exported symbols), as modprobe does."""
    if not modules.is_loaded(name):
        modules.insmod(name)


def simd_usable() -> bool:
    """crypto_simd_usable(): may_use_simd() and not the testmgr's nosimd."""
    return capi.simd_choice() != GENERIC


def section_call(begin: Callable[[], None], end: Callable[[], None], fn: Callable[..., Any],
                 *args: Any, nbytes: int = 0) -> Any:
    """``fn(*args)`` inside one ``begin``..``end`` SIMD section that processed ``nbytes``."""
    begin()
    try:
        ret = fn(*args)
        capi.fpu_account(nbytes)
    finally:
        end()
    return ret


def neon_call(fn: Callable[..., Any], *args: Any, nbytes: int = 0) -> Any:
    """``fn(*args)`` inside one kernel_neon_begin/end section of ``nbytes`` (arm, arm64)."""
    return section_call(capi.kernel_neon_begin, capi.kernel_neon_end, fn, *args, nbytes=nbytes)


def digest_by_parts(base: Any, update: Callable[[Any, Any], None]) -> Callable[[Any, Any], bytes]:
    """A shash digest as init + ``update`` + final (the generic init/final),
    so a one-shot digest opens the same SIMD sections as an update."""

    def digest(desc: Any, data: Any) -> bytes:
        base.init(desc)
        update(desc, data)
        return base.final(desc)
    return digest


def request_path_variant(alg: Any, **callbacks: Any) -> Any:
    """``alg`` (a generic driver's descriptor) with the arch's callbacks, no
    in-process direct path and no C entries offered to templates (those of
    ``alg`` would run the generic code, not the arch's)."""
    return attrs.evolve(alg, direct=None, c_entries=(), **callbacks)
