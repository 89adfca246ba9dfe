"""The stitched ChaCha20-Poly1305 core (arch/arm64/chacha20poly1305_neon.c)
on its own, under qemu-aarch64 with two CPU models: through the machine
backend (every buffer copied, as the drivers call it) against the RFC 8439 /
testmgr vectors and ``cryptography``'s ChaCha20Poly1305 over the lengths
where the loop changes shape (256-byte groups, the one-group MAC trail when
sealing, the tail), all-ones data (the radix-2^64 carries), random inputs,
and a wrong tag (EBADMSG, zeros in dst); through a standalone program, in
place (dst == src); and in the compiled code, that ChaCha rounds and
Poly1305 products share one loop body (the one-pass claim)."""

import re
import subprocess

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import given, settings, strategies as st

from arm64_emulation import require_emulation
from arm64_standalone import ARM64, CPU_MODELS, INCLUDES, build, run
from crypto_api.testmgr.vectors import load_json
from drawn_bytes import exactly

pytestmark = pytest.mark.emulation

CORE = "chacha20poly1305_neon"
EBADMSG = 74
VECTORS = [v for v in load_json("rfc7539-chacha20poly1305.json")["vectors"]
           if v["kernel_alg"] == "rfc7539(chacha20,poly1305)"]
# around every place the sweep changes shape: no group, one group (whose MAC
# trails to after the loop when sealing), several, and tails of each size class
LENGTHS = (0, 1, 15, 16, 17, 63, 64, 65, 191, 192, 255, 256, 257, 271, 511, 512, 513, 767, 768,
           1000, 4096, 4097 + 256)
AD_LENGTHS = (0, 1, 12, 16, 17, 255, 300)


def _pattern(n, seed):
    return bytes((i * 131 + seed * 17 + (i >> 8)) & 0xFF for i in range(n))


@pytest.fixture(scope="module", params=CPU_MODELS)
def lib(request):
    require_emulation()
    from crypto_api.machine import backend
    return backend.load("arm64", CORE, cpu=request.param)


def seal(lib, key, nonce, ad, pt):
    out = bytearray(len(pt) + 16)
    assert lib.chacha20poly1305_seal_neon(key, nonce, ad, len(ad), pt, len(pt), out) == 0
    return bytes(out)


def open_(lib, key, nonce, ad, sealed, fill=b"\x5a"):
    n = len(sealed) - 16
    out = bytearray(fill * n)
    rc = lib.chacha20poly1305_open_neon(key, nonce, ad, len(ad), sealed[:n], n, sealed[n:], out)
    return rc, bytes(out)


def test_vectors_both_ways(lib):
    for v in VECTORS:
        key, nonce, ad, pt = (bytes.fromhex(v[k]) for k in ("key", "nonce", "aad", "plaintext"))
        sealed = bytes.fromhex(v["ciphertext"] + v["tag"])
        rc, out = open_(lib, key, nonce, ad, sealed)
        if v["valid"]:
            assert seal(lib, key, nonce, ad, pt) == sealed, v["id"]
            assert (rc, out) == (0, pt), v["id"]
        else:
            assert (rc, out) == (-EBADMSG, bytes(len(pt))), v["id"]


@pytest.mark.parametrize("adlen", AD_LENGTHS)
def test_lengths_where_the_loop_changes_shape(lib, adlen):
    key, nonce = _pattern(32, adlen), _pattern(12, adlen + 1)
    ad = _pattern(adlen, 7)
    for n in LENGTHS:
        pt = _pattern(n, n)
        ref = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
        assert seal(lib, key, nonce, ad, pt) == ref, (adlen, n)
        assert open_(lib, key, nonce, ad, ref) == (0, pt), (adlen, n)


@pytest.mark.parametrize("n", [0, 16, 256, 512, 1024 + 48, 65536])
def test_all_ones_inputs(lib, n):
    """Every message limb 2^64 - 1: the longest carry chains of the
    radix-2^64 accumulator (and a key whose r has every unclamped bit set)."""
    key, nonce, ad, pt = b"\xff" * 32, b"\xff" * 12, b"\xff" * 48, b"\xff" * n
    ref = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
    assert seal(lib, key, nonce, ad, pt) == ref
    assert open_(lib, key, nonce, ad, ref) == (0, pt)


