"""Every arm64 core: the ``CORES`` lists of arch/arm64/cores_*.py, concatenated.

Each engineer's cores live in a file of their own; this
module globs them in sorted order, so adding a file adds its cores to the
static helper (crypto_api.machine.helper_build) and the native build.
"""

from __future__ import annotations

import os
from typing import List

from crypto_api.machine.core import Core, collect_cores

CORES: List[Core] = collect_cores(__package__, os.path.dirname(os.path.abspath(__file__)))
