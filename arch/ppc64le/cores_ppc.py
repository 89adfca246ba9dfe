"""The ppc64le cores.  The helper's baseline is POWER8 (-mcpu=power8); each
POWER10 core is compiled -mcpu=power10 as an object of its own, so the one
helper still starts on POWER8/POWER9 and its POWER10 functions are called
only when HWCAP2 reports ``arch_3_1``."""

import os

from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))

# algs/include: the shared headers (aes_sbox.h)
_INCLUDE = "-I" + os.path.normpath(os.path.join(_HERE, "..", "..", "algs", "include"))


CORES = [
    Core(name="aes_p8",
         sources=("aes_p8.c",),
         cdef=header_cdef(_HERE, "aes_p8.h"),
         cflags=("-mcpu=power8", _INCLUDE),
         feature="vcrypto"),
    Core(name="chacha_vsx4",
         sources=("chacha_vsx4.c",),
         cdef=header_cdef(_HERE, "chacha_vsx.h", tag="chacha_vsx4"),
         cflags=("-mcpu=power8",),
         feature="vcrypto"),              # VPERMXOR is in ISA 2.07's vector-crypto category
    Core(name="chacha_p10",
         sources=("chacha_p10.c",),
         cdef=header_cdef(_HERE, "chacha_vsx.h", tag="chacha_p10"),
         cflags=("-mcpu=power10",),
         feature="arch_3_1"),
    Core(name="poly1305_p10",
         sources=("poly1305_p10.c",),
         cdef=header_cdef(_HERE, "poly1305_p10.h"),
         cflags=("-mcpu=power10",),
         feature="arch_3_1"),
]
