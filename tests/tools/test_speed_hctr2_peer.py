"""``crypto-api speed --peers`` on ``hctr2(aes)``: crypto_api's own
``adiantum(xchacha12,aes)`` is its reference peer (tools/speed_peers.py
ApiPeer), measured in the same run, computing Adiantum's bytes."""

import json

import crypto_api as capi
from crypto_api.__main__ import main
from crypto_api.tools import speed_peers
from crypto_api.tools.speed_targets import pattern

FAST = ["--time-budget", "0.05", "--repeat", "2", "--no-slope", "--cpu-mhz", "1000"]
KEY = "crypto_api-adiantum-xchacha12-aes"


def test_the_adiantum_peer_computes_adiantum_and_is_hctr2s_reference():
    peer = {p.key: p for p in speed_peers.available_peers()}[KEY]
    try:
        assert peer.relates == {"hctr2(aes)": "reference"}
        assert KEY in {p.key for p in speed_peers.peers_for(["hctr2(aes)"])}
        assert KEY not in {p.key for p in speed_peers.peers_for(["adiantum(xchacha12,aes)"])}
        with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as t:
            t.setkey(pattern(32, seed=1))
            for size in (16, 4096):
                data = pattern(size, seed=size)
                assert peer.op("encrypt", size)() == t.encrypt(data, pattern(32, seed=3))
                assert peer.op("decrypt", size)() == t.decrypt(data, pattern(32, seed=3))
    finally:
        peer.free()
    assert peer.tfm is None


def test_one_run_shows_hctr2_over_adiantum(capsys, tmp_path):
    path = tmp_path / "run.json"
    rc = main(["speed", *FAST, "--alg", "hctr2(aes)", "--sizes", "4096", "--peers", "--json", str(path)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "crypto_api adiantum(xchacha12,aes) (reference)" in out
    report = json.loads(path.read_text())
    got = {(r["target"], r["op"]) for r in report["results"] if r["size"] == 4096}
    assert ("peer:" + KEY, "encrypt") in got
