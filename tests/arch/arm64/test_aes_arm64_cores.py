"""The arm64 AES cores on their own under qemu-aarch64: aes_arm64.c (scalar
tables, on the generic key schedule), aes_ce.c (Crypto Extensions, with
its own AESE/AESIMC key expansion) and aes_neon_xctr.c's block routine
(TBL lookups on plain NEON, built without the crypto extension), against
the AES vectors and `cryptography`, under two CPU models; the CE core
raises SIGILL on a CPU model without the AES feature, the NEON one runs
there."""

import json
import pathlib

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hypothesis import given, settings, strategies as st

from arm64_standalone import CPU_MODELS, build, run, run_raw
from crypto_api.arch.arm64.cores_misc import generic
from crypto_api.algs import _aes_generic

VECTORS = pathlib.Path(__file__).resolve().parents[3] / "crypto_api" / "testmgr" / "vectors"
NO_AES_CPU = "cortex-a53,neon=off,vfp=off"     # HWCAP 0x883: fp asimd crc32 cpuid, no aes
CE_FLAGS = ("-march=armv8-a+crypto", "-DAES_CE")
NEON_FLAGS = ("-march=armv8-a", "-DAES_NEON")


@pytest.fixture(scope="module")
def aes_exe(tmp_path_factory):
    return build(tmp_path_factory.mktemp("aes"), "aes_main.c",
                 ["aes_arm64.c", "aes_ce.c", generic("aes_generic.c")], CE_FLAGS)


@pytest.fixture(scope="module")
def neon_exe(tmp_path_factory):
    return build(tmp_path_factory.mktemp("aes_neon"), "aes_main.c",
                 ["aes_arm64.c", "aes_neon_xctr.c", generic("aes_generic.c")], NEON_FLAGS)


def block_vectors():
    vs = json.loads((VECTORS / "aes.json").read_text())["vectors"]
    return [(bytes.fromhex(v["key"]), bytes.fromhex(v["plaintext"]), bytes.fromhex(v["ciphertext"]))
            for v in vs if v["mode"] == "block"]


def ecb(key, block, encrypt):
    c = Cipher(algorithms.AES(key), modes.ECB())
    op = c.encryptor() if encrypt else c.decryptor()
    return op.update(block) + op.finalize()


@pytest.mark.parametrize("cpu", CPU_MODELS)
@pytest.mark.parametrize("core", ["", "ce"])
def test_vectors(aes_exe, cpu, core):
    vs = block_vectors()
    assert len(vs) > 10
    assert run(aes_exe, cpu, [(core + "enc", k, p) for k, p, _ in vs]) == [c for _, _, c in vs]
    assert run(aes_exe, cpu, [(core + "dec", k, c) for k, _, c in vs]) == [p for _, p, _ in vs]


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_ce_schedule_is_the_generic_one(aes_exe, cpu):
    """The CE expansion fills key_enc/key_dec exactly as the generic one
    does, so the v5.0 fallback (the scalar routine on the CE schedule) works."""
    ffi, lib = _aes_generic.ffi, _aes_generic.lib
    keys = [bytes(range(n)) for n in (16, 24, 32)] + [bytes([0xff] * n) for n in (16, 24, 32)]
    got = run(aes_exe, cpu, [("cekeys", k) for k in keys])
    for key, both in zip(keys, got):
        ctx = ffi.new("struct crypto_aes_ctx *")
        assert lib.aes_expandkey_generic(ctx, key, len(key)) == 0
        n = len(both) // 2
        assert both[:n] == bytes(ffi.buffer(ctx.key_enc))[:n]
        assert both[n:] == bytes(ffi.buffer(ctx.key_dec))[:n]


@pytest.mark.parametrize("cpu", CPU_MODELS)
@settings(max_examples=5, deadline=None)
@given(cases=st.lists(st.tuples(st.sampled_from([16, 24, 32]), st.binary(min_size=32, max_size=32),
                                st.binary(min_size=16, max_size=16)), min_size=1, max_size=16))
def test_match_cryptography(aes_exe, cpu, cases):
    reqs = [(k[:n], b) for n, k, b in cases]
    for op, enc in (("enc", True), ("dec", False), ("ceenc", True), ("cedec", False)):
        assert run(aes_exe, cpu, [(op, k, b) for k, b in reqs]) == [ecb(k, b, enc) for k, b in reqs]


def test_ce_bad_key_length(aes_exe):
    res = run_raw(aes_exe, "max", "cekeys " + bytes(20).hex())
    assert res.stdout.startswith("ERR ce bad key")


def test_no_aes_cpu(aes_exe):
    """The scalar core runs on a CPU model without the crypto extensions;
    the CE core dies there with SIGILL."""
    k, p, c = block_vectors()[0]
    assert run(aes_exe, NO_AES_CPU, [("enc", k, p)]) == [c]
    res = run_raw(aes_exe, NO_AES_CPU, f"ceenc {k.hex()} {p.hex()}")
    assert res.returncode == -4, (res.returncode, res.stderr)


@pytest.mark.parametrize("cpu", CPU_MODELS + (NO_AES_CPU,))
def test_neon_core_vectors(neon_exe, cpu):
    vs = block_vectors()
    assert run(neon_exe, cpu, [("neonenc", k, p) for k, p, _ in vs]) == [c for _, _, c in vs]


@settings(max_examples=5, deadline=None)
@given(cases=st.lists(st.tuples(st.sampled_from([16, 24, 32]), st.binary(min_size=32, max_size=32),
                                st.binary(min_size=16, max_size=16)), min_size=1, max_size=16))
def test_neon_core_matches_cryptography(neon_exe, cases):
    reqs = [(k[:n], b) for n, k, b in cases]
    assert run(neon_exe, NO_AES_CPU, [("neonenc", k, b) for k, b in reqs]) == [ecb(k, b, True) for k, b in reqs]
