"""The v5.0 ChaCha NEON request path that the arm64 and arm ``chacha_neon`` modules share.

arch/arm64/crypto/chacha-neon-glue.c and arch/arm/crypto/chacha-neon-glue.c
(v5.0) follow the same rules (reference §2.3): a request of 64 bytes or
less, or one made while SIMD is not usable (may_use_simd() false, or the
self-test manager's nosimd), runs the generic code on the whole request with
the same tfm; otherwise the walk is not atomic and each step runs in a NEON
section of its own (kernel_neon_begin/end), non-final steps rounded down to
the walk stride (the driver's walksize: five blocks on arm64, four on arm).
XChaCha derives its subkey with the NEON HChaCha in a section of its own,
before the walk.  The core is each machine's own (``chacha_doneon``,
``hchacha_block_neon``); the modules pass it in.

Those are 5.0-5.4's rules (``chacha.sections`` = "request" in the
kernel-version table, crypto_api.version_rules; the composite's).  From 5.5
arm64's glue ("step") has no 64-byte shortcut and decides SIMD at each step
(a step made while SIMD is unusable, and an HChaCha, run the generic code
there), and arm's ("request_any") decides once per request with no 64-byte
shortcut.  From 6.16 ("library") both modules register crypto/chacha.c's
drivers over their ChaCha library instead (crypto_api.algs.chacha_library):
walk stride 64, 64 bytes or less or no SIMD generic, longer steps in NEON
pieces of at most 4 KiB, HChaCha with NEON in a section of its own.
:class:`NeonChachaModule` is the module both machines' glue declare.
"""

from __future__ import annotations

from typing import Any, List

import crypto_api as capi
from crypto_api import modules
from crypto_api.algs import chacha_generic as generic
from crypto_api.algs import chacha_library
from crypto_api.fpu import GENERIC
from crypto_api.machine import backend, current_machine
from crypto_api.version_rules import rule


SECTIONS_RULE = "chacha.sections"
_from_buffer = generic.ffi.from_buffer


def neon_stream(core, req, xchacha: bool, per_step: bool = False) -> None:
    """The NEON walk: XChaCha's HChaCha in a NEON section of its own,
    then one section per walk step running ``core.chacha_doneon`` (non-final
    steps rounded down to the walk stride, the driver's walksize).
    ``per_step`` (arm64 5.5+): SIMD asked again for the HChaCha and each
    step; where it is unusable, that piece runs the generic code."""

    # the library's hchacha_block_arch: NEON in a section of its own where SIMD is usable (up to
    # 5.4 the request only gets here when it is), else the generic HChaCha
    hchacha = chacha_library.hchacha_block_arch(chacha_library.ArchLibrary(
        present=lambda: True, begin=capi.kernel_neon_begin, end=capi.kernel_neon_end,
        blocks=core.chacha_doneon, hchacha=core.hchacha_block_neon))

    def step(state, dst, src, n: int, nrounds: int) -> None:
        if per_step and capi.simd_choice() == GENERIC:
            generic.generic_crypt(state, _from_buffer("uint8_t[]", dst), _from_buffer("uint8_t[]", src),
                                  n, nrounds)
            return
        capi.kernel_neon_begin()
        try:
            core.chacha_doneon(state, dst[:n], src[:n], n, nrounds)
            capi.fpu_account(n)
        finally:
            capi.kernel_neon_end()

    generic.stream_steps(req, xchacha, hchacha if xchacha else None, step)


def v5_requests(get_core):
    """The encrypt callbacks (chacha, xchacha) over the core ``get_core()``
    gives, by the chosen kernel's ``chacha.sections``: "request" (v5.0-5.4):
    a request of 64 bytes or less, or one made while SIMD is not usable, runs
    the generic code on the whole request (same tfm), the rest
    :func:`neon_stream`; "request_any" (arm 5.5+): SIMD decided once, any
    length; "step" (arm64 5.5+): every request through the walk, SIMD decided
    per step."""

    def run(req, xchacha: bool) -> None:
        policy = rule(SECTIONS_RULE, "request")
        if policy == "request":
            use_generic = req.tfm.alg.simd_rule.choice(req.cryptlen) == GENERIC   # 64 bytes or less, or no SIMD
        else:
            use_generic = policy == "request_any" and capi.simd_choice() == GENERIC
        if use_generic:
            (generic.crypto_xchacha_crypt if xchacha else generic.crypto_chacha_crypt)(req)
            return
        neon_stream(get_core(), req, xchacha, per_step=policy == "step")

    return (lambda req: run(req, False)), (lambda req: run(req, True))


def neon_algs(walksize: int, encrypts) -> tuple:
    """The three ``*-neon`` descriptors (priority 300) with ``walksize``."""
    # the core is not callable from C in this process: every path is the request path
    return generic.chacha_family("-neon", 300, encrypts, c_stream=None, contiguous=None, direct=None,
                                 walksize=walksize)


class NeonChachaModule:
    """An arm/arm64 ``chacha_neon`` module: up to 6.15 the ``*-neon``
    drivers of ``walksize`` over :func:`v5_requests`, registered only where
    the CPU has ``feature`` (else ENODEV); from 6.16 crypto/chacha.c's over
    the NEON library (named ``*-neon`` here, renamed by the table),
    registered as the version's ``chacha.registers`` says (without NEON they
    run the generic code).  Either way it loads ``chacha_generic`` first (the
    exported generic helpers; in 6.16-6.17 the ``*-generic`` drivers)."""

    def __init__(self, arch: str, module: str, feature: str, walksize: int) -> None:
        self.arch, self.module, self.feature = arch, module, feature
        self.core: Any = None
        #: the drivers registered (filled at init, emptied at exit)
        self.algs: List[Any] = []
        self.v5_algs = neon_algs(walksize, v5_requests(lambda: self.core))
        self.library = chacha_library.ArchLibrary(
            present=lambda: self.core is not None, begin=capi.kernel_neon_begin, end=capi.kernel_neon_end,
            blocks=chacha_library.counted(lambda *a: self.core.chacha_doneon(*a)),
            hchacha=lambda *a: self.core.hchacha_block_neon(*a))
        self.lib_algs = chacha_library.library_algs("-neon", 300, lambda: self.library, module)

    def init(self) -> None:
        has = current_machine().has(self.feature)
        if chacha_library.library_followed():
            chosen = self.lib_algs if chacha_library.library_registers(has) else ()
        else:
            capi.require_cpu(has, self.module, f"the CPU lacks {self.feature.upper()}")
            chosen = self.v5_algs
        self.core = backend.load(self.arch, "chacha_neon") if has else None
        if not modules.is_loaded(generic.MODULE_NAME):      # the exported generic helpers' module
            modules.insmod(generic.MODULE_NAME)
        self.algs[:] = chosen
        if chosen:
            capi.crypto_register_skciphers(chosen)

    def exit(self) -> None:
        if self.algs:
            capi.crypto_unregister_skciphers(self.algs)
            self.algs.clear()