@settings(max_examples=25, deadline=None)
@given(key=exactly(32), nonce=exactly(12), ad=st.binary(max_size=600), pt=st.binary(max_size=3000))
def test_matches_cryptography(key, nonce, ad, pt):
    require_emulation()
    from crypto_api.machine import backend
    lib = backend.load("arm64", CORE, cpu="max")
    ref = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
    assert seal(lib, key, nonce, ad, pt) == ref
    assert open_(lib, key, nonce, ad, ref) == (0, pt)


@pytest.mark.parametrize("where", ["tag", "text", "assoc", "nonce"])
def test_a_wrong_tag_is_ebadmsg_and_zeros(lib, where):
    key, nonce, ad, pt = _pattern(32, 1), _pattern(12, 2), _pattern(40, 3), _pattern(700, 4)
    sealed = bytearray(ChaCha20Poly1305(key).encrypt(nonce, pt, ad))
    ad, nonce = bytearray(ad), bytearray(nonce)
    target, pos = {"tag": (sealed, -1), "text": (sealed, 600), "assoc": (ad, 39), "nonce": (nonce, 0)}[where]
    target[pos] ^= 0x80
    assert open_(lib, bytes(key), bytes(nonce), bytes(ad), bytes(sealed), fill=b"\xee") == \
        (-EBADMSG, bytes(len(pt)))


@pytest.fixture(scope="module")
def inplace_exe(tmp_path_factory):
    return build(tmp_path_factory.mktemp("cp"), "chacha20poly1305_main.c", ["chacha20poly1305_neon.c"])


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_in_place(inplace_exe, cpu):
    """dst == src: opening reads each group before the XOR overwrites it, and
    sealing's MAC trails over ciphertext already written."""
    cases = []
    for n in (0, 15, 256, 300, 512, 1024 + 100):
        key, nonce, ad = _pattern(32, n), _pattern(12, n + 3), _pattern(n % 50, n + 5)
        cases.append((key, nonce, ad, _pattern(n, n + 9)))
    refs = [ChaCha20Poly1305(k).encrypt(nc, pt, ad) for k, nc, ad, pt in cases]
    sealed = run(inplace_exe, cpu, [("seal", k, nc, ad, pt) for k, nc, ad, pt in cases])
    assert sealed == refs
    bad = bytearray(refs[-1])
    bad[3] ^= 1
    opened = run(inplace_exe, cpu, [("open", k, nc, ad, r[:-16], r[-16:]) for (k, nc, ad, _), r in
                                    zip(cases, refs)] + [("open", *cases[-1][:3], bad[:-16], bad[-16:])])
    assert opened[:-1] == [b"\x00" + pt for *_, pt in cases]
    assert opened[-1] == b"\x01" + bytes(len(bad) - 16)


def _blocks(asm: str):
    """The assembly's straight-line pieces: split at labels and branches."""
    block = []
    for line in asm.splitlines():
        ins = line.strip()
        if re.match(r"^\.?[A-Za-z_0-9]+:", ins) or re.match(r"^(b|b\.\w+|cbz|cbnz|tbz|tbnz|bl|ret)\b", ins):
            yield block
            block = []
        elif ins and not ins.startswith("."):
            block.append(ins.split()[0])
    yield block


def test_one_loop_body_holds_chacha_rounds_and_poly1305_products():
    """Compiled as the helper compiles it: some straight-line block carries
    both the NEON ChaCha rotation by 16 (rev32) and the Poly1305 high
    products (umulh), i.e. keystream and MAC are computed in one sweep, not
    in two passes (which would leave them in different loops)."""
    require_emulation()
    cmd = ["aarch64-linux-gnu-gcc", "-O2", "-march=armv8-a", *[f"-I{d}" for d in INCLUDES],
           "-S", "-o", "-", str(ARM64 / "chacha20poly1305_neon.c")]
    asm = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    mixed = [b for b in _blocks(asm) if b.count("rev32") >= 4 and b.count("umulh") >= 2]
    assert mixed, "no block mixes ChaCha rounds and Poly1305 products"
    # and the rounds-only blocks (block 0, the tail) exist beside them: the check can tell
    assert any(b.count("rev32") >= 4 and "umulh" not in b for b in _blocks(asm))
