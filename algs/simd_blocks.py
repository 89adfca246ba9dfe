"""The choice every SIMD shash driver makes per call: its block function
inside an FPU section (kernel_fpu_begin/end around the work) when the FPU
may be used here, else the generic block function, as the kernel's x86 hash
glue falls back (the SHA-256 and SHA-512 drivers, ghash-clmulni,
polyval-clmulni).

No kernel counterpart of its own: each kernel glue file holds this test.
"""

from __future__ import annotations

from typing import Any, Callable

import crypto_api as capi


def block_runner(simd: bool, blocks: Any, generic: Any) -> Callable[[Callable, int], None]:
    """``run(work, nbytes)``: ``work(blocks)`` inside an FPU section of
    ``nbytes`` where a SIMD driver may use the FPU, else ``work(generic)``."""

    def run(work: Callable, nbytes: int) -> None:
        if simd and capi.simd_choice() != capi.GENERIC:
            capi.kernel_fpu_begin()
            try:
                work(blocks)
                capi.fpu_account(nbytes)
            finally:
                capi.kernel_fpu_end()
        else:
            work(generic)

    return run
