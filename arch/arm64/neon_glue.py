"""Plumbing shared by the arm64 glue modules of the non-ChaCha drivers.

What the kernel's arm64 glue files get from asm/neon.h, asm/simd.h,
crypto/internal/simd.h and module_cpu_feature_match: the CPU-feature check
at module init, loading a core through crypto_api.machine.backend (native
on an arm64 host, else the qemu-user helper: the glue never knows which),
"is SIMD usable for this request", and a call inside one
kernel_neon_begin/end section that records the bytes it processed.

The descriptors themselves come from the generic drivers' builders
(nhpoly1305_alg, poly1305_alg, aes_cipher_alg) with the request callbacks
swapped for NEON ones by :func:`arm64_variant`.  That also drops what only
in-process C code can use (the ``oneshot`` fast paths, and the C entry
points that fused templates such as Adiantum call directly): an emulated
core is reachable only through its request callbacks.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

import crypto_api as capi
from crypto_api import modules
from crypto_api.fpu import GENERIC
from crypto_api.machine import backend, current_machine

ARCH = "arm64"


def require_feature(feature: str, module: str, what: str) -> None:
    """module_cpu_feature_match / the HWCAP test of a v5.0 module_init:
    ENODEV (nothing registered) unless the machine's CPU has ``feature``."""
    capi.require_cpu(current_machine().has(feature), module,
                     f"the {current_machine().arch} CPU {current_machine().cpu!r} lacks {what}")


def load_core(name: str) -> Any:
    """The functions of the arm64 core ``name`` (CryptoError ENODEV when the
    tools or the CPU feature are missing)."""
    return backend.load(ARCH, name)


def ensure_module(name: str) -> None:
    """Load a module this one depends on (its exported symbols), as modprobe does."""
    if not modules.is_loaded(name):
        modules.insmod(name)


def simd_usable() -> bool:
    """crypto_simd_usable(): may_use_simd() and not the testmgr's nosimd."""
    return capi.simd_choice() != GENERIC


def neon_call(fn: Callable[..., Any], *args: Any, nbytes: int = 0) -> Any:
    """``fn(*args)`` inside one kernel_neon_begin/end section of ``nbytes``."""
    capi.kernel_neon_begin()
    try:
        ret = fn(*args)
        capi.fpu_account(nbytes)
    finally:
        capi.kernel_neon_end()
    return ret


def digest_by_parts(base: Any, update: Callable[[Any, Any], None]) -> Callable[[Any, Any], bytes]:
    """A shash digest as init + ``update`` + final (the generic init/final),
    so a one-shot digest opens the same NEON sections as an update."""

    def digest(desc: Any, data: Any) -> bytes:
        base.init(desc)
        update(desc, data)
        return base.final(desc)
    return digest


def drop_c_entry(ctx: Any, name: str) -> None:
    """Remove a C entry point a generic setkey left for fused templates."""
    if hasattr(ctx, name):
        delattr(ctx, name)


def arm64_variant(alg: Any, **callbacks: Any) -> Any:
    """``alg`` (a generic driver's descriptor) with NEON callbacks and no
    in-process fast path."""
    return attrs.evolve(alg, oneshot=None, **callbacks)
