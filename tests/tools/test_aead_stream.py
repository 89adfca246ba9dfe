"""The streaming ChaCha20-Poly1305 of ``enc``/``dec`` (tools/aead_stream.py), in process.

Byte identity: streamed in chunks, a message gives exactly what one request
to the registered AEAD gives (``crypto_alloc_aead(...).encrypt``) and what
``cryptography``'s ChaCha20Poly1305 gives, for text lengths around chunk
boundaries (1 MiB chunks, and small chunks around 16- and 64-byte
multiples), AD of any size, the template instance and the one-pass driver;
the RFC 7539 / 8439 vectors both ways.  Decryption in one pass and in two
passes gives the plaintext back and refuses tampered messages (EBADMSG); the
second pass refuses an input changed since the first, before writing it.
The streams use the AEAD's own children (a template instance's spawns).
"""

import io
from errno import EIO

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import given, settings
from hypothesis import strategies as st

import crypto_api as capi
from crypto_api.errors import EBADMSG, EINVAL, CryptoError
from crypto_api.testmgr.vectors import load_json
from crypto_api.tools.aead_stream import rewind, stream_for
from crypto_api.tools.stream_crypt import CHUNK, InputSource, open_input
from crypto_api.version_rules import rule
from drawn_bytes import exactly
from kernel_names import driver, instance

RFC = "rfc7539(chacha20,poly1305)"
#: the instance of generic children, by the followed kernel's driver names
GENERIC = instance("rfc7539(chacha20-generic,poly1305-generic)")
ESP = "rfc7539esp(chacha20,poly1305)"
VECTORS = load_json("rfc7539-chacha20poly1305.json")["vectors"]

_TFMS = {}


def keyed(name, key):
    """(AEAD tfm, its stream), both keyed with ``key`` (allocated once per name)."""
    if name not in _TFMS:
        tfm = capi.crypto_alloc_aead(name)
        _TFMS[name] = (tfm, stream_for(tfm))
    tfm, stream = _TFMS[name]
    tfm.setkey(key)
    stream.setkey(key)
    return tfm, stream


def pipe(data):
    """A non-seekable input holding ``data``."""
    return InputSource("test input", stream=io.BytesIO(bytes(data)))


def seal(stream, iv, aad, data, chunk):
    out = bytearray()
    stream.seal(iv, aad, pipe(data), out.extend, chunk)
    return bytes(out)


def open_one_pass(stream, iv, aad, data, chunk):
    out = bytearray()
    stream.open_one_pass(iv, aad, pipe(data), out.extend, chunk)
    return bytes(out)


def open_two_passes(stream, iv, aad, data, chunk, path):
    path.write_bytes(data)
    out = bytearray()
    with open_input(str(path)) as src:
        pins = []
        stream.verify(iv, aad, src, pins, chunk)
        rewind(src)
        stream.decrypt_verified(iv, src, out.extend, pins, chunk)
    return bytes(out)


def test_streams_use_the_instance_children():
    tfm = capi.crypto_alloc_aead(GENERIC)
    stream = stream_for(tfm)
    try:
        assert stream.chacha.alg.cra_driver_name == driver("chacha20-generic")
        # 6.16+: the template hashes with the Poly1305 library (here the best poly1305)
        library = rule("rfc7539.instance", "echo") == "library"
        poly = capi.crypto_alloc_shash("poly1305") if library else None
        try:
            assert stream.poly.alg.cra_driver_name == (poly.driver_name if library else driver("poly1305-generic"))
        finally:
            if poly is not None:
                poly.free()
        spawns = tfm.alg.instance.spawns
        assert stream.chacha.alg is spawns[0].alg and stream.poly.alg is spawns[1].alg
    finally:
        stream.free()
        tfm.free()


