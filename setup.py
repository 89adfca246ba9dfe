import os
import sys

from setuptools import Extension, setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "algs"))
from build_common import CFLAGS  # noqa: E402

# The one C entry point that is a CPython extension rather than a cffi one
# (crypto_api/linear_call.c): the limited API (abi3) from 3.11 on, where
# Py_buffer belongs to it; build flags as algs/build_common.py's.
_LIMITED = sys.version_info >= (3, 11)
LINEAR_CALL = Extension(
    "crypto_api._linear_call", ["crypto_api/linear_call.c"],
    extra_compile_args=list(CFLAGS),
    define_macros=[("Py_LIMITED_API", "0x030B0000")] if _LIMITED else [],
    py_limited_api=_LIMITED)

setup(
    ext_modules=[LINEAR_CALL],
    cffi_modules=[
        "algs/build_chacha.py:ffibuilder",
        "algs/build_poly1305.py:ffibuilder",
        "algs/build_aes.py:ffibuilder",
        "algs/build_adiantum.py:ffibuilder",
        "arch/x86/build_cpufeatures.py:ffibuilder",
        "arch/x86/build_chacha.py:ffi_ssse3",
        "arch/x86/build_chacha.py:ffi_avx2",
        "arch/x86/build_chacha.py:ffi_avx512vl",
        "arch/x86/build_chacha.py:ffi_avx512",
        "arch/x86/build_nh.py:ffi_sse2",
        "arch/x86/build_nh.py:ffi_avx2",
        "arch/x86/build_poly1305.py:ffibuilder",
        "arch/x86/build_poly1305_simd.py:ffibuilder",
        "arch/x86/build_chacha20poly1305.py:ffibuilder",
        "arch/x86/build_aesni.py:ffibuilder",
        "arch/x86/build_chacha_glue.py:ffibuilder",
        "algs/build_modes.py:ffibuilder",
        "algs/build_sha256.py:ffibuilder",
        "arch/x86/build_sha256.py:ffibuilder",
        "algs/build_aria.py:ffibuilder",
        "arch/x86/build_aria.py:ffibuilder",
        "algs/build_sector_batch.py:ffibuilder",
    ],
)
