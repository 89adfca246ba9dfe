"""Which CPU models the installed qemu-user accepts for an emulated machine.

The truth is the emulator's own answer, asked once per process and model
(cached here): ``QEMU -cpu MODEL /dev/null`` (the machine's qemu-user binary,
its descriptor's) says ``unable to find CPU model 'MODEL'`` for a model it
does not have, and nothing about the CPU for one it has (the empty program
then fails to load, silently).  That covers what ``-cpu help`` leaves out
(an ``any`` model some binaries accept) and qemu's own spelling rules (some
targets' models are case-insensitive).  ``-cpu help``
gives the list a refusal names.  A model's properties (``max,sve=off``) are
not checked here: the helper's start reports a bad one.

Without the emulator (or one that does not run) nothing can be asked:
:func:`check_cpu_model` lets the model pass, and the missing qemu-user is
reported where the machine's drivers are (crypto_api.machine.emulation).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from typing import Dict, Optional, Tuple

from ..errors import EINVAL, CryptoError
from .helper_build import toolchain_of
from .known import machine_spec

#: qemu's words for a model it does not know (target/*/cpu.c since qemu 2.x).
UNKNOWN_MODEL = "unable to find CPU model"

#: Lists longer than this are summarised in a refusal (some qemu binaries know hundreds of models).
LIST_IN_FULL = 50

_lock = threading.Lock()
_models: Dict[str, Tuple[str, ...]] = {}                 # qemu path -> its -cpu help names
_accepted: Dict[Tuple[str, str], bool] = {}             # (qemu path, model) -> accepted


def _qemu(arch: str) -> Optional[str]:
    return shutil.which(toolchain_of(arch).qemu)


def parse_cpu_help(text: str) -> Tuple[str, ...]:
    """The model names of ``qemu-* -cpu help``: an indented line starts with
    one (arm, aarch64), an unindented one names it second after the family
    (``PowerPC power9  (alias for power9_v2.0)``); headers end with ``:``."""
    names = []
    for line in text.splitlines():
        words = line.split()
        if not words or line.rstrip().endswith(":"):
            continue
        name = words[0] if line[:1].isspace() else (words[1] if len(words) > 1 else "")
        if name and name not in names:
            names.append(name)
    return tuple(names)


def qemu_cpu_models(arch: str) -> Optional[Tuple[str, ...]]:
    """The models the installed emulator of ``arch`` lists (``-cpu help``), None without one."""
    qemu = _qemu(arch)
    if qemu is None:
        return None
    with _lock:
        if qemu not in _models:
            try:
                r = subprocess.run([qemu, "-cpu", "help"], capture_output=True, text=True,
                                   stdin=subprocess.DEVNULL)
            except OSError:                   # on PATH but not runnable: nothing to ask
                return None
            _models[qemu] = parse_cpu_help(r.stdout)
        return _models[qemu]


def qemu_accepts(arch: str, cpu: str) -> Optional[bool]:
    """Whether the installed emulator of ``arch`` knows the model of ``cpu`` (the part
    before any ``,property=value``); None without an emulator."""
    qemu = _qemu(arch)
    if qemu is None:
        return None
    model = cpu.split(",", 1)[0]
    with _lock:
        key = (qemu, model)
        if key not in _accepted:
            try:
                r = subprocess.run([qemu, "-cpu", model, os.devnull], capture_output=True, text=True,
                                   stdin=subprocess.DEVNULL)
            except OSError:                   # not runnable: the helper's start will say so
                return None
            _accepted[key] = UNKNOWN_MODEL not in r.stderr
        return _accepted[key]


def _cores_models(arch: str, known: Tuple[str, ...]) -> Tuple[str, ...]:
    """Of ``known``, the models the arch's cores and helper are built for (their
    ``-mcpu=``) and its default CPU, in qemu's order: what a long list is summarised by."""
    from .core import arch_cores
    flags = list(toolchain_of(arch).cflags)
    for core in arch_cores(arch).values():
        flags += core.cflags
    wanted = {f.split("=", 1)[1].lower() for f in flags if f.startswith("-mcpu=")}
    wanted.add(machine_spec(arch).default_cpu.lower())
    return tuple(m for m in known if m.lower() in wanted)


def known_models_text(arch: str) -> str:
    """What a refusal says about the models of ``arch``: the emulator's list (summarised
    when long), or that there is no emulator to ask."""
    tc = toolchain_of(arch)
    qemu = tc.qemu
    known = qemu_cpu_models(arch)
    if known is None:
        return f"{qemu} is not installed to list them (Debian package {tc.qemu_package})"
    if len(known) <= LIST_IN_FULL:
        return f"{qemu} knows " + ", ".join(known)
    ours = _cores_models(arch, known)
    text = f"{qemu} knows {len(known)} models ({qemu} -cpu help lists them)"
    return text + (f"; those this machine's cores are built for: {', '.join(ours)}" if ours else "")


def check_cpu_model(arch: str, cpu: str, given: str) -> None:
    """Refuse with EINVAL a CPU model the emulator of ``arch`` does not know; ``given``
    says where the model came from (``--cpu nosuchcpu``, ``CRYPTO_API_CPU=nosuchcpu``)."""
    if qemu_accepts(arch, cpu) is False:
        raise CryptoError(EINVAL, f"machine {arch}: unknown CPU model {cpu.split(',', 1)[0]!r} "
                                  f"({given}): {known_models_text(arch)}")