def test_a_driver_that_is_no_instance_streams_through_the_children_its_name_says():
    """The one-pass driver (where the CPU has one) has no spawns: its cra_name's parameters
    are looked up as usual, giving the best chacha20 and poly1305."""
    with capi.crypto_alloc_aead(RFC) as tfm:
        if tfm.alg.instance is not None:
            pytest.skip(f"{RFC} is the template instance here (no one-pass driver on this CPU)")
        stream = stream_for(tfm)
        try:
            with capi.crypto_alloc_skcipher("chacha20") as c, capi.crypto_alloc_shash("poly1305") as p:
                assert stream.chacha.alg is c.alg and stream.poly.alg is p.alg
            assert not stream.from_instance and "cannot be fed in pieces" in stream.children
        finally:
            stream.free()


SMALL_CHUNKS = st.sampled_from([64, 128, 192, 256, 1024])
#: text lengths near multiples of 16 and 64 (and of the small chunks)
NEAR_SMALL = st.tuples(st.integers(0, 40), st.integers(-17, 17)).map(lambda t: max(0, 16 * t[0] + t[1]))


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from([RFC, GENERIC]), key=exactly(32), iv=exactly(12), chunk=SMALL_CHUNKS,
       data=NEAR_SMALL.flatmap(exactly), aad=st.binary(max_size=80))
def test_small_chunks_match_one_request_and_cryptography(name, key, iv, chunk, data, aad, tmp_path_factory):
    tfm, stream = keyed(name, key)
    ct = seal(stream, iv, aad, data, chunk)
    assert ct == tfm.encrypt(data, iv, assoc=aad)
    assert ct == ChaCha20Poly1305(key).encrypt(iv, data, aad)
    assert open_one_pass(stream, iv, aad, ct, chunk) == data
    assert open_two_passes(stream, iv, aad, ct, chunk, tmp_path_factory.mktemp("s") / "ct") == data


#: text lengths around 1, 2 and 3 MiB chunk boundaries
NEAR_MIB = st.tuples(st.integers(1, 3), st.integers(-80, 80)).map(lambda t: t[0] * CHUNK + t[1])


@settings(max_examples=6, deadline=None)
@given(name=st.sampled_from([RFC, GENERIC]), key=exactly(32), iv=exactly(12),
       data=NEAR_MIB.flatmap(exactly), aad=st.binary(max_size=40))
def test_mib_chunks_match_one_request_and_cryptography(name, key, iv, data, aad):
    tfm, stream = keyed(name, key)
    ct = seal(stream, iv, aad, data, CHUNK)
    assert ct == ChaCha20Poly1305(key).encrypt(iv, data, aad)
    assert ct == tfm.encrypt(data, iv, assoc=aad)
    assert open_one_pass(stream, iv, aad, ct, CHUNK) == data


@settings(max_examples=30, deadline=None)
@given(key=exactly(36), iv=exactly(8), chunk=SMALL_CHUNKS, data=NEAR_SMALL.flatmap(exactly),
       aad=st.binary(min_size=8, max_size=60))
def test_esp_matches_one_request(key, iv, chunk, data, aad):
    """rfc7539esp: salt from the key, the AD's last 8 bytes (the IV copy) not authenticated."""
    tfm, stream = keyed(ESP, key)
    ct = seal(stream, iv, aad, data, chunk)
    assert ct == tfm.encrypt(data, iv, assoc=aad)
    assert ct == ChaCha20Poly1305(key[:32]).encrypt(key[32:] + iv, data, aad[:-8])
    assert open_one_pass(stream, iv, aad, ct, chunk) == data


def test_esp_refuses_an_ad_without_the_iv_copy():
    _, stream = keyed(ESP, bytes(36))
    with pytest.raises(CryptoError) as e:
        seal(stream, bytes(8), b"short", b"text", 64)
    assert e.value.errno == EINVAL and "IV copy" in str(e.value)


