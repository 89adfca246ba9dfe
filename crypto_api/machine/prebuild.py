"""``python -m crypto_api.machine.prebuild DIR``: the emulated machines'
helpers, built now and stored gzipped in DIR under their source keys.

setup.py runs it on the build tree of a wheel (``make dist``), so an
installed wheel runs the arm64, arm and ppc64le machines with qemu-user and
no cross compiler (crypto_api.machine.helper_build looks there first).  An
architecture whose cross compiler is missing is skipped, and said so.
"""

from __future__ import annotations

import shutil
import sys
from typing import List, Optional

from .helper_build import TOOLCHAINS, prebuild


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m crypto_api.machine.prebuild DIR", file=sys.stderr)
        return 2
    for arch, tc in TOOLCHAINS.items():
        if shutil.which(tc["cc"]) is None:
            print(f"prebuild: {arch}: {tc['cc']} not found, no prebuilt helper "
                  f"(installed wheels build it lazily)", file=sys.stderr)
            continue
        print(f"prebuild: {arch}: {prebuild(arch, args[0])}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
