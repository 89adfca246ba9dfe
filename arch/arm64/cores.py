"""Every arm64 core: the ``CORES`` lists of arch/arm64/cores_*.py, concatenated.

Each engineer's cores live in a file of their own; this
module globs them in sorted order, so adding a file adds its cores to the
static helper (crypto_api.machine.helper_build) and the native build.
"""

from __future__ import annotations

import glob
import importlib
import os
from typing import List

from crypto_api.machine.core import Core


def _collect() -> List[Core]:
    out: List[Core] = []
    here = os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(here, "cores_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        out += importlib.import_module(f"{__package__}.{name}").CORES
    return out


CORES: List[Core] = _collect()
