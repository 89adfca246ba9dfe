"""Plumbing of the ppc64le glue modules: the powerpc VSX bracket.

What the kernel's powerpc glue gets from asm/switch_to.h and the
``vsx_begin``/``vsx_end`` helpers of chacha-p10-glue.c: preempt_disable()
+ enable_kernel_vsx() ... disable_kernel_vsx() + preempt_enable(), one
section in the shared FPU trace with unit "vsx" (crypto_api.fpu).  Cores
load through crypto_api.machine.backend (native on a ppc64le host, else the
qemu-user helper).  The arch-neutral parts (feature check at module init,
crypto_simd_usable, module dependencies) are shared with the other machines
(crypto_api.arch.common.glue), reused, not repeated.
"""

from __future__ import annotations

from typing import Any, Callable

import crypto_api as capi
from crypto_api.arch.common.glue import ensure_module, require_feature, section_call, simd_usable
from crypto_api.machine import backend

ARCH = "ppc64le"

__all__ = ["ARCH", "ensure_module", "load_core", "require_feature", "simd_usable", "vsx_call"]


def load_core(name: str) -> Any:
    """The functions of the ppc64le core ``name`` (CryptoError ENODEV when the
    tools or the CPU feature are missing)."""
    return backend.load(ARCH, name)


def vsx_call(fn: Callable[..., Any], *args: Any, nbytes: int = 0) -> Any:
    """``fn(*args)`` inside one VSX section that processed ``nbytes``."""
    return section_call(capi.enable_kernel_vsx, capi.disable_kernel_vsx, fn, *args, nbytes=nbytes)
