"""The C that the arm and arm64 machines both build, and where it lies.

nh_neon.c (NH with NEON intrinsics), nhpoly1305_neon.c (the NHPoly1305
update around it) and aes_arm64.c (scalar table AES) are written once, in
this directory, and compiled by each machine's helper for its own
instruction set: the arm64 cores of arch/arm64/cores_misc.py and the arm
ones of arch/arm/cores.py.  A core's sources are relative to its own
arch's directory (crypto_api.machine.core.Core), hence :func:`source`.

Standard library only, as every cores list (the helpers' prebuild reads them).
"""

import os

from crypto_api.machine.core import Core

#: This directory (``-I`` it to include aes_arm64.h, nh_neon.h, nhpoly1305_neon.h).
HERE = os.path.dirname(os.path.abspath(__file__))

#: The generic C of algs/ and its headers, which the shared C builds on.
ALGS = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir, "algs"))
INCLUDES = ("-I" + ALGS, "-I" + os.path.join(ALGS, "include"), "-I" + HERE)


def source(name: str) -> str:
    """A C file of this directory, relative to an arch's directory (a sibling of this one)."""
    return os.path.join(os.pardir, "common", name)


def generic(name: str) -> str:
    """A generic C file of algs/, relative to an arch's directory."""
    return os.path.join(os.pardir, os.pardir, "algs", name)


#: The shared C as cores that a machine's core links (``links``; compiled with
#: that core's flags, once per helper): crypto_api.machine.core.SHARED_CORES.
CORES = [
    Core(name="nh_neon", sources=("nh_neon.c", "nhpoly1305_neon.c")),
    Core(name="aes_table", sources=("aes_arm64.c",)),
]

NH_NEON_CDEF = """
    void nh_neon(const uint32_t *key, const uint8_t *message, size_t message_len,
                 uint8_t *hash);
    void nhpoly1305_neon_update(void *state, const void *key, const uint8_t *src,
                                size_t len);
    size_t nhpoly1305_neon_state_size(void);
    size_t nhpoly1305_neon_key_size(void);
"""
AES_TABLE_CDEF = """
    void aes_arm64_encrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in,
                           unsigned int rounds);
    void aes_arm64_decrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in,
                           unsigned int rounds);
"""
