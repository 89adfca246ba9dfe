"""poly1305_neon (arch/arm64/poly1305_neon.c) on its own under qemu-aarch64:
the Poly1305 vectors and `cryptography` on drawn keys and lengths (every
pairing of the two-lane loop, odd tails, the generic path below four
blocks), and a descriptor passed between the NEON and generic cores, under
two CPU models."""

import json
import pathlib

import pytest
from cryptography.hazmat.primitives.poly1305 import Poly1305
from hypothesis import given, settings, strategies as st

from arm64_standalone import CPU_MODELS, build, run
from crypto_api.arch.arm64.cores_misc import generic

VECTORS = pathlib.Path(__file__).resolve().parents[3] / "crypto_api" / "testmgr" / "vectors"


@pytest.fixture(scope="module")
def poly_exe(tmp_path_factory):
    return build(tmp_path_factory.mktemp("poly"), "poly1305_main.c",
                 ["poly1305_neon.c", generic("poly1305_core.c"), generic("poly1305_desc.c")])


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_vectors(poly_exe, cpu):
    vs = json.loads((VECTORS / "poly1305.json").read_text())["vectors"]
    got = run(poly_exe, cpu, [("digest", bytes.fromhex(v["key"]) + bytes.fromhex(v["message"])) for v in vs])
    assert got == [bytes.fromhex(v["digest"]) for v in vs]


@pytest.mark.parametrize("cpu", CPU_MODELS)
@settings(max_examples=5, deadline=None)
@given(cases=st.lists(st.tuples(st.binary(min_size=32, max_size=32), st.binary(max_size=700),
                                st.integers(1, 300)), min_size=1, max_size=12))
def test_match_cryptography(poly_exe, cpu, cases):
    want = [Poly1305.generate_tag(key, msg) for key, msg, _ in cases]
    assert run(poly_exe, cpu, [("digest", key + msg) for key, msg, _ in cases]) == want
    mixed = [("mixed", key + msg, piece.to_bytes(4, "little")) for key, msg, piece in cases]
    assert run(poly_exe, cpu, mixed) == want


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_large_limbs(poly_exe, cpu):
    """All-ones key and message: the largest limbs the carry chains meet."""
    key = b"\xff" * 32
    msgs = [b"\xff" * n for n in (64, 65, 127, 128, 129, 4096, 4111)]
    assert run(poly_exe, cpu, [("digest", key + m) for m in msgs]) == \
        [Poly1305.generate_tag(key, m) for m in msgs]
