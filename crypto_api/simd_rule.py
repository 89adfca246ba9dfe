"""When a driver runs its SIMD code: the rule it declares once, as data.

No kernel counterpart as such: each v5.0 glue file writes its own "if the
request is at most N bytes, or !crypto_simd_usable(), run the generic code"
(arch/x86/crypto/chacha_glue.c: N = CHACHA_BLOCK_SIZE).  Here a driver puts
N on its descriptor (``simd_rule=SimdRule(above=64)``), and every path
decides through that one object: the request and contiguous paths call
:meth:`SimdRule.choice`, and the direct path (crypto_api/direct.py) hands
``above``/``only`` to the C entry it builds at setkey
(crypto_api/direct_call.c, digest_call.h), which applies the same rule.
"""

from __future__ import annotations

import attrs

from .fpu import GENERIC, simd_choice


@attrs.frozen
class SimdRule:
    """``above``: SIMD only for requests of more than this many bytes (shorter
    ones run the generic code without asking the FPU model); ``only``: the
    driver has no generic code (an internal AES-NI mode), so every length
    asks, and anything but SIMD declines."""
    above: int = 0
    only: bool = False

    def choice(self, nbytes: int) -> int:
        """GENERIC for ``nbytes <= above`` (unless ``only``), else
        :func:`crypto_api.fpu.simd_choice` (SIMD, GENERIC or DECLINE)."""
        if nbytes <= self.above and not self.only:
            return GENERIC
        return simd_choice()


#: The rule of a driver that declares none: every length may use SIMD.
ANY_LENGTH = SimdRule()


def simd_rule_of(alg) -> SimdRule:
    """The rule ``alg`` (a descriptor or registry record) declares, or :data:`ANY_LENGTH`."""
    rule = getattr(alg, "simd_rule", None)
    return ANY_LENGTH if rule is None else rule
