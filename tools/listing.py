"""``list``: what ``cat /proc/crypto`` shows, after loading every module.

Loads all crypto modules (as a boot's modprobe would), then prints the
/proc/crypto records (crypto/proc.c format, :func:`crypto_api.proc_crypto`)
or, with ``--table``, one line per algorithm.  ``--type`` keeps one
algorithm type, ``--name`` keeps records whose name or driver name matches a
shell pattern; a ``--name`` without wildcards is looked up first, as an
allocation would, so a template instance such as ``adiantum(xchacha12,aes)``
is built on demand and listed; a pattern first builds the template instances
of the self-test table (the adiantum ones), so ``--name 'adiantum*'`` finds
them as it would on a system that had used them.  A first line
``# kernel: Linux <version>`` says which kernel's drivers it shows (6.18 unless
``--kernel`` chose another), followed for a release the table's sources did not
read by a line saying so (crypto_api.kernels.caveat); the ``composite`` registry has no such line.  Patterns are fnmatch's:
``( ) ,`` are ordinary characters, and an unclosed ``[`` matches itself.
"""

from __future__ import annotations

import fnmatch
import sys

import crypto_api as capi
from crypto_api import kernels, modules, registry, testmgr
from crypto_api.errors import EINVAL
from crypto_api.proc import alg_record, format_record

TYPES = ("skcipher", "shash", "cipher", "aead")
COLUMNS = ("name", "type", "driver", "module", "priority", "selftest", "refcnt")


def register(sub) -> None:
    p = sub.add_parser(
        "list", help="list algorithms (the /proc/crypto view)",
        description="Load every crypto module and list the registered algorithms as /proc/crypto does.")
    p.add_argument("--type", choices=TYPES, help="only algorithms of this type")
    p.add_argument("--name", metavar="PATTERN",
                   help="only algorithms whose name or driver name matches this shell pattern "
                        "(fnmatch: * ? [..]); a plain name is looked up first, so template "
                        "instances such as 'adiantum(xchacha12,aes)' are built and shown")
    p.add_argument("--table", action="store_true",
                   help="one line per algorithm: " + ", ".join(COLUMNS))
    p.set_defaults(func=run)


def _is_pattern(text: str) -> bool:
    return any(c in text for c in "*?[")


def select(type_: str = None, pattern: str = None):
    """The registry entries (newest first) that pass the filters."""
    out = []
    for a in registry.snapshot():
        if a.is_larval or a.is_moribund:
            continue
        if type_ is not None and a.kind != type_:
            continue
        if pattern is not None and not (fnmatch.fnmatchcase(a.cra_name, pattern)
                                        or fnmatch.fnmatchcase(a.cra_driver_name, pattern)):
            continue
        out.append(a)
    return out


def _build_known_instances() -> None:
    """Instantiate the template instances the self-test table names (as a lookup would)."""
    for desc in testmgr.ALG_TEST_DESCS:
        if "(" in desc.alg and desc.test != "cipher":
            capi.crypto_has_alg(desc.alg)


def _table(algs) -> str:
    rows = [COLUMNS]
    for a in algs:
        rec = dict(alg_record(a))
        rows.append(tuple(str(rec[c]) for c in COLUMNS))
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = []
    for r in rows:
        cells = [r[i].rjust(widths[i]) if COLUMNS[i] in ("priority", "refcnt") else r[i].ljust(widths[i])
                 for i in range(len(COLUMNS))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def run(args) -> int:
    modules.load_all()
    pattern = args.name
    if pattern is not None:
        if not pattern.isprintable() or len(pattern) >= capi.CRYPTO_MAX_ALG_NAME:
            raise capi.CryptoError(EINVAL, f"--name {pattern[:40]!r}: a pattern must be printable "
                                           f"and shorter than {capi.CRYPTO_MAX_ALG_NAME} characters")
        if not _is_pattern(pattern):
            capi.crypto_has_alg(pattern)      # build a template instance if it names one
        else:
            _build_known_instances()
    algs = select(args.type, pattern)
    if not algs:
        what = " and ".join(filter(None, [args.type and f"type {args.type}",
                                          pattern is not None and f"name {pattern!r}"]))
        print(f"crypto-api list: no algorithm matches {what}", file=sys.stderr)
        return 1
    if kernels.selected():          # which kernel this listing shows (the composite: no line)
        print(f"# kernel: {kernels.describe()}")
        note = kernels.caveat()
        if note:
            print(f"# {note}")
    if args.table:
        sys.stdout.write(_table(algs))
    else:
        sys.stdout.write("".join(format_record(alg_record(a)) for a in algs))
    return 0
