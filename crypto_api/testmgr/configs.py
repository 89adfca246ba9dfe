"""Test configurations: how a vector is fed to a driver (``testvec_config``).

Mirrors the 5.2+ crypto/testmgr.c: scatterlist divisions given as proportions
of the total (out of 10000) with offsets into a two-page buffer, in-place or
out-of-place, may-sleep, IV misalignment, hash finalization types and flush
types, nosimd.  The default lists are the kernel's.
"""

from __future__ import annotations

from typing import Tuple

import attrs

PAGE_SIZE = 4096
TOTAL = 10000


@attrs.frozen
class DivSpec:
    """One scatterlist piece: a share of the data at an offset in its buffer."""

    proportion: int
    offset: int = 0
    offset_relative_to_alignmask: bool = False
    flush: str = "none"       # hashes: "none" (merge), "flush" (update now), "reimport"
    nosimd: bool = False


@attrs.frozen
class TestvecConfig:
    __test__ = False          # not a pytest test class
    name: str
    inplace: bool = False
    may_sleep: bool = False
    src_divs: Tuple[DivSpec, ...] = (DivSpec(TOTAL),)
    dst_divs: Tuple[DivSpec, ...] = (DivSpec(TOTAL),)
    iv_offset: int = 0
    iv_offset_relative_to_alignmask: bool = False
    finalization: str = "final"   # hashes: "final", "finup", "digest"
    nosimd: bool = False

    def check(self) -> None:
        """A config that cannot be met is an error in the config itself."""
        for divs in (self.src_divs, self.dst_divs):
            if sum(d.proportion for d in divs) != TOTAL:
                raise ValueError(f'cfg="{self.name}": divisions do not add up to {TOTAL}')
        if self.nosimd and self.may_sleep:
            raise ValueError(f'cfg="{self.name}": nosimd cannot be combined with may_sleep')


DEFAULT_CIPHER_TESTVEC_CONFIGS: Tuple[TestvecConfig, ...] = (
    TestvecConfig("in-place", inplace=True),
    TestvecConfig("out-of-place"),
    TestvecConfig("unaligned buffer, offset=1", src_divs=(DivSpec(TOTAL, 1),), iv_offset=1),
    TestvecConfig("buffer aligned only to alignmask",
                  src_divs=(DivSpec(TOTAL, 1, offset_relative_to_alignmask=True),),
                  iv_offset=1, iv_offset_relative_to_alignmask=True),
    TestvecConfig("two even aligned splits", src_divs=(DivSpec(5000), DivSpec(5000))),
    TestvecConfig("uneven misaligned splits, may sleep", may_sleep=True,
                  src_divs=(DivSpec(1900, 33), DivSpec(3300, 7), DivSpec(4800, 18)), iv_offset=3),
    TestvecConfig("misaligned splits crossing pages, inplace", inplace=True,
                  src_divs=(DivSpec(7500, PAGE_SIZE - 32), DivSpec(2500, PAGE_SIZE - 7))),
)

DEFAULT_HASH_TESTVEC_CONFIGS: Tuple[TestvecConfig, ...] = (
    TestvecConfig("init+update+final aligned buffer"),
    TestvecConfig("init+finup aligned buffer", finalization="finup"),
    TestvecConfig("digest aligned buffer", finalization="digest"),
    TestvecConfig("init+update+final misaligned buffer", src_divs=(DivSpec(TOTAL, 1),)),
    TestvecConfig("digest buffer aligned only to alignmask", finalization="digest",
                  src_divs=(DivSpec(TOTAL, 1, offset_relative_to_alignmask=True),)),
    TestvecConfig("init+update+update+final two even splits",
                  src_divs=(DivSpec(5000, flush="flush"), DivSpec(5000))),
    TestvecConfig("digest uneven misaligned splits, may sleep", finalization="digest", may_sleep=True,
                  src_divs=(DivSpec(1900, 33), DivSpec(3300, 7), DivSpec(4800, 18))),
    TestvecConfig("digest misaligned splits crossing pages", finalization="digest",
                  src_divs=(DivSpec(7500, PAGE_SIZE - 32), DivSpec(2500, PAGE_SIZE - 7))),
    TestvecConfig("import/export",
                  src_divs=(DivSpec(6500, flush="reimport"), DivSpec(3500, flush="reimport"))),
)
