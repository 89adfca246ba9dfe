from setuptools import setup

setup(
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