@pytest.mark.parametrize("name", [RFC, GENERIC])
@pytest.mark.parametrize("v", VECTORS, ids=[v["id"] for v in VECTORS])
def test_rfc7539_vectors(name, v, tmp_path):
    h = {k: bytes.fromhex(v[k]) for k in ("kernel_key", "kernel_iv", "kernel_assoc", "plaintext",
                                          "kernel_ctext")}
    if v["kernel_alg"] != RFC:
        name = name.replace("rfc7539(", "rfc7539esp(")
    _, stream = keyed(name, h["kernel_key"])
    ct, iv, aad = h["kernel_ctext"], h["kernel_iv"], h["kernel_assoc"]
    if v["valid"]:
        assert seal(stream, iv, aad, h["plaintext"], 64) == ct
        assert open_one_pass(stream, iv, aad, ct, 64) == h["plaintext"]
        assert open_two_passes(stream, iv, aad, ct, 64, tmp_path / "ct") == h["plaintext"]
    else:
        for opener in (lambda: open_one_pass(stream, iv, aad, ct, 64),
                       lambda: open_two_passes(stream, iv, aad, ct, 64, tmp_path / "ct")):
            with pytest.raises(CryptoError) as e:
                opener()
            assert e.value.errno == EBADMSG


def _tamper(ct, aad, what, at):
    if what == "tag":
        return ct[:-1] + bytes([ct[-1] ^ 1]), aad
    if what == "text":
        i = at % (len(ct) - 16)
        return ct[:i] + bytes([ct[i] ^ 0x20]) + ct[i + 1:], aad
    return ct, aad + b"\0"


@settings(max_examples=30, deadline=None)
@given(key=exactly(32), iv=exactly(12), data=st.integers(1, 700).flatmap(exactly),
       aad=st.binary(max_size=40), what=st.sampled_from(["tag", "text", "aad"]),
       at=st.integers(0, 10 ** 6))
def test_tampered_messages_are_ebadmsg_and_two_passes_write_nothing(key, iv, data, aad, what, at,
                                                                    tmp_path_factory):
    _, stream = keyed(GENERIC, key)
    ct, bad_aad = _tamper(seal(stream, iv, aad, data, 64), aad, what, at)
    with pytest.raises(CryptoError) as e:
        open_one_pass(stream, iv, bad_aad, ct, 64)
    assert e.value.errno == EBADMSG and "authentication failed" in str(e.value)
    path = tmp_path_factory.mktemp("t") / "ct"
    path.write_bytes(ct)
    with open_input(str(path)) as src:
        with pytest.raises(CryptoError) as e:
            stream.verify(iv, bad_aad, src, [], 64)
    assert e.value.errno == EBADMSG


def test_short_input_is_einval():
    _, stream = keyed(RFC, bytes(32))
    with pytest.raises(CryptoError) as e:
        open_one_pass(stream, bytes(12), b"", b"x" * 15, 64)
    assert e.value.errno == EINVAL and "16-byte tag" in str(e.value)


@pytest.mark.parametrize("change", ["a byte", "longer", "shorter"])
def test_the_second_pass_refuses_an_input_changed_after_the_first(tmp_path, change):
    """A file changed between the passes: the chunks before the change come
    out, the changed one and the rest do not (EIO)."""
    key, iv, chunk = bytes(range(32)), bytes(12), 256
    _, stream = keyed(RFC, key)
    data = bytes(range(256)) * 8                                # 8 chunks
    ct = seal(stream, iv, b"", data, chunk)
    path = tmp_path / "ct"
    path.write_bytes(ct)
    out = bytearray()
    with open_input(str(path)) as src:
        pins = []
        stream.verify(iv, b"", src, pins, chunk)
        changed = {"a byte": ct[:3 * chunk] + b"\xff" + ct[3 * chunk + 1:],
                   "longer": ct + b"more", "shorter": ct[:5 * chunk + 16]}[change]
        with open(path, "r+b") as f:
            f.write(changed)
            f.truncate()
        src.size = len(changed)
        rewind(src)
        with pytest.raises(CryptoError) as e:
            stream.decrypt_verified(iv, src, out.extend, pins, chunk)
    assert e.value.errno == EIO and "changed after its tag was verified" in str(e.value)
    kept = {"a byte": 3, "longer": 8, "shorter": 5}[change]     # "longer": all 8 verified chunks
    assert bytes(out) == data[:kept * chunk]
