"""The cores of vmx_crypto's block modes and GHASH (arch/ppc64le/vmx.py), each
a concern of its own, all -mcpu=power8 objects needing HWCAP2 ``vcrypto``:

* ``aes_p8_cbc``, ``aes_p8_ctr``, ``aes_p8_xts``: CBC, CTR and XTS over the
  POWER8 AES rounds of aes_p8_vec.h (schedule from core ``aes_p8``);
* ``ghash_p8``: the vpmsumd block function with the generic descriptor
  code of algs/ghash_generic.c around it.
"""

import os

from crypto_api.arch.common.c_sources import INCLUDES
from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))


def _mode(name: str) -> Core:
    return Core(name=name, sources=(name + ".c",),
                cdef=header_cdef(_HERE, "aes_p8_modes.h", tag=name),
                cflags=("-mcpu=power8", *INCLUDES), feature="vcrypto")


CORES = [
    _mode("aes_p8_cbc"),
    _mode("aes_p8_ctr"),
    _mode("aes_p8_xts"),
    Core(name="ghash_p8",
         sources=("ghash_p8.c",), links=("ghash_generic",),
         cdef=header_cdef(_HERE, "ghash_p8.h"),
         cflags=("-mcpu=power8", *INCLUDES),
         feature="vcrypto"),
]
