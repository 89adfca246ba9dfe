"""Which AES-NI GCM drivers a kernel registers, and in which form
(arch/x86/crypto/aesni-intel_glue.c, its GCM part across versions).

Up to 6.10 there is one ``generic-gcm-aesni`` / ``rfc4106-gcm-aesni`` (400)
whose code the glue picks by CPU (SSE, AVX or AVX2 routines); here the core
form aesni_glue.gcm_isa() names.  6.11 split it into generations, each its
own pair of drivers over its own code, registered where the CPU has what it
needs: ``-aesni`` 400 (AES-NI, PCLMULQDQ), ``-aesni-avx`` 500 (AVX),
``-vaes-avx10_256`` 700 and ``-vaes-avx10_512`` 800 (VAES, VPCLMULQDQ,
AVX-512BW/VL, BMI2, zmm state).  6.19 dropped ``-vaes-avx10_256``, added
``-vaes-avx2`` 600 (VAES with AVX2) and renamed the 512-bit pair
``-vaes-avx512`` (the kernel-version table renames it; this project's name
stays ``-vaes-avx10_512``).  The rule ``aesni.gcm_generations`` of the
table says which set a version has (composite: all five).

The form, rule ``aesni.gcm_wrapping``: ``v5.0`` (v5.0's internal
``__driver-*`` at priority 0 under the hand-made wrapper at 400), ``simd``
(5.4-6.15: internal ``__gcm(aes)`` / ``__rfc4106(gcm(aes))`` named
``__<driver>`` at the generation's priority, each under crypto/simd.c's
AEAD wrapper; the composite registry's form) or ``direct`` (6.16+: the
public drivers registered as they are, synchronous, no wrapper, no cryptd).

Cores (aesni_gcm_glue.ISA_NAMES): ``-aesni`` and ``-aesni-avx`` both run the
AES-NI core (the kernel's two differ in instruction encoding only; this
project builds the core once), ``-vaes-avx2`` the VAES/AVX2 core,
``-vaes-avx10_256`` the AVX10/256 one, ``-vaes-avx10_512`` the 512-bit one.
"""

from __future__ import annotations

from typing import List

import attrs

import crypto_api as capi
from crypto_api import registry
from crypto_api.arch.x86 import aesni_gcm_glue as g
from crypto_api.arch.x86.aesni_cpu import gcm_isa, has_vaes_avx2, has_vaes_avx10
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.version_rules import rule

#: The two AEADs of each generation, in the kernel's order (gcm, then rfc4106).
FORMS = (g.GENERIC, g.RFC4106)


@attrs.frozen
class Generation:
    """One pair of drivers: ``<prefix>-<suffix>``, its priority and core."""
    suffix: str
    priority: int
    isa: str

    def driver(self, form: g.GcmForm) -> str:
        return f"{form.prefix}-{self.suffix}"


AESNI = Generation("aesni", 400, "aesni")
AESNI_AVX = Generation("aesni-avx", 500, "aesni")
VAES_AVX2 = Generation("vaes-avx2", 600, "vaes-avx2")
AVX10_256 = Generation("vaes-avx10_256", 700, "avx10_256")
AVX10_512 = Generation("vaes-avx10_512", 800, "avx512")

#: The value of the rule ``aesni.gcm_generations`` -> the generations, in registration order.
SETS = {
    "avx10": (AESNI, AESNI_AVX, AVX10_256, AVX10_512),
    "vaes": (AESNI, AESNI_AVX, VAES_AVX2, AVX10_512),
    "all": (AESNI, AESNI_AVX, VAES_AVX2, AVX10_256, AVX10_512),
}


def cpu_runs(gen: Generation) -> bool:
    """True if the CPU has what ``gen``'s registration checks (the 6.11+ glue's
    checks; PCLMULQDQ for all, as this project's GHASH needs it)."""
    if not boot_cpu_has("pclmulqdq"):
        return False
    if gen is AESNI:
        return True
    if gen is AESNI_AVX:
        return boot_cpu_has("avx")
    return has_vaes_avx10() if gen.isa in ("avx10_256", "avx512") else has_vaes_avx2()


def generations() -> List[Generation]:
    """The followed kernel's generations this CPU gets, in registration order
    (the 512-bit one at priority 1 on CPUs with prefer_ymm)."""
    which = rule("aesni.gcm_generations", "all")
    if which == "one":
        return [attrs.evolve(AESNI, isa=gcm_isa())] if cpu_runs(AESNI) else []
    out = [gen for gen in SETS[which] if cpu_runs(gen)]
    if boot_cpu_has("prefer_ymm"):
        out = [attrs.evolve(gen, priority=1) if gen is AVX10_512 else gen for gen in out]
    return out


def _internal(form: g.GcmForm, gen: Generation, wrapping: str) -> capi.AeadAlg:
    if wrapping == "v5.0":
        return g.internal_alg(form, gen.isa)
    return g.gcm_alg(form, gen.isa, "__" + form.public, "__" + gen.driver(form), gen.priority,
                     capi.CRYPTO_ALG_INTERNAL)


def register(out: list) -> None:
    """Register the followed kernel's GCM drivers, appending each to ``out``
    as it goes (so that a failure part way leaves ``out`` to unregister)."""
    from crypto_api.arch.x86.aesni_gcm_wrapper import PRIORITY, wrapper_alg
    wrapping = rule("aesni.gcm_wrapping", "simd")
    for gen in generations():
        if wrapping == "direct":
            algs = [g.gcm_alg(form, gen.isa, form.public, gen.driver(form), gen.priority) for form in FORMS]
            capi.crypto_register_aeads(algs)
            out.extend(algs)
            continue
        inner = [_internal(form, gen, wrapping) for form in FORMS]
        capi.crypto_register_aeads(inner)
        out.extend(inner)
        for alg, form in zip(inner, FORMS):
            if not registry.refused(alg):
                w = wrapper_alg(form.public, gen.driver(form), alg,
                                PRIORITY if wrapping == "v5.0" else gen.priority)
                capi.crypto_register_aead(w)
                out.append(w)
