"""The arm64 GHASH core without the Crypto Extensions
(crypto_api.machine.core.Core), the role of pmull_ghash_update_p8
(arch/arm64/crypto/ghash-ce-core.S; ghash-neon-core.S in later trees).

* ``ghash_neon``: the 8-bit PMULL (vmull_p8) block function with the
  generic descriptor code of algs/ghash_generic.c around it (ghash-neon);
  plain ARMv8-A, needs HWCAP asimd only.
"""

import os

from crypto_api.arch.common.c_sources import INCLUDES
from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))

CORES = [
    Core(name="ghash_neon",
         sources=("ghash_neon.c",), links=("ghash_generic",),
         cdef=header_cdef(_HERE, "ghash_neon.h"),
         cflags=INCLUDES,
         feature="asimd"),
]
