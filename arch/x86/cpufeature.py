"""CPU features for driver selection (the kernel's boot_cpu_has / cpu_has_xfeatures).

``boot_cpu_has("avx2")`` is true when CPUID reports the feature *and* the OS
saves the register state it needs (XGETBV).  Features can be masked to
simulate an older CPU: ``CRYPTO_API_CPU_MASK=avx512vl,avx2`` in the
environment, or ``with masked_features("avx2"): ...`` around a module load.
"""

from __future__ import annotations

import contextlib
import os
import platform
from typing import Iterator, Set

_masked: Set[str] = {f.strip().lower() for f in os.environ.get("CRYPTO_API_CPU_MASK", "").split(",") if f.strip()}

IS_X86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")


def _probe(name: str) -> bool:
    if not IS_X86:
        return False
    from crypto_api.arch.x86._cpufeatures import lib
    return bool(lib.cpu_has(name.encode()))


def boot_cpu_has(name: str) -> bool:
    """True if the CPU has ``name`` (sse2, ssse3, avx, avx2, avx512vl, avx512bw,
    aes, xsave_ymm, xsave_zmm, ...) usable and not masked."""
    name = name.lower()
    return name not in _masked and _probe(name)


def masked() -> Set[str]:
    return set(_masked)


@contextlib.contextmanager
def masked_features(*names: str) -> Iterator[None]:
    """Pretend the CPU lacks ``names`` inside the block (module init reads it)."""
    added = {n.lower() for n in names} - _masked
    _masked.update(added)
    try:
        yield
    finally:
        _masked.difference_update(added)
