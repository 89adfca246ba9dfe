"""The x86 C as cores (crypto_api.machine.core.Core): one cffi extension per
core with a ``module``.  No -m flags: each SIMD function carries its target
attribute (x86_common.h), so the wrappers stay baseline x86-64 and a module
may be imported on any CPU; ``feature`` names the CPUID feature the glue
checks before calling in.  On other machines the SIMD files compile to stubs.
No kernel counterpart: the role of arch/x86/crypto/Makefile's object lists.
Standard library only (setup.py reads it in pip's isolated build).
"""

import os

from crypto_api.machine.core import Core

#: algs/, relative to this directory.
_ALGS = os.path.join(os.pardir, os.pardir, "algs")

#: The header directories of every core here (relative to this directory):
#: its own, the shared headers, and algs/ (the generic cores some of these link).
INCLUDE_DIRS = (".", os.path.join(_ALGS, "include"), _ALGS)

_MEMZERO = os.path.join(_ALGS, "include", "memzero.h")
_CHACHA = ("chacha_x86.h", _MEMZERO)

CORES = [
    Core(name="cpufeatures", module="crypto_api.arch.x86._cpufeatures",
         sources=("cpufeatures.c",), headers=("cpufeatures.h", _MEMZERO), feature=""),
    Core(name="chacha_ssse3", module="crypto_api.arch.x86._chacha_ssse3",
         sources=("chacha_ssse3.c",), headers=_CHACHA, feature="ssse3"),
    Core(name="chacha_avx2", module="crypto_api.arch.x86._chacha_avx2",
         sources=("chacha_avx2.c",), links=("chacha_ssse3",), headers=_CHACHA, feature="avx2"),
    Core(name="chacha_avx512vl", module="crypto_api.arch.x86._chacha_avx512vl",
         sources=("chacha_avx512vl.c",), links=("chacha_ssse3",), headers=_CHACHA, feature="avx512vl"),
    Core(name="chacha_avx512", module="crypto_api.arch.x86._chacha_avx512",
         sources=("chacha_avx512f.c",), links=("chacha_avx512vl",), headers=_CHACHA, feature="avx512f"),
    Core(name="chacha_glue", module="crypto_api.arch.x86._chacha_glue",
         sources=("chacha_glue_walk.c",), headers=("chacha_glue_walk.h",), feature=""),
    Core(name="nh_sse2", module="crypto_api.arch.x86._nh_sse2",
         sources=("nh_sse2.c",), includes=("poly1305",), headers=("nh_x86.h", _MEMZERO), feature="sse2"),
    Core(name="nh_avx2", module="crypto_api.arch.x86._nh_avx2",
         sources=("nh_avx2.c",), includes=("poly1305",), headers=("nh_x86.h", _MEMZERO), feature="avx2"),
    Core(name="poly1305_x86_64", module="crypto_api.arch.x86._poly1305_x86_64",
         sources=("poly1305_x86_64.c",), includes=("poly1305",),
         headers=("poly1305_x86_64.h", _MEMZERO), feature=""),
    # the radix-2^44 AVX-512 IFMA block code: linked into poly1305_simd and the one-pass AEAD
    Core(name="poly1305_ifma", sources=("poly1305_ifma.c",), headers=("poly1305_ifma.h", _MEMZERO),
         feature="avx512ifma"),
    # declares its descriptor types itself: nothing of it is handed to another extension
    Core(name="poly1305_simd", module="crypto_api.arch.x86._poly1305_simd",
         sources=("poly1305_simd_desc.c", "poly1305_simd_powers.c", "poly1305_sse2.c", "poly1305_avx2.c"),
         links=("poly1305_core", "poly1305_ifma"), feature="sse2",
         headers=(os.path.join(_ALGS, "include", "poly1305_core.h"), os.path.join(_ALGS, "poly1305_desc.h"),
                  "poly1305_simd.h", "poly1305_simd_desc.h"),
         bytes_adapters=(("poly1305_simd_digest_bytes", "poly1305_simd_digest"),)),
    Core(name="chacha20poly1305_avx2", module="crypto_api.arch.x86._chacha20poly1305_avx2",
         sources=("chacha20poly1305_avx2.c",), links=("chacha_avx2", "chacha_avx512", "poly1305_x86_64", "poly1305_ifma"),
         headers=("chacha20poly1305_avx2.h",), feature="avx2"),
    Core(name="aesni", module="crypto_api.arch.x86._aesni",
         sources=("aesni.c", "aesni_modes.c", "aesni_vaes.c", "aesni_direct.c", "aesni_gcm.c"),
         headers=("aesni.h", "aesni_modes.h", _MEMZERO, "aesni_gcm.h", "ghash_clmul_ops.h"),
         feature="aes"),
    Core(name="sha256_ni", module="crypto_api.arch.x86._sha256_ni",
         sources=("sha256_ni.c", "sha256_simd.c"), includes=("sha256",), headers=("sha256_x86.h",),
         feature="ssse3"),
    Core(name="sha512_x86", module="crypto_api.arch.x86._sha512_x86",
         sources=("sha512_simd.c", "sha512_avx2.c"), links=("sha512",), includes=("sha512",),
         headers=("sha512_x86.h",), feature="ssse3"),
    Core(name="polyval_clmulni", module="crypto_api.arch.x86._polyval_clmulni",
         sources=("polyval_clmulni.c",), includes=("polyval_generic",), headers=("polyval_clmulni.h",),
         feature="pclmulqdq"),
    Core(name="ghash_clmul", module="crypto_api.arch.x86._ghash_clmul",
         sources=("ghash_clmul.c",), includes=("ghash_generic",), headers=("ghash_clmul.h", "ghash_clmul_ops.h"),
         feature="pclmulqdq"),
    Core(name="aria", module="crypto_api.arch.x86._aria",
         sources=("aria_x86.c", "aria_xts.c"), links=("aria_generic",), includes=("aria_generic",),
         headers=("aria_x86.h",), feature="avx"),
]
