"""The ChaCha walk shared by the ppc64le ChaCha glues (chacha-p10-glue.c's STREAM).

Per walk step (stride 64, walksize unset): each non-final step rounded down
to 64 bytes; when crypto_simd_usable(), one VSX section around the arch
``step(state, dst, src, n, nrounds)``, else the generic C on that step.  No
``cryptlen <= 64`` shortcut.  XChaCha's subkey is HChaCha in generic C,
outside any section (no VSX HChaCha exists).  The 32-bit block counter is
word 12; steps advance it, never carrying into word 13.
"""

from __future__ import annotations

from typing import Any, Callable

from crypto_api.simd_rule import ANY_LENGTH
from crypto_api.algs import chacha_generic as generic
from crypto_api.algs._chacha_generic import ffi as gffi
from crypto_api.algs._chacha_generic import lib as glib
from crypto_api.arch.ppc64le import vsx_glue


Step = Callable[[Any, Any, Any, int, int], None]


advance = generic.advance_counter      # word 12 += the blocks used, mod 2^32


def generic_c(state: Any, dst: Any, src: Any, n: int, nrounds: int) -> None:
    """The generic C ChaCha on ``n`` bytes (advances word 12 itself)."""
    glib.chacha_crypt_generic(state, gffi.from_buffer("uint8_t[]", dst, require_writable=True),
                              gffi.from_buffer("uint8_t[]", src), n, nrounds)


def stream(req: Any, xchacha: bool, step: Step) -> None:
    """Encrypt (= decrypt) ``req`` with ``step`` inside one VSX section per walk step."""

    def one_step(state: Any, dst: Any, src: Any, n: int, nrounds: int) -> None:
        if vsx_glue.simd_usable():
            vsx_glue.vsx_call(step, state, dst, src, n, nrounds, nbytes=n)
        else:
            generic_c(state, dst, src, n, nrounds)

    generic.stream_steps(req, xchacha, glib.hchacha_block_generic, one_step)


def chacha_algs(suffix: str, priority: int, module: str, step: Step) -> tuple:
    """chacha20/xchacha20/xchacha12 descriptors named ``<name>-<suffix>`` over ``step``."""

    def chacha(req):
        stream(req, False, step)

    def xchacha(req):
        stream(req, True, step)

    return generic.chacha_family("-" + suffix, priority, (chacha, xchacha), module=module, c_stream=None,
                                 contiguous=None, direct=None, simd_rule=ANY_LENGTH)
