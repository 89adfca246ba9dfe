"""``crypto-api speed`` on AEADs: the template instance, the one-pass driver and
the RFC 8439 peers (``cryptography``'s ChaCha20Poly1305, libsodium's IETF
ChaCha20-Poly1305 through PyNaCl) in one run, each computing the same bytes.
"""

import json

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

import crypto_api as capi
from crypto_api.__main__ import main
from crypto_api.tools import speed_peers
from crypto_api.tools.speed_targets import AEAD_ASSOC_LEN, Target, pattern
from kernel_names import instance

FAST = ["--time-budget", "0.05", "--repeat", "2", "--no-slope", "--cpu-mhz", "1000"]
AEAD = "rfc7539(chacha20,poly1305)"
#: the instance of generic children, by the followed kernel's driver names
TEMPLATE = instance("rfc7539(chacha20-generic,poly1305-generic)")
SIZES = [0, 64, 1000]


@pytest.fixture(autouse=True)
def _modules_loaded():
    capi.crypto_alloc_aead(AEAD).free()


def _reference(size: int) -> bytes:
    """What every target and peer must produce at ``size`` (an independent implementation)."""
    return ChaCha20Poly1305(pattern(32, seed=1)).encrypt(
        pattern(12, seed=7), pattern(size, seed=size), pattern(AEAD_ASSOC_LEN, seed=5))


@pytest.mark.parametrize("name,pinned", [(AEAD, False), (TEMPLATE, True)])
def test_aead_targets_compute_rfc8439_and_decrypt_it(name, pinned):
    t = Target(name, pinned)
    try:
        assert t.type == "aead" and t.ops == ("encrypt", "decrypt")
        for size in SIZES:
            assert t.op("encrypt", size)() == _reference(size)
            assert t.op("decrypt", size)() == pattern(size, seed=size)   # verified, then decrypted
    finally:
        t.free()


@pytest.mark.parametrize("key", ["cryptography-chacha20poly1305", "pynacl-chacha20poly1305-ietf"])
def test_aead_peers_compute_the_same_bytes(key):
    peer = {p.key: p for p in speed_peers.available_peers()}[key]
    assert peer.relates == {AEAD: "same"}
    for size in SIZES:
        assert peer.op("encrypt", size)() == _reference(size)
        assert peer.op("decrypt", size)() == pattern(size, seed=size)
    assert key in {p.key for p in speed_peers.peers_for([AEAD])}


def test_one_run_measures_instance_driver_and_peers(capsys, tmp_path):
    path = tmp_path / "run.json"
    rc = main(["speed", *FAST, "--alg", AEAD, "--driver", TEMPLATE, "--sizes", "64,4096",
               "--peers", "--json", str(path)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    report = json.loads(path.read_text())
    ids = {t["id"]: t for t in report["targets"]}
    assert ids[AEAD]["type"] == "aead" and ids[TEMPLATE]["driver"] == TEMPLATE
    assert {"peer:cryptography-chacha20poly1305", "peer:pynacl-chacha20poly1305-ietf"} <= set(ids)
    measured = {(r["target"], r["op"], r["size"]) for r in report["results"] if "samples_ns" in r}
    for target in (AEAD, TEMPLATE, "peer:cryptography-chacha20poly1305", "peer:pynacl-chacha20poly1305-ietf"):
        for op in ("encrypt", "decrypt"):
            assert {(target, op, 64), (target, op, 4096)} <= measured
