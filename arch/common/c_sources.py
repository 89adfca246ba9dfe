"""The C that the arm and arm64 machines both build, and where it lies.

nh_neon.c (NH with NEON intrinsics), nhpoly1305_neon.c (the NHPoly1305
update around it), aes_arm64.c (scalar table AES) and aes_ce.c (AES with
the Crypto Extensions' ACLE intrinsics) are written once, in
this directory, and compiled by each machine's helper for its own
instruction set: the arm64 cores of arch/arm64/cores_misc.py and the arm
ones of arch/arm/cores.py, which link the cores of :data:`CORES` (their
``links``; crypto_api.machine.core.linked_sources) rather than list these
files, and read the prototypes from this directory's headers.

Standard library only, as every cores list (the helpers' prebuild reads them).
"""

import os

from crypto_api.machine.core import Core, header_cdef

#: This directory (``-I`` it to include aes_arm64.h, nh_neon.h, nhpoly1305_neon.h).
HERE = os.path.dirname(os.path.abspath(__file__))

#: The generic C of algs/ and its headers, which the shared C builds on.
ALGS = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir, "algs"))
INCLUDES = ("-I" + ALGS, "-I" + os.path.join(ALGS, "include"), "-I" + HERE)


def generic(name: str) -> str:
    """A generic C file of algs/, relative to an arch's directory."""
    return os.path.join(os.pardir, os.pardir, "algs", name)


#: The shared C as cores that a machine's core links (``links``; compiled with
#: that core's flags, once per helper): crypto_api.machine.core.SHARED_CORES.
CORES = [
    Core(name="nh_neon", sources=("nh_neon.c", "nhpoly1305_neon.c")),
    Core(name="aes_table", sources=("aes_arm64.c",)),
    Core(name="aes_ce_block", sources=("aes_ce.c",)),
]

#: What the glue calls of the shared C, from its headers.
NH_NEON_CDEF = header_cdef(HERE, "nh_neon.h", "nhpoly1305_neon.h")
AES_TABLE_CDEF = header_cdef(HERE, "aes_arm64.h", tag="aes_table")
#: The Crypto Extensions AES (aes_ce.c, core ``aes_ce_block``), declared in the same header.
AES_CE_CDEF = header_cdef(HERE, "aes_arm64.h", tag="aes_ce")
