"""Random test configurations and random lengths for the full self-tests.

Mirrors generate_random_testvec_config, generate_random_sgl_divisions and
generate_random_length of crypto/testmgr.c (5.2+, CRYPTO_MANAGER_EXTRA_TESTS):
random in-place, MAY_SLEEP, finalization (hashes), nosimd (never together
with MAY_SLEEP), up to 8 source divisions (sometimes destination divisions
too) with the kernel's offset preferences, flush types for hashes and a random
IV offset.  Every draw comes from the ``random.Random`` passed in, so a seed
replays the same configurations.  The name spells the configuration out the
way the kernel prints it, e.g. ``random: inplace may_sleep src_divs=[100.0%@+3]``.
"""

from __future__ import annotations

import random
from typing import List, Tuple

from .. import alg as A
from .configs import PAGE_SIZE, TOTAL, DivSpec, TestvecConfig

MAX_DIVS = 8          # the kernel's XBUFSIZE: at most 8 scatterlist pieces


def _percent(share: int) -> str:
    """A share out of 10000 as a percentage: 5000 -> '50.0', 1905 -> '19.05'."""
    text = f"{share // 100}.{share % 100:02d}"
    return text[:-1] if text.endswith("0") else text


def random_divisions(rng: random.Random, gen_flushes: bool, may_sleep: bool) -> Tuple[Tuple[DivSpec, ...], str]:
    """Random scatterlist divisions adding up to 10000 and their printed form."""
    divs: List[DivSpec] = []
    words: List[str] = []
    remaining = TOTAL
    while remaining:
        if len(divs) == MAX_DIVS - 1 or rng.randrange(2) == 0:
            share = remaining
        else:
            share = 1 + rng.randrange(remaining)
        if rng.randrange(4) == 0:
            offset = PAGE_SIZE - 128 + rng.randrange(128)      # near the end of a page
        elif rng.randrange(2) == 0:
            offset = rng.randrange(32)                          # a small misalignment
        else:
            offset = rng.randrange(PAGE_SIZE)                   # anywhere in the page
        relative = rng.randrange(8) == 0
        flush = "none"
        if gen_flushes:
            flush = {0: "reimport", 1: "flush"}.get(rng.randrange(4), "none")
        nosimd = flush != "none" and not may_sleep and rng.randrange(2) == 0
        divs.append(DivSpec(share, offset, relative, flush, nosimd))
        tag = "" if flush == "none" else f"<{flush}{',nosimd' if nosimd else ''}>"
        words.append(f"{tag}{_percent(share)}%@{'alignmask' if relative else ''}+{offset}")
        remaining -= share
    return tuple(divs), ", ".join(words)


def random_testvec_config(rng: random.Random, hash: bool = False) -> TestvecConfig:
    """A fresh random configuration (hash=True adds finalization and flush types)."""
    words = ["random:"]
    inplace = not hash and rng.randrange(2) == 0
    if inplace:
        words.append("inplace")
    may_sleep = rng.randrange(2) == 0
    if may_sleep:
        words.append("may_sleep")
    finalization = "final"
    if hash:
        finalization = {0: "final", 1: "finup"}.get(rng.randrange(4), "digest")
        words.append("use_" + finalization)
    nosimd = not may_sleep and rng.randrange(2) == 0
    if nosimd:
        words.append("nosimd")
    src_divs, text = random_divisions(rng, hash and finalization != "digest", may_sleep)
    words.append(f"src_divs=[{text}]")
    dst_divs = (DivSpec(TOTAL),)
    if not hash and not inplace and rng.randrange(2) == 0:
        dst_divs, text = random_divisions(rng, False, may_sleep)
        words.append(f"dst_divs=[{text}]")
    iv_offset = 0
    if not hash and rng.randrange(2) == 0:
        iv_offset = 1 + rng.randrange(A.MAX_ALGAPI_ALIGNMASK)
        words.append(f"iv_offset={iv_offset}")
    return TestvecConfig(" ".join(words), inplace=inplace, may_sleep=may_sleep,
                         src_divs=src_divs, dst_divs=dst_divs, iv_offset=iv_offset,
                         finalization=finalization, nosimd=nosimd)


def random_length(rng: random.Random, max_len: int) -> int:
    """A length in [0, max_len], small ones preferred: 1/4 each mod 64, 256, 1024, any."""
    n = rng.randrange(max_len + 1)
    choice = rng.randrange(4)
    if choice == 0:
        n %= 64
    elif choice == 1:
        n %= 256
    elif choice == 2:
        n %= 1024
    return n
