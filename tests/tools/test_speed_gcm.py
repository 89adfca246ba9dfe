"""``crypto-api speed`` on ``gcm(aes)``: the target (the AES-NI driver where
the CPU has it, else the template instance) and the ``cryptography``
AES-256-GCM peer compute the same bytes, one run measures both, and the
goal rows G1/G2 read their ratio from that run.
"""

import json

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

import crypto_api as capi
from crypto_api.__main__ import main
from crypto_api.tools import speed_goals, speed_peers
from crypto_api.tools.speed_targets import AEAD_ASSOC_LEN, Target, pattern

FAST = ["--time-budget", "0.05", "--repeat", "2", "--no-slope", "--cpu-mhz", "1000"]
GCM = "gcm(aes)"
PEER = "cryptography-aes-256-gcm"
SIZES = [0, 64, 1000, 4096]


def _reference(size: int) -> bytes:
    """AES-256-GCM of the speed tool's data, key, nonce and AD (an independent implementation)."""
    return AESGCM(pattern(32, seed=1)).encrypt(pattern(12, seed=7), pattern(size, seed=size),
                                               pattern(AEAD_ASSOC_LEN, seed=5))


def test_the_target_is_aes_256_gcm():
    t = Target(GCM, False)
    try:
        assert t.type == "aead" and t.ops == ("encrypt", "decrypt")
        for size in SIZES:
            assert t.op("encrypt", size)() == _reference(size)
            assert t.op("decrypt", size)() == pattern(size, seed=size)
    finally:
        t.free()


def test_the_peer_computes_the_same_bytes():
    peer = {p.key: p for p in speed_peers.available_peers()}[PEER]
    assert peer.relates == {GCM: "same"}
    for size in SIZES:
        assert peer.op("encrypt", size)() == _reference(size)
        assert peer.op("decrypt", size)() == pattern(size, seed=size)
    assert PEER in {p.key for p in speed_peers.peers_for([GCM])}


def test_one_run_gives_the_goal_rows(tmp_path, capsys):
    path = tmp_path / "run.json"
    rc = main(["speed", *FAST, "--alg", GCM, "--sizes", "4K,1M", "--peers", "--json", str(path)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    report = json.loads(path.read_text())
    rows = {r["row"]: r for r in speed_goals.evaluate(report)}
    for row, size in (("G1", 4096), ("G2", 1 << 20)):
        r = rows[row]
        assert r["goal"] == 0.8 and r["ratio"] is not None
        assert r["ratio"] == pytest.approx(r["ours_mbps"] / r["peer_mbps"], rel=1e-6)
    assert GCM in speed_goals.GOAL_ALGS
