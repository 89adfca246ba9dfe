"""The generated ten-block AVX2 round (arch/x86/chacha_avx2_rounds10.h).

* The header in the tree is what the generator writes now (no hand edit,
  no stale copy).
* The generator's two checks have teeth: a program with a wrong rotation
  fails the ChaCha check, and an order with two dependent instructions
  swapped fails the order check.
* Every instruction of the program is in the header once, and each use of
  the one temporary (ymm0) stays together in the written order.

That the built code computes ChaCha is checked where it runs, in
test_chacha_simd_core.py (lengths around the 2560-byte groups of the 10-block
code, counter wrap, fenced buffers) and test_build_isa.py (stack residue).
"""
from __future__ import annotations

import importlib.util
import pathlib
import random

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GEN = ROOT / "arch" / "x86" / "gen_chacha_avx2_rounds.py"
HEADER = ROOT / "arch" / "x86" / "chacha_avx2_rounds10.h"


@pytest.fixture(scope="module")
def gen():
    spec = importlib.util.spec_from_file_location("gen_chacha_avx2_rounds", GEN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_header_is_the_generators_output(gen):
    assert HEADER.read_text() == gen.generate()


def test_program_check_catches_a_wrong_rotation(gen):
    p = gen.program()
    gen.check_program(p.ops, random.Random(1))          # the real one passes
    bad = gen.program()
    op = next(o for o in bad.ops if o.text.startswith("vpslld $7,"))
    op.text = op.text.replace("vpslld $7,", "vpslld $6,")
    with pytest.raises(AssertionError):
        gen.check_program(bad.ops, random.Random(1))


def test_order_check_catches_a_swap(gen):
    p = gen.program()
    order = gen.schedule(p.ops)
    gen.check_order(p.ops, order, random.Random(2))       # the real one passes
    # swap an add into d's register with the XOR that feeds it
    i = next(k for k, o in enumerate(order) if o.kind == "shufb")
    j = max(k for k in range(i) if order[k].writes == order[i].reads)
    broken = list(order)
    broken[i], broken[j] = broken[j], broken[i]
    with pytest.raises(AssertionError):
        gen.check_order(p.ops, broken, random.Random(2))


def test_every_instruction_once_and_temporaries_together(gen):
    p = gen.program()
    order = gen.schedule(p.ops)
    assert sorted(o.text for o in order) == sorted(o.text for o in p.ops)
    seen, current = set(), None
    for o in order:
        if o.group != current:
            assert o.group is None or o.group not in seen, "a ymm0 group is split"
            if current is not None:
                seen.add(current)
            current = o.group
    lines = [l for l in HEADER.read_text().splitlines() if l.startswith('\t"v')]
    assert len(lines) == len(p.ops)
