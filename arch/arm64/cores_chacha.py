"""The arm64 ChaCha NEON core (arch/arm64/crypto/chacha-neon-core.S, v5.0 entry points)."""

import os

from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))

CORES = [
    Core(name="chacha_neon",
         sources=("chacha_neon.c",),
         cdef=header_cdef(_HERE, "chacha_neon.h"),
         cflags=("-march=armv8-a",),
         feature="asimd"),
]
