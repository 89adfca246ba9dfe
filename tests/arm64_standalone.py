"""Build and run the standalone arm64 core test programs (tests only).

Each program is one arm64 core plus a small test main (tests/arch/arm64/cores/
*_main.c over harness.h), linked ``-static`` with aarch64-linux-gnu-gcc and run
under ``qemu-aarch64 -cpu MODEL``: requests go in as lines of hex, answers
come back the same way.  This checks the C cores on their own, before and
apart from the machine backend that the drivers use.

Without qemu-aarch64 or the cross compiler the tests skip, naming the Debian
packages to install, unless CRYPTO_API_REQUIRE_EMULATION=1, which makes the
absence a failure (CI installs them): arm64_emulation.require_emulation.
"""

from __future__ import annotations

import hashlib
import pathlib
import subprocess
from typing import Iterable, List, Sequence

from arm64_emulation import require_emulation

ROOT = pathlib.Path(__file__).resolve().parents[1]
ARM64 = ROOT / "arch" / "arm64"
COMMON = ROOT / "arch" / "common"          # the C the arm machine builds too (nh_neon.c, aes_arm64.c, ...)
MAINS = ROOT / "tests" / "arch" / "arm64" / "cores"
INCLUDES = (ARM64, COMMON, ROOT / "algs", ROOT / "algs" / "include", MAINS)


def _source(name: str) -> pathlib.Path:
    """An arm64 core's source: in arch/arm64, else in arch/common (a path relative to arch/arm64)."""
    own = ARM64 / name
    return own if own.exists() or not (COMMON / name).exists() else COMMON / name
CPU_MODELS = ("max", "cortex-a53")


def build(out_dir: pathlib.Path, main: str, sources: Sequence[str], cflags: Sequence[str] = ()) -> pathlib.Path:
    """Compile ``main`` (in tests/arch/arm64/cores) with ``sources`` (relative
    to arch/arm64, or files of arch/common) into a static aarch64 program; cached by content."""
    require_emulation()
    files = [MAINS / main] + [_source(s).resolve() for s in sources]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.read_bytes())
    digest.update(" ".join(cflags).encode())
    exe = out_dir / f"{pathlib.Path(main).stem}-{digest.hexdigest()[:16]}"
    if not exe.exists():
        cmd = ["aarch64-linux-gnu-gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror",
               *cflags, *[f"-I{d}" for d in INCLUDES], "-o", str(exe), *map(str, files)]
        res = subprocess.run(cmd, capture_output=True, text=True)
        assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stderr}"
    return exe


def hexarg(b: bytes) -> str:
    return b.hex() if b else "-"


def run(exe: pathlib.Path, cpu: str, requests: Iterable[Sequence]) -> List[bytes]:
    """Answer each request (op, *byte-args) with the program under qemu -cpu ``cpu``."""
    lines = [" ".join([req[0], *(hexarg(bytes(a)) for a in req[1:])]) for req in requests]
    res = subprocess.run(["qemu-aarch64", "-cpu", cpu, str(exe)], input="\n".join(lines) + "\n",
                         capture_output=True, text=True)
    assert res.returncode == 0, f"{exe.name} under -cpu {cpu} exited {res.returncode}: {res.stderr}"
    out = res.stdout.split("\n")[:-1]
    assert len(out) == len(lines), res.stdout[-500:]
    for line in out:
        assert not line.startswith("ERR"), line
    return [bytes.fromhex(line) for line in out]


def run_raw(exe: pathlib.Path, cpu: str, line: str) -> subprocess.CompletedProcess:
    """One request line; the finished process (for tests of a dying program)."""
    return subprocess.run(["qemu-aarch64", "-cpu", cpu, str(exe)], input=line + "\n",
                          capture_output=True, text=True)
