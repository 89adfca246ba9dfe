"""poly1305-simd: v5.0's SSE2/AVX2 Poly1305 shash (arch/x86/crypto/poly1305_glue.c).

cra_name ``poly1305``, driver ``poly1305-simd``, priority 300; registered by
the ``poly1305_x86_64`` module (arch/x86/poly1305_glue.py) on CPUs with SSE2.
The v5.0 shash convention: no setkey, the first 32 bytes hashed are r ‖ s.

Update, as v5.0 does it: an update of 288 bytes or less, or one made while
crypto_simd_usable() is false, is the generic update (scalar 26-bit code, no
FPU).  A longer one is one kernel_fpu_begin/end section around the whole
update: whole blocks four at a time with AVX2 (when the module found AVX2
and OS YMM state), then two at a time with SSE2, a last single block
scalar; the partial tail waits in the descriptor.  v5.0 does not split an
update into 4 KiB sections (that came with the 5.7 library code): the
sections the kernel shows stay within a page only because the ahash walk
over shash hands the update one page at a time.  final is the generic final
(scalar, no FPU).  The descriptor holds r^2..r^4 once computed, as v5.0's
does.

Beyond the kernel: where the CPU has AVX-512F and AVX512_IFMA and the OS
saves ZMM state (``ISA_IFMA``, chosen at module init), the same update sends
whole runs of 16 blocks first to a radix-2^44 block function built on
vpmadd52luq/vpmadd52huq, sixteen blocks in flight in two groups of eight
lanes, with r^1..r^16 computed once per descriptor (arch/x86/poly1305_ifma.c),
and the rest to the AVX2/SSE2/scalar code as above.  No Linux x86 Poly1305
has an IFMA path (v5.0's is radix 2^26; the cryptogams perlasm that 5.6 and
later import builds its base 2^44 IFMA code only outside the kernel, as read
in one 5.17+ copy: see the kernel table's row), so
this is a project addition; the driver's name, priority, update rule and
FPU section (one kernel_fpu_begin/end around a long update) stay v5.0's.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86._poly1305_simd import ffi, lib
from crypto_api.errors import ENOKEY, CryptoError
from crypto_api.fpu import GENERIC
from crypto_api.simd_rule import SimdRule
from crypto_api.direct import digest_direct

DRIVER = "poly1305-simd"
PRIORITY = 300
POLY1305_BLOCK_SIZE = 16
POLY1305_DIGEST_SIZE = 16
#: v5.0: "kernel_fpu_begin/end is costly": updates of 288 bytes or less stay
#: generic (the descriptor's ``simd_rule``: update, digest and the direct path).
SIMD_RULE = SimdRule(above=288)
SIMD_MIN_BYTES = SIMD_RULE.above + 1
DESCSIZE = ffi.sizeof("struct poly1305_simd_desc")
ISA_SSE2 = lib.POLY1305_SIMD_SSE2
ISA_AVX2 = lib.POLY1305_SIMD_AVX2
ISA_IFMA = lib.POLY1305_SIMD_IFMA

_fb = ffi.from_buffer
_DIGEST_CALL = ffi.addressof(lib, "poly1305_simd_digest_call")


def _no_key() -> CryptoError:
    return CryptoError(ENOKEY, f"{DRIVER}: fewer than 32 bytes hashed, so the one-time key r||s is incomplete")


def _desc(desc):
    return _fb("struct poly1305_simd_desc *", desc.state)


def make_alg(isa: int, module: str = None) -> capi.ShashAlg:
    """The poly1305-simd descriptor; ``isa`` is ISA_IFMA, ISA_AVX2 or ISA_SSE2
    (the widest block code the CPU allows, chosen at module init)."""

    def init(desc):
        lib.poly1305_simd_init(_desc(desc))

    def update(desc, data):
        n = len(data)
        if SIMD_RULE.choice(n) == GENERIC:
            lib.poly1305_simd_update_generic(_desc(desc), _fb("uint8_t[]", data), n)
            return
        capi.kernel_fpu_begin()
        try:
            lib.poly1305_simd_update(_desc(desc), _fb("uint8_t[]", data), n, isa)
            capi.fpu_account(n)
        finally:
            capi.kernel_fpu_end()

    def final(desc):
        out = ffi.new("uint8_t[16]")
        if lib.poly1305_simd_final(_desc(desc), out):
            raise _no_key()
        return bytes(ffi.buffer(out))

    def digest(desc, data):
        init(desc)
        update(desc, data)
        return final(desc)

    generic_isa, simd_isa = ffi.new("int *", 0), ffi.new("int *", isa)     # the routine's handles

    def direct(tfm):
        """tfm.digest in one C call for any C-contiguous buffer, with update's rule
        (SIMD above 288 bytes when crypto_simd_usable()); it declines such a
        digest while an fpu_trace() records, and too short an input (the
        full path raises ENOKEY).  The C entry point
        (crypto_api.direct.digest_direct); None where it is not built."""
        return digest_direct(_DIGEST_CALL, generic_isa, simd_isa, POLY1305_DIGEST_SIZE,
                             min_len=2 * POLY1305_BLOCK_SIZE, rule=SIMD_RULE)

    return capi.ShashAlg(
        cra_name="poly1305", cra_driver_name=DRIVER, cra_priority=PRIORITY,
        cra_blocksize=POLY1305_BLOCK_SIZE, cra_module=module,
        digestsize=POLY1305_DIGEST_SIZE, descsize=DESCSIZE,
        init=init, update=update, final=final, digest=digest, direct=direct, simd_rule=SIMD_RULE)
