"""The arm64 SHA-512 core with the ARMv8.2 SHA-512 instructions
(crypto_api.machine.core.Core), the role of arch/arm64/crypto/sha512-ce-core.S:
``sha512_ce``, the compression function of arch/arm64/sha512_ce.c with the
generic descriptor code of algs/sha512_generic.c around it (sha512-ce,
sha384-ce); built ``+sha3`` (which carries the SHA-512 instructions), needs
HWCAP sha512.
"""

import os

from crypto_api.arch.common.c_sources import INCLUDES
from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))

CORES = [
    Core(name="sha512_ce",
         sources=("sha512_ce.c",), links=("sha512",),
         cdef=header_cdef(_HERE, "sha512_ce.h"),
         cflags=("-march=armv8.2-a+sha3", *INCLUDES),
         feature="sha512"),
]
