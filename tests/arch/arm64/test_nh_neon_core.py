"""nh_neon (arch/common/nh_neon.c) on its own under qemu-aarch64: the NH
vectors and the generic NH (algs/nh_generic.c) on drawn keys and messages,
under two CPU models."""

import json
import pathlib

import pytest
from hypothesis import given, settings, strategies as st

from arm64_standalone import CPU_MODELS, build, run
from crypto_api.arch.arm64.cores_misc import generic
from crypto_api.algs import _poly1305

VECTORS = pathlib.Path(__file__).resolve().parents[3] / "crypto_api" / "testmgr" / "vectors"


def generic_nh(key: bytes, msg: bytes) -> bytes:
    ffi, lib = _poly1305.ffi, _poly1305.lib
    out = ffi.new("uint8_t[32]")
    lib.nh_generic(ffi.from_buffer("uint32_t[]", bytearray(key[:1072])), msg, len(msg), out)
    return bytes(out)


@pytest.fixture(scope="module")
def nh_exe(tmp_path_factory):
    return build(tmp_path_factory.mktemp("nh"), "nh_main.c", ["nh_neon.c"])


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_nh_vectors(nh_exe, cpu):
    vectors = json.loads((VECTORS / "nh.json").read_text())["vectors"]
    reqs = [("nh", bytes.fromhex(v["key"])[:1072], bytes.fromhex(v["message"])) for v in vectors]
    got = run(nh_exe, cpu, reqs)
    assert got == [bytes.fromhex(v["digest"]) for v in vectors]


@pytest.mark.parametrize("cpu", CPU_MODELS)
@settings(max_examples=5, deadline=None)
@given(cases=st.lists(st.tuples(st.binary(min_size=1072, max_size=1072),
                                st.integers(1, 64), st.binary(min_size=1024, max_size=1024)),
                      min_size=1, max_size=20))
def test_nh_matches_generic(nh_exe, cpu, cases):
    """Every length 16..1024 in steps of 16 (main loop + 0-3 tail units)."""
    reqs = [("nh", key, msg[:16 * units]) for key, units, msg in cases]
    assert run(nh_exe, cpu, reqs) == [generic_nh(k, m) for _, k, m in reqs]


@pytest.fixture(scope="module")
def nhpoly_exe(tmp_path_factory):
    return build(tmp_path_factory.mktemp("nhpoly"), "nhpoly1305_main.c",
                 ["nh_neon.c", "nhpoly1305_neon.c", generic("nhpoly1305.c"), generic("poly1305_core.c"),
                  generic("nh_generic.c")])


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_nhpoly1305_vectors(nhpoly_exe, cpu):
    """NHPoly1305 with nh_neon inside the generic streaming code, whole and
    in pieces that leave NH messages open across updates."""
    vectors = json.loads((VECTORS / "nhpoly1305.json").read_text())["vectors"]
    for piece in (1 << 30, 4096, 100):
        reqs = [("digest", bytes.fromhex(v["key"]), bytes.fromhex(v["message"]), piece.to_bytes(4, "little"))
                for v in vectors]
        assert run(nhpoly_exe, cpu, reqs) == [bytes.fromhex(v["digest"]) for v in vectors]
