"""crypto/chacha.c (6.16+) over a machine's ChaCha library (lib/crypto/<arch>/chacha.h).

From 6.16 every machine's ChaCha skciphers are crypto/chacha.c's: a walk of
stride 64 (no walksize of their own), each step handed to the ChaCha
library, whose arch code decides per call: 64 bytes or less, or SIMD not
usable (the machine lacks the unit, or crypto_simd_usable() is false), run
the generic code with no section; a longer call runs in pieces of at most
4096 bytes, each a SIMD section of its own.  XChaCha's subkey comes from the
arch's hchacha_block: a section of its own around the SIMD HChaCha where
the machine has one and SIMD is usable, else the generic HChaCha.

The rules are the same on x86, arm64, arm and ppc64le; what differs is the
unit's begin/end, the block code and whether an HChaCha exists.  Each glue
describes that with an :class:`ArchLibrary` and takes the walk, the pieces
and the descriptors from here, so no machine carries its own copy.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

import attrs

import crypto_api as capi
from crypto_api.algs import chacha_generic as generic
from crypto_api.fpu import GENERIC
from crypto_api.simd_rule import ANY_LENGTH
from crypto_api.version_rules import rule

#: the longest piece one SIMD section of the library covers (5.7+)
LIBRARY_PIECE = 4096
#: crypto_api.version_rules: the value of ``chacha.sections`` from 6.16
SECTIONS_RULE = "chacha.sections"
LIBRARY = "library"
#: crypto_api.version_rules: "optimized" (6.16-6.17: the arch drivers only where the
#: library has SIMD code on this CPU), "always" (6.18+'s *-lib, and arm's in 6.16-6.17)
REGISTERS_RULE = "chacha.registers"

_from_buffer = generic.ffi.from_buffer

Blocks = Callable[[Any, Any, Any, int, int], None]


@attrs.frozen
class ArchLibrary:
    """One machine's ChaCha library.

    ``present()``: the library has its SIMD code on this CPU (have_neon,
    have_p10 ...); ``begin``/``end``: the unit's section; ``blocks(state,
    dst, src, nbytes, nrounds)``: the SIMD code over one piece inside a
    section, word 12 advanced by the blocks used; ``hchacha(state, out,
    nrounds)``: the SIMD HChaCha, or None where the machine has none."""

    present: Callable[[], bool]
    begin: Callable[[], None]
    end: Callable[[], None]
    blocks: Blocks
    hchacha: Optional[Callable[[Any, Any, int], None]] = None

    def usable(self) -> bool:
        """have_<unit> and crypto_simd_usable()."""
        return self.present() and capi.simd_choice() != GENERIC


def counted(blocks: Blocks) -> Blocks:
    """``blocks`` with word 12 set afterwards to its start plus the blocks
    ``nbytes`` used (a partial last block counts): the library's contract,
    for a core whose own loop keeps an older glue's count (arm64 v5.0's
    five blocks per call, arm v5.0's none for a partial tail)."""

    def run(state, dst, src, n: int, nrounds: int) -> None:
        start = state[12]
        blocks(state, dst, src, n, nrounds)
        state[12] = start
        generic.advance_counter(state, n)

    return run


def library_followed() -> bool:
    """True where the followed kernel's ChaCha is crypto/chacha.c over the library (6.16+)."""
    return rule(SECTIONS_RULE, "") == LIBRARY


def library_registers(has_simd: bool) -> bool:
    """Whether the followed kernel registers the arch ChaCha drivers on this
    CPU: with the SIMD code always; without it only where ``chacha.registers``
    says "always" (6.18+'s *-lib run the generic code inside)."""
    return has_simd or rule(REGISTERS_RULE, "optimized") == "always"


def library_pieces(nbytes: int, piece: int = LIBRARY_PIECE) -> Tuple[Tuple[int, int], ...]:
    """(offset, length) of each section over a call of ``nbytes``: pieces of at most ``piece``."""
    return tuple((pos, min(piece, nbytes - pos)) for pos in range(0, nbytes, piece))


def chacha_crypt_arch(lib: ArchLibrary, state, dst, src, nbytes: int, nrounds: int) -> None:
    """The library's chacha_crypt on ``nbytes`` of the buffers ``dst``/``src``."""
    if nbytes <= generic.CHACHA_BLOCK_SIZE or not lib.usable():
        generic.generic_crypt(state, _from_buffer("uint8_t[]", dst, require_writable=True),
                              _from_buffer("uint8_t[]", src), nbytes, nrounds)
        return
    for pos, n in library_pieces(nbytes):
        lib.begin()
        try:
            lib.blocks(state, dst[pos:pos + n], src[pos:pos + n], n, nrounds)
            capi.fpu_account(n)
        finally:
            lib.end()


def hchacha_block_arch(lib: ArchLibrary) -> Callable[[Any, Any, int], None]:
    """The library's hchacha_block: the SIMD HChaCha in a section of its own
    where the machine has one and SIMD is usable, else the generic one."""

    def hchacha(state, out, nrounds: int) -> None:
        if lib.hchacha is None or not lib.usable():
            generic.generic_hchacha(state, out, nrounds)
            return
        lib.begin()
        try:
            lib.hchacha(state, out, nrounds)
        finally:
            lib.end()

    return hchacha


def library_stream(lib: ArchLibrary, req, xchacha: bool) -> None:
    """crypto/chacha.c's request: the state (XChaCha: the library's HChaCha
    first), then each walk step (non-final steps rounded down to the stride)
    through :func:`chacha_crypt_arch`."""
    generic.stream_steps(req, xchacha, hchacha_block_arch(lib),
                         lambda state, dst, src, n, nrounds: chacha_crypt_arch(lib, state, dst, src, n, nrounds))


def library_algs(suffix: str, priority: int, get_lib: Callable[[], ArchLibrary], module: str) -> tuple:
    """The three crypto/chacha.c descriptors (walksize 64, every path the
    request path) named ``<cra_name><suffix>`` over the library ``get_lib()``
    gives; the kernel-version table renames them (``*-<arch>``, ``*-lib``)."""

    def chacha(req) -> None:
        library_stream(get_lib(), req, False)

    def xchacha(req) -> None:
        library_stream(get_lib(), req, True)

    return generic.chacha_family(suffix, priority, (chacha, xchacha), module=module, c_stream=None,
                                 contiguous=None, direct=None, simd_rule=ANY_LENGTH)
