"""The arm64 GHASH and AES-GCM cores with the Crypto Extensions
(crypto_api.machine.core.Core), the role of arch/arm64/crypto/ghash-ce-core.S.

* ``ghash_ce``: the PMULL block function with the generic descriptor code of
  algs/ghash_generic.c around it (ghash-ce); needs HWCAP pmull.
* ``gcm_aes_ce``: one call per GCM request, AES-CE CTR (aes_ce.c) and the
  PMULL GHASH of ghash_ce.c (gcm-aes-ce); needs HWCAP pmull, which the
  architecture only offers with the AES instructions.
"""

import os

from crypto_api.arch.common.c_sources import INCLUDES
from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))

CORES = [
    Core(name="ghash_ce",
         sources=("ghash_ce.c",), links=("ghash_generic",),
         cdef=header_cdef(_HERE, "ghash_ce.h"),
         cflags=("-march=armv8-a+crypto", *INCLUDES),
         feature="pmull"),
    Core(name="gcm_aes_ce",
         sources=("gcm_aes_ce.c",), links=("aes_ce", "ghash_ce"),
         cdef=header_cdef(_HERE, "gcm_aes_ce.h"),
         cflags=("-march=armv8-a+crypto", *INCLUDES),
         feature="pmull"),
]
