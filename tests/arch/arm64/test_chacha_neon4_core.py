"""The seed-design ChaCha core (arch/arm64/chacha_neon4.c: libgcrypt's
4-block interleaved structure with the kernel's counter) on its own under
qemu-aarch64: the ChaCha20 vectors, the Python reference permutation for 12
and 20 rounds, and the kernel's 32-bit counter wrap (no carry into word 13,
where libgcrypt's original carries), under two CPU models."""

import json
import pathlib
import struct

import pytest
from hypothesis import given, settings, strategies as st

from arm64_standalone import CPU_MODELS, build, run
from chacha_ref import ref_permute

VECTORS = pathlib.Path(__file__).resolve().parents[3] / "crypto_api" / "testmgr" / "vectors"
SIGMA = struct.unpack("<4I", b"expand 32-byte k")


def ref_xor(state, src, nrounds):
    out = bytearray()
    st_ = list(state)
    for off in range(0, len(src), 64):
        x = ref_permute(st_, nrounds)
        ks = struct.pack("<16I", *[(a + b) & 0xFFFFFFFF for a, b in zip(x, st_)])
        out += bytes(p ^ k for p, k in zip(src[off:off + 64], ks))
        st_[12] = (st_[12] + 1) & 0xFFFFFFFF
    return bytes(out)


def state_words(key, iv16):
    return list(SIGMA) + list(struct.unpack("<8I", key)) + list(struct.unpack("<4I", iv16))


def req(state, src, nrounds):
    return ("xor", struct.pack("<16I", *state), src, struct.pack("<I", nrounds))


@pytest.fixture(scope="module")
def chacha_exe(tmp_path_factory):
    return build(tmp_path_factory.mktemp("chacha"), "chacha_neon4_main.c", ["chacha_neon4.c"])


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_chacha20_vectors(chacha_exe, cpu):
    """Each vector's keystream, padded to whole four-block groups."""
    vs = json.loads((VECTORS / "chacha20.json").read_text())["vectors"]
    reqs, want = [], []
    for v in vs:
        pt = bytes.fromhex(v["plaintext"])
        padded = pt + bytes(-len(pt) % 256)
        reqs.append(req(state_words(bytes.fromhex(v["key"]), bytes.fromhex(v["kernel_iv"])), padded, 20))
        want.append(bytes.fromhex(v["ciphertext"]))
    got = run(chacha_exe, cpu, reqs)
    assert [g[:len(w)] for g, w in zip(got, want)] == want


@pytest.mark.parametrize("cpu", CPU_MODELS)
@settings(max_examples=5, deadline=None)
@given(cases=st.lists(st.tuples(st.lists(st.integers(0, 2**32 - 1), min_size=16, max_size=16),
                                st.integers(1, 3), st.sampled_from([12, 20]), st.binary(min_size=768, max_size=768)),
                      min_size=1, max_size=6))
def test_match_reference(chacha_exe, cpu, cases):
    reqs = [req(state, src[:256 * groups], nr) for state, groups, nr, src in cases]
    assert run(chacha_exe, cpu, reqs) == [ref_xor(s, src[:256 * g], nr) for s, g, nr, src in cases]


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_counter_wraps_without_carry(chacha_exe, cpu):
    """Blocks with counters 0xfffffffe, 0xffffffff, 0, 1, ... keep word 13."""
    state = list(SIGMA) + list(range(1, 9)) + [0xFFFFFFFE, 0x11111111, 0x22222222, 0x33333333]
    src = bytes(range(256)) * 2
    assert run(chacha_exe, cpu, [req(state, src, 12)]) == [ref_xor(state, src, 12)]

