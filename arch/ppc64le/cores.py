"""Every ppc64le core: the ``CORES`` lists of arch/ppc64le/cores_*.py, concatenated
(crypto_api.machine.core.collect_cores), for the static helper and the native build."""

from __future__ import annotations

import os
from typing import List

from crypto_api.machine.core import Core, collect_cores

CORES: List[Core] = collect_cores(__package__, os.path.dirname(os.path.abspath(__file__)))
