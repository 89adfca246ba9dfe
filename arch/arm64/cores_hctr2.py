"""The arm64 cores of HCTR2's drivers (crypto_api.machine.core.Core):

* ``polyval_ce``: POLYVAL blocks with PMULL (polyval-ce-core.S's role) under
  the generic streaming code (algs/polyval_generic.c, linked); built
  ``+crypto``, needs HWCAP pmull.
* ``aes_ce_xctr``: XCTR over the AES-CE block routine (the XCTR path of
  aes-modes.S with aes-ce.S), linking core ``aes_ce``; built ``+crypto``,
  needs HWCAP aes.
* ``aes_neon_xctr``: XCTR over table-lookup AES on plain NEON (the XCTR
  path of aes-modes.S with aes-neon.S); built ``-march=armv8-a``, needs
  HWCAP asimd.  Both XCTR cores run the loop of xctr_loop.h.
"""

import os

from crypto_api.arch.common.c_sources import INCLUDES
from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))

CORES = [
    Core(name="polyval_ce",
         sources=("polyval_ce.c",), links=("polyval_generic",),
         cdef=header_cdef(_HERE, "polyval_ce.h"),
         cflags=("-march=armv8-a+crypto", *INCLUDES),
         feature="pmull"),
    Core(name="aes_ce_xctr",
         sources=("aes_ce_xctr.c",), links=("aes_ce",),
         cdef=header_cdef(_HERE, "aes_ce_xctr.h"),
         cflags=("-march=armv8-a+crypto", *INCLUDES),
         feature="aes"),
    Core(name="aes_neon_xctr",
         sources=("aes_neon_xctr.c",),
         cdef=header_cdef(_HERE, "aes_neon_xctr.h"),
         cflags=("-march=armv8-a", *INCLUDES),
         feature="asimd"),
]
