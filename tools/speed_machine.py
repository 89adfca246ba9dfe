"""What a speed run records about the machine and its clock.

Python cannot read a cycle counter (no rdtsc), so the speed tool times with
``time.perf_counter_ns`` and converts nanoseconds to cycles with a CPU
frequency it states: ``--cpu-mhz N`` or, by default (``auto``), the largest
"cpu MHz" of /proc/cpuinfo (the nominal clock on most virtual machines),
then cpufreq's ``cpuinfo_max_freq``.  libgcrypt's bench-slope and the
Adiantum authors' cipherbench convert the same way when no counter is used.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from typing import Dict, List, Optional, Tuple

from crypto_api.errors import EINVAL, CryptoError

#: CPU flags that decide which SIMD drivers can register.
RELEVANT_FLAGS = ("sse2", "ssse3", "sse4_1", "avx", "avx2", "avx512f", "avx512vl", "avx512bw",
                  "aes", "vaes", "pclmulqdq", "bmi2", "adx")

CPUINFO = "/proc/cpuinfo"
CPUFREQ_MAX = "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"


def _read(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def cpuinfo(text: Optional[str] = None) -> Dict[str, object]:
    """Model, relevant flags and the largest "cpu MHz" from /proc/cpuinfo text."""
    if text is None:
        text = _read(CPUINFO) or ""
    model = None
    flags: List[str] = []
    mhz: List[float] = []
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        value = value.strip()
        if key == "model name" and model is None:
            model = value
        elif key == "flags" and not flags:
            flags = value.split()
        elif key == "cpu MHz":
            try:
                mhz.append(float(value))
            except ValueError:
                pass
    return {"model": model or platform.processor() or platform.machine(),
            "flags": [f for f in RELEVANT_FLAGS if f in flags],
            "mhz": max(mhz) if mhz else None}


def cpu_mhz(spec: str = "auto", cpuinfo_text: Optional[str] = None) -> Tuple[Optional[float], str]:
    """(MHz, where it came from) for ``--cpu-mhz``: a number, ``auto`` or ``none``."""
    spec = str(spec).strip().lower()
    if spec == "none":
        return None, "none (no cycles are shown)"
    if spec != "auto":
        try:
            value = float(spec)
        except ValueError:
            raise CryptoError(EINVAL, f"--cpu-mhz: {spec!r} is not a number, 'auto' or 'none'") from None
        if not 1 <= value <= 100000:
            raise CryptoError(EINVAL, f"--cpu-mhz: {value:g} MHz is out of range (1..100000)")
        return value, "--cpu-mhz (given)"
    mhz = cpuinfo(cpuinfo_text)["mhz"]
    if mhz:
        return mhz, '"cpu MHz" of /proc/cpuinfo (nominal)'
    khz = _read(CPUFREQ_MAX)
    if khz and khz.strip().isdigit():
        return int(khz) / 1000, "cpufreq cpuinfo_max_freq"
    return None, "unknown (pass --cpu-mhz N for cycles)"


def clock_info(mhz: Optional[float], source: str) -> Dict[str, object]:
    """The clock record of a run: timer, its resolution and the cycle conversion."""
    info = time.get_clock_info("perf_counter")
    return {
        "timer": "time.perf_counter_ns",
        "implementation": info.implementation,
        "resolution_ns": info.resolution * 1e9,
        "monotonic": info.monotonic,
        "cpu_mhz": mhz,
        "mhz_source": source,
        "cycles": ("none" if mhz is None else
                   f"ns x {mhz:g} MHz / 1000 (no cycle counter is read; turbo or "
                   "throttling make real cycles differ)"),
    }


def dist_version(dist: str) -> Optional[str]:
    """The installed version of distribution ``dist``, or None."""
    try:
        from importlib import metadata
        return metadata.version(dist)
    except Exception:
        return None


def machine_info() -> Dict[str, object]:
    """CPU model and flags, CPU count, Python and library versions."""
    ci = cpuinfo()
    return {
        "cpu_model": ci["model"],
        "cpu_flags": ci["flags"],
        "cpu_count": os.cpu_count(),
        "os": f"{platform.system()} {platform.release()}",
        "machine": platform.machine(),
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "crypto_api": dist_version("crypto_api"),
        "cryptography": dist_version("cryptography"),
        "pycryptodome": dist_version("pycryptodome"),
    }


def loadavg() -> Optional[float]:
    """The 1-minute load average (/proc/loadavg), or None."""
    text = _read("/proc/loadavg")
    try:
        return float(text.split()[0]) if text else None
    except ValueError:
        return None


def load_line(load: Dict[str, Optional[float]], cpus: Optional[int]) -> Optional[str]:
    """How busy the machine was: other work slows samples even when it does not deschedule them."""
    if not load or load.get("start") is None:
        return None
    end = load.get("end")
    return (f"load: 1-minute load average {load['start']:.2f} at the start"
            + (f", {end:.2f} at the end" if end is not None else "")
            + f", on {cpus} CPUs (this run counts for about 1)")


def clock_line(clock: Dict[str, object]) -> str:
    """One sentence stating the clock source and the cycle conversion."""
    res = clock["resolution_ns"]
    line = f"clock: time.perf_counter_ns ({clock['implementation']}, resolution {res:g} ns)"
    if clock["cpu_mhz"] is None:
        return line + f"; cycles not shown: CPU frequency {clock['mhz_source']}"
    return (line + f"; cycles = ns x {clock['cpu_mhz']:g} MHz / 1000, the MHz from "
            f"{clock['mhz_source']}: no cycle counter is read")


def machine_line(m: Dict[str, object]) -> str:
    flags = " ".join(m["cpu_flags"]) or "none of " + "/".join(RELEVANT_FLAGS[:5])
    return (f"cpu: {m['cpu_model']}, {m['cpu_count']} CPUs, flags: {flags}; "
            f"{m['python_implementation']} {m['python']}")

