"""The arm64 cores of the aes-glue.c block modes (crypto_api.machine.core.Core):

* ``aes_ce_blk``: ECB, CBC, the CBC-CTS tail, CTR, XTS and ESSIV-CBC over the
  AES-CE block routines (aes-modes.S with aes-ce.S), linking core ``aes_ce``;
  built ``+crypto``, needs HWCAP aes.
* ``aes_neon_blk``: the same modes over table-lookup AES on plain NEON
  (aes-modes.S with aes-neon.S), with the NEON inverse cipher, linking core
  ``aes_neon_xctr`` for the forward one; built ``-march=armv8-a``, needs
  HWCAP asimd.  Both run the loops of arch/common/aes_modes.h (arm's
  aes-ce runs them too), through aes_blk_entries.h.
"""

import os

from crypto_api.arch.common.c_sources import INCLUDES
from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))

CORES = [
    Core(name="aes_ce_blk",
         sources=("aes_ce_modes.c",), links=("aes_ce",),
         cdef=header_cdef(_HERE, "aes_ce_modes.h"),
         cflags=("-march=armv8-a+crypto", *INCLUDES),
         feature="aes"),
    Core(name="aes_neon_blk",
         sources=("aes_neon_modes.c",), links=("aes_neon_xctr",),
         cdef=header_cdef(_HERE, "aes_neon_modes.h"),
         cflags=("-march=armv8-a", *INCLUDES),
         feature="asimd"),
]
