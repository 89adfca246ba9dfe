"""Command line: ``python -m crypto_api <command>`` (console script ``crypto-api``).

The commands are found through one table, the entry-point group
``crypto_api.commands`` (pyproject.toml's, and any installed plug-in's):
a row ``name = "package.module:function"`` names a ``function(subparsers)``
that adds the sub-parser of the command ``name``, with ``func`` set.  Adding
a command is adding a row.  This project's rows are the userspace tools
people use with the kernel crypto API (crypto_api.tools): boot, list,
selftest, speed, enc, dec, disk and benchmark.

``--arch`` / ``--cpu`` (global: before the command, and accepted after it)
choose the machine to boot, as ``CRYPTO_API_ARCH`` / ``CRYPTO_API_CPU`` do
(crypto_api.machine), and ``--kernel`` the kernel version the registry
follows, as ``CRYPTO_API_KERNEL`` does (crypto_api.kernels); they are exported to the environment, so processes
the command starts boot the same machine.  An emulated machine that cannot
run its own drivers says so on stderr before the command runs (``selftest``
refuses to run then, unless ``--generic-only``).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import importlib.metadata
import io
import os
import sys
from typing import Dict, List, Optional

from .errors import CryptoError
from .testmgr import level

COMMANDS_GROUP = "crypto_api.commands"
_DISTRIBUTION = "crypto_api"


def command_rows() -> List[importlib.metadata.EntryPoint]:
    """The rows of ``crypto_api.commands``, one per name: this distribution's
    first (a plug-in cannot replace a command of its own name), then in the
    order the metadata gives them."""
    eps = importlib.metadata.entry_points(group=COMMANDS_GROUP)
    try:        # one metadata read (asking each entry point for its dist's name reads one per row)
        own = importlib.metadata.distribution(_DISTRIBUTION).entry_points.select(group=COMMANDS_GROUP)
    except importlib.metadata.PackageNotFoundError:
        own = ()
    ours = [ep for ep in eps if ep in own]
    rows: Dict[str, importlib.metadata.EntryPoint] = {}
    for ep in ours + [ep for ep in eps if ep not in ours]:
        rows.setdefault(ep.name, ep)
    return list(rows.values())


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``crypto-api enc: error: ...`` and exit 2.

    Sub-parsers inherit the class, so every command reports bad arguments the
    same way (no usage dump; ``--help`` still prints the full usage).
    """

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="crypto-api",
        description="The Linux kernel crypto API in userspace: list, self-test, benchmark and use its algorithms.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    _machine_options(parser, None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for row in command_rows():
        module = row.value.split(":", 1)[0]
        try:
            register = row.load()
        except ImportError as e:
            if e.name != module:         # a row left behind by an uninstalled package: no command
                raise
            continue
        register(sub)
    if not sub.choices:
        parser.exit(1, f"{parser.prog}: no commands: the entry-point group {COMMANDS_GROUP} is empty "
                       "(is crypto_api installed? pip install -e .)\n")
    for cmd in sub.choices.values():           # accepted after the command too
        _machine_options(cmd, argparse.SUPPRESS)
    return parser


def _machine_options(p: argparse.ArgumentParser, default) -> None:
    """--arch and --cpu, their help naming the registered machines (crypto_api.machine.known)."""
    from .machine.known import machines
    specs = machines().values()
    models = list(dict.fromkeys(m for spec in specs for m in spec.cpu_models))
    p.add_argument("--arch", default=default, metavar="ARCH",
                   help=f"boot this machine architecture ({', '.join(s.name for s in specs)}; default: "
                        "the host, or $CRYPTO_API_ARCH); a foreign one runs its cores under qemu-user")
    p.add_argument("--cpu", default=default, metavar="MODEL",
                   help="CPU model of an emulated machine (a qemu -cpu model: "
                        f"{', '.join(models + ['...'])}; default: $CRYPTO_API_CPU, else the arch's default)")
    from . import kernels
    p.add_argument("--kernel", default=default, metavar="VERSION",
                   help="emulate this kernel version's drivers, names and priorities (a release from "
                        f"{kernels.RELEASES[0]} to {kernels.RELEASES[-1]}; `crypto-api kernels` lists them; "
                        f"default: $CRYPTO_API_KERNEL, else {kernels.DEFAULT}; {kernels.COMPOSITE}: every driver "
                        "as this project registers it)")


def _boot_machine(args: argparse.Namespace) -> None:
    """Choose the machine before any module loads, and pass it to child processes.

    An emulated machine whose own drivers cannot run (crypto_api.machine.emulation)
    is a warning on stderr, or the command's error where it must have them (a
    command's ``strict_emulation`` default: the hint of how to do without) or
    under ``CRYPTO_API_REQUIRE_EMULATION=1``.  A command run with
    ``generic_only`` set loads no arch module, so needs none of it."""
    from . import kernels
    from .machine import emulation, select_machine_from_options
    if getattr(args, "kernel", None):
        kernels.select(kernels.check(args.kernel))
    kernels.selected()              # a bad $CRYPTO_API_KERNEL is named before any work
    for opt, var in (("arch", "CRYPTO_API_ARCH"), ("cpu", "CRYPTO_API_CPU"), ("kernel", kernels.versions.ENV)):
        if getattr(args, opt, None):
            os.environ[var] = getattr(args, opt)
    machine = select_machine_from_options(getattr(args, "arch", None), getattr(args, "cpu", None))
    if getattr(args, "generic_only", False):
        return
    hint = getattr(args, "strict_emulation", None)
    warning = emulation.check(machine, strict=hint is not None, hint=hint or "")
    if warning:
        print(f"crypto-api {args.command}: warning: {warning}", file=sys.stderr)


def _version() -> str:
    """The installed distribution's version (its metadata), else the package's own."""
    try:
        return importlib.metadata.version("crypto_api")
    except importlib.metadata.PackageNotFoundError:
        from . import __version__
        return __version__


class _ClosedStdout(io.RawIOBase):
    """Stands in for a stdout the shell closed (``>&-``): writing is EBADF."""

    def writable(self) -> bool:
        return True

    def write(self, b):
        raise OSError(errno.EBADF, "standard output is closed")


def main(argv: Optional[List[str]] = None) -> int:
    if sys.stdout is None:           # started with fd 1 closed: a one-line error when written
        sys.stdout = io.TextIOWrapper(_ClosedStdout(), write_through=True)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        level.check_environment()    # a bad CRYPTO_API_SELFTESTS is named before any work
        _boot_machine(args)
        return int(args.func(args) or 0)
    except CryptoError as e:
        print(f"crypto-api {args.command}: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:          # `crypto-api list | head`: quiet, as a shell tool is
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except OSError as e:             # files named on the command line: one line, no traceback
        where = f": {e.filename}" if e.filename else ""
        print(f"crypto-api {args.command}: {e.strerror or e}{where}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"crypto-api {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
