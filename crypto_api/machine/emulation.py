"""Whether an emulated machine can run its own drivers, and when it is an error that it cannot.

A machine booted on a host of another architecture runs its drivers'
cores in a helper under qemu-user.  Without the emulator, without the cross
compiler and a prebuilt helper, when the helper does not build, or when the
emulator cannot start it on the chosen CPU model, the arch modules register
nothing and only the generic drivers serve: a list, a self-test or a
benchmark of that machine then silently says nothing about its drivers.

:func:`drivers_problem` says why (a CryptoError naming what is missing and
the Debian packages that bring it); :func:`check` is the one rule every
user of it applies: an error when ``strict`` (``crypto-api selftest``
without ``--generic-only``) or when ``CRYPTO_API_REQUIRE_EMULATION=1``
(CI: the emulated machines must run), otherwise a warning to print.  The
test suite's emulation fixtures ask :func:`tools_problem` and
:func:`required` the same way (tests/arm64_emulation.py).
"""

from __future__ import annotations

import os
from typing import Optional

from ..errors import ENODEV, CryptoError
from .helper_build import missing_tools
from .selection import Machine

#: Set to 1 (as .ci/run does) to make a machine that cannot emulate an error everywhere.
REQUIRE_VAR = "CRYPTO_API_REQUIRE_EMULATION"


def required() -> bool:
    """True when the environment demands working emulation (``CRYPTO_API_REQUIRE_EMULATION=1``)."""
    return os.environ.get(REQUIRE_VAR) == "1"


def tools_problem(arch: str) -> Optional[CryptoError]:
    """ENODEV naming each missing tool of ``arch`` and its Debian packages, or None:
    the emulator, and the cross compiler unless a prebuilt helper matches the sources."""
    miss = missing_tools(arch)
    if not miss:
        return None
    return CryptoError(ENODEV, f"{arch} emulation unavailable: missing " + ", ".join(miss))


def drivers_problem(machine: Machine) -> Optional[CryptoError]:
    """Why ``machine``'s own drivers cannot run, or None (always None for a
    native machine).  Builds and starts the machine's helper when its tools
    are there, as the first module load would: a build failure, or an
    emulator that refuses the CPU model, is the error then."""
    if not machine.emulated:
        return None
    err = tools_problem(machine.arch)
    if err is not None:
        return err
    try:
        machine.features                      # the helper's hello: built, started, HWCAPs read
    except CryptoError as e:
        return CryptoError(e.errno, f"{machine.arch} emulation unavailable: {e.message}")
    except OSError as e:                      # the emulator vanished between the check and the start
        return CryptoError(ENODEV, f"{machine.arch} emulation unavailable: {e}")
    return None


def check(machine: Machine, *, strict: bool, hint: str = "") -> Optional[str]:
    """Apply the rule: None when ``machine``'s drivers can run; else raise the
    problem when ``strict`` (with ``hint``: how to do without them) or
    :func:`required`, or return the warning to print."""
    err = drivers_problem(machine)
    if err is None:
        return None
    what = (f"{err.message}; the {machine.arch} machine's own drivers cannot be registered, "
            "only the generic ones")
    if required():
        raise CryptoError(err.errno, f"{what} ({REQUIRE_VAR}=1 requires them)")
    if strict:
        raise CryptoError(err.errno, f"{what}; {hint}" if hint else what)
    return what
