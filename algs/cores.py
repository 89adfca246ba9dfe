"""The generic C of algs/ as cores (crypto_api.machine.core.Core): one cffi
extension per core with a ``module``, the others parts that cores link.

setup.py builds every module listed here and in arch/x86/cores.py (through
algs/build_common.py); the emulated machines' helpers compile some of these
files too (arch/common/c_sources.py's ``generic``).  No kernel counterpart:
the role of crypto/Makefile's object lists.  Standard library only (setup.py
reads it in pip's isolated build).
"""

from crypto_api.machine.core import Core

#: The header directories of every core here (relative to this directory).
INCLUDE_DIRS = (".", "include")

_MEMZERO = "include/memzero.h"
_POLY = ("include/poly1305_core.h", "poly1305_desc.h", "include/nhpoly1305.h")

CORES = [
    Core(name="chacha_generic", module="crypto_api.algs._chacha_generic",
         sources=("chacha_generic.c",), headers=("chacha_generic.h", _MEMZERO),
         bytes_adapters=(("chacha_direct_bytes", "chacha_crypt_direct"),)),
    # the 26-bit Poly1305 core and the v5.0 "poly1305" descriptor, and NHPoly1305's
    # streaming code: linked by _poly1305, _adiantum and the x86 poly1305-simd
    Core(name="poly1305_core", sources=("poly1305_core.c", "poly1305_desc.c"),
         headers=("include/poly1305_core.h", "poly1305_desc.h")),
    Core(name="nhpoly1305", sources=("nhpoly1305.c",), headers=_POLY),
    # declares poly1305_core_ops, nh_fn_t and the NHPoly1305 key and state for
    # every extension that includes it
    Core(name="poly1305", module="crypto_api.algs._poly1305",
         sources=("nh_generic.c",), links=("poly1305_core", "nhpoly1305"),
         headers=(*_POLY, _MEMZERO)),
    Core(name="aes_generic", module="crypto_api.algs._aes_generic",
         sources=("aes_generic.c",), headers=("aes_generic.h", _MEMZERO)),
    Core(name="adiantum", module="crypto_api.algs._adiantum",
         sources=("adiantum_core.c",), links=("nhpoly1305",), includes=("poly1305",),
         headers=("adiantum_core.h",),
         bytes_adapters=(("adiantum_encrypt_bytes", "adiantum_encrypt"),
                         ("adiantum_decrypt_bytes", "adiantum_decrypt"))),
    Core(name="modes", module="crypto_api.algs._modes",
         sources=("modes_core.c",), includes=("aes_generic",), headers=("modes_core.h",)),
    Core(name="sha256", module="crypto_api.algs._sha256",
         sources=("sha256_generic.c",), headers=("sha256_generic.h",)),
    Core(name="sha512", module="crypto_api.algs._sha512",
         sources=("sha512_generic.c",), headers=("sha512_generic.h",)),
    Core(name="sha1", module="crypto_api.algs._sha1",
         sources=("sha1_generic.c",), headers=("sha1_generic.h",)),
    Core(name="aria_generic", module="crypto_api.algs._aria_generic",
         sources=("aria_generic.c",), headers=("aria_generic.h", _MEMZERO)),
    Core(name="polyval_generic", module="crypto_api.algs._polyval_generic",
         sources=("polyval_generic.c",), headers=("polyval_generic.h", _MEMZERO)),
    Core(name="ghash_generic", module="crypto_api.algs._ghash_generic",
         sources=("ghash_generic.c",), headers=("ghash_generic.h", _MEMZERO)),
    # HCTR2 in one call over its children's C entries (BLOCK, XCTR, POLYVAL)
    Core(name="hctr2", module="crypto_api.algs._hctr2",
         sources=("hctr2_core.c",), includes=("polyval_generic",), headers=("hctr2_core.h",),
         bytes_adapters=(("hctr2_encrypt_bytes", "hctr2_encrypt"),
                         ("hctr2_decrypt_bytes", "hctr2_decrypt"))),
    Core(name="sector_batch", module="crypto_api.algs._sector_batch",
         sources=("sector_batch.c",), links=("sha256", "nhpoly1305"),
         headers=("sector_batch.h", "sha256_generic.h")),
]
