"""The arm64 stitched ChaCha20-Poly1305 core (crypto_api.machine.core.Core):
arch/arm64/chacha20poly1305_neon.c, beyond the kernel (no arch/arm64/crypto
file has one).  It builds the 4-block ChaCha of chacha_neon4.c (through the
shared chacha_neon4_rounds.h) into one loop with a general-purpose-register
Poly1305, so it needs ASIMD and the generic byte-order/wipe headers."""

import os

from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))
_ALGS = os.path.normpath(os.path.join(_HERE, "..", "..", "algs"))

CORES = [
    Core(name="chacha20poly1305_neon",
         sources=("chacha20poly1305_neon.c",),
         cdef=header_cdef(_HERE, "chacha20poly1305_neon.h"),
         cflags=("-march=armv8-a", "-I" + os.path.join(_ALGS, "include")),
         feature="asimd"),
]
