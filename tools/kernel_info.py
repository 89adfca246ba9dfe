"""``crypto-api kernels``: which kernel versions can be followed, and how sure each answer is.

No kernel counterpart.  Without an argument: every release that ``--kernel``
accepts, the versions whose trees the table's sources read, and the default.
With a version: where it lies (a read version, or between two), and for a
release between two read versions the facts of the table
(crypto_api.kernels.query.unsettled) whose change falls in that span at a
point the sources did not settle, on the chosen machine (``--arch``).
"""

from __future__ import annotations

import sys

from crypto_api import kernels
from crypto_api.kernels import query


def register(sub) -> None:
    p = sub.add_parser(
        "kernels", help="the kernel versions --kernel accepts, and what is unsettled in each",
        description="List the kernel releases that can be emulated and the versions the table was read "
                    "in; with VERSION, the facts whose answer in that release rests on a bound the "
                    "sources did not settle.")
    p.add_argument("version", nargs="?", metavar="VERSION", help="a release from 5.0 to 6.19")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.version is None:
        print("releases: " + ", ".join(kernels.RELEASES))
        print("read in full: " + ", ".join(kernels.KNOWN))
        print(f"default: {kernels.DEFAULT}")
        return 0
    version = kernels.check(args.version)
    if version == kernels.COMPOSITE:
        print(kernels.describe(version))
        return 0
    note = kernels.caveat(version)
    if not note:
        print(f"Linux {version}: read in full (its facts come from that tree or name what is unknown)")
        return 0
    print(note)
    from crypto_api.machine import current_machine
    for u in query.unsettled(version, current_machine().arch):
        sys.stdout.write(f"  {u.kind} {u.name}: bound {u.bound}: {u.unknown}\n")
    return 0
