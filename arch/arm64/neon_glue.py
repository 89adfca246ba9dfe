"""Plumbing of the arm64 glue modules of the non-ChaCha drivers.

What the kernel's arm64 glue files get from asm/neon.h, asm/simd.h,
crypto/internal/simd.h and module_cpu_feature_match: the CPU-feature check
at module init, loading an arm64 core through crypto_api.machine.backend
(native on an arm64 host, else the qemu-user helper: the glue never knows
which), "is SIMD usable for this request", and a call inside one
kernel_neon_begin/end section that records the bytes it processed.  The
parts every such machine shares are crypto_api.arch.common.glue's; this
module binds them to arm64.

The descriptors themselves come from the generic drivers' builders
(nhpoly1305_alg, poly1305_alg, aes_cipher_alg) with the request callbacks
swapped for NEON ones by :func:`arm64_variant`, which also drops the
in-process direct paths and the generic code's C entries
(common.glue.request_path_variant).
"""

from __future__ import annotations

from typing import Any

from crypto_api.arch.common.glue import (digest_by_parts, ensure_module, neon_call,
                                         request_path_variant, require_feature, simd_usable)
from crypto_api.machine import backend

ARCH = "arm64"

__all__ = ["ARCH", "arm64_variant", "digest_by_parts", "ensure_module", "load_core",
           "neon_call", "require_feature", "simd_usable"]

#: ``alg`` with NEON callbacks, no in-process direct path and no C entries.
arm64_variant = request_path_variant


def load_core(name: str) -> Any:
    """The functions of the arm64 core ``name`` (CryptoError ENODEV when the
    tools or the CPU feature are missing)."""
    return backend.load(ARCH, name)
