"""The emulated machines' helpers, built now and stored gzipped in DIR under
their source keys: ``python PACKAGE/machine/prebuild.py DIR`` (run by path, as
setup.py does) or ``python -m crypto_api.machine.prebuild DIR``.

setup.py runs it on the build tree of every wheel (``pip install .``,
``make dist``), so an installed wheel runs every emulated machine with
qemu-user and no cross compiler (crypto_api.machine.helper_build looks there
first).  The machines are the tree's own, each ``arch/<dir>/machine.py`` (a
build has no installed metadata to read the ``crypto_api.machines`` entry
points from; crypto_api.machine.known.tree_machines), those with a
toolchain.  An architecture whose cross compiler is missing is skipped, and
said so.

Run by path, it needs nothing but the standard library: the wheel is built in
pip's isolated environment, which holds the build requirements (setuptools,
cffi) and none of the package's run-time dependencies (attrs, tqdm).  It then
registers ``crypto_api`` and ``crypto_api.machine`` as bare packages of the
directory it lies in (an installed or build-tree layout, ``arch/`` under the
package), so importing the helper builder runs neither package's
``__init__`` (they load the whole API): only helper_build, cdefs, core,
spec, known, errors, the ``arch/<arch>/machine.py`` descriptors and the
``arch/<arch>/cores*.py`` lists are imported, and those use the standard
library alone.
"""

from __future__ import annotations

import os
import shutil
import sys
import types
from typing import List, Optional


def _bare_packages() -> None:
    """``crypto_api`` and ``crypto_api.machine`` in sys.modules as packages of
    this file's tree whose ``__init__`` is not run; the script's own directory
    off sys.path (its modules are not top-level ones)."""
    here = os.path.dirname(os.path.realpath(__file__))
    package = os.path.dirname(here)
    sys.path[:] = [p for p in sys.path if os.path.realpath(p or os.curdir) != here]
    sys.path.insert(0, os.path.dirname(package))
    for name, path in (("crypto_api", package), ("crypto_api.machine", here)):
        mod = types.ModuleType(name, f"{name}, loaded bare for the helpers' prebuild")
        mod.__path__ = [path]
        mod.__package__ = name
        sys.modules[name] = mod


def _use_tree_machines() -> None:
    """Register the machines of the tree this file lies in (``<package>/arch/*/machine.py``)."""
    from crypto_api.machine import known
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    known.use(known.tree_machines(os.path.join(package, "arch")))


def main(argv: Optional[List[str]] = None) -> int:
    from crypto_api.machine.helper_build import prebuild
    from crypto_api.machine.known import emulated_machines

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m crypto_api.machine.prebuild DIR", file=sys.stderr)
        return 2
    _use_tree_machines()
    for spec in emulated_machines():
        tc = spec.toolchain
        assert tc is not None
        if shutil.which(tc.cc) is None:
            print(f"prebuild: {spec.name}: {tc.cc} not found, no prebuilt helper "
                  f"(installed wheels build it lazily)", file=sys.stderr)
            continue
        print(f"prebuild: {spec.name}: {prebuild(spec.name, args[0])}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    if not __package__:                  # run by path: the build's isolated environment
        _bare_packages()
    sys.exit(main())
