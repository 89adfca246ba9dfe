"""CPU features for driver selection (the kernel's boot_cpu_has / cpu_has_xfeatures).

``boot_cpu_has("avx2")`` is true when CPUID reports the feature *and* the OS
saves the register state it needs (XGETBV).  Features can be masked to
simulate an older CPU: ``CRYPTO_API_CPU_MASK=avx512vl,avx2`` in the
environment, or ``with masked_features("avx2"): ...`` around a module load.

``prefer_ymm`` is the kernel's synthetic X86_FEATURE_PREFER_YMM
(arch/x86/kernel/cpu/intel.c, 6.14+; a list in aesni-intel_glue.c before):
set on the Intel CPUs known to lower their clock when 512-bit registers are
used, where the 512-bit AES drivers register with priority 1.
``with forced_features("prefer_ymm"): ...`` pretends the CPU has it.
"""

from __future__ import annotations

import contextlib
import os
import platform
from typing import Iterator, Optional, Set, Tuple

_masked: Set[str] = {f.strip().lower() for f in os.environ.get("CRYPTO_API_CPU_MASK", "").split(",") if f.strip()}

IS_X86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")


def _probe(name: str) -> bool:
    if not IS_X86:
        return False
    from crypto_api.arch.x86._cpufeatures import lib
    return bool(lib.cpu_has(name.encode()))


_forced: Set[str] = set()

# Intel family 6 models that downclock with zmm registers: Skylake-X, Ice Lake
# (X, D, client, L, NNPI), Tiger Lake (L, client); later ones are allowed.
ZMM_EXCLUSION_MODELS = frozenset({0x55, 0x6A, 0x6C, 0x7D, 0x7E, 0x9D, 0x8C, 0x8D})


def cpu_identity(cpuinfo: str = "/proc/cpuinfo") -> Optional[Tuple[str, int, int]]:
    """(vendor_id, family, model) of the first CPU listed, or None if unknown."""
    try:
        with open(cpuinfo, encoding="ascii", errors="replace") as f:
            text = f.read(1 << 16)
    except OSError:
        return None
    fields = {}
    for line in text.splitlines():
        if not line.strip():
            break
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    try:
        return fields["vendor_id"], int(fields["cpu family"]), int(fields["model"])
    except (KeyError, ValueError):
        return None


def _prefer_ymm() -> bool:
    ident = cpu_identity() if IS_X86 else None
    return (ident is not None and ident[0] == "GenuineIntel" and ident[1] == 6
            and ident[2] in ZMM_EXCLUSION_MODELS)


def boot_cpu_has(name: str) -> bool:
    """True if the CPU has ``name`` (sse2, ssse3, avx, avx2, avx512vl, avx512bw,
    aes, xsave_ymm, xsave_zmm, ..., prefer_ymm) usable and not masked."""
    name = name.lower()
    if name in _masked:
        return False
    if name in _forced:
        return True
    return _prefer_ymm() if name == "prefer_ymm" else _probe(name)


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


@contextlib.contextmanager
def forced_features(*names: str) -> Iterator[None]:
    """Pretend the CPU has ``names`` inside the block (synthetic features such
    as prefer_ymm; the code behind a forced ISA feature would not run)."""
    added = {n.lower() for n in names} - _forced
    _forced.update(added)
    try:
        yield
    finally:
        _forced.difference_update(added)
