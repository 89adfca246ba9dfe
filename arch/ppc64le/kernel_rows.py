"""The kernel-version table's rows for the ppc64le machine's drivers.

No kernel counterpart: the facts of the kernel's ppc64le crypto drivers per
version (the sources named in each row); crypto_api.kernels.table collects
these with the generic rows and the other machines'.
"""

from __future__ import annotations

from crypto_api.kernels.row import ARCHES, CHACHA, LIB6X, MODES, Row, chacha_arch, drivers

PPC = ("ppc64le",)

#: This file's rows of the table.
ROWS = tuple(
    [Row("driver", PPC, "5.0", None, "aes", "p8_aes", "p8_aes", 1000, "vmx_crypto",
           f"drivers/crypto/vmx/aes.c (arch/powerpc/crypto from 6.8-6.13) ({ARCHES} §3.1)"),
       Row("driver", PPC, "6.5", "6.16", "poly1305", "poly1305-p10", "poly1305-p10", 300, "poly1305_p10_crypto",
           f"arch/powerpc/crypto/poly1305-p10-glue.c @6.5-6.15 ({ARCHES} §3.3)")]
    + chacha_arch(PPC, "-p10", "chacha_p10_crypto", "-p10",
                   f"arch/powerpc/crypto/chacha-p10-glue.c @6.5-6.15 ({ARCHES} §3.2)",
                   "powerpc", f"crypto/chacha.c @6.16-6.17 ({ARCHES} §3.5)", since="6.5")
    + drivers(CHACHA, "-vsx-4way", "-vsx-4way", machines=PPC, since="5.0", until=None, priority=50,
               module="chacha_vsx_4way", source="no kernel counterpart (arch/ppc64le/chacha_vsx4_glue.py)",
               status="project", note="the seed's POWER8 design, below every kernel ChaCha (50)")
)

#: What the table does not cover on this machine (the fidelity page lists it).
NOT_MODELLED = (
    "drivers the kernel has and this project does not register: p8_aes_cbc, p8_aes_ctr, "
    "p8_aes_xts, p8_ghash",
)
