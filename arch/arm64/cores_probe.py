"""Backend probes: an empty call and a buffer round trip (call overhead), and
one AES-CE instruction (a core whose feature a CPU model may lack: the
SIGILL path of crypto_api.machine.qemu).  No driver uses them."""

import os

from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))

CORES = [
    Core(name="backend_probe",
         sources=("backend_probe.c",),
         cdef=header_cdef(_HERE, "backend_probe.h", tag="backend_probe"),
         feature="fp"),
    Core(name="aes_ce_probe",
         sources=("aes_ce_probe.c",),
         cdef=header_cdef(_HERE, "backend_probe.h", tag="aes_ce_probe"),
         cflags=("-march=armv8-a+crypto",),
         feature="aes"),
]
